#!/usr/bin/env bash
# bench/web/run.sh — Arcana's web server (srv.arc: hello.arc's /hello op)
# against Puma 5 on Ruby 3.1 (config.ru, the same 5-byte text/html body),
# measured in the same run on the same machine, with the ratios (above 1:
# Arcana is ahead).
#
# Each server listens on a free 127.0.0.1 port (Arcana: --host=127.0.0.1
# with port 0, the port read from its "ready to serve port N" line; Puma:
# a port picked here, -e production, its default threads), is warmed with
# 2,000 requests, measured, and stopped (SIGTERM). Four configurations:
# Arcana single, Arcana --workers=2, Puma single, Puma -w 2.
#
#  1. Load shapes, each configuration RUNS times (default 3), interleaved
#     (run 1 of every configuration, then run 2, ...), a fresh server each
#     time; the medians are printed:
#       ab -n 50000 -c 1 -k        one client, keep-alive
#       ab -n 20000 -c 1           one client, a new connection per request
#       wrk -t2 -c16 -d10s --latency
#     requests per second, and p50 and p99 latency in ms (ab's percentile
#     table, read from its -e CSV for microsecond resolution; wrk's
#     --latency distribution); errors are failed, non-2xx, missing and
#     socket-error requests summed over the runs. The ratio is Arcana's
#     requests per second over Puma's, single against single and workers
#     against workers. Target: at least 2x Puma on each shape.
#  2. The overload ladder of Puma's pull request #2695 (wrk overload
#     testing): against Arcana single and Puma single, wrk -t2 at 4, 8, 16,
#     32 and 64 connections, LADDER_SECS seconds each (default 4), the
#     server's USS (Private_Clean + Private_Dirty of /proc/PID/smaps_rollup)
#     read after each step. The memory change per request is the USS after
#     the last step minus after the first, over the requests of the steps
#     in between. Target: 0 bytes per request (within 1 byte of noise).
#     Then, apart from the target, a sixth step at 64 connections again
#     ("64+"): its change per request tells growth that came with the
#     connections (the first pass at 64) from growth with the requests.
#  3. Resident memory: the Arcana hello server's VmRSS (/proc/PID/status)
#     at rest after start (once it answers), after the warm-up, and after
#     100,000 more requests (ab -n 100000 -c 16 -k); Puma's beside it.
#     Target: at most 30 MB (10^6 bytes) for Arcana, after start and after
#     the 100,000.
#
# The machine's cores are shared by the client (ab, wrk) and the server,
# so the figures are those of a server with part of the machine.
# Needs ab (apache2-utils), wrk, puma, ruby: installed with apt-get when
# missing. Builds nothing: expects build/arcana (ARCANA=path overrides).
# The servers run in a temporary directory (srv.arc's arc/ and static/).
#   bench/web/run.sh        RUNS=3 LADDER_SECS=4 ARCANA=build/arcana
# Takes about 6 minutes at RUNS=3 on 2 cores.
set -u
here=$(cd "$(dirname "$0")" && pwd)
arcana=${ARCANA:-$here/../../build/arcana}
runs=${RUNS:-3}
ladder_secs=${LADDER_SECS:-4}
[ -x "$arcana" ] || { echo "no $arcana: build arcana first (or set ARCANA)" >&2; exit 1; }
arcana=$(cd "$(dirname "$arcana")" && pwd)/$(basename "$arcana")

# Tools: installed when missing, as root (apt-get).
need() {  # command package
  command -v "$1" >/dev/null && return
  echo "installing $2 (for $1)" >&2
  apt-get install -y -qq "$2" >/dev/null 2>&1 ||
    { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq "$2" >/dev/null 2>&1; } ||
    { echo "cannot install $2" >&2; exit 1; }
}
need ab apache2-utils
need wrk wrk
need ruby ruby
need puma puma

tmp=$(mktemp -d)
mkdir -p "$tmp/srv" "$tmp/res"
srv_pid=
trap 'stop_server >/dev/null 2>&1; rm -rf "$tmp"' EXIT
problems=$tmp/problems    # what went wrong, printed at the end
: >"$problems"
problem() { echo "$*" >>"$problems"; echo "problem: $*" >&2; }

# ---- servers ----

