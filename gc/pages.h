// gc/pages.h — the size-classed page allocator behind the non-moving spaces:
// the whole heap of `marksweep`, the old generation of `gen`.
//
// Small objects (up to kMaxSmall bytes) live in 64 KiB pages aligned to their
// size, one size class per page, sizes in steps of 8 bytes. A page threads its
// free cells on a list through the cells; a free cell's header has kind
// kFreeKind. Larger objects are allocated one by one with calloc and kept in a
// list. The space knows nothing of roots: its owner marks the live objects
// (kMarkBit in gcbits) and then calls sweep(), which finalizes and frees the
// unmarked ones and clears the marks of the rest.
#pragma once
#include <cstddef>
#include <cstdint>
#include <unordered_set>
#include <vector>

#include "gc/heap.h"

namespace gc {

class PageSpace {
 public:
  static constexpr size_t kPageSize = 64 * 1024;
  static constexpr size_t kMaxSmall = 1024;
  static constexpr uint8_t kFreeKind = 0xff;
  static constexpr uint8_t kMarkBit = 1;  // the one gcbits bit this class reads

  PageSpace() = default;
  ~PageSpace();
  PageSpace(const PageSpace&) = delete;
  PageSpace& operator=(const PageSpace&) = delete;

  // The size allocate() really takes for a request of bytes.
  static size_t round(size_t bytes) {
    bytes = (bytes + 7) & ~size_t(7);
    return bytes < 16 ? 16 : bytes;
  }

  // Zeroed memory for an object of round(bytes) bytes; the caller fills in the
  // header's kind. Small or large by size.
  GcHeader* allocate(size_t bytes);

  // Finalizes (through kinds) and frees every unmarked object, clears the
  // marks of the others, and returns the bytes that stay in use.
  size_t sweep(const KindInfo* kinds);

  // True iff w is the address of an allocated object of this space.
  bool contains(Word w) const;

  // Calls f(GcHeader*) for every allocated object.
  template <class F>
  void for_each_object(F f) const {
    for (Page* p : pages_)
      for (size_t i = 0; i < p->ncells; ++i) {
        auto* h = reinterpret_cast<GcHeader*>(p->cells() + i * p->cell_size);
        if (h->kind != kFreeKind) f(h);
      }
    for (Large* l : large_) f(l->object());
  }

  size_t bytes_in_use() const { return bytes_; }  // allocated since the sweep, plus live

 private:
  struct Page {
    size_t cell_size;
    size_t ncells;
    static constexpr size_t kHeaderBytes = 64;
    char* cells() const { return reinterpret_cast<char*>(const_cast<Page*>(this)) + kHeaderBytes; }
  };
  struct FreeCell {
    GcHeader h;
    FreeCell* next;
  };
  struct Large {
    size_t bytes;
    size_t pad;
    GcHeader* object() { return reinterpret_cast<GcHeader*>(this + 1); }
  };
  static constexpr size_t kClasses = kMaxSmall / 8 + 1;

  void refill(size_t cls, size_t bytes);
  static void* map_aligned_page();

  std::vector<Page*> pages_;
  std::unordered_set<uintptr_t> page_set_;
  std::vector<Large*> large_;
  std::unordered_set<GcHeader*> large_set_;
  FreeCell* free_[kClasses] = {};
  size_t bytes_ = 0;
};

}  // namespace gc
