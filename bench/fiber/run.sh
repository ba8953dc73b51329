#!/usr/bin/env bash
# bench/fiber/run.sh — the fiber mechanism against Ruby 3.1's fibers,
# measured in the same run, with the ratios (above 1: Arcana is ahead).
#
# Two tables. The mechanism alone, in C++ (bench_context.cpp): the context
# switch, taking and returning pool slots, resident memory per live
# context. Then the same four workloads written in Arc on (fiber f), resume
# and yield (arc_*.arc), where each fiber also costs a heap object and
# interpreter frames. Last, the cost of capturing a continuation at two
# depths, and the precision of short sleeps among busy green threads.
#   bench/fiber/run.sh [bench_context [arcana]]    (RUNS=3: best of RUNS)
set -u
here=$(cd "$(dirname "$0")" && pwd)
bench=${1:-$here/../../build/bench_context}
arcana=${2:-$here/../../build/arcana}
[ -x "$bench" ] || { echo "no $bench: build the bench_context target first" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

"$bench" >"$out/arcana" || { echo "bench_context failed" >&2; exit 1; }
if command -v ruby >/dev/null; then
  for r in switch allocate reuse count; do ruby "$here/ruby_$r.rb" 2>>"$out/ruby.err"; done >"$out/ruby"
else
  : >"$out/ruby"
fi

echo "context switch: $(awk '$1 == "context_impl" {print $2}' "$out/arcana");" \
     "ruby $(ruby -e 'print RUBY_VERSION' 2>/dev/null || echo absent)"
[ -s "$out/ruby.err" ] && sed 's/^/note: /' "$out/ruby.err"
echo
# Rates: iterations per second; each arcana line (name or name/variant)
# against Ruby's line of the base name. Memory: bytes per live fiber.
awk '
  FNR == NR { if (NF == 3) rate[$1] = $2 / $3; else mem[$1] = $2; next }
  NF == 3 { rrate[$1] = $2 / $3; rcount[$1] = $2 }
  NF == 2 { rmem[$1] = $2 }
  function row(name, a, r) {
    if (r > 0) printf "%-24s %14.0f %14.0f %8.1f\n", name, a, r, a / r
    else printf "%-24s %14.0f %14s %8s\n", name, a, "-", "-"
  }
  END {
    printf "%-24s %14s %14s %8s\n", "rate (iterations/s)", "arcana", "ruby", "ratio"
    n = split("fiber_switch fiber_switch/swap64 fiber_switch/fcontext " \
              "fiber_allocate/keep fiber_allocate/madvise fiber_allocate/munmap " \
              "fiber_reuse/keep fiber_reuse/madvise fiber_reuse/munmap fiber_count", want, " ")
    for (i = 1; i <= n; ++i) {
      name = want[i]
      if (!(name in rate)) continue
      base = name
      sub(/\/.*/, "", base)
      row(name, rate[name], rrate[base] + 0)
    }
    printf "\n%-24s %14s %14s %8s\n", "memory (bytes/fiber)", "arcana", "ruby", "ratio"
    a = mem["rss_per_fiber"]; r = rmem["rss_per_fiber"] + 0
    rs = "-"; ratio = "-"
    if (r > 0) { rs = r; ratio = sprintf("%.1f", r / a) }
    printf "%-24s %14d %14s %8s\n", "rss_per_fiber", a, rs, ratio
    printf "%-24s %14d\n", "pool_resident_per_fiber", mem["pool_resident_per_fiber"]
    printf "%-24s %14d\n", "pool_reserved_per_fiber", mem["pool_reserved_per_fiber"]
    printf "%-24s %14d %14s\n", "live fibers reached", 100000, rcount["fiber_count"] + 0
    printf "%-24s %14d\n", "pool mappings", mem["pool_mappings"]
  }' "$out/arcana" "$out/ruby"
echo "(ratio: arcana/ruby for rates, ruby/arcana for memory; the ruby memory figure"
echo " is over the fibers it reached; a rate with no ruby peer shows -)"

# The Arc level: best of RUNS runs of each arc_*.arc, against the same Ruby
# lines as above.
runs=${RUNS:-3}
: >"$out/arc"
for r in switch allocate reuse count; do
  for _ in $(seq "$runs"); do "$arcana" "$here/arc_$r.arc"; done
done >"$out/arc.all" 2>&1
awk '
  NF == 3 { rate = $2 / $3; if (!($1 in best) || rate > best[$1]) best[$1] = rate }
  NF == 2 { if (!($1 in mem) || $2 < mem[$1]) mem[$1] = $2 }
  END { for (k in best) print k, best[k]; for (k in mem) print "mem", k, mem[k] }
' "$out/arc.all" >"$out/arc"
echo
awk '
  FNR == NR { if ($1 == "mem") amem[$2] = $3; else arate[$1] = $2; next }
  NF == 3 { rrate[$1] = $2 / $3 }
  NF == 2 { rmem[$1] = $2 }
  END {
    printf "%-24s %14s %14s %8s\n", "arc level (iter/s)", "arcana", "ruby", "ratio"
    n = split("fiber_switch fiber_allocate fiber_reuse fiber_count", want, " ")
    for (i = 1; i <= n; ++i) {
      k = want[i]
      if (rrate[k] > 0) printf "%-24s %14.0f %14.0f %8.1f\n", k, arate[k], rrate[k], arate[k] / rrate[k]
      else printf "%-24s %14.0f %14s %8s\n", k, arate[k], "-", "-"
    }
    r = rmem["rss_per_fiber"] + 0
    printf "%-24s %14d %14s %8s\n", "rss_per_fiber (bytes)", amem["rss_per_fiber"], \
      (r > 0 ? r : "-"), (r > 0 ? sprintf("%.1f", r / amem["rss_per_fiber"]) : "-")
  }' "$out/arc" "$out/ruby"

# Continuations: (ccc (fn (k) k)) in a loop with 10 and with 10,000 frames
# below it (nanoseconds per capture; the same at both depths when capture is
# O(1) in the depth).
echo
"$arcana" "$here/arc_ccc.arc" | awk '
  { printf "%-24s %10.0f ns per capture\n", $1, $3 / $2 * 1e9 }'

# Threads: five (sleep 0.0001) in one thread while another is busy, the
# elapsed milliseconds of each (target: each within 0.5 ms).
echo
printf "%-24s %s\n" "sleep 0.0001 (ms each)" "arcana: $("$arcana" "$here/arc_sleep.arc" | cut -d' ' -f2-)"
command -v ruby >/dev/null &&
  printf "%-24s %s\n" "" "ruby:   $(ruby "$here/ruby_sleep.rb" | cut -d' ' -f2-)"
