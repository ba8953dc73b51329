// gc/vcgc.cpp — the concurrent mark-sweep collector (`vcgc`), after
// Huelsbergen and Winterbottom, "Very Concurrent Garbage Collection" (ISMM
// 1998).
//
// Two threads. The mutator (the interpreter) allocates and stores; one
// collector thread marks and sweeps at the same time. Nothing moves. The
// mutator stops only at an epoch boundary (a handover, at a safe point) to
// hand its roots over; everything else it does for the collector is a store
// into a private buffer.
//
// Epochs and colours. Every object carries one of three colours in gcbits,
// c(k) = 1 + k mod 3 for epoch k. During epoch k, M = c(k) is "marked": new
// objects get it, and the collector turns the snapshot's objects from W =
// c(k-1) (what epoch k-1 marked, or allocated) to M. G = c(k-2) is garbage:
// the objects epoch k-1 left unmarked, which the collector frees during
// epoch k while it marks. The colours rotate instead of being cleared, so a
// sweep never writes a live object and marking never meets a garbage one.
//
// The handover. When the collector has run out of work it asks for a safe
// point (wanted_). There the mutator, holding the collector's lock:
//   1. ends epoch k, if its marking is complete: the collector is idle, its
//      inbox is empty and so is the mutator's barrier log. Whatever is still
//      W is unreachable (below); the sweep of that colour is queued, and the
//      mutator gives up the pages it allocates from so they can be swept.
//   2. starts epoch k+1 (if the pacer or stress mode asks for one): advances
//      the colour, copies every root word (RootSources, handles) into the
//      collector's inbox, and snapshots the references of trace_on_mutator
//      objects (fibers, whose stacks change without any barrier and are
//      swapped at each switch: the collector never reads them; it visits the
//      snapshot of a fiber when it marks the fiber).
// The pause is that copy, proportional to the roots (VM stack, globals,
// fiber stacks), not to the heap. The collector is woken only after the lock
// is released, and runs under SCHED_BATCH, so its wake-up does not preempt
// the mutator in the middle of a handover on a machine with no idle CPU.
//
// The invariant (snapshot at the beginning): at the end of epoch k, every
// object that was reachable at its start has colour M. The write barrier is
// a deletion barrier (Yuasa): Heap::write reads the old value of the slot,
// and while marking is active the mutator logs the old referent if it is not
// yet M. Proof sketch. Take X reachable at the snapshot through a path from
// a root. The roots' values were copied at the snapshot, so no later change
// to the VM stack, a C++ local or a fiber's stack (none of which has a
// barrier) can hide X; a later change to a heap slot on the path logs the
// slot's old referent, which the collector then marks and traces. So the
// collector reaches X. Conversely, the mutator can only reach objects that
// were reachable at the snapshot or are new, and new objects are born M:
// an object still W when marking is over is unreachable for good.
// Termination: marking is complete at the first handover that finds the
// collector idle and the log empty, because at that instant there is no
// grey object anywhere (worklist, inbox, log). The barrier logs only objects
// not yet M, each at most until the collector marks it, so the loop of
// "log, hand over, trace" runs out however hard the mutator writes.
//
// (A fiber referred to only from its own stack still dies: its snapshot is
// visited only if something else marks it. Taking every live fiber's state
// as a root, as boehm must, would keep such a fiber forever.) The cost is in
// the pause, which grows with the number of live fibers. A
// fiber could be snapshotted lazily, just before its first switch in the
// epoch, but only with a hook the VM calls before a switch changes its
// state (Heap::remember comes after).
//
// Finalizers run on the mutator. Objects of a kind with a finalizer (ports,
// fibers) and large objects are blocks of their own ("bigs", gc/pages.h's
// LargeBlock); the sweep passes the dead ones back, and the mutator
// finalizes and frees them at its next safe point (collect_minor), never
// inside an allocation.
//
// Allocation. Small objects live in 64 KiB pages, one size class each, laid
// out and swept cell by cell as gc/pages.h's (PageHeader, sweep_cells); but
// not through its PageSpace, which serves the stop-the-world collectors:
// these pages are swept concurrently, so their lists are this file's own. A
// page belongs to one thread at a time: to the mutator while it allocates
// from it (free list, then a bump cursor), to a sweeper (the collector, or
// the mutator sweeping lazily when it runs out) while it rebuilds its free
// list. Page lists move under one mutex, taken
// once per page. Stores are release and the collector's loads acquire
// (gc::load_word), so a new object's contents are visible before its
// reference is; colours are read and written with atomic byte accesses.
//
// Pacing. An epoch starts once the mutator has allocated max(kMinTrigger,
// live bytes) since the last one started. The heap may grow to heap_limit_
// (max(kMinHeapLimit, 2 x (live + trigger))); past it, while a cycle is
// running, the mutator waits for the collector (throttle) instead of mapping
// more: it hands over its log, ends a finished epoch itself (ending needs no
// roots), and sweeps pages lazily; only a cycle that frees nothing lets the
// heap grow. Such waits are recorded as pauses.
//
// Statistics. Pauses: handovers that end or start an epoch, (gc), and
// throttle waits. gc_ms: those pauses plus the collector thread's CPU time
// (CLOCK_THREAD_CPUTIME_ID), added when an epoch ends. collections: epochs
// completed (all major). bytes_live: bytes marked by the last completed
// epoch. peak_heap_bytes: pages mapped plus big blocks.
//
// Stress mode: every safe point is a handover, so epochs turn over as fast
// as the collector can finish them.
#include <pthread.h>
#include <sys/mman.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "gc/heap.h"
#include "gc/pages.h"

