// gc/gen.cpp — the generational, stop-the-world collector (`gen`).
//
// Two generations. New objects are bump-allocated in the nursery, a list of
// chunks (nursery_size_ bytes each, 4 MiB by default). Survivors of a minor
// collection are copied straight into the old generation, a PageSpace
// (gc/pages.h, the allocator `marksweep` uses), which a major collection
// marks and sweeps in place. Objects too big for the page allocator, and
// objects with a finalizer, are allocated in the old generation directly.
//
// Rule 1 (allocate() never collects). When the nursery chunk is full,
// allocate() takes a fresh chunk and sets wanted_; the chunks taken since the
// last collection all belong to the nursery and are all evacuated at the next
// safe point (collect_minor). Builtins can therefore allocate any amount
// between two safe points.
//
// Header bits (GcHeader::gcbits; kMarkBit is the PageSpace's):
//   kYoung       the object is in the nursery;
//   kForwarded   a nursery object already copied: its first payload word holds
//                the address of the copy (every kind has a payload word: the
//                allocator rounds objects up to 16 bytes);
//   kRemembered  an old object in remembered_ (so it is entered once).
// The identity hash lives in the header and is copied with it, so it survives
// the move.
//
// Minor collection (Cheney's algorithm, with the promoted objects as the scan
// queue): copy every young object referenced from a root or from a
// remembered old object, then trace the copies until none is left; every
// reference to a nursery object is rewritten to its copy. All survivors are
// promoted at once, so afterwards the nursery is empty, no old object refers
// to a young one, and the remembered set is cleared.
//
// The invariant between collections: every old object that holds a
// reference to a young object is in the remembered set. The write barrier
// (Heap::write -> barrier_slow) keeps it for stores into old objects. Stores
// that initialise a new object skip the barrier (vm/object.h), which is
// harmless for a young object but not for one allocated directly in the old
// generation: those are remembered when they are allocated.
//
// Major collection: a minor one first (so every live object is old), then
// mark from the roots and sweep the old generation. It runs when the old
// generation has grown past kGrowth times its size after the last major one
// (at least kMinMajorTrigger), on collect() (the `(gc)` builtin), and under
// stress every kStressMajorEvery safe points.
//
// Stress mode also poisons the nursery after each minor collection and
// rotates between two chunks, so a reference a collection missed reads
// 0xdb bytes (an unknown kind) instead of a plausible new object.
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <deque>
#include <new>
#include <unordered_set>

#include "gc/heap.h"
#include "gc/pages.h"

namespace gc {
namespace {

constexpr uint8_t kMarkBit = PageSpace::kMarkBit;
constexpr uint8_t kYoung = 2;
constexpr uint8_t kForwarded = 4;
constexpr uint8_t kRemembered = 8;

constexpr size_t kDefaultNursery = size_t(4) << 20;
constexpr size_t kMinNursery = size_t(64) << 10;
constexpr uint64_t kMinMajorTrigger = uint64_t(16) << 20;
constexpr uint64_t kGrowth = 2;
constexpr uint64_t kStressMajorEvery = 32;
constexpr int kPoison = 0xdb;

struct Chunk {
  char* start;
  size_t size;
  char* used_end;  // for chunks retired from allocation: how far they filled
};

class GenHeap final : public Heap {
 public:
  GenHeap() { barrier_active_ = true; }
  ~GenHeap() override {
    for (Chunk& c : active_) munmap(c.start, c.size);
    for (Chunk& c : spare_) munmap(c.start, c.size);
    if (cur_.start) munmap(cur_.start, cur_.size);
  }

  const char* name() const override { return "gen"; }

  void set_nursery_size(size_t bytes) override {
    bytes = std::max(kMinNursery, (bytes + 4095) & ~size_t(4095));
    nursery_size_ = bytes;
    for (Chunk& c : spare_) munmap(c.start, c.size);
    spare_.clear();
    if (cur_.start && top_ == cur_.start && active_.empty()) {  // nothing allocated yet
      munmap(cur_.start, cur_.size);
      cur_ = Chunk{nullptr, 0, nullptr};
      top_ = limit_ = nullptr;
    }
  }

  GcHeader* allocate(size_t bytes, uint8_t kind) override {
    bytes = PageSpace::round(bytes);
    GcHeader* h;
    if (bytes > PageSpace::kMaxSmall || kinds_[kind].finalize) {
      h = allocate_old(bytes);
    } else {
      if (size_t(limit_ - top_) < bytes) next_chunk();
      h = reinterpret_cast<GcHeader*>(top_);
      top_ += bytes;
      std::memset(static_cast<void*>(h), 0, bytes);
      h->gcbits = kYoung;
    }
    h->kind = kind;
    stats_.bytes_allocated += bytes;
    stats_.objects_allocated++;
    stats_.allocations_by_kind[kind]++;
    return h;
  }

