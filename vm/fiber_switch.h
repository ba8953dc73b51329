// vm/fiber_switch.h — the interpreter's fiber switches (VM::fiber_switch,
// VM::fiber_return), for vm/interp.cpp alone.
//
// They are defined here, inline, rather than in vm/fiber.cpp because a
// resume/yield round trip of a fiber running in place is short, and a call
// out of the loop for each switch (its prologue, the registers the loop
// spills around it, the Next it returns through memory) was a measurable
// share of it (bench/fiber's arc_switch). Inlined, each return's Next
// is a constant the loop's `transfer` switch folds away. The work that is
// not on that path (entering, leaving, moving a fiber onto its own machine
// stack) stays in vm/fiber.cpp behind fiber_enter, fiber_exit and
// fiber_migrate.
#pragma once

#include "vm/fiber.h"
#include "vm/vm.h"

namespace vm {

namespace fiber_detail {
// Back in the frame that resumed a fiber running in place (r holds the
// resumer's registers again), which gets v as the value of its resume call.
inline Next to_resumer(ExecRegs& r, Value v, bool resume_tail) {
  *r.sp++ = v;
  return Next{resume_tail ? Next::Return : Next::Dispatch};
}
}  // namespace fiber_detail

[[gnu::always_inline]] inline Next VM::fiber_switch(Builtin* b, int n, bool tail, int& in_place) {
  using fiber_detail::to_resumer;
  Value* call_sp = r_.sp;  // the call: b at call_sp[-n-1], its n arguments above it
  if (b->op == BuiltinOp::Resume) {
    Value fb = call_sp[-n], x = n > 1 ? call_sp[1 - n] : NIL;
    r_.sp -= n + 1;
    FiberEntry e = fiber_enter(*this, fb, x, tail);
    if (e == FiberEntry::Fresh) {  // its first call, whose return ends it (op_RETURN)
      ++in_place;
      r_.base = nullptr;
      return Next{Next::Enter, 1};
    }
    if (e != FiberEntry::No) {  // the fiber's yield returns x
      ++in_place;
      return to_resumer(r_, x, e == FiberEntry::ResumedTail);
    }
    r_.sp = call_sp;  // resumed the usual way, by the builtin
    return Next{Next::None};
  }
  if (b->op == BuiltinOp::Yield && in_place > 0) {
    Value x = n ? call_sp[-1] : NIL;
    r_.sp -= n + 1;
    bool resume_tail = fiber_exit(*this, FiberExit::Yield, tail);
    --in_place;
    return to_resumer(r_, x, resume_tail);
  }
  if (b->op == BuiltinOp::Reenters && in_place > 0) {
    --in_place;
    MigrateEnd how;
    bool resume_tail;
    Value v = fiber_migrate(*this, n, tail, &how, &resume_tail);
    if (how == MigrateEnd::Value) return to_resumer(r_, v, resume_tail);
    if (how == MigrateEnd::Killed) return Next{Next::Kill};
    return raise_next(v);
  }
  return Next{Next::None};
}

[[gnu::always_inline]] inline Next VM::fiber_return(Value v, int& in_place) {
  bool resume_tail = fiber_exit(*this, FiberExit::Return, false);
  --in_place;
  return fiber_detail::to_resumer(r_, v, resume_tail);
}

}  // namespace vm
