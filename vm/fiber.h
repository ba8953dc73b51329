// vm/fiber.h — fibers (vm/fiber.cpp): the heap kind and its builtins.
#pragma once
#include "gc/heap.h"
#include "vm/object.h"

namespace vm {

struct FiberImpl;
struct Fiber {
  GcHeader h;
  FiberImpl* impl;
};

class VM;
struct ExecState;
class StackSlot;
// A fresh execution state on a pooled slot's stacks (fibers and threads),
// with headroom Values left above its VM stack's end.
void init_exec_on_slot(ExecState& e, StackSlot* slot, size_t headroom);
// The VM's fiber records, live and kept for reuse (vm/fiber.cpp); the VM
// makes its own and frees it at its end.
struct FiberRegistry;
FiberRegistry* make_fiber_registry();
void free_fiber_registry(FiberRegistry* r);
void register_fiber_kind(VM& vm, gc::Heap& h);
void register_fiber_builtins(VM& vm);
// ---- switching inside the interpreter (vm/interp.cpp) ----
// A fiber first resumed by a `resume` in interpreted code runs in place:
// the interpreter loop that called resume runs the fiber's frames, on the
// fiber's VM stack but its own machine stack, and a `yield` there (or the
// fiber's return) swaps the registers back. No machine-stack switch at all.
// The fiber keeps running in place until it calls a builtin that runs Arc
// code in a nested run (BuiltinOp::Reenters): a yield from inside that run
// would have to suspend C++ frames, so the fiber first moves onto its own
// machine stack (fiber_migrate) and switches as a machine fiber from then on.

// What resume can do in the interpreter (fiber_enter).
enum class FiberEntry { No, Fresh, Resumed, ResumedTail };
// Resumes fb with x in place if it can, the caller's registers saved in r_
// (its resume call popped) and resume_tail saying whether that call was a
// tail call. Fresh: fb's function and x are on the fiber's stack as its
// first call (r_.sp above them, no frame yet). Resumed: r_ is the fiber's
// position at its yield, which was a tail call for ResumedTail; x is its
// value. No: resume it the usual way (a machine fiber, a fiber of a builtin,
// a finished or running one).
FiberEntry fiber_enter(VM& vm, Value fb, Value x, bool resume_tail);
// The fiber running in place yields (its position saved in r_, yield_tail
// saying whether the yield was a tail call), returns, or fails: the resumer's
// registers come back (r_). Returns whether the resumer's resume call was a
// tail call.
enum class FiberExit { Yield, Return, Fail };
bool fiber_exit(VM& vm, FiberExit how, bool yield_tail);
// The fiber running in place calls a builtin that reenters the interpreter
// (its call of nargs values on top of the stack, its position in r_): moves
// it onto its own machine stack, where the call and the rest of the fiber
// run, until it yields, returns or fails. The resumer's registers are back
// after; *how says whether the value is what the fiber handed over, its
// error, or nothing because it was killed (the caller raises ThreadKilled);
// *resume_tail as for fiber_exit.
enum class MigrateEnd { Value, Error, Killed };
Value fiber_migrate(VM& vm, int nargs, bool tail, MigrateEnd* how, bool* resume_tail);

// Whether stack_id is the VM stack of an execution that resumed the running
// fiber, directly or through other fibers (VM::escape_exception).
bool fiber_resumed_from(VM& vm, uint64_t stack_id);

// For collectors that do not trace objects (boehm): every live fiber's
// state, as roots (the Fiber objects themselves stay collectable).
void trace_fibers_as_roots(VM& vm, gc::Visitor& v);

}  // namespace vm
