// tests/unit/test_gc.cpp — the `gen`, `vcgc`, `boehm` and `marksweep`
// collectors, driven directly through gc/heap.h with test object kinds. The
// gc_tests binary links this file with gc/ alone (tests/CMakeLists.txt):
// nothing of the VM. (The collectors under Arc programs:
// tests/unit/test_collectors.cpp.) The cases named "gen: " test the young
// generation and the old one's pages and blocks on `gen-stw`, whose major
// collections end where they begin, so that what a case counts after one
// is exact; gen's concurrent mark has its own cases ("concurrent mark: ").
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <memory>
#include <thread>
#include <unordered_map>

#include "gc/gen.h"
#include "gc/heap.h"
#include "test_kinds.h"

namespace {

using gc::GcHeader;
using gc::Word;
using namespace test_kinds;

// An object with a finalizer, which counts its calls.
struct Res {
  GcHeader h;
  uint64_t id;
};
constexpr uint8_t kRes = 2;
int g_finalized = 0;

// The test kinds, and kRes with its finalizer.
std::unique_ptr<gc::Heap> heap_with_res(const char* name) {
  auto h = test_kinds::make_test_heap(name);
  h->register_kind(kRes, gc::KindInfo{"res", [](const GcHeader*) { return sizeof(Res); }, nullptr,
                                      [](GcHeader*) { ++g_finalized; }});
  return h;
}

Pair* as_pair(Word w) { return reinterpret_cast<Pair*>(w); }
Word fix(int64_t n) { return Word(n) << 1 | 1; }  // an odd word: not a reference

Array* array(gc::Heap& h, uint64_t n) {
  auto* a = reinterpret_cast<Array*>(h.allocate(sizeof(Array) + n * sizeof(Word), kArray));
  a->n = n;
  return a;
}

}  // namespace

TEST_CASE("gen: survivors move to the survivor space, then to the old generation", "[gc]") {
  auto h = heap_with_res("gen-stw");
  REQUIRE(h->set_promote_age(2));
  gc::Rooted<Word> root(*h, 0);
  Word list = 0;
  for (int i = 0; i < 1000; ++i) list = w(pair(*h, fix(i), list));
  root = list;
  for (int i = 0; i < 10000; ++i) pair(*h, fix(i), 0);  // garbage
  Word before = root;
  h->collect_minor();
  CHECK(root.get() != before);  // moved to the survivor space
  CHECK(h->stats().minor_collections == 1);
  CHECK(h->stats().major_collections == 0);
  CHECK(h->stats().bytes_promoted == 0);
  CHECK(h->verify().empty());
  before = root;
  h->collect_minor();
  CHECK(root.get() != before);  // promoted
  CHECK(h->stats().bytes_promoted == 1000 * sizeof(Pair));
  int n = 999;
  for (Word p = root; p; p = as_pair(p)->b) CHECK(as_pair(p)->a == fix(n--));
  CHECK(n == -1);
  CHECK(h->verify().empty());
  // Once old, an object stays where it is.
  Word old = root;
  h->collect_minor();
  CHECK(root.get() == old);
  CHECK(h->stats().bytes_promoted == 1000 * sizeof(Pair));
}

TEST_CASE("gen: an object survives age-1 minor collections young and is old after age", "[gc]") {
  for (unsigned age = 1; age <= 5; ++age) {
    CAPTURE(age);
    auto h = heap_with_res("gen-stw");
    REQUIRE(h->set_promote_age(age));
    gc::Rooted<Word> root(*h, 0);
    for (int i = 0; i < 100; ++i) root = w(pair(*h, fix(i), root));
    for (unsigned n = 1; n < age; ++n) {
      Word before = root;
      pair(*h, fix(-1), 0);  // garbage
      h->collect_minor();
      CHECK(root.get() != before);  // still young: copied again
      CHECK(h->stats().bytes_promoted == 0);
      gc::GenFigures f;
      REQUIRE(gc::gen_figures(*h, f));
      CHECK(f.survivor_used_bytes == 100 * sizeof(Pair));
      CHECK(h->verify().empty());
    }
    h->collect_minor();
    CHECK(h->stats().bytes_promoted == 100 * sizeof(Pair));
    gc::GenFigures f;
    REQUIRE(gc::gen_figures(*h, f));
    CHECK(f.survivor_used_bytes == 0);
    Word old = root;
    h->collect_minor();
    CHECK(root.get() == old);  // old objects do not move
    int n = 99;
    for (Word p = root; p; p = as_pair(p)->b) CHECK(as_pair(p)->a == fix(n--));
    CHECK(n == -1);
    CHECK(h->verify().empty());
  }
  auto ms = make_test_heap("marksweep");
  CHECK(!ms->set_promote_age(2));  // gen only
}

TEST_CASE("gen: survivors that mostly outlive their second collection are promoted at the first",
          "[gc]") {
  auto h = heap_with_res("gen-stw");  // the default age: adapted, not fixed
  gc::Rooted<Word> a(*h, 0), b(*h, 0), c(*h, 0);
  auto build = [&](gc::Rooted<Word>& r) {
    for (int i = 0; i < 1000; ++i) r = w(pair(*h, fix(i), r));  // 24 KB, a sample worth taking
  };
  gc::GenFigures f;
  build(a);
  h->collect_minor();  // a: to the survivor space
  REQUIRE(gc::gen_figures(*h, f));
  CHECK(f.survivor_used_bytes == 1000 * sizeof(Pair));
  h->collect_minor();  // a: all of it lived on, promoted at its second
  CHECK(h->stats().bytes_promoted == 1000 * sizeof(Pair));
  build(b);
  h->collect_minor();  // so b is promoted at its first
  REQUIRE(gc::gen_figures(*h, f));
  CHECK(f.survivor_used_bytes == 0);
  CHECK(h->stats().bytes_promoted == 2000 * sizeof(Pair));
  for (int i = 0; i < 7; ++i) h->collect_minor();
  build(c);
  h->collect_minor();  // eight collections on, one ages again
  REQUIRE(gc::gen_figures(*h, f));
  CHECK(f.survivor_used_bytes == 1000 * sizeof(Pair));
  CHECK(h->stats().bytes_promoted == 2000 * sizeof(Pair));
  CHECK(h->verify().empty());
}

TEST_CASE("gen: a full survivor space promotes the rest early", "[gc]") {
  auto h = heap_with_res("gen-stw");
  h->set_nursery_size(64 << 10);  // survivor spaces of 32 KiB
  REQUIRE(h->set_promote_age(3));
  gc::Rooted<Word> a(*h, 0), b(*h, 0);
  for (int i = 0; i < 800; ++i) a = w(pair(*h, fix(i), a));  // 19,200 bytes
  h->collect_minor();                                        // a: to the survivor space
  gc::GenFigures f;
  REQUIRE(gc::gen_figures(*h, f));
  CHECK(f.survivor_used_bytes == 800 * sizeof(Pair));
  CHECK(h->stats().bytes_promoted == 0);
  for (int i = 0; i < 800; ++i) b = w(pair(*h, fix(i), b));
  // a moves to the other survivor space, and b fills what is left of it:
  // the rest of b is promoted, copied into the old generation.
  h->collect_minor();
  REQUIRE(gc::gen_figures(*h, f));
  CHECK(f.survivor_used_bytes <= f.survivor_bytes);
  CHECK(f.survivor_used_bytes + h->stats().bytes_promoted == 1600 * sizeof(Pair));
  CHECK(h->stats().bytes_promoted > 0);
  CHECK(f.survivor_overflow_bytes == h->stats().bytes_promoted);
  CHECK(f.promoted_in_place_bytes == 0);
  CHECK(h->verify().empty());
  for (Word l : {a.get(), b.get()}) {
    int n = 799;
    for (Word p = l; p; p = as_pair(p)->b) CHECK(as_pair(p)->a == fix(n--));
    CHECK(n == -1);
  }
}

