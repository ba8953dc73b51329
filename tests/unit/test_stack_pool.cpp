// tests/unit/test_stack_pool.cpp — the fiber stack pool (vm/stack_pool.h)
// and the context switch (vm/context.h), driven directly, without the VM.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "vm/context.h"
#include "vm/stack_pool.h"

namespace {

using vm::StackPool;
using vm::StackPoolConfig;
using vm::StackRelease;
using vm::StackSlot;
using vm::Transfer;

std::vector<StackSlot*> acquire_n(StackPool& pool, size_t n) {
  std::vector<StackSlot*> v;
  for (size_t i = 0; i < n; ++i) v.push_back(pool.acquire());
  return v;
}

// Writes every page of a slot, as a fiber that used both stacks fully would.
void touch_all(const StackSlot* s) {
  std::memset(s->machine_bottom(), 0xab, size_t((std::byte*)s->vm_end() - s->machine_bottom()));
}

// Writes what a small suspended fiber touches: a little of each stack.
void touch_boundary(const StackSlot* s) {
  s->vm_begin()[0] = vm::Value::fixnum(1);
  s->machine_top()[-1] = std::byte{1};
}

size_t process_map_count() {
  std::ifstream maps("/proc/self/maps");
  size_t n = 0;
  for (std::string l; std::getline(maps, l);) ++n;
  return n;
}

// Under ASan (make sanitize; context.h tells): its allocator maps a region
// per size class, and its redzones make the recursion's frames larger.
#ifdef ARCANA_ASAN_FIBERS
constexpr size_t kMallocMaps = 16;
constexpr uintptr_t kMaxFrame = 2048;
#else
constexpr size_t kMallocMaps = 4;
constexpr uintptr_t kMaxFrame = 1024;
#endif

StackPoolConfig with_release(StackRelease r) {
  StackPoolConfig c;
  c.release = r;
  return c;
}

}  // namespace

TEST_CASE("the pool grows 8, 8, 16, 32 slots per allocation up to the cap", "[fiber]") {
  StackPool pool;
  auto slots = acquire_n(pool, 8);
  CHECK(pool.stats().slots == 8);
  CHECK(pool.stats().allocations == 1);
  slots.push_back(pool.acquire());
  CHECK(pool.stats().slots == 16);
  slots.push_back(pool.acquire());  // the second allocation still has room
  CHECK(pool.stats().allocations == 2);
  auto more = acquire_n(pool, 7);  // 17 in use: a third allocation of 16
  CHECK(pool.stats().slots == 32);
  more = acquire_n(pool, 16);  // 33: a fourth of 32
  auto st = pool.stats();
  CHECK(st.slots == 64);
  CHECK(st.allocations == 4);
  CHECK(st.in_use == 33);
  CHECK(st.vacant == 31);

  StackPoolConfig capped;
  capped.max_slots_per_allocation = 16;
  StackPool small(capped);
  auto v = acquire_n(small, 8 + 8 + 16 + 1);
  CHECK(small.stats().slots == 8 + 8 + 16 + 16);
}

TEST_CASE("a slot's stacks meet inside a page and stay in the slot", "[fiber]") {
  StackPool pool;
  StackSlot* a = pool.acquire();
  StackSlot* b = pool.acquire();
  const auto& c = pool.config();
  CHECK(a->machine_size() >= c.machine_stack);
  CHECK(size_t(a->vm_end() - a->vm_begin()) * sizeof(vm::Value) >= c.vm_stack);
  CHECK((std::byte*)a->vm_begin() == a->machine_top());
  CHECK(uintptr_t(a->machine_top()) % 4096 == vm::kDefaultBoundaryOffset);
  CHECK(a->low_water() == uintptr_t(a->machine_bottom()) + c.machine_reserve);
  CHECK((std::byte*)a->vm_end() <= b->machine_bottom());
  touch_all(a);  // every byte of the slot is mapped and writable
  touch_all(b);
}

