// vm/vm.h — the virtual machine: globals, the VM stack, the interpreter,
// the current ports, and the dynamic state (handlers, winds) of the running
// program.
#pragma once
#include <csignal>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "vm/code.h"
#include "vm/object.h"

namespace vm {

struct Options {
  size_t stack_limit_bytes = size_t(512) << 20;  // VM stack reservation
  bool stats = false;                             // --stats
};

struct Counters {
  uint64_t ops[kOpCount] = {};
  uint64_t calls = 0;
  bool count_ops = false;
};

// A handler record: where an error (or a run's exit) unwinds to.
struct Handler {
  size_t base;    // frame base, as an offset into the stack
  size_t sp;      // stack depth to restore
  uint32_t pc;    // where to continue: the handler code in that frame
  Value winds;    // the wind chain when the handler was pushed
  int level;      // run level (nested interpreter entries)
};

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
  Value tail_call_marker();

  // ---- ports (dynamically rebindable) ----
  Value in_port, out_port, err_port;

  // ---- dynamic state ----
  Value winds = NIL;  // list of (before . after), innermost first
  std::vector<Handler> handlers;

  // ---- interruption (Ctrl-C) ----
  void request_interrupt() { interrupt_ = 1; }

  // ---- safe point ----
  gc::Heap& heap() { return *heap_; }
  void collect_garbage();

  // The Arc backtrace of the running program, innermost first.
  Value backtrace(size_t limit = 40);

  Options opts;
  Counters counters;
  // Declarations (declare): atstrings, direct-calls, explicit-flush.
  bool atstrings = false, explicit_flush = false, direct_calls = false;
  // The original primitives the fast-path opcodes compare against.
  Value prim_add, prim_sub, prim_lt, prim_gt, prim_is, prim_car, prim_cdr, prim_cons, prim_no;
  // Internal helpers the compiler and the prelude use.
  Value run_winds_fn = NIL;  // (fn (thunks v) ...) defined by the prelude

  void trace_roots(gc::Visitor& v) override;

 private:
  friend struct Interp;
  Value run(Value* fslot, int nargs);  // the interpreter loop
  [[noreturn]] void stack_overflow();

  gc::Heap* heap_;
  Value* stack_ = nullptr;     // reserved with mmap, grows as touched
  Value* stack_end_ = nullptr;
  Value* sp_ = nullptr;        // first free slot
  Value* base_ = nullptr;      // running frame's base (null outside any run)
  int level_ = 0;              // nested run depth
  volatile std::sig_atomic_t interrupt_ = 0;
  // Set by tail_call_slots for the builtin that is running.
  Value* builtin_args_ = nullptr;
  int pending_nargs_ = -1;
};

}  // namespace vm
