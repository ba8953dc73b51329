// gc/gen.cpp — the generational collector, the default: `gen`, whose old
// generation a thread marks while the program runs (below), and `gen-stw`,
// the same whose major collections stop the world.
//
// Two generations. The young one is the nursery: eden, a list of chunks
// (nursery_size_ bytes each) that new objects are bump-allocated in, and two
// survivor spaces (semispaces, half a chunk each) where objects that
// survived a minor collection wait until their promotion age. The old one is
// a PageSpace (gc/pages.h, the allocator `marksweep` uses), which a major
// collection marks and sweeps in place, and the blocks: eden chunks promoted
// in place (below). Objects too big for the page allocator (its large-object
// space) are allocated in the old generation directly. Young objects with a
// finalizer (ports, fibers) are listed, and a minor collection finalizes
// those it did not copy.
//
// Rule 1 (allocate() never collects). When the eden chunk is full, allocate()
// takes a fresh chunk and asks for a collection; the chunks taken since the
// last collection all belong to eden and are all evacuated at the next safe
// point (collect_minor). Builtins can therefore allocate any amount between
// two safe points. Eden is zeroed kZeroBlock bytes at a time just ahead of
// the allocation pointer: eden_, the allocation buffer gen shares with the
// VM's inline path (gc/heap.h AllocBuffer), is the zeroed part of the current
// chunk, so the fast path is a compare, a bump and one header store, and no
// pause zeroes anything.
//
// Header bits (GcHeader::gcbits; kMarkBit is the PageSpace's; defined in
// gc/gen_promote.h):
//   kYoung       the object is in eden or a survivor space;
//   kForwarded   a young object already copied: its first payload word holds
//                the address of the copy (every kind has a payload word: the
//                allocator rounds objects up to 16 bytes);
//   kRemembered  an old object in remembered_ (so it is entered once);
//   age (4 bits) how many minor collections a young object has survived.
// The identity hash lives in the header and is copied with it, so it survives
// the moves.
//
// Minor collection (copying, after Cheney): every young object referenced
// from a root or from a remembered old object is copied, then the copies are
// traced until none is left; every reference to an evacuated object is
// rewritten to its copy. The roots are the ones that may refer to young
// objects (RootSource::trace_young_roots): the VM's symbol table gives only
// its symbols interned since, or still young at, the last minor collection,
// not its thousands of old ones (visiting those was nearly all of an empty
// minor collection's pause). A copy goes to the other survivor space (the
// to-space) with its age plus one, or to the old generation once that age
// reaches promote_age_ (or when the to-space is full: an early promotion).
// Unless the age was set (set_promote_age), it adapts (adapt_age): when most
// of the from-space's bytes survive their second collection too, the
// survivor space is only a second copy of what will be promoted anyway, and
// the next collections promote at the first survival, until one ages again
// to look.
//
// The copies wait on a stack to be traced, so a structure's copies end up
// near each other, in the order the major collection's marker (also a
// stack) visits them. (Copying depth first by slots, car before cdr, was
// tried: the program walked its trees no faster and marking was slower.)
// Then eden and the from-space are empty, and the spaces swap.
//
// Promotion in place (gc/gen_promote.h): past a copy budget, a minor
// collection promotes live eden objects where they are, and the eden chunks
// that hold them become blocks of the old generation.
//
// The write barrier (Heap::write -> barrier_slow, filtered on kYoung and
// kRemembered) keeps invariant 1 for stores into old objects. Stores that
// initialise a new object skip the barrier (vm/object.h), which is harmless
// for a young object but not for one allocated directly in the old
// generation: those are remembered when they are allocated, unless every
// store into them takes the barrier (allocate_barriered: a table's array
// and hash parts, whose thousands of immediates a minor collection would
// otherwise trace once each for nothing). A minor
// collection rebuilds the set: an old object it traces (a remembered one, or
// a copy it promoted) stays or becomes remembered iff a reference it holds
// now points at a survivor.
//
// Major collection: a minor one first, then mark from the roots (through the
// survivors too, which are not swept but may be the only holders of old
// objects) and sweep the old generation; the survivors' marks are cleared
// afterwards, and remembered objects found dead leave the set. It runs when
// the old generation's footprint (its pages' bytes in use, and its blocks
// whole) has grown past kGrowth times what it was after the last major one
// (at least kMinMajorTrigger), and under stress every
// kStressMajorEvery safe points. collect() (the `(gc)` builtin) promotes
// every survivor first, so that afterwards the whole heap is old and exact.
//
// The old generation is compacted by evacuation, not slid: its sweep
// returns pages left empty to a pool shared by all size classes (trimmed to
// what the generation grows by before the next major; the rest is unmapped),
// and measures fragmentation: the bytes free in pages that still hold live
// objects, as a share of the generation's memory (its blocks whole
// included: fragmentation()). When that share exceeds kCompactAbove (and
// kCompactMinBytes are free that way), the next stop-the-world major
// collection (gen-stw's; gen's concurrent mark does not compact but under
// stress or when asked: sweep_old says why) sets apart
// the pages at most kSparsePage full (PageSpace::plan_evacuation; pages holding an object with
// a finalizer stay put, as do large objects), moves their objects into the
// free cells of the others, leaving forwarding addresses, and rewrites every
// reference from the roots, the remembered set, the old objects and the
// survivors; the emptied pages join the pool. Sparse blocks are evacuated
// the same way, with the same thresholds (Blocks::plan_evacuation).
// Under stress every other major collection compacts, and every
// kStressInPlaceEvery-th minor collection promotes in place after copying
// two pairs' worth.
//
// Stress mode also poisons eden and the from-space after each minor
// collection and rotates between two eden chunks, so a reference a
// collection missed reads 0xdb bytes (an unknown kind) instead of a
// plausible new object.
//
// The concurrent major collection (`gen`; `gen-stw` is the same class
// without concurrent_). A major collection is due at the same trigger;
// instead of marking in the pause, the pause of the minor collection that
// finds it due takes the snapshot (start_marking): the blocks' sense
// flips, and every old
// object that a root, a survivor (all of them, live or not: eden is
// empty) or any fiber's state refers to is marked and stacked (grey).
// Then a marker thread traces from there while the program runs.
//   The invariant is the snapshot's (Yuasa), as vcgc's: every object
// reachable at the start is marked by the end. The paths from the roots
// at the start pass through roots, young objects and fibers, whose
// references were all taken at the snapshot, and through old objects,
// whose every store goes through the write barrier: while marking, the
// filter excuses young objects only (not remembered ones), and a store
// into an old object logs the referent it overwrites when that is old
// and unmarked (log_overwritten), for the marker to shade. What the
// program can reach later is either reachable at the start or newer, and
// newer old objects are born marked: copies and objects promoted in place
// by minor collections meanwhile (old_bits_, promoted_bits, and the block
// adopted counted as marked), large objects allocated old. So an old
// object still unmarked when the marker has run out of work and the log
// is empty is garbage. Young objects are never the marker's: it skips any
// reference to one (its kYoung bit, read atomically).
//   Minor collections run during the mark as before, with the marker held
// (hold_marker: it stops at its next slice of kMarkerSlice objects and
// waits), since they move young objects and rewrite old objects' slots;
// so the marker only ever reads old objects and young headers, never
// while they move. Its mark bits share a byte with the barrier's
// kRemembered, so both are set with atomic operations while it runs.
// A fiber's state changes without the barrier (trace_on_mutator): the
// marker marks a fiber but does not trace it; the snapshot took every
// fiber's references (KindInfo::trace_outside).
//   The end (end_marking), in a pause: at the first safe point after the
// marker, out of work, asks for one and the log handed over is empty, or
// when a minor collection finds nothing left to mark, or when the old
// generation has doubled since the start (the marker cannot keep up: the
// rest is marked in the pause). The log's last entries and any overflow
// of the mark stack are marked on the mutator; the remembered set loses
// its dead, the large objects and the blocks are swept, and the pages are
// swept in steps (PageSpace::begin_sweep): each minor collection after it
// sweeps pages for kSweepSlice (within kPauseTarget), allocation meanwhile taking swept pages'
// cells and fresh pages only, until none is left (finish_sweeping before
// anything that walks the pages; a mark that comes due meanwhile waits for
// the sweep, which takes longer steps until it is over). It compacts
// only when asked or under stress (sweep_old); a compaction then needs
// the pages swept first, and sweeps them in the pause; it rewrites the references of the
// survivors (unmarked here) only where they point into the old
// generation's live objects, and those of eden, whose objects all date
// from after the snapshot (the mark ends without emptying it).
// Finalizers run on the mutator, in the sweep. Under stress, every kStressCheckEvery-th mark is
// checked before its sweep (check_marked: every reachable old object
// marked), minor collections mark kStressAssist objects themselves (they
// come too close together for the marker to get a turn), and verify()
// reports what those checks found. before_fork() ends a mark and stops
// the thread; a child of fork starts its own at its first mark.
//
// Invariants, between collections (verify() checks 1 to 5):
//  1. Every old object that holds a reference to a young object has
//     kRemembered, and every object with kRemembered is in remembered_, once.
//  2. The header bits match the space: kYoung iff the object is in eden's
//     used part or the from-space; its age is 0 in eden, at least 1 in the
//     survivor space, and an old object has none; kInBlock iff it is in a
//     block.
//  3. No reachable object is forwarded (kForwarded exists only during a
//     collection).
//  4. No mark bit is set (but during a concurrent mark, which verify()
//     therefore ends first), except in blocks, where every object's mark bit is
//     the blocks' sense (Blocks::is_marked: marked as of the last major
//     collection, unmarked for the next, which flips the sense).
//  5. Every reference from a root or a reachable object points at an object
//     of a registered kind, in eden's used part, the from-space, the old
//     generation's pages or large objects, or a block (not at a filler).
//  6. eden_ ([top, limit), zeroed) lies in the current eden chunk, past
//     everything handed out from it; every chunk taken since the last
//     collection is eden.
//  7. No object with a finalizer is in a block: they are always copied
//     (CopyBudget::copies), so a block is freed without finalizing anything.
//     Every young object with a finalizer is in young_final_.
//  8. Blocks are never allocated into.
#include "gc/gen.h"

