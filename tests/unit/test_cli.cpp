// tests/unit/test_cli.cpp — the arcana command line, run as a subprocess:
// -e, --help and --version, scripts with arguments and a #! line, uncaught
// errors in scripts, option errors, --trusted-proxies, --stats,
// --stack-limit and deeply nested input. Every run has a timeout; a child
// that outlives it is killed.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "gc/heap.h"
#include "subprocess.h"

using namespace subprocess;

TEST_CASE("arcana -e prints the value", "[cli]") {
  Result r = arcana({"-e", "(+ 1 2)"});
  CHECK(r.exited_with(0));
  CHECK(r.out == "3\n");
  CHECK(r.err.empty());
}

TEST_CASE("arcana --version and --help exit 0", "[cli]") {
  Result v = arcana({"--version"});
  CHECK(v.exited_with(0));
  CHECK(v.out.rfind("arcana ", 0) == 0);
  Result h = arcana({"--help"});
  CHECK(h.exited_with(0));
  CHECK(has(h.out, "usage: arcana"));
  CHECK(has(h.out, "--stack-limit"));
}

TEST_CASE("a script sees its arguments in argv", "[cli]") {
  TempDir dir;
  std::string file = dir.write("args.arc", "(disp (car argv))\n(disp \" \")\n(disp (len argv))\n");
  Result r = arcana({file, "hello", "world"});
  CHECK(r.exited_with(0));
  CHECK(r.out == "hello 2");
  CHECK(r.err.empty());
}

TEST_CASE("a script may start with a #! line", "[cli]") {
  TempDir dir;
  std::string file = dir.write("hashbang.arc", "#!/usr/bin/env arcana\n(disp (+ 40 2))\n");
  Result r = arcana({file});
  CHECK(r.exited_with(0));
  CHECK(r.out == "42");

  // Run as a program itself, with arcana found on PATH.
  chmod(file.c_str(), 0755);
  std::string bin = ARCANA_BINARY;
  std::string path = bin.substr(0, bin.rfind('/')) + ":" + std::getenv("PATH");
  Options on_path;
  on_path.env = {{"PATH", path}};
  Result direct = run(file, {}, on_path);
  CHECK(direct.exited_with(0));
  CHECK(direct.out == "42");
}

TEST_CASE("an uncaught error ends a script with a backtrace", "[cli]") {
  TempDir dir;
  std::string file = dir.write("oops.arc",
                               "; a comment\n"
                               "(assign f (fn (x)\n"
                               "  (car x)))\n"
                               "(disp \"before\")\n"
                               "(f 5)\n"
                               "(disp \"after\")\n");
  Result r = arcana({file});
  CHECK(r.failed_cleanly());
  CHECK(r.out == "before");
  CHECK(r.err.rfind("Error: Can't take car of 5\n", 0) == 0);
  CHECK(has(r.err, "oops.arc:3"));
}

TEST_CASE("the top level prints an error's irritants as Arc 3.1 shows them", "[cli]") {
  TempDir dir;
  std::string call = dir.write("call.arc", "(3 4)\n");
  Result r = arcana({call});
  CHECK(r.failed_cleanly());
  CHECK(r.err.rfind("Error: Function call on inappropriate object 3 '(4)\n", 0) == 0);
  std::string err = dir.write("err.arc", "(err \"msg:\" '(a \"b\") 'c)\n");
  r = arcana({err});
  CHECK(r.failed_cleanly());
  CHECK(r.err.rfind("Error: msg: '(a \"b\" . nil) 'c\n", 0) == 0);
}

TEST_CASE("a thread writing to a full pipe waits as a thread: the others run", "[cli][threads]") {
  TempDir dir;
  // The writer fills the pipe long before the reader, asleep for a second,
  // reads anything; meanwhile the main thread counts rounds of 1 ms sleeps.
  // Were the write to block the process, main would count a handful.
  std::string file =
      dir.write("pipe.arc",
                "(= n 0)\n"
                "(= w (thread (repeat 20000 (prn \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"))))\n"
                "(until (dead w) (++ n) (sleep 0.001))\n"
                "(w/stdout (stderr) (prn \"rounds \" n))\n");
  std::string cmd = std::string("'") + ARCANA_BINARY + "' '" + file + "' | (sleep 1; wc -l)";
  Result r = run("/bin/sh", {"-c", cmd});
  CHECK(r.exited_with(0));
  CHECK(has(r.out, "20000"));
  REQUIRE(has(r.err, "rounds "));
  long rounds = std::stol(r.err.substr(r.err.find("rounds ") + 7));
  CHECK(rounds > 50);
}

