// tests/unit/test_collectors.cpp — the collectors under Arc programs: code
// that moves under nested runs, and programs under stress. (The collectors
// driven directly through gc/heap.h, with no VM: tests/unit/test_gc.cpp and
// tests/unit/test_heap.cpp.)
#include <catch2/catch.hpp>
#include <string>

#include "compiler/runtime.h"
#include "support.h"
#include "vm/print.h"

TEST_CASE("Arc code survives moves under nested runs (macro expansion in eval)", "[gc]") {
  for (const char* name : {"gen", "boehm"}) {
    compiler::RuntimeOptions opts;
    opts.gc = name;
    opts.nursery_bytes = 64 << 10;
    compiler::Runtime rt(opts);
    // The macro allocates enough to fill the nursery while the caller's
    // code object is still young.
    std::string r = vm::write_string(
        rt.vm(),
        rt.eval_string("(assign mk (fn (n acc) (if (is n 0) acc (mk (- n 1) (cons n acc)))))"
                       "(mac churn () (mk 20000 nil) 1)"
                       "(list (eval '(churn)) (+ 1 2) (macex '(churn)) 'after)"));
    CHECK(r == "(1 3 1 after)");
    CHECK(rt.vm().heap().verify().empty());
  }
}

// The Arc program the stress tests share: a list of 2,000 fresh strings
// built and walked (its length sum is kStressWalk), and a table filled with
// 500 list keys.
const char* const kStressDefs =
    "(assign build (fn (n acc) (if (is n 0) acc (build (- n 1) (cons (+ \"s\" n) acc)))))"
    "(assign walk (fn (l n) (if l (walk (cdr l) (+ n (len (car l)))) n)))"
    "(assign tb (table))"
    "(assign fill (fn (n) (if (is n 0) nil (do (sref tb n (list n)) (fill (- n 1))))))"
    "(fill 500)";
const int kStressWalk = 9 * 2 + 90 * 3 + 900 * 4 + 1001 * 5;

TEST_CASE("Arc programs survive gen-stw under stress", "[gc][stress]") {
  compiler::RuntimeOptions opts;
  opts.gc = "gen-stw";
  compiler::Runtime rt(opts);
  rt.vm().heap().set_stress(true);
  std::string r =
      vm::write_string(rt.vm(), rt.eval_string(std::string(kStressDefs) +
                                               "(list (walk (build 2000 nil) 0) (tb (list 250)))"));
  rt.vm().heap().set_stress(false);
  CHECK(r == "(" + std::to_string(kStressWalk) + " 250)");
  CHECK(rt.vm().heap().verify().empty());
}

TEST_CASE(
    "Arc programs survive the concurrent collectors (vcgc, gen) under stress, fibers included",
    "[gc][stress][vcgc]") {
  auto name = GENERATE("vcgc", "gen");
  INFO(name);
  compiler::RuntimeOptions opts;
  opts.gc = name;
  compiler::Runtime rt(opts);
  rt.vm().heap().set_stress(true);
  std::string r = vm::write_string(
      rt.vm(),
      rt.eval_string(
          std::string(kStressDefs) +
          "(assign gen (fn (n) (fiber (fn (x) ((afn (i) (yield (list i)) (self (+ i 1))) 0)))))"
          "(assign take (fn (f n acc) (if (is n 0) acc (take f (- n 1) (+ acc (car (resume f)))))))"
          "(assign many (fn (n acc) (if (is n 0) acc (many (- n 1) (+ acc (take (gen 0) 20 0))))))"
          "(list (walk (build 2000 nil) 0) (tb (list 250)) (many 300 0))"));
  rt.vm().heap().set_stress(false);
  CHECK(r == "(" + std::to_string(kStressWalk) + " 250 57000)");
  CHECK(rt.vm().heap().verify().empty());
}

// Continuations and fiber stacks captured while gen's marker runs: their
// states change without the write barrier, so the snapshot takes every
// fiber's references when the mark begins and the marker never reads
// them; a continuation captured meanwhile, re-entered later, must still
// find what its frames held (lists made during the mark, promoted marked).
// Under stress a mark begins every few dozen safe points, and each safe
// point is a minor collection, so the captures and re-entries below fall
// before, during and after many marks.
TEST_CASE("gen: continuations and fibers captured during a concurrent mark keep what they hold",
          "[gc][stress]") {
  compiler::RuntimeOptions opts;
  opts.gc = "gen";
  compiler::Runtime rt(opts);
  uint64_t majors = rt.vm().heap().stats().major_collections;
  rt.vm().heap().set_stress(true);
  std::string r = vm::write_string(
      rt.vm(),
      rt.eval_string(
          "(assign churn (fn (n acc) (if (is n 0) acc (churn (- n 1) (cons (list n) acc)))))"
          "(assign saved nil)"
          "(assign deep (fn (n held) (if (is n 0)"
          "  (ccc (fn (k) (assign saved k) 0))"
          "  (+ (len held) (deep (- n 1) (churn 3 nil))))))"
          "(assign run (fn () (let sums nil (let count 0"
          "  (let r (deep 40 (churn 3 nil))"
          "    (churn 200 nil)"
          "    (push r sums)"
          "    (when (< count 30) (++ count) (saved count))"
          "    sums)))))"
          "(assign sums (run))"
          "(assign fs (map (fn (i) (fiber (fn (x) ((afn (j acc) (yield (len acc))"
          "  (self (+ j 1) (churn j acc))) 0 nil)))) (range 1 20)))"
          "(assign fiber-sums (map (fn (f) (let tot 0 (repeat 15 (= tot (+ tot (resume f)))) tot)) "
          "fs))"
          "(list (len sums) (apply + sums) (car sums) (apply + fiber-sums))"));
  rt.vm().heap().set_stress(false);
  // The re-entries give deep's bottom frame 1..30 in turn: 31 sums, each
  // 120 (40 frames holding 3 each) plus the value passed in. A fiber's
  // k-th resume yields the length of 0+1+...+(k-2) lists: (k-1)(k-2)/2,
  // 455 over its first 15 resumes, 20 fibers.
  CHECK(r ==
        "(31 " + std::to_string(31 * 120 + 30 * 31 / 2) + " 150 " + std::to_string(20 * 455) + ")");
  CHECK(rt.vm().heap().stats().major_collections >= majors + 2);
  CHECK(rt.vm().heap().verify().empty());
}