#include <pthread.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <new>
#include <thread>

#include "gc/gen_promote.h"
#include "gc/heap.h"
#include "gc/pages.h"

namespace gc {
namespace {

using namespace gen;

// One eden chunk. A larger one catches fewer structures half built (bench/gc's
// binary_trees), but each chunk promoted in place becomes a larger block,
// and a program whose long-lived data arrives steadily (list_churn) paid
// more work and memory than the trees saved; it is also the size of the L2
// cache where that was measured (docs/ARCHITECTURE.md, "Measurements behind
// the code").
constexpr size_t kDefaultNursery = size_t(1) << 20;
constexpr unsigned kDefaultPromoteAge = 2;
// Demographic feedback on the promotion age (after Ungar and Jackson's
// feedback-mediated tenuring): when at least kAgingUseless of the
// survivors' bytes survive their second minor collection too, waiting in
// the survivor space only copied them twice, so the next kProbeEvery minor
// collections promote at the first survival; then one ages again, to see
// whether the program has changed. A from-space smaller than kMinSample
// says too little either way. (--promote-age fixes the age instead.)
constexpr double kAgingUseless = 0.5;
constexpr unsigned kProbeEvery = 8;
constexpr size_t kMinSample = size_t(16) << 10;
constexpr size_t kZeroBlock = size_t(16) << 10;
// The old generation's footprint before the first major collection: high
// enough that a program which builds its data and keeps it (bench/engine's
// words.arc, a text's tokens) is not paying for a major collection that
// finds it all alive, as it did at half this.
constexpr uint64_t kMinMajorTrigger = uint64_t(32) << 20;
// The heap's growth after a major collection: fewer collections than at 2
// for the same peak on bench/gc's binary_trees, where 2.5 raised the peak
// (the figures: docs/ARCHITECTURE.md, "Measurements behind the code").
constexpr double kGrowth = 2.25;
constexpr uint64_t kStressMajorEvery = 32;
// A major collection compacts the old generation when the last sweep found
// more than this share of its bytes free in pages that still hold live
// objects; the pages (and blocks) it empties are those at most kSparsePage
// full.
constexpr double kCompactAbove = 0.25;
constexpr double kSparsePage = 0.5;
constexpr uint64_t kCompactMinBytes = uint64_t(1) << 20;  // less is not worth a pass
// release_spare_memory's compaction: the pages of an idle process are worth
// packing whenever their free cells (each below a page's bump cursor, so
// resident memory) come to this much.
constexpr uint64_t kReleaseCompactMinBytes = uint64_t(64) << 10;
constexpr int kPoison = 0xdb;
// Regions made ready (gc/pages.h prepare_regions) when a minor collection
// is asked for: the first touch of fresh memory is milliseconds on a
// virtual machine. Two: a pause may promote into old pages and take a
// fresh eden chunk (its last one promoted in place) besides, and a
// process's first collections find the rest of no region to cut them from.
constexpr size_t kReadyBeforePause = 2;
// The concurrent mark: the mutator's log goes to the marker this many
// entries at a time; the marker looks whether the mutator wants the heap
// every kMarkerSlice objects (the wait a minor collection may have to
// add to its pause); and under stress, the mutator marks kStressAssist
// objects at each minor collection.
constexpr size_t kLogChunk = 1024;
constexpr size_t kMarkerSlice = 256;
constexpr size_t kStressAssist = 4096;
// Under stress, every kStressCheckEvery-th concurrent mark is checked at
// its end (check_marked: a walk of the whole heap, too slow to run at every
// mark of a stress run; docs/ARCHITECTURE.md has the figure).
constexpr uint64_t kStressCheckEvery = 4;
// And the heap's invariants checked at every kStressCheckSnapshotEvery-th
// snapshot and every kStressCheckMinorEvery-th minor collection during a
// mark (check_handshake; under stress a mark spans dozens of them): each is
// a walk of the heap, too slow for the stress runs to make often
// (docs/ARCHITECTURE.md has the figures).
constexpr uint64_t kStressCheckSnapshotEvery = 32;
constexpr uint64_t kStressCheckMinorEvery = 1024;
// A sweep in steps (after gen's concurrent mark): each minor collection
// sweeps pages, kSweepPages at a time, until kSweepSlice has passed;
// kSweepCatchUp once a mark is due and waits for the sweep, unless the old
// generation has grown past kSweepOvershoot times the trigger (the rest is
// then swept in the pause).
constexpr size_t kSweepPages = 8;
// The sweep is paced, besides: each step takes at least its share of what
// is left to sweep over the minor collections the old generation's growth
// (kGrowthWeight: an average of the last ones') leaves until the trigger
// (or, past it, until the overshoot), so that it is over before a mark
// comes due rather than finished in that pause; over kMinSweepSteps at
// least, so that no step is the whole sweep. A block counts as
// kBlockPages pages.
constexpr double kGrowthWeight = 0.25;
constexpr double kMinSweepSteps = 8;
constexpr size_t kBlockPages = 16;
// But a step ends once the pause has lasted kPauseTarget, quota or not
// (its share is then left to the next steps, which the pace lengthens):
// a millisecond is the bound gen keeps its pauses' 99th percentile to,
// less a margin for what the pause does after the sweep.
constexpr auto kPauseTarget = std::chrono::microseconds(800);
// A mark the marker does not keep up with (the old generation has grown
// past kAssistAbove times its size at the mark's start): each minor
// collection marks for kMarkAssist itself, so that the mark ends before
// the generation doubles and the rest is marked in one pause.
constexpr double kAssistAbove = 1.5;
constexpr auto kMarkAssist = std::chrono::microseconds(400);
constexpr auto kSweepSlice = std::chrono::microseconds(150);
constexpr auto kSweepCatchUp = std::chrono::microseconds(300);
constexpr double kSweepOvershoot = 1.5;

// A survivor space: objects from start to top, packed.
struct Semispace {
  char* start = nullptr;
  size_t size = 0;
  char* top = nullptr;
};

// --gc-trace: a line on stderr for each pause, saying what it did and what
// it cost, its CPU time and page faults taken on the collecting thread
// (a loaded machine's preemption lengthens the wall time, not those) beside
// its length. The counts are set by every minor collection; the clocks are
// read only while tracing.
struct PauseTrace {
  bool on = false;
  const char* what = "";
  uint64_t eden = 0, survived = 0, promoted = 0, in_place = 0;
  size_t remembered = 0;
  double cpu_ms = 0;
  long faults = 0;
  // The CPU time of a pause's parts beside the minor collection: a sweep's
  // steps, the snapshot of a concurrent mark's beginning, the marking left
  // for its end, a compaction.
  double sweep_ms = 0, snapshot_ms = 0, mark_ms = 0, compact_ms = 0;

  explicit operator bool() const { return on; }
  static double thread_cpu_ms() {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
  }
  static long thread_faults() {
    rusage ru;
    getrusage(RUSAGE_THREAD, &ru);
    return ru.ru_minflt + ru.ru_majflt;
  }
  void begin() {
    cpu_ms = thread_cpu_ms();
    faults = thread_faults();
    eden = survived = promoted = in_place = remembered = 0;
    sweep_ms = snapshot_ms = mark_ms = compact_ms = 0;
  }
  // f(), its CPU time added to part while tracing.
  template <class F>
  void timed(double& part, F f) {
    if (!on) return f();
    double t = thread_cpu_ms();
    f();
    part += thread_cpu_ms() - t;
  }
  void minor(uint64_t e, uint64_t s, uint64_t p, uint64_t i) {
    eden = e;
    survived = s;
    promoted = p;
    in_place = i;
  }
  // Prints the pause that ends (the n-th collection), and begins the next
  // one's clocks (one safe point may end a mark and collect again).
  void print(uint64_t n, double ms, uint64_t old_bytes) {
    double cpu = thread_cpu_ms() - cpu_ms;
    long f = thread_faults() - faults;
    char parts[160] = "";
    int at = 0;
    auto part = [&](const char* name, double v) {
      if (v > 0 && at < int(sizeof parts))
        at += std::snprintf(parts + at, sizeof parts - size_t(at), "; %s %.3f ms", name, v);
    };
    part("sweep", sweep_ms);
    part("snapshot", snapshot_ms);
    part("mark", mark_ms);
    part("compaction", compact_ms);
    std::fprintf(stderr,
                 "gc %llu: %s: %.3f ms (cpu %.3f ms, %ld faults); eden %lluK: %lluK survived, "
                 "%lluK promoted, %lluK in place; %zu remembered; old %.1fM%s\n",
                 (unsigned long long)n, what, ms, cpu, f, (unsigned long long)(eden >> 10),
                 (unsigned long long)(survived >> 10), (unsigned long long)(promoted >> 10),
                 (unsigned long long)(in_place >> 10), remembered, double(old_bytes) / 1048576.0,
                 parts);
    begin();
  }
};

class GenHeap final : public Heap {
 public:
  explicit GenHeap(bool concurrent) : concurrent_(concurrent) {
    eden_.gcbits = kYoung;
    eden_.max_bytes = kMaxSmall;
    use_alloc_buffer(&eden_);
    set_barrier(true, kYoung | kRemembered);  // stores into old objects not yet remembered
  }
  ~GenHeap() override {
    stop_marker();
    for (Chunk& c : active_) munmap(c.start, c.size);
    for (Chunk& c : spare_) munmap(c.start, c.size);
    if (cur_.start) munmap(cur_.start, cur_.size);
    unmap_survivors();
  }

