#!/usr/bin/env bash
# bench/profile_cost.sh — what measuring costs: the Arc-level sampling
# profiler at 1,000 Hz (--profile=FILE) against the same binary without it,
# and, with BEFORE=path/to/arcana, this binary with everything off against
# an older one (the figure "with profiling off, nothing measurable").
# Targets (docs/LANGUAGE.md 8.4): profiler on, at most 5% slower; off, within
# the noise of the binary before.
#
#  1. bench/engine's programs (fib, lists, loop, tables): each RUNS times
#     (default 7), the binaries alternating run by run; the median user+sys
#     CPU seconds of each (from /usr/bin/time's figures, as bench/gc does:
#     the wall clock of a shared machine moves more), and the ratios.
#  2. The news site (bench/web/news-server.arc over news-data.arc's data,
#     as bench/web/news.sh runs it), a server per binary and setting, all
#     up at once on free loopback ports: logged-in /news, anonymous /news
#     and the item page with the most comments, ab -n AB_N -c 1 -k (default
#     3000) on each server in turn, RUNS times; the median mean time per
#     request (ab's "time per request"), and the ratios. Each server is
#     warmed first with 1,000 requests of each page. Beside them, bench/web's
#     /hello (hello.arc, a server per configuration too), ab -n HELLO_N -c 1
#     -k (default 20000): the server's own cost per request, where the
#     per-op figures (srv.arc's opstats*) weigh most.
#
#   bench/profile_cost.sh                      ARCANA=build/arcana RUNS=7 AB_N=3000 HELLO_N=20000
#   BEFORE=/path/to/old/arcana bench/profile_cost.sh
#
# The profiles are written to a temporary folder and checked to hold
# samples (go tool pprof -top, where Go is installed), so that "on" is not
# a profiler that wrote nothing. Needs ab (apache2-utils), curl and
# /usr/bin/time (time): installed with apt-get when missing. Takes about 3
# minutes with BEFORE, 2 without, on 2 cores.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
arcana=${ARCANA:-$root/build/arcana}
before=${BEFORE:-}
runs=${RUNS:-7}
ab_n=${AB_N:-3000}
hello_n=${HELLO_N:-20000}
[ -x "$arcana" ] || { echo "no $arcana: build arcana first (or set ARCANA)" >&2; exit 1; }
[ -z "$before" ] || [ -x "$before" ] || { echo "BEFORE=$before is not an executable" >&2; exit 1; }

need() {  # command package
  command -v "$1" >/dev/null && return
  echo "installing $2 (for $1)" >&2
  apt-get install -y -qq "$2" >/dev/null 2>&1 ||
    { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq "$2" >/dev/null 2>&1; } ||
    { echo "cannot install $2 (for $1)" >&2; exit 1; }
}
need ab apache2-utils
need curl curl
[ -x /usr/bin/time ] || need /usr/bin/time time

tmp=$(mktemp -d /tmp/profile-cost-XXXXXX)
pids=()
trap 'for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$tmp"' EXIT
load=$(cut -d' ' -f1-3 /proc/loadavg)

# The configurations: name and command prefix.
names=(off on)
declare -A cmd
cmd[off]="$arcana"
cmd[on]="$arcana --profile=$tmp/PROFILE.pb.gz --profile-rate=1000"
if [ -n "$before" ]; then
  names=(before off on)
  cmd[before]="$before"
fi
# A configuration's command for one run: its own profile file each time.
cmd_for() { echo "${cmd[$1]//PROFILE/$1-$2}"; }

median() { sort -g | awk '{a[NR] = $1} END {if (NR == 0) print "nan"; else print a[int((NR + 1) / 2)]}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (a == "nan" || b == "nan" || b == 0) print "-"; else printf "%.3f", a / b}'; }

# ---- 1. bench/engine ----

