// gc/marksweep.cpp — the precise, stop-the-world mark-sweep collector.
//
// Layout. Every object lives in one PageSpace (gc/pages.h): size-classed
// pages for small objects, malloc'd blocks for large ones. Nothing moves.
//
// Collection. Mark from the roots with an explicit stack (no recursion, so
// deep lists cannot overflow the machine stack), then sweep the space:
// unmarked objects are finalized and freed, marks are cleared. The invariant
// the verifier checks afterwards: every reference held by a live object or a
// root points at the start of an allocated object.
//
// Pacing. A collection is wanted once the bytes allocated since the last one
// exceed max(kMinTrigger, live bytes after the last one).
#include <algorithm>
#include <chrono>
#include <unordered_set>

#include "gc/heap.h"
#include "gc/pages.h"

namespace gc {
namespace {

constexpr uint8_t kMarkBit = PageSpace::kMarkBit;
constexpr uint64_t kMinTrigger = 16u << 20;

class MarkSweepHeap final : public Heap {
 public:
  const char* name() const override { return "marksweep"; }

  GcHeader* allocate(size_t bytes, uint8_t kind) override {
    GcHeader* h = space_.allocate(bytes);
    bytes = round_object_size(bytes);
    h->kind = kind;
    GcStats& st = mutable_stats();
    st.bytes_allocated += bytes;
    st.objects_allocated++;
    st.allocations_by_kind[kind]++;
    since_ += bytes;
    // Peak heap: the most bytes of objects held, live or not yet swept.
    if (space_.bytes_in_use() > st.peak_heap_bytes) st.peak_heap_bytes = space_.bytes_in_use();
    if (since_ > trigger_) want_collection();
    return h;
  }

  void collect() override {
    auto t0 = std::chrono::steady_clock::now();
    mark();
    size_t live = space_.sweep(kinds());
    clear_wanted();
    since_ = 0;
    trigger_ = std::max<uint64_t>(kMinTrigger, live);
    space_.trim_pool(trigger_, true);  // the empty pages the next trigger_ bytes will take
    double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    GcStats& st = mutable_stats();
    st.collections++;
    st.major_collections++;
    st.record_pause(ms, true);  // every collection is major; none promotes
    st.bytes_live = live;
    st.fragmentation = space_.figures().fragmentation;
  }

  void release_spare_memory() override {
    space_.trim_pool(0);
    space_.release_memory();
    release_ready_regions();
  }
  bool set_mark_stack_limit(size_t n) override {
    stack_.set_limit(n);
    return true;
  }

  std::vector<std::string> verify() override;
  // No object is marked between collections, so a sweep finalizes them all.
  void finalize_all() override { space_.sweep(kinds()); }

 private:
  void mark() {
    mark_from_roots(
        stack_,
        [](GcHeader* h) {
          if (h->gcbits & kMarkBit) return false;
          h->gcbits |= kMarkBit;
          return true;
        },
        [this](auto f) {
          space_.for_each_object([&](GcHeader* h) {
            if (h->gcbits & kMarkBit) f(h);
          });
        });
  }

  PageSpace space_;
  MarkStack stack_;
  uint64_t since_ = 0;
  uint64_t trigger_ = kMinTrigger;
};

// Walks everything reachable (as mark does, with its own visited set so no
// header bits change) and checks each reference.
std::vector<std::string> MarkSweepHeap::verify() {
  return verify_reachable([this](Word w) { return space_.contains(w); },
                          [](GcHeader* h, GcHeader*, const VerifyProblem& problem) {
                            if (h->gcbits & kMarkBit) problem("mark bit left set");
                            return true;
                          });
}

}  // namespace

Heap* make_marksweep_heap() { return new MarkSweepHeap(); }

}  // namespace gc