  const char* name() const override { return concurrent_ ? "gen" : "gen-stw"; }

  void set_nursery_size(size_t bytes) override {
    bytes = std::max(kMinNursery, (bytes + 4095) & ~size_t(4095));
    nursery_size_ = bytes;
    for (Chunk& c : spare_) munmap(c.start, c.size);
    spare_.clear();
    if (cur_.start && eden_.top == cur_.start && active_.empty()) {  // nothing allocated yet
      munmap(cur_.start, cur_.size);
      cur_ = Chunk{nullptr, 0, nullptr};
      eden_.top = eden_.limit = nullptr;
    }
    if (surv_[from_].top == surv_[from_].start) unmap_survivors();  // remapped at their new size
  }

  bool set_mark_stack_limit(size_t n) override {
    stack_.set_limit(n);
    return true;
  }

  bool set_promote_age(unsigned age) override {
    promote_age_ = std::clamp(age, 1u, kMaxPromoteAge);
    fixed_age_ = true;
    skip_aging_ = 0;
    return true;
  }

  GcHeader* allocate(size_t bytes, uint8_t kind) override { return allocate(bytes, kind, true); }
  GcHeader* allocate_barriered(size_t bytes, uint8_t kind) override {
    return allocate(bytes, kind, false);
  }
  // remember: an object allocated old is remembered (its initialising
  // stores skip the barrier), unless every store into it takes the barrier.
  GcHeader* allocate(size_t bytes, uint8_t kind, bool remember) {
    bytes = round_object_size(bytes);
    GcHeader* h;
    if (bytes > kMaxSmall) [[unlikely]] {
      h = allocate_old(bytes, remember);
      h->kind = kind;
    } else {
      if (size_t(eden_.limit - eden_.top) < bytes) [[unlikely]]
        refill(bytes);
      h = reinterpret_cast<GcHeader*>(eden_.top);
      eden_.top += bytes;
      h->kind = kind;  // the rest of the memory is zero already
      h->gcbits = kYoung;
      if (kinds()[kind].finalize) [[unlikely]]
        young_final_.push_back(h);
    }
    // Bytes and objects allocated are summed up from these (count_allocation).
    mutable_stats().allocations_by_kind[kind]++;
    return h;
  }

  void refresh_stats() override { count_allocation(); }
  uint64_t bytes_allocated_now() const override { return allocated_before_ + eden_bytes(); }

  void collect_minor() override {
    auto t0 = std::chrono::steady_clock::now();
    if (trace_) trace_.begin();
    if (marking_) return collect_while_marking(t0);
    minor(false);
    trace_.what = "minor";
    bool sweeping = old_.sweeping() || blocks_.sweeping();
    if (sweeping) {  // what promotion added since the last pause, the sweep aside
      uint64_t footprint = old_footprint();
      if (footprint > last_footprint_) sweep_growth_ += footprint - last_footprint_;
    }
    if (sweeping) trace_.timed(trace_.sweep_ms, [&] { sweep_step(kSweepSlice, t0); });
    bool major =
        old_footprint() > major_trigger_ || (stress() && ++stress_count_ % kStressMajorEvery == 0);
    if (major && concurrent_ && sweeping && !stress() &&
        old_footprint() < kSweepOvershoot * major_trigger_) {
      // The trigger is the last cycle's until the sweep in steps ends
      // (after_sweep sets the next from what it leaves), and finishing
      // the sweep here would be a pause of the heap's size: the mark
      // waits, the steps lengthened meanwhile.
      trace_.timed(trace_.sweep_ms, [&] { sweep_step(kSweepCatchUp, t0); });
      major = false;
    }
    if (major && concurrent_) {
      trace_.timed(trace_.sweep_ms, [&] { finish_sweeping(); });
      trace_.timed(trace_.snapshot_ms, [&] { start_marking(); });
      trace_.what = "minor, mark begins";
      major = false;  // the pause was a minor collection and the roots' snapshot
    } else if (major) {
      mark_sweep();
      trace_.what = "minor and major";
    }
    finish(t0, major);
  }

  void collect() override {
    if (trace_) trace_.begin();
    if (marking_) end_marking(std::chrono::steady_clock::now());
    finish_sweeping();
    auto t0 = std::chrono::steady_clock::now();
    minor(true);
    mark_sweep();
    trace_.what = "full";
    finish(t0, true);
  }

  void set_trace(bool on) override { trace_.on = on; }

  void before_fork() override {
    if (marking_) end_marking(std::chrono::steady_clock::now());
    stop_marker();  // a child of fork has no thread but the one that forked
  }

  // The full collection just made measured the bytes free between live
  // objects in the old generation's pages (its sweep writes the free lists
  // through them, so they are resident); past kReleaseCompactMinBytes, one
  // more collection compacts, so that the pages it empties go too. Then
  // the pooled pages are unmapped; spare eden chunks, the current one past
  // its bump pointer, empty survivor spaces and the never-used tails of the
  // pages the old generation bumps into stay mapped, their memory dropped
  // (it reads as zeros when next touched: eden zeroes ahead of its
  // allocation anyway, copies overwrite).
  void release_spare_memory() override {
    if (marking_) end_marking(std::chrono::steady_clock::now());
    finish_sweeping();
    if (old_.figures().free_partial_bytes > kReleaseCompactMinBytes) {
      compact_next_ = true;
      collect();
    }
    for (Chunk& c : spare_) drop_memory(c.start, c.size);
    if (cur_.start) {  // the chunk eden allocates in, past what it has handed out
      uintptr_t page = uintptr_t(sysconf(_SC_PAGESIZE));
      uintptr_t from = (reinterpret_cast<uintptr_t>(eden_.top) + page - 1) & ~(page - 1);
      uintptr_t to = reinterpret_cast<uintptr_t>(cur_.start + cur_.size);
      if (from < to) drop_memory(reinterpret_cast<void*>(from), to - from);
    }
    for (Semispace& sp : surv_)
      if (sp.start && sp.top == sp.start) drop_memory(sp.start, sp.size);
    old_.trim_pool(0);
    old_.release_tails();
    old_.release_memory();
    release_ready_regions();
    // The work lists keep the room of their largest collection: a burst of
    // connections (more live at once) grows them.
    for (auto* v : {&scanned_, &work_}) {
      v->clear();
      v->shrink_to_fit();
    }
    stack_.release_memory();
    remembered_.shrink_to_fit();
    young_final_.shrink_to_fit();
    budget_.release_memory();
  }

  std::vector<std::string> verify() override;
  std::vector<std::string> check_invariants(bool marking);
  // Old objects are unmarked between collections, so a sweep finalizes them
  // all; the young ones with a finalizer are listed.
  void finalize_all() override {
    if (marking_) end_marking(std::chrono::steady_clock::now());
    stop_marker();
    for (GcHeader* h : young_final_) kinds()[h->kind].finalize(h);
    young_final_.clear();
    old_.sweep(kinds());
  }

  void figures(GenFigures& f) const {
    f.promote_age = promote_age_;
    f.nursery_bytes = nursery_size_;
    f.survivor_bytes = survivor_size();
    f.survivor_used_bytes = size_t(surv_[from_].top - surv_[from_].start);
    f.old_bytes = old_bytes();
    f.block_bytes = blocks_.live_bytes();
    f.blocks = blocks_.count();
    f.promoted_in_place_bytes = budget_.total_in_place();
    f.survivor_overflow_bytes = overflow_bytes_;
    f.old = old_.figures();
    f.old.index_bytes = old_.index_bytes();
    f.compactions = compactions_;
    f.marking = marking_;
    f.sweeping = old_.sweeping() || blocks_.sweeping();
    f.kept_chunk_bytes = kept_chunk_bytes();
  }