free_port() {
  ruby -rsocket -e 's = TCPServer.new("127.0.0.1", 0); print s.addr[1]; s.close'
}

# Waits until $url answers 200 (up to 30 s); 1 if it never does.
wait_answer() {
  local i
  for i in $(seq 300); do
    kill -0 "$srv_pid" 2>/dev/null || return 1
    ab -q -n 1 "$url" 2>/dev/null | grep -q '^Complete requests: *1$' && return 0
    sleep 0.1
  done
  return 1
}

# start_server NAME: NAME is arcana, arcana-w2, puma or puma-w2. Sets
# srv_pid, srv_name, url; 1 if the server does not come up.
start_server() {
  srv_name=$1
  local out=$tmp/srv.out err=$tmp/srv.err port i
  : >"$out"; : >"$err"
  case $1 in
    arcana|arcana-w2)
      local w=(); [ "$1" = arcana-w2 ] && w=(--workers=2)
      (cd "$tmp/srv" && exec "$arcana" --host=127.0.0.1 "${w[@]}" "$here/hello.arc" 0) >"$out" 2>"$err" &
      srv_pid=$!
      port=
      for i in $(seq 300); do
        port=$(sed -n 's/^ready to serve port \([0-9]*\).*/\1/p' "$out")
        [ -n "$port" ] && break
        kill -0 "$srv_pid" 2>/dev/null || break
        sleep 0.1
      done
      [ -n "$port" ] || { problem "$1 did not start: $(cat "$out" "$err")"; stop_server; return 1; } ;;
    puma|puma-w2)
      local w=(); [ "$1" = puma-w2 ] && w=(-w 2)
      port=$(free_port)
      (cd "$tmp/srv" && exec puma -b "tcp://127.0.0.1:$port" -e production "${w[@]}" "$here/config.ru") >"$out" 2>"$err" &
      srv_pid=$! ;;
  esac
  url=http://127.0.0.1:$port/hello
  wait_answer || { problem "$1 does not answer $url: $(tail -5 "$out" "$err")"; stop_server; return 1; }
  srv_start_rss=$(rss "$srv_pid")
  ab -q -n 2000 -k "$url" >/dev/null 2>&1
  return 0
}

# Stops the server (SIGTERM; SIGKILL after 15 s), and its children if any
# outlive it; reports a crash or a nonzero exit of Arcana's.
stop_server() {
  [ -n "$srv_pid" ] || return 0
  local kids i rc k
  kids=$(pgrep -P "$srv_pid" | tr '\n' ' ')
  kill -TERM "$srv_pid" 2>/dev/null
  for i in $(seq 150); do kill -0 "$srv_pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$srv_pid" 2>/dev/null; then
    problem "$srv_name did not stop within 15 s of SIGTERM; killed"
    kill -KILL "$srv_pid" 2>/dev/null
  fi
  wait "$srv_pid" 2>/dev/null; rc=$?
  for k in $kids; do kill -0 "$k" 2>/dev/null && kill -KILL "$k" 2>/dev/null; done
  case $srv_name in arcana*)
    [ "$rc" -ne 0 ] && problem "$srv_name exited $rc; its stderr: $(tail -5 "$tmp/srv.err")"
    [ -s "$tmp/srv.err" ] && problem "$srv_name wrote to stderr: $(tail -5 "$tmp/srv.err")"
    local logged
    logged=$(cat "$tmp"/srv/arc/logs/err-* 2>/dev/null | wc -l)
    [ "$logged" -gt 0 ] && problem "$srv_name logged $logged errors (arc/logs/err-*): $(cat "$tmp"/srv/arc/logs/err-* | tail -3)" ;;
  esac
  rm -rf "$tmp/srv/arc/logs"
  srv_pid=
}

alive() {  # after a measurement: is the server still there?
  kill -0 "$srv_pid" 2>/dev/null && return 0
  problem "$srv_name died during $1: $(tail -5 "$tmp/srv.out" "$tmp/srv.err")"
  return 1
}

uss() { awk '/^Private_(Clean|Dirty):/ {s += $2} END {print s * 1024}' "/proc/$1/smaps_rollup"; }
rss() { awk '/^VmRSS:/ {print $2 * 1024}' "/proc/$1/status"; }

