// tests/unit/test_kinds.h — object kinds for driving a collector directly
// through gc/heap.h, without the VM (test_heap.cpp, test_gc.cpp).
#pragma once
#include <catch2/catch.hpp>
#include <memory>

#include "gc/heap.h"

namespace test_kinds {

using gc::GcHeader;
using gc::Word;

// A header and two reference slots.
struct Pair {
  GcHeader h;
  Word a, b;
};
constexpr uint8_t kPair = 0;
// n reference slots after a length word: a large object when n is big.
struct Array {
  GcHeader h;
  uint64_t n;
  Word items[];
};
constexpr uint8_t kArray = 1;

// A heap of the named collector with kPair and kArray registered.
inline std::unique_ptr<gc::Heap> make_test_heap(const char* name = "marksweep") {
  std::unique_ptr<gc::Heap> h(gc::make_heap(name));
  REQUIRE(h);
  h->register_kind(kPair, gc::KindInfo{"pair", [](const GcHeader*) { return sizeof(Pair); },
                                       [](GcHeader* o, gc::Visitor& v) {
                                         auto* p = reinterpret_cast<Pair*>(o);
                                         v.visit_range(&p->a, &p->b + 1);
                                       },
                                       nullptr});
  h->register_kind(kArray, gc::KindInfo{"array",
                                        [](const GcHeader* o) {
                                          return sizeof(Array) +
                                                 reinterpret_cast<const Array*>(o)->n *
                                                     sizeof(Word);
                                        },
                                        [](GcHeader* o, gc::Visitor& v) {
                                          auto* a = reinterpret_cast<Array*>(o);
                                          v.visit_range(a->items, a->items + a->n);
                                        },
                                        nullptr});
  return h;
}

inline Pair* pair(gc::Heap& h, Word a, Word b) {
  auto* p = reinterpret_cast<Pair*>(h.allocate(sizeof(Pair), kPair));
  p->a = a;
  p->b = b;
  return p;
}
inline Word w(Pair* p) { return gc::word_of(&p->h); }

}  // namespace test_kinds