TEST_CASE("one big write to a slow pipe lets the other threads run", "[cli][threads]") {
  TempDir dir;
  std::string file = dir.write("big.arc",
                               "(= n 0)\n"
                               "(= w (thread (disp (newstring 1000000 #\\a))))\n"
                               "(until (dead w) (++ n) (sleep 0.001))\n"
                               "(w/stdout (stderr) (prn \"rounds \" n))\n");
  std::string cmd = std::string("'") + ARCANA_BINARY + "' '" + file + "' | (sleep 1; wc -c)";
  Result r = run("/bin/sh", {"-c", cmd});
  CHECK(r.exited_with(0));
  CHECK(has(r.out, "1000000"));
  REQUIRE(has(r.err, "rounds "));
  CHECK(std::stol(r.err.substr(r.err.find("rounds ") + 7)) > 50);
}

TEST_CASE("two threads reading one descriptor each get their part; the others run",
          "[cli][threads]") {
  TempDir dir;
  std::string file =
      dir.write("readers.arc",
                "(= got nil ticks 0)\n"
                "(= rs (list (thread (push (readc) got)) (thread (push (readc) got))))\n"
                "(thread (while t (++ ticks) (sleep 0.001)))\n"
                "(until (all dead rs) (sleep 0.001))\n"
                "(prn (sort < (map string got)) \" \" (> ticks 50))\n");
  std::string cmd = "(sleep 1; printf xy) | '" + std::string(ARCANA_BINARY) + "' '" + file + "'";
  Result r = run("/bin/sh", {"-c", cmd});
  CHECK(r.exited_with(0));
  CHECK(r.out == "(x y) t\n");  // prn displays the strings
}

TEST_CASE("arcana --stats reports the threads: started, switches, preemptions", "[cli][threads]") {
  // Two busy loops: the budget preempts each in turn.
  Result r = arcana({"--stats", "-e",
                     "(let th (thread (repeat 300000 nil)) (repeat 300000 nil) "
                     "(until (dead th) (sleep 0.001)) 'done)"});
  CHECK(r.exited_with(0));
  CHECK(r.out == "done\n");
  REQUIRE(has(r.err, "threads: 1 started, 1 live; "));
  std::string line = r.err.substr(r.err.find("threads: "));
  long switches = std::stol(line.substr(line.find("live; ") + 6));
  long preemptions = std::stol(line.substr(line.find("(") + 1));
  CHECK(switches >= 2);
  CHECK(preemptions >= 1);
  Result quiet = arcana({"--stats", "-e", "1"});
  CHECK(!has(quiet.err, "threads:"));  // no thread, no line
}

TEST_CASE("arcana rejects an unknown collector and names the known ones", "[cli]") {
  Result r = arcana({"--gc=nope", "-e", "1"});
  CHECK(r.failed_cleanly());
  CHECK(r.out.empty());
  CHECK(has(r.err, "unknown collector 'nope'"));
  for (const std::string& name : gc::heap_names()) CHECK(has(r.err, name));
}

TEST_CASE("arcana rejects an unknown option", "[cli]") {
  Result r = arcana({"--frobnicate", "-e", "1"});
  CHECK(r.failed_cleanly());
  CHECK(r.out.empty());
  CHECK(has(r.err, "unknown option --frobnicate"));
  CHECK(has(r.err, "usage:"));
}

TEST_CASE("arcana --trusted-proxies sets trusted-proxies*, as the server writes addresses",
          "[cli]") {
  Result r = arcana({"--trusted-proxies=127.0.0.1,::FFFF:10.0.0.1", "--trusted-proxies",
                     "2001:DB8::1", "-e", "trusted-proxies*"});
  CHECK(r.exited_with(0));
  CHECK(r.out == "(\"127.0.0.1\" \"10.0.0.1\" \"2001:db8::1\")\n");
  for (const char* bad : {"--trusted-proxies=10.0.0.1,proxy.example.com",
                          "--trusted-proxies=10.0.0.1,", "--trusted-proxies="}) {
    Result e = arcana({bad, "-e", "1"});
    CHECK(e.exited_with(2));
    CHECK(e.out.empty());
    CHECK(has(e.err, "--trusted-proxies needs IP addresses separated by commas"));
  }
}

TEST_CASE("arcana --stats prints the counters at exit", "[cli]") {
  Result r = arcana({"--stats", "-e", "(car (cons 1 2))"});
  CHECK(r.exited_with(0));
  CHECK(r.out == "1\n");
  CHECK(has(r.err, "type dispatches"));
  CHECK(has(r.err, "opcodes executed"));
  CHECK(has(r.err, "allocations:"));
  CHECK(has(r.err, "collections:"));
}