 protected:
  // Invariant 1. The filter (set_barrier) has excused young and remembered
  // objects already.
  //
  // While the marker runs, the filter excuses young objects only (a store
  // into a remembered object must still log what it overwrites), and the
  // header bits are read and set atomically: the marker sets mark bits in
  // the same bytes.
  void remember_slow(GcHeader* obj) override {
    if (bits(obj) & kRemembered) return;
    set_bits(obj, kRemembered);
    remembered_.push_back(obj);
  }

  void barrier_slow(GcHeader* obj, Word*, Word old_value, Word value) override {
    if (marking_ && is_ref(old_value)) log_overwritten(header_of(old_value));
    if (!is_ref(value) || !(bits(header_of(value)) & kYoung)) return;
    remember_slow(obj);
  }

 private:
  // Evacuates a young object on first sight, and rewrites the slot to the
  // copy. Notes in young_seen_ that the slot now refers to a young object.
  class Evacuator final : public Visitor {
   public:
    explicit Evacuator(GenHeap& h) : heap_(h) {}
    void visit(Word* slot) override {
      GcHeader* h = header_of(*slot);
      uint8_t bits = h->gcbits;
      if (!(bits & kYoung)) return;
      if (bits & kForwarded) {
        Word to = reinterpret_cast<Word*>(h + 1)[0];
        *slot = to;
        if (header_of(to)->gcbits & kYoung) heap_.young_seen_ = true;
        return;
      }
      char* at = reinterpret_cast<char*>(h);
      if (at >= heap_.to_start_ && at < heap_.to_top_) {  // a copy made by this collection
        heap_.young_seen_ = true;
        return;
      }
      const KindInfo& k = heap_.kinds()[h->kind];  // (looked up once for all of these)
      if (!heap_.in_from_space(at) &&
          !heap_.budget_.copies(h, k, heap_.cur_.start, heap_.eden_.top)) {
        heap_.promote_in_place(h, k);  // where it is
        return;
      }
      *slot = heap_.evacuate(h, k);
    }
    // After a visit: whether the slot's referent stayed young (a copy in
    // the to-space) or is old (promoted, by copying or in place).
    bool young(Word w) const override { return header_of(w)->gcbits & kYoung; }

   private:
    GenHeap& heap_;
  };

  // Each survivor space is half an eden chunk: enough for what survives a
  // minor collection in a program whose young objects mostly die young, and
  // small enough that a burst of long-lived data (a big tree being built)
  // overflows into the old generation after one copy instead of being copied
  // again at the next collection (bench/gc, binary_trees).
  size_t survivor_size() const { return nursery_size_ / 2; }

  // Most objects are 16 to 32 bytes (a cons is 24): copied word by word
  // inline rather than through a call to memcpy.
  static void copy_object(GcHeader* to, const GcHeader* from, size_t bytes) {
    auto* d = reinterpret_cast<Word*>(to);
    auto* s = reinterpret_cast<const Word*>(from);
    d[0] = s[0];
    d[1] = s[1];
    if (bytes <= 16) return;
    d[2] = s[2];
    if (bytes <= 24) return;
    d[3] = s[3];
    if (bytes > 32) std::memcpy(d + 4, s + 4, bytes - 32);
  }

  size_t object_bytes(const GcHeader* h) const { return gen::object_bytes(kinds(), h); }

  // (During a minor collection: the from-space's bounds are noted at its
  // start, as the to-space's are.)
  bool in_from_space(const char* at) const { return at >= from_start_ && at < from_top_; }

  // A live eden object in a minor collection that promotes in place: old
  // from now on, where it is, and traced like a copy; its chunk becomes a
  // block (reset_eden). k is h's kind's. A promotion in place takes whole
  // runs of objects from one chunk: the chunk last marked promoted is
  // checked first, with no search.
  void promote_in_place(GcHeader* h, const KindInfo& k) {
    h->gcbits = blocks_.promoted_bits();
    budget_.promoted_in_place(gen::object_bytes(k, h));
    if (k.ref_words || k.trace) work_.push_back(h);  // traced(h)
    if (in(word_of(h), promoting_start_, promoting_end_)) return;
    Chunk* c = eden_chunk(word_of(h));
    if (!c) std::abort();  // not in eden: the collector's own error
    c->promoted = true;
    promoting_start_ = c->start;
    promoting_end_ = c == &cur_ ? eden_.top : c->used_end;
  }

  // k is h's kind's.
  Word evacuate(GcHeader* h, const KindInfo& k) {
    size_t bytes = gen::object_bytes(k, h);
    unsigned age = age_of(h) + 1;
    if (age > 1) survivors_kept_ += bytes;  // (from the from-space: eden's have age 0)
    GcHeader* copy;
    if (age < age_limit_ && size_t(to_end_ - to_top_) >= bytes) {
      copy = reinterpret_cast<GcHeader*>(to_top_);
      to_top_ += bytes;
      copy_object(copy, h, bytes);
      copy->gcbits = uint8_t(kYoung | age << kAgeShift);
      young_seen_ = true;
    } else {
      copy = old_.allocate_uninitialised(bytes);
      copy_object(copy, h, bytes);
      copy->gcbits = old_bits_;
      promoted_ += bytes;
      if (age < age_limit_) overflow_bytes_ += bytes;
    }
    if (k.ref_words || k.trace) work_.push_back(copy);  // traced(copy)
    h->gcbits |= kForwarded;
    reinterpret_cast<Word*>(h + 1)[0] = word_of(copy);
    return word_of(copy);
  }

  // Brings bytes_allocated and objects_allocated up to date: the fast path
  // counts only objects by kind, and eden's bytes are where eden_.top got to.
  void count_allocation() {
    GcStats& st = mutable_stats();
    st.bytes_allocated = allocated_before_ + eden_bytes();
    uint64_t n = 0;
    for (uint64_t k : st.allocations_by_kind) n += k;
    st.objects_allocated = n;
  }

  GcHeader* allocate_old(size_t bytes, bool remember) {
    allocated_before_ += bytes;
    GcHeader* h = old_.allocate(bytes);
    h->gcbits = old_bits_;
    if (remember) {  // its initialising stores skip the barrier
      h->gcbits |= kRemembered;
      remembered_.push_back(h);
    }
    direct_old_ += bytes;
    if (direct_old_ > nursery_size_) want_collection();
    note_peak();
    return h;
  }

  Chunk map_chunk() {
    return Chunk{static_cast<char*>(map_space(nursery_size_, 4096, true)), nursery_size_, nullptr};
  }

  // The zeroed part of the chunk is used up: zero the next block, or take
  // the next chunk.
  void refill(size_t bytes) {
    if (!cur_.start || size_t(cur_.start + cur_.size - eden_.top) < bytes) next_chunk();
    char* end = cur_.start + cur_.size;
    char* want = std::min(end, std::max(eden_.top + bytes, eden_.limit) + kZeroBlock);
    std::memset(eden_.limit, 0, size_t(want - eden_.limit));
    eden_.limit = want;
  }

  // The current chunk is full: keep it in eden and take another. The first
  // chunk filling up is what asks for a minor collection.
  void next_chunk() {
    if (cur_.start) {
      cur_.used_end = eden_.top;
      active_.push_back(cur_);
      want_collection();
      prepare_regions(kReadyBeforePause);
    }
    bool fresh = spare_.empty();
    if (!fresh) {
      cur_ = spare_.front();
      spare_.pop_front();
    } else {
      cur_ = map_chunk();
    }
    // A chunk just mapped is zero already (anonymous memory): the whole of it
    // is eden's zeroed part at once, and its first use writes no zeroes.
    eden_.top = cur_.start;
    eden_.limit = fresh ? cur_.start + cur_.size : cur_.start;
    note_peak();
  }

  void map_survivors() {
    for (Semispace& s : surv_) {
      s.size = survivor_size();
      s.start = s.top = static_cast<char*>(map_space(s.size, 4096, true));
    }
  }
  void unmap_survivors() {
    for (Semispace& s : surv_) {
      if (s.start) munmap(s.start, s.size);
      s = Semispace{};
    }
  }

  // Whether trace_copy has anything to do for h: a kind that holds no
  // references (a number, a blob) is not put on work_ at all.
  bool traced(const GcHeader* h) const {
    const KindInfo& k = kinds()[h->kind];
    return k.ref_words || k.trace;
  }

  // Traces an object the collection copied (old or young) or a remembered
  // one, and remembers an old one iff it still refers to a young one
  // (invariant 1).
  void trace_copy(GcHeader* o, Evacuator& e) {
    const KindInfo& k = kinds()[o->kind];
    if (k.ref_words) {  // inline, with no virtual call per slot
      young_seen_ = false;
      // Last word first: a cons's car is then the next object traced (work_
      // is a stack), so a list's elements are traced as they are reached,
      // and work_ holds a few objects for a list of any length rather than
      // one per element (a 300,000-word list: 2.4 MB of stack).
      Word* w = reinterpret_cast<Word*>(o + 1);
      for (unsigned i = k.ref_words; i-- > 0;)
        if (is_ref(w[i])) e.visit(&w[i]);
    } else {
      if (!k.trace) return;
      young_seen_ = false;
      k.trace(o, e);
    }
    if (young_seen_ && !(o->gcbits & (kRemembered | kYoung))) {
      o->gcbits |= kRemembered;
      remembered_.push_back(o);
    }
  }

