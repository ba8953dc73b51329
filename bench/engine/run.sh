#!/usr/bin/env bash
# bench/engine/run.sh — the interpreter's speed against peers measured in
# the same run. Each program exists as NAME.arc, NAME.py and NAME.rb; each
# is run RUNS times (default 5) and the median wall time is printed, with
# the ratio peer/arcana (above 1: Arcana is faster).
#   bench/engine/run.sh [path/to/arcana]
set -u
here=$(cd "$(dirname "$0")" && pwd)
arcana=${1:-$here/../../build/arcana}
runs=${RUNS:-5}

median() {  # command...: the median wall time in seconds of $runs runs
  local times=()
  for _ in $(seq "$runs"); do
    local t0 t1
    t0=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || { echo "failed"; return; }
    t1=$(date +%s.%N)
    times+=("$(echo "$t1 - $t0" | bc -l)")
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {printf "%.3f", a[int((NR+1)/2)]}'
}

printf '%-8s %10s %10s %8s %10s %8s\n' bench arcana python3 ratio ruby ratio
for arc in "$here"/*.arc; do
  name=$(basename "$arc" .arc)
  a=$(median "$arcana" "$arc")
  p=-; pr=-; r=-; rr=-
  if command -v python3 >/dev/null && [ -f "$here/$name.py" ]; then
    p=$(median python3 "$here/$name.py"); pr=$(echo "scale=2; $p / $a" | bc -l)
  fi
  if command -v ruby >/dev/null && [ -f "$here/$name.rb" ]; then
    r=$(median ruby "$here/$name.rb"); rr=$(echo "scale=2; $r / $a" | bc -l)
  fi
  printf '%-8s %10s %10s %8s %10s %8s\n' "$name" "$a" "$p" "$pr" "$r" "$rr"
done