TEST_CASE("arcana --stats prints the top sites of each count", "[cli][sites]") {
  // f makes 10,000 one-element lists and n-of (expanded in f) conses them
  // up and reverses them (%rev-onto, a builtin, whose allocations are its
  // caller's): 30,000 conses at f's line, the most bytes of any site.
  Result r = arcana({"--stats", "-e", "(def f (n) (n-of n (list 1)))", "-e", "(len (f 10000))"});
  CHECK(r.exited_with(0));
  REQUIRE(has(r.err, "allocations, top sites by bytes:\n"));
  std::string allocs = r.err.substr(r.err.find("allocations, top sites by bytes:\n"));
  std::string first = allocs.substr(allocs.find('\n') + 1);
  first = first.substr(0, first.find('\n'));
  CHECK(has(first, " 30000  Cons"));
  CHECK(has(first, "f at -e:1"));
  CHECK(has(r.err, "type dispatches, top sites:\n"));
  CHECK(has(r.err, "collections, by the site whose allocation started them:\n"));
}

TEST_CASE("arcana --stats counts every allocation in its total", "[cli]") {
  // 100,000 conses at least, most of them still in eden at exit: the total
  // must include them (it is summed up from the counts by kind).
  Result r = arcana({"--stats", "-e", "(len (n-of 100000 'x))"});
  CHECK(r.exited_with(0));
  size_t allocations = r.err.find("allocations: ");
  REQUIRE(allocations != std::string::npos);
  auto number_after = [&](const std::string& key) -> unsigned long long {
    size_t at = r.err.find(key, allocations);
    if (at == std::string::npos) return 0;
    return std::stoull(r.err.substr(at + key.size()));
  };
  unsigned long long total = number_after("allocations: ");
  unsigned long long conses = number_after("\n  Cons ");  // the allocations by kind
  CHECK(conses >= 100000);
  CHECK(total >= conses);
}

TEST_CASE("arcana --stats prints the figures of (gc-stats) under their keys", "[cli]") {
  Result r = arcana({"--stats", "-e", "(sort < (map string (keys (gc-stats))))"});
  CHECK(r.exited_with(0));
  // The keys of the table, from ("a" "b" ...).
  std::vector<std::string> table;
  for (size_t at = r.out.find('"'); at != std::string::npos; at = r.out.find('"', at + 1)) {
    size_t end = r.out.find('"', at + 1);
    REQUIRE(end != std::string::npos);
    table.push_back(r.out.substr(at + 1, end - at - 1));
    at = end;
  }
  // The keys --stats prints: the "  key: value" lines after "gc:".
  std::vector<std::string> printed;
  size_t at = r.err.find("\ngc:\n");
  REQUIRE(at != std::string::npos);
  for (at += 4; r.err.compare(at, 3, "\n  ") == 0;) {
    size_t colon = r.err.find(": ", at);
    REQUIRE(colon != std::string::npos);
    printed.push_back(r.err.substr(at + 3, colon - at - 3));
    at = r.err.find('\n', colon);
  }
  std::sort(printed.begin(), printed.end());
  CHECK(table.size() > 20);
  CHECK(printed == table);
}

TEST_CASE("quit ends the process as the end of the program does", "[cli]") {
  // With explicit-flush, what is written to a port stays in its buffer until
  // a flush or a close; a port never closed is closed when the heap is
  // finalized, at the end of the program and at quit alike.
  TempDir dir;
  std::string file = dir.path + "/out.txt";
  for (const char* end : {"7", "(quit 7)"}) {
    INFO(end);
    std::remove(file.c_str());
    Result r = arcana({"-e", "(do (declare 'explicit-flush t) (assign o (outfile \"" + file +
                                 "\")) (disp \"unclosed\" o) " + end + ")"});
    CHECK(r.exited_with(std::string(end) == "7" ? 0 : 7));
    std::ifstream in(file);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(text == "unclosed");
  }
}

TEST_CASE("deep recursion past --stack-limit is an Arc error", "[cli]") {
  Result r = arcana({"--stack-limit=8", "-e", "((fn (f) (f f)) (fn (f) (+ 1 (f f))))"});
  CHECK(r.exited_with(1));
  CHECK(r.err.rfind("Error: stack overflow", 0) == 0);
}