TEST_CASE("gen: past its copy budget a minor collection promotes eden in place", "[gc]") {
  auto h = heap_with_res("gen-stw");
  h->set_nursery_size(64 << 10);  // at most 32 KiB copied out of eden
  gc::Rooted<Word> root(*h, 0);
  for (int i = 0; i < 3000; ++i) root = w(pair(*h, fix(i), root));  // 72 KB: two eden chunks
  Word first = root;  // the newest pair: the first the collection reaches
  h->collect_minor();
  gc::GenFigures f;
  REQUIRE(gc::gen_figures(*h, f));
  // Half a nursery copied to the survivor space; the rest stays where it is, old.
  CHECK(f.survivor_used_bytes == 32 * 1024 / sizeof(Pair) * sizeof(Pair));
  CHECK(f.promoted_in_place_bytes == 3000 * sizeof(Pair) - f.survivor_used_bytes);
  CHECK(h->stats().bytes_promoted == f.promoted_in_place_bytes);
  CHECK(f.blocks >= 1);
  CHECK(f.block_bytes == f.promoted_in_place_bytes);
  CHECK(root.get() != first);  // copied
  Word p = root;
  for (int i = 0; i < 2000; ++i) p = as_pair(p)->b;
  Word in_place = p;  // an old pair, deep in the list
  CHECK(h->verify().empty());
  // The next collection finds most of eden live: it promotes eden's full
  // chunk in place from the start (the current chunk, partly used, is
  // copied within the budget).
  for (int i = 0; i < 4000; ++i) root = w(pair(*h, fix(3000 + i), root));  // 96 KB
  uint64_t before = f.promoted_in_place_bytes;
  h->collect_minor();
  REQUIRE(gc::gen_figures(*h, f));
  uint64_t full_chunk = (64 << 10) / sizeof(Pair) * sizeof(Pair);
  CHECK(f.promoted_in_place_bytes - before == full_chunk);
  CHECK(h->verify().empty());
  int n = 6999;
  p = root;
  for (int i = 0; i < 6000; ++i, p = as_pair(p)->b) CHECK(as_pair(p)->a == fix(n--));
  CHECK(p == in_place);  // never moved
  for (; p; p = as_pair(p)->b) CHECK(as_pair(p)->a == fix(n--));
  CHECK(n == -1);
  // A major collection sweeps the blocks: the dead objects become fillers,
  // a block with nothing live is freed whole.
  h->collect();
  REQUIRE(gc::gen_figures(*h, f));
  CHECK(f.block_bytes <= f.promoted_in_place_bytes);
  CHECK(h->verify().empty());
  root = 0;
  h->collect();
  REQUIRE(gc::gen_figures(*h, f));
  CHECK(f.blocks == 0);
  CHECK(f.block_bytes == 0);
  CHECK(h->stats().bytes_live == 0);
  CHECK(h->verify().empty());
}

TEST_CASE("gen: blocks keep their marks' sense across major collections", "[gc]") {
  auto h = heap_with_res("gen-stw");
  h->set_nursery_size(64 << 10);
  gc::RootedVector<Word> keep(*h);
  auto fill = [&](int n, int from) {
    for (int i = 0; i < n; ++i) keep.items.push_back(w(pair(*h, fix(from + i), 0)));
  };
  fill(6000, 0);  // 144 KB: promoted in place, most of it
  h->collect_minor();
  gc::GenFigures f;
  REQUIRE(gc::gen_figures(*h, f));
  REQUIRE(f.blocks >= 1);
  uint64_t in_blocks = f.block_bytes;
  // Majors that find every object live leave the blocks as they are: the
  // marks they set are the next one's unmarked state.
  for (int i = 0; i < 3; ++i) {
    h->collect();
    REQUIRE(gc::gen_figures(*h, f));
    CHECK(f.block_bytes == in_blocks);
    CHECK(h->verify().empty());
  }
  // Objects promoted in place between two majors start unmarked too.
  fill(6000, 6000);
  h->collect_minor();
  h->collect_minor();
  REQUIRE(gc::gen_figures(*h, f));
  uint64_t more = f.block_bytes;
  CHECK(more > in_blocks);
  CHECK(h->verify().empty());
  h->collect();
  REQUIRE(gc::gen_figures(*h, f));
  CHECK(f.block_bytes == more);
  CHECK(h->verify().empty());
  // Half of them die: the next major sweeps those blocks.
  for (size_t i = 0; i < keep.items.size(); i += 2) keep.items[i] = fix(0);
  h->collect();
  REQUIRE(gc::gen_figures(*h, f));
  CHECK(f.block_bytes < more);
  CHECK(f.block_bytes >= more / 2 - 64 * 1024);
  CHECK(h->verify().empty());
  for (size_t i = 1; i < keep.items.size(); i += 2)
    CHECK(as_pair(keep.items[i])->a == fix(int64_t(i)));
  h->collect();  // and the one after, on what is left
  CHECK(h->verify().empty());
  for (size_t i = 1; i < keep.items.size(); i += 2)
    CHECK(as_pair(keep.items[i])->a == fix(int64_t(i)));
}

TEST_CASE(
    "gen: objects promoted in place keep their referents and remembered set; finalizable ones are "
    "copied",
    "[gc]") {
  auto h = heap_with_res("gen-stw");
  h->set_nursery_size(64 << 10);
  REQUIRE(h->set_promote_age(3));
  g_finalized = 0;
  // A survivor (copied at the first collection) that in-place objects
  // will refer to.
  gc::Rooted<Word> young(*h, w(pair(*h, fix(-1), 0)));
  h->collect_minor();
  gc::Rooted<Word> root(*h, 0);
  gc::Rooted<Word> res(*h, 0);
  for (int i = 0; i < 3000; ++i) {
    // Deep in the list, past what the collection copies before promoting
    // the rest in place.
    root = w(pair(*h, i == 300 ? young.get() : fix(i), root));
    if (i == 200) {
      auto* r = reinterpret_cast<Res*>(h->allocate(sizeof(Res), kRes));
      r->id = 7;
      res = gc::word_of(&r->h);
      root = w(pair(*h, res.get(), root));
    }
  }
  Word young_before = young, res_before = res;
  h->collect_minor();
  gc::GenFigures f;
  REQUIRE(gc::gen_figures(*h, f));
  REQUIRE(f.promoted_in_place_bytes > 0);
  // Copied, though the collection promotes the pairs around it in place:
  // left in a block, it would keep the block's chunk as long as it lives.
  CHECK(res.get() != res_before);
  CHECK(reinterpret_cast<Res*>(res.get())->id == 7);
  CHECK(young.get() != young_before);  // the survivor moved again...
  bool found = false;
  for (Word p = root; p; p = as_pair(p)->b)
    if (as_pair(p)->a == young.get()) found = true;  // ...and the pair holding it followed
  CHECK(found);
  CHECK(h->verify().empty());  // which checks that an old holder of it is remembered
  // A major collection finalizes it only once it is dead.
  h->collect();
  CHECK(g_finalized == 0);
  root = 0;
  res = 0;
  h->collect();
  CHECK(g_finalized == 1);
  CHECK(h->verify().empty());
}

TEST_CASE("gen: finalizable objects that live on keep no blocks", "[gc]") {
  auto h = heap_with_res("gen-stw");
  h->set_nursery_size(64 << 10);
  gc::RootedVector<Word> keep(*h);
  gc::Rooted<Word> list(*h, 0);
  // Rounds that each promote a chunk in place and keep one resource made
  // in the middle of it.
  for (int round = 0; round < 20; ++round) {
    list = 0;
    for (int i = 0; i < 3000; ++i) {
      list = w(pair(*h, fix(i), list));
      if (i == 1000) {
        auto* r = reinterpret_cast<Res*>(h->allocate(sizeof(Res), kRes));
        r->id = uint64_t(round);
        keep.items.push_back(gc::word_of(&r->h));
      }
    }
    h->collect_minor();
  }
  list = 0;
  h->collect();
  h->collect();
  gc::GenFigures f;
  REQUIRE(gc::gen_figures(*h, f));
  CHECK(f.promoted_in_place_bytes > 0);
  CHECK(f.blocks == 0);  // the 20 resources are in the old generation's pages
  CHECK(h->stats().bytes_live == 20 * gc::round_object_size(sizeof(Res)));
  for (size_t i = 0; i < keep.items.size(); ++i)
    CHECK(reinterpret_cast<Res*>(keep.items[i])->id == i);
  CHECK(h->verify().empty());
}

