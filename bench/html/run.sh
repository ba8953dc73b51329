#!/usr/bin/env bash
# bench/html/run.sh — a news-like front page (render.arc: html.arc's tags,
# tables, links and escaped titles, about 20 KB) rendered into a string with
# tostring, PAGES times (default 1000) a run, RUNS runs (default 5). Builds
# nothing: give it the binaries to measure, the first the reference; with
# several, their runs alternate (run 1 of each, then run 2, ...) so that a
# change of machine load falls on all of them.
#   bench/html/run.sh [arcana [other-arcana ...]]    RUNS=5 PAGES=1000 VALGRIND=1
# Printed for each binary, per page, the medians of the runs:
#   cpu-us, wall-us   the process's CPU time and the elapsed time over the
#                     loop, in microseconds ((gc-stats) cpu-ms, msec)
#   objects, bytes    allocated by the collector over the loop ((gc-stats)
#                     allocated-objects, allocated-bytes)
#   mallocs, mbytes   the C++ heap: allocations and their bytes, from
#                     valgrind's count of a run of MPAGES pages (default 20)
#                     less one of none
#   insns             instructions executed (callgrind), the same way: a
#                     figure the machine's load does not move
#                     (the valgrind columns are left out without valgrind or
#                     with VALGRIND=0)
#   x-first           cpu-us against the first binary's (below 1: faster)
# render.arc checks each page it renders (length, checksum, pieces) and
# exits with an error if one is wrong.
set -u
here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 0 ] && set -- "$here/../../build/arcana"
runs=${RUNS:-5}
pages=${PAGES:-1000}
mpages=${MPAGES:-20}
grind=${VALGRIND:-1}
command -v valgrind >/dev/null || grind=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The value of key=... in the RESULT line of file $1.
field() { grep '^RESULT' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }

# The median of the numbers in file $1, one a line.
median() {
  sort -g "$1" | awk '{v[NR] = $1} END {
    if (NR == 0) print "failed"
    else if (NR % 2) print v[(NR + 1) / 2]
    else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

for ((r = 1; r <= runs; r++)); do
  i=0
  for bin in "$@"; do
    i=$((i + 1))
    if ! "$bin" "$here/render.arc" "$pages" >"$tmp/out" 2>&1; then
      echo "run $r of $bin failed:" >&2
      tail -3 "$tmp/out" >&2
      continue
    fi
    for k in cpu-us wall-us objects bytes; do field "$tmp/out" $k >>"$tmp/$i.$k"; done
  done
done

# valgrind's "total heap usage: N allocs, F frees, B bytes allocated" of a
# run of $2 pages of binary $1, as "N B".
heap_usage() {
  valgrind --tool=memcheck --leak-check=no "$1" "$here/render.arc" "$2" 2>&1 >/dev/null |
    sed -n 's/.*total heap usage: \([0-9,]*\) allocs, [0-9,]* frees, \([0-9,]*\) bytes.*/\1 \2/p' |
    tr -d ,
}

# callgrind's count of the instructions of a run of $2 pages of binary $1.
instructions() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" "$here/render.arc" "$2" 2>&1 >/dev/null |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

fmt="%-32s %7s %7s %7s %7s %7s %7s %9s %7s\n"
printf "$fmt" binary cpu-us wall-us objects bytes mallocs mbytes insns x-first
i=0
first=
for bin in "$@"; do
  i=$((i + 1))
  for k in cpu-us wall-us objects bytes; do
    touch "$tmp/$i.$k"
    eval "m_${k//-/_}=\$(median \"\$tmp/\$i.\$k\")"
  done
  mallocs=- mbytes=- insns=-
  if [ "$grind" = 1 ]; then
    read -r n0 b0 <<<"$(heap_usage "$bin" 0)"
    read -r n1 b1 <<<"$(heap_usage "$bin" "$mpages")"
    if [ -n "${n0:-}" ] && [ -n "${n1:-}" ]; then
      mallocs=$(((n1 - n0) / mpages))
      mbytes=$(((b1 - b0) / mpages))
    fi
    i0=$(instructions "$bin" 0)
    i1=$(instructions "$bin" "$mpages")
    [ -n "$i0" ] && [ -n "$i1" ] && insns=$(((i1 - i0) / mpages))
  fi
  [ -z "$first" ] && first=$m_cpu_us
  ratio=$(awk -v a="$m_cpu_us" -v b="$first" 'BEGIN {
    if (a == "failed" || b == "failed" || b == 0) print "-"; else printf "%.2f", a / b }')
  printf "$fmt" "$bin" "$m_cpu_us" "$m_wall_us" "$m_objects" "$m_bytes" "$mallocs" "$mbytes" \
    "$insns" "$ratio"
done
echo "(per page; $pages pages a run, median of $runs runs; valgrind's columns over $mpages pages)"
