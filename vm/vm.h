// vm/vm.h — the virtual machine: globals, the VM stack, the interpreter,
// the current ports, and the dynamic state (handlers, winds) of the running
// program.
#pragma once
#include <atomic>
#include <csignal>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "vm/code.h"
#include "vm/object.h"
#include "vm/stack_pool.h"

namespace vm {

struct SymbolTable;  // vm/symbol.h
struct Scheduler;    // vm/thread.cpp

struct Options {
  size_t stack_limit_bytes = size_t(512) << 20;  // VM stack reservation
  StackRelease fiber_release = StackRelease::keep;  // --fiber-release
  bool stats = false;                             // --stats
  int workers = 0;  // --workers: serve forks this many worker processes (vm/server.cpp)
};

struct Counters {
  uint64_t ops[kOpCount] = {};
  uint64_t calls = 0;
  bool count_ops = false;
};

// A first-class continuation: the frames of one run level and the dynamic
// state beside them. The frames are a chain of segments, each a copy of
// stack words [seg_start, seg_start + seg_len) (a prefix of the Vector
// `frames`, which slices share), over a parent covering the words below.
// Consecutive captures share the segments that still match the stack, so a
// capture copies only what changed since the last one: O(1) in the depth of
// the stack for a loop capturing at any depth (VM::capture_continuation).
// Parents are Continuations too, possibly bare slices (no winds/handlers).
struct Continuation {
  GcHeader h;
  Value frames;     // Vector: the words of this segment (seg_len of them used)
  Value parent;     // Continuation holding the words below seg_start (nil: none)
  Value winds;      // the wind chain at capture
  Value handlers;   // Vector of handler records of this level (as fixnums and winds)
  uint64_t run_id;  // the run the frames belong to (0: any top-level run)
  uint64_t run_base, seg_start, seg_len;  // offsets into the stack
  uint64_t base, sp, pc;                   // offsets into the stack; pc into the code
  int level;
  uint64_t stack_id;  // the VM stack it was captured on (its start address)
};

// A handler record: where an error (or a run's exit) unwinds to.
struct Handler {
  size_t base;    // frame base, as an offset into the stack
  size_t sp;      // stack depth to restore
  uint32_t pc;    // where to continue: the handler code in that frame
  Value winds;    // the wind chain when the handler was pushed
  int level;      // run level (nested interpreter entries)
};

// One entry of the C++ -> Arc call chain (VM::apply).
struct RunRecord {
  size_t fslot;     // offset of the called function's slot
  uint64_t id;      // unique per run (0 for top-level runs)
  Value entry_winds;
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

// Everything that belongs to one line of execution (the main program, or a
// fiber) rather than to the VM: its VM stack and registers, its handlers,
// runs and winds, and the machine-stack bounds it must stay within. The VM
// holds the running execution's state in its own fields; a fiber switch
// exchanges them with the fiber's (VM::swap_exec, vm/fiber.cpp).
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

bool has_vm();  // a VM exists (VM::current() is valid)

class VM final : public gc::RootSource {
 public:
  explicit VM(const Options& opts = {});
  ~VM() override;
  VM(const VM&) = delete;

  static VM& current();  // the one VM of this process

  // ---- globals ----
  void define(const char* name, Value v);

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
  static constexpr Value tail_call_marker() { return Value::from_word(Value::imm(6)); }

  // ---- ports (dynamically rebindable) ----
  Value in_port, out_port, err_port;

  // ---- dynamic state ----
  Value winds = NIL;  // list of (before . after), innermost first
  std::vector<Handler> handlers;
  std::vector<RunRecord> runs;

  // ---- interruption (Ctrl-C) ----
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
  // Errors on-err does not catch (Ctrl-C, break-thread); protect cleanups
  // still run as they unwind.
  bool is_break(Value exc) const { return exc == interrupt_exc || exc == break_exc; }
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

  Value safe_point_slow();  // collects and/or raises the pending interrupt