TEST_CASE("gen: an eden chunk with nothing promoted in place is not kept", "[gc]") {
  auto h = heap_with_res("gen-stw");
  h->set_nursery_size(64 << 10);
  gc::Rooted<Word> root(*h, 0);
  for (int i = 0; i < 3000; ++i) root = w(pair(*h, fix(i), root));
  h->collect_minor();  // promotes in place past the budget
  gc::GenFigures f;
  REQUIRE(gc::gen_figures(*h, f));
  uint64_t blocks = f.blocks, in_place = f.promoted_in_place_bytes;
  REQUIRE(blocks >= 1);
  // All of eden survived, so the next collection promotes its full chunks
  // in place from the start; but nothing in them lives: none becomes a block.
  for (int i = 0; i < 8000; ++i) pair(*h, fix(i), 0);
  h->collect_minor();
  REQUIRE(gc::gen_figures(*h, f));
  CHECK(f.promoted_in_place_bytes == in_place);
  CHECK(f.blocks == blocks);
  CHECK(h->verify().empty());
}

TEST_CASE("gen: fragmentation is measured over the whole old generation, blocks included", "[gc]") {
  auto h = heap_with_res("gen-stw");
  h->set_nursery_size(1 << 20);
  gc::RootedVector<Word> pages(*h), blocks(*h);
  for (int i = 0; i < 70000; ++i) pages.items.push_back(w(pair(*h, fix(i), 0)));
  h->collect();  // 1.68 MB of pairs, copied into pages
  // 9.6 MB between two safe points: the collection copies half a nursery
  // of it and promotes the rest in place, in nine or ten blocks.
  for (int i = 0; i < 400000; ++i) blocks.items.push_back(w(pair(*h, fix(i), 0)));
  h->collect_minor();
  gc::GenFigures f;
  REQUIRE(gc::gen_figures(*h, f));
  REQUIRE(f.blocks >= 8);
  // Nine pairs in ten in the pages die: the pages are mostly free, the
  // generation is not.
  for (size_t i = 0; i < pages.items.size(); ++i)
    if (i % 10) pages.items[i] = fix(0);
  h->collect();
  h->collect();
  REQUIRE(gc::gen_figures(*h, f));
  CHECK(f.old.fragmentation > 0.5);  // the pages' own share: it would compact
  CHECK(f.old.free_partial_bytes > (1u << 20));
  CHECK(h->stats().fragmentation < 0.25);
  CHECK(f.compactions == 0);
  // The blocks' pairs die as well: now most of what the generation holds
  // is free cells in its pages, and the next major collection compacts.
  blocks.items.clear();
  h->collect();
  REQUIRE(gc::gen_figures(*h, f));
  CHECK(f.blocks == 0);
  CHECK(h->stats().fragmentation > 0.25);
  h->collect();
  REQUIRE(gc::gen_figures(*h, f));
  CHECK(f.compactions == 1);
  for (size_t i = 0; i < pages.items.size(); i += 10)
    CHECK(as_pair(pages.items[i])->a == fix(int64_t(i)));
  CHECK(h->verify().empty());
}

TEST_CASE("gen: a sparse block is compacted and freed", "[gc]") {
  auto h = heap_with_res("gen-stw");
  h->set_nursery_size(1 << 20);
  gc::RootedVector<Word> keep(*h);
  // Six chunks of pairs, nearly all live at each collection: promoted in
  // place after the first.
  for (int round = 0; round < 6; ++round) {
    for (int i = 0; i < 40000; ++i) keep.items.push_back(w(pair(*h, fix(i), 0)));
    h->collect_minor();
  }
  gc::GenFigures f;
  REQUIRE(gc::gen_figures(*h, f));
  REQUIRE(f.blocks >= 3);
  uint64_t blocks = f.blocks;
  // One pair in 64 kept: the blocks are sparse, and the next major
  // collection after the sweep that finds them so moves their pairs out.
  for (size_t i = 0; i < keep.items.size(); ++i)
    if (i % 64) keep.items[i] = fix(0);
  h->collect();
  h->collect();
  REQUIRE(gc::gen_figures(*h, f));
  CHECK(f.blocks < blocks);
  CHECK(f.compactions >= 1);
  CHECK(h->stats().bytes_compacted > 0);
  for (size_t i = 0; i < keep.items.size(); i += 64)
    CHECK(as_pair(keep.items[i])->a == fix(int64_t(i % 40000)));
  CHECK(h->verify().empty());
}

TEST_CASE("gen: an old object pointing at a young one keeps it alive", "[gc]") {
  auto h = heap_with_res("gen-stw");
  gc::Rooted<Word> old(*h, w(pair(*h, fix(1), 0)));
  h->collect();  // promotes it
  Pair* young = pair(*h, fix(2), 0);
  Pair* o = as_pair(old);
  h->write(&o->h, &o->b, w(young));  // the barrier remembers o
  CHECK(h->verify().empty());
  for (int i = 0; i < 10000; ++i) pair(*h, fix(i), 0);
  h->collect_minor();
  CHECK(old.get() == w(o));
  REQUIRE(o->b != w(young));          // the young pair moved ...
  CHECK(as_pair(o->b)->a == fix(2));  // ... intact
  CHECK(h->verify().empty());
}

TEST_CASE("gen: the remembered set follows survivors until they are promoted", "[gc]") {
  auto h = heap_with_res("gen-stw");
  REQUIRE(h->set_promote_age(3));
  gc::Rooted<Word> old(*h, w(pair(*h, fix(1), 0)));
  h->collect();  // promotes it
  uint64_t promoted_before = h->stats().bytes_promoted;
  Pair* o = as_pair(old);
  h->write(&o->h, &o->b, w(pair(*h, fix(2), 0)));
  // o is the only holder of the young pair through three minor
  // collections: it must stay remembered while the pair is a survivor.
  for (int round = 1; round <= 3; ++round) {
    CAPTURE(round);
    Word before = o->b;
    for (int i = 0; i < 1000; ++i) pair(*h, fix(i), 0);
    h->collect_minor();
    CHECK(as_pair(o->b)->a == fix(2));
    CHECK(o->b != before);  // copied (twice within the nursery, then promoted)
    CHECK(h->verify().empty());
  }
  CHECK(h->stats().bytes_promoted == promoted_before + sizeof(Pair));
  Word promoted = o->b;
  h->collect_minor();
  CHECK(o->b == promoted);
  CHECK(h->verify().empty());
}

TEST_CASE("gen: a promoted object that refers to a survivor is remembered", "[gc]") {
  auto h = heap_with_res("gen-stw");
  REQUIRE(h->set_promote_age(2));
  gc::Rooted<Word> root(*h, w(pair(*h, fix(1), 0)));
  h->collect_minor();  // root's pair: age 1
  Pair* a = as_pair(root);
  h->write(&a->h, &a->b, w(pair(*h, fix(2), 0)));  // a is young: no barrier needed
  h->collect_minor();                              // a is promoted, its new pair becomes a survivor
  CHECK(h->stats().bytes_promoted == sizeof(Pair));
  CHECK(h->verify().empty());  // a is remembered
  for (int i = 0; i < 1000; ++i) pair(*h, fix(i), 0);
  h->collect_minor();  // the pair is promoted through a's slot
  CHECK(as_pair(as_pair(root)->b)->a == fix(2));
  CHECK(h->stats().bytes_promoted == 2 * sizeof(Pair));
  CHECK(h->verify().empty());
}

TEST_CASE("gen: the verifier finds a store that skipped the barrier", "[gc]") {
  auto h = heap_with_res("gen-stw");
  gc::Rooted<Word> old(*h, w(pair(*h, fix(1), 0)));
  h->collect();                              // promotes it
  as_pair(old)->a = w(pair(*h, fix(2), 0));  // a raw store: not remembered
  auto problems = h->verify();
  REQUIRE(!problems.empty());
  CHECK(problems[0].find("not remembered") != std::string::npos);
}

