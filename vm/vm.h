// vm/vm.h — the virtual machine: globals, the VM stack, the interpreter,
// the current ports, and the dynamic state (handlers, winds) of the running
// program.
#pragma once
#include <atomic>
#include <csignal>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "vm/code.h"
#include "vm/continuation.h"
#include "vm/instrument.h"
#include "vm/library.h"
#include "vm/object.h"
#include "vm/stack_pool.h"
#include "vm/symbol.h"

namespace vm {

struct SymbolTable;    // vm/symbol.h
struct Scheduler;      // vm/thread.cpp
struct FiberRegistry;  // vm/fiber.cpp

struct Options {
  size_t stack_limit_bytes = size_t(512) << 20;     // VM stack reservation
  size_t fiber_stack_bytes = size_t(128) << 10;     // each thread's, fiber's: --thread-stack
  StackRelease fiber_release = StackRelease::keep;  // --fiber-release
  bool stats = false;                               // --stats
  int workers = 0;  // --workers: serve forks this many worker processes (io/server.cpp)
};

// The current ports (VM::in_port and the rest).
struct Ports {
  Value in = NIL, out = NIL, err = NIL;
};

// The flags `declare` sets (docs/LANGUAGE.md 3.11).
struct Declarations {
  bool atstrings = false;       // "@x" in a string literal interpolates x
  bool explicit_flush = false;  // write and disp do not flush after each call
  bool direct_calls = false;    // recorded only: calls of globals are direct already
};

struct Counters {
  uint64_t ops[kOpCount] = {};
  uint64_t calls = 0;
  bool count_ops = false;
};

// One entry of the C++ -> Arc call chain (VM::apply).
struct RunRecord {
  size_t fslot;  // offset of the called function's slot
  uint64_t id;   // unique per run (0 for top-level runs)
  Value entry_winds;
  // Where the frames of the run that made this one are (each_frame): the
  // base offset of its running frame (-1: none), its pc there, and the
  // offset of the arguments of the builtin it was calling (-1: none).
  int64_t outer_base = -1;
  uint32_t outer_pc = 0;
  int64_t outer_builtin_args = -1;
};

// One frame of the running Arc stack (VM::each_frame): a closure's code and
// the index of the instruction it is at, or a builtin that called back
// into Arc (code null). has_caller: an Arc frame of the same run called it.
struct FrameRef {
  Code* code;
  uint32_t insn;
  const Builtin* builtin;
  bool has_caller;
};

// How a run picks up frames already on the stack (VM::continue_frames):
// make the pending call of nargs values on top of the stack, or push value
// as the result of the call the frames stopped at; tail: that call was a
// tail call.
struct RunContinue {
  bool call;
  int nargs;
  bool tail;
  Value value;
};

class StackPool;

// A handler the interpreter's dispatch jumps to: a label's address, or
// with the switch form of dispatch (ARCANA_SWITCH_DISPATCH) its number
// (vm/interp.cpp).
#if ARCANA_SWITCH_DISPATCH
using DispatchTarget = uint16_t;
#else
using DispatchTarget = const void*;
#endif

// The registers of one execution, in one block so that a switch (swap_exec)
// exchanges them in a few wide moves.
struct ExecRegs {
  Value* stack = nullptr;
  Value* stack_end = nullptr;
  Value* sp = nullptr;
  Value* base = nullptr;
  Value* builtin_args = nullptr;
  int level = 0;
  int pending_nargs = -1;
  uint32_t builtin_pc = 0;
  bool top_level_run = false;
  uintptr_t low_water = 0;       // machine stack pointers below this are too deep
  void* stack_bottom = nullptr;  // highest address of its machine stack
  // The capture cache (VM::capture_continuation).
  Value capture_cache = NIL;
  Value* capture_low = nullptr;
};

// Everything that belongs to one line of execution (the main program, a
// thread or a fiber) rather than to the VM: its VM stack and registers, its
// handlers, runs and winds, and the machine-stack bounds it must stay
// within. The VM holds the running execution's state in its own fields; a
// switch exchanges them with the fiber's or thread's (VM::swap_exec,
// vm/fiber.cpp, vm/thread.cpp).
struct ExecState {
  ExecRegs r;
  std::vector<Handler> handlers;
  std::vector<RunRecord> runs;
  Value winds = NIL;
  // Its C++ handles (gc::Rooted): the heap's handle stack is LIFO, so each
  // execution keeps its own, swapped in with the rest.
  std::vector<gc::Word*> handles;
};
// Scans one execution's roots: its stack below sp, its winds, its handles.
void trace_exec(ExecState& s, gc::Visitor& v);

class VM final : public gc::RootSource {
 public:
  // Allocates in heap, which outlives it.
  explicit VM(gc::Heap& heap, const Options& opts = {});
  ~VM() override;
  VM(const VM&) = delete;

