// gc/pages.cpp — see pages.h.
#include "gc/pages.h"

#include <sys/mman.h>

#include <cstdlib>
#include <cstring>
#include <new>

namespace gc {

PageSpace::~PageSpace() {
  for (Page* p : pages_) munmap(p, kPageSize);
  for (Large* l : large_) std::free(l);
}

GcHeader* PageSpace::allocate(size_t bytes) {
  bytes = round(bytes);
  bytes_ += bytes;
  if (bytes <= kMaxSmall) {
    size_t c = bytes / 8;
    if (!free_[c]) refill(c, bytes);
    FreeCell* cell = free_[c];
    free_[c] = cell->next;
    std::memset(static_cast<void*>(cell), 0, bytes);
    return &cell->h;
  }
  Large* l = static_cast<Large*>(std::calloc(1, sizeof(Large) + bytes));
  if (!l) throw std::bad_alloc();
  l->bytes = bytes;
  large_.push_back(l);
  large_set_.insert(l->object());
  return l->object();
}

void PageSpace::refill(size_t c, size_t bytes) {
  Page* p = static_cast<Page*>(map_aligned_page());
  p->cell_size = bytes;
  p->ncells = (kPageSize - Page::kHeaderBytes) / bytes;
  pages_.push_back(p);
  page_set_.insert(reinterpret_cast<uintptr_t>(p));
  for (size_t i = p->ncells; i-- > 0;) {
    FreeCell* cell = reinterpret_cast<FreeCell*>(p->cells() + i * bytes);
    cell->h.kind = kFreeKind;
    cell->next = free_[c];
    free_[c] = cell;
  }
}

// A page aligned to its size, so an address finds its page by masking.
void* PageSpace::map_aligned_page() {
  void* mem = mmap(nullptr, 2 * kPageSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                   -1, 0);
  if (mem == MAP_FAILED) throw std::bad_alloc();
  uintptr_t start = reinterpret_cast<uintptr_t>(mem);
  uintptr_t aligned = (start + kPageSize - 1) & ~uintptr_t(kPageSize - 1);
  if (aligned > start) munmap(mem, aligned - start);
  uintptr_t end = start + 2 * kPageSize;
  if (end > aligned + kPageSize)
    munmap(reinterpret_cast<void*>(aligned + kPageSize), end - aligned - kPageSize);
  return reinterpret_cast<void*>(aligned);
}

size_t PageSpace::sweep(const KindInfo* kinds) {
  for (size_t c = 0; c < kClasses; ++c) free_[c] = nullptr;
  bytes_ = 0;
  for (Page* p : pages_) {
    size_t c = p->cell_size / 8;
    for (size_t i = p->ncells; i-- > 0;) {
      FreeCell* cell = reinterpret_cast<FreeCell*>(p->cells() + i * p->cell_size);
      GcHeader* h = &cell->h;
      if (h->kind != kFreeKind) {
        if (h->gcbits & kMarkBit) {
          h->gcbits &= ~kMarkBit;
          bytes_ += p->cell_size;
          continue;
        }
        if (auto fin = kinds[h->kind].finalize) fin(h);
        h->kind = kFreeKind;
        h->gcbits = 0;
      }
      cell->next = free_[c];
      free_[c] = cell;
    }
  }
  size_t keep = 0;
  for (Large* l : large_) {
    GcHeader* h = l->object();
    if (h->gcbits & kMarkBit) {
      h->gcbits &= ~kMarkBit;
      bytes_ += l->bytes;
      large_[keep++] = l;
    } else {
      if (auto fin = kinds[h->kind].finalize) fin(h);
      large_set_.erase(h);
      std::free(l);
    }
  }
  large_.resize(keep);
  return bytes_;
}

bool PageSpace::contains(Word w) const {
  GcHeader* h = header_of(w);
  if (large_set_.count(h)) return true;
  uintptr_t base = w & ~uintptr_t(kPageSize - 1);
  if (!page_set_.count(base)) return false;
  const Page* p = reinterpret_cast<const Page*>(base);
  uintptr_t off = w - base;
  if (off < Page::kHeaderBytes) return false;
  if ((off - Page::kHeaderBytes) % p->cell_size != 0) return false;
  if ((off - Page::kHeaderBytes) / p->cell_size >= p->ncells) return false;
  return h->kind != kFreeKind;
}

}  // namespace gc
