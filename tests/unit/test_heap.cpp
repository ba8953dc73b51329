// tests/unit/test_heap.cpp — the heap interface and the mark-sweep collector,
// driven directly through gc/heap.h with a test object kind (no VM); built
// into gc_tests, with gc/ alone.
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "gc/heap.h"
#include "gc/pages.h"
#include "test_kinds.h"

namespace {

using gc::GcHeader;
using gc::Word;
using namespace test_kinds;

constexpr Word kFix1 = 3;  // an odd word: not a reference

}  // namespace

TEST_CASE("allocation gives zeroed memory of the asked kind", "[heap]") {
  auto h = make_test_heap();
  GcHeader* o = h->allocate(sizeof(Pair), kPair);
  CHECK(o->kind == kPair);
  CHECK(reinterpret_cast<Pair*>(o)->a == 0);
  CHECK(gc::is_ref(gc::word_of(o)));
  CHECK(h->stats().objects_allocated == 1);
  CHECK(h->stats().allocations_by_kind[kPair] == 1);
}

TEST_CASE("a collection keeps what is rooted and frees the rest", "[heap]") {
  auto h = make_test_heap();
  gc::Rooted<Word> root(*h, 0);
  // A rooted list of 1000 pairs, and 100,000 unreachable ones.
  Word list = 0;
  for (int i = 0; i < 1000; ++i) list = w(pair(*h, kFix1, list));
  root = list;
  for (int i = 0; i < 100000; ++i) pair(*h, kFix1, 0);
  h->collect();
  CHECK(h->stats().collections == 1);
  CHECK(h->stats().bytes_live < 1000 * 64);
  int n = 0;
  for (Word p = root; p; p = reinterpret_cast<Pair*>(p)->b) {
    CHECK(reinterpret_cast<Pair*>(p)->a == kFix1);
    ++n;
  }
  CHECK(n == 1000);
  CHECK(h->verify().empty());
}

TEST_CASE("freed cells are reused and survivors stay intact", "[heap]") {
  auto h = make_test_heap();
  gc::RootedVector<Word> keep(*h);
  for (int round = 0; round < 5; ++round) {
    for (int i = 0; i < 20000; ++i) {
      Pair* p = pair(*h, Word(i) << 1 | 1, 0);
      if (i % 100 == 0) keep.items.push_back(w(p));
    }
    h->collect();
  }
  for (size_t i = 0; i < keep.items.size(); ++i)
    CHECK(reinterpret_cast<Pair*>(keep.items[i])->a == ((Word(i % 200) * 100) << 1 | 1));
  CHECK(h->verify().empty());
}

TEST_CASE("marking a million-long list does not recurse", "[heap]") {
  auto h = make_test_heap();
  gc::Rooted<Word> root(*h, 0);
  Word list = 0;
  for (int i = 0; i < 1000000; ++i) list = w(pair(*h, kFix1, list));
  root = list;
  h->collect();
  CHECK(h->stats().bytes_live >= 1000000 * sizeof(Pair));
}

TEST_CASE("large objects are collected and traced", "[heap]") {
  auto h = make_test_heap();
  gc::Rooted<Word> root(*h, 0);
  auto* a = reinterpret_cast<Array*>(h->allocate(sizeof(Array) + 5000 * sizeof(Word), kArray));
  a->n = 5000;
  for (int i = 0; i < 5000; ++i) a->items[i] = w(pair(*h, kFix1, 0));
  root = gc::word_of(&a->h);
  h->allocate(sizeof(Array) + 9000 * sizeof(Word), kArray);  // garbage
  h->collect();
  CHECK(h->verify().empty());
  CHECK(reinterpret_cast<Pair*>(a->items[4999])->a == kFix1);
  CHECK(h->stats().bytes_live < 2 * (5000 * sizeof(Word) + 5000 * 32));
}