  // ---- the libraries above the core (vm/library.h) ----
  // Opens lib: its builtins are defined, its kinds' functions registered.
  void open(const Library& lib);
  bool has_library(const char* name) const;
  void set_kind_ops(Kind k, const KindOps& ops) { kind_ops_[int(k)] = ops; }
  const KindOps& kind_ops(Kind k) const { return kind_ops_[int(k)]; }
  // A library's state in this VM by its name; null until set.
  LibraryState* library_state(const char* name) const;
  void set_library_state(const char* name, std::unique_ptr<LibraryState> state);
  // Ends every library's state now (exit_process, where the VM itself is
  // never destroyed: what the states hold is released, as the finalizers
  // release what objects hold).
  void end_library_states() { library_states_.clear(); }

  // ---- symbols ----
  // The well-known symbols (vm/symbol.h), interned in this VM's table.
  Syms S;
  SymbolTable& symbol_table() { return *symbols_; }

  // ---- globals and primitives ----
  void define(const char* name, Value v);
  // The primitive a fast-path opcode (vm/opcodes.def, PRIM) stands for:
  // what its global held at start, which the opcode's fast path is only
  // while the global still holds it; nil for the other opcodes.
  Value primitive(Op op) const { return primitives_[int(op)]; }

  // ---- calling Arc from C++ ----
  // Calls f with args and runs it to completion on this VM's stack. The
  // C++ caller is a continuation barrier. Arc errors propagate as ArcError.
  Value apply(Value f, const Value* args, int nargs);
  Value apply(Value f, std::initializer_list<Value> args) {
    return apply(f, args.begin(), int(args.size()));
  }

  // A builtin that wants to call a function in its place (apply does) puts
  // the function and its arguments in the slots returned, then returns the
  // value this returns; the interpreter makes the call, no C++ recursion.
  Value* tail_call_slots(int nargs);
  static constexpr Value tail_call_marker() {
    return Value::from_word(Value::imm(Value::kSubTailCall));
  }

  // ---- the current ports ----
  // Rebound by %set-stdin and %set-stdout (w/stdin, w/stdout) and by a
  // thread switch, each of which stores a port of the right direction:
  // output_arg (vm/builtins/io.cpp) relies on it.
  Value in_port() const { return ports_.in; }
  Value out_port() const { return ports_.out; }
  Value err_port() const { return ports_.err; }
  void set_in_port(Value p) { ports_.in = p; }
  void set_out_port(Value p) { ports_.out = p; }
  void set_err_port(Value p) { ports_.err = p; }

  // ---- the running execution's wind chain (%push-wind, %pop-wind) ----
  // (before . after) pairs, innermost first; protect and after push one
  // around their body (vm/continuation.h says how transfers run them).
  Value winds() const { return winds_; }
  void push_wind(Value before, Value after) {
    winds_ = cons(*this, cons(*this, before, after), winds_);
  }
  void pop_wind() {
    if (is_cons(winds_)) winds_ = cdr(winds_);
  }
  // (%wind-to w): the chain a transfer's cleanup or before runs under, so
  // that an error in it unwinds through the winds still to be left only
  // (vm/continuation.cpp, wind_thunks). w must be a list of pairs.
  void set_winds(Value w) { winds_ = w; }