TEST_CASE("gen: large objects live in the old generation and are remembered", "[gc]") {
  auto h = heap_with_res("gen-stw");
  gc::Rooted<Word> root(*h, 0);
  Array* a = array(*h, 5000);  // initialised without the barrier, as the VM does
  for (int i = 0; i < 5000; ++i) a->items[i] = w(pair(*h, fix(i), 0));
  root = gc::word_of(&a->h);
  CHECK(h->verify().empty());
  array(*h, 9000);  // garbage
  h->collect_minor();
  CHECK(root.get() == gc::word_of(&a->h));  // large objects do not move
  for (int i = 0; i < 5000; i += 499) CHECK(as_pair(a->items[i])->a == fix(i));
  CHECK(h->verify().empty());
  uint64_t with_garbage = h->stats().bytes_live;
  h->collect();  // a major collection frees the garbage array
  CHECK(h->stats().major_collections == 1);
  CHECK(h->stats().bytes_live < with_garbage);
  CHECK(h->stats().bytes_live >= 5000 * sizeof(Word) + 5000 * sizeof(Pair));
  CHECK(as_pair(a->items[4999])->a == fix(4999));
  CHECK(h->verify().empty());
}

TEST_CASE("gen: a large object whose stores all take the barrier is not remembered", "[gc]") {
  // A table's parts are allocated so (allocate_barriered): born old but
  // not remembered, so a minor collection does not trace their immediates.
  // Its stores must then each take the barrier, or the collector loses a
  // young referent.
  auto h = heap_with_res("gen-stw");
  gc::Rooted<Word> root(*h, 0);
  auto* a =
      reinterpret_cast<Array*>(h->allocate_barriered(sizeof(Array) + 5000 * sizeof(Word), kArray));
  a->n = 5000;
  root = gc::word_of(&a->h);
  CHECK(h->verify().empty());
  a->items[7] = w(pair(*h, fix(7), 0));  // a raw store: nothing remembers it
  auto problems = h->verify();
  REQUIRE(!problems.empty());
  CHECK(problems[0].find("not remembered") != std::string::npos);
  a->items[7] = fix(0);
  h->write(&a->h, &a->items[9], w(pair(*h, fix(9), 0)));  // through the barrier
  CHECK(h->verify().empty());
  h->collect_minor();
  CHECK(as_pair(a->items[9])->a == fix(9));
  CHECK(h->verify().empty());
}

TEST_CASE("gen: moving keeps the identity hash", "[gc]") {
  auto h = heap_with_res("gen-stw");
  Pair* p = pair(*h, fix(7), 0);
  p->h.hash = 0xC0FFEE;
  p->h.flags = 3;
  gc::Rooted<Word> root(*h, w(p));
  h->collect_minor();
  REQUIRE(root.get() != w(p));
  CHECK(gc::header_of(root)->hash == 0xC0FFEE);
  CHECK(gc::header_of(root)->flags == 3);
  CHECK(gc::header_of(root)->kind == kPair);
  CHECK(as_pair(root)->a == fix(7));
}

TEST_CASE("gen: shared structure stays shared after a move", "[gc]") {
  auto h = heap_with_res("gen-stw");
  Pair* shared = pair(*h, fix(1), 0);
  gc::RootedVector<Word> roots(*h);
  roots.items = {w(pair(*h, w(shared), 0)), w(pair(*h, w(shared), 0)), w(shared)};
  // A cycle through a young object.
  Pair* c = pair(*h, 0, 0);
  c->a = w(c);
  roots.items.push_back(w(c));
  h->collect_minor();
  CHECK(as_pair(roots.items[0])->a == roots.items[2]);
  CHECK(as_pair(roots.items[1])->a == roots.items[2]);
  CHECK(as_pair(roots.items[3])->a == roots.items[3]);
  CHECK(h->verify().empty());
}

TEST_CASE("gen: allocation never collects, however much is allocated", "[gc]") {
  auto h = heap_with_res("gen-stw");
  h->set_nursery_size(64 << 10);
  gc::Rooted<Word> root(*h, 0);
  for (int i = 0; i < 100000; ++i) root = w(pair(*h, fix(i), root));  // 3 MB: many chunks
  CHECK(h->collection_wanted());
  CHECK(h->stats().collections == 0);
  h->collect_minor();
  CHECK(!h->collection_wanted());
  int n = 99999;
  for (Word p = root; p; p = as_pair(p)->b) CHECK(as_pair(p)->a == fix(n--));
  CHECK(n == -1);
  CHECK(h->verify().empty());
}

TEST_CASE("gen: the verifier finds a dangling reference", "[gc]") {
  auto h = heap_with_res("gen-stw");
  gc::Rooted<Word> root(*h, w(pair(*h, fix(1), 0)));
  Pair* lost = pair(*h, fix(2), 0);  // unreachable: left behind in the nursery
  h->collect_minor();
  REQUIRE(h->verify().empty());
  as_pair(root)->b = w(lost);
  auto problems = h->verify();
  REQUIRE(!problems.empty());
  CHECK(problems[0].find("dangling") != std::string::npos);
}

TEST_CASE("gen: young objects with finalizers are finalized by a minor collection", "[gc]") {
  auto h = heap_with_res("gen-stw");
  g_finalized = 0;
  gc::Rooted<Word> keep(*h, gc::word_of(h->allocate(sizeof(Res), kRes)));
  for (int i = 0; i < 10; ++i) h->allocate(sizeof(Res), kRes);
  h->collect_minor();
  CHECK(g_finalized == 10);  // the dead young ones, at once
  h->collect_minor();
  CHECK(g_finalized == 10);  // the kept one survives, moved
  CHECK(gc::header_of(keep.get())->kind == kRes);
  h->collect();  // promotes it
  CHECK(g_finalized == 10);
  keep = 0;
  h->collect_minor();
  CHECK(g_finalized == 10);  // old now: it waits for a major collection
  h->collect();
  CHECK(g_finalized == 11);
  CHECK(h->verify().empty());
}

TEST_CASE("gen: a major collection follows old-generation growth", "[gc]") {
  auto h = heap_with_res("gen-stw");
  h->set_promote_age(1);
  gc::Rooted<Word> root(*h, 0);
  for (int round = 0; round < 40; ++round) {
    root = 0;  // drop the last round
    for (int i = 0; i < 30000; ++i) root = w(pair(*h, fix(i), root));
    h->collect_minor();  // promotes about 1 MB of pairs per round
  }
  CHECK(h->stats().major_collections >= 1);
  CHECK(h->stats().bytes_live < 40 * 30000 * sizeof(Pair));
  CHECK(h->verify().empty());
}