TEST_CASE("the verifier finds a dangling reference", "[heap]") {
  auto h = make_test_heap();
  gc::Rooted<Word> root(*h, w(pair(*h, kFix1, 0)));
  Pair* lost = pair(*h, kFix1, 0);  // unreachable: freed by the collection
  h->collect();
  REQUIRE(h->verify().empty());
  reinterpret_cast<Pair*>(root.get())->b = w(lost);  // a raw store of a freed object
  auto problems = h->verify();
  REQUIRE(!problems.empty());
  CHECK(problems[0].find("dangling") != std::string::npos);
}

TEST_CASE("a collection is wanted after enough allocation, and always under stress", "[heap]") {
  auto h = make_test_heap();
  CHECK(!h->collection_wanted());
  for (int i = 0; i < 1000000; ++i) pair(*h, kFix1, 0);  // 32 MB
  CHECK(h->collection_wanted());
  h->collect();
  CHECK(!h->collection_wanted());
  h->set_stress(true);
  CHECK(h->collection_wanted());
  h->request_collection();
  h->set_stress(false);
  CHECK(h->collection_wanted());
}

TEST_CASE("pause statistics are kept", "[heap]") {
  auto h = make_test_heap();
  for (int i = 0; i < 10; ++i) h->collect();
  CHECK(h->stats().pauses_ms.count() == 10);
  CHECK(h->stats().pause_percentile(99) <= h->stats().max_pause_ms);
}

TEST_CASE("PauseRecord: exact percentiles at first, then within 1% in bounded memory", "[gc]") {
  gc::PauseRecord r;
  CHECK(r.empty());
  CHECK(r.percentile(50) == 0);
  for (int i = 1; i <= 100; ++i) r.add(i * 0.1);  // 0.1 .. 10 ms
  CHECK(r.count() == 100);
  CHECK(r.percentile(50) == Approx(5.1));  // nearest rank: the 51st of 100
  CHECK(r.percentile(100) == Approx(10.0));
  CHECK(r.percentile(0) == Approx(0.1));
  // A million more, 0.001 .. 100 ms: past the exact ones, counted in buckets.
  std::vector<double> all;
  for (int i = 1; i <= 100; ++i) all.push_back(i * 0.1);
  for (int i = 0; i < 1000000; ++i) {
    double ms = 0.001 * std::pow(100000.0, (i % 1000) / 999.0);
    r.add(ms);
    all.push_back(ms);
  }
  CHECK(r.count() == 1000100);
  std::sort(all.begin(), all.end());
  for (double p : {1.0, 50.0, 90.0, 99.0, 99.9}) {
    double exact = all[size_t(p / 100.0 * double(all.size() - 1) + 0.5)];
    CHECK(r.percentile(p) >= exact);
    CHECK(r.percentile(p) <= exact * 1.0101);
  }
  CHECK(r.percentile(100) == all.back());
}

// gc/pages.cpp's Reserve: regions are populated ahead by a thread of its
// own, so that cutting a space from a fresh region touches no fresh memory
// (no page fault inside a collection's pause), in a child of fork too.
namespace {
bool resident(const void* p, size_t bytes) {
  std::vector<unsigned char> v((bytes + 4095) / 4096);
  if (mincore(const_cast<void*>(p), bytes, v.data()) != 0) return false;
  for (unsigned char c : v)
    if (!(c & 1)) return false;
  return true;
}
bool wait_ready(size_t n) {
  for (int i = 0; i < 500 && gc::ready_regions() < n; ++i) usleep(10000);
  return gc::ready_regions() >= n;
}
// Cuts spaces of `bytes` (never touched) until one lies in a region taken
// from the reserve; true iff one is resident before any touch.
bool cut_from_reserve(size_t bytes) {
  bool found = false;
  for (size_t i = 0; i < 2 * gc::kHugePage / bytes + 2; ++i)
    found |= resident(gc::map_space(bytes, bytes), bytes);
  return found;
}
}  // namespace