  // ---- interruption (Ctrl-C; foreground_vm below says how a handler finds the VM) ----
  void request_interrupt() {  // async-signal-safe
    interrupt_ = 1;
    poke_safe_point();
  }
  // Raises the pending interrupt, if any (for blocking calls woken by EINTR).
  void poll_interrupt() {
    if (interrupt_) safe_point_slow();
  }
  bool interrupt_pending() const { return interrupt_ != 0; }
  void clear_interrupt() { interrupt_ = 0; }
  // Whether a Ctrl-C that came after the last safe point of a top-level
  // form is kept for the next one (a script: it stops, wherever the signal
  // fell; compiler::Runtime::eval_string raises it between forms) or
  // dropped (the REPL, whose prompt has taken the Ctrl-C as its own).
  void set_interrupt_spans_forms(bool on) { interrupt_spans_forms_ = on; }
  bool interrupt_spans_forms() const { return interrupt_spans_forms_; }
  // Errors on-err does not catch (Ctrl-C, break-thread); protect cleanups
  // still run as they unwind.
  bool is_break(Value exc) const { return exc == interrupt_exc_ || exc == break_exc_; }
  // A continuation invoked inside a fiber but captured in an execution that
  // (transitively) resumed it leaves the fibers in between as an error
  // would, their protect cleanups run, and on-err not catching it; where it
  // arrives, the continuation is invoked (vm/interp.cpp).
  Value escape_exception(Value k, Value v);
  static bool is_escape(Value exc);
  // The continuation and value of an escape exception.
  static Value escape_continuation(Value exc);
  static Value escape_value(Value exc);

  // ---- safe point ----
  gc::Heap& heap() { return *heap_; }
  void collect_garbage();

  // Collects and/or raises the pending interrupt, takes the profiler's
  // samples; at_entry: at a call's entry, before the callee has run.
  Value safe_point_slow(bool at_entry = false);

  // ---- running out of memory ----
  // The exception for an allocation that failed (std::bad_alloc). Memory
  // held back for it is given up first, so that the exception, its
  // backtrace and the unwinding to on-err can still allocate when the heap
  // is full; a collection is asked for, after which the reserve is taken
  // again (safe_point_slow).
  Value out_of_memory();

  // Captures the continuation of the running builtin's call (ccc).
  Value capture_continuation();
  // How many continuations have been captured so far, in any execution:
  // a loop that builds a list forward reads it before and after calling
  // out, and copies what it built when it moved (%captures, stdlib/core.arc
  // %map1), since a re-entered continuation resumes with the cells as they
  // were at its capture.
  uint64_t captures() const { return captures_; }

  // ---- fibers (vm/fiber.cpp) ----
  // Exchanges the running execution's state with s.
  void swap_exec(ExecState& s);
  // The same for a fiber running in place (vm/fiber.h), which keeps the
  // machine stack: its bounds (stack_bottom, low_water) and the C++ handles
  // stay in the VM, s keeps its own.
  void swap_exec_in_place(ExecState& s);
  // The rest of the exchange, for such a fiber moving onto its own machine
  // stack: the machine-stack bounds and the C++ handles.
  void swap_machine_bounds(ExecState& s);
  // Runs the frames the stack holds from r_'s position, as c says, until
  // the bottom frame of the current run record returns; that value. For a
  // fiber moving onto its own machine stack (vm/fiber.cpp).
  Value continue_frames(const RunContinue& c);
  StackPool& fiber_pool();
  FiberRegistry& fibers() { return *fibers_; }  // vm/fiber.cpp
  bool has_fiber_pool() const { return fiber_pool_ != nullptr; }
  // The running fiber, nil on the main program; resume, yield and a
  // thread switch set it.
  Value current_fiber() const { return current_fiber_; }
  void set_current_fiber(Value f) { current_fiber_ = f; }