namespace gc {
namespace {

constexpr uint8_t kColourMask = 3;
constexpr size_t kLogChunk = 1024;  // barrier log entries per handover to the collector
constexpr uint64_t kMinTrigger = uint64_t(8) << 20;  // allocation between epoch starts
constexpr uint64_t kMinHeapLimit = uint64_t(64) << 20;
constexpr int kLazySweepPages = 16;  // pages the mutator sweeps per refill, at most
constexpr auto kThrottleSlice = std::chrono::microseconds(500);

uint8_t colour(uint64_t epoch) { return uint8_t(1 + epoch % 3); }
uint8_t colour_of(const GcHeader* h) {
  return __atomic_load_n(&h->gcbits, __ATOMIC_RELAXED) & kColourMask;
}
void set_colour(GcHeader* h, uint8_t c) { __atomic_store_n(&h->gcbits, c, __ATOMIC_RELAXED); }

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

uint64_t thread_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return uint64_t(ts.tv_sec) * 1000000000u + uint64_t(ts.tv_nsec);
}

// A page of gc/pages.h's layout (cells below nused have been handed out at
// least once; the ones above were never touched, zero; cell_size is 0
// while the page is empty and pooled), with what a sweep leaves for the
// page's next owner.
struct Page : PageHeader {
  uint32_t live = 0;         // live cells found by the last sweep
  FreeCell* free = nullptr;  // built by the last sweep, for the next owner
  void format(size_t c) {
    PageHeader::format(c);
    live = 0;
    free = nullptr;
  }
};
static_assert(sizeof(Page) <= PageHeader::kHeaderBytes);

// A trace_on_mutator object's references, copied at the handover.
struct SnapEntry {
  const GcHeader* obj = nullptr;
  size_t from = 0, to = 0;  // in snap_words_
};

// An object allocated by itself ("big"): a large one, or one with a
// finalizer.
using Big = LargeBlock;

// Rebuilds p's free list from the cells that are free or of the garbage
// colour. The caller owns p. Live cells may be marked meanwhile by the
// collector: colours are read atomically, and garbage is never marked.
void sweep_page(Page* p, uint8_t garbage) {
  SweptCells swept = sweep_cells(p, [garbage](GcHeader* h) {
    if (colour_of(h) != garbage) return true;
    h->kind = kFreeKind;
    set_colour(h, 0);
    return false;
  });
  p->free = swept.head;
  p->live = uint32_t(swept.live);
}

class VcgcHeap final : public Heap {
 public:
  VcgcHeap() = default;
  ~VcgcHeap() override {
    stop_collector();
    for (Page* p : pages_) munmap(p, kPageSize);
    for (auto* list : {&bigs_, &sweep_bigs_, &kept_bigs_, &dead_bigs_, &pending_fin_})
      for (Big* b : *list) free_large_block(b);
  }

