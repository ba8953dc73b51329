// tests/unit/test_core.cpp — the core (vm/) alone: core_tests links
// arcana_vm and arcana_gc and nothing of io/, measure/ or compiler/
// (tests/CMakeLists.txt), so the core needing a room above it fails to
// link here. A heap and a VM made by hand, as compiler::Runtime makes them,
// with the core's builtins only: calling them, printing, the library
// interface (vm/library.h) and the instrument one (vm/instrument.h).
#include <unistd.h>

#include <bit>
#include <catch2/catch.hpp>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gc/heap.h"
#include "vm/builtins.h"
#include "vm/error.h"
#include "vm/instrument.h"
#include "vm/library.h"
#include "vm/object.h"
#include "vm/port.h"
#include "vm/print.h"
#include "vm/string.h"
#include "vm/symbol.h"
#include "vm/table.h"
#include "vm/vm.h"

using namespace vm;

namespace {

// One heap and one VM for the binary, as a Runtime has, and ended as a
// Runtime ends them: the heap's finalizers (those of the standard ports'
// descriptors) run while the VM they use still exists.
struct Core {
  std::unique_ptr<gc::Heap> heap{gc::make_heap("gen")};
  std::unique_ptr<VM> vm{std::make_unique<VM>(*heap)};
  ~Core() {
    heap->finalize_all();
    vm.reset();
  }
};

VM& core() {
  static Core c;
  return *c.vm;
}

Value call(const char* fn, std::initializer_list<Value> args) {
  VM& vm = core();
  return vm.apply(global_value(intern(vm, fn)), args);
}

std::string arc_error(const char* fn, std::initializer_list<Value> args) {
  try {
    call(fn, args);
  } catch (const ArcError& e) {
    return exception_message(e.exc);
  }
  return "";
}

}  // namespace

TEST_CASE("the core's builtins run without the compiler or any library", "[core]") {
  VM& vm = core();
  CHECK(call("+", {Value::fixnum(2), Value::fixnum(40)}) == Value::fixnum(42));
  // Past a fixnum: GMP, which the core links.
  Value big = call("*", {Value::fixnum(int64_t(1) << 40), Value::fixnum(int64_t(1) << 40)});
  CHECK(write_string(vm, big) == "1208925819614629174706176");
  Value l = call("cons", {Value::fixnum(1), call("cons", {Value::fixnum(2), NIL})});
  CHECK(write_string(vm, l) == "(1 2)");
  Value t = make_table(vm);
  table_put(vm, t, intern(vm, "a"), make_string_utf8(vm, "x\"y"));
  CHECK(write_string(vm, table_get(t, intern(vm, "a"))) == "\"x\\\"y\"");
  CHECK(write_string(vm, call("type", {t})) == "table");
  CHECK(arc_error("car", {Value::fixnum(1)}).find("car") != std::string::npos);
}

TEST_CASE("the core defines none of the libraries' builtins", "[core]") {
  VM& vm = core();
  for (const char* name : {"infile", "open-socket", "%http-read", "rand-string", "gc-stats",
                           "site-stats", "%profile-start", "system"})
    CHECK(global_value(intern(vm, name)) == UNBOUND);
  CHECK(core().instrument() == nullptr);
  CHECK(arc_error("%set-stdout", {Value::fixnum(1)}).find("%set-stdout") != std::string::npos);
}

namespace {

int g_opens = 0;
Value bi_answer(VM&, Value*, int) { return Value::fixnum(42); }
const BuiltinDef kTestDefs[] = {{"%core-test-answer", bi_answer, 0, 0, "42"}};
void open_test(VM& vm) {
  ++g_opens;
  define_builtins(vm, kTestDefs);
}

}  // namespace

TEST_CASE("a library opens once and defines its builtins", "[core]") {
  VM& vm = core();
  const Library lib{"core-test", open_test};
  CHECK_FALSE(vm.has_library("core-test"));
  vm.open(lib);
  vm.open(lib);
  CHECK(g_opens == 1);
  CHECK(vm.has_library("core-test"));
  CHECK(call("%core-test-answer", {}) == Value::fixnum(42));
}

