// tests/unit/test_cli_located.cpp — where the arcana command says an error
// was: macro uses, top-level forms and eval, piped REPL input, long and
// internal backtraces; and -e with a FILE, --cpu-profile's file, a piped
// REPL's exit status. Each run is a subprocess with a timeout.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "subprocess.h"

using namespace subprocess;

namespace {

using Clock = std::chrono::steady_clock;

// Options with text on the child's stdin.
Options piped(const std::string& text) {
  Options o;
  o.input = text;
  return o;
}

size_t count(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("a macro's arity error names the macro and the line of its use", "[cli][located]") {
  TempDir dir;
  std::string file = dir.write("two.arc",
                               "(mac two (a b) `(+ ,a ,b))\n"
                               "\n"
                               "(def user ()\n"
                               "  (two 1))\n");
  Result r = arcana({file});
  CHECK(r.exited_with(1));
  CHECK(r.err.rfind("Error: two: expects 2 arguments, got 1\n", 0) == 0);
  CHECK(has(r.err, "in the use of macro two at " + file + ":4\n"));
}

TEST_CASE("an error in a macro's expansion shows its definition and its use", "[cli][located]") {
  TempDir dir;
  std::string file = dir.write("bad.arc",
                               "(mac bad (x)\n"
                               "  (car x))\n"
                               "(def f ()\n"
                               "  (eval '(bad 5)))\n"
                               "(f)\n");
  Result r = arcana({file});
  CHECK(r.exited_with(1));
  CHECK(r.err ==
        "Error: Can't take car of 5\n"
        "  in bad at " +
            file +
            ":2\n"
            "  in the use of macro bad at " +
            file +
            ":4\n"
            "  in f at " +
            file + ":4\n");
}

TEST_CASE("an unbound variable at the top level or in eval names file and line", "[cli][located]") {
  TempDir dir;
  std::string top = dir.write("top.arc", "(prn \"a\")\n\nnosuchvar\n");
  Result r = arcana({top});
  CHECK(r.exited_with(1));
  CHECK(r.out == "a\n");
  CHECK(has(r.err, "undefined identifier: _nosuchvar\n"));
  CHECK(has(r.err, top + ":3"));
  std::string ev = dir.write("ev.arc", "(prn \"a\")\n(eval 'nosuchvar)\n");
  Result e = arcana({ev});
  CHECK(e.exited_with(1));
  CHECK(has(e.err, ev + ":2"));
}

TEST_CASE("a byte-order mark at the start of a file is skipped", "[cli][located]") {
  TempDir dir;
  Result r = arcana({dir.write("bom.arc", "\xEF\xBB\xBF(prn \"bom\")\n")});
  CHECK(r.exited_with(0));
  CHECK(r.out == "bom\n");
  CHECK(r.err.empty());
  Result h = arcana({dir.write("bomhash.arc", "\xEF\xBB\xBF#!/usr/bin/env arcana\n(prn 7)\n")});
  CHECK(h.exited_with(0));
  CHECK(h.out == "7\n");
}

TEST_CASE("forms piped to the REPL carry their lines; an error makes the status 1",
          "[cli][located]") {
  Result r = arcana({}, piped("(prn 1)\n\n(car 5)\n(prn 3)\n"));
  CHECK(r.exited_with(1));
  CHECK(r.out == "1\n1\n3\n3\n");  // the rest still runs
  CHECK(r.err == "Error: Can't take car of 5\n  in fn at repl:3\n");
  Result ok = arcana({}, piped("(+ 1 2)\n"));
  CHECK(ok.exited_with(0));
  CHECK(ok.out == "3\n");
}

TEST_CASE("a deep backtrace says how many frames it leaves out", "[cli][located]") {
  TempDir dir;
  std::string file = dir.write("deep.arc",
                               "(def f (n) (if (is n 0) (car 5) (+ 1 (g (- n 1)))))\n"
                               "(def g (n) (+ 1 (f n)))\n"
                               "(def outer () (+ 1 (f 100)))\n"
                               "(outer)\n");
  Result r = arcana({file});
  CHECK(r.exited_with(1));
  // 101 frames of f and 100 of g under outer: 36 of them shown first, the
  // outermost 3 last, and a line for the 163 between; 40 lines in all.
  CHECK(r.err.rfind("Error: Can't take car of 5\n  in f at " + file + ":1\n", 0) == 0);
  CHECK(has(r.err, "  ... 163 frames left out ...\n"));
  CHECK(has(r.err, "  in outer at " + file + ":3\n"));
  CHECK(count(r.err, "\n") == 41);
}

TEST_CASE("a backtrace leaves out the prelude's internal frames", "[cli][located]") {
  TempDir dir;
  std::string file = dir.write("wind.arc",
                               "(def h (x)\n"
                               "  (protect (fn () (car x))\n"
                               "           (fn () nil)))\n"
                               "(def k (x) (+ 1 (h x)))\n"
                               "(k 5)\n");
  Result r = arcana({file});
  CHECK(r.exited_with(1));
  CHECK(r.err ==
        "Error: Can't take car of 5\n"
        "  in h at " +
            file +
            ":2\n"
            "  in k at " +
            file + ":4\n");
}

TEST_CASE("-e with a FILE runs both, in order", "[cli][located]") {
  TempDir dir;
  Result r = arcana({"-e", "(prn \"e\")", dir.write("f.arc", "(prn \"file\")\n")});
  CHECK(r.exited_with(0));
  CHECK(r.out == "e\n\"e\"\nfile\n");
}

TEST_CASE("a --cpu-profile path that cannot be written is an error", "[cli][located]") {
  Result r = arcana({"--cpu-profile=/nonexistent-dir/x.prof", "-e", "1"});
  CHECK(r.exited_with(2));
  CHECK(r.out.empty());
  CHECK(has(r.err, "--cpu-profile: cannot write '/nonexistent-dir/x.prof'"));
}

// libprofiler is opened for --cpu-profile, not linked (repl/main.cpp): the
// file is gperftools' format, its header words 0 and 3 and its trailer the
// process's memory map, which names the binary.
TEST_CASE("a run with --cpu-profile writes a gperftools profile", "[cli][located]") {
  TempDir dir;
  std::string prof = dir.path + "/run.prof";
  Result r = arcana({"--cpu-profile=" + prof, "-e", "(let s 0 (for i 1 3000000 (++ s i)) s)"});
  REQUIRE(r.exited_with(0));
  CHECK(r.out == "4500001500000\n");
  std::ifstream in(prof, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  REQUIRE(bytes.size() > 5 * sizeof(uint64_t));
  uint64_t header[2];
  std::memcpy(header, bytes.data(), sizeof header);
  CHECK(header[0] == 0);
  CHECK(header[1] == 3);
  CHECK(has(bytes, "arcana"));
}

// The samples of a gperftools profile: after the header (5 words, the 4th
// the sampling period in microseconds), records of (count, depth, pcs...)
// up to the trailer (0, 1, 0). Returns the period and the count.
static std::pair<uint64_t, uint64_t> cpu_profile_samples(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<uint64_t> w(bytes.size() / sizeof(uint64_t));
  std::memcpy(w.data(), bytes.data(), w.size() * sizeof(uint64_t));
  if (w.size() < 5) return {0, 0};
  uint64_t samples = 0;
  for (size_t i = 5; i + 2 < w.size() && !(w[i] == 0 && w[i + 1] == 1 && w[i + 2] == 0);
       i += 2 + w[i + 1])
    samples += w[i];
  return {w[3], samples};
}

// gperftools' default, 100 a second, leaves a short run with a handful of
// samples: arcana asks for 1,000 unless CPUPROFILE_FREQUENCY is set, and
// keeps the variable from the programs it starts.
TEST_CASE("a run with --cpu-profile samples 1000 times a second unless told otherwise",
          "[cli][located]") {
  TempDir dir;
  std::string prof = dir.path + "/rate.prof";
  Result r = arcana(
      {"--cpu-profile=" + prof, "-e", "(do (system \"echo ${CPUPROFILE_FREQUENCY-unset}\") 1)"});
  REQUIRE(r.exited_with(0));
  CHECK(r.out == "unset\n1\n");
  CHECK(cpu_profile_samples(prof).first == 1000);  // microseconds between samples
  std::string chosen = dir.path + "/chosen.prof";
  Options o;
  o.env = {{"CPUPROFILE_FREQUENCY", "250"}};
  r = arcana(
      {"--cpu-profile=" + chosen, "-e", "(do (system \"echo ${CPUPROFILE_FREQUENCY-unset}\") 1)"},
      o);
  REQUIRE(r.exited_with(0));
  CHECK(r.out == "250\n1\n");
  CHECK(cpu_profile_samples(chosen).first == 4000);
}

TEST_CASE("Ctrl-C in a script interrupts it: cleanups run, status 130", "[cli][located]") {
  TempDir dir;
  std::string file = dir.write("loop.arc",
                               "(protect (fn () (prn \"started\") (while t nil))\n"
                               "         (fn () (prn \"cleanup\")))\n");
  int out_pipe[2], err_pipe[2];
  REQUIRE(pipe(out_pipe) == 0);
  REQUIRE(pipe(err_pipe) == 0);
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    signal(SIGINT, SIG_DFL);  // not ignored, whatever started the tests
    dup2(out_pipe[1], 1);
    dup2(err_pipe[1], 2);
    for (int fd : {out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]}) close(fd);
    unsetenv("ARCANA_GC");
    execl(ARCANA_BINARY, "arcana", file.c_str(), (char*)nullptr);
    _exit(127);
  }
  close(out_pipe[1]);
  close(err_pipe[1]);
  // Reads fd to its end (or the deadline) into out; stops early once out
  // holds until (if given).
  auto read_from = [](int fd, std::string& out, const std::string& until) {
    auto deadline = Clock::now() + std::chrono::seconds(10);
    while (Clock::now() < deadline && (until.empty() || !has(out, until))) {
      pollfd p{fd, POLLIN, 0};
      if (poll(&p, 1, 100) <= 0) continue;
      char buf[256];
      ssize_t n = read(fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      out.append(buf, size_t(n));
    }
  };
  std::string out, err;
  read_from(out_pipe[0], out, "started\n");
  CHECK(out == "started\n");
  kill(pid, SIGINT);
  read_from(out_pipe[0], out, "");
  read_from(err_pipe[0], err, "");
  int status = 0;
  for (int i = 0; i < 100 && waitpid(pid, &status, WNOHANG) == 0; ++i) usleep(50000);
  if (waitpid(pid, &status, WNOHANG) == 0) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
  }
  close(out_pipe[0]);
  close(err_pipe[0]);
  CHECK(out == "started\ncleanup\n");
  CHECK(err.rfind("Error: interrupted\n", 0) == 0);
  CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 130));
}

// The signal falls after the last safe point of the first form (system
// returns to a thunk with no call left): kept for the next form, which
// does not run, and raised after -e's last expression too.
TEST_CASE("Ctrl-C between a script's top-level forms still stops it", "[cli][located]") {
  TempDir dir;
  std::string file = dir.write("between.arc", "(system \"kill -INT $PPID\")\n(prn \"after\")\n");
  Result r = arcana({file});
  CHECK(r.exited_with(130));
  CHECK(r.out.empty());
  CHECK(r.err.rfind("Error: interrupted\n", 0) == 0);
  Result e = arcana({"-e", "(system \"kill -INT $PPID\")"});
  CHECK(e.exited_with(130));
  CHECK(has(e.err, "Error: interrupted"));
  // The REPL drops it: its prompt took the Ctrl-C.
  Result p = arcana({}, piped("(system \"kill -INT $PPID\")\n(prn \"after\")\n"));
  CHECK(has(p.out, "after"));
}