  const char* name() const override { return "vcgc"; }
  bool fork_safe() const override { return false; }  // the collector thread

  GcHeader* allocate(size_t bytes, uint8_t kind) override {
    bytes = round_object_size(bytes);
    GcHeader* h;
    if (bytes > kMaxSmall || kinds()[kind].finalize) {
      h = allocate_big(bytes);
    } else {
      size_t c = bytes / 8;
      h = allocate_small(c);
    }
    h->kind = kind;
    set_colour(h, alloc_colour_);
    GcStats& st = mutable_stats();
    st.bytes_allocated += bytes;
    st.objects_allocated++;
    st.allocations_by_kind[kind]++;
    since_start_ += bytes;
    if (since_start_ > trigger_ && !want_epoch_) {
      want_epoch_ = true;
      want_collection();
    }
    if (kinds()[kind].trace_on_mutator) add_on_mutator(h);
    return h;
  }

  void request_collection() override {
    want_epoch_ = true;
    want_collection();
  }

  void collect_minor() override {
    reclaim(true);
    handover(stress() || want_epoch_);
  }

  // A full collection, finished before it returns: the epoch under way ends,
  // then a new one starts here and is marked and swept to the end.
  void collect() override {
    auto t0 = std::chrono::steady_clock::now();
    start_collector();
    std::unique_lock lk(mu_);
    finish_cycle(lk);
    start_epoch();
    finish_cycle(lk);
    unlock_and_wake(lk);
    reclaim(true);
    record(ms_since(t0));
  }

  std::vector<std::string> verify() override;

  void finalize_all() override {
    stop_collector();
    for (auto* list : {&bigs_, &sweep_bigs_, &kept_bigs_, &dead_bigs_, &pending_fin_}) {
      for (Big* b : *list) {
        GcHeader* h = b->object();
        if (auto fin = kinds()[h->kind].finalize) fin(h);
        free_large_block(b);
      }
      list->clear();
    }
    on_mutator_.clear();
    on_mutator_at_.clear();
  }

  void refresh_stats() override { note_peak(); }

 protected:
  // The deletion barrier's slow path: one colour test, and a push onto the
  // mutator's own log; a lock only once per kLogChunk entries.
  void barrier_slow(GcHeader*, Word*, Word old_value, Word) override {
    if (!is_ref(old_value) || colour_of(header_of(old_value)) == mark_colour_) return;
    log_.push_back(old_value);
    if (log_.size() >= kLogChunk) {
      std::unique_lock lk(mu_);
      flush_log();
      unlock_and_wake(lk);
    }
  }

 private:
  // ---- allocation (mutator) ----

  GcHeader* allocate_small(size_t c) {
    FreeCell* cell = free_[c];
    if (cell) {
      free_[c] = cell->next;
    } else {
      Page* p = cur_[c];
      if (!p || p->nused == p->ncells) p = refill(c);
      if ((cell = free_[c])) {
        free_[c] = cell->next;
      } else {
        cell = p->cell(p->nused++);  // never used: already zero
        return &cell->h;
      }
    }
    std::memset(static_cast<void*>(cell), 0, c * 8);
    return &cell->h;
  }

