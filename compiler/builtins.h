// compiler/builtins.h — builtins that need the reader or the compiler.
#pragma once
#include "vm/vm.h"

namespace compiler {
void register_compiler_builtins(vm::VM& vm);
}
