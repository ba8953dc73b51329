// repl/main.cpp — the arcana command: the REPL, the script runner, -e.
#include <dlfcn.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "compiler/runtime.h"
#include "gc/heap.h"
#include "io/server.h"
#include "io/socket.h"
#include "measure/measure.h"
#include "measure/profiler.h"
#include "repl/repl.h"
#include "vm/error.h"
#include "vm/port.h"
#include "vm/print.h"
#include "vm/string.h"
#include "vm/symbol.h"

namespace {

const char* kUsage =
    "usage: arcana [options] [FILE [ARGS...]]\n"
    "  (no FILE)            start the REPL\n"
    "  FILE [ARGS...]       run a script; ARGS are in the global argv, FILE in script*\n"
    "  -e EXPR              evaluate EXPR, print its value, exit (with FILE: then run it)\n"
    "  --gc=NAME            collector: gen (the default), gen-stw, marksweep, vcgc, boehm;\n"
    "                       gen-stw is gen with its major collections stopping the world;\n"
    "                       the environment variable ARCANA_GC names one too (--gc wins)\n"
    "  --nursery=MB         gen's nursery (eden) size, MiB or KiB with K (default 1)\n"
    "  --promote-age=N      gen promotes survivors at their Nth minor collection\n"
    "                       (1-15; by default 2, or 1 while most live on anyway)\n"
    "  --gc-stress          collect at every safe point (slow; for testing)\n"
    "  --gc-trace           print a line to stderr for each collection's pause: what it\n"
    "                       did, its length, CPU time and page faults (gen, gen-stw)\n"
    "  --stats              print counters at exit: type dispatches, opcodes, GC\n"
    "  --cpu-profile=FILE   write a gperftools CPU profile (read with google-pprof);\n"
    "                       1000 samples a second unless CPUPROFILE_FREQUENCY is set\n"
    "  --profile=FILE       profile the Arc program: FILE in pprof's format (go tool pprof)\n"
    "  --profile-rate=HZ    the profiler's samples a second (1-100000, default 1000)\n"
    "  --stack-limit=MB     VM stack size (default 512); deeper recursion is an error\n"
    "  --thread-stack=SIZE  each thread's, fiber's and generator's VM stack, KiB with K\n"
    "                       or MiB (default 128K)\n"
    "  --fiber-release=P    what becomes of a finished fiber's stacks: keep (default),\n"
    "                       madvise (return the pages) or munmap (unmap idle allocations)\n"
    "  --workers=N          serve forks N worker processes sharing the port (for\n"
    "                       applications that keep no state in memory between requests,\n"
    "                       or share it through a store: the news site over SQLite)\n"
    "  --host=ADDR          the address serve listens on (default: every interface)\n"
    "  --trusted-proxies=ADDR,...  the reverse proxies whose X-Forwarded-For and\n"
    "                       X-Forwarded-Proto serve believes (srv.arc's trusted-proxies*)\n"
    "  --help, --version\n";

struct Args {
  compiler::RuntimeOptions rt;
  const char* gc_from = "--gc";  // where the collector's name came from, for errors
  unsigned promote_age = 0;      // 0: gen's default
  bool stats = false;
  std::string profile;      // --cpu-profile (gperftools)
  std::string arc_profile;  // --profile (measure/profiler.h)
  int profile_rate = vm::Profiler::kDefaultRate;
  std::vector<std::string> exprs;
  std::string host;                  // --host: srv.arc's srv-host*
  std::vector<std::string> proxies;  // --trusted-proxies: srv.arc's trusted-proxies*
  std::string file;
  std::vector<std::string> argv;
};

bool starts(const char* a, const char* p) { return std::strncmp(a, p, std::strlen(p)) == 0; }

// The largest stack limit, in MiB: more than any machine this runs on
// gives, so a bigger value is a typo, refused here rather than failing as a
// mapping the kernel refuses (or a size that overflows). (--nursery's
// range: compiler::parse_nursery_size.)
constexpr long kMaxStackLimitMiB = 65536;

bool parse_whole(const char* v, long& out) {
  char* end = nullptr;
  errno = 0;
  out = std::strtol(v, &end, 10);
  return end != v && !*end && errno == 0;
}

// The addresses of --trusted-proxies (separated by commas; the option may
// be given again), written as the server writes a peer's so that they
// compare equal to it.
bool add_proxies(const std::string& list, std::vector<std::string>& out) {
  size_t i = 0;
  do {
    size_t j = list.find(',', i);
    if (j == std::string::npos) j = list.size();
    std::string ip = vm::normal_ip(list.substr(i, j - i));
    if (ip.empty()) {
      std::fprintf(stderr,
                   "arcana: --trusted-proxies needs IP addresses separated by commas, not '%s'\n",
                   list.c_str());
      return false;
    }
    out.push_back(ip);
    i = j + 1;
  } while (i <= list.size());
  return true;
}

int parse_args(int argc, char** argv, Args& args) {
  // The default collector (docs/ARCHITECTURE.md, "The heap and the collectors").
  args.rt.gc = "gen";
  if (const char* g = std::getenv("ARCANA_GC"); g && *g) {
    args.rt.gc = g;
    args.gc_from = "ARCANA_GC";
  }
  int i = 1;
  for (; i < argc; ++i) {
    const char* a = argv[i];
    if (!std::strcmp(a, "--help") || !std::strcmp(a, "-h")) {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (!std::strcmp(a, "--version")) {
      std::printf("arcana %s\n", ARCANA_VERSION);
      return 0;
    } else if (!std::strcmp(a, "-e")) {
      if (++i >= argc) {
        std::fputs("arcana: -e needs an expression\n", stderr);
        return 2;
      }
      args.exprs.push_back(argv[i]);
    } else if (starts(a, "--gc=")) {
      args.rt.gc = a + 5;
      args.gc_from = "--gc";
    } else if (starts(a, "--nursery=")) {
      args.rt.nursery_bytes = compiler::parse_size_option(a + 10, compiler::kMinNurseryBytes,
                                                          compiler::kMaxNurseryBytes);
      if (!args.rt.nursery_bytes) {
        std::fprintf(stderr,
                     "arcana: --nursery needs a whole number of MiB (4) or of KiB with K "
                     "(1536K), from %zuK to %zu (%zu GiB)\n",
                     compiler::kMinNurseryBytes >> 10, compiler::kMaxNurseryBytes >> 20,
                     compiler::kMaxNurseryBytes >> 30);
        return 2;
      }
    } else if (starts(a, "--promote-age=")) {
      char* end = nullptr;
      long n = std::strtol(a + 14, &end, 10);
      if (end == a + 14 || *end || n < 1 || n > long(gc::kMaxPromoteAge)) {
        std::fprintf(stderr, "arcana: --promote-age needs a number from 1 to %u\n",
                     gc::kMaxPromoteAge);
        return 2;
      }
      args.promote_age = unsigned(n);
    } else if (!std::strcmp(a, "--gc-stress")) {
      args.rt.gc_stress = true;
    } else if (!std::strcmp(a, "--gc-trace")) {
      args.rt.gc_trace = true;
    } else if (!std::strcmp(a, "--stats")) {
      args.stats = true;
    } else if (starts(a, "--profile-rate=")) {
      char* end = nullptr;
      long n = std::strtol(a + 15, &end, 10);
      if (end == a + 15 || *end || n < 1 || n > vm::Profiler::kMaxRate) {
        std::fprintf(stderr, "arcana: --profile-rate needs a number from 1 to %d\n",
                     vm::Profiler::kMaxRate);
        return 2;
      }
      args.profile_rate = int(n);
    } else if (starts(a, "--profile=")) {
      args.arc_profile = a + 10;
      // Found unwritable now, not after the run.
      FILE* f = args.arc_profile.empty() ? nullptr : std::fopen(args.arc_profile.c_str(), "ab");
      if (!f) {
        std::fprintf(stderr, "arcana: --profile: cannot write '%s': %s\n", a + 10,
                     args.arc_profile.empty() ? "no file named" : std::strerror(errno));
        return 2;
      }
      std::fclose(f);
    } else if (starts(a, "--cpu-profile=")) {
      args.profile = a + 14;
      // gperftools reports a file it cannot open only on stderr: found
      // unwritable now, as --profile's is.
      FILE* f = args.profile.empty() ? nullptr : std::fopen(args.profile.c_str(), "ab");
      if (!f) {
        std::fprintf(stderr, "arcana: --cpu-profile: cannot write '%s': %s\n", a + 14,
                     args.profile.empty() ? "no file named" : std::strerror(errno));
        return 2;
      }
      std::fclose(f);
    } else if (starts(a, "--fiber-release=")) {
      if (!vm::parse_stack_release(a + 16, args.rt.fiber_release)) {
        std::fputs("arcana: --fiber-release is keep, madvise or munmap\n", stderr);
        return 2;
      }
    } else if (starts(a, "--stack-limit=")) {
      long mb = 0;
      if (!parse_whole(a + 14, mb) || mb < 1 || mb > kMaxStackLimitMiB) {
        std::fprintf(stderr, "arcana: --stack-limit needs a whole number of MiB from 1 to %ld\n",
                     kMaxStackLimitMiB);
        return 2;
      }
      args.rt.stack_limit_bytes = size_t(mb) << 20;
    } else if (starts(a, "--thread-stack=")) {
      args.rt.fiber_stack_bytes = compiler::parse_size_option(
          a + 15, compiler::kMinThreadStackBytes, compiler::kMaxThreadStackBytes);
      if (!args.rt.fiber_stack_bytes) {
        std::fprintf(stderr,
                     "arcana: --thread-stack needs a whole number of KiB with K (256K) or of "
                     "MiB (4), from %zuK to %zu (%zu GiB)\n",
                     compiler::kMinThreadStackBytes >> 10, compiler::kMaxThreadStackBytes >> 20,
                     compiler::kMaxThreadStackBytes >> 30);
        return 2;
      }
    } else if (starts(a, "--workers=") || !std::strcmp(a, "--workers")) {
      const char* v = a[9] == '=' ? a + 10 : (++i < argc ? argv[i] : "");
      char* end = nullptr;
      long n = std::strtol(v, &end, 10);
      if (end == v || *end || n < 1 || n > 256) {
        std::fputs("arcana: --workers needs a number from 1 to 256\n", stderr);
        return 2;
      }
      args.rt.workers = int(n);
    } else if (starts(a, "--host=") || !std::strcmp(a, "--host")) {
      const char* v = a[6] == '=' ? a + 7 : (++i < argc ? argv[i] : "");
      if (!*v) {
        std::fputs("arcana: --host needs an address\n", stderr);
        return 2;
      }
      args.host = v;
    } else if (starts(a, "--trusted-proxies=") || !std::strcmp(a, "--trusted-proxies")) {
      const char* v = a[17] == '=' ? a + 18 : (++i < argc ? argv[i] : "");
      if (!add_proxies(v, args.proxies)) return 2;
    } else if (!std::strcmp(a, "--")) {
      ++i;
      break;
    } else if (a[0] == '-' && a[1]) {
      std::fprintf(stderr, "arcana: unknown option %s\n%s", a, kUsage);
      return 2;
    } else {
      break;
    }
  }
  if (!args.arc_profile.empty() && !args.profile.empty()) {
    std::fputs("arcana: --profile and --cpu-profile both use SIGPROF: give one\n", stderr);
    return 2;
  }
  if (i < argc) {
    args.file = argv[i++];
    for (; i < argc; ++i) args.argv.push_back(argv[i]);
  }
  auto names = gc::heap_names();
  bool known = false;
  for (auto& n : names) known |= n == args.rt.gc;
  if (!known) {
    std::string all;
    for (auto& n : names) all += (all.empty() ? "" : ", ") + n;
    std::fprintf(stderr, "arcana: unknown collector '%s' from %s (known: %s)\n", args.rt.gc.c_str(),
                 args.gc_from, all.c_str());
    return 2;
  }
  return -1;
}

vm::Value string_list(vm::VM& vm, const std::vector<std::string>& strings) {
  vm::Value lst = vm::NIL;
  for (size_t i = strings.size(); i-- > 0;)
    lst = vm::cons(vm, vm::make_string_utf8(vm, strings[i]), lst);
  return lst;
}

// Ctrl-C in a script or -e interrupts it as at the REPL (repl/repl.cpp):
// the VM raises "interrupted" at its next safe point, protect cleanups run
// and the exit status is 130. SA_RESETHAND: a second one, say during a
// cleanup that hangs, ends the process. A SIGINT ignored from the start (a
// background job's) stays ignored.
void on_script_sigint(int) {
  if (vm::VM* vm = vm::foreground_vm()) vm->request_interrupt();  // async-signal-safe
}

void install_script_sigint(vm::VM& vm) {
  struct sigaction old {};
  if (sigaction(SIGINT, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) return;
  vm.set_interrupt_spans_forms(true);
  struct sigaction sa {};
  sa.sa_handler = on_script_sigint;
  sa.sa_flags = SA_RESETHAND;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  vm::set_script_sigint_handler(on_script_sigint);
}

void flush_ports(vm::VM& vm) {
  vm::port_impl(vm.out_port())->flush();
  vm::port_impl(vm.err_port())->flush();
}

int run(Args& args) {
  compiler::Runtime rt(args.rt);
  vm::VM& vm = rt.vm();
  vm::set_foreground_vm(&vm);  // Ctrl-C's and the profiler's handlers act on it
  if (args.promote_age) vm.heap().set_promote_age(args.promote_age);  // a no-op without generations
  if (args.stats) vm::Measure::of(vm).count_sites(true);
  vm.define("argv", string_list(vm, args.argv));
  // script*: the running script's path as typed, so a script can load the
  // files beside it (apps/news/news.arc does); nil at the REPL and with -e.
  vm.define("script*", args.file.empty() ? vm::NIL : vm::make_string_utf8(vm, args.file));
  if (!args.host.empty()) vm.define("srv-host*", vm::make_string_utf8(vm, args.host));
  if (!args.proxies.empty()) vm.define("trusted-proxies*", string_list(vm, args.proxies));
  int status = 0;
  try {
    if (!args.arc_profile.empty())
      vm::Measure::of(vm).start_profiler(args.profile_rate, args.arc_profile);
    if (!args.exprs.empty() || !args.file.empty()) install_script_sigint(vm);
    if (!args.exprs.empty()) {
      for (const std::string& e : args.exprs) {
        vm::Value v = rt.eval_string(e, "-e");
        std::string out = vm::write_string(vm, v) + "\n";
        vm::port_impl(vm.out_port())->write_str(out);
      }
    }
    // -e before a FILE runs first, then the file: both, in order.
    if (!args.file.empty()) {
      rt.load_file(args.file);
    } else if (args.exprs.empty()) {
      status = repl::run_repl(rt);
    }
  } catch (vm::ArcError& e) {
    flush_ports(vm);
    // fwrite, not fputs: a message may hold a NUL, and is printed whole.
    std::string msg = compiler::Runtime::describe_error(e.exc);
    std::fwrite(msg.data(), 1, msg.size(), stderr);
    status = e.exc == vm.interrupt_exc() ? 130 : 1;  // 128 + SIGINT, as a shell reports it
  } catch (std::bad_alloc&) {  // outside the interpreter (reading or compiling a form)
    flush_ports(vm);
    std::fputs("Error: out of memory\n", stderr);
    status = 1;
  }
  flush_ports(vm);
  if (!vm::Measure::of(vm).finish_profile() && status == 0) status = 1;
  if (args.stats) repl::print_stats(rt, stderr);
  return status;
}

// gperftools' CPU profiler, opened for --cpu-profile rather than linked,
// so that a start without it maps neither it nor libunwind and liblzma
// (CMakeLists.txt, ARCANA_STATIC_LIBS). Its own libstdc++ is the shared one; the
// binary's is static and not exported, so each side keeps to its own.
struct CppProfiler {
  int (*start)(const char*) = nullptr;
  void (*stop)() = nullptr;
};

// gperftools samples 100 times a second of CPU time unless
// CPUPROFILE_FREQUENCY says otherwise: five samples for a 50 ms program.
// Unless the user chose a rate, ours is the Arc profiler's default
// (--profile-rate). The library reads the variable when it is loaded or
// first started, so it is set before dlopen; it is taken away again once
// the profiler runs, so that the programs a
// script starts do not inherit it.
constexpr const char* kCppProfilerHz = "1000";

bool open_cpp_profiler(CppProfiler& p, bool& set_rate) {
  set_rate = !std::getenv("CPUPROFILE_FREQUENCY");
  if (set_rate) setenv("CPUPROFILE_FREQUENCY", kCppProfilerHz, 1);
  void* lib = dlopen("libprofiler.so.0", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    std::fprintf(stderr,
                 "arcana: --cpu-profile needs gperftools' libprofiler.so.0 (Debian's "
                 "libgoogle-perftools4): %s\n",
                 dlerror());
    return false;
  }
  p.start = reinterpret_cast<int (*)(const char*)>(dlsym(lib, "ProfilerStart"));
  p.stop = reinterpret_cast<void (*)()>(dlsym(lib, "ProfilerStop"));
  if (!p.start || !p.stop) {
    std::fputs("arcana: --cpu-profile: libprofiler.so.0 lacks ProfilerStart\n", stderr);
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  Args args;
  int r = parse_args(argc, argv, args);
  if (r >= 0) return r;
  CppProfiler profiler;
  if (!args.profile.empty()) {
    bool set_rate = false;
    if (!open_cpp_profiler(profiler, set_rate)) return 2;
    bool started = profiler.start(args.profile.c_str());
    if (set_rate) unsetenv("CPUPROFILE_FREQUENCY");
    if (!started) {
      std::fprintf(stderr, "arcana: --cpu-profile: the profiler did not start on '%s'\n",
                   args.profile.c_str());
      return 2;
    }
  }
  int status;
  try {
    status = run(args);
  } catch (std::bad_alloc&) {  // the heap or the VM stack could not be mapped at start
    std::fputs("arcana: out of memory starting the runtime\n", stderr);
    status = 2;
  } catch (std::exception& e) {
    std::fprintf(stderr, "arcana: %s\n", e.what());
    status = 2;
  }
  if (profiler.stop) profiler.stop();
  return status;
}
