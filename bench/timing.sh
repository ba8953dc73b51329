# bench/timing.sh — what the benchmarks that compare runtimes share, sourced
# by bench/engine/run.sh, bench/lisp/run.sh and bench/awfy/run.sh: timing a
# run, the median of runs, a ratio, and a peer installed when missing.

# cpu OUT command...: appends the run's user+sys seconds (to the
# microsecond, from wait4's rusage; GNU time's are in hundredths) to OUT,
# or "failed" if the program fails. The child is started with posix_spawn,
# which execs straight away: a fork of Python would count the forked
# Python's own work before the exec (about 7 ms here) in the child's
# rusage, the same in every row, and pull every ratio towards 1.
cpu() {
  local out=$1; shift
  python3 -c '
import os, sys
null = [(os.POSIX_SPAWN_OPEN, fd, os.devnull, os.O_WRONLY, 0) for fd in (1, 2)]
try:
    pid = os.posix_spawnp(sys.argv[1], sys.argv[1:], os.environ, file_actions=null)
except OSError:
    print("failed"); sys.exit()
_, status, ru = os.wait4(pid, 0)
print("%.4f" % (ru.ru_utime + ru.ru_stime) if status == 0 else "failed")
' "$@" >>"$out"
}
median() {  # file: the median of its lines, or "failed"
  grep -q failed "$1" && { echo failed; return; }
  sort -n "$1" | awk '{a[NR]=$1} END {printf "%.4f", a[int((NR+1)/2)]}'
}
ratio() {  # peer arcana
  case "$1$2" in *failed*|-*) echo -; return;; esac
  awk -v p="$1" -v a="$2" 'BEGIN { if (a > 0) printf "%.2f", p / a; else print "-" }'
}
need() {  # command package: install the peer if it is missing (CI runs as root)
  command -v "$1" >/dev/null && return
  echo "installing $2 (for $1)" >&2
  local sudo=; [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get install -y -qq "$2" >/dev/null 2>&1 ||
    { $sudo apt-get update -qq >/dev/null 2>&1 && $sudo apt-get install -y -qq "$2" >/dev/null 2>&1; } ||
    echo "cannot install $2: its column is left out" >&2
}