TEST_CASE("map_space cuts from regions made ready ahead, in a child of fork too", "[pages]") {
  cut_from_reserve(gc::kPageSize);  // takes a region: starts the filler, if nothing had yet
  REQUIRE(wait_ready(2));
  CHECK(cut_from_reserve(gc::kPageSize));
  gc::release_ready_regions();
  CHECK(gc::ready_regions() == 0);
  REQUIRE(wait_ready(0));
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    // The child's filler is its own: none ready until it takes one.
    if (gc::ready_regions() != 0) _exit(1);
    cut_from_reserve(gc::kPageSize);
    if (!wait_ready(2)) _exit(2);
    _exit(cut_from_reserve(gc::kPageSize) ? 0 : 3);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}

// Before a collection's pause the program makes regions ready itself
// (prepare_regions) when the filler has not: the filler runs only on a
// core nothing else wants, and makes kReadyRegions (2) at most, so asking
// for three is answered on this thread. An idle process (its regions
// given back) is made none.
TEST_CASE("prepare_regions makes regions ready on the calling thread", "[pages]") {
  cut_from_reserve(gc::kPageSize);  // the filler started, regions asked for
  gc::prepare_regions(3);
  CHECK(gc::ready_regions() >= 3);
  CHECK(cut_from_reserve(gc::kPageSize));  // populated: resident before any touch
  gc::release_ready_regions();
  REQUIRE(wait_ready(0));
  gc::prepare_regions(3);
  CHECK(gc::ready_regions() == 0);
}

namespace {
// A page cut from a region the Reserve made ready (populated), with room
// after it in the region, which ends at *end; null if none was found.
char* page_in_populated_region(char** end) {
  cut_from_reserve(gc::kPageSize);
  gc::prepare_regions(1);
  for (int i = 0; i < 96; ++i) {
    auto* q = static_cast<char*>(gc::map_space(gc::kPageSize, gc::kPageSize));
    *end = reinterpret_cast<char*>((reinterpret_cast<uintptr_t>(q) | (gc::kHugePage - 1)) + 1);
    if (resident(q, gc::kPageSize) && q + 2 * gc::kPageSize <= *end) return q;
  }
  return nullptr;
}
}  // namespace

// An idle process gives back the rest of the region map_space cuts from,
// which a region made ready brings populated: as much as 2 MiB resident,
// and more or less of it from one idle moment to the next.
TEST_CASE("release_ready_regions gives back the rest of the region being cut", "[pages]") {
  char* end = nullptr;
  char* p = page_in_populated_region(&end);
  REQUIRE(p);  // a page cut from a populated region, with room after it
  char* rest = p + gc::kPageSize;
  CHECK(resident(rest, size_t(end - rest)));
  gc::release_ready_regions();
  std::vector<unsigned char> v(size_t(end - rest) / 4096);
  CHECK(mincore(rest, size_t(end - rest), v.data()) == -1);  // unmapped
  CHECK(gc::map_space(gc::kPageSize, gc::kPageSize) != rest);
}

// A region's rest too small for the next cut is given back (off the
// thread, by the filler), not left resident.
TEST_CASE("map_space gives back the rest of a region it leaves", "[pages]") {
  char* end = nullptr;
  char* p = page_in_populated_region(&end);
  REQUIRE(p);
  char* rest = p + gc::kPageSize;
  size_t n = size_t(end - rest);
  gc::map_space(n + 4096, 4096);  // does not fit: a new region
  std::vector<unsigned char> v(n / 4096);
  bool gone = false;
  for (int i = 0; i < 500 && !gone; ++i) {
    gone = mincore(rest, n, v.data()) == -1;
    if (!gone) usleep(10000);
  }
  CHECK(gone);
}

// Memory given back (an idle server's trim, gc/pages.cpp's drop_memory)
// must stay given back. khugepaged collapses a region that has the
// huge-page advice and any page resident into a whole huge page again, so
// the dropped range must lose the advice (VmFlags "nh" in smaps, not "hg").
namespace {
std::string vm_flags_at(const void* p) {
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool in = false;
  uintptr_t a = reinterpret_cast<uintptr_t>(p);
  while (std::getline(smaps, line)) {
    unsigned long lo = 0, hi = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx ", &lo, &hi) == 2 && line.find(':') > line.find(' '))
      in = lo <= a && a < hi;
    else if (in && line.rfind("VmFlags:", 0) == 0) return line;
  }
  return "";
}
}  // namespace