  // ---- green threads (vm/thread.cpp) ----
  // The scheduler, made by the first thread operation (null before).
  Scheduler* scheduler() const { return scheduler_; }
  void set_scheduler(Scheduler* s) { scheduler_ = s; }
  // Whether a thread other than the running one is live (vm/thread.h's
  // other_threads): the scheduler keeps it as threads start and end, so
  // that the test, which every atomic body makes (ATOMIC), is one load.
  bool other_threads_live() const { return other_threads_live_; }
  void set_other_threads_live(bool b) { other_threads_live_ = b; }
  // The exceptions Ctrl-C and break-thread raise; on-err does not catch
  // them (is_break).
  Value interrupt_exc() const { return interrupt_exc_; }
  Value break_exc() const { return break_exc_; }
  // Safe points left before the slow path (safe_point_slow): the
  // scheduler's time slice while there are other threads (vm/thread.h),
  // else kIdleSafePoints. Whatever wants the slow path sooner (a collection
  // wanted, Ctrl-C, the profiler) pokes it, from any thread or a signal
  // handler; so a safe point is one decrement and test. A poke takes kPoke
  // off the count rather than zeroing it: the slow path adds it back and
  // goes on with what is left of the time slice, so that a poke does not
  // end the slice (under --gc-stress, which pokes at every safe point,
  // threads would otherwise switch at every call). Relaxed atomics: a poke
  // lost to a racing decrement is seen when the count runs out.
  std::atomic<int64_t> preempt_budget{kIdleSafePoints};
  static constexpr int64_t kIdleSafePoints = int64_t(1) << 16;
  static constexpr int64_t kPoke = gc::Heap::kSafepointPoke;  // far more than any slice
  void poke_safe_point() { preempt_budget.fetch_sub(kPoke, std::memory_order_relaxed); }
  // For the profiler's signal handler (async-signal-safe; on the VM's own
  // thread): the next instruction dispatched, wherever it is, takes the
  // pending sample (sample_at_instruction) and puts the dispatch back.
  // Safe points come only at calls and backward jumps, so a sample taken
  // at the next one would charge a loop's body to the jump at its head.
  void sample_next_instruction() {
    if (!sample_label_) return;  // no run has filled the labels in yet
    volatile DispatchTarget* d = dispatch_;
    for (int i = 0; i < kOpCount; ++i) d[i] = sample_label_;
  }
  // Raises "stack overflow" when the machine stack is nearly used up (on a
  // fiber's small stack, deep C++ recursion such as nested macro expansion).
  void check_machine_stack();
  static constexpr size_t kMainStackReserve = size_t(256) << 10;
  uintptr_t provisional_low_water_ = 0;  // the main stack's mark until the real one is found

  // The Arc backtrace of the running program, innermost first.
  Value backtrace(size_t limit = 40);
  // Calls f on each frame of the running execution, innermost first, across
  // the runs that builtins made (apply, sort's comparisons), while f
  // returns true. At a safe point or in a builtin, where the registers are
  // saved.
  void each_frame(const std::function<bool(const FrameRef&)>& f);

  // ---- settings ----
  const Options& options() const { return opts_; }
  // Declarations (declare): read by the compiler and the output builtins.
  Declarations& declarations() { return declarations_; }

  // ---- measuring (vm/instrument.h) ----
  // The opcode counts and the switch that turns them on; the interpreter
  // notices a change when a run begins (refresh_dispatch).
  Counters& counters() { return counters_; }
  // The instrument the measurement library attaches (null: none), which
  // the VM owns from then on.
  void attach(std::unique_ptr<Instrument> i);
  Instrument* instrument() const { return instrument_.get(); }
  // Counting by site with the type dispatches and the opcodes (--stats,
  // (count-sites t)), charged to the attached instrument, on or off; takes
  // effect at the next instruction.
  void set_counting(bool on);
  bool counting() const { return counting_ != nullptr; }
  // The instrument counting sites (the attached one, while it counts), or null.
  Instrument* counting_instrument() const { return counting_; }
  // Counting allocations by site, on allocate()'s path: while the VM
  // counts, the heap's bump is suspended (Heap::suspend_bump), so the
  // inline fast path is as it is without counting.
  __attribute__((noinline, cold)) void count_allocation(Kind k, size_t bytes);
  // Ticks of the sampling profiler's timer (measure/profiler.h), added by
  // its signal handler: a builtin call during which it moved is charged to
  // the builtin (call_builtin).
  std::atomic<uint64_t> profile_ticks{0};
  // The timer's ticks that came while a collection ran (charged to [gc]),
  // whether one runs, and whether a profiler takes ticks at all: the
  // handler's state, here so that it reaches all of it from the VM.
  std::atomic<uint64_t> profile_gc_ticks{0};
  std::atomic<bool> profile_collecting{false};
  std::atomic<bool> profiling{false};

