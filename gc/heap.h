// gc/heap.h — the heap interface every collector plugs into.
//
// The heap knows words and object headers, nothing of Arc. A word is a 64-bit
// value; it is a heap reference iff its low three bits are zero and it is not
// zero (vm/value.h builds the rest of the tagging scheme on that rule). Every
// heap object starts with a GcHeader. The VM tells the heap, once at start, how
// to size, trace and finalize each kind of object (KindInfo), and enumerates its
// roots through RootSource. Nothing in gc/ includes a header from outside it:
// the build compiles gc/ with an include path that holds gc/ alone, and links
// its own tests (gc_tests) with nothing else.
//
// Heap (below) is the whole of what the VM sees of a collector, which is
// chosen by name (make_heap); the VM never branches on which one runs. What
// differs between collectors is behind Heap's virtual calls, and what a
// collector must know of a kind is in its KindInfo. The collectors are gc/marksweep.cpp,
// gc/gen.cpp (the default), gc/vcgc.cpp and gc/boehm.cpp; gc/pages.h is the
// page allocator the first three share.
//
// Rules the heap relies on:
//  1. allocate() never collects. A collection starts only when the VM calls
//     collect_minor() (or collect()) at a safe point, after
//     collection_wanted() said so. (The Boehm baseline keeps this rule by
//     keeping libgc's own collections disabled between safe points.)
//  2. Every Word that lives across a safe point is reachable from a root: a
//     RootSource, a Rooted<> handle, or a field of a reachable object.
//  3. Every store of a Word into a heap object goes through write().
#pragma once
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <new>
#include <string>
#include <utility>
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

// The mark phase's explicit stack (Heap::mark_from_roots). A push never
// throws: when the stack cannot grow (the C++ heap is out of memory in a
// collection that runs because memory is short, or the limit a test sets),
// the object stays marked but untraced and the stack records that it
// overflowed; the marker then rescans the marked objects for unmarked
// children, as Boehm's collector recovers from its mark stack's overflow.
// So running out of memory in a collection costs time, never the heap.
class MarkStack {
 public:
  MarkStack() = default;
  MarkStack(const MarkStack&) = delete;
  MarkStack& operator=(const MarkStack&) = delete;
  ~MarkStack() { std::free(items_); }
  // The fast path is a compare and a store, as the mark loop's tightest
  // step must be; growing, the limit and running out are push_slow's.
  void push(GcHeader* h) noexcept {
    if (__builtin_expect(top_ == end_, 0)) return push_slow(h);
    *top_++ = h;
  }
  bool empty() const { return top_ == items_; }
  GcHeader* pop() { return *--top_; }
  // True once after a push was dropped.
  bool take_overflow() { return std::exchange(overflowed_, false); }
  // Pushes beyond n are dropped (tests of the overflow path). Only while
  // the stack is empty, between collections.
  void set_limit(size_t n) {
    limit_ = n;
    end_ = items_ + std::min(cap_, limit_);
  }
  void release_memory() {
    std::free(items_);
    items_ = top_ = end_ = nullptr;
    cap_ = 0;
  }

 private:
  void push_slow(GcHeader* h) noexcept;  // gc/heap.cpp

  GcHeader** items_ = nullptr;
  GcHeader** top_ = nullptr;
  GcHeader** end_ = nullptr;  // items_ + min(cap_, limit_)
  size_t cap_ = 0;
  size_t limit_ = SIZE_MAX;
  bool overflowed_ = false;
};

// Visits every reference slot of an object or root set. A moving collector
// may rewrite *slot.
class Visitor {
 public:
  virtual ~Visitor() = default;
  virtual void visit(Word* slot) = 0;
  // Whether w, the reference a visit of this visitor left in a slot, is
  // still young: the question a RootSource::trace_young_roots asks to keep
  // its list of slots short. True unless the visitor is a generational
  // collector's (gen's minor collection), so that a source asked by any
  // other keeps every slot.
  virtual bool young(Word /*w*/) const { return true; }
  void visit_range(Word* begin, Word* end) {
    for (Word* p = begin; p < end; ++p)
      if (is_ref(load_word(p))) visit(p);
  }
};