  // The page class c allocates from next, with its free list in free_[c]:
  // a page already swept, one the mutator sweeps itself, a pooled empty
  // one, or a new one (after a throttle if the heap is at its limit).
  Page* refill(size_t c) {
    cur_[c] = nullptr;
    for (bool throttled = false;;) {
      if (Page* p = take_page(c)) {
        cur_[c] = p;
        free_[c] = p->free;
        p->free = nullptr;
        return p;
      }
      if (throttled || heap_bytes_ + kPageSize <= heap_limit_) break;
      throttle(c);
      throttled = true;
    }
    void* mem = map_space(kPageSize, kPageSize);
    Page* p = new (mem) Page();
    p->format(c);
    pages_.push_back(p);
    page_set_.insert(reinterpret_cast<uintptr_t>(p));
    heap_bytes_ += kPageSize;
    note_peak();
    cur_[c] = p;
    free_[c] = nullptr;
    return p;
  }

  Page* take_page(size_t c) {
    std::unique_lock lk(mu_);
    for (int swept = 0;;) {
      if (!avail_[c].empty()) {
        Page* p = avail_[c].back();
        avail_[c].pop_back();
        return p;
      }
      if (unswept_[c].empty() || swept == kLazySweepPages) break;
      Page* p = unswept_[c].back();
      unswept_[c].pop_back();
      lk.unlock();
      sweep_page(p, sweep_colour_);
      ++swept;
      if (p->free || p->nused < p->ncells) return p;
      lk.lock();  // full: it stays in pages_ only, until the next sweep
    }
    if (!empty_.empty()) {
      Page* p = empty_.back();
      empty_.pop_back();
      lk.unlock();
      // A pooled page still holds its dead cells' bytes, and the bump
      // cursor hands cells out without clearing them: clear it once here.
      std::memset(p->cells(), 0, kPageSize - Page::kHeaderBytes);
      p->format(c);
      return p;
    }
    return nullptr;
  }

  GcHeader* allocate_big(size_t bytes) {
    if (heap_bytes_ + bytes > heap_limit_) {
      reclaim(false);
      if (heap_bytes_ + bytes > heap_limit_) {
        throttle(0);
        reclaim(false);
      }
    }
    Big* b = new_large_block(bytes);
    bigs_.push_back(b);
    heap_bytes_ += sizeof(Big) + bytes;
    note_peak();
    return b->object();
  }

  // Takes back the bigs the last sweep went through: the live ones rejoin
  // bigs_, the dead ones are freed, finalized first if finalize (only at a
  // safe point: finalizers never run inside an allocation).
  void reclaim(bool finalize) {
    std::vector<Big*> kept, dead;
    {
      std::lock_guard lk(mu_);
      if (kept_bigs_.empty() && dead_bigs_.empty() && (!finalize || pending_fin_.empty())) return;
      kept.swap(kept_bigs_);
      dead.swap(dead_bigs_);
      if (finalize) dead.insert(dead.end(), pending_fin_.begin(), pending_fin_.end());
      if (finalize) pending_fin_.clear();
    }
    bigs_.insert(bigs_.end(), kept.begin(), kept.end());
    for (Big* b : dead) {
      GcHeader* h = b->object();
      if (auto fin = kinds()[h->kind].finalize) {
        if (!finalize) {
          std::lock_guard lk(mu_);
          pending_fin_.push_back(b);
          continue;
        }
        fin(h);
      }
      if (kinds()[h->kind].trace_on_mutator) remove_on_mutator(h);
      heap_bytes_ -= sizeof(Big) + b->bytes;
      free_large_block(b);
    }
  }

  void note_peak() {
    GcStats& st = mutable_stats();
    if (heap_bytes_ > st.peak_heap_bytes) st.peak_heap_bytes = heap_bytes_;
  }

  // ---- handover (mutator; mu_ held where named _locked or given lk) ----

  // At a safe point: hands over the log; ends the epoch if its marking is
  // complete; starts the next if asked to.
  void handover(bool start) {
    auto t0 = std::chrono::steady_clock::now();
    std::unique_lock lk(mu_);
    bool did = false;
    if (busy_) {
      flush_log();
    } else if (marking_ && !log_.empty()) {
      flush_log();
    } else {
      if (marking_) {
        end_epoch();
        did = true;
      }
      if (start) {
        start_collector_locked();
        start_epoch();
        did = true;
      }
    }
    clear_wanted();  // the collector sets it again when it runs out of work
    unlock_and_wake(lk);
    if (did) record(ms_since(t0));
  }

