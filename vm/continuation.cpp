// vm/continuation.cpp — continuations, the handler and wind chains, and
// unwinding: the control model vm/continuation.h describes.
#include "vm/continuation.h"

#include <cstring>

#include "vm/error.h"
#include "vm/fiber.h"
#include "vm/string.h"
#include "vm/vm.h"

namespace vm {

size_t continuation_size(const GcHeader*) { return sizeof(Continuation); }
void continuation_trace(GcHeader* h, gc::Visitor& v) {
  auto* k = reinterpret_cast<Continuation*>(h);
  for (Value* slot : {&k->frames, &k->parent, &k->winds, &k->handlers})
    if (slot->is_ref()) v.visit(reinterpret_cast<gc::Word*>(slot));
}

Value wind_thunks(VM& vm, Value from, Value to) {
  auto length = [](Value l) {
    size_t n = 0;
    for (; is_cons(l); l = cdr(l)) ++n;
    return n;
  };
  size_t nf = length(from), nt = length(to);
  Value f = from, t = to;
  for (; nf > nt; --nf) f = cdr(f);
  for (; nt > nf; --nt) t = cdr(t);
  while (f != t) f = cdr(f), t = cdr(t);
  Value common = f;
  // An after runs under the chain outside its wind, and stays there; a
  // before runs under the chain outside its wind, then its wind is entered.
  Value afters_rev = NIL;
  for (Value p = from; p != common; p = cdr(p))
    afters_rev = cons(vm, cons(vm, cdr(car(p)), cons(vm, cdr(p), cdr(p))), afters_rev);
  Value befores = NIL;  // outermost first, which is reverse list order
  for (Value p = to; p != common; p = cdr(p))
    befores = cons(vm, cons(vm, car(car(p)), cons(vm, cdr(p), p)), befores);
  Value r = befores;
  for (Value p = afters_rev; is_cons(p); p = cdr(p)) r = cons(vm, car(p), r);
  return r;
}

namespace {
constexpr uint16_t kExceptionEscape = 1;  // Exception header flag
}  // namespace

Value VM::escape_exception(Value k, Value v) {
  Value e = make_exception(
      *this,
      make_string_utf8(*this,
                       "a continuation escaped out of a fiber, but what it leads back to is gone"),
      list(*this, {k, v}), NIL);
  e.as<Exception>()->h.flags |= kExceptionEscape;
  return e;
}

bool VM::is_escape(Value exc) { return exc.as<Exception>()->h.flags & kExceptionEscape; }
Value VM::escape_continuation(Value exc) { return car(exc.as<Exception>()->irritants); }
Value VM::escape_value(Value exc) { return car(cdr(exc.as<Exception>()->irritants)); }

namespace {
// How many segments of the capture cache's chain reinstate_frames compares
// with the continuation it copies.
constexpr int kMaxSharedSegments = 16;
}  // namespace

void VM::drop_level_handlers() {
  while (!handlers_.empty() && handlers_.back().level == r_.level) handlers_.pop_back();
}

Value VM::encode_handlers() {
  size_t nh = 0;
  for (const Handler& h : handlers_) nh += h.level == r_.level;
  Value hv = make_vector(*this, nh * kHandlerRecordWords);
  Vector* hvec = hv.as<Vector>();
  size_t i = 0;
  for (const Handler& h : handlers_) {
    if (h.level != r_.level) continue;
    hvec->items[i++] = Value::fixnum(int64_t(h.base));
    hvec->items[i++] = Value::fixnum(int64_t(h.sp));
    hvec->items[i++] = Value::fixnum(int64_t(h.pc));
    hvec->items[i++] = h.winds;
    hvec->items[i++] = Value::fixnum(h.level);
  }
  return hv;
}

void VM::restore_handlers(Value records) {
  drop_level_handlers();
  Vector* hv = records.as<Vector>();
  for (uint64_t i = 0; i + kHandlerRecordWords <= hv->len; i += kHandlerRecordWords)
    handlers_.push_back(Handler{size_t(hv->items[i].as_fixnum()),
                                size_t(hv->items[i + 1].as_fixnum()),
                                uint32_t(hv->items[i + 2].as_fixnum()), hv->items[i + 3],
                                int(hv->items[i + 4].as_fixnum())});
}

namespace {

// The part of k's chain below stack offset p, as a chain: k's own nodes
// where they end at or below p, at most one new slice where p cuts a node.
Value chain_below(VM& vm, Value k, uint64_t p) {
  for (Value n = k; !n.is_nil();) {
    Continuation* c = n.as<Continuation>();
    if (p >= c->seg_start + c->seg_len) return n;
    if (p == c->seg_start) return c->parent;
    if (p > c->seg_start) {
      Continuation* s = alloc<Continuation>(vm, Kind::Continuation);
      s->frames = c->frames;
      s->parent = c->parent;
      s->run_id = c->run_id;
      s->run_base = c->run_base;
      s->seg_start = c->seg_start;
      s->seg_len = p - c->seg_start;
      s->level = c->level;
      return Value::ref(s);
    }
    n = c->parent;
  }
  return NIL;
}

}  // namespace

// The continuation of the running builtin's call: the frames of the current
// run, from its function slot up to the builtin's slot, and the dynamic state.
// It captures the stack from the run's base to the ccc builtin's slot. The
// words below `share` are the same as when r_.capture_cache was taken (no
// frame below r_.capture_low has run since), so they are shared with it, not
// copied: a capture costs what ran since the last one, not the depth.
Value VM::capture_continuation() {
  const RunRecord& run = runs_.back();
  uint64_t from = run.fslot;
  Value* to = r_.builtin_args - 1;  // the builtin's own slot: where the value goes
  uint64_t top = uint64_t(to - r_.stack);
  uint64_t share = from;
  Value parent = NIL;
  if (r_.capture_cache.is_ref()) {
    Continuation* c = r_.capture_cache.as<Continuation>();
    if (c->level == r_.level && c->run_base == from && c->run_id == run.id) {
      uint64_t low = uint64_t(r_.capture_low - r_.stack) - 1;  // its closure slot
      share = std::min(low, c->sp);
      if (share < from) share = from;
      if (share > top) share = top;
      parent = chain_below(*this, r_.capture_cache, share);
    }
  }
  box_shared_slots(r_.stack + share);
  uint64_t n = top - share;
  Value frames = make_vector(*this, n);
  std::memcpy(frames.as<Vector>()->items, r_.stack + share, n * sizeof(Value));
  Value hv = encode_handlers();
  Continuation* k = alloc<Continuation>(*this, Kind::Continuation);
  k->frames = frames;
  k->parent = parent;  // allocation never collects: parent needs no root
  k->winds = winds_;
  k->handlers = hv;
  k->run_id = run.id;
  k->run_base = from;
  k->seg_start = share;
  k->seg_len = n;
  k->base = uint64_t(r_.base - r_.stack);
  k->sp = top;
  k->pc = r_.builtin_pc;
  k->level = r_.level;
  k->stack_id = uint64_t(reinterpret_cast<uintptr_t>(r_.stack));
  r_.capture_cache = Value::ref(k);
  r_.capture_low = r_.base;
  ++captures_;
  return Value::ref(k);
}

// The frames from the running one down to `low` (the part of the stack a
// capture copies) put their shared-on-capture locals (Code::shared) in
// boxes, in place, so the frame and every copy of it share each one: a
// re-entered continuation sees the value a later assignment gave, as with
// any assigned variable. A slot boxed by an earlier capture keeps its box;
// a new binding in the slot (a let entered again, a loop's next round)
// stores over it, as a new variable. The frames below `low` are shared
// with an earlier capture, which boxed them, and have not run since.
// (Allocation never collects, so the frame pointers stay good.)
void VM::box_shared_slots(Value* low) {
  for (Value* b = r_.base; b && b - 1 >= low;) {
    Value fn = b[-1];
    if (TYPE(fn) != Kind::Closure) break;
    Code* c = code_of(fn);
    if (c->shared.is_ref()) {
      const Blob* s = c->shared.as<Blob>();
      const auto* slots = reinterpret_cast<const uint32_t*>(s->data);
      for (uint64_t i = 0; i < s->size / sizeof(uint32_t); ++i)
        if (!is_box(b[slots[i]])) b[slots[i]] = make_box(*this, b[slots[i]]);
    }
    int64_t link = b[c->nlocals + 1].as_fixnum();
    if (link < 0) break;
    b = r_.stack + link;
  }
}

// Copies k's segments onto the stack, skipping those the stack still holds:
// a segment of r_.capture_cache's chain below the lowest frame run since it
// was taken is already in place, and so is everything under it. (Only the
// first kMaxSharedSegments of that chain are looked at: a deeper match is
// copied again, which is correct, only slower.)
void VM::reinstate_frames(Continuation* k) {
  Continuation* shared[kMaxSharedSegments];
  int nshared = 0;
  if (r_.capture_cache.is_ref()) {
    Continuation* c = r_.capture_cache.as<Continuation>();
    if (c->level == k->level && c->run_base == k->run_base && c->run_id == k->run_id) {
      uint64_t valid = std::min(uint64_t(r_.capture_low - r_.stack) - 1, c->sp);
      for (Value n = r_.capture_cache; !n.is_nil() && nshared < kMaxSharedSegments;) {
        Continuation* m = n.as<Continuation>();
        if (m->seg_start + m->seg_len <= valid) shared[nshared++] = m;
        n = m->parent;
      }
    }
  }
  for (Value n = Value::ref(k); !n.is_nil();) {
    Continuation* c = n.as<Continuation>();
    for (int i = 0; i < nshared; ++i) {
      Continuation* m = shared[i];
      // Same words in the same place, over the same parent: the rest of
      // the chain is on the stack already.
      if (m->frames == c->frames && m->seg_start == c->seg_start && c->seg_len <= m->seg_len &&
          m->parent == c->parent)
        goto done;
    }
    std::memcpy(r_.stack + c->seg_start, c->frames.as<Vector>()->items, c->seg_len * sizeof(Value));
    n = c->parent;
  }
done:
  r_.capture_cache = Value::ref(k);
  r_.capture_low = r_.stack + k->base;
}

// The frame that runs the cleanups: (%run-winds thunks v) at `at`, with
// r_.sp above it. %run-winds is installed before any dynamic-wind exists
// (VM::install_hooks).
void VM::push_winds_call(Value* at, Value thunks, Value v) {
  at[0] = run_winds_fn();
  at[1] = thunks;
  at[2] = v;
  r_.sp = at + 3;
}

Next VM::invoke_continuation(Value f, int n, Value* fslot) {
  if (n > 1) arity_error(*this, "continuation", 0, 1, n);
  Value v = n ? r_.sp[-1] : NIL;
  Continuation* kc = f.as<Continuation>();
  if (kc->stack_id != uint64_t(reinterpret_cast<uintptr_t>(r_.stack)) && current_fiber_.is_ref() &&
      fiber_resumed_from(*this, kc->stack_id))
    // out of the fibers in between, to where it was captured
    return raise_next(escape_exception(f, v));
  const RunRecord& run = runs_.back();
  if (kc->level != r_.level || kc->run_base != run.fslot ||
      (kc->run_id != 0 && kc->run_id != run.id))
    throw_error(*this,
                "continuation invoked across a C++ frame (a continuation barrier: it was captured "
                "inside a call from C++, such as a macro expansion or a builtin's callback)");
  Value thunks = wind_thunks(*this, winds_, kc->winds);
  // Another thread's or fiber's continuation may be deeper than this
  // stack (a fiber's is small): too deep is a stack overflow, before
  // anything is copied.
  check_stack(r_.stack + kc->sp + kWindsCallWords);
  reinstate_frames(kc);
  restore_handlers(kc->handlers);
  winds_ = kc->winds;
  r_.sp = r_.stack + kc->sp;
  if (r_.sp == fslot)  // captured by the run's own entry call
    return leave_next(v);
  r_.base = r_.stack + kc->base;
  r_.builtin_pc = uint32_t(kc->pc);
  if (thunks.truthy()) {
    push_winds_call(r_.sp, thunks, v);
    return Next{Next::Call, 2};
  }
  *r_.sp++ = v;
  return Next{Next::Dispatch};
}

Next VM::unwind(Value exc, Value* fslot, Value* entry_base, int& in_place) {
  Exception* ex = exc.as<Exception>();
  bool escape = is_escape(exc);
  if (ex->backtrace.is_nil() && !is_break(exc) && !escape)
    set(*this, ex, &ex->backtrace, backtrace());
  bool catchable = !is_break(exc) && !escape;
  // An escape arrives in the execution its continuation was captured in:
  // there the continuation is invoked.
  auto arrived = [&] {
    return escape && escape_continuation(exc).as<Continuation>()->stack_id ==
                         uint64_t(reinterpret_cast<uintptr_t>(r_.stack));
  };
  auto handled_here = [&] {
    return catchable && !handlers_.empty() && handlers_.back().level == r_.level;
  };
  // A fiber running in place that does not handle it ends, after its
  // protect cleanups; then its resumer has it, and so on outwards.
  while (!arrived() && in_place > 0 && !handled_here()) {
    Value entry_winds = runs_.back().entry_winds;
    Value thunks = wind_thunks(*this, winds_, entry_winds);
    if (thunks.truthy()) {
      // The cleanups run in the fiber, in a frame that raises exc again.
      winds_ = entry_winds;
      push_winds_call(r_.stack + runs_.back().fslot, thunks, exc);
      r_.base = nullptr;
      return Next{Next::EnterRethrow, 2};
    }
    fiber_exit(*this, FiberExit::Fail, false);
    --in_place;
  }
  if (arrived()) {
    r_.sp[0] = escape_continuation(exc);
    r_.sp[1] = escape_value(exc);
    r_.sp += 2;
    return Next{Next::Call, 1};
  }
  if (handled_here()) {
    // The record stays until the handler code's UNCATCH pops it
    // (compiler/compile.cpp, emit_catch): an error in a cleanup run on
    // the way comes here again, with the cleanups still to run.
    Handler h = handlers_.back();
    Value thunks = wind_thunks(*this, winds_, h.winds);
    winds_ = h.winds;
    r_.base = r_.stack + h.base;
    if (r_.base < r_.capture_low) r_.capture_low = r_.base;
    r_.sp = r_.stack + h.sp;
    r_.builtin_pc = h.pc;
    if (thunks.truthy()) {
      push_winds_call(r_.sp, thunks, exc);
      return Next{Next::Call, 2};
    }
    *r_.sp++ = exc;
    return Next{Next::Dispatch};
  }
  // Leaving this run: run the cleanups between here and its entry first.
  drop_level_handlers();
  Value thunks = wind_thunks(*this, winds_, runs_.back().entry_winds);
  winds_ = runs_.back().entry_winds;
  if (thunks.is_nil()) {
    r_.sp = fslot;
    return Next{Next::Rethrow};
  }
  push_winds_call(fslot, thunks, exc);
  r_.base = entry_base;
  return Next{Next::EnterRethrow, 2};
}

}  // namespace vm
