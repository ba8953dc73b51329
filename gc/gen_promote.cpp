// gc/gen_promote.cpp — see gen_promote.h.
#include "gc/gen_promote.h"

#include <sys/mman.h>

#include <algorithm>

namespace gc::gen {

// ---- CopyBudget ----

void CopyBudget::begin(bool promote_all, bool stress, size_t nursery_size) {
  in_place_ = !promote_all && !stress && survival_ >= kInPlaceAbove;
  all_in_place_ = false;
  left_ = promote_all ? SIZE_MAX
          : stress && ++stress_minors_ % kStressInPlaceEvery == 0
              ? kStressCopyBudget
              : std::min(kMaxCopyBudget, nursery_size / kCopyBudgetShare);
  start_ = left_;
  in_place_bytes_ = 0;
  // Room for the most it may copy (objects of 16 bytes at least) at once:
  // grown a push at a time, the list's copies and fresh pages were most of
  // a first collection's page faults.
  if (left_ != SIZE_MAX) copied_.reserve(left_ / 16 + 1);
}

uint64_t CopyBudget::traced(bool promote_all, uint64_t eden_bytes) {
  if (!promote_all && eden_bytes)
    survival_ = double(start_ - left_ + in_place_bytes_) / double(eden_bytes);
  if (!in_place_) return 0;
  total_ += in_place_bytes_;
  return in_place_bytes_;
}

void CopyBudget::end() {
  // The other chunks are emptied: their originals need no filler.
  if (in_place_)
    for (const Copied& c : copied_) make_filler(reinterpret_cast<char*>(c.from), c.bytes);
  copied_.clear();
  in_place_ = all_in_place_ = false;
}

void CopyBudget::release_memory() {
  copied_.clear();
  copied_.shrink_to_fit();
}

// ---- Blocks ----

Blocks::~Blocks() {
  for (Block& b : blocks_) munmap(b.start, b.size);
}

void Blocks::adopt(const Chunk& c, bool marking) {
  Block b{c.start, c.size, c.used_end, size_t(c.used_end - c.start)};
  if (marking) b.marked = 1;  // any but 0 (freed whole) and b.objects (left as it is)
  adopted_++;
  mapped_ += b.size;
  last_ = nullptr;  // the insertion may move the blocks
  blocks_.insert(std::upper_bound(blocks_.begin(), blocks_.end(), b,
                                  [](const Block& x, const Block& y) { return x.start < y.start; }),
                 b);
}

Block* Blocks::block_of(GcHeader* h) {
  char* at = reinterpret_cast<char*>(h);
  if (last_ && at >= last_->start && at < last_->end) return last_;
  auto it = std::upper_bound(blocks_.begin(), blocks_.end(), at,
                             [](char* a, const Block& b) { return a < b.start; });
  return last_ = &*(it - 1);
}

// One pass over a block's objects in address order: the unmarked ones (dead
// since the last sweep, or never reached when the block was promoted, so
// still young) and the fillers already there merge into fillers, one per
// run. Sets b.live (bytes) and b.objects.
void Blocks::sweep_block(const KindInfo* kinds, Block& b) {
  size_t live = 0;
  uint64_t objects = 0;
  char* run = nullptr;  // where the current run of dead objects starts
  for (char* p = b.start; p < b.end;) {
    auto* h = reinterpret_cast<GcHeader*>(p);
    size_t bytes;
    if (h->kind == kFreeKind) {
      bytes = filler_bytes(h);
      if (!run) run = p;
    } else if (is_marked(h)) {
      bytes = object_bytes(kinds, h);
      if (run) make_filler(run, size_t(p - run));
      run = nullptr;
      live += bytes;
      objects++;
    } else {
      bytes = object_bytes(kinds, h);
      if (!run) run = p;
    }
    p += bytes;
  }
  if (run) make_filler(run, size_t(b.end - run));
  b.live = live;
  b.objects = objects;
}

void Blocks::begin_sweep() {
  for (Block& b : blocks_) b.unswept = true;
  sweep_next_ = 0;
  sweeping_ = true;
}

bool Blocks::sweep_some(const KindInfo* kinds, const Recycle& recycle, size_t max_blocks) {
  // (An adoption inserts a block by address: those after it shift by one,
  // so the next one to look at may be one already swept, never one
  // skipped.)
  while (sweep_next_ < blocks_.size() && max_blocks > 0) {
    Block& b = blocks_[sweep_next_];
    if (!b.unswept) {
      ++sweep_next_;
      continue;
    }
    max_blocks--;
    if (b.marked == 0) {
      // Its chunk goes back now, not at the sweep's end: a sweep in steps
      // lasts most of a cycle, and the promotions meanwhile would take
      // fresh memory while the chunks freed waited.
      live_ -= std::min(live_, b.live);
      mapped_ -= b.size;
      recycle(b.start, b.size);
      blocks_.erase(blocks_.begin() + std::ptrdiff_t(sweep_next_));
      last_ = nullptr;
      continue;
    }
    b.unswept = false;
    if (b.marked != b.objects) sweep_block(kinds, b);
    ++sweep_next_;
  }
  if (sweep_next_ < blocks_.size()) return false;
  sweeping_ = false;
  live_ = 0;
  for (const Block& b : blocks_) live_ += b.live;
  return true;
}

// All of it at once: the steps with no limit (the rest of a sweep in
// steps, if one is under way).
void Blocks::sweep(const KindInfo* kinds, const Recycle& recycle) {
  if (!sweeping_) begin_sweep();
  sweep_some(kinds, recycle, SIZE_MAX);
}

bool Blocks::plan_evacuation(double max_occupancy, uint64_t min_bytes, bool stress) {
  uint64_t freed = 0;
  for (Block& b : blocks_) {
    b.evacuate = double(b.live) <= max_occupancy * double(b.end - b.start);
    if (b.evacuate) freed += b.size - b.live;
  }
  bool worth = freed > min_bytes || (stress && freed > 0 && ++stress_plans_ % 2 == 0);
  if (!worth)
    for (Block& b : blocks_) b.evacuate = false;
  return worth;
}

void Blocks::release_evacuated(const Recycle& recycle) {
  size_t keep = 0;
  for (Block& b : blocks_) {
    if (!b.evacuate) {
      blocks_[keep++] = b;
      continue;
    }
    live_ -= b.live;
    mapped_ -= b.size;
    evacuated_ += b.live;
    recycle(b.start, b.size);
  }
  blocks_.resize(keep);
  last_ = nullptr;
}

bool Blocks::contains(Word w) const {
  for (const Block& b : blocks_)
    if (in(w, b.start, b.end)) return header_of(w)->kind != kFreeKind;
  return false;
}

}  // namespace gc::gen
