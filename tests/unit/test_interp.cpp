// tests/unit/test_interp.cpp — the interpreter: calls and tail calls, deep
// recursion and the stack limit, errors with backtraces, handlers and
// cleanups, continuations, re-entry from C++, interruption, counters.
#include <catch2/catch.hpp>

#include "compiler/runtime.h"
#include "support.h"
#include "vm/error.h"
#include "vm/print.h"
#include "vm/string.h"
#include "vm/symbol.h"

using support::error_of;
using support::eval;

namespace {

std::string eval_in(compiler::Runtime& rt, const std::string& src) {
  return vm::write_string(rt.vm(), rt.eval_string(src, "small"));
}

std::string error_in(compiler::Runtime& rt, const std::string& src) {
  try {
    rt.eval_string(src, "small");
  } catch (vm::ArcError& e) {
    return vm::exception_message(e.exc);
  }
  return "";
}

}  // namespace

TEST_CASE("calls, closures and recursion", "[interp]") {
  eval("(assign fib (fn (n) (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2))))))");
  CHECK(eval("(fib 20)") == "6765");
  CHECK(eval("(((fn (x) (fn (y) (cons x y))) 1) 2)") == "(1 . 2)");
  CHECK(eval("((fn (n) ((fn () (assign n (+ n 1)))) n) 5)") == "6");
}

TEST_CASE("non-tail recursion 100,000 deep works", "[interp]") {
  eval("(assign depth (fn (n) (if (is n 0) 0 (+ 1 (depth (- n 1))))))");
  CHECK(eval("(depth 100000)") == "100000");
}

TEST_CASE("tail calls run in constant space; deep recursion hits the limit", "[interp]") {
  compiler::RuntimeOptions o;
  o.stack_limit_bytes = 4 << 20;
  compiler::Runtime rt(o);
  eval_in(rt, "(assign spin (fn (n) (if (is n 0) 'done (spin (- n 1)))))");
  CHECK(eval_in(rt, "(spin 1000000)") == "done");
  eval_in(rt, "(assign deep (fn (n) (if (is n 0) 0 (+ 1 (deep (- n 1))))))");
  std::string err = error_in(rt, "(deep 1000000)");
  CHECK(err.find("stack overflow") != std::string::npos);
  // The overflow is an ordinary Arc error: on-err catches it, and the VM
  // goes on working afterwards.
  CHECK(eval_in(rt, "(on-err (fn (e) 'caught) (fn () (deep 1000000)))") == "caught");
  CHECK(eval_in(rt, "(deep 1000)") == "1000");
}

TEST_CASE("errors carry an Arc backtrace with names and lines", "[interp]") {
  compiler::Runtime rt;
  rt.eval_string("(assign inner (fn (x) (car x)))\n(assign outer (fn (x) (+ 1 (inner x))))",
                 "bt.arc");
  try {
    rt.eval_string("(outer 5)", "call.arc");
    FAIL("no error");
  } catch (vm::ArcError& e) {
    std::string report = compiler::Runtime::describe_error(e.exc);
    CHECK(report.find("Can't take car of 5") != std::string::npos);
    CHECK(report.find("in inner at bt.arc:1") != std::string::npos);
    CHECK(report.find("in outer at bt.arc:2") != std::string::npos);
  }
}

TEST_CASE("unbound globals and bad calls are errors naming the culprit", "[interp]") {
  CHECK(error_of("(no-such-global-xyz)").find("no-such-global-xyz") != std::string::npos);
  CHECK(error_of("(5 1)").find("Function call on inappropriate object") != std::string::npos);
  CHECK(error_of("((fn (a b) a) 1)").find("expects 2 arguments, got 1") != std::string::npos);
  CHECK(error_of("(car 1 2)").find("car: expects 1 argument") != std::string::npos);
}

TEST_CASE("calling data and apply", "[interp]") {
  CHECK(eval("('(a b c) 1)") == "b");
  CHECK(eval("(\"abc\" 2)") == "#\\c");
  CHECK(eval("((table) 'x 5)") == "5");
  CHECK(eval("(apply + 1 2 '(3 4))") == "10");
  CHECK(eval("(apply '(a b c) '(2))") == "c");
  CHECK(eval("(apply (fn args args) nil)") == "nil");
  CHECK(error_of("(apply + 1 2)").find("proper list") != std::string::npos);
}

TEST_CASE("handlers, cleanups and their order", "[interp]") {
  CHECK(eval("(on-err (fn (e) (details e)) (fn () (err \"bad\" 1 \"x\")))") ==
        "\"bad 1 \\\"x\\\"\"");
  CHECK(support::output_of(
            "(on-err (fn (e) (disp \"handler \")) (fn () (protect (fn () (protect "
            "(fn () (car 1)) (fn () (disp \"inner \")))) (fn () (disp \"outer \")))))") ==
        "inner outer handler ");
  CHECK(support::output_of("(protect (fn () (disp \"body \")) (fn () (disp \"after\")))") ==
        "body after");
  // A handler's own error goes to the next handler out.
  CHECK(eval("(on-err (fn (e) 'outer) (fn () (on-err (fn (e) (car 1)) (fn () (car 2)))))") ==
        "outer");
}

TEST_CASE("continuations escape and re-enter", "[interp]") {
  CHECK(eval("(+ 1 (ccc (fn (k) (+ 10 (k 5)))))") == "6");
  CHECK(support::output_of("(ccc (fn (k) (protect (fn () (k 1)) (fn () (disp \"cleanup\")))))") ==
        "cleanup");
  // Re-entry: the saved continuation runs the rest of the form again, and
  // sees the current value of an assigned local (not the one copied with
  // the stack).
  CHECK(eval("((fn (k n) (assign n (+ (ccc (fn (c) (assign k c) 1)) n)) (if (< n 10) (k 1) n)) "
             "nil 0)") == "10");
}

TEST_CASE("Arc re-entered from C++: macros run during compilation", "[interp]") {
  eval("(assign twice (annotate 'mac (fn (x) (cons 'cons (cons x (cons x nil))))))");
  CHECK(eval("(twice 1)") == "(1 . 1)");
  CHECK(eval("(eval '(twice 2))") == "(2 . 2)");
  CHECK(eval("((fn (f) (f '(twice 3))) eval)") == "(3 . 3)");
}

TEST_CASE("an interrupt stops a running loop", "[interp]") {
  auto& rt = support::runtime();
  rt.vm().request_interrupt();
  std::string e = error_of("((fn (f) (f f)) (fn (f) (f f)))");
  CHECK(e == "interrupted");
  CHECK(eval("(+ 1 1)") == "2");
}

TEST_CASE("counters count opcodes and type dispatches", "[interp]") {
  auto& vm = support::runtime().vm();
  vm.counters().count_ops = true;
  vm::g_profile.count_types = true;
  uint64_t calls_before =
      vm.counters().ops[int(vm::Op::CALL)] + vm.counters().ops[int(vm::Op::TAILCALL)];
  uint64_t fix_before = vm::g_profile.type_counts[int(vm::Kind::Fixnum)];
  eval("((fn (f) (f f 100)) (fn (f n) (if (is n 0) 0 (f f (- n 1)))))");
  vm.counters().count_ops = false;
  vm::g_profile.count_types = false;
  CHECK(vm.counters().ops[int(vm::Op::CALL)] + vm.counters().ops[int(vm::Op::TAILCALL)] >=
        calls_before + 100);
  CHECK(vm::g_profile.type_counts[int(vm::Kind::Fixnum)] > fix_before);
}