  void collect_minor() override {
    auto t0 = std::chrono::steady_clock::now();
    minor();
    bool major = old_.bytes_in_use() > major_trigger_ ||
                 (stress_ && ++stress_count_ % kStressMajorEvery == 0);
    if (major) mark_sweep();
    finish(t0, major);
  }

  void collect() override {
    auto t0 = std::chrono::steady_clock::now();
    minor();
    mark_sweep();
    finish(t0, true);
  }

  std::vector<std::string> verify() override;
  // Objects with a finalizer live in the old generation, unmarked between
  // collections, so a sweep finalizes them all.
  void finalize_all() override { old_.sweep(kinds_); }

 protected:
  void remember(GcHeader* obj) override {
    if (obj->gcbits & (kYoung | kRemembered)) return;
    obj->gcbits |= kRemembered;
    remembered_.push_back(obj);
  }

  void barrier_slow(GcHeader* obj, Word*, Word value) override {
    if (!is_ref(value) || (obj->gcbits & (kYoung | kRemembered))) return;
    if (!(header_of(value)->gcbits & kYoung)) return;
    obj->gcbits |= kRemembered;
    remembered_.push_back(obj);
  }

 private:
  // Copies a nursery object on first sight, and rewrites the slot to the copy.
  class Promoter final : public Visitor {
   public:
    explicit Promoter(GenHeap& h) : heap_(h) {}
    void visit(Word* slot) override {
      GcHeader* h = header_of(*slot);
      if (!(h->gcbits & kYoung)) return;
      Word* payload = reinterpret_cast<Word*>(h + 1);
      if (h->gcbits & kForwarded) {
        *slot = payload[0];
        return;
      }
      size_t bytes = PageSpace::round(heap_.kinds_[h->kind].size(h));
      GcHeader* copy = heap_.old_.allocate(bytes);
      std::memcpy(static_cast<void*>(copy), h, bytes);
      copy->gcbits = 0;
      h->gcbits |= kForwarded;
      payload[0] = word_of(copy);
      heap_.promoted_ += bytes;
      heap_.work_.push_back(copy);
      *slot = word_of(copy);
    }

   private:
    GenHeap& heap_;
  };

  GcHeader* allocate_old(size_t bytes) {
    GcHeader* h = old_.allocate(bytes);
    h->gcbits = kRemembered;  // its initialising stores skip the barrier
    remembered_.push_back(h);
    direct_old_ += bytes;
    if (direct_old_ > nursery_size_) wanted_ = true;
    note_peak();
    return h;
  }

  Chunk map_chunk() {
    void* mem = mmap(nullptr, nursery_size_, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED) throw std::bad_alloc();
    return Chunk{static_cast<char*>(mem), nursery_size_, nullptr};
  }

  // The current chunk is full: keep it in the nursery and take another. The
  // first chunk filling up is what asks for a minor collection.
  void next_chunk() {
    if (cur_.start) {
      cur_.used_end = top_;
      active_.push_back(cur_);
      wanted_ = true;
    }
    if (!spare_.empty()) {
      cur_ = spare_.front();
      spare_.pop_front();
    } else {
      cur_ = map_chunk();
    }
    top_ = cur_.start;
    limit_ = cur_.start + cur_.size;
    note_peak();
  }

  void minor() {
    Promoter p(*this);
    trace_all_roots(p);
    for (GcHeader* o : remembered_) {
      o->gcbits &= ~kRemembered;
      if (auto tr = kinds_[o->kind].trace) tr(o, p);
    }
    remembered_.clear();
    while (!work_.empty()) {
      GcHeader* o = work_.back();
      work_.pop_back();
      if (auto tr = kinds_[o->kind].trace) tr(o, p);
    }
    stats_.bytes_promoted += promoted_;
    promoted_ = 0;
    reset_nursery();
  }

  // Every nursery chunk is empty again. The chunk allocation resumes in is
  // the least recently used one; at most two are kept.
  void reset_nursery() {
    if (cur_.start) {
      cur_.used_end = top_;
      active_.push_back(cur_);
      cur_ = Chunk{nullptr, 0, nullptr};
    }
    for (Chunk& c : active_) {
      if (stress_) std::memset(c.start, kPoison, size_t(c.used_end - c.start));
      c.used_end = nullptr;
      if (c.size == nursery_size_ && spare_.size() < 2)
        spare_.push_back(c);
      else
        munmap(c.start, c.size);
    }
    active_.clear();
    if (stress_ && spare_.size() < 2) spare_.push_front(map_chunk());
    top_ = limit_ = nullptr;
    next_chunk();
  }

