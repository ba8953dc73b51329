// vm/code.cpp — the opcode metadata, generated from vm/opcodes.def.
#include "vm/code.h"

namespace vm {

const OpInfo kOps[kOpCount] = {
#define OP(name, fmt, effect, doc) {#name, #fmt[0], effect, doc},
#include "vm/opcodes.def"
#undef OP
};

}  // namespace vm
