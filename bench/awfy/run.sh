#!/usr/bin/env bash
# bench/awfy/run.sh — our own ports of the "Are We Fast Yet" benchmarks
# (Marr et al., smarr/are-we-fast-yet), a proxy for a held-out suite of
# the same 14 programs ported to Arc apart from the project. Each program is
# NAME.arc with its twin NAME.lua, both written here from the suite's
# algorithms under its porting rules: the same algorithm as the Lua
# original; in Arc, an object is a table whose fields are read b!x and
# written (= b!x v), a method a function taking the object first, an array
# an integer-keyed table, loops Arc's for/while/repeat, plain Arc 3.1 with
# no Arcana-only names; in Lua, classes as metatables, as the suite's port
# has them. The suite's collections and random numbers (its som library)
# are som.arc and som.lua, which the programs load from their own directory:
# every program is run from this one. Each program runs its benchmark a
# fixed number of times, checks the result as the suite's verifyResult
# does, prints "NAME ok" and exits nonzero when the result is wrong.
#
# Every NAME.arc with a NAME.lua beside it is run RUNS times (default 5),
# alternating runtimes, and the median CPU time (user + sys) of the whole
# process is printed, with the ratio peer/arcana (above 1: Arcana is
# faster), against Lua 5.4 (lua5.4) and LuaJIT's interpreter with its JIT
# off (luajit -joff); then the geometric mean of each ratio column and how
# many programs run below 0.5x Lua 5.4's speed.
#   bench/awfy/run.sh [path/to/arcana] [NAME...]
set -u
here=$(cd "$(dirname "$0")" && pwd)
arcana=${1:-$here/../../build/arcana}
shift || true
runs=${RUNS:-5}
# the programs run from $here, so the binary's path must not be relative
case $arcana in /*) ;; */*) arcana=$(pwd)/$arcana ;; esac

. "$here/../timing.sh"  # cpu, median, ratio, need
need lua5.4 lua5.4
need luajit luajit

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT


names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  for f in "$here"/*.arc; do
    name=$(basename "$f" .arc)
    [ "$name" = som ] && continue
    [ -f "$here/$name.lua" ] && names+=("$name")
  done
fi

cd "$here" || exit 1
fmt='%-11s %7s %7s %6s %7s %6s\n'
printf "$fmt" bench arcana lua5.4 ratio luajit ratio
: >"$tmp/ratios.lua"
: >"$tmp/ratios.jit"
for name in "${names[@]}"; do
  rm -f "$tmp"/r.*
  for _ in $(seq "$runs"); do
    cpu "$tmp/r.arc" "$arcana" "$name.arc"
    command -v lua5.4 >/dev/null && cpu "$tmp/r.lua" lua5.4 "$name.lua"
    command -v luajit >/dev/null && cpu "$tmp/r.jit" luajit -joff "$name.lua"
  done
  a=$(median "$tmp/r.arc")
  row=("$name" "$a")
  for peer in lua jit; do
    if [ -f "$tmp/r.$peer" ]; then
      p=$(median "$tmp/r.$peer")
      r=$(ratio "$p" "$a")
      row+=("$p" "$r")
      [ "$r" != - ] && echo "$r" >>"$tmp/ratios.$peer"
    else
      row+=(- -)
    fi
  done
  printf "$fmt" "${row[@]}"
done

geomean() {  # file of ratios: their geometric mean, or - if none
  awk '{ s += log($1); n++ } END { if (n) printf "%.2f", exp(s / n); else print "-" }' "$1"
}
printf "$fmt" geomean - - "$(geomean "$tmp/ratios.lua")" - "$(geomean "$tmp/ratios.jit")"
below=$(awk '$1 < 0.5 { n++ } END { print n + 0 }' "$tmp/ratios.lua")
echo "below 0.5x lua5.4: $below of $(wc -l <"$tmp/ratios.lua")"