struct KindInfo {
  const char* name = nullptr;
  size_t (*size)(const GcHeader*) = nullptr;     // total bytes of the object
  void (*trace)(GcHeader*, Visitor&) = nullptr;  // null: holds no references
  void (*finalize)(GcHeader*) = nullptr;         // null: nothing to release
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
  // For a kind whose references live outside the heap (as above), the
  // references of every object of the kind not yet finalized, visited as
  // roots, without the objects themselves (which must stay free to die).
  // A collector that reaches objects' references only by scanning the
  // objects (boehm, which never sees malloc'd memory) calls it at each of
  // its collections; the others trace the objects and never call it.
  // Called with outside_context, which the registrar sets (the VM whose
  // fibers they are: a process may hold more than one VM, each its heap).
  void (*trace_outside)(void* context, Visitor&) = nullptr;
  void* outside_context = nullptr;
};

constexpr int kMaxKinds = 32;

// Something that owns roots: the VM (its stack, globals, ports, dynamic
// state), the scheduler (every unfinished thread), the reader (the forms it
// is building), a RootedVector.
class RootSource {
 public:
  virtual ~RootSource() = default;
  virtual void trace_roots(Visitor& v) = 0;
  // The roots a minor collection visits (Heap::trace_young_roots): at least
  // every slot that may refer to a young object. A slot left out must refer
  // to an old object: one that a minor collection's visit found no longer
  // young (Visitor::young) and that no store has replaced since. A minor
  // collection neither moves old objects nor traces them from the roots
  // (what they refer to that is young, the remembered set finds), so it
  // need not see those slots. By default, every root (trace_roots); the VM
  // leaves out the symbol table's old symbols, thousands of slots that
  // every minor collection used to visit for nothing (vm/symbol.cpp).
  virtual void trace_young_roots(Visitor& v) { trace_roots(v); }
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
  static constexpr double kFirstMs = 0.001;  // bucket 0: up to 1 us
  static constexpr double kRatio = 1.01;     // each bucket's upper edge over the last's
  static constexpr size_t kBuckets = 1900;   // 1 us * 1.01^1899 is past 100 s
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
  uint64_t bytes_allocated = 0;    // since start
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
  // The CPU time of a collector's own thread (vcgc's collector, gen's
  // marker), which gc_ms includes: the price of a pause not taken.
  double collector_thread_ms = 0;
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

// The most minor collections an object may survive before it is promoted,
// for a collector with a young generation (gen keeps the age in four bits
// of GcHeader::gcbits).
constexpr unsigned kMaxPromoteAge = 15;

// An allocation buffer a collector shares with the mutator's inline
// allocation path (Heap::try_bump): objects of at most max_bytes are cut
// from [top, limit), which is zeroed, their gcbits set to gcbits. The
// collector that has one owns it and moves it (gen: its eden chunk, zeroed
// ahead of top), and hands it to the Heap (use_alloc_buffer); the mutator
// only advances top. Collectors without one leave the Heap's empty buffer,
// in which nothing fits: every allocation takes allocate().
struct AllocBuffer {
  char* top = nullptr;
  char* limit = nullptr;
  size_t max_bytes = 0;
  uint8_t gcbits = 0;
};

// What the VM sees of a collector: kinds and roots, allocation, the write
// barrier, safe points, settings, and statistics (with the verifier). Each
// collector derives from it and keeps its own state. The Heap's own data is
// the registries of kinds and roots, the statistics every collector fills
// in, and what the inline fast paths read without a call (the allocation
// buffer, the barrier's filter, the wanted flag), which a collector sets
// through the protected calls below.
class Heap {
 public:
  virtual ~Heap() = default;
  virtual const char* name() const = 0;

