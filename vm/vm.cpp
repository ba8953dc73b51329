// vm/vm.cpp — the VM's state: the stack, roots, globals, builtins, calls
// from C++ into Arc, safe points and backtraces (continuations are
// vm/continuation.cpp).
#include "vm/vm.h"

#include <sys/mman.h>

#include <cstdio>
#include <cstring>
#include <type_traits>

#include "vm/builtins.h"
#include "vm/error.h"
#include "vm/fiber.h"
#include "vm/port.h"
#include "vm/string.h"
#include "vm/symbol.h"
#include "vm/thread.h"

namespace vm {

VM::VM(gc::Heap& heap, const Options& o) : opts_(o) {
  heap_ = &heap;
  heap_->set_safepoint_poke(&preempt_budget);
  if (heap_->stress()) poke_safe_point();
  register_kinds(*heap_);
  heap_->register_kind(uint8_t(Kind::Continuation), gc::KindInfo{"Continuation", continuation_size,
                                                                 continuation_trace, nullptr});
  void* mem = mmap(nullptr, opts_.stack_limit_bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mem == MAP_FAILED) throw std::bad_alloc();
  r_.stack = static_cast<Value*>(mem);
  r_.stack_end = r_.stack + opts_.stack_limit_bytes / sizeof(Value) - kStackHeadroomWords;
  main_stack_ = r_.stack;
  take_oom_reserve();
  r_.sp = r_.stack;
  // The main program's machine stack: deep C++ recursion stops 256 KiB
  // short of its end. Finding the end (pthread_getattr_np reads and parses
  // /proc/self/maps for the main thread) showed in an empty program's
  // start, so a thread whose stack is known to be big starts with a mark
  // 1 MiB below here, and check_machine_stack finds the real one the first
  // time the stack goes deeper.
  provisional_low_water_ = provisional_stack_low_water(size_t(1) << 20);
  r_.low_water =
      provisional_low_water_ ? provisional_low_water_ : thread_stack_low_water(kMainStackReserve);
  fibers_ = make_fiber_registry();
  heap_->add_root_source(this);
  init_symbols(*this);
  ports_.in = make_port(*this, make_fd_input(*this, 0, "stdin", false));
  ports_.out = make_port(*this, make_fd_output(*this, 1, "stdout", false));
  ports_.err = make_port(*this, make_fd_output(*this, 2, "stderr", false));
  interrupt_exc_ = make_exception(*this, make_string_utf8(*this, "interrupted"), NIL, NIL);
  break_exc_ = make_exception(*this, make_string_utf8(*this, "user break"), NIL, NIL);
  register_list_builtins(*this);
  register_number_builtins(*this);
  register_string_builtins(*this);
  register_table_builtins(*this);
  register_type_builtins(*this);
  register_io_builtins(*this);
  register_system_builtins(*this);
  register_control_builtins(*this);
  register_fiber_kind(*this, *heap_);
  register_fiber_builtins(*this);
  register_thread_kind(*heap_);
  register_thread_builtins(*this);
  for (int i = 0; i < kOpCount; ++i) {
    primitives_[i] = NIL;
    if (const char* g = kOps[i].global) {
      primitives_[i] = global_value(intern(*this, g));
      intern(*this, g).as<Symbol>()->h.flags |= kSymPrimitiveOp;
    }
  }
  define("nil", NIL);
  define("t", T);
}

void VM::open(const Library& lib) {
  if (has_library(lib.name)) return;
  lib.open(*this);
  libraries_.push_back(lib.name);
}

bool VM::has_library(const char* name) const {
  for (const char* n : libraries_)
    if (std::strcmp(n, name) == 0) return true;
  return false;
}

LibraryState* VM::library_state(const char* name) const {
  for (auto& [n, state] : library_states_)
    if (std::strcmp(n, name) == 0) return state.get();
  return nullptr;
}

void VM::set_library_state(const char* name, std::unique_ptr<LibraryState> state) {
  for (auto& [n, s] : library_states_)
    if (std::strcmp(n, name) == 0) {
      s = std::move(state);
      return;
    }
  library_states_.emplace_back(name, std::move(state));
}

void VM::refresh_dispatch() {
  if (!op_labels_[0]) return;  // the first run fills the labels in, then calls this
  for (int i = 0; i < kOpCount; ++i) op_targets_[i] = op_labels_[i];
  for (int i = 0; i < kOpCount; ++i)
    if (const char* g = kOps[i].global; g && global_value(intern(*this, g)) != primitives_[i])
      op_targets_[i] = op_general_labels_[i];
    else if (Op also = kOps[i].also;
             also != Op::Count &&
             global_value(intern(*this, kOps[int(also)].global)) != primitives_[int(also)])
      op_targets_[i] = op_general_labels_[i];
  dispatch_counting_ = counters_.count_ops;
  restore_dispatch();
}

void VM::restore_dispatch() {
  for (int i = 0; i < kOpCount; ++i)
    dispatch_[i] = dispatch_counting_ ? count_label_ : op_targets_[i];
}

void VM::end_run_record() {
  runs_.pop_back();
  // A Ctrl-C that came after the last safe point of a top-level form must
  // not interrupt the next one at the REPL (a script keeps it:
  // set_interrupt_spans_forms).
  if (--r_.level == 0 && !interrupt_spans_forms_) interrupt_ = 0;
}

void VM::sample_at_instruction() {
  // The table first: a tick that comes while this one is charged
  // redirects it again and is charged at the next instruction.
  restore_dispatch();
  if (instrument_ && instrument_->sample_pending()) instrument_->sample(false);
}

namespace {
std::atomic<VM*> g_foreground{nullptr};  // foreground_vm's (vm/vm.h says why)
}  // namespace

VM* foreground_vm() { return g_foreground.load(std::memory_order_acquire); }
void set_foreground_vm(VM* vm) { g_foreground.store(vm, std::memory_order_release); }
bool claim_foreground_vm(VM* vm) {
  VM* none = nullptr;
  return g_foreground.compare_exchange_strong(none, vm) || none == vm;
}
void release_foreground_vm(VM* vm) { g_foreground.compare_exchange_strong(vm, nullptr); }

VM::~VM() {
  release_foreground_vm(this);
  if (counting()) {  // counting ends with the VM that counted
    counting_ = nullptr;
    g_profile.count_types = false;
    heap_->suspend_bump(false);
  }
  end_library_states();
  destroy_scheduler(*this);
  free_fiber_registry(fibers_);
  heap_->remove_root_source(this);
  delete fiber_pool_;
  munmap(r_.stack, opts_.stack_limit_bytes);
  if (oom_reserve_) munmap(oom_reserve_, kOomReserveBytes);
}

// Address space, not memory: the pages are never touched. A failed
// allocation is almost always a mapping the kernel refused (a heap page, a
// large object, a stack), and unmapping the reserve makes room for the
// small ones the error path needs.
void VM::take_oom_reserve() {
  void* mem = mmap(nullptr, kOomReserveBytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  oom_reserve_ = mem == MAP_FAILED ? nullptr : mem;
}

Value VM::out_of_memory() {
  if (oom_reserve_) {
    munmap(oom_reserve_, kOomReserveBytes);
    oom_reserve_ = nullptr;
  }
  // What filled the heap is garbage once the error has unwound past it.
  heap_->request_collection();
  poke_safe_point();
  return make_exception(*this, make_string_utf8(*this, "out of memory"), NIL, NIL);
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
// them would stall on store forwarding, which a fiber switch measurably pays.
// GCC's attribute; clang (the fuzz build) has none such and does not need it.
#if defined(__clang__)
#define ARCANA_NO_SLP_VECTORIZE
#else
#define ARCANA_NO_SLP_VECTORIZE __attribute__((optimize("no-tree-slp-vectorize")))
#endif
ARCANA_NO_SLP_VECTORIZE void swap_regs(ExecRegs& a, ExecRegs& b) {
  static_assert(sizeof(ExecRegs) % sizeof(uint64_t) == 0 && std::is_trivially_copyable_v<ExecRegs>);
  auto* wa = reinterpret_cast<uint64_t*>(&a);
  auto* wb = reinterpret_cast<uint64_t*>(&b);
  for (size_t i = 0; i < sizeof(ExecRegs) / 8; ++i) std::swap(wa[i], wb[i]);
}
}  // namespace

void VM::swap_exec(ExecState& s) {
  swap_regs(r_, s.r);
  std::swap(handlers_, s.handlers);
  std::swap(runs_, s.runs);
  std::swap(winds_, s.winds);
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
  std::swap(handlers_, s.handlers);
  std::swap(runs_, s.runs);
  std::swap(winds_, s.winds);
}

Value VM::continue_frames(const RunContinue& c) { return run(nullptr, 0, &c); }

StackPool& VM::fiber_pool() {
  if (!fiber_pool_) {
    StackPoolConfig c;
    c.release = opts_.fiber_release;
    c.vm_stack = opts_.fiber_stack_bytes;
    fiber_pool_ = new StackPool(c);
  }
  return *fiber_pool_;
}

void VM::check_machine_stack() {
  if (machine_sp() >= r_.low_water) return;
  if (provisional_low_water_ && r_.low_water == provisional_low_water_) {
    // The main stack's mark was provisional (VM::VM): the real one now.
    r_.low_water = thread_stack_low_water(kMainStackReserve);
    provisional_low_water_ = 0;
    if (machine_sp() >= r_.low_water) return;
  }
  throw_error(*this,
              "stack overflow: C++ recursion too deep for this machine stack (nested macro "
              "expansions or evaluations, or a form nested too deeply)");
}

void VM::trace_roots(gc::Visitor& v) {
  trace_roots_but_symbols(v);
  trace_symbols(*this, v);
}

void VM::trace_young_roots(gc::Visitor& v) {
  trace_roots_but_symbols(v);
  trace_young_symbols(*this, v);
}

void VM::trace_roots_but_symbols(gc::Visitor& v) {
  if (current_fiber_.is_ref()) v.visit(reinterpret_cast<gc::Word*>(&current_fiber_));
  v.visit_range(reinterpret_cast<gc::Word*>(r_.stack), reinterpret_cast<gc::Word*>(r_.sp));
  for (Value& p : primitives_)
    if (p.is_ref()) v.visit(reinterpret_cast<gc::Word*>(&p));
  for (Value* slot : {&ports_.in, &ports_.out, &ports_.err, &winds_, &run_winds_fn_,
                      &atomic_locked_fn_, &interrupt_exc_, &break_exc_, &r_.capture_cache})
    if (slot->is_ref()) v.visit(reinterpret_cast<gc::Word*>(slot));
  for (Handler& h : handlers_)
    if (h.winds.is_ref()) v.visit(reinterpret_cast<gc::Word*>(&h.winds));
  for (RunRecord& r : runs_)
    if (r.entry_winds.is_ref()) v.visit(reinterpret_cast<gc::Word*>(&r.entry_winds));
}

void VM::install_hooks(Value run_winds, Value atomic_locked) {
  for (auto [f, name] : {std::pair{run_winds, "%run-winds"}, {atomic_locked, "%atomic-locked"}})
    if (TYPE(f) != Kind::Closure) {
      std::fprintf(stderr, "arcana: the prelude does not define %s as a function\n", name);
      std::abort();
    }
  run_winds_fn_ = run_winds;
  atomic_locked_fn_ = atomic_locked;
}

void VM::missing_hook(const char* name) {
  std::fprintf(stderr, "arcana: %s is called before the runtime installed it (VM::install_hooks)\n",
               name);
  std::abort();
}

void VM::define(const char* name, Value v) {
  Value s = intern(*this, name);
  if (s == NIL || s == T) return;
  set_global(*this, s, v);
}

void define_builtins(VM& vm, const BuiltinDef* defs, size_t n) {
  for (size_t i = 0; i < n; ++i)
    vm.define(defs[i].name,
              make_builtin(vm, defs[i].name, defs[i].fn, defs[i].min_args, defs[i].max_args));
}

Value make_builtin(VM& vm, const char* name, BuiltinFn fn, int min_args, int max_args) {
  Value sym = intern(vm, name);
  Builtin* b = alloc<Builtin>(vm, Kind::Builtin);
  b->fn = fn;
  b->name = sym;
  b->min_args = min_args;
  b->max_args = max_args;
  b->op = BuiltinOp::Plain;
  return Value::ref(b);
}

void set_builtin_op(VM& vm, const char* name, BuiltinOp op) {
  Value v = intern(vm, name).as<Symbol>()->value;
  if (TYPE(v) == Kind::Builtin) v.as<Builtin>()->op = op;
}

void VM::stack_overflow() {
  if (r_.stack != main_stack_)
    throw_error(*this, "stack overflow: recursion deeper than a thread's or fiber's VM stack (" +
                           std::to_string(opts_.fiber_stack_bytes >> 10) +
                           " KiB; see --thread-stack)");
  throw_error(*this, "stack overflow: recursion deeper than the VM stack limit (" +
                         std::to_string(opts_.stack_limit_bytes >> 20) +
                         " MiB; see --stack-limit)");
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

void VM::attach(std::unique_ptr<Instrument> i) {
  if (counting()) set_counting(false);
  instrument_ = std::move(i);
}

void VM::count_allocation(Kind k, size_t bytes) {
  if (counting_) counting_->allocation(k, gc::round_object_size(bytes));
}

void VM::set_counting(bool on) {
  if (on && !instrument_) throw_error(*this, "count-sites: no measurement library is open");
  counters_.count_ops = on;
  g_profile.count_types = on;
  counting_ = on ? instrument_.get() : nullptr;
  heap_->suspend_bump(on);  // every allocation through allocate(), counted
  refresh_dispatch();
}

void VM::collect(bool major) {
  Instrument* in = instrument_.get();
  uint32_t token = in ? in->collection_begins() : 0;
  uint64_t majors = heap_->stats().major_collections;
  if (major) heap_->collect();
  else heap_->collect_minor();
  if (in) in->collection_ends(token, major || heap_->stats().major_collections != majors);
}

void VM::collect_garbage() { collect(true); }

void VM::sample_builtin(const Value* slot, Value r, uint64_t ticks_before) {
  Value b = r == tail_call_marker() ? NIL : *slot;
  // The kind read directly: a TYPE here would count a dispatch the program
  // did not make.
  bool builtin = b.is_ref() && b.header()->kind == uint8_t(Kind::Builtin);
  if (instrument_) instrument_->sample_builtin(builtin ? b.as<Builtin>() : nullptr, ticks_before);
}

Value VM::safe_point_slow(bool at_entry) {
  // The count starts again before the causes are read: a poke from now on
  // is seen at the next safe point. What was left of the time slice is the
  // count with the pokes' kPoke each added back (-1: it ran out).
  int64_t slice_left = preempt_budget.exchange(kIdleSafePoints, std::memory_order_relaxed);
  while (slice_left < -kPoke / 2) slice_left += kPoke;
  // Ctrl-C breaks the main thread, whichever thread is running.
  if (interrupt_ && !deliver_interrupt(*this)) {
    interrupt_ = 0;
    throw ArcError{interrupt_exc_};
  }
  if (heap_->collection_wanted()) collect(false);
  if (!oom_reserve_) take_oom_reserve();  // given up by out_of_memory
  // Before the scheduler may switch threads: the samples are this one's.
  if (instrument_ && instrument_->sample_pending()) instrument_->sample(at_entry);
  if (slice_left < 0)
    scheduler_tick(*this);  // the slice ran out: may switch threads, sets the next slice
  else  // only poked: the slice goes on (an add, keeping any poke since the exchange)
    preempt_budget.fetch_add(slice_left - kIdleSafePoints, std::memory_order_relaxed);
  if (heap_->stress()) poke_safe_point();  // collect at every safe point
  return NIL;
}

void VM::each_frame(const std::function<bool(const FrameRef&)>& f) {
  Value* base = r_.base;
  uint32_t pc = r_.builtin_pc;
  size_t run = runs_.size();
  auto in_stack = [this](int64_t off) { return off >= 0 && r_.stack + off < r_.stack_end; };
  while (base) {
    if (base < r_.stack || base >= r_.stack_end || TYPE(base[-1]) != Kind::Closure) return;
    Code* c = code_of(base[-1]);
    int64_t saved_pc = base[c->nlocals].as_fixnum();
    int64_t link = base[c->nlocals + 1].as_fixnum();
    bool has_caller = link > 0 && in_stack(link) && TYPE(r_.stack[link - 1]) == Kind::Closure;
    if (!f(FrameRef{c, pc, nullptr, has_caller})) return;
    if (has_caller) {  // the same run's caller (or a cleanup frame's, pc unknown)
      base = r_.stack + link;
      Code* caller = code_of(base[-1]);
      pc = saved_pc < 0 ? 0 : uint32_t(frame_pc_insn(caller, saved_pc) - code_insns(caller));
      continue;
    }
    // The run's first frame: on to the run that made this one, through
    // the builtin that called it, if any.
    if (run == 0) return;
    const RunRecord& rr = runs_[--run];
    if (in_stack(rr.outer_builtin_args) && rr.outer_builtin_args > 0) {
      Value b = r_.stack[rr.outer_builtin_args - 1];
      if (TYPE(b) == Kind::Builtin && !f(FrameRef{nullptr, 0, b.as<Builtin>(), true})) return;
    }
    if (!in_stack(rr.outer_base)) return;
    base = r_.stack + rr.outer_base;
    pc = rr.outer_pc;
  }
}

// Walks the frames from the running one outwards. A frame's header holds
// the caller's pc and base as offsets (vm/code.h). Runs of the same frame
// (deep recursion) print once, with their count; the prelude's internal
// frames (code_is_internal: dynamic-wind, %run-winds) are left out. Past
// limit lines, the innermost and the outermost frames print, and a line
// between them counts the frames left out.
Value VM::backtrace(size_t limit) {
  struct Entry {
    Code* code;
    uint32_t line;
    size_t run;
  };
  std::vector<Entry> entries;
  size_t frames = 0;
  Value* base = r_.base;
  uint32_t pc = r_.builtin_pc;
  while (base) {
    Value fn = base[-1];
    if (TYPE(fn) != Kind::Closure) break;
    Code* c = code_of(fn);
    uint32_t line = code_line_at(c, pc > 0 ? pc - 1 : 0);
    if (code_is_internal(c)) {
      // not shown
    } else if (!entries.empty() && entries.back().code == c && entries.back().line == line) {
      ++entries.back().run;
      ++frames;
    } else {
      entries.push_back(Entry{c, line, 1});
      ++frames;
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
  auto format = [](const Entry& e) {
    std::string name = e.code->name.is_nil() ? "fn" : symbol_name(e.code->name);
    std::string where = e.code->file.is_nil() ? "" : string_utf8(e.code->file);
    std::string line = "  in " + name;
    if (!where.empty()) line += " at " + where + ":" + std::to_string(e.line);
    if (e.run > 1) line += " (" + std::to_string(e.run) + " times)";
    return line;
  };
  std::vector<std::string> lines;
  constexpr size_t kOutermost = 3;  // shown after the gap
  if (entries.size() <= limit || limit <= kOutermost + 1) {
    for (size_t i = 0; i < entries.size() && i < limit; ++i) lines.push_back(format(entries[i]));
  } else {
    size_t inner = limit - kOutermost - 1, shown = 0;
    for (size_t i = 0; i < inner; ++i) {
      lines.push_back(format(entries[i]));
      shown += entries[i].run;
    }
    for (size_t i = entries.size() - kOutermost; i < entries.size(); ++i) shown += entries[i].run;
    size_t left = frames - shown;
    lines.push_back("  ... " + std::to_string(left) + " frame" + (left == 1 ? "" : "s") +
                    " left out ...");
    for (size_t i = entries.size() - kOutermost; i < entries.size(); ++i)
      lines.push_back(format(entries[i]));
  }
  Value r = NIL;
  for (size_t i = lines.size(); i-- > 0;) r = cons(*this, make_string_utf8(*this, lines[i]), r);
  return r;
}

}  // namespace vm
