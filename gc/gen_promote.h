// gc/gen_promote.h — promotion in place, the part of the generational
// collector (`gen`, gc/gen.cpp) that leaves live eden objects where they are
// (after V8's page promotion); and gen's header bits, which both files use.
//
// A minor collection's pause is its copying, and a program building a big
// structure keeps nearly all of eden live: each collection would copy a whole
// chunk, then again at promotion. So a minor collection copies at most
// nursery_size / kCopyBudgetShare bytes out of eden (kMaxCopyBudget at most,
// whatever the nursery: about a millisecond of copying). Past that budget, or
// from the start when the last one found at least kInPlaceAbove of eden live
// (then only for eden's full chunks; the current one, partly used, is copied
// within the budget), a live eden object it reaches is promoted where it is:
// it becomes old (gcbits kInBlock) and is traced like a copy; nothing refers
// to it differently. Survivors in the from-space are still copied, and so are
// objects with a finalizer (ports, fibers, threads), whatever the budget: few
// and small, and one of them left in a block would keep the block's whole
// chunk for as long as it lives. CopyBudget decides, object by object.
//
// The eden chunks that received an object promoted this way become blocks of
// the old generation as they are (Blocks): their unreached objects stay
// young-marked garbage, and the originals of the objects copied become
// fillers (kind kFreeKind, their bytes in the first payload word); the other
// chunks are emptied as usual. Blocks are never allocated into. A major
// collection counts, as it marks, the objects each block holds
// (Block::marked); a block's mark bit means marked when it equals a sense
// each major collection flips (is_marked), so marks need no clearing. A block
// with no marked object is freed whole (it becomes a spare eden chunk), and
// one whose objects all lived is left as it is, both without a pass over
// them; the others are swept in one pass in address order that merges each
// run of dead objects into one filler. A block left at most kSparsePage full
// is compacted when that frees more than kCompactMinBytes (gen.cpp's
// thresholds for its pages): its objects move into the old generation's
// pages as a sparse page's do (gen.cpp, "compacted by evacuation").
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "gc/heap.h"
#include "gc/pages.h"

namespace gc::gen {

// ---- gen's header bits (GcHeader::gcbits; gc/gen.cpp's essay) ----
constexpr uint8_t kMarkBit = PageSpace::kMarkBit;
constexpr uint8_t kYoung = 2;
constexpr uint8_t kForwarded = 4;
constexpr uint8_t kRemembered = 8;
constexpr int kAgeShift = 4;
// An old object promoted in place, in a block (the lowest age bit: old
// objects have no age; in a young one it is part of the age).
constexpr uint8_t kInBlock = 1 << kAgeShift;
static_assert(kMaxPromoteAge == 0xff >> kAgeShift);

inline unsigned age_of(const GcHeader* h) { return h->gcbits >> kAgeShift; }

// An object's bytes as allocated (rounded), k its kind's.
inline size_t object_bytes(const KindInfo& k, const GcHeader* h) {
  return k.plain_size && !h->flags ? round_object_size(k.plain_size) : round_object_size(k.size(h));
}
inline size_t object_bytes(const KindInfo* kinds, const GcHeader* h) {
  return object_bytes(kinds[h->kind], h);
}

inline bool in(Word w, const char* a, const char* b) {
  return w >= reinterpret_cast<Word>(a) && w < reinterpret_cast<Word>(b);
}

// A filler: dead bytes in a block, kind kFreeKind, their count in the first
// payload word (every object has one: objects are at least 16 bytes).
inline size_t filler_bytes(const GcHeader* h) { return reinterpret_cast<const Word*>(h + 1)[0]; }
inline void make_filler(char* at, size_t bytes) {
  auto* h = reinterpret_cast<GcHeader*>(at);
  *h = GcHeader{kFreeKind, 0, 0, 0};
  reinterpret_cast<Word*>(h + 1)[0] = Word(bytes);
}

// An eden chunk.
struct Chunk {
  char* start;
  size_t size;
  char* used_end;         // for chunks retired from allocation: how far they filled
  bool promoted = false;  // a minor collection promoted an object in it in place
};

// ---- What a minor collection copies out of eden ----

// A minor collection promotes eden in place from the start when at least
// kInPlaceAbove of eden's bytes survived the one before; else it copies at
// most nursery_size / kCopyBudgetShare bytes (kMaxCopyBudget at most) out of
// eden, then promotes the rest of eden in place.
constexpr double kInPlaceAbove = 0.5;
constexpr size_t kCopyBudgetShare = 2;
constexpr size_t kMaxCopyBudget = size_t(512) << 10;
// Under stress every kStressInPlaceEvery-th minor collection copies at most
// kStressCopyBudget bytes out of eden.
constexpr uint64_t kStressInPlaceEvery = 3;
constexpr size_t kStressCopyBudget = 48;

class CopyBudget {
 public:
  // A minor collection begins. With promote_all ((gc): every survivor is
  // promoted by copying) the budget is unlimited.
  void begin(bool promote_all, bool stress, size_t nursery_size);

