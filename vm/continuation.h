// vm/continuation.h — the control model: first-class continuations, the
// handler and wind chains, and how an error or an escape unwinds
// (vm/continuation.cpp). The interpreter loop (vm/interp.cpp) only calls
// in here and goes where the returned Next says.
//
// The representation.
//
// A run is one entry into the interpreter loop from C++ (VM::apply, or a
// fiber's first call): its frames sit on the VM stack above its entry
// call's function slot, RunRecord::fslot, and its run record says which
// wind chain was current when it began. Runs nest: a builtin that runs Arc
// code (eval, macex, a sort's comparison) starts a run of its own on top of
// the same stack, one level (r_.level) deeper.
//
// A continuation (ccc) is the frames of its run, from the entry call's slot
// to the ccc call's slot, with the dynamic state beside them: the wind
// chain (dynamic-wind's (before . after) pairs, innermost first), the
// handler records of its level (on-err's catch points) and the run it
// belongs to (level, the run's base offset and id; top-level runs have id 0
// so any later top-level form may re-enter them). The frames are not one
// copy but a chain of segments: each Continuation holds the stack words
// [seg_start, seg_start + seg_len) in its frames vector, over a parent
// holding the words below. A capture shares every segment of the last
// capture of the same run that no frame has changed since (the capture
// cache: r_.capture_cache, and r_.capture_low, the lowest frame base
// entered since, which RETURN and unwinding lower), so a loop that captures
// at any depth copies only the frames that ran since its last capture.
//
// Re-entry (invoke) restores the frames (reinstate_frames copies the
// segments the stack does not already hold), the handler records of the
// level (decoded from the continuation's vector), the wind chain and the
// registers; between the wind chain of the invocation and the
// continuation's, the afters of the winds left (innermost first) and the
// befores of the winds entered (outermost first) run first, through the
// prelude's %run-winds (VM::run_winds_fn), in a frame of their own whose
// value is the continuation's value. A continuation of another run is
// refused (a continuation barrier: a C++ frame between), except one
// captured in an execution that resumed the running fiber:
//
// An escape. A continuation captured in an execution A and invoked inside a
// fiber that A resumed (directly or through fibers in between) cannot jump:
// its frames are on A's VM stack, not this one. It leaves the fibers in
// between as an error would (escape_exception): each fiber's protect
// cleanups run and the fiber fails, on-err does not catch it, and where the
// exception arrives (the stack the continuation was captured on) the
// continuation is invoked with the value.
//
// Unwinding (unwind): an error goes to the innermost handler record of the
// running run level, after the cleanups (afters) of the winds between; a
// fiber running in place (vm/fiber.h) that does not handle it runs its
// cleanups and fails, and its resumer has the error, and so on outwards;
// with no handler in the run, the run runs its own cleanups and then
// leaves, raising the error again into its C++ caller.
#pragma once
#include <cstdint>

#include "vm/object.h"

namespace vm {

class VM;

// A first-class continuation: one segment of a run's frames and, on the
// chain's first node, the dynamic state (above).
struct Continuation {
  GcHeader h;
  Value frames;     // Vector: the words of this segment (seg_len of them used)
  Value parent;     // Continuation holding the words below seg_start (nil: none)
  Value winds;      // the wind chain at capture
  Value handlers;   // Vector of the handler records of its level (encode_handlers)
  uint64_t run_id;  // the run the frames belong to (0: any top-level run)
  uint64_t run_base, seg_start, seg_len;  // offsets into the stack
  uint64_t base, sp, pc;                  // offsets into the stack; pc into the code
  int level;
  uint64_t stack_id;  // the VM stack it was captured on (its start address)
};

// A handler record: where an error (or a run's exit) unwinds to.
struct Handler {
  size_t base;  // frame base, as an offset into the stack
  size_t sp;    // stack depth to restore
  uint32_t pc;  // instruction index of the handler code
  Value winds;  // the wind chain when the handler was pushed
  int level;    // run level (nested interpreter entries)
};

// A continuation keeps the handler records of its level as Values in a
// Vector, this many words each (base, sp, pc, winds, level).
constexpr size_t kHandlerRecordWords = 5;

// Where the interpreter loop goes after a transfer of control (a
// continuation invoked, an error unwound, a fiber entered or left). The
// registers are in the VM's r_: base (null for an entry call), sp, and
// builtin_pc, the pc as an instruction index into base's code.
struct Next {
  enum Kind : uint8_t {
    None,          // no transfer: carry on as before (a resume that runs the usual way)
    Dispatch,      // run the next instruction of the frame at r_.base
    Return,        // return the value on top of the stack from that frame
    Call,          // call the function at r_.sp[-nargs-1] with the nargs values above it
    Enter,         // the same as a run's entry call: its frame returns to C++
    EnterRethrow,  // the same, its frame re-raising its value when it returns
    Leave,         // leave the run with the value in VM::next_value_
    Raise,         // raise the exception in VM::next_value_ at r_'s position
    Kill,          // raise ThreadKilled at r_'s position
    Rethrow,       // leave the run with the error being handled
  } kind;
  bool tail = false;  // Call: a tail call, replacing the frame at r_.base
  int32_t nargs = 0;
  constexpr Next(Kind k = None, int32_t n = 0, bool t = false) : kind(k), tail(t), nargs(n) {}
};
// Small enough to come back in a register: it is on the path of every
// fiber switch in place.
static_assert(sizeof(Next) <= 8);

// A return pc in a frame header that is not a pc: the frame's caller is C++
// (VM::apply, or a fiber's start), or the frame re-raises its value on
// return (cleanups run on the way out of an error).
constexpr int64_t kReturnToCpp = -1;
constexpr int64_t kRethrow = -2;

// The steps to run when control moves from wind chain `from` to `to`: the
// afters of the winds only `from` has (innermost first), then the befores of
// those only `to` has (outermost first). Winds are (before . after) pairs.
// A step is (thunk during . after): %run-winds sets the chain to `during`,
// calls thunk, then sets it to `after`, so an error raised in a cleanup
// unwinds through the winds not yet left, and no further (docs/LANGUAGE.md
// 7.9, item 53: an error in a protect cleanup goes to the on-err around it).
Value wind_thunks(VM& vm, Value from, Value to);

// The heap kind's size and trace functions (VM::VM registers them).
size_t continuation_size(const GcHeader*);
void continuation_trace(GcHeader* h, gc::Visitor& v);

}  // namespace vm
