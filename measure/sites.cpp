// measure/sites.cpp — the per-site counters (measure/sites.h).
#include "measure/sites.h"

#include <algorithm>

#include "vm/code.h"
#include "vm/string.h"

namespace vm {

SiteCounters::SiteCounters(gc::Heap& heap) : heap_(heap) { reset(); }

void SiteCounters::at(Code* c, uint32_t pc) {
  flush();
  code_ = c;
  pc_ = pc;
}

void SiteCounters::at_frame(const Value* base, const Insn* pc) {
  Code* c = code_of(base[-1]);
  at(c, uint32_t(pc - code_insns(c)));
}

void SiteCounters::snapshot() {
  for (int k = 0; k < kKindCount; ++k) seen_[k] = g_profile.type_counts[k];
}

void SiteCounters::flush() {
  uint64_t delta[kKindCount];
  bool any = false;
  for (int k = 0; k < kKindCount; ++k) {
    delta[k] = g_profile.type_counts[k] - seen_[k];
    any |= delta[k] != 0;
  }
  if (!any) return;
  uint32_t site = current_site();  // which tests types itself: not counted
  for (int k = 0; k < kKindCount; ++k)
    if (delta[k]) dispatches_[uint64_t(site) << 8 | uint64_t(k)] += delta[k];
  snapshot();
}

void SiteCounters::reset() {
  snapshot();
  cache_.clear();
  by_name_.clear();
  sites_.assign(1, Site{"(outside Arc)", "", 0});
  dispatches_.clear();
  allocations_.clear();
  collections_.clear();
  trigger_set_ = false;
}

uint32_t SiteCounters::current_site() {
  if (!code_) return 0;
  uint64_t epoch = heap_.stats().collections;
  if (epoch != epoch_) {  // code may have moved
    cache_.clear();
    epoch_ = epoch;
  }
  CodePc key{code_, pc_};
  if (auto it = cache_.find(key); it != cache_.end()) return it->second;
  // Resolving allocates nothing, but tests types (code_function_name):
  // flush() leaves those tests out.
  Site s{code_function_name(code_),
         TYPE(code_->file) == Kind::String ? string_utf8(code_->file) : "",
         code_line_at(code_, pc_ > 0 ? pc_ - 1 : 0)};
  std::string name = s.function + '\0' + s.file + '\0' + std::to_string(s.line);
  auto [it, added] = by_name_.emplace(name, uint32_t(sites_.size()));
  if (added) sites_.push_back(std::move(s));
  cache_.emplace(key, it->second);
  return it->second;
}

void SiteCounters::allocation(Kind k, size_t bytes, bool wanted) {
  uint32_t site = current_site();
  auto& a = allocations_[uint64_t(site) << 8 | uint64_t(k)];
  a.first++;
  a.second += bytes;
  if (wanted && !trigger_set_) {
    trigger_ = site;
    trigger_set_ = true;
  }
}

uint32_t SiteCounters::collection_site() {
  flush();
  return trigger_set_ ? trigger_ : current_site();
}

void SiteCounters::collection(uint32_t site, bool major) {
  auto& c = collections_[site];
  (major ? c.second : c.first)++;
  trigger_set_ = false;
  code_ = nullptr;  // moved: not resolved again
  snapshot();       // the collector's own type tests are no site's
}

std::vector<SiteCounters::Dispatches> SiteCounters::top_dispatches() const {
  std::vector<Dispatches> v;
  for (auto [key, n] : dispatches_) v.push_back({uint32_t(key >> 8), Kind(key & 0xff), n});
  std::sort(v.begin(), v.end(), [](const Dispatches& a, const Dispatches& b) {
    return a.count != b.count ? a.count > b.count
           : a.site != b.site ? a.site < b.site
                              : a.kind < b.kind;
  });
  return v;
}

std::vector<SiteCounters::Allocations> SiteCounters::top_allocations() const {
  std::vector<Allocations> v;
  for (auto& [key, a] : allocations_)
    v.push_back({uint32_t(key >> 8), Kind(key & 0xff), a.first, a.second});
  std::sort(v.begin(), v.end(), [](const Allocations& a, const Allocations& b) {
    return a.bytes != b.bytes ? a.bytes > b.bytes
           : a.site != b.site ? a.site < b.site
                              : a.kind < b.kind;
  });
  return v;
}

std::vector<SiteCounters::Collections> SiteCounters::top_collections() const {
  std::vector<Collections> v;
  for (auto& [site, c] : collections_) v.push_back({site, c.first, c.second});
  std::sort(v.begin(), v.end(), [](const Collections& a, const Collections& b) {
    uint64_t na = a.minor + a.major, nb = b.minor + b.major;
    return na != nb ? na > nb : a.site < b.site;
  });
  return v;
}

}  // namespace vm