  void flush_log() {
    if (log_.empty()) return;
    inbox_.push_back(std::move(log_));
    log_ = std::vector<Word>();
    log_.reserve(kLogChunk);
    wake_collector();
  }

  // The collector is woken once mu_ is released (unlock_and_wake), or just
  // before the mutator waits: woken while the lock is held, it would only
  // block on it, and on a busy machine its wake-up can preempt the mutator.
  void wake_collector() {
    busy_ = true;
    wake_ = true;
  }
  void unlock_and_wake(std::unique_lock<std::mutex>& lk) {
    bool wake = wake_;
    wake_ = false;
    lk.unlock();
    if (wake) cv_.notify_one();
  }
  void wake_before_waiting() {
    if (wake_) {
      wake_ = false;
      cv_.notify_one();
    }
  }

  // Epoch k's marking is complete: queue the sweep of what it left
  // unmarked, with every page the mutator allocates from.
  void end_epoch() {
    marking_ = false;
    set_barrier(false);
    GcStats& st = mutable_stats();
    st.collections++;
    st.major_collections++;
    st.bytes_live = marked_bytes_;
    uint64_t cpu = collector_cpu_ns_.load(std::memory_order_relaxed);
    st.gc_ms += double(cpu - cpu_counted_ns_) / 1e6;
    st.collector_thread_ms += double(cpu - cpu_counted_ns_) / 1e6;
    cpu_counted_ns_ = cpu;
    trigger_ = std::max<uint64_t>(kMinTrigger, marked_bytes_);
    heap_limit_ = std::max<uint64_t>(kMinHeapLimit, 2 * (marked_bytes_ + trigger_));
    sweep_colour_ = colour(epoch_ - 1);
    for (size_t c = 0; c < kSizeClasses; ++c) {
      cur_[c] = nullptr;
      free_[c] = nullptr;
      avail_[c].clear();
      unswept_[c].clear();
    }
    for (Page* p : pages_)
      if (p->cell_size) unswept_[p->size_class()].push_back(p);
    bigs_.insert(bigs_.end(), kept_bigs_.begin(), kept_bigs_.end());
    kept_bigs_.clear();
    sweep_bigs_.swap(bigs_);
    sweep_pending_ = true;
    wake_collector();
  }

  // Epoch k+1 begins: new colour, the roots copied into the inbox, the
  // trace_on_mutator objects snapshotted.
  void start_epoch() {
    ++epoch_;
    mark_colour_ = alloc_colour_ = colour(epoch_);
    marking_ = true;
    set_barrier(true);  // every store logs the old referent not yet M
    want_epoch_ = false;
    since_start_ = 0;
    marked_bytes_ = 0;
    struct Copier final : Visitor {
      std::vector<Word>& out;
      explicit Copier(std::vector<Word>& o) : out(o) {}
      void visit(Word* slot) override {
        Word w = load_word(slot);
        if (is_ref(w)) out.push_back(w);
      }
    };
    std::vector<Word> roots;
    Copier copy_roots(roots);
    trace_all_roots(copy_roots);
    snapshot_on_mutator(Copier(snap_words_));
    inbox_.push_back(std::move(roots));
    wake_collector();
  }