TEST_CASE("gen: the old generation measures fragmentation, compacts, releases empty pages",
          "[gc]") {
  auto h = heap_with_res("gen-stw");
  gc::RootedVector<Word> keep(*h);
  // 2,000,000 pairs (48 MB of 24-byte cells) promoted: more than the pool
  // keeps (the first major collection's trigger, 32 MiB, gc/gen.cpp).
  constexpr int kPairs = 2000000, kKept = kPairs / 10;
  for (int i = 0; i < kPairs; ++i) {
    keep.items.push_back(w(pair(*h, fix(i), 0)));
    if (i % 200000 == 0) h->collect();  // a few at a time, as a program would
  }
  h->collect();
  gc::GenFigures f;
  REQUIRE(gc::gen_figures(*h, f));
  CHECK(f.old.fragmentation < 0.05);  // every cell live
  uint64_t full_pages = f.old.page_bytes;
  CHECK(full_pages >= kPairs * sizeof(Pair));
  // Every tenth kept: nine cells in ten are free, in pages that all still
  // hold live ones.
  for (size_t i = 0; i < keep.items.size(); ++i)
    if (i % 10) keep.items[i] = fix(0);
  h->collect();
  REQUIRE(gc::gen_figures(*h, f));
  CHECK(f.old.fragmentation > 0.8);
  CHECK(h->stats().fragmentation == f.old.fragmentation);  // what (gc-stats) reports
  CHECK(f.old.free_partial_bytes >= 8 * kKept * sizeof(Pair));
  CHECK(f.compactions == 0);
  CHECK(f.old.released_bytes == 0);
  // So the next major collection compacts: the 200,000 pairs move into as
  // few pages as they fill, every reference to them follows, and the pages
  // they leave go to the pool, which keeps what the old generation may grow
  // by before the next major collection (32 MiB at least) and unmaps the rest.
  Pair* moved = as_pair(keep.items[10]);
  h->collect();
  REQUIRE(gc::gen_figures(*h, f));
  CHECK(f.compactions == 1);
  CHECK(h->stats().compactions == 1);
  CHECK(f.old.evacuated_bytes == kKept * sizeof(Pair));
  CHECK(h->stats().bytes_compacted == kKept * sizeof(Pair));
  CHECK(f.old.fragmentation < 0.05);
  CHECK(f.old.page_bytes - f.old.pooled_bytes < 2 * kKept * sizeof(Pair) + 64 * 1024);
  CHECK(f.old.pooled_bytes <= (32u << 20));
  CHECK(f.old.released_bytes > 0);
  CHECK(as_pair(keep.items[10]) != moved);
  CHECK(h->stats().bytes_live == kKept * sizeof(Pair));
  for (size_t i = 0; i < keep.items.size(); i += 10)
    CHECK(as_pair(keep.items[i])->a == fix(int64_t(i)));
  CHECK(h->verify().empty());
  // Nothing kept: every page is empty, pooled (32 MiB of them with the
  // spare eden chunks kept for the same growth).
  keep.items.clear();
  h->collect();
  REQUIRE(gc::gen_figures(*h, f));
  CHECK(f.old.fragmentation == 0);
  CHECK(f.old.pooled_bytes == f.old.page_bytes);
  CHECK(f.old.page_bytes + f.kept_chunk_bytes == (32u << 20));
  CHECK(f.old.page_bytes >= (24u << 20));
  CHECK(h->stats().bytes_live == 0);
  // Pooled pages serve any size class.
  gc::Rooted<Word> big(*h, gc::word_of(&array(*h, 100)->h));  // 824 bytes
  h->collect();
  REQUIRE(gc::gen_figures(*h, f));
  CHECK(f.old.page_bytes + f.kept_chunk_bytes == (32u << 20));
  CHECK(h->verify().empty());
}

TEST_CASE("gen: release_spare_memory packs the old generation and gives back its spare memory",
          "[gc]") {
  auto h = heap_with_res("gen-stw");
  gc::RootedVector<Word> keep(*h);
  for (int i = 0; i < 100000; ++i) keep.items.push_back(w(pair(*h, fix(i), 0)));
  h->collect();
  gc::GenFigures big;
  REQUIRE(gc::gen_figures(*h, big));
  for (size_t i = 0; i < keep.items.size(); ++i)
    if (i % 10) keep.items[i] = fix(0);
  h->collect();  // nine cells in ten free, in pages that still hold live ones
  gc::GenFigures f;
  REQUIRE(gc::gen_figures(*h, f));
  CHECK(f.old.free_partial_bytes >= 80000 * sizeof(Pair));
  CHECK(f.compactions == 0);
  uint64_t majors = h->stats().major_collections;
  // What srv.arc's idle server calls (the builtin %trim-memory, io/server.cpp):
  // one more collection, compacting, then no pooled page kept.
  h->release_spare_memory();
  REQUIRE(gc::gen_figures(*h, f));
  CHECK(h->stats().major_collections == majors + 1);
  CHECK(f.compactions == 1);
  CHECK(f.old.pooled_bytes == 0);
  CHECK(f.old.page_bytes < 2 * 10000 * sizeof(Pair) + 64 * 1024);
  CHECK(f.old.fragmentation < 0.05);
  // and the room its lists of pages kept from the largest (a tenth of them left)
  CHECK(f.old.index_bytes < big.old.index_bytes / 2);
  for (size_t i = 0; i < keep.items.size(); i += 10)
    CHECK(as_pair(keep.items[i])->a == fix(int64_t(i)));
  CHECK(h->verify().empty());
  // Packed already: nothing more to compact; allocation goes on as before
  // in the memory given back (it reads as zeros).
  h->release_spare_memory();
  REQUIRE(gc::gen_figures(*h, f));
  CHECK(h->stats().major_collections == majors + 1);
  for (int i = 0; i < 50000; ++i) keep.items.push_back(w(pair(*h, fix(i), 0)));
  h->collect();
  CHECK(as_pair(keep.items.back())->a == fix(49999));
  CHECK(h->verify().empty());
}

TEST_CASE("marksweep: after release_spare_memory the heap allocates and collects as before",
          "[gc]") {
  auto h = heap_with_res("marksweep");
  {
    gc::RootedVector<Word> keep(*h);
    for (int i = 0; i < 100000; ++i) keep.items.push_back(w(pair(*h, fix(i), 0)));
    h->collect();
  }
  h->collect();  // every page empty, pooled
  CHECK(h->stats().bytes_live == 0);
  h->release_spare_memory();  // the pool unmapped
  gc::Rooted<Word> p(*h, w(pair(*h, fix(7), 0)));
  h->collect();
  CHECK(as_pair(p.get())->a == fix(7));
  CHECK(h->verify().empty());
}

TEST_CASE("gen: compaction keeps the remembered set and survivors' references right", "[gc]") {
  auto h = heap_with_res("gen-stw");
  REQUIRE(h->set_promote_age(3));
  gc::RootedVector<Word> keep(*h);
  for (int i = 0; i < 100000; ++i) keep.items.push_back(w(pair(*h, fix(i), 0)));
  h->collect();
  for (size_t i = 0; i < keep.items.size(); ++i)
    if (i % 10) keep.items[i] = fix(0);
  h->collect();  // fragmented: the next major collection compacts
  // An old pair (about to move) holds a young one; a survivor holds an old
  // pair (about to move).
  Pair* o = as_pair(keep.items[20]);
  h->write(&o->h, &o->b, w(pair(*h, fix(-1), 0)));
  gc::Rooted<Word> survivor(*h, w(pair(*h, keep.items[30], 0)));
  h->collect_minor();  // the young pair and the survivor: age 1
  // A major collection that keeps the survivors young: a minor one whose
  // promotions pass the major trigger would do it; collect() would promote
  // them all. Stress mode's every-other-major compaction is the same code.
  h->set_stress(true);
  for (int i = 0; i < 64 && h->stats().major_collections < 3; ++i) h->collect_minor();
  h->set_stress(false);
  gc::GenFigures f;
  REQUIRE(gc::gen_figures(*h, f));
  CHECK(f.compactions >= 1);
  CHECK(as_pair(as_pair(keep.items[20])->b)->a == fix(-1));
  CHECK(as_pair(as_pair(survivor)->a)->a == fix(30));
  CHECK(as_pair(survivor)->a == keep.items[30]);
  CHECK(h->verify().empty());
}

TEST_CASE("gen: compaction skips dead survivors, whose referents may be unmapped", "[gc]") {
  auto h = heap_with_res("gen-stw");
  REQUIRE(h->set_promote_age(3));
  gc::RootedVector<Word> keep(*h);
  // 2,000,000 pairs: the pages the last compaction empties are more than
  // the pool keeps (32 MiB), so some are unmapped.
  for (int i = 0; i < 2000000; ++i) keep.items.push_back(w(pair(*h, fix(i), 0)));
  h->collect();
  // Stress mode compacts at every other major collection, and runs one
  // every 32 safe points: the 64th from here compacts.
  h->set_stress(true);
  for (int i = 0; i < 63; ++i) h->collect_minor();
  h->set_stress(false);
  // A dead old pair, still remembered, holds a young chain whose pairs
  // refer to old pairs in pages about to die whole (pooled, or unmapped if
  // the sweep trimmed the pool first, as it once did: then this crashed). The
  // chain is copied as survivors (the minor collection takes the remembered
  // set as roots) but is dead.
  Word chain = 0;
  for (int i = 1; i < 1900000; i += 4000) chain = w(pair(*h, keep.items[size_t(i)], chain));
  Pair* o = as_pair(keep.items[1]);
  h->write(&o->h, &o->b, chain);
  for (size_t i = 0; i < keep.items.size(); ++i)
    if (i < 1900000 || i % 10) keep.items[i] = fix(0);  // the last pages stay sparse
  h->set_stress(true);
  h->collect_minor();
  h->set_stress(false);
  gc::GenFigures f;
  REQUIRE(gc::gen_figures(*h, f));
  CHECK(f.compactions == 1);
  CHECK(f.old.released_bytes > 0);
  for (size_t i = 1900000; i < keep.items.size(); i += 10)
    CHECK(as_pair(keep.items[i])->a == fix(int64_t(i)));
  CHECK(h->verify().empty());
}

