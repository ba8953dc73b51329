// vm/fiber.cpp — fibers: lines of execution with their own VM stack and
// machine stack, taken from the stack pool (vm/stack_pool.h), switched in
// user space (vm/context.h). The Arc API: (fiber f), (resume fb (o x)),
// (yield (o x)), (fiber-done fb); generator is written in Arc over them.
//
// How a switch works. The VM's fields hold the running execution's state
// (ExecState). `resume` swaps them with the fiber's saved state, then
// switches machine stacks; when the fiber yields (or ends) control comes back
// into `resume`, which swaps the states back. So the fiber's ExecState holds
// the fiber while it is suspended and its resumer while it runs; either way
// the collector finds it through the Fiber object (fiber_trace), and the
// running fiber through VM::current_fiber, each fiber linking to the one that
// resumed it.
//
// A fiber's first switch enters fiber_entry, which calls the fiber's function
// through VM::apply on the fiber's own stacks (or, for a fiber that ran in
// place until now, continues its frames there: fiber.h says when). No C++ exception crosses a
// switch: fiber_entry catches the fiber's uncaught error and hands it to the
// resumer, which raises it there.
#include "vm/fiber.h"

#include <cstdlib>

#include "vm/builtins.h"
#include "vm/context.h"
#include "vm/error.h"
#include "vm/string.h"
#include "vm/thread.h"
#include "vm/vm.h"

