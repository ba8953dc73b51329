#!/usr/bin/env bash
# bench/engine/run.sh — the interpreter's speed against peers measured in
# the same run. Each program is NAME.arc with its twins NAME.lua, NAME.py
# and NAME.rb (the idiomatic program in each language where the shapes
# differ: Lua's numeric for, table.concat). Each is run RUNS times (default
# 5), alternating runtimes, and the median CPU time (user + sys) of the
# whole process is printed, with the ratio peer/arcana (above 1: Arcana is
# faster). The peers: Lua 5.4 (lua5.4), LuaJIT's interpreter with its JIT
# off (luajit -joff), CPython 3 and Ruby. The row "startup" is an empty
# program, which every other row includes.
#   bench/engine/run.sh [path/to/arcana] [NAME...]
set -u
here=$(cd "$(dirname "$0")" && pwd)
arcana=${1:-$here/../../build/arcana}
shift || true
runs=${RUNS:-5}

. "$here/../timing.sh"  # cpu, median, ratio, need
need lua5.4 lua5.4
need luajit luajit
need ruby ruby

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '(prn 1)\n' >"$tmp/startup.arc"
printf 'print(1)\n' >"$tmp/startup.lua"
printf 'print(1)\n' >"$tmp/startup.py"
printf 'puts 1\n' >"$tmp/startup.rb"


names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  names=(startup)
  for f in "$here"/*.arc; do names+=("$(basename "$f" .arc)"); done
fi
printf '%-9s %7s %7s %6s %7s %6s %7s %6s %7s %6s\n' \
  bench arcana lua5.4 ratio luajit ratio python3 ratio ruby ratio
for name in "${names[@]}"; do
  dir=$here; [ "$name" = startup ] && dir=$tmp
  rm -f "$tmp"/r.*
  for _ in $(seq "$runs"); do
    cpu "$tmp/r.arc" "$arcana" "$dir/$name.arc"
    if [ -f "$dir/$name.lua" ]; then
      command -v lua5.4 >/dev/null && cpu "$tmp/r.lua" lua5.4 "$dir/$name.lua"
      command -v luajit >/dev/null && cpu "$tmp/r.jit" luajit -joff "$dir/$name.lua"
    fi
    [ -f "$dir/$name.py" ] && command -v python3 >/dev/null && cpu "$tmp/r.py" python3 "$dir/$name.py"
    [ -f "$dir/$name.rb" ] && command -v ruby >/dev/null && cpu "$tmp/r.rb" ruby "$dir/$name.rb"
  done
  a=$(median "$tmp/r.arc")
  row=("$name" "$a")
  for peer in lua jit py rb; do
    if [ -f "$tmp/r.$peer" ]; then
      p=$(median "$tmp/r.$peer"); row+=("$p" "$(ratio "$p" "$a")")
    else
      row+=(- -)
    fi
  done
  printf '%-9s %7s %7s %6s %7s %6s %7s %6s %7s %6s\n' "${row[@]}"
done