  // ---- hooks: functions of the prelude the interpreter calls ----
  // (%run-winds thunks v): runs the cleanups and befores of a transfer of
  // control, then gives v (vm/continuation.cpp). (%atomic-locked f): f
  // holding the threads' lock (vm/thread.cpp). The runtime installs both
  // once the prelude has defined them, before any other Arc code runs; a
  // missing one is a fatal error there, and a use before then is one here.
  void install_hooks(Value run_winds, Value atomic_locked);
  Value run_winds_fn() const { return hook(run_winds_fn_, "%run-winds"); }
  Value atomic_locked_fn() const { return hook(atomic_locked_fn_, "%atomic-locked"); }

  void trace_roots(gc::Visitor& v) override;
  // The same roots, with only the symbols that may be young
  // (trace_young_symbols), for a minor collection.
  void trace_young_roots(gc::Visitor& v) override;

  // Points each opcode's dispatch at its handler: a primitive's fast path
  // while its global holds the primitive, else the general case; every
  // opcode at the op counter while --stats counts them. Called when the
  // interpreter first runs and whenever a primitive's global is assigned.
  void refresh_dispatch();

 private:
  // The interpreter loop. cont: pick up the frames on the stack instead of
  // calling fslot (continue_frames). RunScope: what a run restores when it
  // ends (vm/interp.cpp).
  struct RunScope;
  Value run(Value* fslot, int nargs, const RunContinue* cont = nullptr);
  // The parts of a run outside its dispatch loop (vm/interp.cpp).
  Next begin_run(RunScope& scope, int nargs, const RunContinue* cont);
  inline Value call_builtin(Builtin* b, Value* args, int n);
  Next unwind_run(Value exc, RunScope& scope, Value* base, uint32_t pc);
  // The end of a run that made its own record (vm/vm.cpp): the record
  // popped, and the REPL's Ctrl-C policy applied at a top-level form's end.
  void end_run_record();
  void install_labels(const DispatchTarget* labels, const DispatchTarget* general,
                      DispatchTarget count_label, DispatchTarget sample_label);
  __attribute__((noinline, cold)) void count_instruction(Insn insn, const Value* base,
                                                         const Insn* pc);
  // The profiler's tick redirected the dispatch (sample_next_instruction):
  // the table back as it was, and the pending ticks charged here.
  __attribute__((noinline, cold)) void sample_at_instruction();
  // dispatch_ as refresh_dispatch last made it (from op_targets_).
  void restore_dispatch();
  [[noreturn]] void stack_overflow();
  // Every root but the symbol table (trace_roots, trace_young_roots).
  void trace_roots_but_symbols(gc::Visitor& v);

  Options opts_;
  std::vector<const char*> libraries_;  // open()'s, by name
  std::vector<std::pair<const char*, std::unique_ptr<LibraryState>>> library_states_;
  KindOps kind_ops_[kHeapKinds] = {};
  Counters counters_;
  Declarations declarations_;
  Ports ports_;
  // The main VM stack's words above stack_end: headroom for what is pushed
  // before a check (check_stack tests each frame's full size on entry; the
  // pushes without one, a primitive's general case putting its global under
  // its operands, and C++ helpers writing call slots, stay far within it).
  static constexpr size_t kStackHeadroomWords = 4096;
  void check_stack(Value* top) {
    if (top > r_.stack_end) stack_overflow();
  }