namespace vm {

struct FiberImpl {
  enum Status { Fresh, Suspended, Running, Done } status = Fresh;
  // Its VM, for what reaches the fiber with no VM at hand: its first frame
  // on its own stack (fiber_entry) and its finalizer. Null once the VM has
  // ended (~FiberRegistry), when a finalizer has only the record to free.
  VM* vm = nullptr;
  StackSlot* slot = nullptr;
  Context ctx = nullptr;      // where resuming it continues
  Context resumer = nullptr;  // where it yields to
  ExecState exec;
  Value fn = NIL;             // what it runs
  Value value = NIL;          // what the last switch carried
  Value parent = NIL;         // while running: the fiber that resumed it (nil: main)
  Value self = NIL;           // its Fiber object (updated when a collector moves it)
  FiberImpl* prev = nullptr;  // every live fiber, for collectors that do not
  FiberImpl* next = nullptr;  // trace objects (trace_fibers_as_roots)
  // Running in place (fiber.h): its frames run in the interpreter that
  // resumes it, not on its own machine stack (which it has not touched).
  bool in_place = false;
  bool yield_tail = false;   // in place, suspended: its yield was a tail call
  bool resume_tail = false;  // in place, running: its resumer's resume was
  // Its first machine-stack switch continues its frames as cont says
  // (cont.value: f->value) rather than calling fn.
  bool continues = false;
  RunContinue cont{};
};

// The VM's fibers (VM::fibers()): the live records, for a collector that
// does not trace objects (trace_fibers_as_roots), and the records of dead
// fibers kept for new ones, so that making a fiber costs no malloc: the
// record and the capacity of its state's vectors (handlers, runs, handles)
// are reused. And the count behind note_acquire's collection requests.
struct FiberRegistry {
  FiberImpl* live = nullptr;
  std::vector<FiberImpl*> spare;
  uint64_t acquired_since = 0, last_collections = 0, live_after = 0;
  ~FiberRegistry() {
    for (FiberImpl* f : spare) delete f;
    // The live records are their Fiber objects' until those are finalized,
    // which may be after the VM (a heap whose owner did not finalize it).
    for (FiberImpl* f = live; f; f = f->next) f->vm = nullptr;
  }
};

FiberRegistry* make_fiber_registry() { return new FiberRegistry(); }
void free_fiber_registry(FiberRegistry* r) { delete r; }

namespace {
constexpr size_t kMaxSpare = 1024;

// An empty execution state that keeps its vectors' storage for reuse.
void reset_exec(ExecState& e) {
  e.r = ExecRegs{};
  e.handlers.clear();
  e.runs.clear();
  e.handles.clear();
  e.winds = NIL;
}

FiberImpl* new_impl(FiberRegistry& r) {
  if (r.spare.empty()) return new FiberImpl();
  FiberImpl* f = r.spare.back();
  r.spare.pop_back();
  return f;
}

void free_impl(FiberRegistry& r, FiberImpl* f) {
  if (r.spare.size() >= kMaxSpare) {
    delete f;
    return;
  }
  // Back to a fresh record, keeping the vectors' storage.
  f->status = FiberImpl::Fresh;
  f->slot = nullptr;
  f->ctx = f->resumer = nullptr;
  reset_exec(f->exec);
  f->fn = f->value = f->parent = f->self = NIL;
  f->prev = f->next = nullptr;
  f->in_place = f->yield_tail = f->resume_tail = f->continues = false;
  r.spare.push_back(f);
}

void link_live(FiberRegistry& r, FiberImpl* f) {
  f->next = r.live;
  if (r.live) r.live->prev = f;
  r.live = f;
}

void unlink_live(FiberRegistry& r, FiberImpl* f) {
  if (f->prev) f->prev->next = f->next;
  else r.live = f->next;
  if (f->next) f->next->prev = f->prev;
}
}  // namespace

namespace {

enum Message : intptr_t { kYield = 1, kDone = 2, kFailed = 3, kKilled = 4 };

// Values left above the VM stack's end, for the few writes a call makes
// before it checks (the interpreter checks each frame's real size).
constexpr size_t kFiberStackHeadroom = 64;

FiberImpl* impl_of(Value v) { return v.as<Fiber>()->impl; }

void visit(gc::Visitor& v, Value& slot) {
  if (slot.is_ref()) v.visit(reinterpret_cast<gc::Word*>(&slot));
}

size_t fiber_size(const GcHeader*) { return sizeof(Fiber); }

void trace_impl(FiberImpl* f, gc::Visitor& v) {
  visit(v, f->fn);
  visit(v, f->value);
  visit(v, f->parent);
  trace_exec(f->exec, v);
}

void fiber_trace(GcHeader* h, gc::Visitor& v) {
  if (FiberImpl* f = reinterpret_cast<Fiber*>(h)->impl) {
    trace_impl(f, v);
    visit(v, f->self);
  }
}

// A switch changed what f's state refers to without the write barrier.
void remember(VM& vm, FiberImpl* f) {
  if (f->self.is_ref()) vm.heap().remember(f->self.header());
}

// A suspended fiber nobody can resume: its stacks go back to the pool. (Its
// C++ frames are abandoned; they own nothing but what ExecState owns.)
void fiber_finalize(GcHeader* h) {
  Fiber* fb = reinterpret_cast<Fiber*>(h);
  FiberImpl* f = fb->impl;
  if (!f) return;
  fb->impl = nullptr;
  if (!f->vm) {  // its VM, with the pool and the lists, is gone
    delete f;
    return;
  }
  VM& vm = *f->vm;
  if (f->slot) vm.fiber_pool().release(f->slot);
  unlink_live(vm.fibers(), f);
  free_impl(vm.fibers(), f);
}

void fiber_entry(Transfer t) {
  FiberImpl* f = static_cast<FiberImpl*>(t.data);
  f->resumer = t.from;
  VM& vm = *f->vm;
  Message msg = kDone;
  try {
    Value arg = f->value;
    if (f->continues) {  // it ran in place until now
      f->continues = false;
      RunContinue c = f->cont;
      c.value = arg;
      f->value = vm.continue_frames(c);
    } else {
      vm.set_top_level_run();  // its continuations may be invoked by any fiber
      f->value = vm.apply(f->fn, &arg, 1);
    }
  } catch (ThreadKilled&) {
    // The thread it runs in was killed: unwind the resumer's frames too.
    f->value = NIL;
    msg = kKilled;
  } catch (ArcError& e) {
    f->value = e.exc;
    msg = kFailed;
  } catch (std::bad_alloc&) {
    f->value = make_exception(vm, make_string_utf8(vm, "out of memory"), NIL, NIL);
    msg = kFailed;
  }
  switch_context(f->resumer, reinterpret_cast<void*>(msg));
  std::abort();  // a finished fiber is never switched to again
}

// Dropped fibers give their stacks back only when collected, and a Fiber
// object is too small for the allocation volume to call for collections:
// so taking slots does, once more have been taken since the last
// collection than were in use after it (and at least 1,024).
void note_acquire(VM& vm) {
  FiberRegistry& r = vm.fibers();
  uint64_t c = vm.heap().stats().collections;
  if (c != r.last_collections) {
    r.last_collections = c;
    r.acquired_since = 0;
    r.live_after = vm.fiber_pool().in_use();
  }
  if (++r.acquired_since > 1024 && r.acquired_since > r.live_after) vm.heap().request_collection();
}

// A fresh fiber takes a slot: a fresh execution state on its stacks.
void take_slot(VM& vm, FiberImpl* f) {
  note_acquire(vm);
  f->slot = vm.fiber_pool().acquire();
  init_exec_on_slot(f->exec, f->slot, kFiberStackHeadroom);
}

// Its machine stack's first switch will enter fiber_entry.
void make_entry_context(FiberImpl* f) {
  f->ctx = make_context(f->slot->machine_top(), f->slot->machine_size(), fiber_entry);
}

// A finished fiber's stacks go back to the pool.
void finish(VM& vm, FiberImpl* f) {
  f->status = FiberImpl::Done;
  f->in_place = false;
  vm.fiber_pool().release(f->slot);
  f->slot = nullptr;
  reset_exec(f->exec);
}

// Back on the resumer's machine stack from a switch into f, which yielded,
// returned, failed or was killed (how): the resumer's state back in the VM,
// and the value the fiber handed over (its error when it failed).
Value back_from(VM& vm, FiberImpl* f, Transfer t, MigrateEnd* how) {
  f->ctx = t.from;
  vm.swap_exec(f->exec);
  remember(vm, f);
  vm.set_current_fiber(f->parent);
  f->parent = NIL;
  Message msg = Message(reinterpret_cast<intptr_t>(t.data));
  *how = msg == kFailed   ? MigrateEnd::Error
         : msg == kKilled ? MigrateEnd::Killed
                          : MigrateEnd::Value;
  if (msg == kYield) f->status = FiberImpl::Suspended;
  else finish(vm, f);
  return f->value;
}

Value arg_fiber(VM& vm, const char* fn, Value v) {
  if (TYPE(v) != Kind::Fiber) type_error(vm, fn, "a fiber", v);
  return v;
}

Value bi_fiber(VM& vm, Value* a, int) {
  if (!is_runnable(a[0])) type_error(vm, "fiber", "a function", a[0]);
  Fiber* fb = alloc<Fiber>(vm, Kind::Fiber);
  fb->impl = new_impl(vm.fibers());
  fb->impl->vm = &vm;
  fb->impl->fn = a[0];
  fb->impl->self = Value::ref(fb);
  link_live(vm.fibers(), fb->impl);
  return Value::ref(fb);
}

// (resume fb (o x)): runs fb until it yields or returns; that value.
Value bi_resume(VM& vm, Value* a, int n) {
  FiberImpl* f = impl_of(arg_fiber(vm, "resume", a[0]));
  if (f->status == FiberImpl::Done) throw_error(vm, "resume: the fiber has finished", {a[0]});
  if (f->status == FiberImpl::Running) throw_error(vm, "resume: the fiber is running", {a[0]});
  f->value = n > 1 ? a[1] : NIL;
  if (f->status == FiberImpl::Fresh) {
    take_slot(vm, f);
    make_entry_context(f);
  } else if (f->in_place) {
    // Suspended in place, resumed from C++ (not by the interpreter): its
    // frames go on on its own machine stack, from its yield.
    f->in_place = false;
    f->continues = true;
    f->cont = RunContinue{false, 0, f->yield_tail, NIL};
    make_entry_context(f);
  }
  f->parent = vm.current_fiber();
  vm.set_current_fiber(a[0]);
  f->status = FiberImpl::Running;
  vm.swap_exec(f->exec);
  remember(vm, f);
  MigrateEnd how;
  Value v = back_from(vm, f, switch_context(f->ctx, f), &how);
  if (how == MigrateEnd::Error) throw ArcError{v};
  if (how == MigrateEnd::Killed) throw ThreadKilled{};
  return v;
}

// (yield (o x)): suspends the running fiber; x goes to its resumer. Returns
// what the next resume passes.
Value bi_yield(VM& vm, Value* a, int n) {
  if (vm.current_fiber().is_nil()) throw_error(vm, "yield: not inside a fiber");
  FiberImpl* f = impl_of(vm.current_fiber());
  if (f->in_place)  // a builtin not marked BuiltinOp::Reenters ran Arc code
    throw_error(vm,
                "yield: cannot suspend the fiber across a C++ frame (a builtin running Arc code)");
  f->value = n ? a[0] : NIL;
  Transfer t = switch_context(f->resumer, reinterpret_cast<void*>(kYield));
  f->resumer = t.from;
  return f->value;
}

Value bi_fiber_done(VM& vm, Value* a, int) {
  return boolean(impl_of(arg_fiber(vm, "fiber-done", a[0]))->status == FiberImpl::Done);
}

const BuiltinDef kDefs[] = {
    {"fiber", bi_fiber, 1, 1,
     "a suspended fiber that will call (f x) with the first resumed value"},
    {"resume", bi_resume, 1, 2, "(resume fb (o x)): run fb until it yields or returns"},
    {"yield", bi_yield, 0, 1, "(yield (o x)): suspend this fiber, handing x to its resumer"},
    {"fiber-done", bi_fiber_done, 1, 1, "t once the fiber has returned"},
};

}  // namespace

void register_fiber_kind(VM& vm, gc::Heap& h) {
  gc::KindInfo k{"Fiber", fiber_size, fiber_trace, fiber_finalize,
                 /*trace_on_mutator=*/true};  // its state has no barrier
  // Its state is malloc'd, which a collector that does not trace objects
  // (boehm) never sees: the live fibers' states are traced as roots (and
  // gen's snapshot takes them all). The hook is given the VM it was
  // registered with.
  k.outside_context = &vm;
  k.trace_outside = [](void* context, gc::Visitor& v) {
    trace_fibers_as_roots(*static_cast<VM*>(context), v);
  };
  h.register_kind(uint8_t(Kind::Fiber), k);
}

void register_fiber_builtins(VM& vm) {
  define_builtins(vm, kDefs);
  set_builtin_op(vm, "resume", BuiltinOp::Resume);
  set_builtin_op(vm, "yield", BuiltinOp::Yield);
}

bool fiber_resumed_from(VM& vm, uint64_t stack_id) {
  // While a fiber runs, its ExecState holds its resumer's registers.
  for (Value f = vm.current_fiber(); f.is_ref(); f = impl_of(f)->parent)
    if (uint64_t(reinterpret_cast<uintptr_t>(impl_of(f)->exec.r.stack)) == stack_id) return true;
  return false;
}

FiberEntry fiber_enter(VM& vm, Value fb, Value x, bool resume_tail) {
  if (TYPE(fb) != Kind::Fiber) return FiberEntry::No;
  FiberImpl* f = impl_of(fb);
  FiberEntry e;
  if (f->status == FiberImpl::Fresh) {
    if (TYPE(f->fn) != Kind::Closure) return FiberEntry::No;
    take_slot(vm, f);
    // Its first call, as VM::apply would set it up: the function and x at
    // the stack's start, in a top-level run record (any fiber or thread may
    // invoke its continuations), at run level 1.
    ExecRegs& r = f->exec.r;
    r.stack[0] = f->fn;
    r.stack[1] = x;
    r.sp = r.stack + 2;
    r.base = nullptr;
    r.level = 1;
    f->exec.runs.push_back(RunRecord{0, 0, NIL});
    f->in_place = true;
    e = FiberEntry::Fresh;
  } else if (f->status == FiberImpl::Suspended && f->in_place) {
    e = f->yield_tail ? FiberEntry::ResumedTail : FiberEntry::Resumed;
  } else {
    return FiberEntry::No;
  }
  f->resume_tail = resume_tail;
  f->parent = vm.current_fiber();
  vm.set_current_fiber(fb);
  f->status = FiberImpl::Running;
  vm.swap_exec_in_place(f->exec);
  remember(vm, f);
  return e;
}

bool fiber_exit(VM& vm, FiberExit how, bool yield_tail) {
  FiberImpl* f = impl_of(vm.current_fiber());
  vm.swap_exec_in_place(f->exec);
  remember(vm, f);
  vm.set_current_fiber(f->parent);
  f->parent = NIL;
  if (how == FiberExit::Yield) {
    f->status = FiberImpl::Suspended;
    f->yield_tail = yield_tail;
  } else {
    finish(vm, f);
  }
  return f->resume_tail;
}

Value fiber_migrate(VM& vm, int nargs, bool tail, MigrateEnd* how, bool* resume_tail) {
  FiberImpl* f = impl_of(vm.current_fiber());
  f->in_place = false;
  f->continues = true;
  f->cont = RunContinue{true, nargs, tail, NIL};
  f->value = NIL;
  vm.swap_machine_bounds(f->exec);  // from now on it runs on its own
  make_entry_context(f);
  *resume_tail = f->resume_tail;
  return back_from(vm, f, switch_context(f->ctx, f), how);
}

void init_exec_on_slot(ExecState& e, StackSlot* slot, size_t headroom) {
  e.r.stack = slot->vm_begin();
  e.r.stack_end = slot->vm_end() - headroom;
  e.r.sp = e.r.stack;
  e.r.low_water = slot->low_water();
  e.r.stack_bottom = slot->machine_top();
}

void trace_fibers_as_roots(VM& vm, gc::Visitor& v) {
  // Not f->self: the Fiber object must stay free to die.
  for (FiberImpl* f = vm.fibers().live; f; f = f->next) trace_impl(f, v);
}

}  // namespace vm
