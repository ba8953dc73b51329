// gc/pages.h — the size-classed page allocator behind the non-moving spaces:
// the whole heap of `marksweep`, the old generation of `gen` (PageSpace); and
// the page layout, free cell and page sweep that vcgc's own pages share with
// it (gc/vcgc.cpp).
//
// Small objects (up to kMaxSmall bytes) live in 64 KiB pages aligned to their
// size, one size class per page, sizes in steps of 8 bytes. A page hands out
// its cells in address order from a bump cursor (PageHeader::nused: the cells below
// it have been handed out at least once, the ones above were never touched);
// cells freed by a sweep are threaded on a per-class free list through the
// cells, and a free cell's header has kind kFreeKind. Allocation takes the
// free list first (the holes of partly used pages), then bumps.
//
// Larger objects are the large-object space: one block each (LargeBlock),
// kept in a list, never moved; a freed block goes back to the system (glibc
// serves blocks over its mmap threshold, 128 KiB, with their own mappings,
// and a block of 1 MiB or more is a mapping of ours).
//
// The space knows nothing of roots: its owner marks the live objects (kMarkBit
// in gcbits) and then calls sweep(), which finalizes and frees the unmarked
// ones and clears the marks of the rest. A page the sweep finds with no live
// cell is not threaded at all: it goes to a pool of empty pages that any size
// class takes its next page from. The owner trims the pool after each sweep
// (trim_pool) to what it will allocate before its next collection: pages
// kept spare their next user the page faults of fresh memory, and the rest
// go back to the system (munmap). The sweep also measures fragmentation: the free bytes in
// pages that still hold live cells, over all bytes of the space.
#pragma once
#include <cstddef>
#include <cstdint>
#include <unordered_set>
#include <vector>

#include "gc/heap.h"

namespace gc {

// ---- What every size-classed space shares ----
// PageSpace below, and vcgc's pages (gc/vcgc.cpp), which are swept by its
// collector thread while the mutator allocates and so manage their lists
// themselves, share the geometry, the page header, the free cell, the
// large-object block and the sweep of a page's cells.

constexpr size_t kPageSize = 64 * 1024;             // a page, aligned to its size
constexpr size_t kMaxSmall = 1024;                  // larger objects are large objects
constexpr size_t kSizeClasses = kMaxSmall / 8 + 1;  // class c holds cells of 8c bytes
constexpr uint8_t kFreeKind = 0xff;                 // the kind of a free cell

// size bytes of fresh (zero) memory for a space, aligned to align (a power
// of two; a page aligned to its size finds its page by masking), given back
// with munmap. Every collector's spaces (eden chunks, survivor spaces, pages)
// are cut from 2 MiB regions, aligned to 2 MiB, that the kernel is asked to
// back with transparent huge pages (madvise MADV_HUGEPAGE): the first touch
// of a region maps all of it at once. Faulting in a 1 MiB eden's 256 small
// pages one by one was a large part of a start, and one huge page costs a
// fraction of that.
//
// Where the kernel gives no huge page the region is ordinary memory. The
// price is resident memory: a region's untouched rest counts once any of it
// is touched. Thread-safe (vcgc's collector maps pages too). Throws
// std::bad_alloc. populate: the memory is all about to be written (an eden
// chunk is filled before the next collection), so it is mapped now, in one
// call, rather than on a fault each.
void* map_space(size_t size, size_t align, bool populate = false);
// The memory of [p, p + size) (whole system pages) goes back to the system,
// still mapped: it reads as zeros when next touched. The range also loses
// its huge-page advice, or khugepaged would in time fill the region it was
// cut from with a whole huge page again (it collapses a region with any of
// its pages resident), and an idle server's memory would climb back.
void drop_memory(void* p, size_t size);
// The regions made ready ahead for map_space (pages.cpp's Reserve), and the
// uncut rest of the region map_space cuts from, go back to the system: for
// an idle process (Heap::release_spare_memory).
void release_ready_regions();
size_t ready_regions();  // how many are ready now
// At least n regions ready, made on the calling thread when the Reserve's
// filler has not made them (the first call starts the filler): called when
// a collection is asked for, before its pause, so that the pause's new
// pages and eden chunk are cut from memory already touched.
void prepare_regions(size_t n);
// munmap(p, size) on the thread that makes regions ready, when it next runs
// (a core free: it runs at SCHED_IDLE): for memory a collection frees inside
// its pause.
void unmap_later(void* p, size_t size);
// std::free(p) there, for a malloc'd block a collection frees in its pause.
// What the filler has not done of either by the time prepare_regions is
// called (gen, before each pause) is done there.
void free_later(void* p);
constexpr size_t kHugePage = size_t(2) << 20;  // x86-64's transparent huge page

// A free cell, threaded on a free list through the cells themselves.
struct FreeCell {
  GcHeader h;  // kind kFreeKind
  FreeCell* next;
};

// The start of every page; its cells follow, from kHeaderBytes on. A space
// extends it with its own fields (within kHeaderBytes).
struct PageHeader {
  static constexpr size_t kHeaderBytes = 64;
  uint32_t cell_size = 0;  // 0 while the page is empty and pooled
  uint32_t ncells = 0;
  uint32_t nused = 0;  // cells handed out at least once: the bump cursor