  // Evacuates eden and the from-space; with promote_all, every survivor goes
  // to the old generation.
  void minor(bool promote_all) {
    if (!surv_[0].start) map_survivors();
    Semispace& from = surv_[from_];
    Semispace& to = surv_[1 - from_];
    to_start_ = to_top_ = to.start;
    from_start_ = from.start;
    from_top_ = from.top;
    to_end_ = promote_all ? to.start : to.start + to.size;
    age_limit_ = promote_all || skip_aging_ ? 1 : promote_age_;
    size_t survivors = size_t(from.top - from.start);
    survivors_kept_ = 0;
    budget_.begin(promote_all, stress(), nursery_size_);
    promoting_start_ = promoting_end_ = nullptr;
    uint64_t eden = eden_bytes();
    trace_.remembered = remembered_.size();
    Evacuator e(*this);
    trace_young_roots(e);
    scanned_.swap(remembered_);
    for (GcHeader* o : scanned_) o->gcbits &= ~kRemembered;
    for (GcHeader* o : scanned_) trace_copy(o, e);
    scanned_.clear();
    while (!work_.empty()) {
      GcHeader* o = work_.back();
      work_.pop_back();
      trace_copy(o, e);
    }
    uint64_t in_place = budget_.traced(promote_all, eden);
    trace_.minor(eden, uint64_t(to_top_ - to_start_), promoted_, in_place);
    promoted_ += in_place;
    blocks_.add_live(in_place);
    mutable_stats().bytes_promoted += promoted_;
    promoted_ = 0;
    if (!promote_all) adapt_age(survivors);
    finalize_young();
    // The originals of copies, in the chunks that may become blocks (after
    // finalize_young, which follows their forwarding addresses; the other
    // chunks are emptied).
    budget_.end();
    if (stress()) std::memset(from.start, kPoison, size_t(from.top - from.start));
    from.top = from.start;
    to.top = to_top_;
    from_ = 1 - from_;
    to_start_ = to_top_ = to_end_ = nullptr;
    from_start_ = from_top_ = nullptr;
    reset_eden();
  }

  // After a minor collection that found `survivors` bytes in the from-space
  // (kAgingUseless, above): promote at the first survival for a while if
  // most of them lived on, and age again after that.
  void adapt_age(size_t survivors) {
    if (fixed_age_) return;
    if (survivors >= kMinSample)
      skip_aging_ = double(survivors_kept_) >= kAgingUseless * double(survivors) ? kProbeEvery : 0;
    else if (skip_aging_) skip_aging_--;
  }

  // After the evacuation: a young object with a finalizer that was not
  // copied is dead, and is finalized before its memory is reused (fibers
  // give their stacks back here, so dropped fibers cost no major
  // collection); one that was promoted is the old generation's to sweep.
  // (None is promoted in place: invariant 7.)
  void finalize_young() {
    size_t keep = 0;
    for (GcHeader* h : young_final_) {
      if (h->gcbits & kForwarded) {
        GcHeader* copy = header_of(reinterpret_cast<Word*>(h + 1)[0]);
        if (copy->gcbits & kYoung) young_final_[keep++] = copy;
      } else {
        kinds()[h->kind].finalize(h);
      }
    }
    young_final_.resize(keep);
  }

  // The bytes allocated in eden since the last minor collection.
  uint64_t eden_bytes() const {
    uint64_t n = cur_.start ? uint64_t(eden_.top - cur_.start) : 0;
    for (const Chunk& c : active_) n += uint64_t(c.used_end - c.start);
    return n;
  }

  // Every eden chunk is empty again, or, after a promotion in place, a
  // block if it holds a live object. The chunk allocation resumes in is the
  // least recently used one; at most two are kept.
  void reset_eden() {
    if (cur_.start) {
      cur_.used_end = eden_.top;
      active_.push_back(cur_);
      cur_ = Chunk{nullptr, 0, nullptr};
    }
    count_allocation();
    for (Chunk& c : active_) allocated_before_ += uint64_t(c.used_end - c.start);
    for (Chunk& c : active_) {
      if (c.promoted) {
        blocks_.adopt(c, marking_);
        continue;
      }
      if (stress()) std::memset(c.start, kPoison, size_t(c.used_end - c.start));
      recycle_chunk(c.start, c.size);
    }
    active_.clear();
    if (stress() && spare_.size() < 2) spare_.push_front(map_chunk());
    eden_.top = eden_.limit = nullptr;
    next_chunk();
  }

  // An empty chunk goes back to the spares (at most spare_limit_), or to
  // the system.
  void recycle_chunk(char* start, size_t size) {
    if (size == nursery_size_ && spare_.size() < spare_limit_)
      spare_.push_back(Chunk{start, size, nullptr});
    else unmap_later(start, size);  // (called in pauses: an munmap there splits a huge page)
  }

  uint64_t old_bytes() const { return old_.bytes_in_use() + blocks_.live_bytes(); }
  // The spare eden chunks beyond the two eden turns over: memory kept for
  // the old generation's growth (after_sweep).
  uint64_t kept_chunk_bytes() const {
    return uint64_t(spare_.size() - std::min<size_t>(2, spare_.size())) * nursery_size_;
  }
  // The free cells of partly used pages (as of the last sweep) as a share
  // of the old generation's memory, blocks included: a share of the pages
  // alone would compact the few pages promotion by copying fills when
  // most of the generation is blocks.
  double fragmentation() const {
    const SpaceFigures& f = old_.figures();
    uint64_t held = f.page_bytes - f.pooled_bytes + f.large_bytes + blocks_.mapped_bytes();
    return held ? double(f.free_partial_bytes) / double(held) : 0;
  }
  // What the old generation holds: its bytes in use, the blocks whole.
  uint64_t old_footprint() const { return old_.bytes_in_use() + blocks_.mapped_bytes(); }

  // After a minor collection: mark everything reachable (old objects and
  // survivors), then sweep the old generation, compacting it when the last
  // sweep found it fragmented.
  void mark_sweep() {
    finish_sweeping();
    blocks_.begin_marking();
    mark_from_roots(
        stack_,
        [this](GcHeader* h) {
          if (blocks_.is_marked(h)) return false;
          if (Blocks::in_block(h)) blocks_.mark(h);
          else h->gcbits |= kMarkBit;
          return true;
        },
        [this](auto f) {  // the old generation and the survivors (eden is empty)
          auto marked = [&](GcHeader* h) {
            if (blocks_.is_marked(h)) f(h);
          };
          old_.for_each_object(marked);
          blocks_.for_each_object(kinds(), marked, false);
          for_each_survivor(marked);
        });
    sweep_old(true);
  }

  // After the mark (of either kind): the remembered set loses its dead,
  // the old generation is swept and compacted when fragmented, and the
  // next major collection's trigger set. survivors_marked: the mark went
  // through the survivors (the stop-the-world one) and left their marks,
  // which say which of them are live.
  // lazy: the end of gen's concurrent mark, whose pages are swept in steps
  // after it (sweep_step). It compacts only when asked (compact_next_) or
  // under stress: a compaction rewrites the references of every old
  // object, a pause that grows with the heap, and gen's pauses are to stay
  // short whatever its size. gen leaves fragmentation to the
  // stop-the-world collections (an idle process's release_spare_memory,
  // `(gc)`), and meanwhile the free cells of partly used pages take the
  // next promotions of their size class, as a non-moving collector's
  // (Go's) do.
  void sweep_old(bool survivors_marked, bool lazy = false) {
    size_t keep = 0;
    for (GcHeader* o : remembered_)
      if (blocks_.is_marked(o)) remembered_[keep++] = o;
    remembered_.resize(keep);
    const SpaceFigures& f = old_.figures();
    bool fragmented = fragmentation() > kCompactAbove && f.free_partial_bytes > kCompactMinBytes;
    bool compact =
        compact_next_ || (!lazy && fragmented) || (stress() && ++stress_majors_ % 2 == 0);
    compact_next_ = false;
    if (compact) compact = old_.plan_evacuation(kinds(), kSparsePage) > 0;
    lazy = lazy && !compact;
    if (lazy) old_.begin_sweep(kinds());
    else old_.sweep(kinds());
    // The blocks this one frees become spare eden chunks for now (trimmed
    // below).
    adopted_ = blocks_.take_adopted();
    spare_limit_ = std::max<size_t>(2, adopted_);
    bool blocks = false;
    if (lazy) {
      blocks_.begin_sweep();
    } else {
      blocks_.sweep(kinds(), recycler());
      blocks = blocks_.plan_evacuation(kSparsePage, kCompactMinBytes, stress());
    }
    if (compact || blocks)  // while survivors' marks are kept
      trace_.timed(trace_.compact_ms, [&] { compact_old(survivors_marked); });
    for_each_survivor([](GcHeader* o) { o->gcbits &= ~kMarkBit; });
    if (!lazy) after_sweep();
  }