  // ---- Kinds and roots ----
  void register_kind(uint8_t kind, const KindInfo& info) { kinds_[kind] = info; }
  const KindInfo& kind_info(uint8_t kind) const { return kinds_[kind]; }
  void add_root_source(RootSource* s) { root_sources_.push_back(s); }
  void remove_root_source(RootSource* s);
  // Scoped roots for C++ code (see Rooted<> below).
  std::vector<Word*>& handle_slots() { return handles_; }
  // The running code moved to another machine stack (a fiber) whose highest
  // address is `bottom` (null: the thread's own); a collector that scans the
  // machine stack (boehm) must scan that one when it next collects. Called
  // at every switch of machine stack.
  virtual void set_stack_bottom(void* /*bottom*/) {}

  // ---- Allocation ----
  // Rule 1: never collects. Returns zeroed memory with the header filled in.
  virtual GcHeader* allocate(size_t bytes, uint8_t kind) = 0;
  // allocate for an object whose every store, its initialising ones
  // included, goes through the barrier (write): a collector that remembers
  // the objects it allocates old, for their initialising stores that skip
  // the barrier (gen's large objects), need not remember this one. A
  // table's parts are such objects.
  virtual GcHeader* allocate_barriered(size_t bytes, uint8_t kind) { return allocate(bytes, kind); }
  // While suspended, try_bump fails, so that every allocation takes
  // allocate(): the VM counts allocations by site (measure/sites.h) on that
  // path alone, leaving the fast one as it is.
  void suspend_bump(bool on) {
    bump_suspended_ = on;
    buffer_ = on ? &no_buffer_ : own_buffer_;
  }
  // allocate's fast path, inline: a bump in the collector's allocation
  // buffer, for a small object of a kind without a finalizer. Null when it
  // does not apply, or while bumping is suspended; then allocate().
  GcHeader* try_bump(size_t bytes, uint8_t kind) {
    AllocBuffer& b = *buffer_;
    bytes = round_object_size(bytes);
    char* p = b.top;
    if (size_t(b.limit - p) < bytes || bytes > b.max_bytes || kinds_[kind].finalize) return nullptr;
    b.top = p + bytes;
    GcHeader* h = reinterpret_cast<GcHeader*>(p);
    h->kind = kind;
    h->gcbits = b.gcbits;
    stats_.allocations_by_kind[kind]++;
    return h;
  }

  // ---- The write barrier ----
  // Rule 3. The barrier sees the value overwritten as well as the new one:
  // gen remembers old objects that get a young reference (the new value), a
  // snapshot collector (vcgc) shades the old referent while it marks. The
  // fast path is the collector's filter (set_barrier): its flag, and the
  // header bits that excuse an object; before it, a store with a reference
  // on neither side (nil or t stored over a number, a table's flag) drops
  // and adds no reference, so it has nothing for any barrier to see. The
  // store is a release (see load_word).
  void write(GcHeader* obj, Word* slot, Word value) {
    Word old = __atomic_load_n(slot, __ATOMIC_RELAXED);
    __atomic_store_n(slot, value, __ATOMIC_RELEASE);
    if ((int(is_ref(old)) | int(is_ref(value))) && barrier_wanted(obj))
      barrier_slow(obj, slot, old, value);
  }
  // obj's references changed behind the barrier (a fiber's stack while it
  // ran): a generational collector must rescan it at the next minor
  // collection. Inline, through the same filter: most calls find obj young
  // or already remembered.
  void remember(GcHeader* obj) {
    if (barrier_wanted(obj)) remember_slow(obj);
  }