TEST_CASE("the main stack's C++ recursion goes past its provisional mark", "[cli]") {
  // VM::VM marks the main thread's stack 1 MiB down without finding its
  // end; an expansion 4,500 deep needs more (a few MiB in the release
  // build, over ten times that under ASan), and check_machine_stack finds
  // the real end then rather than raising an overflow. The child's stack
  // is set, so that the depth fits whatever the build's frame sizes; on a
  // 3 MiB stack (still big enough for the provisional mark) the same
  // expansion passes the real end, an Arc error and not a crash. Each
  // (deepm n) is two levels of expansion, so 4,500 stays within the
  // expander's own depth limit (compiler/expand.cpp, kMaxDepth).
  std::string deep =
      "(do (mac deepm (n) (if (> n 0) `(list (deepm ,(- n 1))) 1))"
      " (len (tostring (write (eval '(deepm 4500))))))";
  Options big;
  big.stack = size_t(256) << 20;
  Result r = arcana({"-e", deep}, big);
  CHECK(r.exited_with(0));
  CHECK(r.out == "9001\n");
  Options small;
  small.stack = size_t(3) << 20;
  Result over = arcana({"-e", deep}, small);
  CHECK(over.exited_with(1));
  CHECK(over.err.rfind("Error: stack overflow: C++ recursion too deep", 0) == 0);
}

TEST_CASE("300000 nested backquotes in a file give a value or an Arc error and no crash", "[cli]") {
  // Expanding a template once recursed without a limit in every list of it
  // (a segfault, status 139). Without an unquote the template is a constant,
  // however deep; with one at the bottom, code is needed at every level,
  // which is too deep, and says so.
  TempDir dir;
  std::string ticks(300000, '`'), commas(300000, ','), opens(300000, '('), closes(300000, ')');
  Result constant = arcana({dir.write("constant.arc", ticks + "x\n(disp \"after\")\n")});
  CHECK(constant.exited_with(0));
  CHECK(constant.out == "after");
  Result unquoted = arcana({dir.write("unquoted.arc", ticks + commas + "x\n(disp \"after\")\n")});
  CHECK(unquoted.exited_with(1));
  CHECK(unquoted.out.empty());
  CHECK(unquoted.err.rfind("Error: ", 0) == 0);
  CHECK(has(unquoted.err, "unquoted.arc:1: form nested too deeply to compile"));
  Result in_lists = arcana({dir.write("lists.arc", "`" + opens + ",x" + closes + "\n")});
  CHECK(in_lists.exited_with(1));
  CHECK(has(in_lists.err, "form nested too deeply to compile"));
}

TEST_CASE("the examples run", "[cli]") {
  std::string dir = std::string(ARCANA_TESTS_DIR) + "/../examples/";
  Result fib = arcana({dir + "fib.arc", "10"});
  CHECK(fib.exited_with(0));
  CHECK(has(fib.out, "(fib 10) = 55 in "));
  Result args = arcana({dir + "args.arc", "one", "two", "x"});
  CHECK(args.exited_with(0));
  CHECK(has(args.out, "2: two (3 characters)"));
  CHECK(has(args.out, "3: x (1 character)\n"));
  CHECK(has(args.out, "argv is 3 long: (\"one\" \"two\" \"x\")"));
  Result letters = arcana({dir + "letters.arc", "abca"});
  CHECK(letters.exited_with(0));
  CHECK(has(letters.out, "\"abca\" has 4 characters"));
  CHECK(has(letters.out, "  a 2\n"));
  CHECK(fib.err + args.err + letters.err == "");
}

// --gc-trace: a line for each pause of gen and gen-stw, on stderr only, and
// nothing without it.
TEST_CASE("the --gc-trace option prints a line for each pause", "[cli]") {
  const std::string churn = "(let x nil (repeat 200000 (= x (list 1 2 3))) (gc) (len x))";
  Result plain = arcana({"-e", churn});
  CHECK(plain.exited_with(0));
  CHECK(plain.err.empty());
  for (const char* gc : {"--gc=gen", "--gc=gen-stw"}) {
    Result r = arcana({gc, "--gc-trace", "-e", churn});
    CHECK(r.exited_with(0));
    CHECK(r.out == "3\n");
    CHECK(has(r.err, "gc 1: minor: "));
    CHECK(has(r.err, " faults); eden 1024K: "));
    CHECK(has(r.err, ": full: "));  // (gc)
    size_t lines = size_t(std::count(r.err.begin(), r.err.end(), '\n'));
    CHECK(lines >= 5);  // 9.6 MB allocated through a 1 MiB nursery
    CHECK(!has(r.out, "gc 1:"));
  }
  // A concurrent mark's pauses name their parts: 1.5 million conses kept
  // (36 MB) pass the first major collection's trigger.
  Result r =
      arcana({"--gc=gen", "--gc-trace", "-e", "(let x nil (repeat 1500000 (push 1 x)) (len x))"});
  CHECK(r.exited_with(0));
  CHECK(r.out == "1500000\n");
  CHECK(has(r.err, ": minor, mark begins: "));
  CHECK(has(r.err, "; snapshot "));
}
