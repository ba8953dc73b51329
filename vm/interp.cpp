// vm/interp.cpp — the interpreter loop.
//
// Rules for VM authors:
//  1. The registers (base, sp, pc, code, K) are the truth while the loop
//     runs. SAVE() writes them back to the VM before anything that looks at
//     the stack from outside: a builtin, a safe point, raising an error.
//  2. Only SAFEPOINT() collects (at calls and backward jumps). Opcodes and
//     builtins may allocate freely in between; nothing they hold needs a root.
//     After a safe point, RELOAD() re-derives code and K from the frame, so
//     a moving collector may move code objects. A builtin that runs Arc code
//     (eval and macex expand macros through VM::apply) passes safe points
//     in a nested run, so the loop also RELOADs after every builtin call.
//  3. Arc-to-Arc calls never recurse on the machine stack: a call pushes a
//     frame on the VM stack and jumps. VM::apply (C++ calling Arc) is the
//     only re-entry; it starts a nested run, which is a continuation barrier.
//  4. Every stack slot below sp is a valid Value (frame headers are fixnums),
//     so the collector scans the stack without knowing frame layouts.
//  5. Errors are C++ ArcError throws; the catch at the bottom of the loop
//     finds the innermost handler of this run (VM::unwind, in
//     vm/continuation.cpp) or leaves the
//     run, after running the protect cleanups in between, in Arc.
//  6. A fiber resumed from bytecode runs in place in this loop (vm/fiber.h);
//     scope.in_place counts those entered and not left. While one runs, a
//     return to C++ (its first frame's) ends that fiber instead of the run,
//     and an error it does not handle fails it, then goes on in its
//     resumer. Nothing may leave the run with one still entered.
#include <cmath>
#include <cstdio>
#include <cstring>

#include "vm/builtins.h"
#include "vm/error.h"
#include "vm/fiber.h"
#include "vm/fiber_switch.h"
#include "vm/number.h"
#include "vm/string.h"
#include "vm/symbol.h"
#include "vm/table.h"
#include "vm/thread.h"
#include "vm/vm.h"

// GCC on x86-64 keeps pc and base of this loop in the stack frame,
// loading and storing them around every instruction (its register
// allocator gives up on a function this size). Naming callee-saved machine
// registers for the three hottest registers keeps them there, as OCaml's
// bytecode interpreter does, which saves instructions on every loop
// iteration and every call (cachegrind). Elsewhere they are plain locals.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#pragma GCC diagnostic ignored "-Wregister"
#define VM_REGISTER register
#define VM_REG(name) __asm__(name)
#else
#define VM_REGISTER
#define VM_REG(name)
#endif

