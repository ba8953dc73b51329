// tests/unit/test_fuzz_names.cpp — every bound global, builtins and the
// internal % names included, called with odd arguments: each call returns
// or raises an Arc error, never crashes the process (docs/ARCHITECTURE.md
// invariant 8). The names come from the symbol table, not from a list, so a
// new builtin that does not check its arguments fails here.
//
// Each call runs in a fresh Runtime's VM, in a temporary directory, with
// stdin an empty string and stdout and stderr strings; a watchdog thread
// interrupts a call that runs longer than kCallMillis (an Arc loop over a
// huge count) and aborts the test, naming the call, if even that does not
// stop it (a builtin that loops or blocks in C++).
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "compiler/runtime.h"
#include "vm/error.h"
#include "vm/port.h"
#include "vm/print.h"
#include "vm/string.h"
#include "vm/symbol.h"
#include "vm/vm.h"

namespace {

using Clock = std::chrono::steady_clock;

constexpr int kCallMillis = 20;      // then the call is interrupted
constexpr int kStuckMillis = 20000;  // then the test aborts: the call ignored the interrupt

// Names not called, each for its reason: they end or block the process,
// wait on the outside world, or change it beyond the temporary directory.
const std::set<std::string> kSkipped = {
    "quit",          // ends the process
    "%srv-signals",  // takes SIGTERM and SIGINT for the server
    "sleep",         // waits (a huge count of seconds)
    "%alarm",        // breaks the thread later, in another call
    "system",
    "pipe-from",   // run shell commands
    "ensure-dir",  // runs mkdir -p through system
    "setuid",      // changes the process's user
    "rmfile",
    "mvfile",           // delete and move files
    "%durable-mvfile",  // moves files
    "%chmod",           // changes files' modes
    "open-socket",
    "%srv-open",       // listen on ports
    "connect-socket",  // looks up host names and connects
    "socket-accept",   // waits for a connection
    "%srv-accept",     // waits for a connection
    "serve",
    "serve1",
    "asv",  // run the web server (block)
    "new-bgthread",
    "defbg",                     // start threads that loop for ever
    "%srv-start-log-flusher",    // the same
    "%srv-memory-follows-load",  // the same
    "%atomic-acquire",           // takes the threads' lock and keeps it
    "%pw-hash",
    "%pw-verify",  // Argon2id: slow by design (io/crypto.cpp)
};

// The odd arguments: each is passed alone, twice and three times.
const std::vector<std::string> kOddArgs = {
    "nil",          "0",        "-1",       "4611686018427387903",
    "(expt 10 30)", "1.5",      "\"\"",     "'fuzz",
    "#\\a",         "(table)",  "'(1 . 2)", "(fn args nil)",
    "(list 1 2 3)", "-1.5e300",
};

// The argument lists: none, each odd value once, twice and three times, and
// too many for any fixed arity.
std::vector<std::string> argument_lists() {
  std::vector<std::string> out{""};
  for (const std::string& a : kOddArgs) {
    out.push_back(a);
    out.push_back(a + " " + a);
    out.push_back(a + " " + a + " " + a);
  }
  out.push_back("1 2 3 4 5 6 7 8 9 10 11 12");
  return out;
}

// Written plainly, the name reads back as itself (no ssyntax, no bars).
bool plain_name(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!(isalnum(static_cast<unsigned char>(c)) ||
          std::string("*+/<>=%?-_").find(c) != std::string::npos))
      return false;
  return true;
}

class Watchdog {
 public:
  explicit Watchdog(vm::VM& vm) : vm_(vm), thread_([this] { loop(); }) {}
  ~Watchdog() {
    stop_ = true;
    thread_.join();
  }
  void arm(const std::string& what) {
    std::lock_guard<std::mutex> g(m_);
    what_ = what;
    start_ = Clock::now();
    armed_ = true;
    fired_ = false;
  }
  void disarm() {
    std::lock_guard<std::mutex> g(m_);
    armed_ = false;
    vm_.clear_interrupt();  // one that came too late for the call
  }

 private:
  void loop() {
    while (!stop_) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      std::lock_guard<std::mutex> g(m_);
      if (!armed_) continue;
      auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start_);
      if (ms.count() > kStuckMillis) {
        std::fprintf(stderr, "fuzz: %s ignored an interrupt for %d ms\n", what_.c_str(),
                     kStuckMillis);
        std::abort();
      }
      if (!fired_ && ms.count() > kCallMillis) {
        vm_.request_interrupt();
        fired_ = true;
      }
    }
  }
  vm::VM& vm_;
  std::mutex m_;
  std::string what_;
  Clock::time_point start_;
  bool armed_ = false, fired_ = false;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace

TEST_CASE("every bound name of arcana, called with odd arguments, returns or raises an error",
          "[fuzz]") {
  char tmpl[] = "/tmp/arcana-fuzz-XXXXXX";
  REQUIRE(mkdtemp(tmpl) != nullptr);
  std::string dir = tmpl;
  char cwd[4096];
  REQUIRE(getcwd(cwd, sizeof cwd) != nullptr);
  REQUIRE(chdir(dir.c_str()) == 0);

  compiler::Runtime rt;
  vm::VM& vm = rt.vm();
  std::vector<std::string> names;
  for (vm::Value s : vm::all_symbols(vm))
    if (s.is_ref() && vm::global_value(s) != vm::UNBOUND) names.push_back(vm::symbol_name(s));
  std::sort(names.begin(), names.end());
  REQUIRE(names.size() > 300);  // the builtins and the library

  std::vector<std::string> arglists = argument_lists();
  Watchdog dog(vm);
  size_t calls = 0, errors = 0;
  auto call = [&](const std::string& src) {
    vm.set_in_port(vm::make_port(vm, vm::make_input_string("")));
    vm.set_out_port(vm::make_port(vm, vm::make_output_string()));
    vm.set_err_port(vm::make_port(vm, vm::make_output_string()));
    dog.arm(src);
    try {
      rt.eval_string(src, "fuzz");
    } catch (vm::ArcError&) {
      ++errors;
    }
    dog.disarm();
    ++calls;
  };
  for (const std::string& name : names) {
    if (kSkipped.count(name)) continue;
    vm::Value sym = vm::intern(vm, name);
    if (vm::global_value(sym) == vm::UNBOUND) continue;  // a call before took it away
    vm.define("fuzz-f", vm::global_value(sym));
    bool mac = vm::write_string(vm, rt.eval_string("(type fuzz-f)", "fuzz")) == "mac";
    for (const std::string& args : arglists) {
      if (mac) {
        // A macro's expander with odd forms; the expansion is not run (it
        // would define and assign at random).
        if (plain_name(name)) call("(macex '(" + name + " " + args + "))");
        continue;
      }
      call("(on-err (fn (e) nil) (fn () (fuzz-f " + args + ")))");
      // Called by name too: the compiler's inline forms of the primitives.
      if (plain_name(name)) call("(on-err (fn (e) nil) (fn () (" + name + " " + args + ")))");
    }
  }
  INFO("calls: " << calls << ", raised to the top: " << errors);
  CHECK(calls > 10000);
  REQUIRE(chdir(cwd) == 0);
  std::system(("rm -rf '" + dir + "'").c_str());
}