TEST_CASE("vacant slots are reused, the last released first", "[fiber]") {
  StackPool pool;
  auto slots = acquire_n(pool, 5);
  pool.release(slots[3]);
  pool.release(slots[1]);
  CHECK(pool.stats().vacant == 8 - 5 + 2);
  CHECK(pool.acquire() == slots[1]);
  CHECK(pool.acquire() == slots[3]);
  CHECK(pool.stats().slots == 8);
  CHECK(pool.stats().allocations == 1);
}

TEST_CASE("the keep policy leaves released slots resident", "[fiber]") {
  StackPool pool(with_release(StackRelease::keep));
  auto slots = acquire_n(pool, 8);
  for (auto* s : slots) touch_all(s);
  size_t before = pool.stats().resident_bytes;
  CHECK(before >= 8 * pool.geometry().slot_bytes);
  for (auto* s : slots) pool.release(s);
  CHECK(pool.stats().resident_bytes == before);
}

TEST_CASE("trim gives back the pages of vacant slots but the most recent", "[fiber]") {
  StackPool pool(with_release(StackRelease::keep));
  auto slots = acquire_n(pool, 8);
  for (auto* s : slots) touch_all(s);
  size_t slot_bytes = pool.geometry().slot_bytes;
  for (size_t i = 0; i < 6; ++i) pool.release(slots[i]);
  CHECK(pool.trim(2) == 4);  // six vacant, the two released last spared
  // Two in use and two spared stay resident (MADV_DONTNEED frees at once).
  CHECK(pool.stats().resident_bytes <= 4 * slot_bytes + 64 * 1024);
  CHECK(pool.stats().resident_bytes >= 4 * slot_bytes);
  CHECK(pool.trim(2) == 0);           // given back already
  StackSlot* again = pool.acquire();  // the last released: not trimmed
  CHECK(again == slots[5]);
  for (size_t i = 0; i < 4; ++i) touch_all(pool.acquire());  // trimmed ones are usable
  CHECK(pool.trim(0) == 0);  // the one still vacant was given back already
}

TEST_CASE("the madvise policy drops the pages of released slots", "[fiber]") {
  StackPoolConfig c = with_release(StackRelease::madvise);
  c.warm_slots = 0;
  StackPool pool(c);
  auto slots = acquire_n(pool, 8);
  for (auto* s : slots) touch_all(s);
  size_t slot_bytes = pool.geometry().slot_bytes;
  CHECK(pool.stats().resident_bytes >= 8 * slot_bytes);
  for (size_t i = 0; i < 6; ++i) pool.release(slots[i]);
  auto st = pool.stats();
  // The kernel marks pages lazily free in per-CPU batches, so a few may
  // still count as resident right after the madvise.
  CHECK(st.resident_bytes <= 2 * slot_bytes + 64 * 1024);
  CHECK(st.allocations == 1);  // the mapping stays; only its pages go
  StackSlot* again = pool.acquire();
  touch_all(again);  // a freed slot is usable again
  CHECK(pool.stats().resident_bytes >= 3 * slot_bytes);
}

TEST_CASE("the madvise policy spares the most recently released slots", "[fiber]") {
  StackPoolConfig c = with_release(StackRelease::madvise);
  c.warm_slots = 2;
  StackPool pool(c);
  auto slots = acquire_n(pool, 8);
  for (auto* s : slots) touch_all(s);
  size_t slot_bytes = pool.geometry().slot_bytes;
  for (size_t i = 0; i < 6; ++i) pool.release(slots[i]);  // 4 advised, 2 warm
  size_t resident = pool.stats().resident_bytes;
  CHECK(resident >= 4 * slot_bytes);
  CHECK(resident <= 4 * slot_bytes + 64 * 1024);
  CHECK(pool.acquire() == slots[5]);  // the warm ones come back first
  CHECK(pool.acquire() == slots[4]);
  CHECK(pool.acquire() == slots[3]);
  pool.release(slots[5]);  // the window refills without advising
  pool.release(slots[4]);
  CHECK(pool.stats().resident_bytes >= resident);
  pool.release(slots[6]);  // slots[5] falls out of the window
  CHECK(pool.stats().resident_bytes <= resident - slot_bytes + 64 * 1024);
}

