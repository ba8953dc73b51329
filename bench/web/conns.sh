#!/usr/bin/env bash
# bench/web/conns.sh — 10,000 open connections, each served by its own
# green thread: Arcana's hello server (conns.arc: hello.arc with
# max-conns* 20000, no max-conns-per-ip* since they all come from
# 127.0.0.1, and idle-timeout* 600 so that a connection waiting
# its turn is not closed by the 5-second idle timeout) on a free
# 127.0.0.1 port, and one client process (conns.py: non-blocking sockets
# and selectors, its fd limit raised with setrlimit) that
#   - reads the server's RSS (VmRSS) and USS (Private_Clean + Private_Dirty
#     of /proc/PID/smaps_rollup) at rest, after start and 1,000 warm-up
#     requests;
#   - opens CONNS (10,000) keep-alive connections, sends GET /hello on each
#     and reads its answer, keeping them all open;
#   - reads the server's RSS and USS again: the memory per open connection
#     is the difference from the server at rest over CONNS;
#   - sends a second request on every connection and reads the answers
#     again (the connections are all still served), and reads the memory
#     once more.
# Every answer must be 200 with the body "hello". For comparison, a
# suspended fiber's resident memory at the Arc level: the rss_per_fiber
# of bench/fiber/arc_count.arc (one of the figures of bench/fiber/run.sh),
# run here (about 2 s).
#   bench/web/conns.sh        CONNS=10000 ARCANA=build/arcana
# Takes about 10 seconds.
set -u
here=$(cd "$(dirname "$0")" && pwd)
arcana=${ARCANA:-$here/../../build/arcana}
n=${CONNS:-10000}
[ -x "$arcana" ] || { echo "no $arcana: build arcana first (or set ARCANA)" >&2; exit 1; }
arcana=$(cd "$(dirname "$arcana")" && pwd)/$(basename "$arcana")
command -v python3 >/dev/null || { echo "conns.sh needs python3" >&2; exit 1; }
command -v ab >/dev/null || apt-get install -y -qq apache2-utils >/dev/null 2>&1 ||
  { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq apache2-utils >/dev/null 2>&1; } ||
  { echo "cannot install apache2-utils (ab)" >&2; exit 1; }

load=$(cut -d' ' -f1-3 /proc/loadavg)
tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null && wait "$pid"; rm -rf "$tmp"' EXIT
problems=0
problem() { echo "problem: $*"; problems=$((problems + 1)); }

# The server's descriptors: CONNS connections and some; arcana raises its
# soft limit to the hard one.
want=$((n + 1000))
[ "$(ulimit -Hn)" != unlimited ] && [ "$(ulimit -Hn)" -lt "$want" ] && ulimit -Hn "$want" 2>/dev/null
[ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt "$want" ] && ulimit -n "$want" 2>/dev/null

(cd "$tmp" && exec "$arcana" --host=127.0.0.1 "$here/conns.arc" 0) >"$tmp/out" 2>"$tmp/err" &
pid=$!
port=
for _ in $(seq 300); do
  port=$(sed -n 's/^ready to serve port \([0-9]*\).*/\1/p' "$tmp/out")
  [ -n "$port" ] && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
[ -n "$port" ] || { echo "the server did not start: $(cat "$tmp/out" "$tmp/err")"; exit 1; }
start_rss=$(awk '/^VmRSS:/ {print $2 * 1024}' "/proc/$pid/status")
ab -q -n 1000 -k "http://127.0.0.1:$port/hello" >"$tmp/ab" 2>&1 ||
  problem "warm-up failed: $(tail -3 "$tmp/ab")"

python3 "$here/conns.py" "$port" "$pid" "$n" >"$tmp/client" 2>"$tmp/client.err" ||
  problem "the client failed: $(tail -5 "$tmp/client.err")"
kill -0 "$pid" 2>/dev/null || problem "the server died: $(tail -5 "$tmp/out" "$tmp/err")"
fiber=$("$arcana" "$here/../fiber/arc_count.arc" 2>/dev/null | awk '$1 == "rss_per_fiber" {print $2}')

echo "arcana: $arcana; $n connections from one client process; $(nproc) cpus shared by client and server;" \
     "load average before the start (other work) $load;" \
     "$(date -u +%Y-%m-%dT%H:%MZ)"
awk -v n="$n" -v start_rss="$start_rss" -v fiber="${fiber:-}" '
  $1 ~ /_failure$/ { r = substr($1, 1, 6); k = $2; $1 = $2 = ""; fails[++nf] = sprintf("%s: %d connections: %s", r, k, substr($0, 3)); next }
  { v[$1] = $2 }
  function mb(b) { return sprintf("%.1f MB", b / 1e6) }
  END {
    printf "server at rest: RSS %s after start, RSS %s and USS %s after 1,000 requests\n",
           mb(start_rss), mb(v["rest_rss"]), mb(v["rest_uss"])
    printf "round 1 (connect, GET /hello, keep the connection): %d of %d answered 200 \"hello\" in %s s\n",
           v["round1_ok"], n, v["round1_secs"]
    printf "with %d connections open: RSS %s, USS %s\n", v["round1_ok"], mb(v["held_rss"]), mb(v["held_uss"])
    rssc = (v["held_rss"] - v["rest_rss"]) / n; ussc = (v["held_uss"] - v["rest_uss"]) / n
    printf "memory per open connection: %.0f bytes RSS, %.0f bytes USS (difference from the server at rest / %d)\n", rssc, ussc, n
    printf "round 2 (a second GET on every connection): %d of %d answered 200 \"hello\" in %s s\n",
           v["round2_ok"], v["round2_tried"], v["round2_secs"]
    printf "after round 2: RSS %s, USS %s\n", mb(v["after_rss"]), mb(v["after_uss"])
    if (fiber > 0)
      printf "a suspended fiber (bench/fiber/arc_count.arc, the Arc-level rss_per_fiber of bench/fiber/run.sh): %d bytes RSS;\n  an open connection costs %.1f of them (RSS)\n", fiber, rssc / fiber
    else
      print "a suspended fiber: see bench/fiber/run.sh (rss_per_fiber, about 4.5 KB)"
    for (i = 1; i <= nf; ++i) print "failure in " fails[i]
    all = (v["round1_ok"] == n && v["round2_ok"] == n)
    printf "all %d connections answered twice: %s\n", n, all ? "yes" : "no"
    exit !all
  }' "$tmp/client" || problems=$((problems + 1))

kill -TERM "$pid" 2>/dev/null; wait "$pid"; rc=$?; pid=
[ "$rc" -ne 0 ] && problem "the server exited $rc"
[ -s "$tmp/err" ] && problem "the server wrote to stderr: $(tail -5 "$tmp/err")"
errs=$(cat "$tmp"/arc/logs/err-* 2>/dev/null | wc -l)
[ "$errs" -gt 0 ] && problem "the server logged $errs errors: $(cat "$tmp"/arc/logs/err-* | tail -3)"
[ "$problems" -eq 0 ] && echo "problems: none" || { echo "problems: $problems"; exit 1; }