  // A slice of a sweep in steps, at a minor collection that began at
  // pause_start: pages until slice has passed, and not past the pause's
  // kPauseTarget (but a unit at least).
  void sweep_step(std::chrono::microseconds slice,
                  std::chrono::steady_clock::time_point pause_start) {
    auto t0 = std::chrono::steady_clock::now();
    auto deadline = pause_start + kPauseTarget;
    // The pace (kGrowthWeight, above): the pages (and blocks) this step
    // sweeps whatever the time.
    size_t left = old_.unswept_pages() + kBlockPages * blocks_.left_to_sweep();
    double now = double(old_footprint());
    double trigger = double(major_trigger_);
    double limit = now < trigger ? trigger : kSweepOvershoot * trigger;
    double steps =
        std::max(kMinSweepSteps, (limit - now) / std::max(old_growth_, double(kPageSize)));
    size_t quota = size_t(double(left) / steps) + 1;
    for (size_t done = 0;;) {
      bool pages = old_.sweep_some(kinds(), kSweepPages);
      bool blocks = !blocks_.sweeping() || blocks_.sweep_some(kinds(), recycler(), 1);
      if (pages && blocks) return after_sweep();
      done += kSweepPages + kBlockPages;
      // Under stress, one step a time, so that promotions fall between.
      if (stress()) return;
      auto t = std::chrono::steady_clock::now();
      if ((done >= quota && t - t0 > slice) || t > deadline) return;
    }
  }

  // Whatever is left of a sweep in steps, now: before a mark, and before
  // anything that walks the old generation's objects or pages.
  void finish_sweeping() {
    if (!old_.sweeping() && !blocks_.sweeping()) return;
    old_.finish_sweep(kinds());
    while (blocks_.sweeping() && !blocks_.sweep_some(kinds(), recycler(), SIZE_MAX)) {
    }
    after_sweep();
  }

  // After the sweep: the next major collection's trigger, and the memory
  // kept for the growth until then.
  void after_sweep() {
    // What the mark left: the footprint less what promotion added while
    // the sweep went on in steps (as gen-stw's figure is taken at its
    // mark; counted, it raised each next trigger by the sweep's length
    // of promotion, and the heap grew cycle after cycle).
    uint64_t live = old_footprint();
    live -= std::min(live, sweep_growth_);
    sweep_growth_ = 0;
    major_trigger_ = std::max(kMinMajorTrigger, uint64_t(double(live) * kGrowth));
    // What the generation grows by before the next one is kept mapped, to
    // spare the page faults of fresh memory (each a pause's, or the
    // filler's, milliseconds on a virtual machine): spare eden chunks beyond
    // the two eden turns over, as many as that growth takes in chunks (or
    // as promotions in place took since the last one, if more: the chunks
    // the next cycle will adopt), and empty pages for the rest.
    uint64_t grow = major_trigger_ - std::min(major_trigger_, old_footprint());
    spare_limit_ = std::max<size_t>(2, std::max<uint64_t>(adopted_, grow / nursery_size_));
    while (spare_.size() > spare_limit_) {
      unmap_later(spare_.back().start, spare_.back().size);
      spare_.pop_back();
    }
    uint64_t spares = kept_chunk_bytes();
    old_.trim_pool(grow > spares ? grow - spares : 0, true);
  }

  // ---- The concurrent major collection (gen; not gen-stw) ----

  static uint8_t bits(const GcHeader* h) { return __atomic_load_n(&h->gcbits, __ATOMIC_RELAXED); }
  static void set_bits(GcHeader* h, uint8_t b) {
    __atomic_fetch_or(&h->gcbits, b, __ATOMIC_RELAXED);
  }

  // Greys h if it is old and unmarked: marks it, and stacks it for tracing
  // if it holds references. Young objects are the snapshot's roots, not
  // the marker's (start_marking).
  void shade(GcHeader* h) {
    uint8_t g = bits(h);
    if ((g & kYoung) || blocks_.marked_bits(g)) return;
    if ((g & (kInBlock | kYoung)) == kInBlock) blocks_.mark_atomic(h);
    else set_bits(h, kMarkBit);
    if (traced(h)) stack_.push(h);
  }

  class Shader final : public Visitor {
   public:
    explicit Shader(GenHeap& h) : heap_(h) {}
    void visit(Word* slot) override { heap_.shade(header_of(load_word(slot))); }

   private:
    GenHeap& heap_;
  };

  // The marker's step: h's references, greyed. An object whose references
  // change without the barrier (a fiber) is marked but not traced: its
  // references were taken at the snapshot (start_marking), and what it
  // holds since is either reachable from the snapshot or new.
  void trace_marked(GcHeader* h, Shader& s) {
    const KindInfo& k = kinds()[h->kind];
    if (k.trace_on_mutator) return;
    if (k.ref_words) {
      Word* w = reinterpret_cast<Word*>(h + 1);
      for (unsigned i = 0; i < k.ref_words; ++i) {
        Word v = load_word(&w[i]);
        if (is_ref(v)) shade(header_of(v));
      }
    } else if (k.trace) {
      k.trace(h, s);
    }
  }

  // The deletion barrier: the referent a store into an old object
  // overwrote, if it may still be unmarked, is logged for the marker.
  void log_overwritten(GcHeader* h) {
    uint8_t g = bits(h);
    if ((g & kYoung) || blocks_.marked_bits(g)) return;
    log_.push_back(h);
    if (log_.size() >= kLogChunk) {
      std::lock_guard lk(mu_);
      hand_over_log();
      cv_.notify_one();
    }
  }
  void hand_over_log() {  // under mu_
    inbox_.insert(inbox_.end(), log_.begin(), log_.end());
    log_.clear();
  }

  // The start of a concurrent major collection, in the pause of a minor
  // one (eden is empty): the snapshot. Every old object a root, a survivor
  // or a fiber's state refers to is greyed; from here the deletion barrier
  // keeps the snapshot whole, objects promoted or allocated old are born
  // marked, and the marker thread marks the rest.
  void start_marking() {
    finish_sweeping();  // (the marks of the last one are still on unswept pages)
    blocks_.begin_marking();
    marking_ = true;
    old_bits_ = kMarkBit;
    set_barrier(true, kYoung);
    Shader s(*this);
    trace_all_roots(s);
    for_each_survivor([this, &s](GcHeader* o) {
      const KindInfo& k = kinds()[o->kind];
      if (k.trace) k.trace(o, s);
    });
    // The references of every fiber, young or old, alive or not: their
    // stacks change without the barrier, so the marker never reads them.
    for (int i = 0; i < kMaxKinds; ++i)
      if (kinds()[i].trace_on_mutator && kinds()[i].trace_outside)
        kinds()[i].trace_outside(kinds()[i].outside_context, s);
    check_handshake(stress_snapshots_, kStressCheckSnapshotEvery);
    cycle_start_footprint_ = old_footprint();
    start_marker();
    {
      std::lock_guard lk(mu_);
      paused_ = false;
    }
    cv_.notify_one();
  }

  // A safe point while the marker runs: the nursery's collection if it is
  // due, with the marker held; the log handed over; and, once the marker
  // has nothing left, the end of the mark.
  void collect_while_marking(std::chrono::steady_clock::time_point t0) {
    bool nursery = !active_.empty() || direct_old_ > nursery_size_ || stress();
    if (!nursery) {
      bool done;
      {
        std::lock_guard lk(mu_);
        hand_over_log();
        done = !running_ && inbox_.empty() && stack_.empty();
      }
      if (done) return end_marking(t0);
      clear_wanted();
      cv_.notify_one();
      return;
    }
    hold_marker();
    minor(false);
    trace_.what = "minor, marking";
    // Under stress the minor collections come so close together that the
    // marker may never get the processor between them: the mutator marks
    // a share itself, so that a cycle ends.
    if (stress()) {
      check_handshake(stress_handshakes_, kStressCheckMinorEvery);
      drain_some(kStressAssist);
    } else if (old_footprint() > kAssistAbove * cycle_start_footprint_)
      trace_.timed(trace_.mark_ms, [&] { drain_for(kMarkAssist); });
    // A marker that cannot keep up (the old generation doubled since the
    // mark began, all of it promoted marked) is finished here, in a pause,
    // rather than letting the heap grow without bound.
    bool behind = old_footprint() > 2 * cycle_start_footprint_;
    bool done = inbox_.empty() && log_.empty() && stack_.empty();
    if (done || behind) {
      finish(t0, false);
      return end_marking(std::chrono::steady_clock::now());
    }
    {
      std::lock_guard lk(mu_);
      hand_over_log();
      paused_ = false;
    }
    cv_.notify_one();
    finish(t0, false);
  }

  // Marks on the mutator, the marker held, until slice has passed (or
  // nothing is left).
  void drain_for(std::chrono::microseconds slice) {
    auto t0 = std::chrono::steady_clock::now();
    do drain_some(kMarkerSlice);
    while (!stack_.empty() && std::chrono::steady_clock::now() - t0 < slice);
  }

  // Marks up to n objects on the mutator, the marker held.
  void drain_some(size_t n) {
    Shader s(*this);
    for (GcHeader* h : inbox_) shade(h);
    inbox_.clear();
    for (GcHeader* h : log_) shade(h);
    log_.clear();
    while (n-- > 0 && !stack_.empty()) trace_marked(stack_.pop(), s);
  }