TEST_CASE("the munmap policy unmaps an allocation once all its slots are vacant", "[fiber]") {
  StackPoolConfig c = with_release(StackRelease::munmap);
  c.warm_slots = 0;
  StackPool pool(c);
  auto first = acquire_n(pool, 8);
  auto second = acquire_n(pool, 8);
  auto st = pool.stats();
  CHECK(st.allocations == 2);
  CHECK(st.mappings == 4);  // each allocation: its guard page and its slots
  for (size_t i = 0; i < 7; ++i) pool.release(second[i]);
  CHECK(pool.stats().allocations == 2);
  pool.release(second[7]);
  st = pool.stats();
  CHECK(st.allocations == 1);
  CHECK(st.mappings == 2);
  CHECK(st.slots == 8);
  CHECK(st.vacant == 0);
  for (auto* s : first) pool.release(s);
  st = pool.stats();
  CHECK(st.mappings == 0);
  CHECK(st.reserved_bytes == 0);
  touch_all(pool.acquire());  // and the pool maps again when asked
}

TEST_CASE("the munmap policy waits for slots to leave the warm window", "[fiber]") {
  StackPool pool(with_release(StackRelease::munmap));  // 8 warm slots
  auto first = acquire_n(pool, 8);
  auto second = acquire_n(pool, 8);
  for (auto* s : second) pool.release(s);
  CHECK(pool.stats().allocations == 2);  // all vacant, but warm
  CHECK(pool.acquire() == second[7]);    // and reused without a new mapping
  pool.release(second[7]);
  for (auto* s : first) pool.release(s);  // pushes the second's slots out
  auto st = pool.stats();
  CHECK(st.allocations == 1);
  CHECK(st.slots == 8);
  CHECK(st.vacant == 8);
}

TEST_CASE("100,000 slots live at once within the map-count limit", "[fiber]") {
  StackPool pool;
  size_t maps_before = process_map_count();
  auto slots = acquire_n(pool, 100000);
  for (auto* s : slots) touch_boundary(s);
  auto st = pool.stats();
  CHECK(st.in_use == 100000);
  CHECK(st.mappings <= 2 * st.allocations);
  CHECK(st.mappings < 300);
  CHECK(process_map_count() - maps_before <= st.mappings + kMallocMaps);  // + malloc's own
  CHECK(process_map_count() < 65530);
  // One shared page per small fiber, however its stacks are laid out.
  CHECK(st.resident_bytes / 100000 <= 4096 + 64);
}

namespace {

using Make = vm::Context (*)(void*, size_t, vm::ContextEntry);
using Jump = Transfer (*)(vm::Context, void*);

// Doubles what it is given, forever.
template <Jump jump>
void doubler(Transfer t) {
  for (;;) t = jump(t.from, (void*)(2 * intptr_t(t.data)));
}

template <Make make, Jump jump>
void check_ping_pong() {
  StackPool pool;
  StackSlot* s = pool.acquire();
  vm::Context c = make(s->machine_top(), s->machine_size(), doubler<jump>);
  for (intptr_t i = 1; i <= 1000; ++i) {
    Transfer t = jump(c, (void*)i);
    REQUIRE(intptr_t(t.data) == 2 * i);
    c = t.from;
  }
}

// Keeps an array on its own stack, derived from its id, and hands back the
// array's sum plus the round, once a round.
void summer(Transfer t) {
  intptr_t id = intptr_t(t.data);
  volatile intptr_t local[64];
  for (int i = 0; i < 64; ++i) local[i] = id * 64 + i;
  for (intptr_t round = 0;; ++round) {
    intptr_t sum = 0;
    for (int i = 0; i < 64; ++i) sum += local[i];
    t = vm::switch_context(t.from, (void*)(sum + round));
  }
}

intptr_t expected_sum(intptr_t id) { return 64 * id * 64 + 63 * 64 / 2; }

struct Deep {
  uintptr_t low_water;
  uintptr_t min_sp = UINTPTR_MAX;
  int depth = 0;
};

// Recurses with 512-byte frames until it reaches the low water, checking
// on entry as the VM's deep C++ paths will. Not inlined into itself, which
// an optimised build would do, making frames bigger than kMaxFrame.
__attribute__((noinline)) int recurse(Deep& d, int depth) {
  volatile char pad[512];
  pad[0] = char(depth);
  uintptr_t sp = vm::machine_sp();
  d.min_sp = std::min(d.min_sp, sp);
  if (sp < d.low_water) return d.depth = depth, 0;
  return recurse(d, depth + 1) + pad[0];  // not a tail call
}

void deep_entry(Transfer t) {
  recurse(*static_cast<Deep*>(t.data), 0);
  vm::switch_context(t.from, nullptr);  // never resumed
}

}  // namespace

