// compiler/disasm.cpp — (disasm f): a function's bytecode with its source
// lines, then the functions it contains, driven by the opcode table.
#include <cstdio>
#include <cstring>

#include "compiler/compile.h"
#include "vm/code.h"
#include "vm/print.h"
#include "vm/string.h"
#include "vm/symbol.h"

namespace compiler {

using namespace vm;

namespace {

std::string header(Code* c) {
  std::string name = c->name.is_nil() ? "fn" : symbol_name(c->name);
  std::string s = name;
  if (!c->file.is_nil()) s += " (" + string_utf8(c->file) + ":" + std::to_string(c->line) + ")";
  char buf[160];
  std::snprintf(buf, sizeof buf, ": %u required, %u optional%s%s; %u locals, %u upvalues\n",
                c->nreq, c->nopt, c->rest ? ", rest" : "", c->lenient ? ", lenient" : "",
                c->nlocals, c->nup);
  return s + buf;
}

void disasm_code(VM& vm, Code* c, std::string& out, std::vector<Code*>& nested) {
  read_lazy_body(vm, c);  // a library function not called yet shows its body
  out += header(c);
  const Insn* code = code_insns(c);
  uint32_t n = code_ninsns(c);
  Value* K = code_consts(c);
  uint32_t last_line = 0;
  for (uint32_t pc = 0; pc < n;) {
    Insn i = code[pc];
    const OpInfo& info = kOps[int(insn_op(i))];
    uint32_t line = code_line_at(c, pc);
    char buf[96];
    if (line != last_line) std::snprintf(buf, sizeof buf, "  %04u  %4u  %-9s", pc, line, info.name);
    else std::snprintf(buf, sizeof buf, "  %04u        %-9s", pc, info.name);
    last_line = line;
    out += buf;
    if (std::strlen(info.name) >= 9) out += ' ';  // a fused head's longer name
    std::string note;
    switch (info.format) {
      case 'K':
      case 'G': {
        out += std::to_string(insn_a(i));
        note = write_string(vm, K[insn_a(i)]);
        // A fused head's words are its head's (vm/opcodes.def, FUSED).
        Op as = info.form == PrimForm::Fused ? info.base : insn_op(i);
        if (info.form == PrimForm::Count) {
          note += ", " + std::to_string(code[pc + 1]) + " arguments";
        } else if (info.form == PrimForm::Key) {  // (its cache word changes as it runs)
          note += ", key " + write_string(vm, K[code[pc + 1]]);
          if (insn_extra_words(insn_op(i)) > 2) note += ", local " + std::to_string(code[pc + 3]);
        } else if (kOps[int(as)].form == PrimForm::Slots) {
          note += ", locals " + std::to_string(code[pc + 1]) + " " + std::to_string(code[pc + 2]);
        } else if (local_form_of(as) != Op::Count) {
          note += ", local " + std::to_string(code[pc + 1]);
          if (insn_extra_words(insn_op(i)) > 1)
            note += ", " + std::to_string(int32_t(code[pc + 2]));
        } else if (insn_extra_words(insn_op(i))) {
          note += ", " + std::to_string(int32_t(code[pc + 1]));
        }
        if (TYPE(K[insn_a(i)]) == Kind::Code) {
          Code* child = K[insn_a(i)].as<Code>();
          note = "<code " + (child->name.is_nil() ? std::string("fn") : symbol_name(child->name)) +
                 ">";
        }
        break;
      }
      case 'C': {
        Code* child = K[insn_a(i)].as<Code>();
        out += std::to_string(insn_a(i));
        note =
            "<code " + (child->name.is_nil() ? std::string("fn") : symbol_name(child->name)) + ">";
        for (uint32_t k = 0; k < child->nup; ++k) {
          Insn w = code[pc + 1 + k];
          note += (w & 1) ? " up" : " local";
          note += std::to_string(w >> 1);
        }
        nested.push_back(child);
        break;
      }
      case 'J':
        out += std::to_string(insn_sa(i));
        note = "to " + std::to_string(int(pc) + 1 + (insn_op(i) == Op::OPTARG) + insn_sa(i));
        if (insn_op(i) == Op::OPTARG) note = "local " + std::to_string(code[pc + 1]) + ", " + note;
        break;
      case 'F':  // (its cache word, the last, changes as it runs)
        out += std::to_string(insn_a(i));
        note = write_string(vm, K[insn_a(i)]);
        if (insn_extra_words(insn_op(i)) > 1) note += ", local " + std::to_string(code[pc + 1]);
        break;
      case 'I': out += std::to_string(insn_sa(i)); break;
      case '_': break;
      default: out += std::to_string(insn_a(i)); break;
    }
    if (!note.empty()) out += "\t; " + note;
    while (!out.empty() && out.back() == ' ') out.pop_back();
    out += "\n";
    pc += 1;
    if (insn_op(i) == Op::CLOSURE) pc += K[insn_a(i)].as<Code>()->nup;
    pc += insn_extra_words(insn_op(i));
  }
}

}  // namespace

std::string disassemble(VM& vm, Value fn) {
  std::string out;
  if (TYPE(fn) != Kind::Closure) return write_string(vm, fn) + " is not compiled Arc code\n";
  std::vector<Code*> todo{code_of(fn)};
  for (size_t i = 0; i < todo.size(); ++i) {
    if (i) out += "\n";
    std::vector<Code*> nested;
    disasm_code(vm, todo[i], out, nested);
    todo.insert(todo.end(), nested.begin(), nested.end());
  }
  return out;
}

}  // namespace compiler