TEST_CASE("drop_memory gives memory back and takes the huge-page advice away", "[pages]") {
  auto* r = static_cast<char*>(gc::map_space(gc::kHugePage, gc::kHugePage));
  std::memset(r, 1, gc::kHugePage);
  size_t half = gc::kHugePage / 2;
  // (a kernel without transparent huge pages refuses the advice: nothing to take away)
  bool advised = vm_flags_at(r).find(" hg") != std::string::npos;
  gc::drop_memory(r + half, half);
  CHECK(resident(r, half));
  std::vector<unsigned char> v(half / 4096);
  REQUIRE(mincore(r + half, half, v.data()) == 0);
  CHECK(std::none_of(v.begin(), v.end(), [](unsigned char c) { return c & 1; }));
  CHECK(r[half] == 0);  // reads as zeros
  std::string dropped = vm_flags_at(r + half);
  INFO(dropped);
  if (advised) CHECK(dropped.find(" nh") != std::string::npos);
  CHECK(dropped.find(" hg") == std::string::npos);
  munmap(r, gc::kHugePage);
}

// A region cut when the filler should have had one ready and had not (a
// pause that took more regions than were made ready before it) takes
// ordinary pages: the first touch of a huge page may be the kernel
// compacting memory for it, milliseconds inside the pause. A region made
// ready keeps the advice (the filler's thread pays for it).
TEST_CASE("a region none was ready for takes ordinary pages", "[pages]") {
  cut_from_reserve(gc::kPageSize);  // the filler started
  REQUIRE(wait_ready(2));
  auto* ready = static_cast<char*>(gc::map_space(gc::kHugePage / 2, gc::kPageSize));
  bool advised = vm_flags_at(ready).find(" hg") != std::string::npos;
  gc::release_ready_regions();  // none ready, and no region being cut
  REQUIRE(gc::ready_regions() == 0);
  auto* hurried = static_cast<char*>(gc::map_space(gc::kPageSize, gc::kPageSize));
  std::string flags = vm_flags_at(hurried);
  INFO(flags);
  CHECK(!flags.empty());
  CHECK(flags.find(" hg") == std::string::npos);
  // (a kernel without transparent huge pages refuses the advice everywhere)
  if (!advised) WARN("no huge-page advice on this kernel: only half of the test ran");
}

// gen sweeps its large objects in the pause that ends a concurrent mark
// (PageSpace::begin_sweep), where munmap (glibc's free of a large block
// calls it too) cost milliseconds: they are freed off the pause, by the
// filler, and what it has not freed by the next collection's
// prepare_regions is freed there, on the program's thread.
TEST_CASE("a sweep in steps frees large objects by the next prepare_regions", "[pages]") {
  std::vector<gc::KindInfo> kinds(gc::kMaxKinds);
  gc::PageSpace space;
  GcHeader* big = space.allocate(gc::kLargeMapped * 2);  // mapped: its freeing is seen
  GcHeader* kept = space.allocate(gc::kLargeMapped * 2);
  kept->gcbits |= gc::PageSpace::kMarkBit;
  auto page_of = [](const void* p) {
    return reinterpret_cast<void*>(reinterpret_cast<uintptr_t>(p) & ~uintptr_t(4095));
  };
  space.begin_sweep(kinds.data());
  space.finish_sweep(kinds.data());
  gc::prepare_regions(0);
  unsigned char v = 0;
  CHECK(mincore(page_of(big), 4096, &v) == -1);  // unmapped
  CHECK(mincore(page_of(kept), 4096, &v) == 0);
  CHECK(space.figures().large_objects == 1);
}
