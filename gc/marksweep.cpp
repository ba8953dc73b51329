// gc/marksweep.cpp — the precise, stop-the-world mark-sweep collector.
//
// Layout. Small objects (up to kMaxSmall bytes) live in 64 KiB pages, one size
// class per page, sizes in steps of 8 bytes. A page keeps its free cells on a
// list threaded through the cells; a free cell's header has kind kFreeKind.
// Larger objects are allocated one by one with malloc and kept in a list.
//
// Collection. Mark from the roots with an explicit stack (no recursion, so
// deep lists cannot overflow the machine stack), then sweep every page and
// the large list: unmarked objects are finalized and freed, marks are cleared.
// The invariant the verifier checks afterwards: every reference held by a
// live object or a root points at the start of an allocated object.
//
// Pacing. A collection is wanted once the bytes allocated since the last one
// exceed max(kMinTrigger, live bytes after the last one).
#include <sys/mman.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <unordered_set>

#include "gc/heap.h"

namespace gc {
namespace {

constexpr size_t kPageSize = 64 * 1024;
constexpr size_t kMaxSmall = 1024;
constexpr size_t kClasses = kMaxSmall / 8 + 1;
constexpr uint8_t kFreeKind = 0xff;
constexpr uint8_t kMarkBit = 1;
constexpr uint64_t kMinTrigger = 16u << 20;

struct Page {
  size_t cell_size;
  size_t ncells;
  size_t used;
  char* cells() { return reinterpret_cast<char*>(this) + kHeaderBytes; }
  static constexpr size_t kHeaderBytes = 64;
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

class MarkSweepHeap final : public Heap {
 public:
  ~MarkSweepHeap() override {
    for (Page* p : pages_) munmap(p, kPageSize);
    for (Large* l : large_) std::free(l);
  }

  const char* name() const override { return "marksweep"; }

  GcHeader* allocate(size_t bytes, uint8_t kind) override {
    bytes = (bytes + 7) & ~size_t(7);
    if (bytes < sizeof(FreeCell)) bytes = sizeof(FreeCell);
    GcHeader* h;
    if (bytes <= kMaxSmall) {
      size_t c = bytes / 8;
      if (!free_[c]) refill(c, bytes);
      FreeCell* cell = free_[c];
      free_[c] = cell->next;
      h = &cell->h;
      std::memset(static_cast<void*>(h), 0, bytes);
    } else {
      Large* l = static_cast<Large*>(std::calloc(1, sizeof(Large) + bytes));
      if (!l) throw std::bad_alloc();
      l->bytes = bytes;
      large_.push_back(l);
      large_set_.insert(l->object());
      h = l->object();
    }
    h->kind = kind;
    stats_.bytes_allocated += bytes;
    stats_.objects_allocated++;
    stats_.allocations_by_kind[kind]++;
    since_ += bytes;
    heap_bytes_ += bytes;
    if (heap_bytes_ > stats_.peak_heap_bytes) stats_.peak_heap_bytes = heap_bytes_;
    if (since_ > trigger_) wanted_ = true;
    return h;
  }

  void collect() override {
    auto t0 = std::chrono::steady_clock::now();
    mark();
    sweep();
    wanted_ = false;
    since_ = 0;
    trigger_ = std::max<uint64_t>(kMinTrigger, heap_bytes_);
    double ms = std::chrono::duration<double, std::milli>(
                    std::chrono::steady_clock::now() - t0).count();
    stats_.collections++;
    stats_.gc_ms += ms;
    stats_.max_pause_ms = std::max(stats_.max_pause_ms, ms);
    stats_.pauses_ms.push_back(ms);
    stats_.bytes_live = heap_bytes_;
  }

  std::vector<std::string> verify() override;

 private:
  class Marker final : public Visitor {
   public:
    explicit Marker(MarkSweepHeap& h) : heap_(h) {}
    void visit(Word* slot) override {
      GcHeader* h = header_of(*slot);
      if (h->gcbits & kMarkBit) return;
      h->gcbits |= kMarkBit;
      heap_.stack_.push_back(h);
    }
   private:
    MarkSweepHeap& heap_;
  };

  void refill(size_t c, size_t bytes) {
    Page* p = static_cast<Page*>(map_aligned_page());
    p->cell_size = bytes;
    p->ncells = (kPageSize - Page::kHeaderBytes) / bytes;
    pages_.push_back(p);
    page_set_.insert(reinterpret_cast<uintptr_t>(p));
    for (size_t i = p->ncells; i-- > 0;) {
      FreeCell* cell = reinterpret_cast<FreeCell*>(p->cells() + i * bytes);
      cell->h.kind = kFreeKind;
      cell->next = free_[c];
      free_[c] = cell;
    }
  }