  // The end of the mark, in a pause: whatever the marker left is marked
  // here (the log's last entries; everything, when the mark is finished
  // early), every object reachable is now marked or young, and the old
  // generation is swept as after a stop-the-world mark.
  void end_marking(std::chrono::steady_clock::time_point t0) {
    hold_marker();
    trace_.timed(trace_.mark_ms, [&] { drain_some(SIZE_MAX); });
    Shader s(*this);
    while (stack_.take_overflow()) {  // what the full stack dropped (MarkStack)
      auto retrace = [&](GcHeader* h) {
        if (blocks_.is_marked(h)) {
          trace_marked(h, s);
          drain_some(SIZE_MAX);
        }
      };
      old_.for_each_object(retrace);
      blocks_.for_each_object(kinds(), retrace, false);
    }
    if (stress() && ++stress_marks_ % kStressCheckEvery == 0) check_marked();
    // Until the sweep in steps is over and sets the next trigger from what
    // it leaves (after_sweep), one past what the generation holds now: a
    // mark that ended late (the generation grown past the trigger
    // meanwhile) must not make the next minor collection begin another,
    // finishing the sweep in its pause.
    major_trigger_ = std::max(major_trigger_, old_footprint() + old_footprint() / 4);
    sweep_old(false, true);
    marking_ = false;
    old_bits_ = 0;
    set_barrier(true, kYoung | kRemembered);
    double marker_ms = marker_cpu_ms();
    mutable_stats().gc_ms += marker_ms;
    mutable_stats().collector_thread_ms += marker_ms;
    trace_.what = "mark ends";
    finish(t0, true);
  }

  // Under stress, at every `every`-th handshake of a kind (a mark's
  // snapshot; a minor collection while it runs), counted in n, the marker
  // held: the heap checked as verify() does, but for the marks. A problem
  // is kept for verify() to report.
  void check_handshake(uint64_t& n, uint64_t every) {
    if (!stress() || ++n % every != 0) return;
    auto found = check_invariants(true);
    for (auto& p : found) mark_problems_.push_back("at a handshake: " + p);
  }

  // Under stress, the mark's result checked: every object reachable from
  // the roots and old is marked (a young one need not be). A problem is
  // kept for verify() to report.
  void check_marked() {
    auto found = verify_reachable(
        [this](Word w) {
          return in_eden(w) || in_survivors(w) || old_.contains(w) || blocks_.contains(w);
        },
        [this](GcHeader* h, GcHeader*, const VerifyProblem& problem) {
          if (!(h->gcbits & kYoung) && !blocks_.is_marked(h))
            problem("a reachable old object left unmarked by the concurrent mark");
          return true;
        });
    mark_problems_.insert(mark_problems_.end(), found.begin(), found.end());
  }

  // ---- The marker thread: started at the first concurrent mark, stopped
  // before a fork (before_fork) and with the heap ----

  void start_marker() {
    if (marker_.joinable()) return;
    quit_ = false;
    paused_ = true;
    marker_ = std::thread([this] { marker_main(); });
    pthread_getcpuclockid(marker_.native_handle(), &marker_clock_);
    marker_cpu_ms();  // the count starts here
  }

  void stop_marker() {
    if (!marker_.joinable()) return;
    {
      std::lock_guard lk(mu_);
      quit_ = true;
    }
    pause_request_.store(true, std::memory_order_relaxed);
    cv_.notify_one();
    marker_.join();
    pause_request_.store(false, std::memory_order_relaxed);
  }

  // The mutator takes the heap from the marker: when this returns, the
  // marker is waiting, holding no object, until the mutator lets it go on
  // (paused_ = false, under mu_, and a notify).
  void hold_marker() {
    if (!marker_.joinable()) return;
    pause_request_.store(true, std::memory_order_relaxed);
    std::unique_lock lk(mu_);
    paused_ = true;
    idle_cv_.wait(lk, [this] { return !running_; });
    pause_request_.store(false, std::memory_order_relaxed);
  }

  void marker_main() {
    // SCHED_BATCH, as vcgc's thread: its wake-ups never preempt the mutator.
    sched_param param{};
    pthread_setschedparam(pthread_self(), SCHED_BATCH, &param);
    Shader s(*this);
    std::unique_lock lk(mu_);
    for (;;) {
      cv_.wait(lk, [this] { return quit_ || (!paused_ && (!inbox_.empty() || !stack_.empty())); });
      if (quit_) return;
      for (GcHeader* h : inbox_) shade(h);
      inbox_.clear();
      running_ = true;
      lk.unlock();
      size_t n = 0;
      while (!stack_.empty()) {
        trace_marked(stack_.pop(), s);
        if (++n % kMarkerSlice == 0 && pause_request_.load(std::memory_order_relaxed)) break;
      }
      lk.lock();
      running_ = false;
      // Out of work: the mutator's next safe point hands over its log, or
      // ends the mark.
      if (stack_.empty() && inbox_.empty()) want_collection();
      idle_cv_.notify_all();
    }
  }

  // The marker thread's CPU time since the last call, in milliseconds.
  double marker_cpu_ms() {
    if (!marker_.joinable()) return 0;
    timespec ts{};
    if (clock_gettime(marker_clock_, &ts) != 0) return 0;
    double now = double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
    double d = now - marker_cpu_seen_;
    marker_cpu_seen_ = now;
    return d > 0 ? d : 0;
  }

  Blocks::Recycle recycler() {
    return [this](char* start, size_t size) { recycle_chunk(start, size); };
  }

  // Every object in eden's chunks, dead or alive (they are packed).
  template <class F>
  void for_each_eden_object(F f) {
    auto walk = [this, &f](char* p, char* end) {
      while (p < end) {
        auto* o = reinterpret_cast<GcHeader*>(p);
        p += object_bytes(o);
        f(o);
      }
    };
    for (const Chunk& c : active_) walk(c.start, c.used_end);
    if (cur_.start) walk(cur_.start, eden_.top);
  }

  template <class F>
  void for_each_survivor(F f) {
    const Semispace& s = surv_[from_];
    for (char* p = s.start; p < s.top;) {
      auto* o = reinterpret_cast<GcHeader*>(p);
      p += object_bytes(o);
      f(o);
    }
  }

  // Moves the objects of the old generation's sparse pages and blocks into
  // its other pages (forwarding addresses as in a minor collection), then
  // rewrites every reference to them: from the roots, the remembered set,
  // the old objects and the live survivors.
  void compact_old(bool survivors_marked) {
    auto move = [this](GcHeader* h) {
      size_t bytes = object_bytes(h);
      GcHeader* copy = old_.allocate_uninitialised(bytes);
      copy_object(copy, h, bytes);
      copy->gcbits &= ~(kInBlock | kMarkBit);  // (a block's mark bit is its sense)
      h->gcbits |= kForwarded;
      reinterpret_cast<Word*>(h + 1)[0] = word_of(copy);
    };
    old_.evacuate(move);
    blocks_.for_each_object(kinds(), move, true);
    struct Fixer final : Visitor {
      void visit(Word* slot) override {
        GcHeader* h = header_of(*slot);
        if (h->gcbits & kForwarded) *slot = reinterpret_cast<Word*>(h + 1)[0];
      }
    } fix;
    trace_all_roots(fix);
    for (GcHeader*& o : remembered_)
      if (o->gcbits & kForwarded) o = header_of(reinterpret_cast<Word*>(o + 1)[0]);
    auto retrace = [this, &fix](GcHeader* o) {
      if (auto tr = kinds()[o->kind].trace) tr(o, fix);
    };
    old_.for_each_object(retrace);
    blocks_.for_each_object(kinds(), retrace, false);
    // Only the marked survivors: a dead one may still point into a page the
    // sweep unmapped. Without their marks (the concurrent mark treats the
    // survivors as roots and marks none), every survivor's references, each
    // followed only into an object the old generation still holds.
    if (survivors_marked) {
      for_each_survivor([&retrace](GcHeader* o) {
        if (o->gcbits & kMarkBit) retrace(o);
      });
    } else {
      struct GuardedFixer final : Visitor {
        GenHeap& heap;
        explicit GuardedFixer(GenHeap& g) : heap(g) {}
        void visit(Word* slot) override {
          Word w = *slot;
          if (!heap.old_.contains(w) && !heap.blocks_.contains(w)) return;
          GcHeader* h = header_of(w);
          if (h->gcbits & kForwarded) *slot = reinterpret_cast<Word*>(h + 1)[0];
        }
      } guarded(*this);
      auto retrace_guarded = [this, &guarded](GcHeader* o) {
        if (auto tr = kinds()[o->kind].trace) tr(o, guarded);
      };
      for_each_survivor(retrace_guarded);
      // The concurrent mark ends without emptying eden: its objects, all
      // made since the snapshot, are rewritten too.
      for_each_eden_object(retrace_guarded);
    }
    old_.release_evacuated();
    blocks_.release_evacuated(recycler());
    compactions_++;
  }