  // The references of every trace_on_mutator object, into snap_words_, with
  // an open-addressing table from object to its words for the collector
  // (no allocation per object: this is part of the pause).
  template <class V>
  void snapshot_on_mutator(V&& copier) {
    snap_words_.clear();
    size_t size = 16;
    while (size < 2 * on_mutator_.size()) size *= 2;
    snap_table_.assign(size, SnapEntry{});
    snap_mask_ = size - 1;
    for (GcHeader* h : on_mutator_) {
      size_t from = snap_words_.size();
      if (auto tr = kinds()[h->kind].trace) tr(h, copier);
      size_t i = snap_slot(h);
      while (snap_table_[i].obj) i = (i + 1) & snap_mask_;
      snap_table_[i] = SnapEntry{h, from, snap_words_.size()};
    }
  }
  size_t snap_slot(const GcHeader* h) const {
    return size_t((uintptr_t(h) >> 3) * 0x9e3779b97f4a7c15u >> 20) & snap_mask_;
  }
  const SnapEntry* snap_find(const GcHeader* h) const {
    if (snap_table_.empty()) return nullptr;
    for (size_t i = snap_slot(h);; i = (i + 1) & snap_mask_) {
      if (snap_table_[i].obj == h) return &snap_table_[i];
      if (!snap_table_[i].obj) return nullptr;
    }
  }

  void add_on_mutator(GcHeader* h) {
    on_mutator_at_[h] = on_mutator_.size();
    on_mutator_.push_back(h);
  }
  void remove_on_mutator(GcHeader* h) {
    auto it = on_mutator_at_.find(h);
    if (it == on_mutator_at_.end()) return;
    size_t i = it->second;
    on_mutator_at_.erase(it);
    GcHeader* last = on_mutator_.back();
    on_mutator_.pop_back();
    if (last != h) {
      on_mutator_[i] = last;
      on_mutator_at_[last] = i;
    }
  }

  // Waits (mu_ held through lk) until no epoch is marking and no sweep is
  // left, ending the epoch under way when its marking is complete.
  void finish_cycle(std::unique_lock<std::mutex>& lk) {
    for (;;) {
      if (busy_) {
        flush_log();
        wake_before_waiting();
        done_cv_.wait(lk, [this] { return !busy_; });
      } else if (marking_ && !log_.empty()) {
        flush_log();
      } else if (marking_) {
        end_epoch();
      } else {
        return;
      }
    }
  }

  // The heap is at its limit: wait for the collector instead of growing, in
  // slices, until memory for class c (0: a big object) comes free or the
  // cycle is over. An epoch whose marking is complete is ended here (that
  // needs no roots); with no cycle running, the next safe point starts one
  // and the heap grows meanwhile.
  void throttle(size_t c) {
    if (!want_epoch_) {
      want_epoch_ = true;
      want_collection();
    }
    if (!collector_.joinable()) return;
    auto t0 = std::chrono::steady_clock::now();
    bool stalled = false;
    std::unique_lock lk(mu_);
    for (;;) {
      if (!busy_) {
        if (!marking_) break;  // the cycle is over: what is left is live
        if (!log_.empty()) {
          flush_log();
          continue;
        }
        end_epoch();
        stalled = true;
      }
      flush_log();
      wake_before_waiting();
      if (memory_waiting(c)) break;
      waiting_ = true;
      done_cv_.wait_for(lk, kThrottleSlice);
      waiting_ = false;
      stalled = true;
      if (memory_waiting(c)) break;
    }
    unlock_and_wake(lk);
    if (stalled) record(ms_since(t0));
  }

  bool memory_waiting(size_t c) const {
    if (c == 0) return !dead_bigs_.empty();
    return !empty_.empty() || !avail_[c].empty() || !unswept_[c].empty();
  }

  void record(double ms) {
    mutable_stats().record_pause(ms, true);
    note_peak();
  }

  // ---- the collector thread ----

  void start_collector() {
    std::lock_guard lk(mu_);
    start_collector_locked();
  }
  void start_collector_locked() {
    if (!collector_.joinable()) collector_ = std::thread([this] { collector_main(); });
  }

  void stop_collector() {
    if (!collector_.joinable()) return;
    {
      std::lock_guard lk(mu_);
      stop_ = true;
      stopping_.store(true, std::memory_order_relaxed);
      cv_.notify_one();
    }
    collector_.join();
  }

