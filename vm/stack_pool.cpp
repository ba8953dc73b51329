// vm/stack_pool.cpp — the fiber stack pool (the layout and the policies are
// described in stack_pool.h).
#include "vm/stack_pool.h"

#include <pthread.h>
#include <sanitizer/asan_interface.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cassert>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <new>
#include <stdexcept>
#include <string>

namespace vm {

namespace {

size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

StackGeometry make_geometry(const StackPoolConfig& c, size_t page) {
  if (c.boundary_offset >= page || c.boundary_offset % 16 != 0)
    throw std::invalid_argument(
        "stack pool: boundary offset must be a multiple of 16 below a page");
  StackGeometry g;
  g.boundary = round_up(c.machine_stack, page) + c.boundary_offset;
  g.slot_bytes = round_up(g.boundary + c.vm_stack, page);
  g.low_water = c.machine_reserve;
  if (g.low_water + 4096 > g.boundary || c.vm_stack < sizeof(Value) || c.initial_slots == 0 ||
      c.max_slots_per_allocation < c.initial_slots)
    throw std::invalid_argument("stack pool: inconsistent sizes");
  return g;
}

// MADV_FREE needs Linux 4.5; older kernels refuse it with EINVAL, and then
// MADV_DONTNEED (which frees at once, and zeroes) does the job.
void free_pages(void* p, size_t n) {
  static bool have_madv_free = true;  // a fact about the kernel, so process-wide
  if (have_madv_free && madvise(p, n, MADV_FREE) == 0) return;
  if (errno == EINVAL) have_madv_free = false;
  madvise(p, n, MADV_DONTNEED);
}

size_t resident_by_mincore(uintptr_t b, uintptr_t e, size_t page) {
  if (e <= b) return 0;
  std::vector<unsigned char> v((e - b) / page);
  if (mincore(reinterpret_cast<void*>(b), e - b, v.data()) != 0) return 0;
  size_t n = 0;
  for (unsigned char c : v) n += c & 1;
  return n * page;
}

// Accumulates one /proc/self/smaps mapping at a time against the pool's
// ranges (sorted). A mapping wholly inside the pool counts Rss - LazyFree;
// one that straddles the pool's edge (the kernel merged it with a foreign
// mapping, which MADV_NOHUGEPAGE makes unlikely) falls back to mincore on
// the part inside, lazily freed pages included.
struct SmapsScan {
  const std::vector<std::pair<uintptr_t, uintptr_t>>& ranges;
  size_t page;
  StackPoolStats& out;
  uintptr_t b = 0, e = 0;
  size_t rss = 0, lazy = 0;

  void finish() {
    if (e == 0) return;
    bool contained = false, overlaps = false;
    for (auto [rb, re] : ranges) {
      if (b >= rb && e <= re) contained = true;
      if (b < re && e > rb) overlaps = true;
    }
    if (contained) {
      out.resident_bytes += (rss - std::min(rss, lazy)) << 10;
    } else if (overlaps) {
      for (auto [rb, re] : ranges)
        out.resident_bytes += resident_by_mincore(std::max(b, rb), std::min(e, re), page);
    }
    out.mappings += overlaps;
    e = 0;
  }

  void line(const std::string& l) {
    size_t sp = l.find(' ');
    if (sp == std::string::npos) return;
    if (l[sp - 1] != ':') {  // a mapping's header: "start-end perms ..."
      finish();
      unsigned long lb, le;
      if (std::sscanf(l.c_str(), "%lx-%lx", &lb, &le) == 2) b = lb, e = le, rss = lazy = 0;
    } else if (l.compare(0, 4, "Rss:") == 0) {
      rss = std::stoul(l.substr(4));
    } else if (l.compare(0, 9, "LazyFree:") == 0) {
      lazy = std::stoul(l.substr(9));
    }
  }
};

}  // namespace

bool parse_stack_release(const char* text, StackRelease& out) {
  for (StackRelease r : {StackRelease::keep, StackRelease::madvise, StackRelease::munmap})
    if (std::strcmp(text, stack_release_name(r)) == 0) return out = r, true;
  return false;
}

const char* stack_release_name(StackRelease r) {
  switch (r) {
    case StackRelease::keep: return "keep";
    case StackRelease::madvise: return "madvise";
    case StackRelease::munmap: return "munmap";
  }
  return "?";
}

StackPool::StackPool(const StackPoolConfig& config)
    : config_(config), page_(size_t(sysconf(_SC_PAGESIZE))) {
  geo_ = make_geometry(config_, page_);
}

StackPool::~StackPool() {
  while (!allocations_.empty()) unmap(allocations_.back());
}

StackSlot* StackPool::acquire() {
  if (!vacant_) expand();
  StackSlot* s = vacant_;
  if (warm_ == 0) ++s->owner_->held;            // a cold slot becomes held again
  else if (--warm_ == 0) last_warm_ = nullptr;  // a warm one was held all along
  unlink_vacant(s);
  s->in_use_ = true;
  s->trimmed_ = false;
  ++in_use_;
  return s;
}

// The released slot joins the warm window at the free list's head; the
// slot that falls out of the window cools (is advised or lets its
// allocation go). Without a window it cools at once.
void StackPool::release(StackSlot* s) {
  assert(s && s->in_use_);
  s->in_use_ = false;
  --in_use_;
  push_vacant(s);
  if (config_.release == StackRelease::keep || config_.warm_slots == 0) return cool(s);
  if (warm_ == config_.warm_slots) {
    StackSlot* out = last_warm_;
    last_warm_ = out->prev_;
    --warm_;
    cool(out);  // cannot unmap s: s's allocation still holds s
  }
  if (warm_++ == 0) last_warm_ = s;
}

void StackPool::cool(StackSlot* s) {
  StackAllocation* a = s->owner_;
  --a->held;
  if (config_.release == StackRelease::madvise) free_pages(s->base_, geo_.slot_bytes);
  if (config_.release == StackRelease::munmap && a->held == 0) unmap(a);
}

// Maps as many slots as the pool has (Ruby's doubling), within the bounds.
void StackPool::expand() {
  size_t n = std::clamp(slots_, config_.initial_slots, config_.max_slots_per_allocation);
  size_t guard = config_.guard_page ? page_ : 0;
  size_t bytes = guard + n * geo_.slot_bytes;
  void* mem = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mem == MAP_FAILED) throw std::bad_alloc();
  madvise(mem, bytes, MADV_NOHUGEPAGE);  // advisory: failure only costs memory
  if (guard && mprotect(mem, guard, PROT_NONE) != 0) {
    munmap(mem, bytes);
    throw std::bad_alloc();
  }
  auto* a = new StackAllocation{static_cast<std::byte*>(mem), bytes, &geo_, n, 0, new StackSlot[n]};
  allocations_.push_back(a);
  slots_ += n;
  // Pushed high to low, so slots are handed out in address order.
  for (size_t i = n; i-- > 0;) {
    StackSlot& s = a->slots[i];
    s.base_ = a->begin + guard + i * geo_.slot_bytes;
    s.owner_ = a;
    push_vacant(&s);
  }
}