  // Captures the continuation of the running builtin's call (ccc).
  Value capture_continuation();

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
  bool has_fiber_pool() const { return fiber_pool_ != nullptr; }
  Value current_fiber = NIL;  // the running fiber, nil on the main program
  // ---- green threads (vm/thread.cpp) ----
  Scheduler* scheduler = nullptr;  // made by the first thread operation
  // Safe points left before the slow path (safe_point_slow): the
  // scheduler's time slice while there are other threads (vm/thread.h),
  // else kIdleSafePoints. Whatever wants the slow path sooner (a collection
  // wanted, Ctrl-C) zeroes it, from any thread or a signal handler; so a
  // safe point is one decrement and test. Relaxed atomics: a zeroing lost
  // to a racing decrement is seen when the count runs out.
  std::atomic<int64_t> preempt_budget{kIdleSafePoints};
  static constexpr int64_t kIdleSafePoints = int64_t(1) << 16;
  void poke_safe_point() { preempt_budget.store(0, std::memory_order_relaxed); }
  // Raises "stack overflow" when the machine stack is nearly used up (on a
  // fiber's small stack, deep C++ recursion such as nested macro expansion).
  void check_machine_stack();

  // The Arc backtrace of the running program, innermost first.
  Value backtrace(size_t limit = 40);

  Options opts;
  Counters counters;
  // Declarations (declare): atstrings, direct-calls, explicit-flush.
  bool atstrings = false, explicit_flush = false, direct_calls = false;
  // The original primitives the fast-path opcodes compare against.
  Value prim_add, prim_sub, prim_lt, prim_gt, prim_is, prim_car, prim_cdr, prim_cons, prim_no,
      prim_acons;
  // Internal helpers the compiler and the prelude use.
  Value run_winds_fn = NIL;  // (fn (thunks v) ...) defined by the prelude
  Value atomic_locked_fn = NIL;  // (fn (f) ...): f holding the lock (prelude; vm/thread.cpp)

  void trace_roots(gc::Visitor& v) override;

  // Points each opcode's dispatch at its handler: a primitive's fast path
  // while its global holds the primitive, else the general case; every
  // opcode at the op counter while --stats counts them. Called when the
  // interpreter first runs and whenever a primitive's global is assigned.
  void refresh_dispatch();

 private:
  friend struct Interp;
  // The interpreter loop. cont: pick up the frames on the stack instead of
  // calling fslot (continue_frames).
  Value run(Value* fslot, int nargs, const RunContinue* cont = nullptr);
  [[noreturn]] void stack_overflow();
  void check_stack(Value* top) {
    if (top > r_.stack_end) stack_overflow();
  }

  gc::Heap* heap_;
  // The interpreter's dispatch tables (refresh_dispatch): the one DISPATCH
  // jumps through, the handler each opcode runs now, and the labels they
  // are made from (filled in by the first run).
  const void* dispatch_[kOpCount] = {};
  const void* op_targets_[kOpCount] = {};
  const void* op_labels_[kOpCount] = {};
  const void* op_general_labels_[kOpCount] = {};
  const void* count_label_ = nullptr;
  bool dispatch_counting_ = false;
  // The running execution's registers: its VM stack (the main program's is
  // reserved with mmap and grows as touched), first free slot, running
  // frame's base (null outside any run), nested run depth, the running
  // builtin's arguments and caller's pc, machine-stack bounds, and the
  // capture cache (below).
  ExecRegs r_;
  Value* main_stack_ = nullptr;  // the main program's VM stack (threads and fibers have slots)
  volatile std::sig_atomic_t interrupt_ = 0;
  StackPool* fiber_pool_ = nullptr;
  uint64_t next_run_id_ = 1;
  VM* previous_vm_ = nullptr;
  SymbolTable* previous_symbols_ = nullptr;
  // The capture cache (r_.capture_cache, r_.capture_low): the last
  // continuation captured in the running run, and the lowest frame base
  // entered since. Stack words below that frame are still what the
  // continuation's segments hold, so the next capture shares them. RETURN
  // and unwinding lower capture_low; leaving a run clears the cache.
  // Builds the continuation's segment chain onto the stack (invocation).
  void reinstate_frames(Continuation* k);
 public:
  // Marks the next apply() as a top-level form: continuations captured in it
  // may be re-entered from later top-level forms (ARC.md 7.9).
  void set_top_level_run() { r_.top_level_run = true; }
  Value interrupt_exc = NIL;  // the exception Ctrl-C raises; on-err does not catch it
  Value break_exc = NIL;      // the exception break-thread raises; likewise
};

}  // namespace vm
