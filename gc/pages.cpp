// gc/pages.cpp — see pages.h.
#include "gc/pages.h"

#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <thread>
#include <vector>

namespace gc {

PageSpace::~PageSpace() {
  for (Page* p : pages_) munmap(p, kPageSize);
  for (LargeBlock* l : large_) free_large_block(l);
}

GcHeader* PageSpace::allocate(size_t bytes) {
  bytes = round_object_size(bytes);
  if (bytes <= kMaxSmall) {
    GcHeader* h = allocate_uninitialised(bytes);
    std::memset(static_cast<void*>(h), 0, bytes);
    return h;
  }
  bytes_ += bytes;
  LargeBlock* l = new_large_block(bytes);
  large_.push_back(l);
  large_set_.insert(l->object());
  figures_.large_bytes += bytes;
  figures_.large_objects++;
  return l->object();
}

LargeBlock* new_large_block(size_t bytes) {
  size_t total = sizeof(LargeBlock) + bytes;
  LargeBlock* l;
  if (total >= kLargeMapped) {
    // Under 2 MiB, a whole huge page (at most doubling it); above, the
    // tail past the last whole one is ordinary pages (so a vector of 2^k
    // words, a header over a power of two, does not take a second).
    size_t mapped = std::max(kHugePage, (total + 4095) & ~size_t(4095));
    l = static_cast<LargeBlock*>(map_space(mapped, 4096));
    l->mapped = mapped;
  } else {
    l = static_cast<LargeBlock*>(std::calloc(1, total));
    if (!l) throw std::bad_alloc();
  }
  l->bytes = bytes;
  return l;
}

void free_large_block(LargeBlock* l, bool later) {
  if (l->mapped) later ? unmap_later(l, l->mapped) : void(munmap(l, l->mapped));
  else later ? free_later(l) : std::free(l);
}

// The class's free list is empty: the next never-used cell of its bump page,
// or of a new page.
PageSpace::Page* PageSpace::take_page(size_t bytes) {
  Page* p;
  if (!pool_.empty()) {
    p = pool_.back();  // the most recently emptied: the likeliest to be in cache
    pool_.pop_back();
    figures_.pooled_bytes -= kPageSize;
  } else {
    p = static_cast<Page*>(map_space(kPageSize, kPageSize));
    pages_.push_back(p);
    page_set_.insert(reinterpret_cast<uintptr_t>(p));
    figures_.page_bytes += kPageSize;
  }
  p->format(bytes / 8);
  p->evacuate = false;
  return p;
}

namespace {

// An aligned mapping of size bytes (a multiple of 4 KiB), with the huge-page
// advice unless huge is false: the kernel gives huge pages to the whole
// 2 MiB stretches of it, and ordinary pages to a tail past the last.
char* map_region(size_t size, size_t align, bool huge = true) {
  void* mem =
      mmap(nullptr, size + align, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) throw std::bad_alloc();
  uintptr_t start = reinterpret_cast<uintptr_t>(mem);
  uintptr_t aligned = (start + align - 1) & ~uintptr_t(align - 1);
  if (aligned > start) munmap(mem, aligned - start);
  uintptr_t end = start + size + align;
  if (end > aligned + size) munmap(reinterpret_cast<void*>(aligned + size), end - aligned - size);
  if (huge) madvise(reinterpret_cast<void*>(aligned), size, MADV_HUGEPAGE);
  return reinterpret_cast<char*>(aligned);
}

// Fresh regions made ready off the program's thread. The first touch of a
// fresh region is the kernel zeroing it (a huge page at once), and a
// collection that promotes into old pages or takes a new eden chunk
// touches one inside its pause: on a virtual machine, where the host backs
// the guest's memory lazily, that was most of every long minor pause
// (docs/ARCHITECTURE.md, "Measurements behind the code"). A thread keeps
// kReadyRegions regions mapped and populated ahead; cutting takes one when
// there is one (else maps its own, as before), and the thread makes the
// next. The zeroing costs the same CPU, on the other core and outside the
// pause.
//
// The same thread gives back what a collection frees (unmap_later): an
// munmap that splits a huge page flushes the TLBs of the process's other
// CPUs, which on a virtual machine is slow. It is started by the second
// region a process takes (or memory given back), fills up after each
// region taken and not after release_ready_regions gave its regions back
// (an idle process), and is stopped before a fork (before_fork).
class Reserve {
 public:
  static Reserve& get() {
    static Reserve* r = install();
    return *r;
  }
  // A populated region of kHugePage bytes, or null; *serving says whether
  // the filler was meant to have one (the caller is then likely in a
  // pause that outran it).
  char* take(bool* serving) {
    std::lock_guard<std::mutex> hold(mu_);
    // A process's first region is cut without the filler: a program that
    // never needs a second (an empty one's start) never pays for the
    // thread and the regions it would make.
    *serving = ++taken_ >= 2;
    if (!*serving) return nullptr;
    if (!started_) start();
    asked_ = true;
    cv_.notify_one();
    if (ready_.empty()) return nullptr;
    char* r = ready_.back();
    ready_.pop_back();
    return r;
  }
  size_t ready() {
    std::lock_guard<std::mutex> hold(mu_);
    return ready_.size();
  }
  // At least n regions ready, those the filler has not made mapped and
  // populated on the calling thread. Called when a collection is asked
  // for, this is what starts the filler: a process's first collection
  // promotes into old pages (its second region), and that region, cut in
  // the pause, had its huge page faulted in there (milliseconds, the
  // longest pause of a run). A process that never collects (an empty
  // program) still takes one region and no thread; an idle one whose
  // regions were given back (release) is made none until it takes one.
  // And what the filler has not given back yet is given back here, on the
  // program's thread but outside the pause: a filler that gets no core
  // would otherwise let it pile up.
  void prepare(size_t n) {
    std::unique_lock<std::mutex> hold(mu_);
    if (!unmaps_.empty() || !frees_.empty()) give_back(hold);
    if (!asked_ && taken_ >= 2) return;
    if (!started_) start();
    asked_ = true;
    cv_.notify_one();
    while (ready_.size() < n) {
      hold.unlock();
      char* r = map_region(kHugePage, kHugePage);  // (throws bad_alloc: the caller's)
      madvise(r, kHugePage, MADV_POPULATE_WRITE);
      hold.lock();
      ready_.push_back(r);
    }
  }
  void unmap_later(void* p, size_t size) {
    std::lock_guard<std::mutex> hold(mu_);
    if (!started_) start();
    unmaps_.push_back({static_cast<char*>(p), size});
    cv_.notify_one();
  }
  void free_later(void* p) {
    std::lock_guard<std::mutex> hold(mu_);
    if (!started_) start();
    frees_.push_back(p);
    cv_.notify_one();
  }
  void release() {
    std::lock_guard<std::mutex> hold(mu_);
    for (char* r : ready_) munmap(r, kHugePage);
    ready_.clear();
    asked_ = false;
  }

