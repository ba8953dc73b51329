// vm/args.cpp — the shared argument checkers of vm/builtins.h.
#include "vm/builtins.h"
#include "vm/error.h"
#include "vm/port.h"
#include "vm/string.h"
#include "vm/symbol.h"

namespace vm {

int64_t arg_fixnum(VM& vm, const char* fn, Value v) {
  if (TYPE(v) != Kind::Fixnum) type_error(vm, fn, "an integer", v);
  return v.as_fixnum();
}
int64_t arg_index(VM& vm, const char* fn, Value v) {
  if (TYPE(v) != Kind::Fixnum || v.as_fixnum() < 0) type_error(vm, fn, "a non-negative integer", v);
  return v.as_fixnum();
}
uint32_t arg_char(VM& vm, const char* fn, Value v) {
  if (TYPE(v) != Kind::Char) type_error(vm, fn, "a character", v);
  return v.as_char();
}
Value arg_string(VM& vm, const char* fn, Value v) {
  if (TYPE(v) != Kind::String) type_error(vm, fn, "a string", v);
  return v;
}
Value arg_symbol(VM& vm, const char* fn, Value v) {
  if (!is_symbol(v)) type_error(vm, fn, "a symbol", v);
  return v;
}
Value arg_table(VM& vm, const char* fn, Value v) {
  if (TYPE(v) != Kind::Table) type_error(vm, fn, "a table", v);
  return v;
}
Value arg_cons(VM& vm, const char* fn, Value v) {
  if (TYPE(v) != Kind::Cons) type_error(vm, fn, "a cons", v);
  return v;
}
Value arg_list(VM& vm, const char* fn, Value v) {
  if (!is_list(v)) type_error(vm, fn, "a list", v);
  return v;
}
Value arg_number(VM& vm, const char* fn, Value v) {
  if (!is_number(v)) type_error(vm, fn, "a number", v);
  return v;
}
Value arg_integer(VM& vm, const char* fn, Value v) {
  if (!is_integer(v)) type_error(vm, fn, "an integer", v);
  return v;
}
PortImpl* arg_input(VM& vm, const char* fn, Value v) {
  if (!is_input_port(v)) type_error(vm, fn, "an input port", v);
  PortImpl* p = port_impl(v);
  if (p->closed) throw_error(vm, std::string(fn) + ": port is closed", {v});
  return p;
}
PortImpl* arg_output(VM& vm, const char* fn, Value v) {
  if (!is_output_port(v)) type_error(vm, fn, "an output port", v);
  PortImpl* p = port_impl(v);
  if (p->closed) throw_error(vm, std::string(fn) + ": port is closed", {v});
  return p;
}
std::string arg_text(VM& vm, const char* fn, Value v) {
  Kind k = TYPE(v);
  if (k == Kind::String) return string_utf8(v);
  if (k == Kind::Symbol || k == Kind::Nil || k == Kind::True) return symbol_name(v);
  type_error(vm, fn, "a string", v);
}

}  // namespace vm
