// gc/gen.h — what only the generational collector (`gen`, gc/gen.cpp) can
// tell: figures about its spaces beyond GcStats, for tests and tools. (Its
// settings, the nursery size and the promotion age, are Heap's virtual
// calls, which the other collectors ignore.)
#pragma once
#include <cstddef>
#include <cstdint>

#include "gc/heap.h"
#include "gc/pages.h"

namespace gc {

// The smallest eden chunk set_nursery_size makes (a smaller request is
// raised to it); --nursery refuses less.
inline constexpr size_t kMinNursery = size_t(64) << 10;

struct GenFigures {
  unsigned promote_age = 0;
  uint64_t nursery_bytes = 0;            // one eden chunk
  uint64_t survivor_bytes = 0;           // each of the two survivor spaces
  uint64_t survivor_used_bytes = 0;      // young objects that survived a minor collection
  uint64_t old_bytes = 0;                // the old generation's bytes in use (small, large, blocks)
  uint64_t block_bytes = 0;              // of those, the live bytes in blocks (promoted in place)
  uint64_t blocks = 0;                   // eden chunks promoted in place and still holding one
  uint64_t promoted_in_place_bytes = 0;  // since start
  uint64_t survivor_overflow_bytes = 0;  // promoted early: the survivor space was full
  uint64_t compactions = 0;              // major collections that evacuated sparse pages
  bool marking = false;                  // gen: a concurrent mark is under way
  bool sweeping = false;                 // gen: pages are left to sweep in steps
  uint64_t kept_chunk_bytes = 0;         // spare eden chunks kept for the growth, as pages are
  SpaceFigures old;                      // pages, large objects, fragmentation
};
// False (out untouched) unless h is a gen heap.
bool gen_figures(const Heap& h, GenFigures& out);

}  // namespace gc
