// tests/unit/test_core.cpp — the core (vm/) alone: core_tests links
// arcana_vm and arcana_gc and nothing of io/, measure/ or compiler/
// (tests/CMakeLists.txt), so the core needing a room above it fails to
// link here. A heap and a VM made by hand, as compiler::Runtime makes them,
// with the core's builtins only: calling them, printing, the library
// interface (vm/library.h) and the instrument one (vm/instrument.h).
#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "gc/heap.h"
#include "vm/builtins.h"
#include "vm/error.h"
#include "vm/instrument.h"
#include "vm/library.h"
#include "vm/object.h"
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
  std::unique_ptr<VM> vm;
  Core() {
    set_heap(heap.get());
    vm = std::make_unique<VM>();
  }
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
  return vm.apply(global_value(intern(fn)), args);
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
  core();
  CHECK(call("+", {Value::fixnum(2), Value::fixnum(40)}) == Value::fixnum(42));
  // Past a fixnum: GMP, which the core links.
  Value big = call("*", {Value::fixnum(int64_t(1) << 40), Value::fixnum(int64_t(1) << 40)});
  CHECK(write_string(big) == "1208925819614629174706176");
  Value l = call("cons", {Value::fixnum(1), call("cons", {Value::fixnum(2), NIL})});
  CHECK(write_string(l) == "(1 2)");
  Value t = make_table();
  table_put(t, intern("a"), make_string_utf8("x\"y"));
  CHECK(write_string(table_get(t, intern("a"))) == "\"x\\\"y\"");
  CHECK(write_string(call("type", {t})) == "table");
  CHECK(arc_error("car", {Value::fixnum(1)}).find("car") != std::string::npos);
}

TEST_CASE("the core defines none of the libraries' builtins", "[core]") {
  core();
  for (const char* name : {"infile", "open-socket", "%http-read", "rand-string", "gc-stats",
                           "site-stats", "%profile-start", "system"})
    CHECK(global_value(intern(name)) == UNBOUND);
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