  char* cells() const {
    return reinterpret_cast<char*>(const_cast<PageHeader*>(this)) + kHeaderBytes;
  }
  FreeCell* cell(size_t i) const { return reinterpret_cast<FreeCell*>(cells() + i * cell_size); }
  size_t size_class() const { return cell_size / 8; }
  // Cells of class c, none handed out yet.
  void format(size_t c) {
    cell_size = uint32_t(c * 8);
    ncells = uint32_t((kPageSize - kHeaderBytes) / cell_size);
    nused = 0;
  }
  // The page an address of one of its cells is in.
  static PageHeader* of(Word w) { return reinterpret_cast<PageHeader*>(w & ~Word(kPageSize - 1)); }
  // True iff w (an address in this page) is the start of a cell handed out
  // and not free.
  bool holds(Word w) const {
    uintptr_t off = w - reinterpret_cast<uintptr_t>(this);
    if (cell_size == 0 || off < kHeaderBytes) return false;
    if ((off - kHeaderBytes) % cell_size != 0) return false;
    if ((off - kHeaderBytes) / cell_size >= nused) return false;
    return header_of(w)->kind != kFreeKind;
  }
};

// A large object (over kMaxSmall bytes) is a block of its own, zeroed, the
// object right after this header: calloc'd, or, from kLargeMapped bytes on,
// a mapping of its own advised to huge pages (map_space), so that a big
// table's vector is a fault or a few rather than one every 4 KiB (a block
// under 2 MiB takes a whole one). Made and freed by these two alone.
struct LargeBlock {
  size_t bytes;   // of the object
  size_t mapped;  // the block's own mapping, or 0: calloc'd
  GcHeader* object() { return reinterpret_cast<GcHeader*>(this + 1); }
};
constexpr size_t kLargeMapped = size_t(1) << 20;
// Throws std::bad_alloc. later: freed off the thread (free_later,
// unmap_later): a pause is no place for munmap, which glibc's free of a
// large block calls too.
LargeBlock* new_large_block(size_t bytes);
void free_large_block(LargeBlock* l, bool later = false);

// One pass over the cells p has handed out, from the top down so that the
// list comes out in address order: every cell that is free, or allocated
// and not kept (keep(h) false), is threaded onto the list returned. keep is
// called for each allocated cell; it says whether the cell lives, and for
// one that does not it does what the space does with a dead object and
// makes the cell free (kind kFreeKind).
struct SweptCells {
  FreeCell* head = nullptr;  // the lowest free cell
  FreeCell* tail = nullptr;  // the highest
  size_t live = 0;
  size_t free = 0;
};
template <class Keep>
SweptCells sweep_cells(PageHeader* p, Keep keep) {
  SweptCells r;
  for (size_t i = p->nused; i-- > 0;) {
    FreeCell* cell = p->cell(i);
    if (cell->h.kind != kFreeKind && keep(&cell->h)) {
      ++r.live;
      continue;
    }
    cell->next = r.head;
    r.head = cell;
    if (!r.tail) r.tail = cell;
    ++r.free;
  }
  return r;
}

// ---- PageSpace ----

// What the space holds, as of the last sweep (and allocation since).
struct SpaceFigures {
  uint64_t page_bytes = 0;    // small-object pages mapped, pooled ones included
  uint64_t pooled_bytes = 0;  // empty pages kept for reuse
  uint64_t large_bytes = 0;   // the large-object space
  uint64_t large_objects = 0;
  uint64_t free_partial_bytes = 0;  // free cells in pages that hold live cells (last sweep)
  uint64_t released_bytes = 0;      // pages returned to the system, since start
  uint64_t evacuated_bytes = 0;     // objects moved out of sparse pages, since start
  uint64_t evacuated_pages = 0;     // pages emptied that way, since start
  // free_partial_bytes / (page bytes in use + large bytes), at the last sweep.
  double fragmentation = 0;
  // The room of the space's own lists and sets of its pages and large
  // objects (PageSpace::index_bytes; release_memory gives it back).
  uint64_t index_bytes = 0;
};

class PageSpace {
 public:
  static constexpr uint8_t kMarkBit = 1;  // the one gcbits bit this class reads

