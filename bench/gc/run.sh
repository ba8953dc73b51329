#!/usr/bin/env bash
# bench/gc/run.sh — the collectors against each other, in the same run. Each
# program (binary_trees.arc at depth 18, binary_trees_plain.arc (the same
# work over globals with repeat and ++), gcbench.arc, list_churn.arc) runs
# under --gc=marksweep, --gc=gen (the default, its old generation marked
# concurrently), --gc=gen-stw (the same stopping the world for a major
# collection), --gc=vcgc and --gc=boehm, RUNS times each (default 3),
# interleaved (run 1 of every collector, then run 2, ...) so that a change
# of machine load falls on all of them, each run beginning with the next
# collector in turn. Printed, each the median of
# the runs:
#   wall, cpu     seconds: elapsed, and user + system (/usr/bin/time)
#   maxpause, p99 the longest pause and the 99th percentile, in ms
#   minor99       the 99th percentile of minor pauses (gen and gen-stw only), in ms
#   gc%           time in collections as a share of the run ((gc-stats) gc-share;
#                 for the concurrent collectors it counts their thread's CPU too)
#   thr%          the CPU of the collector's own thread (vcgc, gen) as a share of
#                 the run's CPU (all threads, the cpu column): the price of the
#                 pauses a second core spares
#   cpu99, cpumax the 99th percentile and the longest of the pauses' CPU time on
#                 the thread that paused, in ms (gen and gen-stw, from
#                 --gc-trace): what a pause costs with the machine's other
#                 load left out, which lengthens the wall-clock pauses above
#   rss           peak resident set, MiB (/usr/bin/time %M)
#   x-boehm       throughput against boehm: boehm's wall / this wall (above 1:
#                 faster than boehm); and the same for cpu
# Pauses and the GC share come from the GCSTATS line each program prints at
# its end from (gc-stats).
# A collector written NAME@MB runs with --nursery=MB as well (gen@4: gen
# with a 4 MiB nursery), and NAME@MB/N with --promote-age=N too, which
# fixes the age gen otherwise adapts (gen@1/1: a 1 MiB nursery, survivors
# always promoted at their first minor collection).
#   bench/gc/run.sh [path/to/arcana]        RUNS=5 COLLECTORS="gen gen@1 boehm" BENCHES="gcbench"
set -u
here=$(cd "$(dirname "$0")" && pwd)
arcana=${1:-$here/../../build/arcana}
runs=${RUNS:-3}
collectors=${COLLECTORS:-"marksweep gen gen-stw vcgc boehm"}
benches=${BENCHES:-"binary_trees binary_trees_plain gcbench list_churn"}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -x /usr/bin/time ] || { echo "run.sh: needs /usr/bin/time (GNU time)"; exit 2; }

# One run: appends "wall cpu maxpause p99 minor99 share rss_kib thread_ms
# cpu99 cpumax" to $tmp/$bench.$gc (a / in $gc as _), or "failed".
run_one() {
  local bench=$1 gc=$2 out="$tmp/out" tm="$tmp/time"
  local opts=(--gc="${gc%@*}")
  local spec=${gc#*@}
  if [ "$spec" != "$gc" ]; then
    opts+=(--nursery="${spec%/*}")
    [ "${spec#*/}" != "$spec" ] && opts+=(--promote-age="${spec#*/}")
  fi
  [[ $gc == gen* ]] && opts+=(--gc-trace)
  if ! /usr/bin/time -f "%e %U %S %M" -o "$tm" "$arcana" "${opts[@]}" "$here/$bench.arc" >"$out" 2>"$tmp/err"; then
    echo failed >>"$tmp/$bench.${gc//\//_}"
    echo "  $bench under $gc failed:" >&2
    tail -3 "$tmp/err" >&2
    return
  fi
  local stats cpus
  stats=$(grep '^GCSTATS' "$out")
  # The pauses' CPU times (--gc-trace's "(cpu X ms"), sorted: p99 and max.
  cpus=$(sed -n 's/^gc [0-9]*: .*(cpu \([0-9.]*\) ms.*/\1/p' "$tmp/err" | sort -g |
    awk '{a[NR] = $1} END {if (NR == 0) print "nan nan"; else print a[int(NR * 0.99) + (NR * 0.99 > int(NR * 0.99))], a[NR]}')
  awk -v t="$(tail -1 "$tm")" -v s="$stats" -v cp="$cpus" 'BEGIN {
    split(t, a, " ")
    n = split(s, f, " ")
    for (i = 2; i <= n; i++) { split(f[i], kv, "="); v[kv[1]] = kv[2] }
    printf "%s %s %s %s %s %s %s %s %s\n", a[1], a[2] + a[3], v["max-pause-ms"], v["p99-pause-ms"],
           v["p99-minor-pause-ms"], v["gc-share"], a[4], v["collector-thread-ms"] + 0, cp
  }' >>"$tmp/$bench.${gc//\//_}"
}

