// gc/boehm.cpp — the Boehm-Demers-Weiser collector (libgc) as a baseline
// (`boehm`).
//
// libgc is conservative: it marks from every word that looks like a pointer
// into its heap, in its roots (data segments, registers, the machine stack)
// and in the objects it scans, and sweeps the rest; nothing moves. Objects
// come from GC_MALLOC, or GC_MALLOC_ATOMIC for kinds without a trace function
// (blobs, flonums, bignums), which libgc then never scans. Kinds with a
// finalizer (ports) get a libgc finalizer, run on demand after a collection.
//
// Our precise roots live where libgc does not look: the symbol table's
// vector, RootedVector items and the handle-slot vector (malloc'd), the VM's
// mmap'd stack, its handler vectors. A push-other-roots callback walks
// trace_all_roots of every live BoehmHeap and hands each slot to libgc. So
// are the references objects keep in malloc'd memory (a fiber's state),
// which libgc does not scan either: for each kind that has them, its
// KindInfo::trace_outside visits them as roots.
//
// When collections happen. The brief for this collector allowed allocate()
// to collect, on the argument that libgc scans the C++ stack. That is not
// enough: C++ code also keeps unrooted Values in malloc'd memory between
// allocations (the reader's element vector, the compiler's constants, the
// printer's stack), relying on rule 1 of gc/heap.h, and libgc cannot see
// malloc'd memory. So libgc's own collections stay disabled (GC_disable);
// allocate() only notes that one is wanted once libgc's own trigger would
// have fired (bytes allocated since the last collection above the heap size
// divided by its free-space divisor), and collect() enables libgc for one
// GC_gcollect at the safe point. The collection itself is libgc's.
//
// Its conservative scan of the machine stack is still what keeps the Values
// of C++ frames below a nested VM::apply (a macro expansion) alive. That scan
// assumes the machine stack it runs on is the thread's own: while a fiber
// runs, set_stack_bottom records the fiber's stack, and a collection points
// libgc at it (apply_stack_bottom).
//
// verify() has nothing to check: a conservative collector keeps no precise
// invariant over our references.
//
// Statistics. Collections and pauses are timed around GC_gcollect, so
// current-gc-milliseconds is real collection time; every collection is a
// full one (major; libgc's generational mode is off), so nothing is ever
// promoted and promoted bytes stay 0. What libgc cannot tell: the time of its
// lazy sweeping, done a block at a time inside later allocations, is not in
// any pause (nor in gc-ms); and the objects it keeps alive only through
// conservative false pointers count as live. Live bytes are the bytes of the
// objects marked by the last collection, found on demand (refresh_stats) by
// walking them; until then, the heap less its free blocks (an upper bound).
// Peak heap is libgc's heap size (GC_get_heap_size: blocks mapped, free or
// not), sampled every MiB allocated and after each collection.
#include <gc/gc.h>
#include <gc/gc_mark.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <mutex>
#include <unordered_set>
#include <vector>

#include "gc/heap.h"

namespace gc {
namespace {

constexpr uint64_t kMinTrigger = uint64_t(4) << 20;

class BoehmHeap;
// Every live BoehmHeap, whose roots push_roots pushes. Process-wide: libgc is
// one collector per process, and its push-other-roots hook takes no argument.
std::vector<BoehmHeap*> g_heaps;
GC_push_other_roots_proc g_previous_push = nullptr;

void push_roots();

void init_libgc() {
  static std::once_flag once;
  std::call_once(once, [] {
    GC_INIT();
    GC_disable();
    GC_set_finalize_on_demand(1);
    g_previous_push = GC_get_push_other_roots();
    GC_set_push_other_roots(push_roots);
  });
}

void run_finalizer(void* obj, void* heap);

class BoehmHeap final : public Heap {
 public:
  BoehmHeap() {
    init_libgc();
    g_heaps.push_back(this);
  }
  ~BoehmHeap() override {
    finalize_all();  // none left if the owner called it; libgc must not call back here
    g_heaps.erase(std::find(g_heaps.begin(), g_heaps.end(), this));
  }

  const char* name() const override { return "boehm"; }
  void set_stack_bottom(void* bottom) override { stack_bottom_ = bottom; }

  // Points libgc at the machine stack the running code is on (see above).
  void apply_stack_bottom() {
    static GC_stack_base original = [] {
      GC_stack_base sb{};
      GC_get_stack_base(&sb);
      return sb;
    }();
    GC_stack_base sb = original;
    if (stack_bottom_) sb.mem_base = stack_bottom_;
    GC_set_stackbottom(nullptr, &sb);
  }