# ---- clients ----
# Each prints "rps p50_ms p99_ms errors requests", or "failed".

run_ab() {  # label ab-options...
  local label=$1; shift
  local o=$tmp/ab.out csv=$tmp/ab.csv rc
  rm -f "$csv"
  ab -q "$@" -e "$csv" "$url" >"$o" 2>&1; rc=$?
  if [ "$rc" -ne 0 ] || ! grep -q '^Requests per second' "$o"; then
    problem "$srv_name: ab $* failed (exit $rc): $(grep -v '^Completed' "$o" | tail -4)"
    echo failed; return
  fi
  awk -F'[:,]' -v csv="$csv" '
    /^Complete requests/ {done = $2 + 0}
    /^Failed requests/ {failed = $2 + 0}
    /^Non-2xx responses/ {non2xx = $2 + 0}
    /^Requests per second/ {split($2, a, " "); rps = a[1]}
    END {
      while ((getline line < csv) > 0) { split(line, f, ","); if (f[1] == "50") p50 = f[2]; if (f[1] == "99") p99 = f[2] }
      printf "%s %s %s %d %d\n", rps, p50, p99, failed + non2xx, done
    }' "$o"
  local errs
  errs=$(awk '/^Failed requests/ {f = $3} /^Non-2xx/ {n = $3} END {print f + n}' "$o")
  [ "$errs" -gt 0 ] && problem "$srv_name: ab $* — $(grep -E '^(Complete|Failed|Non-2xx|   \()' "$o" | tr -s ' ' | tr '\n' ';')"
}

run_wrk() {  # wrk-options...
  local o=$tmp/wrk.out rc
  wrk "$@" --latency "$url" >"$o" 2>&1; rc=$?
  if [ "$rc" -ne 0 ] || ! grep -q '^Requests/sec' "$o"; then
    problem "$srv_name: wrk $* failed (exit $rc): $(tail -4 "$o")"
    echo failed; return
  fi
  awk '
    function ms(s) {
      if (s ~ /us$/) return substr(s, 1, length(s) - 2) / 1000
      if (s ~ /ms$/) return substr(s, 1, length(s) - 2) + 0
      if (s ~ /s$/) return substr(s, 1, length(s) - 1) * 1000
      return s + 0
    }
    /Latency Distribution/ {dist = 1}
    dist && $1 == "50%" {p50 = ms($2)}
    dist && $1 == "99%" {p99 = ms($2); dist = 0}
    / requests in / {reqs = $1}
    /^Requests\/sec/ {rps = $2}
    /Non-2xx or 3xx/ {errs += $NF}
    /Socket errors/ {gsub(/,/, ""); errs += $4 + $6 + $8 + $10}
    END {printf "%s %.3f %.3f %d %d\n", rps, p50, p99, errs, reqs}' "$o"
  grep -qE 'Non-2xx|Socket errors' "$o" &&
    problem "$srv_name: wrk $* — $(grep -E 'Non-2xx|Socket errors|requests in' "$o" | tr -s ' ' | tr '\n' ';')"
}

shapes="abk ab wrk"
shape_name() {
  case $1 in
    abk) echo "ab -n 50000 -c 1 -k" ;;
    ab) echo "ab -n 20000 -c 1" ;;
    wrk) echo "wrk -t2 -c16 -d10s" ;;
  esac
}
measure() {  # shape
  case $1 in
    abk) run_ab abk -n 50000 -c 1 -k ;;
    ab) run_ab ab -n 20000 -c 1 ;;
    wrk) run_wrk -t2 -c16 -d10s ;;
  esac
}

# ---- 1. load shapes ----

configs="arcana arcana-w2 puma puma-w2"
echo "arcana: $arcana; $(puma --version | head -1), $(ruby -e 'print RUBY_DESCRIPTION.split(" ")[0,2].join(" ")');" \
     "$(nproc) cpus shared by client and server; load average before the start (other work) $(cut -d' ' -f1-3 /proc/loadavg); $(date -u +%Y-%m-%dT%H:%MZ)"
for r in $(seq "$runs"); do
  for cfg in $configs; do
    echo "run $r/$runs: $cfg" >&2
    if ! start_server "$cfg"; then
      for s in $shapes; do echo failed >>"$tmp/res/$cfg.$s"; done
      continue
    fi
    for s in $shapes; do
      measure "$s" >>"$tmp/res/$cfg.$s"
      alive "$(shape_name "$s")" || break
    done
    stop_server
  done
