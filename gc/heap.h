// gc/heap.h — the heap interface every collector plugs into.
//
// The heap knows words and object headers, nothing of Arc. A word is a 64-bit
// value; it is a heap reference iff its low three bits are zero and it is not
// zero (vm/value.h builds the rest of the tagging scheme on that rule). Every
// heap object starts with a GcHeader. The VM tells the heap, once at start, how
// to size, trace and finalize each kind of object (KindInfo), and enumerates its
// roots through RootSource. Nothing here includes a vm/ header.
//
// Rules the heap relies on (DESIGN invariants 2 and 3):
//  1. allocate() never collects. A collection starts only when the VM calls
//     collect_minor() (or collect()) at a safe point, after
//     collection_wanted() said so. (The Boehm baseline keeps this rule by
//     keeping libgc's own collections disabled between safe points.)
//  2. Every Word that lives across a safe point is reachable from a root: a
//     RootSource, a Rooted<> handle, or a field of a reachable object.
//  3. Every store of a Word into a heap object goes through write().
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace gc {

using Word = uint64_t;

inline bool is_ref(Word w) { return (w & 7) == 0 && w != 0; }

// A reference slot of a heap object, read by a collector that may run on
// another thread than the mutator (vcgc): an acquire load, pairing with the
// release store in Heap::write, so that what the mutator wrote into a new
// object before storing its reference is visible to the collector. (On
// x86-64 both are plain moves.) Trace functions read their slots through it.
inline Word load_word(const Word* slot) { return __atomic_load_n(slot, __ATOMIC_ACQUIRE); }

struct GcHeader {
  uint8_t kind;    // the VM's object kind
  uint8_t gcbits;  // owned by the collector (mark colour, age, forwarded)
  uint16_t flags;  // owned by the VM (per-kind bits)
  uint32_t hash;   // identity hash, assigned lazily by the VM; 0 = none yet
};
static_assert(sizeof(GcHeader) == 8);

inline GcHeader* header_of(Word w) { return reinterpret_cast<GcHeader*>(w); }
inline Word word_of(const GcHeader* h) { return reinterpret_cast<Word>(h); }

// Visits every reference slot of an object or root set. A moving collector
// may rewrite *slot.
class Visitor {
 public:
  virtual ~Visitor() = default;
  virtual void visit(Word* slot) = 0;
  void visit_range(Word* begin, Word* end) {
    for (Word* p = begin; p < end; ++p)
      if (is_ref(load_word(p))) visit(p);
  }
};

struct KindInfo {
  const char* name = nullptr;
  size_t (*size)(const GcHeader*) = nullptr;       // total bytes of the object
  void (*trace)(GcHeader*, Visitor&) = nullptr;    // null: holds no references
  void (*finalize)(GcHeader*) = nullptr;           // null: nothing to release
  // The object's references live outside the heap and change without the
  // write barrier (a fiber's execution state, swapped at every switch). A
  // concurrent collector (vcgc) must not call trace for it on its own
  // thread: it calls it only on the mutator, at a safe point.
  bool trace_on_mutator = false;
  // Shortcuts a collector may take instead of the calls, for small kinds
  // made in bulk (conses): if nonzero, the object's references are exactly
  // the ref_words words after its header (trace visits those), and an
  // object whose header flags are 0 is plain_size bytes.
  uint8_t ref_words = 0;
  uint16_t plain_size = 0;
};

constexpr int kMaxKinds = 32;

// Something that owns roots: the VM (fiber stacks, globals), the compiler.
class RootSource {
 public:
  virtual ~RootSource() = default;
  virtual void trace_roots(Visitor& v) = 0;
};

// Pause times, for their percentiles, in bounded memory: a server runs for
// months and collects every few requests, and one double per pause was a
// leak of its own (some 16 bytes a minor collection, with the minor list).
// The first kExact pauses are kept as they are, and percentiles of those
// are exact; past them, every pause is counted in a histogram of buckets
// 1% wide from 1 us up, and a percentile is the upper edge of its bucket
// (at most 1% above the true one; the largest pause is kept exactly).
class PauseRecord {
 public:
  void add(double ms);
  uint64_t count() const { return count_; }
  bool empty() const { return count_ == 0; }
  // The p-th percentile, nearest rank (p 100: the largest); 0 when empty.
  double percentile(double p) const;

 private:
  static constexpr size_t kExact = 4096;
  static constexpr double kFirstMs = 0.001;   // bucket 0: up to 1 us
  static constexpr double kRatio = 1.01;      // each bucket's upper edge over the last's
  static constexpr size_t kBuckets = 1900;    // 1 us * 1.01^1899 is past 100 s
  static size_t bucket(double ms);
  static double upper_edge(size_t i);
  std::vector<double> exact_;
  std::vector<uint32_t> buckets_;  // empty until exact_ is full
  uint64_t count_ = 0;
  double max_ = 0;
};

// One shape for every collector. A field a collector cannot know stays 0 and
// its source says why (boehm.cpp). Pauses are wall-clock milliseconds of the
// stop-the-world part, recorded once per collection the VM asked for.
struct GcStats {
  uint64_t collections = 0;        // all of them: minor + major
  uint64_t minor_collections = 0;  // young generation only
  uint64_t major_collections = 0;  // the whole heap
  uint64_t bytes_promoted = 0;     // from the nursery to the old generation (copied or in place)
  uint64_t bytes_allocated = 0;  // since start
  uint64_t objects_allocated = 0;
  uint64_t bytes_live = 0;       // after the last collection
  uint64_t peak_heap_bytes = 0;  // the most the heap held (see each collector)
  // Non-moving page spaces (marksweep, gen's old generation): the bytes
  // free in pages that still hold live objects, at the last sweep, as a
  // share of the space (for gen, of its old generation, blocks included);
  // and how often, and how much, gen compacted it.
  double fragmentation = 0;
  uint64_t compactions = 0;
  uint64_t bytes_compacted = 0;
  double gc_ms = 0;
  double max_pause_ms = 0;
  PauseRecord pauses_ms;        // every pause, for percentiles
  PauseRecord minor_pauses_ms;  // the minor ones among them
  PauseRecord major_pauses_ms;  // the major (full) ones
  uint64_t allocations_by_kind[kMaxKinds] = {};
  double pause_percentile(double p) const { return pauses_ms.percentile(p); }
  void record_pause(double ms, bool major = true);  // gc_ms, max_pause_ms, pauses
  // Milliseconds since the process started (the clock read at static
  // initialisation), and the share of them spent collecting.
  static double run_ms();
  double gc_share() const;
};

// The size an object of `bytes` really takes: a multiple of 8, at least 16.
inline size_t round_object_size(size_t bytes) {
  bytes = (bytes + 7) & ~size_t(7);
  return bytes < 16 ? 16 : bytes;
}

class Heap {
 public:
  virtual ~Heap() = default;

  void register_kind(uint8_t kind, const KindInfo& info) { kinds_[kind] = info; }
  const KindInfo& kind_info(uint8_t kind) const { return kinds_[kind]; }
  void add_root_source(RootSource* s) { root_sources_.push_back(s); }
  void remove_root_source(RootSource* s);

  // Rule 1: never collects. Returns zeroed memory with the header filled in.
  virtual GcHeader* allocate(size_t bytes, uint8_t kind) = 0;
  // allocate's fast path, inline: a bump in the collector's allocation
  // buffer (gen's eden: zeroed up to bump_limit_), for a small object of a
  // kind without a finalizer. Null when it does not apply; then allocate().
  GcHeader* try_bump(size_t bytes, uint8_t kind) {
    bytes = round_object_size(bytes);
    char* p = bump_top_;
    if (size_t(bump_limit_ - p) < bytes || bytes > bump_max_ || kinds_[kind].finalize)
      return nullptr;
    bump_top_ = p + bytes;
    GcHeader* h = reinterpret_cast<GcHeader*>(p);
    h->kind = kind;
    h->gcbits = bump_gcbits_;
    stats_.allocations_by_kind[kind]++;
    return h;
  }

  // Rule 3. The barrier sees the value overwritten as well as the new one:
  // gen remembers old objects that get a young reference (the new value), a
  // snapshot collector (vcgc) shades the old referent while it marks. The
  // fast path is one flag test. The store is a release (see load_word).
  void write(GcHeader* obj, Word* slot, Word value) {
    Word old = __atomic_load_n(slot, __ATOMIC_RELAXED);
    __atomic_store_n(slot, value, __ATOMIC_RELEASE);
    if (barrier_active_) barrier_slow(obj, slot, old, value);
  }

  // Relaxed: a concurrent collector sets wanted_ from its own thread.
  bool collection_wanted() const { return wanted_.load(std::memory_order_relaxed) || stress_; }
  virtual void collect() = 0;  // full collection; call only at a safe point
  // The collection a safe point runs when collection_wanted(): as much as
  // the collector judges enough (gen: the nursery, and the old generation
  // when it has grown). Non-generational collectors do a full collection.
  virtual void collect_minor() { collect(); }
  // The young generation's size in bytes, for collectors that have one.
  virtual void set_nursery_size(size_t) {}
  // Gives back to the system the memory the heap keeps for its growth (gen:
  // the empty pages its sweeps pooled, spare eden chunks, empty survivor
  // spaces; marksweep: its pooled pages), keeping every object: for a
  // process that has gone idle after a burst (srv.arc), so that its memory
  // follows the load down. Call right after a full collection (collect()),
  // at a safe point. Collectors that keep nothing spare do nothing.
  virtual void release_spare_memory() {}
  // The running code moved to another machine stack (a fiber) whose highest
  // address is `bottom` (null: the thread's own); a collector that scans the
  // machine stack (boehm) must scan that one when it next collects. A store,
  // as it happens at every fiber switch.
  void set_stack_bottom(void* bottom) { stack_bottom_ = bottom; }
  // obj's references changed behind the barrier (a fiber's stack while it
  // ran): a generational collector must rescan it at the next minor
  // collection.
  // Inline: most calls find obj young or already remembered.
  void remember(GcHeader* obj) {
    if (remembers_ && !(obj->gcbits & remember_skip_)) remember_slow(obj);
  }
  // True if the collector traces objects through KindInfo::trace. The
  // conservative one (boehm) does not, so references an object keeps in
  // malloc'd memory (a fiber's state) must reach it as roots. (vcgc does,
  // for trace_on_mutator kinds at its root handover.)
  virtual bool traces_objects() const { return true; }
  // At the next safe point (vcgc: starts an epoch there).
  virtual void request_collection() { want_collection(); }
  // The mutator's safe-point counter (VM::preempt_budget): wanting a
  // collection zeroes it, so that the next safe point takes the slow path.
  void set_safepoint_poke(std::atomic<int64_t>* counter) { poke_ = counter; }

  // Checks the collector's invariant over the whole heap; returns the problems.
  virtual std::vector<std::string> verify() = 0;
  virtual const char* name() const = 0;

  void set_stress(bool on) {
    stress_ = on;
    if (on && poke_) poke_->store(0, std::memory_order_relaxed);
  }
  bool stress() const { return stress_; }
  const GcStats& stats() const { return stats_; }
  GcStats& stats() { return stats_; }
  // Brings the figures a collector computes only on demand up to date (boehm:
  // the live bytes). Call before reading stats() for a report.
  virtual void refresh_stats() {}
  // Finalizes every object still allocated (ports close and free their
  // buffers), for the heap's owner to call just before it destroys the
  // heap, while what the finalizers use (the VM) still exists. The heap
  // must not be used afterwards. boehm does nothing: libgc's finalization
  // is process-wide, not per heap.
  virtual void finalize_all() {}

  // Scoped roots for C++ code (see Rooted<> below).
  std::vector<Word*>& handle_slots() { return handles_; }

 protected:
  // remember's work, for collectors that set remembers_; skipped for an
  // object whose gcbits has any of remember_skip_.
  virtual void remember_slow(GcHeader* /*obj*/) {}
  bool remembers_ = false;
  uint8_t remember_skip_ = 0;
  // obj's slot held old_value and now holds new_value.
  virtual void barrier_slow(GcHeader* /*obj*/, Word* /*slot*/, Word /*old_value*/,
                            Word /*new_value*/) {}
  void trace_all_roots(Visitor& v);
  // The mark phase of the non-moving spaces: marks everything reachable
  // from the roots, with an explicit stack (no recursion). mark(h) marks h
  // and is true iff it was not marked yet; the second form sets mark_bit.
  template <class Mark>
  void mark_from_roots(std::vector<GcHeader*>& stack, Mark mark);
  void mark_from_roots(std::vector<GcHeader*>& stack, uint8_t mark_bit) {
    mark_from_roots(stack, [mark_bit](GcHeader* h) {
      if (h->gcbits & mark_bit) return false;
      h->gcbits |= mark_bit;
      return true;
    });
  }
  // verify()'s walk, one for every collector: everything reachable from the
  // roots, with its own visited set (no header bits change). Each reference
  // w must be in the collector's spaces (contains) and point at an object of
  // a registered kind; then check(h, from, problem) runs the collector's own
  // tests (from: the referring object, null for a root) and says whether to
  // follow h's references. At most 20 problems, each naming what referred.
  using VerifyProblem = std::function<void(const char*)>;
  std::vector<std::string> verify_reachable(
      const std::function<bool(Word)>& contains,
      const std::function<bool(GcHeader* h, GcHeader* from, const VerifyProblem&)>& check);

  KindInfo kinds_[kMaxKinds];
  std::vector<RootSource*> root_sources_;
  std::vector<Word*> handles_;
  void* stack_bottom_ = nullptr;  // set_stack_bottom
  bool barrier_active_ = false;
  std::atomic<bool> wanted_{false};
  // The bump buffer try_bump allocates in ([bump_top_, bump_limit_), zeroed;
  // empty for collectors without one), the gcbits of what it makes, and
  // the largest object it takes.
  char* bump_top_ = nullptr;
  char* bump_limit_ = nullptr;
  uint8_t bump_gcbits_ = 0;
  size_t bump_max_ = 0;
  std::atomic<int64_t>* poke_ = nullptr;
  // Sets wanted_, then pokes the mutator's safe-point counter (any thread).
  void want_collection() {
    wanted_ = true;
    if (poke_) poke_->store(0, std::memory_order_relaxed);
  }
  bool stress_ = false;
  GcStats stats_;
};

// The collectors that exist, by name ("marksweep"). Null for an unknown name.
Heap* make_heap(const std::string& name);
std::vector<std::string> heap_names();

// A C++ root, registered for the lifetime of the scope (LIFO, like
// SpiderMonkey's Rooted). T is a Word-sized value type such as vm::Value.
template <class T>
class Rooted {
 public:
  Rooted(Heap& h, T v) : heap_(h), value_(v) {
    static_assert(sizeof(T) == sizeof(Word));
    heap_.handle_slots().push_back(reinterpret_cast<Word*>(&value_));
  }
  ~Rooted() { heap_.handle_slots().pop_back(); }
  Rooted(const Rooted&) = delete;
  Rooted& operator=(const Rooted&) = delete;
  T get() const { return value_; }
  operator T() const { return value_; }
  Rooted& operator=(T v) {
    value_ = v;
    return *this;
  }
  T* address() { return &value_; }

 private:
  Heap& heap_;
  T value_;
};

// A growable vector of roots (for the compiler's constants and work lists).
template <class T>
class RootedVector : public RootSource {
 public:
  explicit RootedVector(Heap& h) : heap_(h) { heap_.add_root_source(this); }
  ~RootedVector() override { heap_.remove_root_source(this); }
  RootedVector(const RootedVector&) = delete;
  void trace_roots(Visitor& v) override {
    v.visit_range(reinterpret_cast<Word*>(items.data()),
                  reinterpret_cast<Word*>(items.data() + items.size()));
  }
  std::vector<T> items;

 private:
  Heap& heap_;
};


template <class Mark>
void Heap::mark_from_roots(std::vector<GcHeader*>& stack, Mark mark) {
  struct Marker final : Visitor {
    std::vector<GcHeader*>& stack;
    Mark& mark;
    Marker(std::vector<GcHeader*>& s, Mark& m) : stack(s), mark(m) {}
    void visit(Word* slot) override {
      GcHeader* h = header_of(*slot);
      if (mark(h)) stack.push_back(h);
    }
  } m(stack, mark);
  trace_all_roots(m);
  while (!stack.empty()) {
    GcHeader* h = stack.back();
    stack.pop_back();
    const KindInfo& k = kinds_[h->kind];
    if (k.ref_words) {  // inline (KindInfo::ref_words): no calls per slot
      Word* w = reinterpret_cast<Word*>(h + 1);
      for (unsigned i = 0; i < k.ref_words; ++i)
        if (is_ref(w[i])) m.visit(&w[i]);
    } else if (k.trace) {
      k.trace(h, m);
    }
  }
}

}  // namespace gc