  PageSpace() = default;
  ~PageSpace();
  PageSpace(const PageSpace&) = delete;
  PageSpace& operator=(const PageSpace&) = delete;

  // Zeroed memory for an object of round_object_size(bytes) bytes; the caller fills in the
  // header's kind. Small or large by size.
  GcHeader* allocate(size_t bytes);
  // A small cell of exactly `bytes` (already rounded, at most kMaxSmall) whose
  // contents are garbage: for a copying collector that overwrites all of it.
  GcHeader* allocate_uninitialised(size_t bytes) {
    size_t c = bytes / 8;
    bytes_ += bytes;
    if (FreeCell* cell = free_[c]) {
      free_[c] = cell->next;
      // The next cell is rarely in cache, and a minor collection promoting
      // a structure takes cells one after another: fetch it now (a null
      // pointer is not touched).
      __builtin_prefetch(cell->next, 1);
      return &cell->h;
    }
    return bump(c, bytes);
  }

  // Finalizes (through kinds) and frees every unmarked object, clears the
  // marks of the others, and returns the bytes that stay in use.
  size_t sweep(const KindInfo* kinds);

  // The same sweep in steps, for an owner that sweeps a little at a time
  // (gen after its concurrent mark, between minor collections).
  // begin_sweep sweeps the large objects and sets every page that holds
  // cells apart as unswept, with the free lists emptied; sweep_some sweeps
  // unswept pages, at most max_pages, and is true once none is left
  // (finish_sweep: all of them now). Meanwhile allocation takes the cells of swept pages and fresh
  // ones, never an unswept page's (whose marked objects keep their marks
  // until their page is swept), and bytes_in_use() counts each unswept
  // page at its share of what the space held before.
  void begin_sweep(const KindInfo* kinds);
  bool sweep_some(const KindInfo* kinds, size_t max_pages);
  void finish_sweep(const KindInfo* kinds) {
    while (!sweep_some(kinds, SIZE_MAX)) {
    }
  }
  bool sweeping() const { return sweeping_; }
  size_t unswept_pages() const { return unswept_pages_; }

