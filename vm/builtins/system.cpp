// vm/builtins/system.cpp — the process builtins of docs/LANGUAGE.md 4.10
// that every program has: quitting, memory, and the clocks. Files,
// directories and shell commands are the I/O library's (io/os.cpp).
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <exception>
#include <string>
#include <vector>

#include "vm/builtins.h"
#include "vm/error.h"
#include "vm/number.h"
#include "vm/port.h"
#include "vm/string.h"
#include "vm/thread.h"
#include "vm/vm.h"

namespace vm {

namespace {

// Racket's exit: an integer 0..255 is the status, anything else means 0.
Value bi_quit(VM& vm, Value* args, int nargs) {
  int code = 0;
  if (nargs > 0 && args[0].is_fixnum() && args[0].as_fixnum() >= 0 && args[0].as_fixnum() <= 255)
    code = int(args[0].as_fixnum());
  exit_process(vm, code);
}

// Resident set size; the heap's live bytes if /proc is unavailable.
Value bi_memory(VM& vm, Value*, int) {
  long pages_total = 0, pages_resident = 0;
  FILE* f = fopen("/proc/self/statm", "r");
  bool ok = f && fscanf(f, "%ld %ld", &pages_total, &pages_resident) == 2;
  if (f) fclose(f);
  if (!ok) return make_integer(vm, int64_t(vm.heap().stats().bytes_live));
  return make_integer(vm, int64_t(pages_resident) * sysconf(_SC_PAGESIZE));
}

// ---- time ----

Value bi_seconds(VM& vm, Value*, int) { return make_integer(vm, int64_t(time(nullptr))); }
Value bi_msec(VM& vm, Value*, int) { return make_integer(vm, clock_ms(CLOCK_REALTIME)); }

// (%nsec): a monotonic clock in nanoseconds, for benchmarks and tests that
// time short intervals (sleep precision).
Value bi_nsec(VM& vm, Value*, int) {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return make_integer(vm, int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec);
}
Value bi_process_ms(VM& vm, Value*, int) {
  return make_integer(vm, clock_ms(CLOCK_PROCESS_CPUTIME_ID));
}
Value bi_gc_ms(VM& vm, Value*, int) {
  return make_integer(vm, int64_t(std::llround(vm.heap().stats().gc_ms)));
}

// Seconds as a time_t: a fixnum exactly, another real number floored.
time_t arg_seconds(VM& vm, Value v) {
  if (v.is_fixnum()) return time_t(v.as_fixnum());
  double d = number_to_double(vm, arg_number(vm, "timedate", v));
  if (!std::isfinite(d) || std::fabs(d) > 1e17) type_error(vm, "timedate", "a time in seconds", v);
  return time_t(std::floor(d));
}

// (second minute hour day month year) in UTC, whatever the local zone.
Value bi_timedate(VM& vm, Value* args, int nargs) {
  time_t secs = nargs > 0 ? arg_seconds(vm, args[0]) : time(nullptr);
  tm t;
  if (!gmtime_r(&secs, &t)) type_error(vm, "timedate", "a time in seconds", args[0]);
  return list(vm, {Value::fixnum(t.tm_sec), Value::fixnum(t.tm_min), Value::fixnum(t.tm_hour),
                   Value::fixnum(t.tm_mday), Value::fixnum(t.tm_mon + 1),
                   Value::fixnum(int64_t(t.tm_year) + 1900)});
}

const BuiltinDef kSystemBuiltins[] = {
    {"quit", bi_quit, 0, 1, "flush the standard ports and exit with a status"},
    {"memory", bi_memory, 0, 0, "bytes of memory in use"},
    {"seconds", bi_seconds, 0, 0, "seconds since the Unix epoch"},
    {"msec", bi_msec, 0, 0, "wall-clock milliseconds since the Unix epoch"},
    {"%nsec", bi_nsec, 0, 0, "monotonic clock in nanoseconds"},
    {"current-process-milliseconds", bi_process_ms, 0, 0, "CPU time used, in milliseconds"},
    {"current-gc-milliseconds", bi_gc_ms, 0, 0, "time spent collecting garbage, in milliseconds"},
    {"timedate", bi_timedate, 0, 1, "(second minute hour day month year) in UTC"},
};

}  // namespace

int64_t clock_ms(clockid_t clock) {
  timespec ts;
  clock_gettime(clock, &ts);
  return int64_t(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
}

void exit_process(VM& vm, int status) {
  if (vm.instrument()) vm.instrument()->finish();  // --profile's file, as at the end of main
  flush_quietly(vm.out_port());
  flush_quietly(vm.err_port());
  // The heap stays allocated (as the VM does) until the process ends: only
  // what the finalizers release is released, and nothing runs afterwards
  // that could use an object they finalized; the libraries' states (open
  // databases) end too.
  vm.heap().finalize_all();
  vm.end_library_states();
  std::exit(status);
}

void register_system_builtins(VM& vm) { define_builtins(vm, kSystemBuiltins); }

}  // namespace vm