  // Whether the collection copies the live eden object h (else it promotes
  // it in place): while the budget lasts. Once it is spent, the collection
  // promotes the rest of eden in place, and the originals of the objects it
  // copied become fillers (end). [current, current_top) is the used part of
  // the chunk eden allocates in.
  // k is h's kind's.
  bool copies(GcHeader* h, const KindInfo& k, const char* current, const char* current_top) {
    bool finalizable = k.finalize != nullptr;  // copied whatever the budget
    if (!finalizable) {
      if (all_in_place_) return false;
      if (in_place_ && !in(word_of(h), current, current_top)) return false;
    }
    size_t bytes = object_bytes(k, h);
    if (left_ == SIZE_MAX) return true;
    if (!finalizable) {
      if (bytes > left_) {
        in_place_ = all_in_place_ = true;
        return false;
      }
      left_ -= bytes;
    }
    copied_.push_back(Copied{h, bytes});
    return true;
  }
  void promoted_in_place(size_t bytes) { in_place_bytes_ += bytes; }

  // Everything live has been traced; eden_bytes is what eden held. Measures
  // the share of eden that survived, for the next collection's begin.
  // Returns the bytes promoted in place.
  uint64_t traced(bool promote_all, uint64_t eden_bytes);
  // After the forwarding addresses of the copies have been followed: the
  // originals of the copies become fillers if their chunks may become
  // blocks, and the collection's promotion in place is over.
  void end();

  uint64_t total_in_place() const { return total_; }  // since start
  void release_memory();                              // the copies' list's room

 private:
  struct Copied {
    GcHeader* from;
    size_t bytes;
  };
  // This collection promotes eden's full chunks in place (in_place_), or
  // all of eden (all_in_place_: the current chunk too).
  bool in_place_ = false;
  bool all_in_place_ = false;
  size_t left_ = 0;              // what it may still copy out of eden
  size_t start_ = 0;             // ... and what it could at the start
  uint64_t in_place_bytes_ = 0;  // what it promoted in place
  std::vector<Copied> copied_;   // the eden objects it copied, and their bytes
  double survival_ = 0;          // the share of eden the last one found live
  uint64_t total_ = 0;           // bytes promoted in place, since start
  uint64_t stress_minors_ = 0;
};

// ---- The blocks: eden chunks promoted in place, in the old generation ----

// A block: its objects from start to end, packed, live ones and fillers;
// live, their bytes as of the last sweep (or the promotion).
struct Block {
  char* start;
  size_t size;
  char* end;
  size_t live;                    // bytes; until its first sweep, all of them
  uint64_t objects = UINT64_MAX;  // live ones as of its last sweep (none yet: unknown)
  uint64_t marked = 0;            // objects the current major collection marked
  bool evacuate = false;          // set apart by a compaction
  bool unswept = false;           // begin_sweep's, until sweep_some reaches it
};

class Blocks {
 public:
  using Recycle = std::function<void(char* start, size_t size)>;  // takes an empty chunk back

  Blocks() = default;
  ~Blocks();
  Blocks(const Blocks&) = delete;
  Blocks& operator=(const Blocks&) = delete;

  // After a minor collection: chunk c, which received an object promoted in
  // place, becomes a block as it is: its live objects are old (kInBlock),
  // the dead ones still young until the next major collection sweeps them.
  // During a concurrent major collection's marking (marking), its promoted
  // objects are marked already (promoted_bits), and the block is counted
  // as holding a marked one, so that the sweep looks at it.
  void adopt(const Chunk& c, bool marking = false);
  // The header bits of an object promoted in place: in a block, unmarked
  // for the next major collection (which flips the sense).
  uint8_t promoted_bits() const { return kInBlock | (sense_ ? kMarkBit : 0); }
  // The bytes a minor collection promoted in place, now live in blocks.
  void add_live(uint64_t bytes) { live_ += bytes; }

