// gc/heap.cpp — what every collector shares: root tracing, statistics, the
// registry of collectors by name.
#include "gc/heap.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <unordered_set>

namespace gc {

void MarkStack::push_slow(GcHeader* h) noexcept {
  size_t size = size_t(top_ - items_);
  if (size >= limit_) {
    overflowed_ = true;
    return;
  }
  size_t want = std::min(limit_, std::max<size_t>(cap_ * 2, 1024));
  void* p = std::realloc(items_, want * sizeof(GcHeader*));
  if (!p) {  // the C++ heap is out: h stays marked, to be rescanned
    overflowed_ = true;
    return;
  }
  items_ = static_cast<GcHeader**>(p);
  top_ = items_ + size;
  cap_ = want;
  end_ = items_ + want;
  *top_++ = h;
}

Heap* make_marksweep_heap();
Heap* make_gen_heap(bool concurrent);
Heap* make_boehm_heap();
Heap* make_vcgc_heap();

Heap* make_heap(const std::string& name) {
  if (name == "marksweep" || name == "ms") return make_marksweep_heap();
  if (name == "gen") return make_gen_heap(true);
  if (name == "gen-stw") return make_gen_heap(false);
  if (name == "boehm") return make_boehm_heap();
  if (name == "vcgc") return make_vcgc_heap();
  return nullptr;
}

std::vector<std::string> heap_names() { return {"gen", "gen-stw", "marksweep", "vcgc", "boehm"}; }

void Heap::remove_root_source(RootSource* s) {
  auto it = std::find(root_sources_.begin(), root_sources_.end(), s);
  if (it != root_sources_.end()) root_sources_.erase(it);
}

std::vector<std::string> Heap::verify_reachable(
    const std::function<bool(Word)>& contains,
    const std::function<bool(GcHeader*, GcHeader*, const VerifyProblem&)>& check) {
  struct Walker final : Visitor {
    Heap& heap;
    const std::function<bool(Word)>& contains;
    const std::function<bool(GcHeader*, GcHeader*, const VerifyProblem&)>& check;
    std::unordered_set<GcHeader*> seen;
    std::vector<GcHeader*> todo;
    std::vector<std::string> problems;
    GcHeader* from = nullptr;  // the object being traced; null for roots
    VerifyProblem problem = [this](const char* what) {
      if (problems.size() < 20)
        problems.push_back(std::string(what) + " (from " +
                           (from ? heap.kinds_[from->kind].name : "a root") + ")");
    };
    Walker(Heap& h, const std::function<bool(Word)>& c,
           const std::function<bool(GcHeader*, GcHeader*, const VerifyProblem&)>& k)
        : heap(h), contains(c), check(k) {}
    void visit(Word* slot) override {
      Word w = *slot;
      if (!contains(w)) return problem("dangling reference");
      GcHeader* h = header_of(w);
      if (h->kind >= kMaxKinds || !heap.kinds_[h->kind].name)
        return problem("object of unknown kind");
      if (check(h, from, problem) && seen.insert(h).second) todo.push_back(h);
    }
  } w(*this, contains, check);
  trace_all_roots(w);
  while (!w.todo.empty()) {
    w.from = w.todo.back();
    w.todo.pop_back();
    if (auto tr = kinds_[w.from->kind].trace) tr(w.from, w);
  }
  return w.problems;
}

void Heap::trace_all_roots(Visitor& v) {
  for (RootSource* s : root_sources_) s->trace_roots(v);
  for (Word* slot : handles_)
    if (is_ref(*slot)) v.visit(slot);
}

void Heap::trace_young_roots(Visitor& v) {
  for (RootSource* s : root_sources_) s->trace_young_roots(v);
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
  pauses_ms.add(ms);
  (major ? major_pauses_ms : minor_pauses_ms).add(ms);
}

size_t PauseRecord::bucket(double ms) {
  if (!(ms > kFirstMs)) return 0;
  double i = std::ceil(std::log(ms / kFirstMs) / std::log(kRatio));
  return std::min(kBuckets - 1, size_t(i));
}

double PauseRecord::upper_edge(size_t i) { return kFirstMs * std::pow(kRatio, double(i)); }

void PauseRecord::add(double ms) {
  ++count_;
  max_ = std::max(max_, ms);
  if (buckets_.empty()) {
    if (exact_.size() < kExact) {
      exact_.push_back(ms);
      return;
    }
    buckets_.assign(kBuckets, 0);  // from here on, counts only
    for (double e : exact_) buckets_[bucket(e)]++;
    exact_.clear();
    exact_.shrink_to_fit();
  }
  buckets_[bucket(ms)]++;
}

double PauseRecord::percentile(double p) const {
  if (count_ == 0) return 0;
  uint64_t rank = static_cast<uint64_t>(p / 100.0 * double(count_ - 1) + 0.5);
  rank = std::min(rank, count_ - 1);
  if (buckets_.empty()) {
    std::vector<double> sorted = exact_;
    std::nth_element(sorted.begin(), sorted.begin() + ptrdiff_t(rank), sorted.end());
    return sorted[rank];
  }
  if (rank == count_ - 1) return max_;
  uint64_t seen = 0;
  for (size_t i = 0; i < kBuckets; ++i) {
    seen += buckets_[i];
    if (seen > rank) return std::min(upper_edge(i), max_);
  }
  return max_;
}

double GcStats::run_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() -
                                                   g_process_start)
      .count();
}

double GcStats::gc_share() const {
  double run = run_ms();
  return run > 0 ? std::min(1.0, gc_ms / run) : 0;
}

}  // namespace gc