  // ---- Safe points ----
  // Relaxed: a concurrent collector sets wanted_ from its own thread.
  bool collection_wanted() const { return wanted_.load(std::memory_order_relaxed) || stress_; }
  // The collection a safe point runs when collection_wanted(): as much as
  // the collector judges enough (gen: the nursery, and the old generation
  // when it has grown). Non-generational collectors do a full collection.
  virtual void collect_minor() { collect(); }
  virtual void collect() = 0;  // full collection; call only at a safe point
  // At the next safe point (vcgc: starts an epoch there).
  virtual void request_collection() { want_collection(); }
  // The mutator's safe-point counter (VM::preempt_budget): wanting a
  // collection takes kSafepointPoke off it, so that the next safe point
  // takes the slow path, which adds it back to recover the count (a poke is
  // not the end of the scheduler's time slice).
  void set_safepoint_poke(std::atomic<int64_t>* counter) { poke_ = counter; }
  static constexpr int64_t kSafepointPoke = int64_t(1) << 32;
  // --gc-trace: a line on stderr for each pause (gen and gen-stw).
  virtual void set_trace(bool /*on*/) {}
  // Stress mode: a collection at every safe point.
  void set_stress(bool on) {
    stress_ = on;
    if (on && poke_) poke_->fetch_sub(kSafepointPoke, std::memory_order_relaxed);
  }
  bool stress() const { return stress_; }

  // ---- Settings and housekeeping, each a no-op where it does not apply ----
  // The young generation's size in bytes, for collectors that have one.
  virtual void set_nursery_size(size_t) {}
  // Survivors are promoted to the old generation at their age-th minor
  // collection (1: at the first; at most kMaxPromoteAge). False (nothing
  // done) for a collector without a young generation.
  virtual bool set_promote_age(unsigned /*age*/) { return false; }
  // For tests of a full mark stack (MarkStack): the marker's stack holds
  // at most n objects. False for a collector whose marker has none
  // (boehm, vcgc's own).
  virtual bool set_mark_stack_limit(size_t /*n*/) { return false; }
  // Gives back to the system the memory the heap keeps for its growth (gen:
  // the empty pages its sweeps pooled, spare eden chunks, empty survivor
  // spaces; marksweep: its pooled pages), keeping every object: for a
  // process that has gone idle after a burst (srv.arc), so that its memory
  // follows the load down. Call right after a full collection (collect()),
  // at a safe point. Collectors that keep nothing spare do nothing.
  virtual void release_spare_memory() {}
  // Whether the heap goes on working in a child of fork() (the server's
  // --workers): not if it runs a thread of its own (vcgc), which the child
  // does not have.
  virtual bool fork_safe() const { return true; }
  // Called just before fork() by a process that will go on using the heap
  // in the child: a collector with a thread it can start again (gen's
  // marker) finishes its work and stops it, so that the child, which has
  // only the forking thread, starts its own.
  virtual void before_fork() {}
  // Finalizes every object still allocated (ports close and free their
  // buffers), for the heap's owner to call just before it destroys the
  // heap, while what the finalizers use (the VM) still exists. The heap
  // must not be used afterwards. boehm does nothing: libgc's finalization
  // is process-wide, not per heap.
  virtual void finalize_all() {}

  // ---- Statistics and checking ----
  const GcStats& stats() const { return stats_; }
  // Brings the figures a collector computes only on demand up to date (boehm:
  // the live bytes). Call before reading stats() for a report.
  virtual void refresh_stats() {}
  // The bytes allocated since start, as of now, cheaply (the profiler reads
  // it at every sample): stats().bytes_allocated, which a collector whose
  // fast path does not count bytes brings up to date only now and then.
  virtual uint64_t bytes_allocated_now() const { return stats_.bytes_allocated; }
  // The objects allocated since start, as of now: the sum of the counts by
  // kind, which every collector's fast path keeps.
  uint64_t objects_allocated_now() const {
    uint64_t n = 0;
    for (uint64_t k : stats_.allocations_by_kind) n += k;
    return n;
  }
  // Checks the collector's invariant over the whole heap; returns the problems.
  virtual std::vector<std::string> verify() = 0;

 protected:
  Heap() = default;