  void finish(std::chrono::steady_clock::time_point t0, bool major) {
    clear_wanted();
    direct_old_ = 0;
    double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    GcStats& st = mutable_stats();
    st.collections++;
    (major ? st.major_collections : st.minor_collections)++;
    st.record_pause(ms, major);
    if (trace_) trace_.print(st.collections, ms, old_bytes());
    // The old generation's bytes in use (after a minor collection, these
    // still count the old objects that died since the last major one), and
    // the survivors.
    st.bytes_live = old_bytes() + size_t(surv_[from_].top - surv_[from_].start);
    if (concurrent_) {  // (the pace of a sweep in steps, which gen-stw never makes)
      uint64_t footprint = old_footprint();
      if (footprint > last_footprint_)
        old_growth_ += kGrowthWeight * (double(footprint - last_footprint_) - old_growth_);
      last_footprint_ = footprint;
    }
    st.fragmentation = fragmentation();
    st.compactions = compactions_;
    st.bytes_compacted = old_.figures().evacuated_bytes + blocks_.evacuated_bytes();
    note_peak();
  }

  // The heap: the old generation's bytes in use plus every nursery chunk and
  // survivor space mapped, used or not.
  void note_peak() {
    uint64_t nursery = (active_.size() + spare_.size() + (cur_.start ? 1 : 0)) * nursery_size_ +
                       (surv_[0].start ? 2 * surv_[0].size : 0);
    uint64_t total = old_.bytes_in_use() + nursery + blocks_.mapped_bytes();
    GcStats& st = mutable_stats();
    if (total > st.peak_heap_bytes) st.peak_heap_bytes = total;
  }

  // The eden chunk whose used part w points into; null if none. The chunk
  // found last is tried first: the objects a minor collection promotes in
  // place come in runs from one chunk, and eden may hold many chunks (a
  // builtin allocates past the nursery without a safe point: %rev-onto of
  // a million conses fills dozens), so a scan per object showed in
  // bench/engine/closures.arc's instructions. active_ does not change
  // while a collection runs, and the cache is checked, never trusted.
  Chunk* eden_chunk(Word w) {
    if (in(w, cur_.start, eden_.top)) return &cur_;
    if (last_chunk_ < active_.size() &&
        in(w, active_[last_chunk_].start, active_[last_chunk_].used_end))
      return &active_[last_chunk_];
    for (size_t i = 0; i < active_.size(); ++i)
      if (in(w, active_[i].start, active_[i].used_end)) {
        last_chunk_ = i;
        return &active_[i];
      }
    return nullptr;
  }
  // True iff w points into the used part of an eden chunk; of the from-space.
  bool in_eden(Word w) { return eden_chunk(w) != nullptr; }
  bool in_survivors(Word w) const { return in(w, surv_[from_].start, surv_[from_].top); }

  PauseTrace trace_;

  friend class Evacuator;
  // The nursery.
  AllocBuffer eden_;                // the zeroed part of cur_ (invariant 6), for try_bump
  Chunk cur_{nullptr, 0, nullptr};  // the eden chunk being allocated into
  std::vector<Chunk> active_;       // filled chunks of this nursery cycle
  size_t last_chunk_ = 0;           // eden_chunk's last find in active_
  std::deque<Chunk> spare_;         // empty chunks, least recently used first
  size_t spare_limit_ = 2;
  Semispace surv_[2];
  int from_ = 0;  // surv_[from_] holds the survivors; the other is empty
  size_t nursery_size_ = kDefaultNursery;
  unsigned promote_age_ = kDefaultPromoteAge;
  bool fixed_age_ = false;              // set by set_promote_age: no feedback
  unsigned skip_aging_ = 0;             // minor collections left that promote at the first survival
  std::vector<GcHeader*> young_final_;  // young objects with a finalizer (invariant 7)
  // The old generation: its pages, its blocks, and what refers from it to
  // the young one.
  PageSpace old_;
  Blocks blocks_;
  std::vector<GcHeader*> remembered_;  // invariant 1
  // A minor collection's: what it copies out of eden, the remembered set it
  // works through, the copies not yet traced; the to-space's copies, where
  // the next goes, its end, and the age at which a survivor is promoted.
  CopyBudget budget_;
  std::vector<GcHeader*> scanned_;
  std::vector<GcHeader*> work_;
  char* to_start_ = nullptr;
  char* to_top_ = nullptr;
  const char* from_start_ = nullptr;  // the from-space's used part
  const char* from_top_ = nullptr;
  // The used part of the eden chunk promote_in_place last marked promoted.
  const char* promoting_start_ = nullptr;
  const char* promoting_end_ = nullptr;
  char* to_end_ = nullptr;
  unsigned age_limit_ = 1;
  uint64_t survivors_kept_ = 0;  // bytes of the from-space copied out (adapt_age)
  bool young_seen_ = false;      // the Evacuator's note to trace_copy
  uint64_t promoted_ = 0;
  // A major collection's: the marker's stack, its trigger, and whether the
  // next one compacts whatever the fragmentation (release_spare_memory).
  MarkStack stack_;
  uint64_t major_trigger_ = kMinMajorTrigger;
  bool compact_next_ = false;
  double old_growth_ = 0;        // the old generation's growth at a collection (sweep_step)
  uint64_t last_footprint_ = 0;  // its footprint after the last one
  uint64_t sweep_growth_ = 0;    // promoted since a sweep in steps began (after_sweep)
  // The concurrent major collection's: whether one is marking, the
  // header bits of objects made old meanwhile (marked), the mutator's log
  // of overwritten referents, and the marker thread with what it shares
  // with the mutator under mu_: the log handed over (inbox_), whether the
  // mutator holds it (paused_), whether it is tracing (running_; then the
  // mark stack is its own).
  const bool concurrent_;
  bool marking_ = false;
  uint8_t old_bits_ = 0;
  uint64_t cycle_start_footprint_ = 0;
  std::vector<GcHeader*> log_;
  std::vector<GcHeader*> inbox_;
  std::vector<std::string> mark_problems_;
  std::thread marker_;
  std::mutex mu_;
  std::condition_variable cv_;       // the marker waits on it for work
  std::condition_variable idle_cv_;  // the mutator waits on it to hold the marker
  bool quit_ = false;
  bool paused_ = true;
  bool running_ = false;
  std::atomic<bool> pause_request_{false};
  clockid_t marker_clock_{};
  double marker_cpu_seen_ = 0;
  // Counts.
  uint64_t allocated_before_ = 0;  // bytes allocated but not in eden's chunks now
  uint64_t overflow_bytes_ = 0;
  uint64_t direct_old_ = 0;  // bytes allocated in the old generation since the last collection
  uint64_t compactions_ = 0;
  uint64_t stress_count_ = 0;
  uint64_t stress_majors_ = 0;
  uint64_t stress_marks_ = 0;
  uint64_t stress_snapshots_ = 0;
  uint64_t stress_handshakes_ = 0;
  size_t adopted_ = 0;  // chunks adopted as blocks before the last major collection
};

// A concurrent mark in progress is ended first (its marks are not
// invariant 4's), and what the checks at the handshakes of earlier marks
// found (check_marked, check_handshake) is reported with the rest.
std::vector<std::string> GenHeap::verify() {
  if (marking_) end_marking(std::chrono::steady_clock::now());
  finish_sweeping();
  std::vector<std::string> problems = mark_problems_;
  std::vector<std::string> now = check_invariants(false);
  problems.insert(problems.end(), now.begin(), now.end());
  return problems;
}

// Walks everything reachable from the roots (with its own visited set, so no
// header bits change) and checks invariants 1 to 5 of each reference; but
// for 4 while a concurrent mark is under way (marking), whose marks come
// and go.
std::vector<std::string> GenHeap::check_invariants(bool marking) {
  return verify_reachable(
      [this](Word w) {  // invariant 5
        return in_eden(w) || in_survivors(w) || old_.contains(w) || blocks_.contains(w);
      },
      [this, marking](GcHeader* h, GcHeader* from, const VerifyProblem& problem) {
        Word w = word_of(h);
        bool eden = in_eden(w), young = eden || in_survivors(w);
        if (h->gcbits & kForwarded) {  // 3
          problem("forwarded object reachable");
          return false;
        }
        bool mark = h->gcbits & kMarkBit;  // 4
        if (!marking && Blocks::in_block(h) && mark != blocks_.sense())
          problem("block mark bit against the sense");
        if (!marking && !Blocks::in_block(h) && mark) problem("mark bit left set");
        // 2
        if (young != bool(h->gcbits & kYoung)) problem("young bit does not match the space");
        if (young && (eden ? age_of(h) != 0 : age_of(h) == 0))
          problem("age does not match the space");
        if (!young && (h->gcbits & ~kInBlock) >> kAgeShift) problem("old object with an age");
        if (!young && bool(h->gcbits & kInBlock) != blocks_.contains(w))
          problem("block bit does not match the space");
        if (young && from && !(from->gcbits & (kYoung | kRemembered)))  // 1
          problem("old object holds a young reference but is not remembered");
        return true;
      });
}

}  // namespace

Heap* make_gen_heap(bool concurrent) { return new GenHeap(concurrent); }

bool gen_figures(const Heap& h, GenFigures& out) {
  auto* g = dynamic_cast<const GenHeap*>(&h);
  if (g) g->figures(out);
  return g != nullptr;
}

}  // namespace gc