TEST_CASE("Arc programs survive a collection at every safe point", "[heap][stress]") {
  auto& rt = support::runtime();
  rt.vm().heap().set_stress(true);
  std::string r = support::eval(
      "(assign build (fn (n acc) (if (is n 0) acc (build (- n 1) (cons (+ \"s\" n) acc)))))"
      "(assign walk (fn (l n) (if l (walk (cdr l) (+ n (len (car l)))) n)))"
      "(walk (build 2000 nil) 0)");
  rt.vm().heap().set_stress(false);
  // "s1".."s9" are 2 chars, "s10".."s99" 3, "s100".."s999" 4, "s1000".."s2000" 5.
  CHECK(r == std::to_string(9 * 2 + 90 * 3 + 900 * 4 + 1001 * 5));
  CHECK(rt.vm().heap().verify().empty());
}

// A minor collection visits only the symbols that may be young
// (vm/symbol.cpp, trace_young_symbols): those interned since the last one
// or still young at it. Symbols interned at run time among garbage, some
// uninterned and their holes taken by new names, some given global values,
// must all be found again under their names after many minor collections
// with a 64 KiB nursery (a missed one leaves the table pointing into a
// recycled eden chunk), and after a full collection.
TEST_CASE("Symbols interned at run time survive minor collections", "[gc]") {
  compiler::RuntimeOptions opts;
  opts.gc = "gen";
  opts.nursery_bytes = 64 << 10;
  compiler::Runtime rt(opts);
  const char* found = "(count (fn (p) (is (sym (string \"ysym\" (car p))) (cadr p))) syms)";
  std::string r = vm::write_string(
      rt.vm(),
      rt.eval_string(
          "(assign mk (fn (n acc) (if (is n 0) acc (mk (- n 1) (cons n acc)))))"
          "(assign syms nil)"
          "(for i 1 300 (push (list i (sym (string \"ysym\" i))) syms) (mk 300 nil))"
          "(each p syms (when (is 0 (mod (car p) 3)) (%unintern (cadr p))))"
          "(for i 1001 1100 (push (list i (sym (string \"ysym\" i))) syms) (mk 300 nil))"
          "(for i 1 50 (eval `(assign ,(sym (string \"ysym\" i)) (mk ,i nil))) (mk 300 nil))"
          "(mk 20000 nil)"
          "(list " +
          std::string(found) + " (len (eval 'ysym7)) (bound 'ysym1100))"));
  CHECK(r == "(300 7 nil)");
  CHECK(rt.vm().heap().stats().minor_collections > 20);
  CHECK(rt.vm().heap().verify().empty());
  rt.vm().heap().collect();
  CHECK(vm::write_string(rt.vm(), rt.eval_string(found)) == "300");
  CHECK(rt.vm().heap().verify().empty());
}

// A mark stack that cannot grow (MarkStack: out of memory in a
// collection) drops what it cannot hold, and the marker finds it again by
// rescanning the marked objects: nothing reachable is lost, whatever the
// shape (a long list, a wide table, a deep tree, survivors and old objects
// together). A limit of 1 drops nearly every push.
TEST_CASE("A full mark stack loses nothing: the marker rescans", "[gc]") {
  for (const char* name : {"gen", "gen-stw", "marksweep"}) {
    for (size_t limit : {size_t(1), size_t(7), size_t(64)}) {
      INFO(name << " limit " << limit);
      compiler::RuntimeOptions opts;
      opts.gc = name;
      opts.nursery_bytes = 64 << 10;
      compiler::Runtime rt(opts);
      REQUIRE(rt.vm().heap().set_mark_stack_limit(limit));
      std::string r = vm::write_string(
          rt.vm(),
          rt.eval_string(
              "(assign xs (n-of 600 (list 1 \"a\")))"
              "(assign tb (table))"
              "(for i 1 400 (= (tb i) (list i (+ \"v\" i))))"
              "(assign tree (fn (d) (if (is d 0) nil (list d (tree (- d 1)) (tree (- d 1))))))"
              "(assign tr (tree 9))"
              "(gc) (assign young (n-of 100 (string \"y\" 1))) (gc) (gc)"
              "(assign count (fn (t) (if t (+ 1 (count (cadr t)) (count (car (cddr t)))) 0)))"
              "(list (len xs) (apply + (map car xs)) (len tb)"
              "      (apply + (map (fn (k) (car (tb k))) (keys tb))) ((tb 399) 1)"
              "      (count tr) (len young) (car young))"));
      CHECK(r == "(600 600 400 80200 \"v399\" 511 100 \"y1\")");
      CHECK(rt.vm().heap().verify().empty());
    }
  }
  compiler::RuntimeOptions opts;
  opts.gc = "boehm";
  compiler::Runtime rt(opts);
  CHECK_FALSE(rt.vm().heap().set_mark_stack_limit(1));
}