 private:
  static constexpr size_t kReadyRegions = 2;

  static Reserve* install() {
    // Never destroyed: the filler waits to the process's end, and a
    // joinable thread's destructor would end the process.
    auto* r = new Reserve;
    pthread_atfork([] { get().before_fork(); }, [] { get().mu_.unlock(); },
                   [] { get().after_fork_in_child(); });
    return r;
  }
  void start() {
    started_ = true;
    thread_ = std::thread([this] { run(); });
  }
  void run() {
    // SCHED_IDLE: the filler takes a core only when nothing else wants it.
    // Populating a region is milliseconds of the kernel's time, and on a
    // loaded machine a filler of the program's own priority took them from
    // the program, in its pauses too. When the filler gets no turn, the
    // program makes its regions ready itself before a collection
    // (prepare_regions).
    sched_param param{};
    pthread_setschedparam(pthread_self(), SCHED_IDLE, &param);
    std::unique_lock<std::mutex> hold(mu_);
    for (;;) {
      cv_.wait(hold, [this] {
        return quit_ || !unmaps_.empty() || !frees_.empty() ||
               (asked_ && ready_.size() < kReadyRegions);
      });
      if (quit_) return;
      if (!unmaps_.empty() || !frees_.empty()) {
        give_back(hold);
        continue;
      }
      hold.unlock();
      char* r = nullptr;
      try {
        r = map_region(kHugePage, kHugePage);
        madvise(r, kHugePage, MADV_POPULATE_WRITE);
      } catch (std::bad_alloc&) {  // none ready: cutting maps its own, and reports it
      }
      hold.lock();
      if (r && !asked_) {  // given back meanwhile (release): an idle process wants none
        hold.unlock();
        munmap(r, kHugePage);
        hold.lock();
        continue;
      }
      if (r) ready_.push_back(r);
    }
  }
  // The filler is stopped before a fork, so that the process forks with
  // the threads it had before its first region (a child of a process with
  // threads may not start one under ThreadSanitizer, and has none of them),
  // and mu_ is held across it; each side starts a filler again when it
  // next takes a region.
  void before_fork() {
    std::unique_lock<std::mutex> hold(mu_);
    if (started_) {
      quit_ = true;
      cv_.notify_one();
      hold.unlock();
      thread_.join();
      hold.lock();
      quit_ = started_ = false;
    }
    for (auto& [p, n] : unmaps_) munmap(p, n);  // (before the fork: in neither process)
    unmaps_.clear();
    for (void* p : frees_) std::free(p);
    frees_.clear();
    hold.release();  // unlocked by the parent's handler, or the child's
  }
  // The child's regions are its parent's until written: given back.
  void after_fork_in_child() {
    for (char* r : ready_) munmap(r, kHugePage);
    ready_.clear();
    asked_ = false;
    taken_ = 0;
    mu_.unlock();
  }