  // Compaction by evacuation, for an owner that can rewrite references (gen).
  // Between its mark and its sweep, the owner calls plan_evacuation: pages
  // whose marked cells fill at most max_occupancy of them, none of them an
  // object with a finalizer (those never move), are set apart: the sweep
  // frees their dead cells but threads none of them. After the sweep,
  // evacuate(move) calls move(h) for each of their objects; move copies it
  // into allocate_uninitialised memory and leaves a forwarding address the
  // owner understands. The owner then rewrites every reference (roots and
  // the objects for_each_object still visits, which skips the set-apart
  // pages), and release_evacuated() returns those pages to the pool.
  // Returns the number of pages set apart.
  size_t plan_evacuation(const KindInfo* kinds, double max_occupancy);
  template <class F>
  void evacuate(F move) {
    // By index, over the pages there are now: move allocates, which may
    // take new pages (never set apart) and grow pages_.
    for (size_t k = 0, n = pages_.size(); k < n; ++k)
      if (Page* p = pages_[k]; p->evacuate)
        for (size_t i = 0; i < p->nused; ++i) {
          GcHeader* h = &p->cell(i)->h;
          if (h->kind != kFreeKind) move(h);
        }
  }
  void release_evacuated();

  // True iff w is the address of an allocated object of this space.
  bool contains(Word w) const;

  // Calls f(GcHeader*) for every allocated object.
  template <class F>
  void for_each_object(F f) const {
    for (Page* p : pages_)
      for (size_t i = 0; i < (p->evacuate ? 0 : p->nused); ++i) {
        GcHeader* h = &p->cell(i)->h;
        if (h->kind != kFreeKind) f(h);
      }
    for (LargeBlock* l : large_) f(l->object());
  }

  size_t bytes_in_use() const {
    return bytes_ + unswept_bytes_;
  }  // allocated since the sweep, plus live
  // Unmaps the pooled pages beyond keep_bytes, the longest pooled first.
  // later: the pages are unmapped off this thread (unmap_later), for a
  // collection's pause.
  void trim_pool(size_t keep_bytes, bool later = false);
  // Gives back the memory pages of the bump pages' never-used tails (whole
  // system pages only); they read as zeros when next touched.
  void release_tails();
  // Gives back the room its lists and sets of pages and large objects keep
  // from their largest (an idle process's: a burst that grew the
  // generation grew them, and they never shrink by themselves).
  void release_memory();
  // That room, in bytes: the lists' capacities and the sets' buckets (their
  // nodes, one per element, are the elements' own).
  uint64_t index_bytes() const;
  const SpaceFigures& figures() const { return figures_; }

 private:
  struct Page : PageHeader {
    bool evacuate = false;  // set apart by plan_evacuation
    bool unswept = false;   // begin_sweep's, until sweep_some reaches it
  };
  static_assert(sizeof(Page) <= PageHeader::kHeaderBytes);

  // The next never-used cell of the class's bump page; a fresh page when
  // that one is full. Inline: a minor collection promotes through it.
  GcHeader* bump(size_t cls, size_t bytes) {
    Page* p = bump_page_[cls];
    if (!p || p->nused == p->ncells) [[unlikely]]
      p = bump_page_[cls] = take_page(bytes);
    return &p->cell(p->nused++)->h;
  }
  Page* take_page(size_t bytes);
  size_t sweep_page(Page* p, const KindInfo* kinds);
  // later: the blocks freed off the thread (free_large_block), for
  // begin_sweep's owner, which sweeps them in a pause (gen).
  void sweep_large(const KindInfo* kinds, bool later);
  void note_fragmentation();

  std::vector<Page*> pages_;  // every mapped page, pooled ones included
  std::unordered_set<uintptr_t> page_set_;
  std::vector<Page*> pool_;  // empty pages
  std::vector<LargeBlock*> large_;
  std::unordered_set<GcHeader*> large_set_;
  FreeCell* free_[kSizeClasses] = {};
  Page* bump_page_[kSizeClasses] = {};  // the page each class bumps into
  size_t bytes_ = 0;
  size_t evacuating_bytes_ = 0;  // live bytes in the pages set apart
  // The sweep in steps: whether one is under way, the next page it looks
  // at, the unswept pages left, and their share of bytes_in_use.
  bool sweeping_ = false;
  size_t sweep_next_ = 0;
  size_t unswept_pages_ = 0;
  size_t unswept_bytes_ = 0;
  SpaceFigures figures_;
};

}  // namespace gc
