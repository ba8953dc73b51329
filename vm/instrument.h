// vm/instrument.h — how the measurement library (measure/) watches the
// core without the core knowing it: the VM calls the Instrument attached
// to it (VM::attach) at the few events measuring needs, and nothing when
// none is attached or the instrument is idle. The counting that must cost
// nothing while off stays the core's: the type dispatches' counters
// (Profile, vm/object.h), the VM's test before counting an allocation
// (VM::counting) and the profiler's tick count (VM::profile_ticks); what
// the counts mean, the sites they are charged to, the profiler's samples
// and their pprof file are the library's.
#pragma once
#include <cstdint>

#include "vm/code.h"
#include "vm/object.h"

namespace vm {

struct Builtin;

class Instrument {
 public:
  virtual ~Instrument() = default;

  // ---- counting by site (while Profile::counting is this instrument) ----
  // The interpreter is at instruction pc of c (a run begins or ends).
  virtual void enter_site(Code* c, uint32_t pc) = 0;
  // The frame at base is at pc (each instruction, while counting).
  virtual void at_frame(const Value* base, const Insn* pc) = 0;
  // The code and pc recorded last (a run saves them to give them back),
  // and forgetting them (the code may move).
  virtual Code* site_code() const = 0;
  virtual uint32_t site_pc() const = 0;
  virtual void forget_site() = 0;
  // An object of kind k, bytes long, was allocated.
  virtual void allocation(Kind k, size_t bytes) = 0;

  // ---- collections, counted or sampled ----
  // Around every collection the VM runs; begin's result goes to end.
  virtual uint32_t collection_begins() = 0;
  virtual void collection_ends(uint32_t token, bool major) = 0;

  // ---- sampling (at safe points, where the stack is consistent) ----
  virtual bool sample_pending() const = 0;
  virtual void sample(bool at_entry) = 0;
  // A builtin call during which Profile::ticks moved: charged to b (null:
  // not known), ticks counted from ticks_before.
  virtual void sample_builtin(const Builtin* b, uint64_t ticks_before) = 0;

  // ---- the process ends (quit, the end of main) ----
  virtual void finish() = 0;
};

}  // namespace vm