  void collector_main() {
    // SCHED_BATCH: the collector's wake-ups never preempt the mutator (on a
    // machine with no idle CPU, they would land in the middle of a handover).
    sched_param param{};
    pthread_setschedparam(pthread_self(), SCHED_BATCH, &param);
    std::unique_lock lk(mu_);
    while (!stop_) {
      if (sweep_pending_) {
        uint8_t g = sweep_colour_;
        std::vector<Big*> bigs;
        bigs.swap(sweep_bigs_);
        lk.unlock();
        sweep_pages(g);
        std::vector<Big*> kept, dead;
        for (Big* b : bigs) (colour_of(b->object()) == g ? dead : kept).push_back(b);
        lk.lock();
        kept_bigs_.insert(kept_bigs_.end(), kept.begin(), kept.end());
        dead_bigs_.insert(dead_bigs_.end(), dead.begin(), dead.end());
        sweep_pending_ = false;
        continue;
      }
      if (!inbox_.empty()) {
        std::vector<std::vector<Word>> work;
        work.swap(inbox_);
        uint8_t mc = mark_colour_;
        lk.unlock();
        uint64_t bytes = mark(work, mc);
        lk.lock();
        marked_bytes_ += bytes;
        continue;
      }
      busy_ = false;
      collector_cpu_ns_.store(thread_cpu_ns(), std::memory_order_relaxed);
      want_collection();  // the mutator ends the epoch, or takes the dead bigs
      done_cv_.notify_all();
      cv_.wait(lk, [this] { return stop_ || busy_; });
    }
  }

  // Frees the garbage colour g in every unswept page, a page at a time.
  void sweep_pages(uint8_t g) {
    for (size_t c = 1; c < kSizeClasses; ++c) {
      for (;;) {
        Page* p;
        {
          std::lock_guard lk(mu_);
          if (unswept_[c].empty()) break;
          p = unswept_[c].back();
          unswept_[c].pop_back();
        }
        sweep_page(p, g);
        std::lock_guard lk(mu_);
        if (p->live == 0) {
          p->cell_size = 0;
          empty_.push_back(p);
        } else if (p->free || p->nused < p->ncells) {
          avail_[c].push_back(p);
        }
        if (waiting_) done_cv_.notify_all();
      }
    }
  }

  // Marks from the words handed over (roots, logged old values), then
  // drains the grey stack. Returns the bytes marked.
  uint64_t mark(std::vector<std::vector<Word>>& work, uint8_t mc) {
    struct Marker final : Visitor {
      std::vector<GcHeader*>& grey;
      uint8_t mc;
      Marker(std::vector<GcHeader*>& g, uint8_t c) : grey(g), mc(c) {}
      void shade(Word w) {
        GcHeader* h = header_of(w);
        if (colour_of(h) == mc) return;
        set_colour(h, mc);
        grey.push_back(h);
      }
      void visit(Word* slot) override {
        Word w = load_word(slot);
        if (is_ref(w)) shade(w);
      }
    } m(grey_, mc);
    for (auto& words : work)
      for (Word w : words)
        if (is_ref(w)) m.shade(w);
    uint64_t bytes = 0;
    for (size_t n = 0; !grey_.empty(); ++n) {
      if ((n & 4095) == 0 && stopping_.load(std::memory_order_relaxed)) break;
      GcHeader* h = grey_.back();
      grey_.pop_back();
      const KindInfo& k = kinds()[h->kind];
      bytes += round_object_size(k.size(h));
      if (k.trace_on_mutator) {
        if (const SnapEntry* e = snap_find(h))
          for (size_t i = e->from; i < e->to; ++i) m.shade(snap_words_[i]);
      } else if (k.trace) {
        k.trace(h, m);
      }
    }
    return bytes;
  }

  bool contains(Word w, const std::unordered_set<GcHeader*>& bigs) const;

