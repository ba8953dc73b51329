// compiler/builtins.cpp — the builtins that need the reader or the compiler
// (eval, read, macex, ssexpand, disasm, declare), and the internal helpers
// the compiler's output calls (quasiquote's builders, destructuring).
#include "compiler/builtins.h"

#include "compiler/compile.h"
#include "compiler/expand.h"
#include "compiler/reader.h"
#include "vm/builtins.h"
#include "vm/code.h"
#include "vm/error.h"
#include "vm/port.h"
#include "vm/string.h"
#include "vm/symbol.h"
#include "vm/vm.h"

namespace compiler {

using namespace vm;

namespace {

// (eval expr): compiled in the global environment, then called in place of
// eval (a tail call: no C++ recursion while it runs).
Value bi_eval(VM& vm, Value* a, int) {
  // A form without a position of its own (built, or a symbol) is placed
  // where eval was called, so its errors say where that was.
  std::string file;
  uint32_t line = 0;
  if (!pos_of(a[0])) {
    vm.each_frame([&](const FrameRef& f) {
      if (!f.code) return true;
      if (TYPE(f.code->file) == Kind::String) file = string_utf8(f.code->file);
      line = code_line_at(f.code, f.insn > 0 ? f.insn - 1 : 0);
      return false;
    });
  }
  Value fn = compile_toplevel(vm, a[0], file, line);
  vm.tail_call_slots(0)[-1] = fn;
  return vm.tail_call_marker();
}

Value bi_macex(VM& vm, Value* a, int) { return macex(vm, a[0]); }
Value bi_macex1(VM& vm, Value* a, int) { return macex1(vm, a[0]); }
Value bi_ssexpand(VM& vm, Value* a, int) { return ssexpand(vm, a[0]); }
Value bi_ssyntax(VM&, Value* a, int) { return boolean(has_ssyntax(a[0])); }

// (sread port eof): one form from port, or eof at end of input.
Value bi_sread(VM& vm, Value* a, int n) {
  PortImpl* p = arg_input(vm, "sread", a[0]);
  Reader r(vm, p);
  Value form;
  if (!r.read(form)) return n > 1 ? a[1] : NIL;
  return form;
}

// (read (o port-or-string (stdin)) (o eof)), as arc.arc defines it.
Value bi_read(VM& vm, Value* a, int n) {
  Value src = n > 0 ? a[0] : vm.in_port();
  Value eof = n > 1 ? a[1] : NIL;
  Value form;
  if (is_string(src)) {
    Reader r(vm, string_utf8(src), "string");
    return r.read(form) ? form : eof;
  }
  Reader r(vm, arg_input(vm, "read", src));
  return r.read(form) ? form : eof;
}

// (%read-file path): every form of a file, with positions naming it.
Value bi_read_file(VM& vm, Value* a, int) {
  std::string path = arg_text(vm, "load", a[0]);
  PortImpl* p = open_input_file(vm, path);
  std::string text;
  for (int b; (b = p->read_byte()) >= 0;) text += char(b);
  p->close();
  delete p;
  return read_all(vm, text, path);
}

Value bi_disasm(VM& vm, Value* a, int) {
  port_impl(vm.out_port())->write_str(disassemble(vm, a[0]));
  port_impl(vm.out_port())->flush();
  return NIL;
}

// (declare key val): the compiler flags of docs/LANGUAGE.md 3.12.
Value bi_declare(VM& vm, Value* a, int) {
  std::string key = symbol_name(arg_symbol(vm, "declare", a[0]));
  bool on = a[1].truthy();
  if (key == "atstrings") vm.declarations().atstrings = on;
  else if (key == "direct-calls") vm.declarations().direct_calls = on;
  else if (key == "explicit-flush") vm.declarations().explicit_flush = on;
  else throw_error(vm, "declare: unknown declaration", {a[0]});
  return a[1];
}

Value bi_strcopy(VM& vm, Value* a, int) {
  return string_copy(vm, arg_string(vm, "%strcopy", a[0]));
}

Value bi_list(VM& vm, Value* a, int n) {
  Value r = NIL;
  for (int i = n; i-- > 0;) r = cons(vm, a[i], r);
  return r;
}

// Appends lists; the last argument is shared, not copied (as Racket's).
Value bi_append(VM& vm, Value* a, int n) {
  if (n == 0) return NIL;
  Value r = a[n - 1];
  for (int i = n - 1; i-- > 0;) {
    std::vector<Value> items;
    Value p = a[i];
    for (; is_cons(p); p = cdr(p)) items.push_back(car(p));
    if (!p.is_nil()) throw_error(vm, "unquote-splicing: expected a proper list, got", {a[i]});
    for (size_t j = items.size(); j-- > 0;) r = cons(vm, items[j], r);
  }
  return r;
}

Value bi_consp(VM&, Value* a, int) { return boolean(is_cons(a[0])); }

Value bi_dcar(VM& vm, Value* a, int) {
  if (is_cons(a[0])) return car(a[0]);
  if (a[0].is_nil()) return NIL;
  throw_error(vm, "Can't destructure", {a[0]});
}

Value bi_dcdr(VM& vm, Value* a, int) {
  if (is_cons(a[0])) return cdr(a[0]);
  if (a[0].is_nil()) return NIL;
  throw_error(vm, "Can't destructure", {a[0]});
}

const BuiltinDef kDefs[] = {
    {"eval", bi_eval, 1, 1, "compile and run expr in the global environment"},
    {"macex", bi_macex, 1, 1, "expand the outermost macro call repeatedly"},
    {"macex1", bi_macex1, 1, 1, "expand the outermost macro call once"},
    {"ssexpand", bi_ssexpand, 1, 1, "one step of ssyntax expansion"},
    {"ssyntax", bi_ssyntax, 1, 1, "t if x is a symbol with ssyntax"},
    {"sread", bi_sread, 1, 2, "(sread port eof): read one form"},
    {"read", bi_read, 0, 2, "(read (o port-or-string) (o eof)): read one form"},
    {"%read-file", bi_read_file, 1, 1, "every form of a file"},
    {"disasm", bi_disasm, 1, 1, "print a function's bytecode"},
    {"declare", bi_declare, 2, 2, "set a compiler flag: atstrings, direct-calls, explicit-flush"},
    {"%strcopy", bi_strcopy, 1, 1, "a fresh copy of a string literal"},
    {"%list", bi_list, 0, -1, "quasiquote's list builder"},
    {"%append", bi_append, 0, -1, "quasiquote's splicer"},
    {"%consp", bi_consp, 1, 1, "t if x is a cons"},
    {"%dcar", bi_dcar, 1, 1, "destructuring car"},
    {"%dcdr", bi_dcdr, 1, 1, "destructuring cdr"},
};

}  // namespace

void register_compiler_builtins(VM& vm) {
  define_builtins(vm, kDefs);
  // Macro expansion runs Arc code in a nested run (VM::apply).
  for (const char* name : {"eval", "macex", "macex1"})
    set_builtin_op(vm, name, BuiltinOp::Reenters);
  Value plus = vm.primitive(Op::ADD);
  vm.define("%concat", make_builtin(vm, "%concat", plus.as<Builtin>()->fn, 0, -1));
}

}  // namespace compiler