  // What unmap_later and free_later were given, done with mu_ released.
  void give_back(std::unique_lock<std::mutex>& hold) {
    std::vector<std::pair<char*, size_t>> unmaps;
    std::vector<void*> frees;
    unmaps.swap(unmaps_);
    frees.swap(frees_);
    hold.unlock();
    for (auto& [p, n] : unmaps) munmap(p, n);
    for (void* p : frees) std::free(p);
    hold.lock();
  }

  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<char*> ready_;
  std::vector<std::pair<char*, size_t>> unmaps_;  // unmap_later's, for the filler
  std::vector<void*> frees_;                      // free_later's
  bool asked_ = false;  // a region was taken since the last release: fill up
  size_t taken_ = 0;    // regions asked for in this process
  bool started_ = false;
  bool quit_ = false;
  std::thread thread_;
};

// The region being cut: what is left of it.
std::mutex g_region_lock;
char* g_region_top = nullptr;
char* g_region_end = nullptr;

}  // namespace

void drop_memory(void* p, size_t size) {
  madvise(p, size, MADV_DONTNEED);
  madvise(p, size, MADV_NOHUGEPAGE);  // advisory: failure only costs memory
}

void release_ready_regions() {
  Reserve::get().release();
  // And the rest of the region being cut, populated with it if the Reserve
  // made it: as much as 2 MiB of an idle process, more or less from one
  // idle moment to the next as the cuts fell. The next cut takes a region.
  std::lock_guard<std::mutex> hold(g_region_lock);
  if (g_region_top && g_region_end > g_region_top)
    munmap(g_region_top, size_t(g_region_end - g_region_top));
  g_region_top = g_region_end = nullptr;
}
size_t ready_regions() { return Reserve::get().ready(); }
void prepare_regions(size_t n) { Reserve::get().prepare(n); }
void unmap_later(void* p, size_t size) { Reserve::get().unmap_later(p, size); }
void free_later(void* p) { Reserve::get().free_later(p); }

void* map_space(size_t size, size_t align, bool populate) {
  size = (size + 4095) & ~size_t(4095);
  align = std::max<size_t>(align, 4096);
  char* p;
  if (size >= kHugePage || align > kHugePage) {
    // A region of its own (a big nursery's chunk, a large object).
    p = map_region(size, std::max(align, kHugePage));
  } else {
    std::lock_guard<std::mutex> hold(g_region_lock);
    auto cut = [&] {
      uintptr_t at =
          (reinterpret_cast<uintptr_t>(g_region_top) + align - 1) & ~uintptr_t(align - 1);
      return reinterpret_cast<char*>(at);
    };
    if (!g_region_top || cut() + size > g_region_end) {
      // The old region's rest goes back, off this thread (it may be
      // resident: a region made ready is populated whole); cut, it would
      // split a huge page, and the next region is as fast to take.
      if (g_region_top && g_region_end > g_region_top)
        Reserve::get().unmap_later(g_region_top, size_t(g_region_end - g_region_top));
      // None ready when the filler should have had one: most likely a
      // pause that took more than the regions made ready before it (a
      // process's first promotions), where the first touch of a huge page
      // may be the kernel compacting memory for it, milliseconds on a
      // virtual machine. Such a region takes ordinary pages, faulted in as
      // they are touched.
      bool serving = false;
      char* ready = Reserve::get().take(&serving);
      g_region_top = ready ? ready : map_region(kHugePage, kHugePage, !serving);
      g_region_end = g_region_top + kHugePage;
    }
    p = cut();
    g_region_top = p + size;
  }
  // (MADV_POPULATE_WRITE: Linux 5.14; an older kernel faults the pages in
  // one by one, as without it.)
  if (populate) madvise(p, size, MADV_POPULATE_WRITE);
  return p;
}

namespace {
// One allocated cell: a marked one lives (its mark cleared); else it is
// finalized and becomes free.
bool sweep_cell(GcHeader* h, const KindInfo* kinds) {
  if (h->gcbits & PageSpace::kMarkBit) {
    h->gcbits &= ~PageSpace::kMarkBit;
    return true;
  }
  if (auto fin = kinds[h->kind].finalize) fin(h);
  h->kind = kFreeKind;
  h->gcbits = 0;
  return false;
}
}  // namespace

// One pass over the cells handed out: finalize and free the unmarked ones,
// clear the marks of the others. The free cells are threaded on a list of
// their own, spliced onto the class's list only if some cell lived: a page
// with none goes to the pool instead. Returns the live bytes.
size_t PageSpace::sweep_page(Page* p, const KindInfo* kinds) {
  size_t size = p->cell_size, live = 0;
  if (p->evacuate) {  // dead cells freed, none threaded: the page empties soon
    for (size_t i = 0; i < p->nused; ++i) {
      GcHeader* h = &p->cell(i)->h;
      if (h->kind != kFreeKind && sweep_cell(h, kinds)) ++live;
    }
    evacuating_bytes_ += live * size;
    return live * size;
  }
  SweptCells swept = sweep_cells(p, [kinds](GcHeader* h) { return sweep_cell(h, kinds); });
  FreeCell* head = swept.head;
  FreeCell* tail = swept.tail;
  live = swept.live;
  if (live == 0) {
    p->cell_size = p->ncells = p->nused = 0;
    pool_.push_back(p);
    figures_.pooled_bytes += kPageSize;
    return 0;
  }
  // The never-used tail of a bump page (not counted as fragmentation: it is
  // where allocation had got to) stays the class's bump page, taken after
  // the free list as before the sweep: memory never touched stays so.
  // Threading it onto the free list would write every cell of it, making
  // resident the whole page of each of a hundred size classes, most of
  // which hold a few objects. A second tail in one class (rare) is
  // threaded.
  size_t c = size / 8;
  if (p->nused < p->ncells && !bump_page_[c]) {
    bump_page_[c] = p;
  } else {
    for (size_t i = p->nused; i < p->ncells; ++i) {
      FreeCell* cell = p->cell(i);
      cell->h = GcHeader{kFreeKind, 0, 0, 0};
      cell->next = nullptr;
      if (tail) tail->next = cell;
      else head = cell;
      tail = cell;
    }
    p->nused = p->ncells;
  }
  if (head) {
    tail->next = free_[c];
    free_[c] = head;
  }
  figures_.free_partial_bytes += swept.free * size;
  return live * size;
}

size_t PageSpace::sweep(const KindInfo* kinds) {
  if (sweeping_) finish_sweep(kinds);
  for (size_t c = 0; c < kSizeClasses; ++c) free_[c] = nullptr, bump_page_[c] = nullptr;
  bytes_ = 0;
  figures_.free_partial_bytes = 0;
  for (Page* p : pages_)
    if (p->cell_size) bytes_ += sweep_page(p, kinds);
  sweep_large(kinds, false);
  note_fragmentation();
  return bytes_;
}

void PageSpace::begin_sweep(const KindInfo* kinds) {
  if (sweeping_) finish_sweep(kinds);
  size_t before = bytes_;
  for (size_t c = 0; c < kSizeClasses; ++c) free_[c] = nullptr, bump_page_[c] = nullptr;
  figures_.free_partial_bytes = 0;
  bytes_ = 0;
  uint64_t large_before = figures_.large_bytes;
  sweep_large(kinds, true);
  unswept_pages_ = 0;
  for (Page* p : pages_) {
    p->unswept = p->cell_size != 0;
    unswept_pages_ += p->unswept;
  }
  unswept_bytes_ = before > large_before ? size_t(before - large_before) : 0;
  sweep_next_ = 0;
  sweeping_ = true;
}

bool PageSpace::sweep_some(const KindInfo* kinds, size_t max_pages) {
  for (; sweep_next_ < pages_.size() && max_pages > 0; ++sweep_next_) {
    Page* p = pages_[sweep_next_];
    if (!p->unswept) continue;
    p->unswept = false;
    size_t share = unswept_pages_ ? unswept_bytes_ / unswept_pages_ : 0;
    unswept_bytes_ -= share;
    unswept_pages_--;
    bytes_ += sweep_page(p, kinds);
    max_pages--;
  }
  if (sweep_next_ < pages_.size()) return false;
  sweeping_ = false;
  unswept_bytes_ = unswept_pages_ = 0;
  note_fragmentation();
  return true;
}

void PageSpace::sweep_large(const KindInfo* kinds, bool later) {
  size_t keep = 0;
  for (LargeBlock* l : large_) {
    GcHeader* h = l->object();
    if (h->gcbits & kMarkBit) {
      h->gcbits &= ~kMarkBit;
      bytes_ += l->bytes;
      large_[keep++] = l;
    } else {
      if (auto fin = kinds[h->kind].finalize) fin(h);
      large_set_.erase(h);
      figures_.large_bytes -= l->bytes;
      figures_.large_objects--;
      free_large_block(l, later);
    }
  }
  large_.resize(keep);
}

void PageSpace::note_fragmentation() {
  uint64_t in_use = figures_.page_bytes - figures_.pooled_bytes + figures_.large_bytes;
  figures_.fragmentation = in_use ? double(figures_.free_partial_bytes) / double(in_use) : 0;
}

size_t PageSpace::plan_evacuation(const KindInfo* kinds, double max_occupancy) {
  size_t planned = 0;
  evacuating_bytes_ = 0;
  for (Page* p : pages_) {
    if (!p->cell_size) continue;
    size_t live = 0;
    bool pinned = false;
    for (size_t i = 0; i < p->nused && !pinned; ++i) {
      GcHeader* h = &p->cell(i)->h;
      if (h->kind == kFreeKind || !(h->gcbits & kMarkBit)) continue;
      ++live;
      pinned = kinds[h->kind].finalize != nullptr;
    }
    if (!pinned && live > 0 && double(live) <= max_occupancy * double(p->ncells)) {
      p->evacuate = true;
      ++planned;
    }
  }
  return planned;
}

void PageSpace::release_evacuated() {
  for (Page* p : pages_) {
    if (!p->evacuate) continue;
    p->evacuate = false;
    p->cell_size = p->ncells = p->nused = 0;
    pool_.push_back(p);
    figures_.pooled_bytes += kPageSize;
    figures_.evacuated_pages++;
  }
  bytes_ -= evacuating_bytes_;  // the copies were counted as they were allocated
  figures_.evacuated_bytes += evacuating_bytes_;
  evacuating_bytes_ = 0;
  note_fragmentation();
}

void PageSpace::trim_pool(size_t keep_bytes, bool later) {
  if (sweeping_) return;  // (it would move the pages a sweep in steps goes through)
  size_t keep_pages = keep_bytes / kPageSize;
  if (pool_.size() <= keep_pages) return;
  size_t n = pool_.size() - keep_pages;
  for (size_t i = 0; i < n; ++i) {
    page_set_.erase(reinterpret_cast<uintptr_t>(pool_[i]));
    if (later) unmap_later(pool_[i], kPageSize);
    else munmap(pool_[i], kPageSize);
  }
  uint64_t released = n * kPageSize;
  pool_.erase(pool_.begin(), pool_.begin() + ptrdiff_t(n));
  figures_.page_bytes -= released;
  figures_.pooled_bytes -= released;
  figures_.released_bytes += released;
  pages_.erase(
      std::remove_if(pages_.begin(), pages_.end(),
                     [this](Page* p) { return !page_set_.count(reinterpret_cast<uintptr_t>(p)); }),
      pages_.end());
  note_fragmentation();
}

void PageSpace::release_memory() {
  pages_.shrink_to_fit();
  pool_.shrink_to_fit();
  large_.shrink_to_fit();
  page_set_.rehash(0);
  large_set_.rehash(0);
}

uint64_t PageSpace::index_bytes() const {
  return (pages_.capacity() + pool_.capacity() + large_.capacity() + page_set_.bucket_count() +
          large_set_.bucket_count()) *
         sizeof(void*);
}

void PageSpace::release_tails() {
  static const uintptr_t sys_page = uintptr_t(sysconf(_SC_PAGESIZE));
  for (Page* p : bump_page_) {
    if (!p) continue;
    uintptr_t from = reinterpret_cast<uintptr_t>(p->cells() + p->nused * p->cell_size);
    uintptr_t to = reinterpret_cast<uintptr_t>(p) + kPageSize;
    from = (from + sys_page - 1) & ~(sys_page - 1);
    if (from < to) drop_memory(reinterpret_cast<void*>(from), to - from);
  }
}

bool PageSpace::contains(Word w) const {
  GcHeader* h = header_of(w);
  if (large_set_.count(h)) return true;
  const PageHeader* p = PageHeader::of(w);
  return page_set_.count(reinterpret_cast<uintptr_t>(p)) && p->holds(w);
}

}  // namespace gc
