#!/usr/bin/env bash
# bench/lisp/run.sh — the Gabriel benchmarks and their classic companions,
# as the r7rs-benchmarks collection has them, on Arcana against Guile 3.0
# measured in the same run. Each program is NAME.arc with its twin
# NAME.scm, the same algorithm written for each (Arc has no vectors, so
# where the Scheme uses a vector the Arc uses a table keyed by integers);
# each checks its own result and exits nonzero if it is wrong, which shows
# as "failed". Each is run RUNS times (default 3), alternating runtimes,
# and the median CPU time (user + sys) of the whole process is printed,
# with the ratio peer/arcana (above 1: Arcana is faster). The peers: Guile
# with its JIT off (GUILE_JIT_THRESHOLD=-1: its bytecode VM, the like-for-
# like peer) and Guile as it comes (JIT on). The row "startup" is an empty
# program, which every other row includes; the last row is the geometric
# mean of the ratios over the programs (startup left out).
#
# Guile's compile time is not measured: each .scm is compiled once to a .go
# in a temporary folder before timing (compile-file, what `guild compile`
# does, at Guile's default optimization level) and run with load-compiled
# and --no-auto-compile, so the user's auto-compilation cache is not used.
#   bench/lisp/run.sh [path/to/arcana] [NAME...]     (or ARCANA=path)
#   RUNS=5 bench/lisp/run.sh tak fib
set -u
here=$(cd "$(dirname "$0")" && pwd)
arcana=${ARCANA:-$here/../../build/arcana}
if [ $# -gt 0 ] && [ -f "$1" ] && [ -x "$1" ]; then arcana=$1; shift; fi
runs=${RUNS:-3}

# Guile 3.0: Debian's guile-3.0 package, installed if missing (CI runs as
# root); without it the two Guile columns are left out.
guile=${GUILE:-}
if [ -z "$guile" ]; then
  if ! command -v guile-3.0 >/dev/null; then
    echo "installing guile-3.0" >&2
    sudo=; [ "$(id -u)" -eq 0 ] || sudo=sudo
    $sudo apt-get install -y -qq guile-3.0 >/dev/null 2>&1 ||
      { $sudo apt-get update -qq >/dev/null 2>&1 && $sudo apt-get install -y -qq guile-3.0 >/dev/null 2>&1; } ||
      echo "cannot install guile-3.0 (apt-get install guile-3.0): its columns are left out" >&2
  fi
  command -v guile-3.0 >/dev/null && guile=guile-3.0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '(prn 1)\n' >"$tmp/startup.arc"
printf '(display 1)\n(newline)\n' >"$tmp/startup.scm"

# compile NAME DIR: DIR/NAME.scm to $tmp/NAME.go; false if it does not compile
compile() {
  [ -n "$guile" ] || return 1
  "$guile" --no-auto-compile -c '(use-modules (system base compile))
    (compile-file (cadr (command-line)) #:output-file (caddr (command-line)))' \
    "$2/$1.scm" "$tmp/$1.go" >/dev/null 2>&1
}

# cpu, median, ratio
. "$here/../timing.sh"
geomean() {  # file of ratios, one a line: their geometric mean
  [ -s "$1" ] || { echo -; return; }
  awk '{s += log($1); n++} END {printf "%.2f", exp(s / n)}' "$1"
}

names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  names=(startup)
  for f in "$here"/*.arc; do names+=("$(basename "$f" .arc)"); done
fi
printf '%-9s %7s %11s %6s %9s %6s\n' bench arcana guile-nojit ratio guile-jit ratio
: >"$tmp/g.nojit"; : >"$tmp/g.jit"
for name in "${names[@]}"; do
  dir=$here; [ "$name" = startup ] && dir=$tmp
  rm -f "$tmp"/r.*
  scm=
  if [ -f "$dir/$name.scm" ] && [ -n "$guile" ]; then
    if compile "$name" "$dir"; then scm=$tmp/$name.go
    else echo failed >"$tmp/r.nojit"; echo failed >"$tmp/r.jit"; fi
  fi
  for _ in $(seq "$runs"); do
    cpu "$tmp/r.arc" "$arcana" "$dir/$name.arc"
    if [ -n "$scm" ]; then
      GUILE_JIT_THRESHOLD=-1 cpu "$tmp/r.nojit" "$guile" --no-auto-compile -c "(load-compiled \"$scm\")"
      cpu "$tmp/r.jit" "$guile" --no-auto-compile -c "(load-compiled \"$scm\")"
    fi
  done
  a=$(median "$tmp/r.arc")
  row=("$name" "$a")
  for peer in nojit jit; do
    if [ -f "$tmp/r.$peer" ]; then
      p=$(median "$tmp/r.$peer"); r=$(ratio "$p" "$a"); row+=("$p" "$r")
      [ "$name" != startup ] && [ "$r" != - ] && echo "$r" >>"$tmp/g.$peer"
    else
      row+=(- -)
    fi
  done
  printf '%-9s %7s %11s %6s %9s %6s\n' "${row[@]}"
done
printf '%-9s %7s %11s %6s %9s %6s\n' geomean - - "$(geomean "$tmp/g.nojit")" - "$(geomean "$tmp/g.jit")"