  GcHeader* allocate(size_t bytes, uint8_t kind) override {
    bytes = round_object_size(bytes);
    const KindInfo& k = kind_info(kind);
    void* mem;
    if (k.trace) {
      mem = GC_MALLOC(bytes);  // zeroed
    } else {
      mem = GC_MALLOC_ATOMIC(bytes);
      if (mem) std::memset(mem, 0, bytes);
    }
    if (!mem) throw std::bad_alloc();
    auto* h = static_cast<GcHeader*>(mem);
    h->kind = kind;
    if (k.finalize) {
      GC_register_finalizer_no_order(mem, run_finalizer, this, nullptr, nullptr);
      finalizable_.insert(h);
    }
    GcStats& st = mutable_stats();
    st.bytes_allocated += bytes;
    st.objects_allocated++;
    st.allocations_by_kind[kind]++;
    if ((since_ >> 20) != ((since_ + bytes) >> 20)) note_peak();  // every MiB
    since_ += bytes;
    if (since_ > trigger_) want_collection();
    return h;
  }

  void collect() override {
    auto t0 = std::chrono::steady_clock::now();
    GC_word before = GC_get_gc_no();
    apply_stack_bottom();
    GC_enable();
    GC_gcollect();
    GC_disable();
    double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    GC_invoke_finalizers();
    clear_wanted();
    since_ = 0;
    size_t heap = GC_get_heap_size();
    size_t free = GC_get_free_bytes();
    trigger_ =
        std::max<uint64_t>(kMinTrigger, heap / std::max<GC_word>(1, GC_get_free_space_divisor()));
    uint64_t n = GC_get_gc_no() - before;
    GcStats& st = mutable_stats();
    st.collections += n;
    st.major_collections += n;
    st.record_pause(ms, true);
    st.bytes_live = heap > free ? heap - free : 0;
    live_exact_ = false;  // the marks are fresh; refresh_stats counts them
    note_peak();
  }

  // The bytes of the objects the last collection marked. Their mark bits stay
  // until the next collection clears them; objects allocated since are
  // unmarked, so the walk counts exactly what the last collection kept.
  void refresh_stats() override {
    note_peak();  // a program that has allocated less than a MiB has a peak too
    if (live_exact_ || stats().collections == 0) return;
    uint64_t live = 0;
    GC_call_with_alloc_lock(
        [](void* p) -> void* {
          GC_enumerate_reachable_objects_inner(
              [](void*, size_t bytes, void* sum) { *static_cast<uint64_t*>(sum) += bytes; }, p);
          return nullptr;
        },
        &live);
    mutable_stats().bytes_live = live;
    live_exact_ = true;
  }

  std::vector<std::string> verify() override { return {}; }

  // libgc finalizes an object only when a collection finds it dead; the
  // ones still allocated when the heap goes are finalized here (libgc's own
  // GC_finalize_all would take every heap's), their registrations dropped.
  void finalize_all() override {
    for (GcHeader* h : finalizable_) {
      GC_register_finalizer_no_order(h, nullptr, nullptr, nullptr, nullptr);
      kind_info(h->kind).finalize(h);
    }
    finalizable_.clear();
  }

  void finalize(GcHeader* h) {
    finalizable_.erase(h);
    kind_info(h->kind).finalize(h);
  }

  void push_roots() {
    struct Pusher final : Visitor {
      void visit(Word* slot) override { GC_push_all_eager(slot, slot + 1); }
    } p;
    trace_all_roots(p);
    for (int k = 0; k < kMaxKinds; ++k)
      if (auto outside = kinds()[k].trace_outside) outside(kinds()[k].outside_context, p);
  }

 private:
  void note_peak() {
    GcStats& st = mutable_stats();
    st.peak_heap_bytes = std::max<uint64_t>(st.peak_heap_bytes, GC_get_heap_size());
  }

  void* stack_bottom_ = nullptr;  // set_stack_bottom: null, the thread's own
  uint64_t since_ = 0;
  uint64_t trigger_ = kMinTrigger;
  bool live_exact_ = true;  // bytes_live is the marked bytes, not the upper bound
  // Objects with a finalizer not yet run. In malloc'd memory, which libgc
  // does not scan, so this does not keep them alive.
  std::unordered_set<GcHeader*> finalizable_;
};

void run_finalizer(void* obj, void* heap) {
  static_cast<BoehmHeap*>(heap)->finalize(static_cast<GcHeader*>(obj));
}

void push_roots() {
  if (g_previous_push) g_previous_push();
  for (BoehmHeap* h : g_heaps) h->push_roots();
}

}  // namespace

Heap* make_boehm_heap() { return new BoehmHeap(); }

}  // namespace gc