namespace {

// Counts what the core tells it.
struct CountingInstrument final : Instrument {
  int begins = 0, ends = 0, majors = 0, allocations = 0, finishes = 0;
  void enter_site(Code*, uint32_t) override {}
  void at_frame(const Value*, const Insn*) override {}
  Code* site_code() const override { return nullptr; }
  uint32_t site_pc() const override { return 0; }
  void forget_site() override {}
  void allocation(Kind, size_t) override { ++allocations; }
  uint32_t collection_begins() override { return uint32_t(++begins); }
  void collection_ends(uint32_t token, bool major) override {
    CHECK(token == uint32_t(begins));
    ++ends;
    majors += major;
  }
  bool sample_pending() const override { return false; }
  void sample(bool) override {}
  void sample_builtin(const Builtin*, uint64_t) override {}
  void finish() override { ++finishes; }
};

}  // namespace

TEST_CASE("an attached instrument hears collections and counted allocations", "[core]") {
  VM& vm = core();
  auto owned = std::make_unique<CountingInstrument>();
  CountingInstrument* in = owned.get();
  vm.attach(std::move(owned));
  vm.collect_garbage();
  CHECK(in->begins == 1);
  CHECK(in->ends == 1);
  CHECK(in->majors == 1);
  // Allocations are charged only while counting is on.
  call("cons", {NIL, NIL});
  CHECK(in->allocations == 0);
  vm.set_counting(true);
  CHECK(vm.counting());
  call("cons", {NIL, NIL});
  vm.set_counting(false);
  CHECK(in->allocations >= 1);
  int counted = in->allocations;
  call("cons", {NIL, NIL});
  CHECK(in->allocations == counted);
  vm.attach(nullptr);
  CHECK(vm.instrument() == nullptr);
  CHECK_FALSE(vm.counting());
  // Without an instrument, counting has nothing to charge.
  CHECK_THROWS_AS(vm.set_counting(true), ArcError);
}

// The VM is the context (docs/ARCHITECTURE.md, "The rooms"): what a VM
// allocates goes into the heap it was built with, its symbols into a table
// of its own, and nothing reads a process-wide heap or table. Two heaps of
// different collectors and two VMs, alive at once, each building into its
// own, each collecting while the other lives, and the older ending first.
TEST_CASE("two VMs, each with its own heap, allocate each into its own", "[core]") {
  core();  // made first (the suite's VM), alive throughout
  std::unique_ptr<gc::Heap> heap_a(gc::make_heap("marksweep"));
  std::unique_ptr<gc::Heap> heap_b(gc::make_heap("gen"));
  auto a = std::make_unique<VM>(*heap_a);
  auto list_of = [](VM& vm, int n) {
    gc::Rooted<Value> l(vm.heap(), NIL);
    for (int i = n; i > 0; --i) l = cons(vm, Value::fixnum(i), l);
    return Value(l);
  };
  // Optional: a's roots go before a does, b's stay.
  std::optional<gc::Rooted<Value>> from_a, sym_a;
  from_a.emplace(*heap_a, list_of(*a, 3));
  auto b = std::make_unique<VM>(*heap_b);
  uint64_t a_before = heap_a->objects_allocated_now();
  uint64_t b_before = heap_b->objects_allocated_now();
  gc::Rooted<Value> from_b(*heap_b, list_of(*b, 1000));
  CHECK(heap_b->objects_allocated_now() - b_before >= 1000);
  CHECK(heap_a->objects_allocated_now() == a_before);
  b_before = heap_b->objects_allocated_now();
  *from_a = cons(*a, make_string_utf8(*a, "a's"), *from_a);
  CHECK(heap_a->objects_allocated_now() - a_before >= 2);
  CHECK(heap_b->objects_allocated_now() == b_before);
  // Each its own symbols: the same name is two symbols, each in its VM's
  // heap, and a global set in one is not set in the other.
  sym_a.emplace(*heap_a, intern(*a, "only-in-a"));
  gc::Rooted<Value> sym_b(*heap_b, intern(*b, "only-in-a"));
  CHECK(Value(*sym_a) != Value(sym_b));
  CHECK(a->S.quote != b->S.quote);
  CHECK(find_symbol(*b, "only-in-a") == Value(sym_b));
  set_global(*a, *sym_a, Value::fixnum(7));
  CHECK(global_value(sym_b) == UNBOUND);
  // The older collects while the newer lives (its table is not traced).
  a->collect_garbage();
  CHECK(heap_a->verify().empty());
  CHECK(global_value(intern(*a, "only-in-a")) == Value::fixnum(7));
  // Each VM runs its builtins on its own values, in its own heap.
  CHECK(b->apply(global_value(intern(*b, "len")), {from_b}) == Value::fixnum(1000));
  b->collect_garbage();
  CHECK(heap_b->verify().empty());
  CHECK(write_string(*b, car(from_b)) == "1");
  CHECK(write_string(*a, *from_a) == "(\"a's\" 1 2 3)");
  // What reaches its VM with none at hand finds its own, not the newest:
  // a fiber's first frame on its own stacks, a thread's, and a port's
  // wait for its descriptor (vm/port.h).
  auto fn = [&](VM& vm, const char* name) { return global_value(intern(vm, name)); };
  {
    b_before = heap_b->objects_allocated_now();
    gc::Rooted<Value> fb(*heap_a, a->apply(fn(*a, "fiber"), {fn(*a, "type")}));
    Value got = a->apply(fn(*a, "resume"), {fb, Value::fixnum(5)});
    CHECK(write_string(*a, got) == "int");
    CHECK(heap_b->objects_allocated_now() == b_before);
    gc::Rooted<Value> th(*heap_a, a->apply(fn(*a, "new-thread"), {fn(*a, "current-thread")}));
    a->apply(fn(*a, "sleep"), {Value::fixnum(0)});
    CHECK(a->apply(fn(*a, "dead"), {th}) == T);
    int fds[2];
    REQUIRE(pipe(fds) == 0);
    REQUIRE(write(fds[1], "xy", 2) == 2);
    close(fds[1]);
    std::unique_ptr<PortImpl> in(make_fd_input(*a, fds[0], "pipe-in", true));
    CHECK(in->read_byte() == 'x');
  }
  // The older ends first; the newer goes on.
  heap_a->finalize_all();
  sym_a.reset();  // (a heap's roots are a stack: the last made goes first)
  from_a.reset();
  a.reset();
  heap_a.reset();
  from_b = cons(*b, intern(*b, "after-a"), from_b);
  b->collect_garbage();
  CHECK(heap_b->verify().empty());
  CHECK(write_string(*b, car(from_b)) == "after-a");
  CHECK(global_value(intern(*b, "only-in-a")) == UNBOUND);
  heap_b->finalize_all();
}