  // ---- A major collection: the mark ----
  void begin_marking() {
    for (Block& b : blocks_) b.marked = 0;
    sense_ = !sense_;
  }
  static bool in_block(const GcHeader* h) { return (h->gcbits & (kInBlock | kYoung)) == kInBlock; }
  // Whether a major collection has marked h (any object). In a block, an
  // object is marked when its mark bit is the sense, which each major
  // collection flips: the marks of one are the next one's unmarked state,
  // so a block none of whose objects died needs no pass to clear them.
  bool is_marked(const GcHeader* h) const { return marked_bits(h->gcbits); }
  // The same, of an object whose header bits g were read already.
  bool marked_bits(uint8_t g) const {
    if ((g & (kInBlock | kYoung)) == kInBlock) return bool(g & kMarkBit) == sense_;
    return g & kMarkBit;
  }
  // Marks h, in a block: its bit flips to the sense. The atomic form is
  // the concurrent marker's, whose flip must not lose a bit the mutator's
  // write barrier sets in the same byte at once (kRemembered).
  void mark(GcHeader* h) {
    h->gcbits ^= kMarkBit;
    block_of(h)->marked++;
  }
  void mark_atomic(GcHeader* h) {
    __atomic_fetch_xor(&h->gcbits, kMarkBit, __ATOMIC_RELAXED);
    block_of(h)->marked++;
  }
  bool sense() const { return sense_; }

  // ---- ... its sweep, and the compaction ----
  // The chunks adopted since the last call (since the last major collection).
  size_t take_adopted() {
    size_t n = adopted_;
    adopted_ = 0;
    return n;
  }
  // After the mark: a block with no marked object is freed whole (recycle),
  // and one whose objects all lived is left as it is, both without a pass
  // over them; the others are swept (sweep_block). (Blocks hold no object
  // with a finalizer.)
  void sweep(const KindInfo* kinds, const Recycle& recycle);
  // The same sweep in steps (gen's concurrent mark, between minor collections): begin_sweep
  // sets every block apart as unswept; sweep_some sweeps at most
  // max_blocks of them, a block found empty going at once (recycle), and
  // is true once none is left, when the live bytes are summed again.
  // Nothing is allocated in a block, and one adopted meanwhile counts as
  // swept.
  void begin_sweep();
  bool sweep_some(const KindInfo* kinds, const Recycle& recycle, size_t max_blocks);
  bool sweeping() const { return sweeping_; }
  size_t left_to_sweep() const { return sweeping_ ? blocks_.size() - sweep_next_ : 0; }
  // After the sweep: sets apart the blocks at most max_occupancy full, if the
  // memory they would give back is worth a compaction (more than min_bytes;
  // under stress, every other time). True iff any is set apart.
  bool plan_evacuation(double max_occupancy, uint64_t min_bytes, bool stress);
  // Calls f(GcHeader*) for every object (not the fillers) of every block
  // set apart for evacuation (set_apart) or of every other block.
  template <class F>
  void for_each_object(const KindInfo* kinds, F f, bool set_apart) {
    for (const Block& b : blocks_)
      for (char* p = b.start; p < b.end && b.evacuate == set_apart;) {
        auto* h = reinterpret_cast<GcHeader*>(p);
        if (h->kind == kFreeKind) {
          p += filler_bytes(h);
        } else {
          p += object_bytes(kinds, h);
          f(h);
        }
      }
  }
  // The objects of the blocks set apart have moved: those blocks go.
  void release_evacuated(const Recycle& recycle);

  // True iff w points into a block, not at a filler.
  bool contains(Word w) const;
  size_t count() const { return blocks_.size(); }
  uint64_t live_bytes() const { return live_; }
  uint64_t mapped_bytes() const { return mapped_; }
  uint64_t evacuated_bytes() const { return evacuated_; }  // since start

 private:
  // The block holding h (kInBlock), for the marker: the last one found
  // first, since the objects a structure holds are mostly allocated
  // together.
  Block* block_of(GcHeader* h);
  void sweep_block(const KindInfo* kinds, Block& b);

  std::vector<Block> blocks_;  // by address
  Block* last_ = nullptr;      // block_of's last answer
  bool sense_ = false;         // a marked block object's mark bit (is_marked)
  uint64_t live_ = 0;          // their live bytes
  uint64_t mapped_ = 0;        // their chunks' bytes
  uint64_t evacuated_ = 0;     // moved out of sparse blocks, since start
  size_t adopted_ = 0;         // chunks adopted since take_adopted
  uint64_t stress_plans_ = 0;
  bool sweeping_ = false;
  size_t sweep_next_ = 0;  // sweep_some's next block
};

}  // namespace gc::gen