  gc::Heap* heap_;
  std::unique_ptr<Instrument> instrument_;
  Instrument* counting_ = nullptr;  // instrument_ while it counts sites (set_counting)
  // A builtin call during which the profiler's timer ticked (vm/interp.cpp).
  // slot: where the builtin was called from, which a collection keeps up
  // to date; r: what it returned (a tail call has put its callee there).
  __attribute__((noinline, cold)) void sample_builtin(const Value* slot, Value r,
                                                      uint64_t ticks_before);
  // Runs a collection (major: a full one), telling the instrument.
  void collect(bool major);
  Value run_winds_fn_ = NIL, atomic_locked_fn_ = NIL;  // install_hooks
  static Value hook(Value f, const char* name) {
    if (__builtin_expect(f.is_nil(), 0)) missing_hook(name);
    return f;
  }
  [[noreturn]] static void missing_hook(const char* name);
  // The interpreter's dispatch tables (refresh_dispatch): the one DISPATCH
  // jumps through, the handler each opcode runs now, and the labels they
  // are made from (filled in by the first run).
  Value primitives_[kOpCount];  // by opcode (primitive())
  // The profiler's signal handler writes dispatch_ (sample_next_instruction)
  // on the thread that reads it: volatile stores there, plain loads in
  // DISPATCH (atomic loads there cost the loop instructions: the compiler
  // may not arrange them as it arranges plain ones). Every value either side
  // writes is a valid handler, and were a load ever kept from before a
  // tick, the sample would only come later, at the next safe point.
  DispatchTarget dispatch_[kOpCount] = {};
  DispatchTarget op_targets_[kOpCount] = {};
  DispatchTarget op_labels_[kOpCount] = {};
  DispatchTarget op_general_labels_[kOpCount] = {};
  DispatchTarget count_label_ = {};
  DispatchTarget sample_label_ = {};
  // Its intern table (vm/symbol.cpp): its symbols live in this VM's heap.
  std::unique_ptr<SymbolTable, SymbolTableDeleter> symbols_{make_symbol_table()};
  bool dispatch_counting_ = false;
  // The running execution's registers: its VM stack (the main program's is
  // reserved with mmap and grows as touched), first free slot, running
  // frame's base (null outside any run), nested run depth, the running
  // builtin's arguments and caller's pc, machine-stack bounds, and the
  // capture cache (below).
  ExecRegs r_;
  // The rest of the running execution's state (ExecState), exchanged with
  // a thread's or fiber's by swap_exec: handlers innermost last, the run
  // records of the nested runs, the wind chain.
  std::vector<Handler> handlers_;
  std::vector<RunRecord> runs_;
  Value winds_ = NIL;
  Value current_fiber_ = NIL;
  Scheduler* scheduler_ = nullptr;
  bool other_threads_live_ = false;
  Value interrupt_exc_ = NIL, break_exc_ = NIL;
  void* oom_reserve_ = nullptr;  // out_of_memory's; null once given up
  static constexpr size_t kOomReserveBytes = size_t(16) << 20;
  void take_oom_reserve();
  Value* main_stack_ = nullptr;  // the main program's VM stack (threads and fibers have slots)
  volatile std::sig_atomic_t interrupt_ = 0;
  bool interrupt_spans_forms_ = false;
  StackPool* fiber_pool_ = nullptr;
  FiberRegistry* fibers_ = nullptr;
  uint64_t next_run_id_ = 1;
  uint64_t captures_ = 0;  // captures()
  // The capture cache (r_.capture_cache, r_.capture_low): the last
  // continuation captured in the running run, and the lowest frame base
  // entered since. Stack words below that frame are still what the
  // continuation's segments hold, so the next capture shares them. RETURN
  // and unwinding lower capture_low; leaving a run clears the cache.
  // Builds the continuation's segment chain onto the stack (invocation).
  void reinstate_frames(Continuation* k);
  // Boxes the shared-on-capture locals of the frames a capture copies.
  void box_shared_slots(Value* low);
  // ---- the control model (vm/continuation.cpp, vm/fiber.cpp) ----
  // Each leaves the registers in r_ and returns where the interpreter goes
  // next; the loop passes its run's entry slot, its enclosing base and the
  // count of fibers it runs in place (vm/interp.cpp, RunScope).
  // Invokes continuation k, called with the nargs values on top of r_.sp.
  Next invoke_continuation(Value k, int nargs, Value* fslot);
  // Sends error exc to its handler, through cleanups and fibers running in
  // place, or out of the run (Rethrow, r_.sp at fslot).
  Next unwind(Value exc, Value* fslot, Value* entry_base, int& in_place);
  // resume, yield or a builtin that reenters, called at r_.sp by the fiber
  // running in place or to enter one; None when the builtin runs as usual.
  // Both inline in the loop (vm/fiber_switch.h says why).
  inline Next fiber_switch(Builtin* b, int nargs, bool tail, int& in_place);
  // The fiber running in place returned v.
  inline Next fiber_return(Value v, int& in_place);
  // The frame calling %run-winds on thunks and v at `at` (r_.sp above it).
  void push_winds_call(Value* at, Value thunks, Value v);
  // The handler records of the running level, as a continuation keeps
  // them, and back.
  Value encode_handlers();
  void restore_handlers(Value records);
  void drop_level_handlers();  // those of the running level
  // The value of a Next that leaves the run or raises: read by the loop at
  // once, with no allocation in between, so it needs no root.
  Value next_value_ = NIL;
  Next leave_next(Value v) {
    next_value_ = v;
    return Next{Next::Leave};
  }
  Next raise_next(Value exc) {
    next_value_ = exc;
    return Next{Next::Raise};
  }
  // Stack words a continuation's invocation may push above its frames
  // (the %run-winds call), checked before the frames are copied.
  static constexpr size_t kWindsCallWords = 4;