// Flonums in the value word (vm/value.h): every double whose exponent is in
// [897, 1151], and the two zeros, has a word that gives its bits back
// exactly, and no other double has one; make_flonum gives the word when
// there is one and a heap Flonum when not, so each double has one form.
TEST_CASE("flonums in the word round-trip exactly, and only those of ordinary magnitude",
          "[core]") {
  auto fits = [](uint64_t bits) {
    uint64_t e = (bits >> 52) & 0x7ff;
    return (bits << 1) == 0 || (e >= 897 && e <= 1151);
  };
  auto check = [&](uint64_t bits) {
    double d = std::bit_cast<double>(bits);
    Value v;
    bool in_word = Value::flonum_imm(d, &v);
    REQUIRE(in_word == fits(bits));
    if (!in_word) return;
    REQUIRE(v.is_flonum_imm());
    REQUIRE(!v.is_ref());
    REQUIRE(!v.is_fixnum());
    REQUIRE(TYPE(v) == Kind::Flonum);
    REQUIRE(std::bit_cast<uint64_t>(v.as_flonum_imm()) == bits);
  };
  // The edges of the range, both signs, the smallest and largest mantissas.
  for (uint64_t sign : {uint64_t(0), uint64_t(1) << 63})
    for (uint64_t e : {0, 1, 895, 896, 897, 898, 1023, 1150, 1151, 1152, 2046, 2047})
      for (uint64_t m : {uint64_t(0), uint64_t(1), (uint64_t(1) << 52) - 1})
        check(sign | (e << 52) | m);
  // And a spread of bit patterns (a fixed generator: the same every run).
  uint64_t x = 0x9e3779b97f4a7c15ull;
  for (int i = 0; i < 200000; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    check(x);
  }
  VM& vm = core();
  CHECK(make_flonum(vm, 1.5).is_flonum_imm());
  CHECK(make_flonum(vm, -0.0).is_flonum_imm());
  CHECK(make_flonum(vm, -0.0) != make_flonum(vm, 0.0));
  CHECK(make_flonum(vm, 1e300).is_ref());
  CHECK(make_flonum(vm, 1e-310).is_ref());
  CHECK(make_flonum(vm, std::numeric_limits<double>::infinity()).is_ref());
  CHECK(write_string(vm, make_flonum(vm, 0.1)) == "0.1");
  CHECK(write_string(vm, make_flonum(vm, 1e300)) == "1e+300");
}