  // ---- state ----
  // The mutator's own.
  Page* cur_[kSizeClasses] = {};
  FreeCell* free_[kSizeClasses] = {};
  std::vector<Page*> pages_;                // every page mapped
  std::unordered_set<uintptr_t> page_set_;  // the same, for verify
  std::vector<Big*> bigs_;                  // allocated since the last sweep began, or kept by it
  std::vector<GcHeader*> on_mutator_;       // objects of trace_on_mutator kinds not yet freed
  std::unordered_map<GcHeader*, size_t> on_mutator_at_;  // their index in on_mutator_
  std::vector<Word> log_;                                // the barrier's log
  uint64_t epoch_ = 0;
  uint8_t alloc_colour_ = colour(0);
  uint8_t mark_colour_ = colour(0);  // also read by the collector, under mu_
  bool marking_ = false;
  bool want_epoch_ = false;
  uint64_t since_start_ = 0;  // bytes allocated since the last epoch started
  uint64_t trigger_ = kMinTrigger;
  uint64_t heap_bytes_ = 0;
  uint64_t heap_limit_ = kMinHeapLimit;
  uint64_t cpu_counted_ns_ = 0;

  // Shared, under mu_.
  std::mutex mu_;
  std::condition_variable cv_;       // the collector waits here for work
  std::condition_variable done_cv_;  // the mutator waits here for the collector
  bool busy_ = false;                // the collector has work queued or in hand
  bool stop_ = false;
  bool sweep_pending_ = false;
  bool waiting_ = false;  // the mutator is throttled: wake it per page swept
  bool wake_ = false;     // work was queued: notify cv_ once mu_ is released
  uint8_t sweep_colour_ = 0;
  std::vector<std::vector<Word>> inbox_;      // roots and logs to mark from
  std::vector<Page*> unswept_[kSizeClasses];  // pages the current sweep has not reached
  std::vector<Page*> avail_[kSizeClasses];    // swept, with free cells, owned by nobody
  std::vector<Page*> empty_;                  // swept with no live cell: any class takes them
  std::vector<Big*> sweep_bigs_;              // the bigs the queued sweep is to look at
  std::vector<Big*> kept_bigs_, dead_bigs_;   // what the sweep found
  std::vector<Big*> pending_fin_;             // dead, to finalize at the next safe point
  uint64_t marked_bytes_ = 0;
  // Written by the mutator at epoch start, read by the collector while it
  // marks: the references of trace_on_mutator objects, [from, to) in words.
  std::vector<SnapEntry> snap_table_;
  size_t snap_mask_ = 0;
  std::vector<Word> snap_words_;

  // The collector's own.
  std::vector<GcHeader*> grey_;
  std::atomic<uint64_t> collector_cpu_ns_{0};
  std::atomic<bool> stopping_{false};
  std::thread collector_;
};

bool VcgcHeap::contains(Word w, const std::unordered_set<GcHeader*>& bigs) const {
  if (bigs.count(header_of(w))) return true;
  const PageHeader* p = PageHeader::of(w);
  return page_set_.count(reinterpret_cast<uintptr_t>(p)) && p->holds(w);
}

// Ends the cycle under way (marking complete, sweep done), then walks
// everything reachable, with its own visited set, on the mutator thread:
// each reference must point at an allocated object of a known kind whose
// colour is the current one (what the last epoch marked, or allocated since).
std::vector<std::string> VcgcHeap::verify() {
  if (collector_.joinable()) {
    std::unique_lock lk(mu_);
    finish_cycle(lk);
  }
  reclaim(false);
  std::unordered_set<GcHeader*> bigs;
  for (auto* list : {&bigs_, &pending_fin_})
    for (Big* b : *list) bigs.insert(b->object());
  return verify_reachable([this, &bigs](Word w) { return contains(w, bigs); },
                          [this](GcHeader* h, GcHeader*, const VerifyProblem& problem) {
                            if (colour_of(h) != alloc_colour_)
                              problem("reachable object left unmarked");
                            return true;
                          });
}

}  // namespace

Heap* make_vcgc_heap() { return new VcgcHeap(); }

}  // namespace gc
