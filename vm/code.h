// vm/code.h — code objects: the compiler's output and the interpreter's input.
#pragma once
#include <cstdint>

#include "vm/library.h"
#include "vm/object.h"

namespace vm {

enum class Op : uint8_t {
#define OP(name, fmt, effect, extra, doc) name,
#define PRIM(name, effect, extra, form, base, global, arity, doc) name,
#include "vm/opcodes.def"
#undef PRIM
#undef OP
  Count
};
constexpr int kOpCount = int(Op::Count);

// What an opcode is to a primitive fast path (vm/opcodes.def, PRIM).
enum class PrimForm : uint8_t { None, Base, Count, Imm, Key, Local, Slots, Fused, Inline };

struct OpInfo {
  const char* name;
  char format;    // see vm/opcodes.def
  int8_t effect;  // stack effect
  int8_t extra;   // words after the instruction that belong to it
  PrimForm form;  // the PRIM rows' columns; None, nullptr, 0 for the others
  Op base;
  const char* global;
  int8_t arity;
  const char* doc;
  Op also = Op::Count;  // FUSED: a second primitive its fast path stands for
};
inline constexpr OpInfo kOps[kOpCount] = {
#define OP(name, fmt, effect, extra, doc) \
  {#name, #fmt[0], effect, extra, PrimForm::None, Op::name, nullptr, 0, doc},
#define PRIM(name, effect, extra, form, base, global, arity, doc) \
  {#name, 'G', effect, extra, PrimForm::form, Op::base, global, arity, doc},
#define FUSED(name, fmt, effect, extra, head, global, also, doc) \
  {#name, #fmt[0], effect, extra, PrimForm::Fused, Op::head, global, 0, doc, Op::also},
#include "vm/opcodes.def"
#undef FUSED
#undef PRIM
#undef OP
};

using Insn = uint32_t;
// The operand A: the high 24 bits of an instruction word.
constexpr int kOperandBits = 24;
constexpr int kMaxOperand = (1 << kOperandBits) - 1;
constexpr int32_t kMinSignedOperand = -(1 << (kOperandBits - 1));
constexpr int32_t kMaxSignedOperand = (1 << (kOperandBits - 1)) - 1;
inline Insn encode(Op op, uint32_t a = 0) { return uint32_t(op) | (a << 8); }
inline Insn encode_signed(Op op, int32_t a) { return uint32_t(op) | (uint32_t(a) << 8); }
inline Op insn_op(Insn i) { return Op(i & 0xff); }
inline uint32_t insn_a(Insn i) { return i >> 8; }
inline int32_t insn_sa(Insn i) { return int32_t(i) >> 8; }

// The primitive opcode a local form runs as; Op::Count for an opcode that
// is not one.
constexpr Op local_form_of(Op op) {
  const OpInfo& i = kOps[int(op)];
  return i.form == PrimForm::Local ? i.base : Op::Count;
}
// The form of a primitive opcode that `form` names (Local, Imm), if any;
// Op::Count if it has none.
constexpr Op prim_form(Op op, PrimForm form) {
  for (int i = 0; i < kOpCount; ++i)
    if (kOps[i].form == form && kOps[i].base == op && Op(i) != op) return Op(i);
  return Op::Count;
}
constexpr Op local_form(Op op) { return prim_form(op, PrimForm::Local); }
constexpr Op immediate_form(Op op) { return prim_form(op, PrimForm::Imm); }
constexpr Op slots_form(Op op) { return prim_form(op, PrimForm::Slots); }
// The words after an instruction that belong to it (CLOSURE: its code's
// nup, not counted here).
constexpr int insn_extra_words(Op op) { return kOps[int(op)].extra; }

// The table's own consistency: a local form's extra words are its slot and
// its base's; every form has the base's global and arity.
constexpr bool same_name(const char* a, const char* b) {
  for (; *a && *a == *b; ++a, ++b) {
  }
  return *a == *b;
}
constexpr bool prim_rows_consistent() {
  for (int i = 0; i < kOpCount; ++i) {
    const OpInfo& o = kOps[i];
    if (o.form == PrimForm::None) continue;
    if (o.form == PrimForm::Fused) {  // it stands where its head was emitted
      const OpInfo& h = kOps[int(o.base)];
      if (o.format != h.format || o.extra != h.extra || o.effect != h.effect ||
          h.form == PrimForm::Fused)
        return false;
      if (o.also != Op::Count && kOps[int(o.also)].form != PrimForm::Base) return false;
      continue;
    }
    const OpInfo& b = kOps[int(o.base)];
    if (o.format != 'G' || b.global == nullptr) return false;
    if (!same_name(o.global, b.global)) return false;
    if (o.form != PrimForm::Count && o.arity != b.arity) return false;
    if (o.form == PrimForm::Local && o.extra != 1 + b.extra) return false;
    if (o.form == PrimForm::Imm && (o.extra != 1 || b.form != PrimForm::Base)) return false;
    if (o.form == PrimForm::Key && ((o.extra != 2 && o.extra != 3) || b.form != PrimForm::Base))
      return false;
    if (o.form == PrimForm::Slots &&
        (o.extra != 2 || (o.arity != 2 && o.arity != 3) || b.form != PrimForm::Base))
      return false;
    if (o.form == PrimForm::Base && o.base != Op(i)) return false;
  }
  return true;
}
static_assert(prim_rows_consistent(), "vm/opcodes.def: a PRIM row disagrees with its base");

// Frame layout (vm/interp.cpp): base[-1] the closure, base[0..nlocals) the
// locals (arguments first), base[nlocals] the caller's return pc as a byte
// offset from the start of its code object (frame_pc), base[nlocals+1] the
// caller's base offset, then the operand stack.
constexpr int kFrameHeader = 2;

// A code object carries its constants and then its instructions inline,
// after the fixed fields, so that the interpreter reaches both from the
// code pointer without loading another object.
struct Code {
  GcHeader h;
  Value lines;  // Blob of uint32 pairs (insn index, line), ascending
  Value name;   // Symbol or nil
  Value file;   // String or nil
  // Blob of uint32, or nil: the slots of the assigned locals that live in
  // the frame until a continuation is captured (LOADX): the capture gives
  // each a box, shared by the frame and its copy (VM::box_shared_slots),
  // as an atomic thunk's capture of one does (SHARE).
  Value shared;
  uint16_t nreq, nopt;
  uint8_t rest;     // has a rest parameter
  uint8_t lenient;  // complex parameters: extra arguments are ignored
  uint16_t pad;
  uint32_t nlocals;
  uint32_t maxstack;  // operand stack depth
  uint32_t line;      // line of the fn form
  uint32_t nup;       // captured variables (CLOSURE's capture words)
  // For the interpreter's call: the argument count that needs no
  // adjusting (nreq, or -1 with optional or rest parameters), and the stack
  // words a frame takes (locals, header, operand stack).
  int32_t exact_nargs;
  uint32_t frame_words;
  uint32_t nconsts, ninsns;  // the inline constants (Values), then instructions
};
static_assert(sizeof(Code) % sizeof(Value) == 0);

inline Code* code_of(Value closure) { return closure.as<Closure>()->code.as<Code>(); }
inline Value* code_consts(Code* c) { return reinterpret_cast<Value*>(c + 1); }
inline const Insn* code_insns(Code* c) {
  return reinterpret_cast<const Insn*>(code_consts(c) + c->nconsts);
}
inline uint32_t code_ninsns(Code* c) { return c->ninsns; }
// A pc in c as a frame header keeps it: a byte offset from c, which stays
// right when c moves (its instructions move with it), and back.
inline int64_t frame_pc(Code* c, const Insn* pc) {
  return reinterpret_cast<const char*>(pc) - reinterpret_cast<const char*>(c);
}
inline const Insn* frame_pc_insn(Code* c, int64_t off) {
  return reinterpret_cast<const Insn*>(reinterpret_cast<const char*>(c) + off);
}
// The source line of the instruction at index pc, 0 if unknown.
uint32_t code_line_at(Code* c, uint32_t pc);
// Whether c is the plumbing of control transfers, which a user's stack
// leaves out (profiles): the prelude's dynamic-wind and its internal (%)
// functions such as %run-winds (stdlib/prelude.arc).
bool code_is_internal(Code* c);
// The name profiles and site counts give c: the global it was defined as,
// or fn@FILE:LINE where an anonymous function was made.
std::string code_function_name(Code* c);

Value make_closure(VM& vm, Value code, uint64_t nup);

// Lazily read bodies (compiler/image.h): a library function's code object
// is made at start with everything a call, a backtrace and the collector
// read before its first instruction runs (the fields above, its name,
// file and line, its constants nil), at its full size, and one
// instruction, LAZY (vm/opcodes.def), naming where its body is in the
// library image. Its first run reads the body into the object in place
// (its lines, shared slots, constants and instructions), so the closures,
// frames and continuations that hold it need no change, and the call path
// tests nothing.
inline bool code_unread(Code* c) { return insn_op(code_insns(c)[0]) == Op::LAZY; }
// Reads c's body if it is not read yet (code_unread). Raises an Arc error
// if the image that holds it is gone from the VM. It allocates but does
// not collect (docs/ARCHITECTURE.md, invariant 2), so c does not move.
void read_lazy_body(VM& vm, Code* c);
// What reads the bodies: the VM's library state of this name, kept by
// compiler/image.cpp (ImageBodies) for the VM's life.
struct LazyBodyReader : LibraryState {
  virtual void read(VM& vm, Code* c, uint32_t image, uint32_t offset) = 0;
};
inline constexpr const char* kLazyBodyReader = "library image bodies";

}  // namespace vm
