// tests/unit/test_sites.cpp — the per-site counters (measure/sites.h): type
// dispatches, allocations and collections by site, on programs whose counts
// are known exactly; (site-stats), (site-stats-reset) and (count-sites).
#include <catch2/catch.hpp>
#include <string>

#include "compiler/runtime.h"
#include "gc/heap.h"
#include "vm/object.h"
#include "vm/print.h"

namespace {

std::string eval(compiler::Runtime& rt, const std::string& src) {
  return vm::write_string(rt.vm(), rt.eval_string(src, "sites.arc"));
}

// A fresh system per test: counting is the counting VM's, and ends with it.
compiler::RuntimeOptions small_nursery() {
  compiler::RuntimeOptions o;
  o.gc = "gen";
  o.nursery_bytes = 64 << 10;
  return o;
}

// (count KIND FN LINE TYPE [FIELD]): the FIELD (count) of the entry of
// the KIND list of (site-stats) for that site and type; 0 if none.
const char* const kLookup =
    "(def site-count (kind fn line type (o field 'count))"
    "  (or (some [and (is (_ 'fn) fn) (is (_ 'line) line) (is (_ 'type) type) (_ field)]"
    "            ((site-stats) kind))"
    "      0))";

}  // namespace

TEST_CASE("allocations are counted by site and kind, with their bytes", "[sites]") {
  compiler::Runtime rt(small_nursery());
  eval(rt, kLookup);
  eval(rt,
       "(def mk (n)\n"                  // line 1
       "  (let acc nil\n"               // 2
       "    (repeat n\n"                // 3
       "      (= acc (cons n acc)))\n"  // 4: the conses
       "    acc))\n"
       "(def strs (n) (map [newstring _ #\\a] (range 1 n)))");  // 6
  eval(rt, "(count-sites t)");
  eval(rt, "(site-stats-reset)");
  eval(rt, "(do (mk 1000) (mk 500) nil)");
  size_t cons_bytes = gc::round_object_size(sizeof(vm::Cons));
  CHECK(eval(rt, "(site-count 'allocations \"mk\" 4 'Cons)") == "1500");
  CHECK(eval(rt, "(site-count 'allocations \"mk\" 4 'Cons 'bytes)") ==
        std::to_string(1500 * cons_bytes));
  // Most first, by bytes: mk's line is the top of the list.
  CHECK(eval(rt, "(let top (car ((site-stats) 'allocations)) (list (top 'fn) (top 'line)))") ==
        "(\"mk\" 4)");
  // Strings: one per element, charged to the line where they were made.
  eval(rt, "(site-stats-reset)");
  eval(rt, "(strs 300)");
  // The bracket fn is named after the def it is in (docs/LANGUAGE.md 1.8).
  CHECK(eval(rt, "(site-count 'allocations \"strs\" 6 'String)") == "300");
  CHECK(eval(rt, "(site-count 'allocations \"mk\" 4 'Cons)") == "0");  // reset
  eval(rt, "(count-sites nil)");
}

TEST_CASE("type dispatches are counted by site and type", "[sites]") {
  compiler::Runtime rt(small_nursery());
  eval(rt, kLookup);
  eval(rt,
       "(def typed (xs)\n"
       "  (each x xs\n"
       "    (type x)))");  // line 3: one dispatch per element, by its type
  eval(rt, "(count-sites t)");
  eval(rt, "(site-stats-reset)");
  eval(rt, "(typed '(1 a \"s\" 2 3 \"t\" #\\c))");
  CHECK(eval(rt, "(site-count 'dispatches \"typed\" 3 'Fixnum)") == "3");
  CHECK(eval(rt, "(site-count 'dispatches \"typed\" 3 'Symbol)") == "1");
  CHECK(eval(rt, "(site-count 'dispatches \"typed\" 3 'String)") == "2");
  CHECK(eval(rt, "(site-count 'dispatches \"typed\" 3 'Char)") == "1");
  CHECK(eval(rt, "(site-count 'dispatches \"typed\" 3 'Table)") == "0");
  // Off: nothing more is counted.
  eval(rt, "(count-sites nil)");
  eval(rt, "(typed '(1 2 3))");
  CHECK(eval(rt, "(site-count 'dispatches \"typed\" 3 'Fixnum)") == "3");
  CHECK(eval(rt, "((site-stats) 'counting)") == "nil");
}

TEST_CASE("collections are charged to the site whose allocation started them", "[sites]") {
  compiler::Runtime rt(small_nursery());
  eval(rt, kLookup);
  eval(rt,
       "(def churn (n) (let acc nil (repeat n (= acc (list n))) acc))\n"  // line 1
       "(def collect () (gc))");                                          // line 2
  eval(rt, "(count-sites t)");
  // From an empty nursery, so that where its last collection falls (in
  // churn, or in the gc-stats call after it) does not hang on how much
  // the library allocated before.
  eval(rt, "(gc)");
  eval(rt, "(site-stats-reset)");
  eval(rt, "(= before ((gc-stats) 'minor-collections))");
  eval(rt, "(churn 200000)");
  eval(rt, "(= minors (- ((gc-stats) 'minor-collections) before))");
  // 200,000 conses of a 64 KiB nursery: many minor collections, each
  // started by churn's allocation but perhaps the last, which the table
  // gc-stats makes to read the count may start itself, at the top level.
  CHECK(eval(rt, "(> minors 10)") == "t");
  CHECK(eval(rt,
             "(let c (keep [is (_ 'fn) \"churn\"] ((site-stats) 'collections))"
             "  (list (len c) (<= (- minors 1) ((car c) 'minor) minors) ((car c) 'line)))") ==
        "(1 t 1)");
  // (gc): a major collection, charged to its caller's line.
  eval(rt, "(site-stats-reset)");
  eval(rt, "(collect)");
  CHECK(eval(rt,
             "(map [list (_ 'fn) (_ 'line) (_ 'minor) (_ 'major)] ((site-stats) 'collections))") ==
        "((\"collect\" 2 0 1))");
  eval(rt, "(count-sites nil)");
}

TEST_CASE("the site counters survive code moving in collections", "[sites]") {
  // Under stress every safe point collects, moving the code objects the
  // counters have recorded; the counts stay whole and exact.
  compiler::RuntimeOptions o = small_nursery();
  o.gc_stress = true;
  compiler::Runtime rt(o);
  eval(rt, kLookup);
  eval(rt,
       "(def mk (n)\n"
       "  (let acc nil\n"
       "    (repeat n\n"
       "      (= acc (cons (type n) acc)))\n"
       "    acc))");
  eval(rt, "(count-sites t)");
  eval(rt, "(site-stats-reset)");
  eval(rt, "(mk 200)");
  CHECK(eval(rt, "(site-count 'allocations \"mk\" 4 'Cons)") == "200");
  CHECK(eval(rt, "(site-count 'dispatches \"mk\" 4 'Fixnum)") == "200");
  CHECK(rt.vm().heap().verify().empty());
  eval(rt, "(count-sites nil)");
}