TEST_CASE("a context switch ping-pongs values both ways", "[fiber]") {
  // One of each: a SECTION per implementation under an #ifdef confuses
  // clang-format's reading of the braces.
  check_ping_pong<vm::make_context, vm::switch_context>();
  check_ping_pong<vm::fctx::make, vm::fctx::jump>();
#ifdef ARCANA_HAVE_SWAP64
  check_ping_pong<vm::swap64::make, vm::swap64::jump>();
#endif
}

TEST_CASE("many contexts alive at once keep their own stack data", "[fiber]") {
  StackPool pool;
  constexpr intptr_t n = 1000;
  std::vector<vm::Context> fibers;
  std::vector<StackSlot*> slots = acquire_n(pool, n);
  for (intptr_t id = 0; id < n; ++id) {
    Transfer t = vm::switch_context(vm::make_context(*slots[id], summer), (void*)id);
    REQUIRE(intptr_t(t.data) == expected_sum(id));
    fibers.push_back(t.from);
  }
  for (intptr_t round = 1; round <= 5; ++round) {
    for (intptr_t id = n; id-- > 0;) {
      Transfer t = vm::switch_context(fibers[id], nullptr);
      REQUIRE(intptr_t(t.data) == expected_sum(id) + round);
      fibers[id] = t.from;
    }
  }
}

TEST_CASE("a deep C++ recursion on a slot's machine stack stays within it", "[fiber]") {
  StackPool pool;
  StackSlot* below = pool.acquire();
  StackSlot* s = pool.acquire();
  auto* neighbour = (std::byte*)below->vm_end() - 4096;  // just under s's machine stack
  std::memset(neighbour, 0x5a, 4096);
  Deep d{s->low_water()};
  vm::switch_context(vm::make_context(*s, deep_entry), &d);
  CHECK(d.min_sp >= uintptr_t(s->machine_bottom()));
  CHECK(d.min_sp < s->low_water());
  CHECK(d.min_sp > s->low_water() - kMaxFrame);  // stopped at the first check below
  // It used the room above the low water: frames of at most kMaxFrame.
  CHECK(uintptr_t(d.depth) > (uintptr_t(s->machine_top()) - s->low_water()) / kMaxFrame);
  for (size_t i = 0; i < 4096; ++i) REQUIRE(neighbour[i] == std::byte{0x5a});
}

TEST_CASE("the OS thread's stack has a low water below the running frame", "[fiber]") {
  uintptr_t lw = vm::thread_stack_low_water(32 << 10);
  CHECK(lw != 0);
  CHECK(vm::machine_sp() > lw);
  CHECK(vm::machine_sp() - lw < (size_t(64) << 20));
}

TEST_CASE("release policies parse from their names", "[fiber]") {
  StackRelease r = StackRelease::keep;
  CHECK(vm::parse_stack_release("munmap", r));
  CHECK(r == StackRelease::munmap);
  CHECK(vm::parse_stack_release("madvise", r));
  CHECK(r == StackRelease::madvise);
  CHECK_FALSE(vm::parse_stack_release("never", r));
  CHECK(std::string(vm::stack_release_name(StackRelease::keep)) == "keep");
}