echo "1. bench/engine: $runs runs each, alternating" >&2
for f in "$here"/engine/*.arc; do
  name=$(basename "$f" .arc)
  for r in $(seq "$runs"); do
    for c in "${names[@]}"; do
      # shellcheck disable=SC2046
      /usr/bin/time -o "$tmp/t" -f "%U %S" $(cmd_for "$c" "$name-$r") "$f" >/dev/null 2>"$tmp/err" ||
        { echo "$c $name failed: $(tail -3 "$tmp/err")" >&2; continue; }
      awk '{print $1 + $2}' "$tmp/t" >>"$tmp/engine.$name.$c"
    done
  done
done

# ---- 2. the news site ----

echo "2. the news site: seeding the data set, starting ${#names[@]} servers" >&2
"$arcana" "$here/web/news-data.arc" "$root/apps/news/" "$tmp/data/" >"$tmp/seed.out" 2>&1 ||
  { echo "news-data.arc failed: $(tail -5 "$tmp/seed.out")" >&2; exit 1; }
cookie=$(awk '$1 == "cookie" {print $2}' "$tmp/data/bench-info")
item=$(awk '$1 == "item" {print $2}' "$tmp/data/bench-info")
declare -A base hello
for c in "${names[@]}"; do
  d=$tmp/srv-$c
  cp -a "$tmp/data" "$d"
  # shellcheck disable=SC2046
  (cd "$d" && exec $(cmd_for "$c" news) "$here/web/news-server.arc" "$root/apps/news/" "$d/" 0) \
    >"$d/out" 2>"$d/err" &
  pids+=($!)
  port=
  for _ in $(seq 300); do
    port=$(sed -n 's/^ready to serve port \([0-9]*\).*/\1/p' "$d/out")
    [ -n "$port" ] && break
    sleep 0.1
  done
  [ -n "$port" ] || { echo "the $c server did not start: $(tail -5 "$d/out" "$d/err")" >&2; exit 1; }
  base[$c]=http://127.0.0.1:$port
  # and its hello server
  h=$tmp/hello-$c
  mkdir -p "$h"
  # shellcheck disable=SC2046
  (cd "$h" && exec $(cmd_for "$c" hello) --host=127.0.0.1 "$here/web/hello.arc" 0) >"$h/out" 2>"$h/err" &
  pids+=($!)
  port=
  for _ in $(seq 300); do
    port=$(sed -n 's/^ready to serve port \([0-9]*\).*/\1/p' "$h/out")
    [ -n "$port" ] && break
    sleep 0.1
  done
  [ -n "$port" ] || { echo "the $c hello server did not start: $(tail -5 "$h/out" "$h/err")" >&2; exit 1; }
  hello[$c]=http://127.0.0.1:$port/hello
done

pages="li anon item"
page_name() { case $1 in li) echo "/news logged in" ;; anon) echo "/news anonymous" ;; item) echo "/item?id=$item logged in" ;; esac; }
page_path() { case $1 in li|anon) echo /news ;; item) echo "/item?id=$item" ;; esac; }
ab_page() {  # config page n: ab's mean ms per request, or nan
  local hdr=()
  [ "$2" = anon ] || hdr=(-H "Cookie: user=$cookie")
  ab -q -n "$3" -c 1 -k -l "${hdr[@]}" "${base[$1]}$(page_path "$2")" 2>/dev/null |
    awk '/^Time per request:.*\(mean\)$/ {print $4; found = 1} /^Failed requests: *[1-9]/ {bad = 1}
         END {if (!found || bad) print "nan"}' | head -1
}
ab_hello() {  # config n: requests per second, or nan
  ab -q -n "$2" -c 1 -k "${hello[$1]}" 2>/dev/null |
    awk '/^Requests per second:/ {print $4; found = 1} /^Failed requests: *[1-9]/ {bad = 1}
         END {if (!found || bad) print "nan"}' | head -1
}
for c in "${names[@]}"; do
  for p in $pages; do ab_page "$c" "$p" 1000 >/dev/null; done
  ab_hello "$c" 2000 >/dev/null
