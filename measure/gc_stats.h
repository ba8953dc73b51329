// measure/gc_stats.h — the collector's statistics as named figures: the one list
// of their names, read by (gc-stats) (vm/builtins/control.cpp), which makes
// a table of them, and by `arcana --stats` (repl/repl.cpp), which prints
// them at exit, so both show the same figures under the same names.
#pragma once

#include <cstdint>
#include <vector>

#include "gc/heap.h"

namespace vm {

struct GcFigure {
  enum Kind : uint8_t {
    Count,  // collections, objects, bytes: `count`
    Ms,     // a time in milliseconds: `number`
    Ratio,  // a share, from 0 to 1: `number`
    Name,   // the collector's name: `name`
  };
  const char* key;
  Kind kind;
  uint64_t count = 0;
  double number = 0;
  const char* name = nullptr;
};

// The figures of `heap` now (gc/heap.h GcStats, refreshed first), the same
// under every collector, followed by the process's CPU time and peak RSS so
// that a benchmark can report them itself.
std::vector<GcFigure> gc_figures(gc::Heap& heap);

}  // namespace vm