  // ---- For the collectors ----
  const KindInfo* kinds() const { return kinds_; }
  GcStats& mutable_stats() { return stats_; }
  // The buffer try_bump cuts objects from: a member of the collector's own.
  void use_alloc_buffer(AllocBuffer* b) {
    own_buffer_ = b;
    if (!bump_suspended_) buffer_ = b;
  }
  // The barrier's filter: while on, write() calls barrier_slow and
  // remember() calls remember_slow for an object whose gcbits has none of
  // skip_bits (gen: neither young nor remembered already).
  void set_barrier(bool on, uint8_t skip_bits = 0) {
    barrier_on_ = on;
    barrier_skip_ = skip_bits;
  }
  // obj's slot held old_value and now holds new_value.
  virtual void barrier_slow(GcHeader* /*obj*/, Word* /*slot*/, Word /*old_value*/,
                            Word /*new_value*/) {}
  virtual void remember_slow(GcHeader* /*obj*/) {}
  // Sets wanted_, then pokes the mutator's safe-point counter (any thread).
  void want_collection() {
    wanted_ = true;
    if (poke_) poke_->fetch_sub(kSafepointPoke, std::memory_order_relaxed);
  }
  // The collection wanted has been made (or, vcgc, the handover done).
  void clear_wanted() { wanted_ = false; }

  void trace_all_roots(Visitor& v);
  // A minor collection's roots: each source's trace_young_roots, and the
  // C++ handles.
  void trace_young_roots(Visitor& v);
  // The mark phase of the non-moving spaces: marks everything reachable
  // from the roots, with an explicit stack (no recursion). mark(h) marks h
  // and is true iff it was not marked yet. When the stack overflowed,
  // each_marked(f) must call f on every marked object of the collector's
  // spaces, whose references are traced again (MarkStack).
  template <class Mark, class EachMarked>
  void mark_from_roots(MarkStack& stack, Mark mark, EachMarked each_marked);
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

 private:
  // The filter's test. The header bits are read relaxed: vcgc's collector
  // thread writes colours into them while the mutator stores.
  bool barrier_wanted(const GcHeader* obj) const {
    return barrier_on_ && !(__atomic_load_n(&obj->gcbits, __ATOMIC_RELAXED) & barrier_skip_);
  }

  static inline AllocBuffer no_buffer_;  // empty: nothing fits (never written)
  AllocBuffer* buffer_ = &no_buffer_;
  AllocBuffer* own_buffer_ = &no_buffer_;  // the collector's, while suspended
  bool bump_suspended_ = false;
  bool barrier_on_ = false;
  uint8_t barrier_skip_ = 0;
  std::atomic<bool> wanted_{false};
  std::atomic<int64_t>* poke_ = nullptr;
  bool stress_ = false;
  KindInfo kinds_[kMaxKinds];
  std::vector<RootSource*> root_sources_;
  std::vector<Word*> handles_;
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

// A growable vector of roots (the macro expander's work lists,
// compiler/expand.cpp).
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

template <class Mark, class EachMarked>
void Heap::mark_from_roots(MarkStack& stack, Mark mark, EachMarked each_marked) {
  struct Marker final : Visitor {
    MarkStack& stack;
    Mark& mark;
    Marker(MarkStack& s, Mark& m) : stack(s), mark(m) {}
    void visit(Word* slot) override {
      GcHeader* h = header_of(*slot);
      if (mark(h)) stack.push(h);
    }
  } m(stack, mark);
  // Inlined in both loops: the drain is the mark phase's inner loop.
  auto trace = [&](GcHeader * h) __attribute__((always_inline)) {
    const KindInfo& k = kinds_[h->kind];
    if (k.ref_words) {  // inline (KindInfo::ref_words): no calls per slot
      Word* w = reinterpret_cast<Word*>(h + 1);
      for (unsigned i = 0; i < k.ref_words; ++i)
        if (is_ref(w[i])) m.visit(&w[i]);
    } else if (k.trace) {
      k.trace(h, m);
    }
  };
  auto drain = [&]() __attribute__((always_inline)) {
    while (!stack.empty()) trace(stack.pop());
  };
  trace_all_roots(m);
  drain();
  // Each pass traces what the dropped objects refer to; one that drops
  // more is followed by another. Each marks something new, so it ends.
  while (stack.take_overflow()) {
    each_marked([&](GcHeader* h) {
      trace(h);
      drain();
    });
  }
}

}  // namespace gc