  // After a minor collection: every live object is old.
  void mark_sweep() {
    mark_from_roots(stack_, kMarkBit);
    uint64_t live = old_.sweep(kinds_);
    major_trigger_ = std::max(kMinMajorTrigger, live * kGrowth);
  }

  void finish(std::chrono::steady_clock::time_point t0, bool major) {
    wanted_ = false;
    direct_old_ = 0;
    double ms = std::chrono::duration<double, std::milli>(
                    std::chrono::steady_clock::now() - t0).count();
    stats_.collections++;
    (major ? stats_.major_collections : stats_.minor_collections)++;
    stats_.record_pause(ms, major);
    // After a major collection, exactly the live bytes; after a minor one,
    // the old generation's bytes in use, which still count the old objects
    // that died since the last major collection.
    stats_.bytes_live = old_.bytes_in_use();
    note_peak();
  }

  // The heap: the old generation's bytes in use plus every nursery chunk
  // mapped, used or not.
  void note_peak() {
    uint64_t nursery = (active_.size() + spare_.size() + (cur_.start ? 1 : 0)) * nursery_size_;
    uint64_t total = old_.bytes_in_use() + nursery;
    if (total > stats_.peak_heap_bytes) stats_.peak_heap_bytes = total;
  }

  // True iff w points into the used part of a nursery chunk.
  bool in_nursery(Word w) const {
    auto in = [w](const char* a, const char* b) {
      return w >= reinterpret_cast<Word>(a) && w < reinterpret_cast<Word>(b);
    };
    if (cur_.start && in(cur_.start, top_)) return true;
    for (const Chunk& c : active_)
      if (in(c.start, c.used_end)) return true;
    return false;
  }

  friend class Promoter;
  PageSpace old_;
  Chunk cur_{nullptr, 0, nullptr};  // the chunk being allocated into
  char* top_ = nullptr;
  char* limit_ = nullptr;
  std::vector<Chunk> active_;  // filled chunks of this nursery cycle
  std::deque<Chunk> spare_;    // empty chunks, least recently used first
  size_t nursery_size_ = kDefaultNursery;
  std::vector<GcHeader*> remembered_;
  std::vector<GcHeader*> work_;   // promoted objects not yet traced
  std::vector<GcHeader*> stack_;  // the marker's
  uint64_t promoted_ = 0;
  uint64_t direct_old_ = 0;  // bytes allocated in the old generation since the last collection
  uint64_t major_trigger_ = kMinMajorTrigger;
  uint64_t stress_count_ = 0;
};

// Walks everything reachable from the roots (with its own visited set, so no
// header bits change) and checks each reference: it points at a live object
// of a known kind in the nursery or the old generation, never at a forwarded
// one, and an old object holding a young reference is remembered.
std::vector<std::string> GenHeap::verify() {
  struct Checker final : Visitor {
    GenHeap& heap;
    std::unordered_set<GcHeader*> seen;
    std::vector<GcHeader*> todo;
    std::vector<std::string> problems;
    GcHeader* from = nullptr;  // the object being traced; null for roots
    explicit Checker(GenHeap& h) : heap(h) {}
    void problem(const std::string& what) {
      if (problems.size() < 20)
        problems.push_back(what + " (from " + (from ? heap.kinds_[from->kind].name : "a root") + ")");
    }
    void visit(Word* slot) override {
      Word w = *slot;
      bool young = heap.in_nursery(w);
      if (!young && !heap.old_.contains(w)) return problem("dangling reference");
      GcHeader* h = header_of(w);
      if (h->kind >= kMaxKinds || !heap.kinds_[h->kind].name) return problem("object of unknown kind");
      if (h->gcbits & kForwarded) return problem("forwarded object reachable");
      if (h->gcbits & kMarkBit) problem("mark bit left set");
      if (young != bool(h->gcbits & kYoung)) problem("young bit does not match the space");
      if (young && from && !(from->gcbits & (kYoung | kRemembered)))
        problem("old object holds a young reference but is not remembered");
      if (seen.insert(h).second) todo.push_back(h);
    }
  } c(*this);
  trace_all_roots(c);
  while (!c.todo.empty()) {
    c.from = c.todo.back();
    c.todo.pop_back();
    if (auto tr = kinds_[c.from->kind].trace) tr(c.from, c);
  }
  return c.problems;
}

}  // namespace

Heap* make_gen_heap() { return new GenHeap(); }

}  // namespace gc
