// gc/heap.cpp — what every collector shares: root tracing, statistics, the
// registry of collectors by name.
#include "gc/heap.h"

#include <algorithm>

namespace gc {

Heap* make_marksweep_heap();
Heap* make_gen_heap();
Heap* make_boehm_heap();

Heap* make_heap(const std::string& name) {
  if (name == "marksweep" || name == "ms") return make_marksweep_heap();
  if (name == "gen") return make_gen_heap();
  if (name == "boehm") return make_boehm_heap();
  return nullptr;
}

std::vector<std::string> heap_names() { return {"marksweep", "gen", "boehm"}; }

void Heap::remove_root_source(RootSource* s) {
  auto it = std::find(root_sources_.begin(), root_sources_.end(), s);
  if (it != root_sources_.end()) root_sources_.erase(it);
}

void Heap::trace_all_roots(Visitor& v) {
  for (RootSource* s : root_sources_) s->trace_roots(v);
  for (Word* slot : handles_)
    if (is_ref(*slot)) v.visit(slot);
}

void GcStats::record_pause(double ms) {
  gc_ms += ms;
  max_pause_ms = std::max(max_pause_ms, ms);
  pauses_ms.push_back(ms);
}

double GcStats::pause_percentile(double p) const {
  if (pauses_ms.empty()) return 0;
  std::vector<double> sorted = pauses_ms;
  std::sort(sorted.begin(), sorted.end());
  size_t i = static_cast<size_t>(p / 100.0 * (sorted.size() - 1) + 0.5);
  return sorted[std::min(i, sorted.size() - 1)];
}

}  // namespace gc