done
for r in $(seq "$runs"); do
  echo "  run $r/$runs" >&2
  for p in $pages; do
    for c in "${names[@]}"; do ab_page "$c" "$p" "$ab_n" >>"$tmp/web.$p.$c"; done
  done
  for c in "${names[@]}"; do ab_hello "$c" "$hello_n" >>"$tmp/web.hello.$c"; done
done
for i in "${!pids[@]}"; do kill -TERM "${pids[$i]}" 2>/dev/null; done
wait 2>/dev/null
pids=()

# ---- report ----

echo
echo "arcana: $arcana${before:+; before: $before}; $(nproc) cpus; load average at the start $load; $(date -u +%Y-%m-%dT%H:%MZ)"
echo "on: --profile=FILE --profile-rate=1000 (the sampling profiler at 1,000 Hz of CPU time); off: no option"
echo
echo "1. bench/engine, median user+sys seconds of $runs runs"
if [ -n "$before" ]; then
  printf '%-8s %8s %8s %8s | %10s %10s\n' bench before off on "off/before" "on/off"
else
  printf '%-8s %8s %8s | %10s\n' bench off on "on/off"
fi
for f in "$here"/engine/*.arc; do
  name=$(basename "$f" .arc)
  off=$(median <"$tmp/engine.$name.off"); on=$(median <"$tmp/engine.$name.on")
  if [ -n "$before" ]; then
    b=$(median <"$tmp/engine.$name.before")
    printf '%-8s %8.2f %8.2f %8.2f | %10s %10s\n' "$name" "$b" "$off" "$on" "$(ratio "$off" "$b")" "$(ratio "$on" "$off")"
  else
    printf '%-8s %8.2f %8.2f | %10s\n' "$name" "$off" "$on" "$(ratio "$on" "$off")"
  fi
done
echo
echo "2. the news site, ab -n $ab_n -c 1 -k, median of $runs runs of the mean ms per request"
if [ -n "$before" ]; then
  printf '%-24s %8s %8s %8s | %10s %10s\n' page before off on "off/before" "on/off"
else
  printf '%-24s %8s %8s | %10s\n' page off on "on/off"
fi
for p in $pages; do
  off=$(median <"$tmp/web.$p.off"); on=$(median <"$tmp/web.$p.on")
  if [ -n "$before" ]; then
    b=$(median <"$tmp/web.$p.before")
    printf '%-24s %8.3f %8.3f %8.3f | %10s %10s\n' "$(page_name "$p")" "$b" "$off" "$on" "$(ratio "$off" "$b")" "$(ratio "$on" "$off")"
  else
    printf '%-24s %8.3f %8.3f | %10s\n' "$(page_name "$p")" "$off" "$on" "$(ratio "$on" "$off")"
  fi
done
echo
echo "   /hello (bench/web/hello.arc), ab -n $hello_n -c 1 -k, median requests per second (ratios of the time per request)"
off=$(median <"$tmp/web.hello.off"); on=$(median <"$tmp/web.hello.on")
if [ -n "$before" ]; then
  b=$(median <"$tmp/web.hello.before")
  printf '%-24s %8.0f %8.0f %8.0f | %10s %10s\n' "/hello" "$b" "$off" "$on" "$(ratio "$b" "$off")" "$(ratio "$off" "$on")"
else
  printf '%-24s %8.0f %8.0f | %10s\n' "/hello" "$off" "$on" "$(ratio "$off" "$on")"
fi
echo
# The profiles hold samples: the news server's, and one engine run's.
if command -v go >/dev/null; then
  for f in "$tmp/on-news.pb.gz" "$tmp/on-lists-1.pb.gz"; do
    [ -s "$f" ] || { echo "profile $(basename "$f"): not written"; continue; }
    echo "profile $(basename "$f"): $(go tool pprof -top "$f" 2>/dev/null | grep -m1 'Total samples')"
  done
else
  for f in "$tmp/on-news.pb.gz" "$tmp/on-lists-1.pb.gz"; do
    echo "profile $(basename "$f"): $([ -s "$f" ] && echo "$(stat -c %s "$f") bytes (go not installed: not decoded)" || echo "not written")"
  done
fi