done

# The median of column $2 of file $1 (failed runs left out), or nan.
median() {
  [ -f "$1" ] || { echo nan; return; }
  grep -v failed "$1" | awk -v c="$2" '{print $c}' | sort -g |
    awk '{a[NR] = $1} END {if (NR == 0) print "nan"; else print a[int((NR + 1) / 2)]}'
}
sum_col() { [ -f "$1" ] && grep -v failed "$1" | awk -v c="$2" '{s += $c} END {print s + 0}' || echo 0; }
failed_runs() { local n=0; [ -f "$1" ] && n=$(grep -c failed "$1"); echo "${n:-0}"; }

echo
echo "1. load shapes: medians of $runs runs (req/s; p50, p99 in ms; err: failed + non-2xx + socket errors, all runs)"
printf '%-20s %-9s | %8s %7s %7s %4s | %8s %7s %7s %4s | %6s %s\n' \
  "shape" "config" "arcana" "p50" "p99" "err" "puma" "p50" "p99" "err" "ratio" ">=2x"
met=0; total=0; missed=""
for s in $shapes; do
  for pair in "single arcana puma" "2 workers arcana-w2 puma-w2"; do
    set -- $pair
    if [ "$1" = single ]; then label=single; a=$2; p=$3; else label="2 workers"; a=$3; p=$4; fi
    af=$tmp/res/$a.$s; pf=$tmp/res/$p.$s
    ar=$(median "$af" 1); pr=$(median "$pf" 1)
    verdict=$(awk -v a="$ar" -v p="$pr" -v ae="$(sum_col "$af" 4)" -v af="$(failed_runs "$af")" 'BEGIN {
      if (a == "nan" || p == "nan" || p == 0) { print "- -"; exit }
      r = a / p; printf "%.2f %s\n", r, (r >= 2 && ae == 0 && af == 0) ? "yes" : "no" }')
    ratio=${verdict% *}; ok=${verdict#* }
    total=$((total + 1))
    if [ "$ok" = yes ]; then met=$((met + 1)); else missed="$missed; $(shape_name "$s") $label"; fi
    printf '%-20s %-9s | %8.0f %7.3f %7.3f %4d | %8.0f %7.3f %7.3f %4d | %6s %s%s\n' \
      "$(shape_name "$s")" "$label" \
      "$ar" "$(median "$af" 2)" "$(median "$af" 3)" "$(sum_col "$af" 4)" \
      "$pr" "$(median "$pf" 2)" "$(median "$pf" 3)" "$(sum_col "$pf" 4)" "$ratio" "$ok" \
      "$( [ "$(failed_runs "$af")$(failed_runs "$pf")" != 00 ] && echo "  (failed runs: arcana $(failed_runs "$af"), puma $(failed_runs "$pf"))")"
  done
done
echo "target: Arcana at least 2x Puma's req/s on each shape, without errors: met on $met of $total${missed:+ (missed${missed#;})}"

# ---- 2. overload ladder ----

ladder="4 8 16 32 64"
for cfg in arcana puma; do
  echo "ladder: $cfg" >&2
  : >"$tmp/ladder.$cfg"
  start_server "$cfg" || continue
  for c in $ladder 64+; do
    res=$(run_wrk -t2 -c"${c%+}" -d"${ladder_secs}s")
    [ "$res" = failed ] && res="failed 0 0 0 0"
    alive "ladder -c$c" || break
    sleep 0.2
    echo "$c $res $(uss "$srv_pid")" >>"$tmp/ladder.$cfg"
  done
  stop_server
done
echo
echo "2. overload ladder (Puma PR #2695): wrk -t2 -cN -d${ladder_secs}s --latency, USS after each step"
printf '%4s | %8s %7s %7s %4s %9s | %8s %7s %7s %4s %9s\n' \
  "-c" "arcana" "p50" "p99" "err" "USS KiB" "puma" "p50" "p99" "err" "USS KiB"
awk '
  function f(v, n) {
    if (!(n in v)) return sprintf("%8s %7s %7s %4s %9s", "-", "-", "-", "-", "-")
    split(v[n], a, " ")
    if (a[1] == "failed") return sprintf("%8s %7s %7s %4s %9.0f", "failed", "-", "-", "-", a[6] / 1024)
    return sprintf("%8.0f %7.3f %7.3f %4d %9.0f", a[1], a[2], a[3], a[4], a[6] / 1024)
  }
  { line = $0; sub(/^[^ ]+ /, "", line) }
  FNR == NR { arc[$1] = line; next }
  { pum[$1] = line }
  END {
    n = split("'"$ladder"' 64+", cs, " ")
    for (i = 1; i <= n; ++i) printf "%4s | %s | %s\n", cs[i], f(arc, cs[i]), f(pum, cs[i])
  }' "$tmp/ladder.arcana" "$tmp/ladder.puma"
per_request() {  # ladder file: "bytes_per_request uss_first uss_last requests" or nan
  awk '$1 ~ /[+]$/ {next} NR == 1 {first = $NF; next} $2 != "failed" {reqs += $6; last = $NF}
       END {if (reqs > 0) printf "%.2f %d %d %d\n", (last - first) / reqs, first, last, reqs; else print "nan"}' "$1"
}
for cfg in arcana puma; do
  read -r bpr first last reqs <<<"$(per_request "$tmp/ladder.$cfg")"
  if [ "$bpr" = nan ]; then
    echo "memory change per request, $cfg: - (the ladder did not run)"
  else
    printf 'memory change per request, %-6s: %8s bytes (USS %d -> %d KiB over %d requests of steps 2-5)\n' \
      "$cfg" "$bpr" $((first / 1024)) $((last / 1024)) "$reqs"
  fi
  [ "$cfg" = arcana ] && arcana_bpr=$bpr
done
for cfg in arcana puma; do
  awk -v cfg="$cfg" '$1 == "64" {before = $NF} $1 == "64+" && $2 != "failed" && before != "" {
    printf "the repeat at 64 (64+), %-6s: %8.2f bytes per request (USS %d -> %d KiB over %d requests)\n",
           cfg, ($NF - before) / $6, before / 1024, $NF / 1024, $6 }' "$tmp/ladder.$cfg"