namespace vm {

namespace {

// A shared-on-capture local's slot (vm/opcodes.def, LOADX) holds its
// value, or the box a capture gave it: its value either way.
inline Value load_shared(Value slot) { return is_box(slot) ? slot.as<Box>()->v : slot; }

// STOREX: the same slot's store (inline always: GCC made it a call in
// the loop, where an arithmetic slot form's POPX takes it).
[[gnu::always_inline]] inline void store_shared(VM& vm, Value& slot, Value v) {
  if (is_box(slot)) {
    Box* b = slot.as<Box>();
    set(vm, b, &b->v, v);
  } else {
    slot = v;
  }
}

std::string fn_name(Value f) {
  if (TYPE(f) == Kind::Builtin) return symbol_name(f.as<Builtin>()->name);
  if (TYPE(f) == Kind::Closure) {
    Value n = code_of(f)->name;
    return n.is_nil() ? "fn" : symbol_name(n);
  }
  return "continuation";
}

// Moves the arguments of a call to the callee's parameter layout: missing
// optionals become MISSING, extras go to the rest list or are dropped (only
// for complex parameter lists), and wrong counts raise arity errors.
int adjust_args(VM& vm, Code* c, Value f, Value* args, int n) {
  int nfixed = c->nreq + c->nopt;
  if (n < c->nreq) arity_error(vm, fn_name(f), c->nreq, c->rest || c->lenient ? -1 : nfixed, n);
  if (n > nfixed) {
    if (c->rest) {
      Value rest = NIL;
      for (int i = n; i-- > nfixed;) rest = cons(vm, args[i], rest);
      args[nfixed] = rest;
      return nfixed + 1;
    }
    if (!c->lenient) arity_error(vm, fn_name(f), c->nreq, nfixed, n);
    return nfixed;
  }
  for (int i = n; i < nfixed; ++i) args[i] = MISSING;
  if (c->rest) args[nfixed] = NIL;
  return nfixed + c->rest;
}

// Calling a list, string or table: indexing (docs/LANGUAGE.md 3.7). k is f's kind,
// which the caller has already decided.
Value call_data(VM& vm, Value f, Kind k, Value* args, int n) {
  if (k == Kind::Table) {
    if (n < 1 || n > 2) arity_error(vm, "table", 1, 2, n);
    return table_get(f, args[0], n == 2 ? args[1] : NIL);
  }
  if (n < 1) call_error(vm, f, args, n);
  Value i = args[0];
  if (TYPE(i) != Kind::Fixnum || i.as_fixnum() < 0)
    throw_error(vm, "index must be a non-negative integer:", {i});
  int64_t idx = i.as_fixnum();
  if (k == Kind::String) {
    if (uint64_t(idx) >= string_len(f)) throw_error(vm, "string index out of range:", {i, f});
    return Value::character(string_ref(f, uint64_t(idx)));
  }
  Value p = f;
  for (int64_t j = 0; j < idx && is_cons(p); ++j) p = cdr(p);
  if (!is_cons(p)) throw_error(vm, "list index out of range:", {i, f});
  return car(p);
}

// The n-ary comparisons' float case (LTN and its kin, vm/interp_prims.inc):
// each pair of the k operands at a compared in turn, as fixnums or, where a
// flonum is, as doubles (value.h, float_operands); 1 or 0, or -1 when a
// pair is neither (the general case's). Out of the loop, and its result
// tested by the one TEST_RESULT of each handler: four inline copies, or a
// second TEST_RESULT in each, cost the loop's other handlers registers
// (docs/ARCHITECTURE.md, "Measurements behind the code").
enum class Cmp { lt, gt, le, ge };
[[gnu::noinline]] int compare_numbers(const Value* a, int k, Cmp cmp) {
  bool r = true;
  for (int j = 0; j + 1 < k; ++j) {
    int order;  // (a NaN is a heap Flonum, which float_operands refuses)
    if (double x, y; int(a[j].is_fixnum()) & int(a[j + 1].is_fixnum())) {
      int64_t p = a[j].as_fixnum(), q = a[j + 1].as_fixnum();
      order = int(p > q) - int(p < q);
    } else if (float_operands(a[j], a[j + 1], &x, &y)) {
      order = int(x > y) - int(x < y);
    } else {
      return -1;
    }
    switch (cmp) {
      case Cmp::lt: r &= order < 0; break;
      case Cmp::gt: r &= order > 0; break;
      case Cmp::le: r &= order <= 0; break;
      case Cmp::ge: r &= order >= 0; break;
    }
  }
  return int(r);
}

// SREF's fast path (vm/opcodes.def): (sref h v k) of a table h, the three
// at the top of the stack, h's place left holding v; the new top.
inline Value* sref_table(VM& vm, Value* sp) {
  if (!table_put_array(vm, sp[-3], sp[-1], sp[-2])) table_put(vm, sp[-3], sp[-1], sp[-2]);
  sp[-3] = sp[-2];
  return sp - 2;
}

#if ARCANA_CHECKED
[[noreturn]] void stack_accounting_failure(VM& vm, Code* c, Value* base, Value* sp) {
  std::fprintf(stderr,
               "arcana (checked build): operand stack out of its frame in %s: sp at %td of "
               "%u words (%u locals)\n",
               c->name.is_nil() ? "fn" : symbol_name(c->name).c_str(), sp - base, c->frame_words,
               c->nlocals);
  std::abort();
}
#endif

#if ARCANA_SWITCH_DISPATCH
// The labels' numbers, for the switch form of dispatch (0: none yet).
enum class Label : uint16_t {
  none,
#define OP(name, fmt, effect, extra, doc) op_##name,
#define PRIM(name, effect, extra, form, base, global, arity, doc) op_##name, op_##name##_general,
#include "vm/opcodes.def"
#undef PRIM
#undef OP
  count_op,
  sample_op,
};
#endif

}  // namespace

// Restores the VM's view of the enclosing run however this one ends. A
// run continuing frames (cont) belongs to the run record they are in.
struct VM::RunScope {
  VM& vm;
  Value* base;
  Value* bargs;
  uint32_t bpc;
  size_t nhandlers;
  bool own_record;
  // The run's first call's slot. Here rather than in a register: only
  // continuations and the error path look at it.
  Value* fslot;
  // Fibers this run has entered in place (vm/fiber.h) and not left: the
  // innermost is the running one. Leaving the run (killed, out of memory)
  // ends them.
  int in_place = 0;
  // Counting sites (vm/instrument.h): the site of the builtin that made this
  // run, given back when it ends, unless a collection has moved its code;
  // after a top-level run, none (what follows is outside Arc).
  bool site_saved = false;
  Code* site_code = nullptr;
  uint32_t site_pc = 0;
  uint64_t site_epoch = 0;
  void save_site() {
    site_saved = true;
    site_code = vm.r_.level == 0 ? nullptr : vm.instrument_->site_code();
    site_pc = vm.instrument_->site_pc();
    site_epoch = vm.heap().stats().collections;
  }
  ~RunScope() {
    if (site_saved) {
      if (site_code && vm.heap().stats().collections == site_epoch)
        vm.instrument_->enter_site(site_code, site_pc);
      else vm.instrument_->forget_site();
    }
    for (; in_place > 0; --in_place) fiber_exit(vm, FiberExit::Fail, false);
    while (vm.handlers_.size() > nhandlers) vm.handlers_.pop_back();
    vm.r_.capture_cache = NIL;  // its frames are gone
    if (own_record) vm.end_run_record();
    vm.r_.base = base;
    vm.r_.builtin_args = bargs;
    vm.r_.builtin_pc = bpc;
  }
};

// The macros of the loop (VM::run), over its registers: base, sp, pc,
// code, K, insn, n.
#define SAVE()                                                  \
  do {                                                          \
    r_.sp = sp;                                                 \
    r_.base = base;                                             \
    r_.builtin_pc = code ? uint32_t(pc - code_insns(code)) : 0; \
  } while (0)
// After a safe point: the code object may have moved, so find it again
// from the frame, and the pc from the offset SAVE() recorded.
#define RELOAD()                           \
  do {                                     \
    code = code_of(base[-1]);              \
    K = code_consts(code);                 \
    pc = code_insns(code) + r_.builtin_pc; \
  } while (0)
#define SAFEPOINT_AT(at_entry)                                          \
  do {                                                                  \
    int64_t left_ = preempt_budget.load(std::memory_order_relaxed) - 1; \
    preempt_budget.store(left_, std::memory_order_relaxed);             \
    if (__builtin_expect(left_ < 0, 0)) {                               \
      SAVE();                                                           \
      safe_point_slow(at_entry);                                        \
      RELOAD();                                                         \
    }                                                                   \
  } while (0)
#define SAFEPOINT() SAFEPOINT_AT(false)
// Dispatch: a jump through dispatch_ to the handler of the next
// instruction. With computed gotos (the default) the tables hold the
// handlers' label addresses; built with ARCANA_SWITCH_DISPATCH they hold
// the labels' numbers (Label, above) and the jump goes through one switch,
// so that the loop reads and debugs as plain C++.
#if ARCANA_SWITCH_DISPATCH
#define LABEL(l) DispatchTarget(Label::l)
#define JUMP_TO(target)       \
  do {                        \
    switch_target = (target); \
    goto dispatch_switch;     \
  } while (0)
#else
#define LABEL(l) &&l
#define JUMP_TO(target) goto*(target)
#endif
#define DISPATCH()                   \
  do {                               \
    insn = *pc++;                    \
    JUMP_TO(dispatch_[insn & 0xff]); \
  } while (0)
// A push onto the running frame's operand stack. The checked build
// (ARCANA_CHECKED) asserts the compiler's stack accounting on each: sp
// stays within the frame the code declares (vm/code.h, Code::frame_words).
#if ARCANA_CHECKED
#define PUSH(v)                                                                               \
  do {                                                                                        \
    *sp++ = (v);                                                                              \
    if (code && (sp > base + code->frame_words || sp <= base + code->nlocals + kFrameHeader)) \
      stack_accounting_failure(*this, code, base, sp);                                        \
  } while (0)
#else
#define PUSH(v) (*sp++ = (v))
#endif
#define A (insn >> 8)
#define SA (int32_t(insn) >> 8)
// A closure c's frame over its arguments at args (adjusted to its
// parameters), returning to rpc and rlink: locals past the arguments nil,
// the header, then its first instruction.
#define ENTER_FRAME(c, args, rpc, rlink)                               \
  do {                                                                 \
    Value rpc_ = (rpc), rlink_ = (rlink);                              \
    for (uint32_t i = uint32_t(n); i < c->nlocals; ++i) args[i] = NIL; \
    args[c->nlocals] = rpc_;                                           \
    args[c->nlocals + 1] = rlink_;                                     \
    base = args;                                                       \
    code = c;                                                          \
    K = code_consts(c);                                                \
    pc = code_insns(c);                                                \
    sp = base + c->nlocals + kFrameHeader;                             \
    SAFEPOINT_AT(true);                                                \
    DISPATCH();                                                        \
  } while (0)

// The primitive fast paths: the inline case when the operands are simple;
// else (op_X_general) call the primitive directly if the global still holds
// it, or call whatever the global holds now. While a primitive's global
// holds something else, the dispatch table sends its opcode straight to
// the general case (VM::refresh_dispatch), so the inline case needs no
// guard on the global. It tests tags directly rather than through TYPE():
// going through TYPE() here makes fib measurably slower, and a fast path
// is not a dispatch: --stats counts its executions per opcode.
#define PRIM_SLOW(op, nargs)                                                          \
  do {                                                                                \
    Value g = K[A].as<Symbol>()->value;                                               \
    Value prim = primitives_[int(Op::op)];                                            \
    if (g == prim) {                                                                  \
      SAVE();                                                                         \
      r_.builtin_args = sp - nargs;                                                   \
      Value r = prim.as<Builtin>()->fn(*this, sp - nargs, nargs);                     \
      sp -= nargs;                                                                    \
      PUSH(r);                                                                        \
      DISPATCH();                                                                     \
    }                                                                                 \
    if (g == UNBOUND) {                                                               \
      SAVE();                                                                         \
      throw_error(*this, "reference to undefined identifier: _" + symbol_name(K[A])); \
    }                                                                                 \
    std::memmove(sp - nargs + 1, sp - nargs, nargs * sizeof(Value));                  \
    sp[-nargs] = g;                                                                   \
    ++sp;                                                                             \
    n = nargs;                                                                        \
    tail = false;                                                                     \
    goto call;                                                                        \
  } while (0)
// One branch for both tests: & of the two as ints (as bools, clang warns).
#define BOTH_FIXNUMS() (int(sp[-1].is_fixnum()) & int(sp[-2].is_fixnum()))
// The float fast path of a two-operand arithmetic op (value.h,
// float_operands): the result in the word, or a heap Flonum when it has no
// word of its own (allocation never collects); stored straight into the
// local of a POPL or POPX after it, as a slot form's is (SLOT_RESULT).
#define FLOAT_ARITH(expr)                         \
  do {                                            \
    double x, y;                                  \
    if (float_operands(sp[-2], sp[-1], &x, &y)) { \
      sp -= 2;                                    \
      SLOT_RESULT(make_flonum(*this, expr));      \
    }                                             \
  } while (0)
#define FLOAT_TEST(expr)                          \
  do {                                            \
    double x, y;                                  \
    if (float_operands(sp[-2], sp[-1], &x, &y)) { \
      sp -= 2;                                    \
      TEST_RESULT(expr);                          \
    }                                             \
  } while (0)
// Whether (is a b) is decided by the words: equal words, an immediate
// (fixnum, flonum in the word, nil, t, character) on either side, or a
// heap object that is only ever itself (a symbol, a cons, a table:
// compared_by_value). Two different strings or boxed numbers may still be
// is: the general case.
#define WORDS_DECIDE_IS(a, b) \
  ((a) == (b) || !(int((a).is_ref()) & int((b).is_ref())) || !compared_by_value((a).header()->kind))
// A JUMPF's or JUMPT's jump, taken: a backward one closes a loop (the
// compiler puts a loop's test at its bottom), so it is a safe point, as a
// backward JUMP is.
#define JUMP_TAKEN()         \
  do {                       \
    pc += SA;                \
    if (SA < 0) SAFEPOINT(); \
  } while (0)
// A test's result, its operands already popped: when a JUMPF follows (an
// if), or a JUMPT (a loop's test at its bottom), that jump is taken here,
// saving its dispatch (so --stats does not count it); else the boolean is
// pushed.
#define TEST_RESULT(cond)                     \
  do {                                        \
    bool c_ = (cond);                         \
    if ((*pc & 0xff) == uint8_t(Op::JUMPF)) { \
      insn = *pc++;                           \
      if (!c_) JUMP_TAKEN();                  \
      DISPATCH();                             \
    }                                         \
    if ((*pc & 0xff) == uint8_t(Op::JUMPT)) { \
      insn = *pc++;                           \
      if (c_) JUMP_TAKEN();                   \
      DISPATCH();                             \
    }                                         \
    PUSH(boolean(c_));                        \
    DISPATCH();                               \
  } while (0)
// An arithmetic slot form's result (vm/opcodes.def, Slots): when a POPL
// or POPX follows, stored straight into its local, that instruction taken
// here as TEST_RESULT takes a JUMPF; else pushed.
#define SLOT_RESULT(value)                          \
  do {                                              \
    Value v_ = (value);                             \
    Insn next_ = *pc;                               \
    if ((next_ & 0xff) == uint8_t(Op::POPL)) {      \
      base[insn_a(next_)] = v_;                     \
      ++pc;                                         \
      DISPATCH();                                   \
    }                                               \
    if ((next_ & 0xff) == uint8_t(Op::POPX)) {      \
      store_shared(*this, base[insn_a(next_)], v_); \
      ++pc;                                         \
      DISPATCH();                                   \
    }                                               \
    PUSH(v_);                                       \
    DISPATCH();                                     \
  } while (0)
// The same for a value an if may test (car, cdr): taken by a following
// JUMPF or JUMPT, else pushed.
#define VALUE_RESULT(value)                   \
  do {                                        \
    Value v_ = (value);                       \
    if ((*pc & 0xff) == uint8_t(Op::JUMPF)) { \
      insn = *pc++;                           \
      if (v_.is_nil()) JUMP_TAKEN();          \
      DISPATCH();                             \
    }                                         \
    if ((*pc & 0xff) == uint8_t(Op::JUMPT)) { \
      insn = *pc++;                           \
      if (!v_.is_nil()) JUMP_TAKEN();         \
      DISPATCH();                             \
    }                                         \
    PUSH(v_);                                 \
    DISPATCH();                               \
  } while (0)
// A store whose value is on the top, made for its effect ((= (h k) v) as
// a statement): the POP after it taken here.
#define DROP_IF_POP()                       \
  do {                                      \
    if ((*pc & 0xff) == uint8_t(Op::POP)) { \
      ++pc;                                 \
      --sp;                                 \
    }                                       \
  } while (0)

// Enters a run: its record (unless it continues frames of the run that
// has one), the site it gives back when counting, and where the loop
// starts: the first call, or the frames a continuing run picks up.
Next VM::begin_run(RunScope& scope, int nargs, const RunContinue* cont) {
  if (__builtin_expect(counting(), 0)) scope.save_site();
  if (cont) {
    scope.fslot = r_.stack + runs_.back().fslot;
  } else {
    r_.level++;
    // The caller's registers, if they are frames of this stack (a fiber's
    // first run starts on a stack of its own).
    auto offset = [this](Value* p) -> int64_t {
      return p && p >= r_.stack && p < r_.stack_end ? p - r_.stack : -1;
    };
    runs_.push_back(RunRecord{size_t(scope.fslot - r_.stack), r_.top_level_run ? 0 : next_run_id_++,
                              winds_, offset(scope.base), scope.bpc, offset(scope.bargs)});
    r_.top_level_run = false;
  }
  if (!cont) {
    r_.sp = scope.fslot + 1 + nargs;
    return Next{Next::Enter, nargs};
  }
  if (cont->call)  // pick up the frames where r_ says (a fiber moving stacks)
    return Next{Next::Call, cont->nargs, cont->tail};
  *r_.sp++ = cont->value;
  return Next{cont->tail ? Next::Return : Next::Dispatch};
}

// Calls builtin b on the n arguments at args. Ticks of the profiler that
// come during the call are the builtin's (Profile::ticks, vm/object.h):
// two loads while it is off.
inline Value VM::call_builtin(Builtin* b, Value* args, int n) {
  uint64_t ticks = profile_ticks.load(std::memory_order_relaxed);
  Value r = b->fn(*this, args, n);
  // Not b: the builtin may have collected, moving its object (and a full
  // collection may have given the old place back to the system); its slot
  // on the stack, below its arguments, is kept up to date.
  if (__builtin_expect(profile_ticks.load(std::memory_order_relaxed) != ticks, 0))
    sample_builtin(args - 1, r, ticks);
  return r;
}

// An error raised in the run at base, pc: the registers go to r_ for its
// backtrace, and it goes to a handler of this run or out of it (unwind).
Next VM::unwind_run(Value exc, RunScope& scope, Value* base, uint32_t pc) {
  r_.base = base;
  r_.builtin_pc = pc;
  return unwind(exc, scope.fslot, scope.base, scope.in_place);
}

void VM::count_instruction(Insn insn, const Value* base, const Insn* pc) {
  counters_.ops[insn & 0xff]++;
  instrument_->at_frame(base, pc);
}

// The first run's labels: each opcode's handler and each primitive's
// general case (VM::refresh_dispatch makes the tables from them).
void VM::install_labels(const DispatchTarget* labels, const DispatchTarget* general,
                        DispatchTarget count_label, DispatchTarget sample_label) {
  for (int i = 0; i < kOpCount; ++i) op_labels_[i] = labels[i], op_general_labels_[i] = general[i];
  count_label_ = count_label;
  sample_label_ = sample_label;
  refresh_dispatch();
}

Value VM::run(Value* fslot_arg, int nargs, const RunContinue* cont) {
  RunScope scope{*this,           r_.base,  r_.builtin_args, r_.builtin_pc, handlers_.size(),
                 cont == nullptr, fslot_arg};
  // Where to go when the loop (re)starts; then after every transfer of control.
  Next next = begin_run(scope, nargs, cont);

  VM_REGISTER Value* base VM_REG("r12") = nullptr;
  VM_REGISTER Value* sp VM_REG("rbx") = nullptr;
  VM_REGISTER const Insn* pc VM_REG("r13") = nullptr;
  Code* code = nullptr;
  Value* K = nullptr;
  Insn insn = 0;
  int n = 0;
  bool tail = false;
  // Whether the call being made is the run's entry call (or one like it:
  // a fiber's first, a cleanup frame): its frame returns to entry_rpc, to
  // C++ or re-raising its value (vm/continuation.h).
  int64_t entry_rpc = kReturnToCpp;
  bool entry = false;
#if ARCANA_SWITCH_DISPATCH
  DispatchTarget switch_target = 0;  // JUMP_TO's
#endif
  // The opcodes' labels for VM::refresh_dispatch: each opcode's handler,
  // and for the primitive fast paths (PRIM) the general case alone.
  if (__builtin_expect(!op_labels_[0], 0)) {
    static const DispatchTarget labels[] = {
#define OP(name, fmt, effect, extra, doc) LABEL(op_##name),
#define PRIM(name, effect, extra, form, base, global, arity, doc) LABEL(op_##name),
#include "vm/opcodes.def"
#undef PRIM
#undef OP
    };
    static const DispatchTarget general[] = {
#define OP(name, fmt, effect, extra, doc) LABEL(op_##name),
#define PRIM(name, effect, extra, form, base, global, arity, doc) LABEL(op_##name##_general),
#include "vm/opcodes.def"
#undef PRIM
#undef OP
    };
    install_labels(labels, general, LABEL(count_op), LABEL(sample_op));
  } else if (dispatch_counting_ != counters_.count_ops) {
    refresh_dispatch();
  }

  for (;;) {
    try {
    transfer:  // where next says (vm/continuation.h, Next), the registers in r_
      base = r_.base;
      sp = r_.sp;
      n = next.nargs;
      tail = next.tail;
      entry = false;
      switch (next.kind) {
        case Next::Dispatch: RELOAD(); DISPATCH();
        case Next::Return: RELOAD(); goto op_RETURN;
        case Next::Call: RELOAD(); goto call;
        case Next::Enter:
        case Next::EnterRethrow:
          code = nullptr;
          entry = true;
          entry_rpc = next.kind == Next::Enter ? kReturnToCpp : kRethrow;
          goto call;
        case Next::Leave: return next_value_;
        case Next::Raise:
        case Next::Kill:
          if (base) RELOAD();
          else code = nullptr;
          if (next.kind == Next::Kill) throw ThreadKilled{};
          throw ArcError{next_value_};
        case Next::None:
        case Next::Rethrow: break;
      }
      std::abort();  // the loop is never sent None or Rethrow

    call :  // f at sp[-n-1], its n arguments above it; tail: replace this frame
    {
      Value f = sp[-n - 1];
      Kind k = TYPE(f);
      if (k == Kind::Closure) {
        Code* c = code_of(f);
        Value* args = sp - n;
        check_stack(args + c->frame_words);
        if (n != c->exact_nargs) n = adjust_args(*this, c, f, args, n);
        Value rpc, rlink;
        if (entry) {
          rpc = Value::fixnum(entry_rpc);
          rlink = Value::fixnum(base ? base - r_.stack : -1);
          entry = false;
        } else if (tail) {
          rpc = base[code->nlocals];
          rlink = base[code->nlocals + 1];
          for (int i = -1; i < n; ++i) base[i] = args[i];  // down: no overlap problem
          args = base;
        } else {
          rpc = Value::fixnum(frame_pc(code, pc));
          rlink = Value::fixnum(base - r_.stack);
        }
        ENTER_FRAME(c, args, rpc, rlink);
      }
      if (k == Kind::Builtin) goto call_builtin;
      Value r;
      if (k == Kind::Continuation) {
        SAVE();
        next = invoke_continuation(f, n, scope.fslot);
        goto transfer;
      }
      if (k == Kind::Cons || k == Kind::String || k == Kind::Table) {
        r = call_data(*this, f, k, sp - n, n);
      } else {
        call_error(*this, f, sp - n, n);
      }
      sp -= n + 1;
      if (entry) return r;  // apply() of data
      if (tail) {
        PUSH(r);
        goto op_RETURN;
      }
      PUSH(r);
      DISPATCH();
    }

    call_builtin :  // a builtin at sp[-n-1], its n arguments above it
    {
      Builtin* b = sp[-n - 1].as<Builtin>();
      // min <= n <= max in one unsigned compare (max -1, any number,
      // makes max - min huge).
      if (uint32_t(n - b->min_args) > uint32_t(b->max_args - b->min_args))
        arity_error(*this, symbol_name(b->name), b->min_args, b->max_args, n);
      if (__builtin_expect(b->op != BuiltinOp::Plain, 0) && !entry) {
        // Fibers switched here, without a machine-stack switch (vm/fiber.h).
        SAVE();
        next = fiber_switch(b, n, tail, scope.in_place);
        if (next.kind != Next::None) goto transfer;
      }
      SAVE();
      r_.builtin_args = sp - n;
      r_.sp = sp;
      Value r = call_builtin(b, sp - n, n);
      // A builtin that runs Arc code (eval and macex expand macros) passes
      // safe points in a nested run, where the code object may have moved.
      if (code) RELOAD();
      if (r == tail_call_marker()) {
        n = r_.pending_nargs;
        sp = r_.builtin_args + n;
        goto call;
      }
      sp -= n + 1;
      if (entry) return r;  // apply() of a builtin
      if (tail) {
        PUSH(r);
        goto op_RETURN;
      }
      PUSH(r);
      DISPATCH();
    }

    count_op:  // --stats, (count-sites t): every instruction counted, then run
      count_instruction(insn, base, pc);
      JUMP_TO(op_targets_[insn & 0xff]);

    sample_op:  // a profiler tick came (sample_next_instruction): charged to this instruction
      SAVE();
      sample_at_instruction();
      RELOAD();
      JUMP_TO(dispatch_[insn & 0xff]);

#if ARCANA_SWITCH_DISPATCH
    dispatch_switch:
      switch (Label(switch_target)) {
#define OP(name, fmt, effect, extra, doc) \
  case Label::op_##name:                  \
    goto op_##name;
#define PRIM(name, effect, extra, form, base, global, arity, doc) \
  case Label::op_##name: goto op_##name;                          \
  case Label::op_##name##_general:                                \
    goto op_##name##_general;
#include "vm/opcodes.def"
#undef PRIM
#undef OP
        case Label::count_op: goto count_op;
        case Label::sample_op: goto sample_op;
        case Label::none: break;
      }
      std::abort();  // a target refresh_dispatch never sets
#endif

    op_CONST:
      PUSH(K[A]);
      DISPATCH();
    op_STRING:
      PUSH(string_copy(*this, K[A]));
      DISPATCH();
    op_NIL:
      PUSH(NIL);
      DISPATCH();
    op_TRUE:
      PUSH(T);
      DISPATCH();
    op_FIXNUM:
      PUSH(Value::fixnum(SA));
      DISPATCH();
    op_POP:
      --sp;
      DISPATCH();
    op_SWAP : {
      Value t = sp[-1];
      sp[-1] = sp[-2];
      sp[-2] = t;
      DISPATCH();
    }
    op_SLIDE : {
      Value t = sp[-1];
      sp -= A;
      sp[-1] = t;
      DISPATCH();
    }
    op_LOADL:
      PUSH(base[A]);
      DISPATCH();
    op_STOREL:
      base[A] = sp[-1];
      DISPATCH();
    op_POPL:
      base[A] = *--sp;
      DISPATCH();
    op_LOADB:
      PUSH(base[A].as<Box>()->v);
      DISPATCH();
    op_STOREB : {
      Box* b = base[A].as<Box>();
      set(*this, b, &b->v, sp[-1]);
      DISPATCH();
    }
    op_MKBOX:
      base[A] = make_box(*this, base[A]);
      DISPATCH();
    op_LOADX:
      PUSH(load_shared(base[A]));
      DISPATCH();
    op_STOREX:
      store_shared(*this, base[A], sp[-1]);
      DISPATCH();
    op_POPX:
      store_shared(*this, base[A], sp[-1]);
      --sp;
      DISPATCH();
    op_SHARE:
      if (!is_box(base[A])) base[A] = make_box(*this, base[A]);
      DISPATCH();
    op_LOADU:
      PUSH(base[-1].as<Closure>()->up[A]);
      DISPATCH();
    op_LOADUB:
      PUSH(base[-1].as<Closure>()->up[A].as<Box>()->v);
      DISPATCH();
    op_STOREUB : {
      Box* b = base[-1].as<Closure>()->up[A].as<Box>();
      set(*this, b, &b->v, sp[-1]);
      DISPATCH();
    }
    op_LOADG : {
      Value v = K[A].as<Symbol>()->value;
      if (__builtin_expect(v == UNBOUND, 0)) {
        SAVE();
        throw_error(*this, "reference to undefined identifier: _" + symbol_name(K[A]));
      }
      PUSH(v);
      DISPATCH();
    }
    op_STOREG : {
      set_global(*this, K[A], sp[-1]);
      DISPATCH();
    }
    op_CLOSURE : {
      Value cv = K[A];
      Code* c = cv.as<Code>();
      Value clo = make_closure(*this, cv, c->nup);
      Closure* cl = clo.as<Closure>();
      Closure* self = base[-1].as<Closure>();
      for (uint32_t i = 0; i < c->nup; ++i) {
        Insn w = *pc++;
        cl->up[i] = (w & 1) ? self->up[w >> 1] : base[w >> 1];
      }
      PUSH(clo);
      DISPATCH();
    }
    op_JUMP:
      pc += SA;
      if (SA < 0) SAFEPOINT();
      DISPATCH();
    op_JUMPF:
      if ((*--sp).is_nil()) JUMP_TAKEN();
      DISPATCH();
    op_JUMPT:
      if (!(*--sp).is_nil()) JUMP_TAKEN();
      DISPATCH();
    op_OPTARG : {
      Insn local = *pc++;
      if (base[local] != MISSING) pc += SA;
      DISPATCH();
    }
    op_CALL : {
      // The common case inline: a closure that takes exactly n arguments,
      // called from bytecode (so not the run's entry call, not a tail call).
      n = int(A);
      tail = false;
      Value f = sp[-n - 1];
      // (the test TYPE makes, counted as TYPE counts it; anything else goes
      // to call:, whose TYPE counts it)
      uint8_t kind = f.is_ref() ? f.header()->kind : 0xff;
      if (kind == uint8_t(Kind::Builtin)) {
        count_type(Kind::Builtin);
        goto call_builtin;
      }
      if (kind == uint8_t(Kind::Closure)) {
        count_type(Kind::Closure);
        Code* c = code_of(f);
        if (n == c->exact_nargs) {
          Value* args = sp - n;
          check_stack(args + c->frame_words);
          ENTER_FRAME(c, args, Value::fixnum(frame_pc(code, pc)), Value::fixnum(base - r_.stack));
        }
      }
      // (t k): a lookup, no call, no safe point
      if (__builtin_expect(kind == uint8_t(Kind::Table) && n == 1, 0)) {
        count_type(Kind::Table);
        Value key = sp[-1];
        sp -= 2;
        VALUE_RESULT(table_get(f, key));
      }
      goto call;
    }
    op_TAILCALL:
      n = int(A);
      // A self tail call (a loop) reuses the frame as it is: the header and
      // the frame size stay; only the arguments move down.
      if (sp[-n - 1] == base[-1] && n == code->exact_nargs) {
        // Short: no memmove call; the common counts unrolled (the loop
        // was a noticeable share of the instructions of map and keep's loops).
        Value* from = sp - n;
        switch (n) {
          case 3: base[2] = from[2]; [[fallthrough]];
          case 2: base[1] = from[1]; [[fallthrough]];
          case 1: base[0] = from[0]; [[fallthrough]];
          case 0: break;
          default:
            for (int i = 0; i < n; ++i) base[i] = from[i];
        }
        sp = base + code->nlocals + kFrameHeader;
        pc = code_insns(code);
        SAFEPOINT();
        DISPATCH();
      }
      tail = true;
      goto call;
    op_RETURN : {
      Value v = sp[-1];
      int64_t rpc = base[code->nlocals].as_fixnum();
      int64_t link = base[code->nlocals + 1].as_fixnum();
      sp = base - 1;
      if (rpc < 0) {
        r_.sp = sp;
        if (rpc == kRethrow) throw ArcError{v};
        if (scope.in_place > 0) {  // a fiber running in place returned
          next = fiber_return(v, scope.in_place);
          goto transfer;
        }
        return v;
      }
      *sp++ = v;  // into the caller's frame, whose base and code come next
      base = r_.stack + link;
      if (base < r_.capture_low) r_.capture_low = base;  // the capture cache
      code = code_of(base[-1]);
      K = code_consts(code);
      pc = frame_pc_insn(code, rpc);
      DISPATCH();
    }

    op_LAZY:
      // A library function's first run: its body is read into its code
      // object in place (no collection can run meanwhile), then run from
      // its first instruction, over the frame the call made for it.
      --pc;
      SAVE();
      read_lazy_body(*this, code);
      RELOAD();
      DISPATCH();

#include "vm/interp_fused.inc"
#include "vm/interp_prims.inc"

    op_CATCH:
      handlers_.push_back(Handler{size_t(base - r_.stack), size_t(sp - r_.stack),
                                  uint32_t(pc + SA - code_insns(code)), winds_, r_.level});
      DISPATCH();
    op_UNCATCH:
      handlers_.pop_back();
      DISPATCH();
    } catch (ArcError& e) {
      // Where this error goes: a handler of this run, or out of it
      // (VM::unwind). The registers go to r_ for its backtrace.
      next = unwind_run(e.exc, scope, base, code ? uint32_t(pc - code_insns(code)) : 0);
      if (next.kind == Next::Rethrow) throw;
    } catch (std::bad_alloc&) {
      // Running out of memory is an Arc error like the others
      // (docs/ARCHITECTURE.md invariant 8): the request that failed is
      // given up and the error unwinds from where it was made, so on-err
      // catches it. A failed allocation leaves the heap as it was (an
      // allocation never collects); a collection that itself runs out of
      // memory (gen's mark stack over a huge live list) is not recovered.
      r_.base = base;  // out_of_memory's backtrace
      r_.builtin_pc = code ? uint32_t(pc - code_insns(code)) : 0;
      Value exc = out_of_memory();
      next = unwind_run(exc, scope, base, r_.builtin_pc);
      if (next.kind == Next::Rethrow) throw ArcError{exc};
    }
  }
// The loop's macros end here.
#undef SAVE
#undef RELOAD
#undef SAFEPOINT
#undef JUMP_TAKEN
#undef SAFEPOINT_AT
#undef DISPATCH
#undef PUSH
#undef JUMP_TO
#undef LABEL
#undef ENTER_FRAME
#undef A
#undef SA
#undef PRIM_SLOW
#undef BOTH_FIXNUMS
#undef FLOAT_ARITH
#undef FLOAT_TEST
#undef WORDS_DECIDE_IS
#undef TEST_RESULT
#undef VALUE_RESULT
#undef SLOT_RESULT
#undef DROP_IF_POP
}

}  // namespace vm
