// vm/vm.cpp — the VM's state: the stack, roots, globals, builtins, calls
// from C++ into Arc, backtraces and continuations.
#include "vm/vm.h"

#include <sys/mman.h>

#include <cstring>
#include <type_traits>

#include "vm/builtins.h"
#include "vm/fiber.h"
#include "vm/error.h"
#include "vm/port.h"
#include "vm/string.h"
#include "vm/symbol.h"
#include "vm/server.h"
#include "vm/socket.h"
#include "vm/thread.h"

namespace vm {

namespace {

VM* g_vm = nullptr;

size_t continuation_size(const GcHeader*) { return sizeof(Continuation); }
void continuation_trace(GcHeader* h, gc::Visitor& v) {
  auto* k = reinterpret_cast<Continuation*>(h);
  for (Value* slot : {&k->frames, &k->parent, &k->winds, &k->handlers})
    if (slot->is_ref()) v.visit(reinterpret_cast<gc::Word*>(slot));
}

}  // namespace

VM& VM::current() { return *g_vm; }
bool has_vm() { return g_vm != nullptr; }

namespace {
// The opcodes with a primitive fast path (format G in vm/opcodes.def), the
// global each stands for, and the primitive it was at start.
struct PrimitiveOp {
  Op op;
  const char* name;
  Value VM::*prim;
};
const PrimitiveOp kPrimitiveOps[] = {
    {Op::ADD, "+", &VM::prim_add},   {Op::ADDN, "+", &VM::prim_add},
    {Op::ADDI, "+", &VM::prim_add},  {Op::SUB, "-", &VM::prim_sub},
    {Op::SUBI, "-", &VM::prim_sub},  {Op::LTI, "<", &VM::prim_lt},
    {Op::GTI, ">", &VM::prim_gt},    {Op::ISI, "is", &VM::prim_is},
    {Op::LT, "<", &VM::prim_lt},     {Op::GT, ">", &VM::prim_gt},
    {Op::IS, "is", &VM::prim_is},    {Op::CAR, "car", &VM::prim_car},
    {Op::CDR, "cdr", &VM::prim_cdr}, {Op::CONS, "cons", &VM::prim_cons},
    {Op::NO, "no", &VM::prim_no},    {Op::ACONS, "acons", &VM::prim_acons},
};
}  // namespace

VM::VM(const Options& o) : opts(o) {
  heap_ = &vm::heap();
  heap_->set_safepoint_poke(&preempt_budget);
  if (heap_->stress()) poke_safe_point();
  register_kinds(*heap_);
  heap_->register_kind(uint8_t(Kind::Continuation),
                       gc::KindInfo{"Continuation", continuation_size, continuation_trace, nullptr});
  void* mem = mmap(nullptr, opts.stack_limit_bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mem == MAP_FAILED) throw std::bad_alloc();
  r_.stack = static_cast<Value*>(mem);
  // Keep headroom for the largest frame a call may push before it checks.
  r_.stack_end = r_.stack + opts.stack_limit_bytes / sizeof(Value) - 4096;
  main_stack_ = r_.stack;
  r_.sp = r_.stack;
  // The main program's machine stack: deep C++ recursion stops 256 KiB short.
  r_.low_water = thread_stack_low_water(size_t(256) << 10);
  previous_vm_ = g_vm;
  g_vm = this;
  previous_symbols_ = push_symbol_table();
  heap_->add_root_source(this);
  init_symbols();
  in_port = make_port(make_fd_input(0, "stdin", false));
  out_port = make_port(make_fd_output(1, "stdout", false));
  err_port = make_port(make_fd_output(2, "stderr", false));
  interrupt_exc = make_exception(make_string_utf8("interrupted"), NIL, NIL);
  break_exc = make_exception(make_string_utf8("user break"), NIL, NIL);
  register_list_builtins(*this);
  register_number_builtins(*this);
  register_string_builtins(*this);
  register_table_builtins(*this);
  register_type_builtins(*this);
  register_io_builtins(*this);
  register_system_builtins(*this);
  register_control_builtins(*this);
  register_fiber_kind(*heap_);
  register_fiber_builtins(*this);
  register_thread_kind(*heap_);
  register_thread_builtins(*this);
  register_socket_kind(*heap_);
  register_socket_builtins(*this);
  register_http_builtins(*this);
  register_server_builtins(*this);
  register_crypto_builtins(*this);
  auto prim = [](const char* n) { return global_value(intern(n)); };
  prim_add = prim("+");
  prim_sub = prim("-");
  prim_lt = prim("<");
  prim_gt = prim(">");
  prim_is = prim("is");
  prim_car = prim("car");
  prim_cdr = prim("cdr");
  prim_cons = prim("cons");
  prim_no = prim("no");
  prim_acons = prim("acons");
  for (const PrimitiveOp& p : kPrimitiveOps) intern(p.name).as<Symbol>()->h.flags |= kSymPrimitiveOp;
  define("nil", NIL);
  define("t", T);
}

void VM::refresh_dispatch() {
  if (!op_labels_[0]) return;  // the first run fills the labels in, then calls this
  for (int i = 0; i < kOpCount; ++i) op_targets_[i] = op_labels_[i];
  for (const PrimitiveOp& p : kPrimitiveOps)
    if (global_value(intern(p.name)) != this->*p.prim)
      op_targets_[int(p.op)] = op_general_labels_[int(p.op)];
  for (int i = 0; i < kOpCount; ++i)
    if (Op op = local_form_of(Op(i)); op != Op::Count && op_targets_[int(op)] != op_labels_[int(op)])
      op_targets_[i] = op_general_labels_[i];
  dispatch_counting_ = counters.count_ops;
  for (int i = 0; i < kOpCount; ++i) dispatch_[i] = dispatch_counting_ ? count_label_ : op_targets_[i];
}

VM::~VM() {
  destroy_scheduler(*this);
  free_fiber_spares();
  heap_->remove_root_source(this);
  delete fiber_pool_;
  pop_symbol_table(previous_symbols_);
  g_vm = previous_vm_;
  munmap(r_.stack, opts.stack_limit_bytes);
}

void trace_exec(ExecState& s, gc::Visitor& v) {
  v.visit_range(reinterpret_cast<gc::Word*>(s.r.stack), reinterpret_cast<gc::Word*>(s.r.sp));
  if (s.winds.is_ref()) v.visit(reinterpret_cast<gc::Word*>(&s.winds));
  for (Handler& h : s.handlers)
    if (h.winds.is_ref()) v.visit(reinterpret_cast<gc::Word*>(&h.winds));
  for (RunRecord& r : s.runs)
    if (r.entry_winds.is_ref()) v.visit(reinterpret_cast<gc::Word*>(&r.entry_winds));
  for (gc::Word* h : s.handles)
    if (gc::is_ref(*h)) v.visit(h);
  if (s.r.capture_cache.is_ref()) v.visit(reinterpret_cast<gc::Word*>(&s.r.capture_cache));
}

namespace {
// Word by word: the interpreter has just stored some of these registers
// one word at a time (SAVE), and the wide loads a vectorised swap makes of
// them would stall on store forwarding (measured: a third of a fiber switch).
__attribute__((optimize("no-tree-slp-vectorize"))) void swap_regs(ExecRegs& a, ExecRegs& b) {
  static_assert(sizeof(ExecRegs) % sizeof(uint64_t) == 0 && std::is_trivially_copyable_v<ExecRegs>);
  auto* wa = reinterpret_cast<uint64_t*>(&a);
  auto* wb = reinterpret_cast<uint64_t*>(&b);
  for (size_t i = 0; i < sizeof(ExecRegs) / 8; ++i) std::swap(wa[i], wb[i]);
}
}  // namespace

void VM::swap_exec(ExecState& s) {
  swap_regs(r_, s.r);
  std::swap(handlers, s.handlers);
  std::swap(runs, s.runs);
  std::swap(winds, s.winds);
  std::swap(heap_->handle_slots(), s.handles);
  heap_->set_stack_bottom(r_.stack_bottom);
}

void VM::swap_machine_bounds(ExecState& s) {
  std::swap(r_.stack_bottom, s.r.stack_bottom);
  std::swap(r_.low_water, s.r.low_water);
  std::swap(heap_->handle_slots(), s.handles);
  heap_->set_stack_bottom(r_.stack_bottom);
}

void VM::swap_exec_in_place(ExecState& s) {
  // Only what a fiber running in place has of its own, field by field: the
  // machine-stack bounds stay; so do the C++ handles, whose frames all sit
  // on this machine stack and are popped before any switch here (a fiber
  // moving onto its own stack takes its handles then, fiber_migrate). The
  // builtin-call registers (builtin_args, pending_nargs, top_level_run) are
  // dead at a switch, which happens between instructions.
  ExecRegs& a = r_;
  ExecRegs& b = s.r;
  std::swap(a.stack, b.stack);
  std::swap(a.stack_end, b.stack_end);
  std::swap(a.sp, b.sp);
  std::swap(a.base, b.base);
  std::swap(a.level, b.level);
  std::swap(a.builtin_pc, b.builtin_pc);
  std::swap(a.capture_cache, b.capture_cache);
  std::swap(a.capture_low, b.capture_low);
  std::swap(handlers, s.handlers);
  std::swap(runs, s.runs);
  std::swap(winds, s.winds);
}

Value VM::continue_frames(const RunContinue& c) { return run(nullptr, 0, &c); }

namespace {
constexpr uint16_t kExceptionEscape = 1;  // Exception header flag
}  // namespace

Value VM::escape_exception(Value k, Value v) {
  Value e = make_exception(
      make_string_utf8("a continuation escaped out of a fiber, but what it leads back to is gone"),
      list({k, v}), NIL);
  e.as<Exception>()->h.flags |= kExceptionEscape;
  return e;
}

bool VM::is_escape(Value exc) { return exc.as<Exception>()->h.flags & kExceptionEscape; }
Value VM::escape_continuation(Value exc) { return car(exc.as<Exception>()->irritants); }
Value VM::escape_value(Value exc) { return car(cdr(exc.as<Exception>()->irritants)); }

StackPool& VM::fiber_pool() {
  if (!fiber_pool_) {
    StackPoolConfig c;
    c.release = opts.fiber_release;
    fiber_pool_ = new StackPool(c);
  }
  return *fiber_pool_;
}

void VM::check_machine_stack() {
  if (machine_sp() < r_.low_water)
    throw_error("stack overflow: C++ recursion too deep for this machine stack (nested macro "
                "expansions or evaluations, or a form nested too deeply)");
}

void VM::trace_roots(gc::Visitor& v) {
  if (current_fiber.is_ref()) v.visit(reinterpret_cast<gc::Word*>(&current_fiber));
  if (!heap_->traces_objects()) trace_fibers_as_roots(v);
  v.visit_range(reinterpret_cast<gc::Word*>(r_.stack), reinterpret_cast<gc::Word*>(r_.sp));
  for (Value* slot : {&in_port, &out_port, &err_port, &winds, &prim_add, &prim_sub, &prim_lt,
                      &prim_gt, &prim_is, &prim_car, &prim_cdr, &prim_cons, &prim_no, &prim_acons,
                      &run_winds_fn, &atomic_locked_fn, &interrupt_exc, &break_exc, &r_.capture_cache})
    if (slot->is_ref()) v.visit(reinterpret_cast<gc::Word*>(slot));
  for (Handler& h : handlers)
    if (h.winds.is_ref()) v.visit(reinterpret_cast<gc::Word*>(&h.winds));
  for (RunRecord& r : runs)
    if (r.entry_winds.is_ref()) v.visit(reinterpret_cast<gc::Word*>(&r.entry_winds));
  trace_symbols(v);
}

void VM::define(const char* name, Value v) {
  Value s = intern(name);
  if (s == NIL || s == T) return;
  set_global(s, v);
}

void define_builtins(VM& vm, const BuiltinDef* defs, size_t n) {
  for (size_t i = 0; i < n; ++i)
    vm.define(defs[i].name, make_builtin(defs[i].name, defs[i].fn, defs[i].min_args,
                                         defs[i].max_args));
}

Value make_builtin(const char* name, BuiltinFn fn, int min_args, int max_args) {
  Value sym = intern(name);
  Builtin* b = alloc<Builtin>(Kind::Builtin);
  b->fn = fn;
  b->name = sym;
  b->min_args = min_args;
  b->max_args = max_args;
  b->op = BuiltinOp::Plain;
  return Value::ref(b);
}

void set_builtin_op(const char* name, BuiltinOp op) {
  Value v = intern(name).as<Symbol>()->value;
  if (TYPE(v) == Kind::Builtin) v.as<Builtin>()->op = op;
}

void VM::stack_overflow() {
  if (r_.stack != main_stack_)
    throw_error("stack overflow: recursion deeper than a fiber's or thread's VM stack (" +
                std::to_string((r_.stack_end - r_.stack) * sizeof(Value) >> 10) + " KiB)");
  throw_error("stack overflow: recursion deeper than the VM stack limit (" +
              std::to_string(opts.stack_limit_bytes >> 20) + " MiB; see --stack-limit)");
}

Value VM::apply(Value f, const Value* args, int nargs) {
  check_machine_stack();
  check_stack(r_.sp + nargs + 1);
  Value* fslot = r_.sp;
  fslot[0] = f;
  for (int i = 0; i < nargs; ++i) fslot[1 + i] = args[i];
  r_.sp = fslot + 1 + nargs;
  return run(fslot, nargs);
}

Value* VM::tail_call_slots(int nargs) {
  check_stack(r_.builtin_args + nargs);
  r_.pending_nargs = nargs;
  return r_.builtin_args;
}


void VM::collect_garbage() { heap_->collect(); }

Value VM::safe_point_slow() {
  // The count starts again before the causes are read: a poke from now on
  // is seen at the next safe point.
  preempt_budget.store(kIdleSafePoints, std::memory_order_relaxed);
  // Ctrl-C breaks the main thread, whichever thread is running.
  if (interrupt_ && !deliver_interrupt(*this)) {
    interrupt_ = 0;
    throw ArcError{interrupt_exc};
  }
  if (heap_->collection_wanted()) heap_->collect_minor();
  scheduler_tick(*this);  // sets the time slice
  if (heap_->stress()) poke_safe_point();  // collect at every safe point
  return NIL;
}

// Walks the frames from the running one outwards. A frame's header holds
// the caller's pc and base as offsets (vm/code.h). Runs of the same frame
// (deep recursion) print once, with their count.
Value VM::backtrace(size_t limit) {
  std::vector<std::string> lines;
  Code* last = nullptr;
  uint32_t last_line = 0;
  size_t run = 0;
  auto flush = [&] {
    if (!last) return;
    std::string name = last->name.is_nil() ? "fn" : symbol_name(last->name);
    std::string where = last->file.is_nil() ? "" : string_utf8(last->file);
    std::string line = "  in " + name;
    if (!where.empty()) line += " at " + where + ":" + std::to_string(last_line);
    if (run > 1) line += " (" + std::to_string(run) + " times)";
    lines.push_back(line);
  };
  Value* base = r_.base;
  uint32_t pc = r_.builtin_pc;
  while (base && lines.size() < limit) {
    Value fn = base[-1];
    if (TYPE(fn) != Kind::Closure) break;
    Code* c = code_of(fn);
    uint32_t line = code_line_at(c, pc > 0 ? pc - 1 : 0);
    if (c == last && line == last_line) {
      ++run;
    } else {
      flush();
      last = c;
      last_line = line;
      run = 1;
    }
    int64_t saved_pc = base[c->nlocals].as_fixnum();
    int64_t link = base[c->nlocals + 1].as_fixnum();
    if (link < 0) break;
    base = r_.stack + link;
    if (saved_pc < 0 || TYPE(base[-1]) != Kind::Closure) {
      pc = 0;
    } else {  // the caller's code, and the instruction index of its pc there
      Code* caller = code_of(base[-1]);
      pc = uint32_t(frame_pc_insn(caller, saved_pc) - code_insns(caller));
    }
  }
  if (lines.size() < limit) flush();
  Value r = NIL;
  for (size_t i = lines.size(); i-- > 0;) r = cons(make_string_utf8(lines[i]), r);
  return r;
}

// The continuation of the running builtin's call: the frames of the current
// run, from its function slot up to the builtin's slot, and the dynamic state.
namespace {

// The part of k's chain below stack offset p, as a chain: k's own nodes
// where they end at or below p, at most one new slice where p cuts a node.
Value chain_below(Value k, uint64_t p) {
  for (Value n = k; !n.is_nil();) {
    Continuation* c = n.as<Continuation>();
    if (p >= c->seg_start + c->seg_len) return n;
    if (p == c->seg_start) return c->parent;
    if (p > c->seg_start) {
      Continuation* s = alloc<Continuation>(Kind::Continuation);
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

// Captures the stack from the run's base to the ccc builtin's slot. The
// words below `share` are the same as when r_.capture_cache was taken (no
// frame below r_.capture_low has run since), so they are shared with it, not
// copied: a capture costs what ran since the last one, not the depth.
Value VM::capture_continuation() {
  const RunRecord& run = runs.back();
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
      parent = chain_below(r_.capture_cache, share);
    }
  }
  uint64_t n = top - share;
  Value frames = make_vector(n);
  std::memcpy(frames.as<Vector>()->items, r_.stack + share, n * sizeof(Value));
  size_t nh = 0;
  for (const Handler& h : handlers) nh += h.level == r_.level;
  Value hv = make_vector(nh * 5);
  Vector* hvec = hv.as<Vector>();
  size_t i = 0;
  for (const Handler& h : handlers) {
    if (h.level != r_.level) continue;
    hvec->items[i++] = Value::fixnum(int64_t(h.base));
    hvec->items[i++] = Value::fixnum(int64_t(h.sp));
    hvec->items[i++] = Value::fixnum(int64_t(h.pc));
    hvec->items[i++] = h.winds;
    hvec->items[i++] = Value::fixnum(h.level);
  }
  Continuation* k = alloc<Continuation>(Kind::Continuation);
  k->frames = frames;
  k->parent = parent;  // allocation never collects: parent needs no root
  k->winds = winds;
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
  return Value::ref(k);
}

// Copies k's segments onto the stack, skipping those the stack still holds:
// a segment of r_.capture_cache's chain below the lowest frame run since it
// was taken is already in place, and so is everything under it.
void VM::reinstate_frames(Continuation* k) {
  Continuation* shared[16];
  int nshared = 0;
  if (r_.capture_cache.is_ref()) {
    Continuation* c = r_.capture_cache.as<Continuation>();
    if (c->level == k->level && c->run_base == k->run_base && c->run_id == k->run_id) {
      uint64_t valid = std::min(uint64_t(r_.capture_low - r_.stack) - 1, c->sp);
      for (Value n = r_.capture_cache; !n.is_nil() && nshared < 16;) {
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

}  // namespace vm