done
awk -v b="$arcana_bpr" 'BEGIN {
  if (b == "nan") v = "not measured"; else v = (b <= 1 && b >= -1) ? "met" : "missed"
  print "target: Arcana 0 bytes per request (within 1 byte of noise): " v }'

# ---- 3. resident memory ----

echo >&2 "resident memory"
echo
echo "3. resident memory (VmRSS): at rest after start, after the 2,000-request warm-up, after 100,000 more requests (ab -n 100000 -c 16 -k)"
for cfg in arcana puma; do
  start_server "$cfg" || continue
  rest=$srv_start_rss; warm=$(rss "$srv_pid")
  res=$(run_ab rss -n 100000 -c 16 -k)
  if alive "ab -n 100000 -c 16 -k"; then
    after=$(rss "$srv_pid")
    printf '%-7s after start %6.1f MB, after warm-up %6.1f MB, after 100,000 requests %6.1f MB (%s req/s, %s errors)\n' \
      "$cfg" "$(echo "$rest / 1000000" | bc -l)" "$(echo "$warm / 1000000" | bc -l)" "$(echo "$after / 1000000" | bc -l)" \
      "$(echo "$res" | awk '{printf "%.0f", $1}')" "$(echo "$res" | awk '{print $4}')"
    [ "$cfg" = arcana ] && arcana_rss="$rest $after"
  fi
  stop_server
done
awk -v r="${arcana_rss:-}" 'BEGIN {
  if (r == "") { print "target: Arcana at most 30 MB: not measured"; exit }
  split(r, a, " "); m = (a[1] > a[2]) ? a[1] : a[2]
  printf "target: Arcana at most 30 MB (10^6 bytes) at rest and after 100,000 requests: %s (%.1f MB)\n", (m <= 30e6 ? "met" : "missed"), m / 1e6 }'

echo
if [ -s "$problems" ]; then
  echo "problems ($(wc -l <"$problems")):"
  sed 's/^/  /' "$problems"
else
  echo "problems: none (no failed requests, non-2xx answers, socket errors, crashes or stderr output)"
fi
