// measure/sites.h — what each site of an Arc program costs: type dispatches by
// site and type, allocations by site and kind with their bytes, and
// collections by the site whose allocation started them. --stats prints
// the top sites at exit; (site-stats) gives them to Arc as a table and
// (site-stats-reset) starts them again (docs/LANGUAGE.md 8.4).
//
// A site is a function and a source line (fn@FILE:LINE for an anonymous
// function, as the profiler names it). Counting is off unless --stats or
// (count-sites t) turned it on; then the interpreter dispatches every
// instruction through its counting label (VM::run's count_op), which
// records the running code and pc here, charging the type dispatches
// counted since the last instruction (TYPE's counts in g_profile) to that
// instruction's site; alloc's counting hook (vm/object.h) calls
// allocation(). A type test or an allocation inside a builtin is charged
// to the Arc line that called the builtin; one outside any Arc code (the
// reader, the compiler between forms) to the site "(outside Arc)".
//
// Code objects move in collections, so (code, pc) pairs are resolved to
// sites through a cache that every collection empties, and the code
// recorded is forgotten at each collection until the next instruction
// records it again (forget_code).
#pragma once
#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

#include "vm/code.h"
#include "vm/object.h"

namespace vm {

struct Code;

class SiteCounters {
 public:
  struct Site {
    std::string function, file;
    uint32_t line = 0;
  };
  struct Dispatches {
    uint32_t site;
    Kind kind;
    uint64_t count;
  };
  struct Allocations {
    uint32_t site;
    Kind kind;
    uint64_t count, bytes;
  };
  struct Collections {
    uint32_t site;
    uint64_t minor, major;
  };

  // heap: the one whose collections move the code the cache keys on.
  explicit SiteCounters(gc::Heap& heap);

  // The interpreter's record of where it is (count_op): c's word pc, the
  // one after the running instruction's first. The type dispatches since
  // the last record (g_profile's counts) were that instruction's.
  // Out of line and cold: in the interpreter loop's counting path, which
  // must not cost the loop registers when counting is off.
  [[gnu::cold, gnu::noinline]] void at(Code* c, uint32_t pc);
  // The same from the frame at base (its function's code) and a pc into
  // that code's instructions.
  [[gnu::cold, gnu::noinline]] void at_frame(const Value* base, const Insn* pc);
  Code* code() const { return code_; }
  uint32_t pc() const { return pc_; }
  // No Arc code runs from here on (the end of a top-level form). The code
  // recorded is always a live one, or null: collections null it.
  void forget_code() {
    flush();
    code_ = nullptr;
  }
  // Charges the type dispatches since the last flush to the site recorded.
  void flush();
  // Counting starts here: what g_profile counted so far is no site's.
  void snapshot();

  // An object of kind k and bytes was allocated; wanted: the heap now
  // wants a collection (the first allocation that makes it want one is
  // the collection's trigger).
  void allocation(Kind k, size_t bytes, bool wanted);
  // Before a collection (while the code recorded has not moved): the site
  // that started it, the trigger recorded or else the running site (a (gc)
  // call). After it: the collection ran (major: a full one).
  uint32_t collection_site();
  void collection(uint32_t site, bool major);
  void reset();

  const Site& site(uint32_t id) const { return sites_[id]; }
  // The counts, most first.
  std::vector<Dispatches> top_dispatches() const;
  std::vector<Allocations> top_allocations() const;
  std::vector<Collections> top_collections() const;

 private:
  uint32_t current_site();

  gc::Heap& heap_;
  Code* code_ = nullptr;
  uint32_t pc_ = 0;
  uint64_t seen_[kKindCount] = {};  // g_profile.type_counts at the last flush
  bool trigger_set_ = false;
  uint32_t trigger_ = 0;
  uint64_t epoch_ = 0;  // the heap's collection count the cache is good for
  struct CodePc {
    Code* code;
    uint32_t pc;
    bool operator==(const CodePc& o) const { return code == o.code && pc == o.pc; }
  };
  struct CodePcHash {
    size_t operator()(const CodePc& k) const {
      return std::hash<const void*>()(k.code) * 31 + k.pc;
    }
  };
  std::unordered_map<CodePc, uint32_t, CodePcHash> cache_;  // -> site
  std::unordered_map<std::string, uint32_t> by_name_;       // function, file, line -> site
  // 0: outside Arc. A deque: site() references stay good as sites are
  // added, which counting the allocations of a report of them does.
  std::deque<Site> sites_;
  // Keyed by site << 8 | kind.
  std::unordered_map<uint64_t, uint64_t> dispatches_;
  std::unordered_map<uint64_t, std::pair<uint64_t, uint64_t>> allocations_;
  std::unordered_map<uint32_t, std::pair<uint64_t, uint64_t>> collections_;
};

}  // namespace vm
