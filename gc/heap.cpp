// gc/heap.cpp — what every collector shares: root tracing, statistics, the
// registry of collectors by name.
#include "gc/heap.h"

#include <algorithm>
#include <chrono>

namespace gc {

Heap* make_marksweep_heap();
Heap* make_gen_heap();
Heap* make_boehm_heap();
Heap* make_vcgc_heap();

Heap* make_heap(const std::string& name) {
  if (name == "marksweep" || name == "ms") return make_marksweep_heap();
  if (name == "gen") return make_gen_heap();
  if (name == "boehm") return make_boehm_heap();
  if (name == "vcgc") return make_vcgc_heap();
  return nullptr;
}

std::vector<std::string> heap_names() { return {"marksweep", "gen", "vcgc", "boehm"}; }

void Heap::remove_root_source(RootSource* s) {
  auto it = std::find(root_sources_.begin(), root_sources_.end(), s);
  if (it != root_sources_.end()) root_sources_.erase(it);
}

void Heap::mark_from_roots(std::vector<GcHeader*>& stack, uint8_t mark_bit) {
  struct Marker final : Visitor {
    std::vector<GcHeader*>& stack;
    uint8_t bit;
    Marker(std::vector<GcHeader*>& s, uint8_t b) : stack(s), bit(b) {}
    void visit(Word* slot) override {
      GcHeader* h = header_of(*slot);
      if (h->gcbits & bit) return;
      h->gcbits |= bit;
      stack.push_back(h);
    }
  } m(stack, mark_bit);
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

void Heap::trace_all_roots(Visitor& v) {
  for (RootSource* s : root_sources_) s->trace_roots(v);
  for (Word* slot : handles_)
    if (is_ref(*slot)) v.visit(slot);
}

namespace {
// Read during static initialisation, before main: close enough to the start
// of the process for a share of run time.
const std::chrono::steady_clock::time_point g_process_start = std::chrono::steady_clock::now();
}  // namespace

void GcStats::record_pause(double ms, bool major) {
  gc_ms += ms;
  max_pause_ms = std::max(max_pause_ms, ms);
  pauses_ms.push_back(ms);
  (major ? major_pauses_ms : minor_pauses_ms).push_back(ms);
}

double GcStats::percentile(const std::vector<double>& v, double p) {
  if (v.empty()) return 0;
  std::vector<double> sorted = v;
  std::sort(sorted.begin(), sorted.end());
  size_t i = static_cast<size_t>(p / 100.0 * (sorted.size() - 1) + 0.5);
  return sorted[std::min(i, sorted.size() - 1)];
}

double GcStats::run_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() -
                                                   g_process_start).count();
}

double GcStats::gc_share() const {
  double run = run_ms();
  return run > 0 ? std::min(1.0, gc_ms / run) : 0;
}

}  // namespace gc