  // A page aligned to its size, so an address finds its page by masking.
  static void* map_aligned_page() {
    void* mem = mmap(nullptr, 2 * kPageSize, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED) throw std::bad_alloc();
    uintptr_t start = reinterpret_cast<uintptr_t>(mem);
    uintptr_t aligned = (start + kPageSize - 1) & ~uintptr_t(kPageSize - 1);
    if (aligned > start) munmap(mem, aligned - start);
    uintptr_t end = start + 2 * kPageSize;
    if (end > aligned + kPageSize)
      munmap(reinterpret_cast<void*>(aligned + kPageSize), end - aligned - kPageSize);
    return reinterpret_cast<void*>(aligned);
  }

  void mark() {
    Marker m(*this);
    trace_all_roots(m);
    while (!stack_.empty()) {
      GcHeader* h = stack_.back();
      stack_.pop_back();
      if (auto tr = kinds_[h->kind].trace) tr(h, m);
    }
  }

  void sweep() {
    for (size_t c = 0; c < kClasses; ++c) free_[c] = nullptr;
    heap_bytes_ = 0;
    for (Page* p : pages_) {
      size_t c = p->cell_size / 8;
      for (size_t i = p->ncells; i-- > 0;) {
        FreeCell* cell = reinterpret_cast<FreeCell*>(p->cells() + i * p->cell_size);
        GcHeader* h = &cell->h;
        if (h->kind != kFreeKind) {
          if (h->gcbits & kMarkBit) {
            h->gcbits &= ~kMarkBit;
            heap_bytes_ += p->cell_size;
            continue;
          }
          if (auto fin = kinds_[h->kind].finalize) fin(h);
          h->kind = kFreeKind;
        }
        cell->next = free_[c];
        free_[c] = cell;
      }
    }
    size_t keep = 0;
    for (Large* l : large_) {
      GcHeader* h = l->object();
      if (h->gcbits & kMarkBit) {
        h->gcbits &= ~kMarkBit;
        heap_bytes_ += l->bytes;
        large_[keep++] = l;
      } else {
        if (auto fin = kinds_[h->kind].finalize) fin(h);
        large_set_.erase(h);
        std::free(l);
      }
    }
    large_.resize(keep);
  }

  // True iff w is the address of an allocated object of this heap.
  bool valid_object(Word w) const {
    GcHeader* h = header_of(w);
    if (large_set_.count(h)) return true;
    uintptr_t base = w & ~(uintptr_t)(kPageSize - 1);
    if (!page_set_.count(base)) return false;
    const Page* p = reinterpret_cast<const Page*>(base);
    uintptr_t off = w - base;
    if (off < Page::kHeaderBytes) return false;
    if ((off - Page::kHeaderBytes) % p->cell_size != 0) return false;
    if ((off - Page::kHeaderBytes) / p->cell_size >= p->ncells) return false;
    return h->kind != kFreeKind;
  }

  friend class Marker;
  std::vector<Page*> pages_;
  std::unordered_set<uintptr_t> page_set_;
  std::vector<Large*> large_;
  std::unordered_set<GcHeader*> large_set_;
  FreeCell* free_[kClasses] = {};
  std::vector<GcHeader*> stack_;
  uint64_t since_ = 0;
  uint64_t heap_bytes_ = 0;
  uint64_t trigger_ = kMinTrigger;
};

// Walks everything reachable (as mark does, with its own visited set so no
// header bits change) and checks each reference.
std::vector<std::string> MarkSweepHeap::verify() {
  struct Checker final : Visitor {
    MarkSweepHeap& heap;
    std::unordered_set<GcHeader*> seen;
    std::vector<GcHeader*> todo;
    std::vector<std::string> problems;
    const char* where = "root";
    explicit Checker(MarkSweepHeap& h) : heap(h) {}
    void visit(Word* slot) override {
      if (!heap.valid_object(*slot)) {
        if (problems.size() < 20)
          problems.push_back(std::string("dangling reference from ") + where);
        return;
      }
      GcHeader* h = header_of(*slot);
      if (h->kind >= kMaxKinds || !heap.kinds_[h->kind].name) {
        problems.push_back("object of unknown kind");
        return;
      }
      if (h->gcbits & kMarkBit) problems.push_back("mark bit left set");
      if (seen.insert(h).second) todo.push_back(h);
    }
  } c(*this);
  trace_all_roots(c);
  while (!c.todo.empty()) {
    GcHeader* h = c.todo.back();
    c.todo.pop_back();
    c.where = kinds_[h->kind].name;
    if (auto tr = kinds_[h->kind].trace) tr(h, c);
  }
  return c.problems;
}

}  // namespace

Heap* make_marksweep_heap() { return new MarkSweepHeap(); }

}  // namespace gc