TEST_CASE("gen: large objects are a space of their own", "[gc]") {
  auto h = heap_with_res("gen-stw");
  gc::Rooted<Word> root(*h, gc::word_of(&array(*h, 1000)->h));  // 8 KB: over kMaxSmall
  array(*h, 2000);                                              // garbage
  gc::GenFigures f;
  REQUIRE(gc::gen_figures(*h, f));
  CHECK(f.old.large_objects == 2);
  CHECK(f.old.large_bytes == 2 * sizeof(Array) + 3000 * sizeof(Word));
  CHECK(f.old.page_bytes == 0);  // no small-object page taken
  h->collect();
  REQUIRE(gc::gen_figures(*h, f));
  CHECK(f.old.large_objects == 1);
  CHECK(f.old.large_bytes == sizeof(Array) + 1000 * sizeof(Word));
  CHECK(h->verify().empty());
}

TEST_CASE("gen: pause statistics by kind", "[gc]") {
  auto h = heap_with_res("gen-stw");
  for (int i = 0; i < 5; ++i) h->collect_minor();
  h->collect();
  CHECK(h->stats().collections == 6);
  CHECK(h->stats().minor_collections == 5);
  CHECK(h->stats().major_collections == 1);
  CHECK(h->stats().pauses_ms.count() == 6);
}

TEST_CASE("boehm: rooted objects survive, garbage is collected", "[gc]") {
  auto h = heap_with_res("boehm");
  // Roots in malloc'd memory, which libgc does not scan by itself.
  gc::RootedVector<Word> keep(*h);
  for (int i = 0; i < 2000; ++i) keep.items.push_back(w(pair(*h, fix(i), 0)));
  for (int i = 0; i < 200000; ++i) pair(*h, fix(-1), 0);
  CHECK(h->stats().collections == 0);  // allocation never collects
  h->collect();
  CHECK(h->stats().collections >= 1);
  for (int i = 0; i < 200000; ++i) pair(*h, fix(-2), 0);  // reuses the freed memory
  for (int i = 0; i < 2000; ++i) CHECK(as_pair(keep.items[size_t(i)])->a == fix(i));
  CHECK(h->verify().empty());
  CHECK(h->stats().peak_heap_bytes > 0);
}

namespace {
[[gnu::noinline]] void make_resources(gc::Heap& h, int n) {
  for (int i = 0; i < n; ++i) h.allocate(sizeof(Res), kRes);
}
}  // namespace

TEST_CASE("boehm: finalizers run after a collection", "[gc]") {
  auto h = heap_with_res("boehm");
  g_finalized = 0;
  make_resources(*h, 100);
  h->collect();
  h->collect();
  CHECK(g_finalized > 50);  // conservative: a stray word may keep a few
}

// ---- vcgc: the concurrent collector (gc/vcgc.cpp) ----

namespace {

// A kind whose references live outside the heap and change without the
// barrier, as a fiber's stack does: its trace reads a side table, and
// records the thread it runs on.
struct Holder {
  GcHeader h;
  uint64_t id;
};
constexpr uint8_t kHolder = 3;
std::unordered_map<uint64_t, Word> g_outside;  // holder id -> its reference
std::atomic<int> g_foreign_traces{0};
std::thread::id g_main_thread;
std::atomic<int> g_foreign_finalizers{0};

std::unique_ptr<gc::Heap> vcgc_heap() {
  auto h = heap_with_res("vcgc");
  g_main_thread = std::this_thread::get_id();
  h->register_kind(kRes, gc::KindInfo{"res", [](const GcHeader*) { return sizeof(Res); }, nullptr,
                                      [](GcHeader*) {
                                        ++g_finalized;
                                        if (std::this_thread::get_id() != g_main_thread)
                                          ++g_foreign_finalizers;
                                      }});
  gc::KindInfo holder{"holder", [](const GcHeader*) { return sizeof(Holder); },
                      [](GcHeader* o, gc::Visitor& v) {
                        if (std::this_thread::get_id() != g_main_thread) ++g_foreign_traces;
                        auto it = g_outside.find(reinterpret_cast<Holder*>(o)->id);
                        if (it != g_outside.end() && gc::is_ref(it->second)) v.visit(&it->second);
                      },
                      [](GcHeader* o) { g_outside.erase(reinterpret_cast<Holder*>(o)->id); }};
  holder.trace_on_mutator = true;
  h->register_kind(kHolder, holder);
  return h;
}

// The length of a list of pairs through b, all of whose a fields are a.
int list_length(Word l, Word a) {
  int n = 0;
  for (; l; l = as_pair(l)->b, ++n)
    if (as_pair(l)->a != a) return -1;
  return n;
}

}  // namespace

TEST_CASE("vcgc: rooted objects survive, garbage is reclaimed, (gc) finishes a cycle",
          "[gc][vcgc]") {
  auto h = vcgc_heap();
  gc::Rooted<Word> root(*h, 0);
  for (int i = 0; i < 1000; ++i) root = w(pair(*h, fix(7), root));
  for (int i = 0; i < 100000; ++i) pair(*h, fix(-1), 0);
  CHECK(h->stats().collections == 0);  // allocation never collects
  h->collect();
  CHECK(h->stats().collections >= 1);
  CHECK(h->stats().pauses_ms.count() == 1);
  CHECK(h->stats().bytes_live == 1000 * sizeof(Pair));
  CHECK(list_length(root, fix(7)) == 1000);
  CHECK(h->verify().empty());
  // The freed cells are reused: 100,000 more pairs need no new pages.
  uint64_t peak = h->stats().peak_heap_bytes;
  for (int i = 0; i < 100000; ++i) pair(*h, fix(-2), 0);
  CHECK(h->stats().peak_heap_bytes == peak);
  CHECK(list_length(root, fix(7)) == 1000);
}

namespace {

// A mutator that keeps moving references while a concurrent collector
// (vcgc, gen) marks.
// kLength: long enough that a mark spans many of the mutator's moves;
// rounds: at least that many.
void moves_references_while_marking(gc::Heap* h, int kLength, int rounds) {
  // 64 holders, each with a list of kLength pairs tagged with the list's
  // number; the mutator keeps swapping lists between holders through the
  // barrier, so a list is often reachable only from a holder the collector
  // has already traced, with its old place overwritten.
  constexpr int kLists = 64;
  Array* arr = array(*h, kLists);
  gc::Rooted<Word> root(*h, gc::word_of(&arr->h));
  for (int i = 0; i < kLists; ++i) {
    Word l = 0;
    for (int j = 0; j < kLength; ++j) l = w(pair(*h, fix(i), l));
    arr->items[i] = w(pair(*h, fix(-1), l));
  }
  h->set_stress(true);
  uint64_t seed = 12345;
  auto rnd = [&seed] {
    seed = seed * 6364136223846793005u + 1442695040888963407u;
    return int(seed >> 33);
  };
  // At least `rounds` rounds and 5 major collections (the collector thread may be slow
  // to get a CPU on a loaded machine).
  for (int round = 0; round < rounds || (h->stats().major_collections < 5 && round < 20000000);
       ++round) {
    h->collect_minor();                          // a handover whenever the collector has finished
    arr = reinterpret_cast<Array*>(root.get());  // (gen's minor collections move it)
    Pair* a = as_pair(arr->items[rnd() % kLists]);
    Pair* b = as_pair(arr->items[rnd() % kLists]);
    Word x = a->b;
    h->write(&a->h, &a->b, 0);                         // x is now held only by this C++ local
    for (int k = 0; k < 20; ++k) pair(*h, fix(k), 0);  // garbage, new objects
    h->write(&a->h, &a->b, b->b);
    h->write(&b->h, &b->b, x);
    if (round % 1000 == 0) {  // a whole new list replaces one
      Pair* c = as_pair(arr->items[rnd() % kLists]);
      int tag = int(as_pair(c->b)->a >> 1);
      Word l = 0;
      for (int j = 0; j < kLength; ++j) l = w(pair(*h, fix(tag), l));
      h->write(&c->h, &c->b, l);
    }
  }
  h->set_stress(false);
  CHECK(h->stats().major_collections >= 5);
  h->collect();
  arr = reinterpret_cast<Array*>(root.get());
  std::vector<int> seen(kLists, 0);
  for (int i = 0; i < kLists; ++i) {
    Word l = as_pair(arr->items[i])->b;
    REQUIRE(l);
    int tag = int(int64_t(as_pair(l)->a) >> 1);
    REQUIRE(tag >= 0);
    REQUIRE(tag < kLists);
    CHECK(list_length(l, fix(tag)) == kLength);
    seen[size_t(tag)]++;
  }
  for (int n : seen) CHECK(n == 1);
  CHECK(h->verify().empty());
}

}  // namespace

