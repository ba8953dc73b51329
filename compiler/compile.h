// compiler/compile.h — core forms to code objects.
//
// Two passes over an expanded form. The first builds a small tree (Node),
// resolving each variable to its Binding and noting which bindings inner
// functions capture and which are assigned. The second emits bytecode: flat
// closures copy captured variables; a variable of the program that is
// assigned lives in a box, captured or not (closures share the box, and a
// re-entered continuation, which copies the frame, sees the variable's
// current value), and so does a compiler temporary that is assigned and
// captured. No Arc code runs during either pass, so nothing collects and the
// tree may hold raw Values.
#pragma once
#include <string>

#include "vm/vm.h"

namespace compiler {

using vm::Value;

// Expands and compiles one top-level form into a closure of no arguments.
// file names the source for backtraces ("" for none: the form's own, if
// it has a position); line is the form's when it has no position (a
// symbol read at the top level, a form built for eval), 0 for unknown.
Value compile_toplevel(vm::VM& vm, Value form, const std::string& file, uint32_t line = 0);

// Compiles, then runs a top-level form: what the REPL and load do.
Value eval_toplevel(vm::VM& vm, Value form, const std::string& file = "", uint32_t line = 0);

// The disassembly of a closure's code (and of the functions it contains).
std::string disassemble(Value fn);

}  // namespace compiler
