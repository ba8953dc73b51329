// vm/builtins.h — how builtins declare themselves: each area file
// (vm/builtins/*.cpp) has one table of BuiltinDef, name, arity and a line of
// doc beside the function, and one register function that hands the table to
// the VM. Argument checkers raise the Arc error naming the builtin.
#pragma once
#include <ctime>
#include <string>

#include "vm/object.h"

namespace vm {

struct BuiltinDef {
  const char* name;
  BuiltinFn fn;
  int min_args;
  int max_args;  // -1: any number
  const char* doc;
};

class VM;
void define_builtins(VM& vm, const BuiltinDef* defs, size_t n);
// Tells the interpreter what the builtin the global `name` holds does (BuiltinOp).
void set_builtin_op(VM& vm, const char* name, BuiltinOp op);
template <size_t N>
void define_builtins(VM& vm, const BuiltinDef (&defs)[N]) {
  define_builtins(vm, defs, N);
}

// The core's areas; VM::VM calls each once. The fiber and thread builtins
// are declared in their modules' headers (vm/fiber.h, vm/thread.h); the
// libraries above the core have their own (io/io.h, measure/measure.h).
// Some of Arc 3.1's primitives are Arc here, over the builtins below
// (stdlib/prelude.arc: `protect`, `on-err`, `dynamic-wind`,
// `call-w/stdout`). tests/tools/check_names.py checks that each builtin
// named beside an area is registered there.
void register_list_builtins(VM& vm);
void register_number_builtins(VM& vm);  // arithmetic, trigonometry, rand
void register_string_builtins(VM& vm);  // characters, strings, symbols
void register_table_builtins(VM& vm);
void register_type_builtins(VM& vm);     // type, annotate, rep, coerce
void register_io_builtins(VM& vm);       // ports, read/write chars and bytes, printing
void register_system_builtins(VM& vm);   // quit, memory, clocks
void register_control_builtins(VM& vm);  // err, ccc, apply, dynamic-wind's steps, gc

// Argument checkers: return the unboxed argument or raise
// "NAME: expected WHAT, got X".
int64_t arg_fixnum(VM& vm, const char* fn, Value v);
int64_t arg_index(VM& vm, const char* fn, Value v);  // a non-negative fixnum
uint32_t arg_char(VM& vm, const char* fn, Value v);
Value arg_string(VM& vm, const char* fn, Value v);
Value arg_symbol(VM& vm, const char* fn, Value v);
Value arg_table(VM& vm, const char* fn, Value v);
Value arg_cons(VM& vm, const char* fn, Value v);
Value arg_list(VM& vm, const char* fn, Value v);
Value arg_number(VM& vm, const char* fn, Value v);
Value arg_integer(VM& vm, const char* fn, Value v);
PortImpl* arg_input(VM& vm, const char* fn, Value v);
PortImpl* arg_output(VM& vm, const char* fn, Value v);
// A string or symbol as a UTF-8 path/command.
std::string arg_text(VM& vm, const char* fn, Value v);

// A clock in milliseconds (msec's is CLOCK_REALTIME).
int64_t clock_ms(clockid_t clock);

// Ends the process with `status` (quit, and the parent of --workers) as
// returning from main does (compiler/runtime.cpp, ~Runtime): the standard
// ports flushed, then every object in the heap finalized, so that a port
// opened and never closed writes what it buffered and frees its buffers.
[[noreturn]] void exit_process(VM& vm, int status);

}  // namespace vm
