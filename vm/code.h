// vm/code.h — code objects: the compiler's output and the interpreter's input.
#pragma once
#include <cstdint>

#include "vm/object.h"

namespace vm {

enum class Op : uint8_t {
#define OP(name, fmt, effect, doc) name,
#include "vm/opcodes.def"
#undef OP
  Count
};
constexpr int kOpCount = int(Op::Count);

struct OpInfo {
  const char* name;
  char format;  // see opcodes.def
  int effect;
  const char* doc;
};
extern const OpInfo kOps[kOpCount];

using Insn = uint32_t;
constexpr int kMaxOperand = (1 << 24) - 1;
inline Insn encode(Op op, uint32_t a = 0) { return uint32_t(op) | (a << 8); }
inline Insn encode_signed(Op op, int32_t a) { return uint32_t(op) | (uint32_t(a) << 8); }
inline Op insn_op(Insn i) { return Op(i & 0xff); }
inline uint32_t insn_a(Insn i) { return i >> 8; }
inline int32_t insn_sa(Insn i) { return int32_t(i) >> 8; }
// The primitive opcode a local form runs as (opcodes.def); Op::Count for
// an opcode that is not one.
inline Op local_form_of(Op op) {
  switch (op) {
    case Op::CARL: return Op::CAR;
    case Op::CDRL: return Op::CDR;
    case Op::NOL: return Op::NO;
    case Op::ISL: return Op::IS;
    case Op::ADDL: return Op::ADD;
    case Op::SUBL: return Op::SUB;
    case Op::LTL: return Op::LT;
    case Op::GTL: return Op::GT;
    case Op::CONSL: return Op::CONS;
    case Op::ADDIL: return Op::ADDI;
    case Op::SUBIL: return Op::SUBI;
    case Op::LTIL: return Op::LTI;
    case Op::GTIL: return Op::GTI;
    case Op::ISIL: return Op::ISI;
    default: return Op::Count;
  }
}
// The local form of a primitive opcode; Op::Count if it has none.
inline Op local_form(Op op) {
  for (int i = 0; i < kOpCount; ++i)
    if (local_form_of(Op(i)) == op) return Op(i);
  return Op::Count;
}

// The words after an instruction that belong to it (CLOSURE: its code's
// nup, not counted here).
inline int insn_extra_words(Op op) {
  switch (op) {
    case Op::OPTARG: case Op::ADDN: case Op::ADDI: case Op::SUBI: case Op::LTI: case Op::GTI:
    case Op::ISI:
      return 1;
    default:
      if (Op base = local_form_of(op); base != Op::Count) return 1 + insn_extra_words(base);
      return 0;
  }
}

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
  Value lines;   // Blob of uint32 pairs (insn index, line), ascending
  Value name;    // Symbol or nil
  Value file;    // String or nil
  uint16_t nreq, nopt;
  uint8_t rest;          // has a rest parameter
  uint8_t lenient;       // complex parameters: extra arguments are ignored
  uint16_t pad;
  uint32_t nlocals;
  uint32_t maxstack;     // operand stack depth
  uint32_t line;         // line of the fn form
  uint32_t nup;          // captured variables (CLOSURE's capture words)
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
inline const Insn* code_insns(Code* c) { return reinterpret_cast<const Insn*>(code_consts(c) + c->nconsts); }
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

Value make_closure(Value code, uint64_t nup);

}  // namespace vm
