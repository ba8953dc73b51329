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
// through VM::apply on the fiber's own stacks. No C++ exception crosses a
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
  StackSlot* slot = nullptr;
  Context ctx = nullptr;      // where resuming it continues
  Context resumer = nullptr;  // where it yields to
  ExecState exec;
  Value fn = NIL;      // what it runs
  Value value = NIL;   // what the last switch carried
  Value parent = NIL;  // while running: the fiber that resumed it (nil: main)
  Value self = NIL;    // its Fiber object (updated when a collector moves it)
  FiberImpl* prev = nullptr;  // every live fiber, for collectors that do not
  FiberImpl* next = nullptr;  // trace objects (fiber_roots)
};

namespace {
FiberImpl* g_live = nullptr;

// Records of dead fibers kept for new ones, so that making a fiber costs no
// malloc: the record and the capacity of its state's vectors (handlers,
// runs, handles) are reused.
std::vector<FiberImpl*> g_spare;
constexpr size_t kMaxSpare = 1024;

// An empty execution state that keeps its vectors' storage for reuse.
void reset_exec(ExecState& e) {
  e.r = ExecRegs{};
  e.handlers.clear();
  e.runs.clear();
  e.handles.clear();
  e.winds = NIL;
}

FiberImpl* new_impl() {
  if (g_spare.empty()) return new FiberImpl();
  FiberImpl* f = g_spare.back();
  g_spare.pop_back();
  return f;
}

void free_impl(FiberImpl* f) {
  if (g_spare.size() >= kMaxSpare) {
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
  g_spare.push_back(f);
}

void link_live(FiberImpl* f) {
  f->next = g_live;
  if (g_live) g_live->prev = f;
  g_live = f;
}

void unlink_live(FiberImpl* f) {
  if (f->prev) f->prev->next = f->next; else g_live = f->next;
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
  if (f->slot && has_vm()) VM::current().fiber_pool().release(f->slot);
  unlink_live(f);
  free_impl(f);
  fb->impl = nullptr;
}

void fiber_entry(Transfer t) {
  FiberImpl* f = static_cast<FiberImpl*>(t.data);
  f->resumer = t.from;
  VM& vm = VM::current();
  Message msg = kDone;
  try {
    Value arg = f->value;
    vm.set_top_level_run();  // its continuations may be invoked by any fiber
    f->value = vm.apply(f->fn, &arg, 1);
  } catch (ThreadKilled&) {
    // The thread it runs in was killed: unwind the resumer's frames too.
    f->value = NIL;
    msg = kKilled;
  } catch (ArcError& e) {
    f->value = e.exc;
    msg = kFailed;
  } catch (std::bad_alloc&) {
    f->value = make_exception(make_string_utf8("out of memory"), NIL, NIL);
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
  static uint64_t since = 0, last_collections = 0, live_after = 0;
  uint64_t c = vm.heap().stats().collections;
  if (c != last_collections) {
    last_collections = c;
    since = 0;
    live_after = vm.fiber_pool().in_use();
  }
  if (++since > 1024 && since > live_after) vm.heap().request_collection();
}

// The fresh execution state of a fiber on its slot.
void start_exec(FiberImpl* f, StackSlot* slot) {
  f->slot = slot;
  init_exec_on_slot(f->exec, slot, kFiberStackHeadroom);
  f->ctx = make_context(slot->machine_top(), slot->machine_size(), fiber_entry);
}

Value arg_fiber(const char* fn, Value v) {
  if (TYPE(v) != Kind::Fiber) type_error(fn, "a fiber", v);
  return v;
}

Value bi_fiber(VM&, Value* a, int) {
  if (!is_runnable(a[0])) type_error("fiber", "a function", a[0]);
  Fiber* fb = alloc<Fiber>(Kind::Fiber);
  fb->impl = new_impl();
  fb->impl->fn = a[0];
  fb->impl->self = Value::ref(fb);
  link_live(fb->impl);
  return Value::ref(fb);
}

// (resume fb (o x)): runs fb until it yields or returns; that value.
Value bi_resume(VM& vm, Value* a, int n) {
  FiberImpl* f = impl_of(arg_fiber("resume", a[0]));
  if (f->status == FiberImpl::Done) throw_error("resume: the fiber has finished", {a[0]});
  if (f->status == FiberImpl::Running) throw_error("resume: the fiber is running", {a[0]});
  f->value = n > 1 ? a[1] : NIL;
  if (f->status == FiberImpl::Fresh) {
    note_acquire(vm);
    start_exec(f, vm.fiber_pool().acquire());
  }
  f->parent = vm.current_fiber;
  vm.current_fiber = a[0];
  f->status = FiberImpl::Running;
  vm.swap_exec(f->exec);
  remember(vm, f);
  Transfer t = switch_context(f->ctx, f);
  // Back on the resumer's stacks: the fiber yielded, returned or failed.
  f->ctx = t.from;
  vm.swap_exec(f->exec);
  remember(vm, f);
  vm.current_fiber = f->parent;
  f->parent = NIL;
  Message msg = Message(reinterpret_cast<intptr_t>(t.data));
  if (msg == kYield) {
    f->status = FiberImpl::Suspended;
    return f->value;
  }
  f->status = FiberImpl::Done;
  vm.fiber_pool().release(f->slot);
  f->slot = nullptr;
  reset_exec(f->exec);
  if (msg == kFailed) throw ArcError{f->value};
  if (msg == kKilled) throw ThreadKilled{};
  return f->value;
}

// (yield (o x)): suspends the running fiber; x goes to its resumer. Returns
// what the next resume passes.
Value bi_yield(VM& vm, Value* a, int n) {
  if (vm.current_fiber.is_nil()) throw_error("yield: not inside a fiber");
  FiberImpl* f = impl_of(vm.current_fiber);
  f->value = n ? a[0] : NIL;
  Transfer t = switch_context(f->resumer, reinterpret_cast<void*>(kYield));
  f->resumer = t.from;
  return f->value;
}

Value bi_fiber_done(VM&, Value* a, int) {
  return boolean(impl_of(arg_fiber("fiber-done", a[0]))->status == FiberImpl::Done);
}

const BuiltinDef kDefs[] = {
    {"fiber", bi_fiber, 1, 1, "a suspended fiber that will call (f x) with the first resumed value"},
    {"resume", bi_resume, 1, 2, "(resume fb (o x)): run fb until it yields or returns"},
    {"yield", bi_yield, 0, 1, "(yield (o x)): suspend this fiber, handing x to its resumer"},
    {"fiber-done", bi_fiber_done, 1, 1, "t once the fiber has returned"},
};

}  // namespace

void register_fiber_kind(gc::Heap& h) {
  h.register_kind(uint8_t(Kind::Fiber),
                  gc::KindInfo{"Fiber", fiber_size, fiber_trace, fiber_finalize,
                               /*trace_on_mutator=*/true});  // its state has no barrier
}

void register_fiber_builtins(VM& vm) { define_builtins(vm, kDefs); }

void free_fiber_spares() {
  for (FiberImpl* f : g_spare) delete f;
  g_spare.clear();
}

void init_exec_on_slot(ExecState& e, StackSlot* slot, size_t headroom) {
  e.r.stack = slot->vm_begin();
  e.r.stack_end = slot->vm_end() - headroom;
  e.r.sp = e.r.stack;
  e.r.low_water = slot->low_water();
  e.r.stack_bottom = slot->machine_top();
}

void trace_fibers_as_roots(gc::Visitor& v) {
  // Not f->self: the Fiber object must stay free to die.
  for (FiberImpl* f = g_live; f; f = f->next) trace_impl(f, v);
}

}  // namespace vm