# The median of column $2 of file $1 (failed runs left out).
median() {
  grep -v failed "$1" | awk -v c="$2" '{print $c}' | sort -g |
    awk '{a[NR] = $1} END {if (NR == 0) print "nan"; else print a[int((NR + 1) / 2)]}'
}

# Each run begins with the next collector in turn (run 1: A B C, run 2:
# B C A, ...): on a virtual machine the first touch of memory no process
# touched lately costs milliseconds a huge page, and a collector always run
# after another that had freed as much was always spared it.
read -r -a order <<<"$collectors"
for r in $(seq "$runs"); do
  for bench in $benches; do
    for k in "${!order[@]}"; do
      gc=${order[$(((k + r - 1) % ${#order[@]}))]}
      echo "run $r/$runs: $bench --gc=$gc" >&2
      run_one "$bench" "$gc"
    done
  done
done

echo "arcana: $arcana; medians of $runs runs; $(nproc) cpus; $(date -u +%Y-%m-%dT%H:%MZ)"
printf '%-18s %-9s %7s %7s %9s %8s %8s %6s %6s %6s %5s %7s %8s %8s\n' \
  bench gc wall cpu maxpause p99 minor99 cpu99 cpumax gc% thr% rss-MiB x-boehm cpu-x-b
for bench in $benches; do
  bw=nan; bc=nan
  if [ -f "$tmp/$bench.boehm" ]; then bw=$(median "$tmp/$bench.boehm" 1); bc=$(median "$tmp/$bench.boehm" 2); fi
  for gc in $collectors; do
    f="$tmp/$bench.${gc//\//_}"
    w=$(median "$f" 1); c=$(median "$f" 2); mp=$(median "$f" 3); p99=$(median "$f" 4)
    m99=$(median "$f" 5); sh=$(median "$f" 6); rss=$(median "$f" 7); thr=$(median "$f" 8)
    c99=$(median "$f" 9); cmax=$(median "$f" 10)
    fails=$(grep -c failed "$f")
    awk -v b="$bench" -v g="$gc" -v w="$w" -v c="$c" -v mp="$mp" -v p="$p99" -v m="$m99" \
        -v sh="$sh" -v rss="$rss" -v thr="$thr" -v bw="$bw" -v bc="$bc" -v fails="$fails" \
        -v c99="$c99" -v cmax="$cmax" 'BEGIN {
      xr = (bw == "nan" || w == "nan" || w == 0) ? "-" : sprintf("%.2f", bw / w)
      xc = (bc == "nan" || c == "nan" || c == 0) ? "-" : sprintf("%.2f", bc / c)
      mm = (g ~ /^gen/) ? sprintf("%.2f", m) : "-"
      q99 = (c99 == "nan") ? "-" : sprintf("%.2f", c99)
      qmax = (cmax == "nan") ? "-" : sprintf("%.2f", cmax)
      tp = (c == "nan" || c == 0) ? "-" : sprintf("%.1f%%", thr / (c * 1000) * 100)
      printf "%-18s %-9s %7.2f %7.2f %9.2f %8.2f %8s %6s %6s %5.1f%% %5s %7.0f %8s %8s%s\n",
             b, g, w, c, mp, p, mm, q99, qmax, sh * 100, tp, rss / 1024, xr, xc,
             (fails > 0 ? "  (" fails " failed)" : "")
    }'
  done
done