void StackPool::unmap(StackAllocation* a) {
  for (size_t i = 0; i < a->count; ++i) {
    if (!a->slots[i].in_use_) unlink_vacant(&a->slots[i]);
    else --in_use_;  // only when the pool is destroyed
  }
  slots_ -= a->count;
  // Under ASan: frames of contexts that never returned leave their redzones
  // poisoned in the shadow, which a later mapping at this address would
  // inherit. (Without ASan the macro does nothing.)
  ASAN_UNPOISON_MEMORY_REGION(a->begin, a->bytes);
  munmap(a->begin, a->bytes);
  allocations_.erase(std::find(allocations_.begin(), allocations_.end(), a));
  delete[] a->slots;
  delete a;
}

size_t StackPool::trim(size_t keep) {
  size_t n = 0, seen = 0;
  for (StackSlot* s = vacant_; s; s = s->next_) {
    if (seen++ < keep || s->trimmed_) continue;
    madvise(s->base_, geo_.slot_bytes, MADV_DONTNEED);
    s->trimmed_ = true;
    ++n;
  }
  return n;
}

void StackPool::push_vacant(StackSlot* s) {
  s->prev_ = nullptr;
  s->next_ = vacant_;
  if (vacant_) vacant_->prev_ = s;
  vacant_ = s;
}

void StackPool::unlink_vacant(StackSlot* s) {
  if (s->prev_) s->prev_->next_ = s->next_;
  else vacant_ = s->next_;
  if (s->next_) s->next_->prev_ = s->prev_;
  s->prev_ = s->next_ = nullptr;
}

std::vector<std::pair<uintptr_t, uintptr_t>> StackPool::ranges() const {
  std::vector<std::pair<uintptr_t, uintptr_t>> r;
  for (const StackAllocation* a : allocations_)
    r.emplace_back(uintptr_t(a->begin), uintptr_t(a->begin + a->bytes));
  std::sort(r.begin(), r.end());
  return r;
}

StackPoolStats StackPool::stats() const {
  StackPoolStats st;
  st.slots = slots_;
  st.in_use = in_use_;
  st.vacant = slots_ - in_use_;
  st.allocations = allocations_.size();
  for (const StackAllocation* a : allocations_) st.reserved_bytes += a->bytes;
  auto r = ranges();
  SmapsScan scan{r, page_, st};
  std::ifstream smaps("/proc/self/smaps");
  for (std::string l; std::getline(smaps, l);) scan.line(l);
  scan.finish();
  return st;
}

uintptr_t thread_stack_low_water(size_t reserve) {
  pthread_attr_t attr;
  void* addr = nullptr;
  size_t size = 0;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return 0;
  pthread_attr_getstack(&attr, &addr, &size);
  pthread_attr_destroy(&attr);
  return uintptr_t(addr) + reserve;
}

uintptr_t provisional_stack_low_water(size_t depth) {
  if (getpid() != gettid()) return 0;
  struct rlimit rl;
  if (getrlimit(RLIMIT_STACK, &rl) != 0) return 0;
  if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur / 4 * 3 < 2 * depth) return 0;
  return uintptr_t(__builtin_frame_address(0)) - depth;
}

}  // namespace vm