TEST_CASE("vcgc: the snapshot survives a mutator that moves references while marking",
          "[gc][vcgc]") {
  auto h = vcgc_heap();
  moves_references_while_marking(h.get(), 50, 20000);
}

// Under stress, gen starts a concurrent mark every few dozen minor
// collections, and checks at its end that every object reachable and old
// is marked (verify() reports any that was not).
TEST_CASE("concurrent mark: the snapshot survives a mutator that moves references while marking",
          "[gc][concurrent]") {
  auto h = heap_with_res("gen");
  moves_references_while_marking(h.get(), 1000, 5000);
}

TEST_CASE(
    "concurrent mark: old objects die in a concurrent major collection, finalized on the mutator",
    "[gc][concurrent]") {
  auto h = heap_with_res("gen");
  g_finalized = 0;
  gc::Rooted<Word> keep(*h, 0);
  for (int i = 0; i < 1000; ++i) keep = w(pair(*h, fix(i), keep));
  for (int i = 0; i < 100; ++i) h->allocate(sizeof(Res), kRes);
  h->collect();  // all of it old now; the Res objects finalized
  CHECK(g_finalized == 100);
  // Old garbage: promoted, then dropped.
  gc::Rooted<Word> drop(*h, 0);
  for (int i = 0; i < 5000; ++i) drop = w(pair(*h, fix(-1), drop));
  for (int i = 0; i < 50; ++i)
    drop = w(pair(*h, gc::word_of(h->allocate(sizeof(Res), kRes)), drop));
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 20000; ++j) pair(*h, fix(0), 0);
    h->collect_minor();
  }
  drop = 0;
  uint64_t majors = h->stats().major_collections;
  h->set_stress(true);  // a concurrent mark starts within kStressMajorEvery minor collections
  for (int i = 0; i < 10000 && h->stats().major_collections < majors + 2; ++i) h->collect_minor();
  h->set_stress(false);
  CHECK(h->stats().major_collections >= majors + 2);
  CHECK(g_finalized == 150);
  int n = 0;
  for (Word l = keep; l; l = as_pair(l)->b) CHECK(as_pair(l)->a == fix(999 - n++));
  CHECK(n == 1000);
  CHECK(h->verify().empty());
}

TEST_CASE("concurrent mark: pages are swept in steps after a mark, objects promoted meanwhile kept",
          "[gc][concurrent]") {
  auto h = heap_with_res("gen");
  gc::Rooted<Word> keep(*h, 0);
  for (int i = 0; i < 1000; ++i) keep = w(pair(*h, fix(1), keep));
  {
    // Old garbage, a hundred pages of it, a sixth of each page's cells on
    // the free lists when the mark begins (too few for a compaction, which
    // would sweep at once): one pair in six of an old list unlinked and
    // collected, then the list dropped.
    gc::Rooted<Word> drop(*h, 0);
    for (int i = 0; i < 300000; ++i) drop = w(pair(*h, fix(-1), drop));
    h->collect();
    int i = 0;
    for (Word l = drop; l && as_pair(l)->b; l = as_pair(l)->b)
      if (++i % 5 == 0) h->write(&as_pair(l)->h, &as_pair(l)->b, as_pair(as_pair(l)->b)->b);
    h->collect();
  }
  h->set_stress(true);
  gc::GenFigures f;
  uint64_t majors = h->stats().major_collections;
  for (int i = 0; i < 10000 && h->stats().major_collections == majors; ++i) h->collect_minor();
  REQUIRE(h->stats().major_collections == majors + 1);
  REQUIRE(gc::gen_figures(*h, f));
  CHECK(f.sweeping);
  // While the pages are swept a few at a time, each minor collection
  // promotes new pairs into the old generation.
  gc::Rooted<Word> fresh(*h, 0);
  int made = 0, minors = 0;
  while (gc::gen_figures(*h, f) && f.sweeping && !f.marking) {
    for (int i = 0; i < 100; ++i, ++made) fresh = w(pair(*h, fix(2), fresh));
    h->collect_minor();
    ++minors;
  }
  h->set_stress(false);
  CHECK(minors > 5);
  CHECK(list_length(fresh, fix(2)) == made);
  CHECK(list_length(keep, fix(1)) == 1000);
  CHECK(h->verify().empty());
  h->collect();
  CHECK(list_length(fresh, fix(2)) == made);
}

// A sweep in steps lasts most of the way to the next mark; a block it finds
// empty goes back to eden's spare chunks as it is reached, not at the end,
// or the promotions meanwhile would take fresh memory while it waited.
TEST_CASE("concurrent mark: a sweep in steps frees each empty block as it reaches it",
          "[gc][concurrent]") {
  auto h = heap_with_res("gen");
  h->set_nursery_size(64 << 10);
  gc::GenFigures f;
  {
    // Twenty chunks' worth of pairs promoted in place, then dropped.
    gc::Rooted<Word> drop(*h, 0);
    for (int i = 0; i < 20 * 64 * 1024 / int(sizeof(Pair)); ++i) drop = w(pair(*h, fix(1), drop));
    h->collect_minor();
    REQUIRE(gc::gen_figures(*h, f));
    REQUIRE(f.blocks >= 15);
  }
  h->set_stress(true);
  uint64_t majors = h->stats().major_collections;
  for (int i = 0; i < 10000 && h->stats().major_collections == majors; ++i) h->collect_minor();
  REQUIRE(h->stats().major_collections == majors + 1);
  REQUIRE(gc::gen_figures(*h, f));
  REQUIRE(f.sweeping);
  uint64_t blocks = f.blocks;
  REQUIRE(blocks >= 15);
  // Under stress each minor collection sweeps one step: a block among them.
  bool freed_while_sweeping = false;
  for (int i = 0; i < 100 && gc::gen_figures(*h, f) && f.sweeping; ++i) {
    if (f.blocks < blocks) freed_while_sweeping = true;
    h->collect_minor();
  }
  h->set_stress(false);
  CHECK(freed_while_sweeping);
  REQUIRE(gc::gen_figures(*h, f));
  CHECK_FALSE(f.sweeping);
  CHECK(f.blocks < 5);
  CHECK(h->verify().empty());
}

TEST_CASE(
    "concurrent mark: before_fork ends the mark and stops the marker, and a child of fork marks "
    "with its own",
    "[gc][concurrent]") {
  auto h = heap_with_res("gen");
  gc::Rooted<Word> keep(*h, 0);
  for (int i = 0; i < 2000; ++i) keep = w(pair(*h, fix(1), keep));
  h->set_stress(true);
  for (int i = 0; i < 40; ++i) h->collect_minor();  // a mark has started (every 32)
  h->set_stress(false);
  uint64_t majors = h->stats().major_collections;
  h->before_fork();
  CHECK(h->stats().major_collections >= majors);
  pid_t pid = fork();
  if (pid == 0) {  // the child: a mark of its own, with a marker of its own
    h->set_stress(true);
    uint64_t m = h->stats().major_collections;
    for (int i = 0; i < 10000 && h->stats().major_collections < m + 2; ++i) h->collect_minor();
    bool ok = h->stats().major_collections >= m + 2 && list_length(keep, fix(1)) == 2000 &&
              h->verify().empty();
    _exit(ok ? 0 : 1);
  }
  REQUIRE(pid > 0);
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(list_length(keep, fix(1)) == 2000);
}