 public:
  // Marks the next apply() as a top-level form: continuations captured in it
  // may be re-entered from later top-level forms (docs/LANGUAGE.md 7.9).
  void set_top_level_run() { r_.top_level_run = true; }
};

// ---- allocation (declared in vm/object.h) ----
template <class T, bool kBarriered>
inline T* alloc(VM& vm, Kind k, size_t extra) {
  gc::Heap& h = vm.heap();
  if (GcHeader* o = h.try_bump(sizeof(T) + extra, uint8_t(k))) return reinterpret_cast<T*>(o);
  GcHeader* o = kBarriered ? h.allocate_barriered(sizeof(T) + extra, uint8_t(k))
                           : h.allocate(sizeof(T) + extra, uint8_t(k));
  if (__builtin_expect(vm.counting(), 0)) vm.count_allocation(k, sizeof(T) + extra);
  return reinterpret_cast<T*>(o);
}

// Heap::write's filter is taken here first, and inline always: GCC left
// even this a call in the interpreter's loop (SREF's table store). A store
// with a reference on neither side (a table entry's t replaced by nil)
// wants no barrier, and is Heap::write's store alone.
[[gnu::always_inline]] inline void set(VM& vm, GcHeader* obj, Value* slot, Value v) {
  Word* w = reinterpret_cast<Word*>(slot);
  if (!(int(gc::is_ref(__atomic_load_n(w, __ATOMIC_RELAXED))) | int(v.is_ref()))) {
    __atomic_store_n(w, v.word(), __ATOMIC_RELEASE);
    return;
  }
  vm.heap().write(obj, w, v.word());
}
template <class T>
[[gnu::always_inline]] inline void set(VM& vm, T* obj, Value* slot, Value v) {
  set(vm, &obj->h, slot, v);
}

inline Value cons(VM& vm, Value a, Value b) {
  Cons* c = alloc<Cons>(vm, Kind::Cons);  // fresh: no barrier for its fields
  c->car = a;
  c->cdr = b;
  return Value::ref(c);
}

// ---- the foreground VM ----
// A signal handler is given only the signal's number and readline's
// callbacks nothing at all, so what they act on (Ctrl-C in the REPL and in
// a script, the profiler's timer, the REPL's completion) is found through
// this one process-wide pointer, the only one the rooms keep
// (tests/tools/check_globals.py): the VM that runs on the process's main
// thread. The front end that runs it (the REPL, the script runner)
// publishes it; a profiler publishes the VM it profiles when none is. A
// VM being destroyed withdraws itself.
VM* foreground_vm();  // async-signal-safe
void set_foreground_vm(VM* vm);
// Publishes vm if no other VM is published; false if another is.
bool claim_foreground_vm(VM* vm);
// Withdraws vm if it is the one published.
void release_foreground_vm(VM* vm);

}  // namespace vm
