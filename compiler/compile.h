// compiler/compile.h — core forms to code objects.
//
// Two passes over an expanded form. The first builds a small tree (Node),
// resolving each variable to its Binding and noting which bindings inner
// functions capture and which are assigned. The second emits bytecode: flat
// closures copy captured variables; an assigned variable that a closure
// captures lives in a box, which the closures share. One that no closure
// captures lives in its frame slot (LOADX, STOREX), and a continuation's
// capture boxes it there before copying the frame (VM::box_shared_slots),
// so that a re-entered continuation sees the variable's current value; so
// does the making of an atomic body's thunk that captures it (SHARE). No
// Arc code runs during either pass, so nothing collects and the tree may
// hold raw Values.
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
std::string disassemble(vm::VM& vm, Value fn);

}  // namespace compiler