namespace {

// Minor collections under stress until gen's concurrent mark is under way
// (a mark starts every few dozen of them), or false.
bool start_concurrent_mark(gc::Heap& h) {
  gc::GenFigures f;
  h.set_stress(true);
  for (int i = 0; i < 1000; ++i) {
    if (gc::gen_figures(h, f) && f.marking) break;
    h.collect_minor();
  }
  h.set_stress(false);
  return gc::gen_figures(h, f) && f.marking;
}

}  // namespace

// Objects made while the marker runs are not in the snapshot, and the
// marker may never reach them: young ones promoted by the minor
// collections meanwhile, and large ones allocated old at once, are born
// marked (old_bits_), or the mark's end would sweep them from under the
// list that holds them.
TEST_CASE("concurrent mark: objects allocated and promoted during the mark are kept",
          "[gc][concurrent]") {
  auto h = heap_with_res("gen");
  gc::Rooted<Word> keep(*h, 0);
  for (int i = 0; i < 3000; ++i) keep = w(pair(*h, fix(1), keep));
  h->collect();
  REQUIRE(start_concurrent_mark(*h));
  uint64_t majors = h->stats().major_collections;
  gc::Rooted<Word> fresh(*h, 0);
  gc::Rooted<Word> big(*h, 0);  // large arrays (allocated old), each holding a fresh pair
  int made = 0, bigs = 0, minors = 0;
  gc::GenFigures f;
  // Until the mark has ended and its sweep is over, new pairs and new large
  // objects each round, every one of them a minor collection's work.
  for (; minors < 20000; ++minors) {
    if (!(gc::gen_figures(*h, f) && (f.marking || f.sweeping))) break;
    for (int i = 0; i < 200; ++i, ++made) fresh = w(pair(*h, fix(2), fresh));
    if (minors % 4 == 0) {
      Array* a = array(*h, 300);  // 2.4 KiB: past the small objects' limit
      a->items[0] = w(pair(*h, fix(3), 0));
      a->items[1] = big.get();
      big = gc::word_of(&a->h);
      ++bigs;
    }
    h->collect_minor();
    if (minors % 8 == 0) std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  CHECK(h->stats().major_collections > majors);
  CHECK(minors > 0);
  CHECK(list_length(fresh, fix(2)) == made);
  CHECK(list_length(keep, fix(1)) == 3000);
  int n = 0;
  for (Word a = big.get(); a; a = reinterpret_cast<Array*>(a)->items[1], ++n)
    CHECK(as_pair(reinterpret_cast<Array*>(a)->items[0])->a == fix(3));
  CHECK(n == bigs);
  CHECK(h->verify().empty());
}

// A program that ends while its old generation is being marked: the
// heap's owner finalizes everything (finalize_all ends the mark first)
// and destroys the heap, whose marker thread is stopped and joined; every
// object with a finalizer is finalized once, dead or alive.
TEST_CASE("concurrent mark: a program that ends during the mark finalizes everything once",
          "[gc][concurrent]") {
  for (int round = 0; round < 3; ++round) {
    auto h = heap_with_res("gen");
    g_finalized = 0;
    {
      gc::Rooted<Word> keep(*h, 0);
      for (int i = 0; i < 40; ++i)
        keep = w(pair(*h, gc::word_of(h->allocate(sizeof(Res), kRes)), keep));
      for (int i = 0; i < 2000; ++i) keep = w(pair(*h, fix(i), keep));
      h->collect();                                                 // the Res objects old
      for (int i = 0; i < 30; ++i) h->allocate(sizeof(Res), kRes);  // young garbage
      REQUIRE(start_concurrent_mark(*h));
      gc::GenFigures f;
      REQUIRE(gc::gen_figures(*h, f));
      CHECK(f.marking);
      if (round == 1) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      int before = g_finalized;  // (the young garbage's, some of it, at minor collections)
      CHECK(before <= 30);
      keep = 0;
    }  // (keep unregistered: the heap goes below)
    h->finalize_all();
    CHECK(g_finalized == 70);
    h.reset();  // the marker stopped, nothing finalized twice
    CHECK(g_finalized == 70);
  }
}

TEST_CASE("vcgc: finalizers run on the mutator thread, at a safe point", "[gc][vcgc]") {
  auto h = vcgc_heap();
  g_finalized = 0;
  g_foreign_finalizers = 0;
  gc::Rooted<Word> keep(*h, gc::word_of(h->allocate(sizeof(Res), kRes)));
  for (int i = 0; i < 100; ++i) h->allocate(sizeof(Res), kRes);
  h->set_stress(true);
  // Epochs turn over on the collector thread; finalizers wait for a safe point.
  for (int i = 0; i < 200 && g_finalized < 100; ++i) {
    h->collect_minor();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  h->set_stress(false);
  h->collect();
  CHECK(g_finalized == 100);
  CHECK(g_foreign_finalizers == 0);
  h->finalize_all();
  CHECK(g_finalized == 101);
}

TEST_CASE("vcgc: kinds traced on the mutator keep their referents, and can die", "[gc][vcgc]") {
  auto h = vcgc_heap();
  g_outside.clear();
  g_foreign_traces = 0;
  auto* kept = reinterpret_cast<Holder*>(h->allocate(sizeof(Holder), kHolder));
  kept->id = 1;
  gc::Rooted<Word> root(*h, gc::word_of(&kept->h));
  // A dropped holder whose outside state refers to itself (a generator
  // holding its own fiber) must still die.
  auto* dropped = reinterpret_cast<Holder*>(h->allocate(sizeof(Holder), kHolder));
  dropped->id = 2;
  g_outside[2] = gc::word_of(&dropped->h);
  h->set_stress(true);
  for (int round = 0; round < 3000; ++round) {
    h->collect_minor();
    // The outside state changes with no barrier, as a fiber's stack does.
    Word l = 0;
    for (int j = 0; j < 10; ++j) l = w(pair(*h, fix(round), l));
    g_outside[1] = l;
  }
  h->set_stress(false);
  h->collect();
  CHECK(list_length(g_outside[1], fix(2999)) == 10);
  CHECK(g_outside.count(2) == 0);  // finalized
  CHECK(g_foreign_traces == 0);
  CHECK(h->verify().empty());
}

TEST_CASE("vcgc: the pacer bounds the heap when allocation outpaces the collector", "[gc][vcgc]") {
  auto h = vcgc_heap();
  gc::Rooted<Word> root(*h, 0);
  for (int i = 0; i < 100000; ++i) root = w(pair(*h, fix(1), root));  // 3 MB live
  // 320 MB of garbage, a safe point every 1,000 allocations.
  for (int i = 0; i < 10000000; ++i) {
    pair(*h, fix(i), 0);
    if (i % 1000 == 0 && h->collection_wanted()) h->collect_minor();
  }
  CHECK(h->stats().collections > 2);
  CHECK(h->stats().peak_heap_bytes < uint64_t(160) << 20);
  CHECK(list_length(root, fix(1)) == 100000);
  h->collect();
  CHECK(h->verify().empty());
}

TEST_CASE("vcgc: the verifier finds a dangling reference", "[gc][vcgc]") {
  auto h = vcgc_heap();
  gc::Rooted<Word> root(*h, w(pair(*h, fix(1), 0)));
  Pair* lost = pair(*h, fix(1), 0);  // unreachable: freed by the collection
  h->collect();
  REQUIRE(h->verify().empty());
  as_pair(root)->b = w(lost);  // a raw store of a freed object
  auto problems = h->verify();
  REQUIRE(!problems.empty());
  CHECK(problems[0].find("dangling") != std::string::npos);
}
