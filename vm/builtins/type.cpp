// vm/builtins/type.cpp — type, annotate, rep, coerce and len (docs/LANGUAGE.md 1,
// 4.1, 4.7), with coerce's conversion table as Arc 3.1 has it, quirks
// included: a value of a type coerce knows nothing about (table, fn, port...)
// comes back unchanged whatever the target.
#include <string>

#include "vm/builtins.h"
#include "vm/coerce.h"
#include "vm/error.h"
#include "vm/number.h"
#include "vm/port.h"
#include "vm/string.h"
#include "vm/symbol.h"
#include "vm/table.h"
#include "vm/vm.h"

namespace vm {

namespace {

// Nesting of lists inside a list being coerced to a string; past this the
// structure is taken to be cyclic through its cars, or too deep to walk.
constexpr int kMaxCoerceDepth = 10000;

[[noreturn]] void cant_coerce(VM& vm, Value x, Value type) {
  throw_error(vm, "Can't coerce", {x, type});
}

int radix_of(VM& vm, Value arg) {
  if (arg == MISSING || arg.is_nil()) return 10;
  int64_t r = arg_fixnum(vm, "coerce", arg);
  if (r < 2 || r > 36) type_error(vm, "coerce", "a radix from 2 to 36", arg);
  return int(r);
}

void append_utf8(std::u32string& out, const std::string& utf8) {
  for (size_t i = 0; i < utf8.size();) out.push_back(utf8_decode(utf8, i));
}

bool is_real_kind(Kind k) { return k == Kind::Flonum || k == Kind::Ratnum; }

void append_coerced(VM& vm, std::u32string& out, Value v, int depth);

// The elements of a list, each coerced; the cdr chain is walked in a loop
// (with a cycle check), only nested lists recurse, each a level of depth
// and a check of the machine stack (a fiber's is small). The error names
// no irritant: written out, the list would be the whole depth again.
void append_list(VM& vm, std::u32string& out, Value list, int depth) {
  if (depth > kMaxCoerceDepth)
    throw_error(vm,
                "Can't coerce to string: lists nested too deeply (or cyclic through their cars)");
  vm.check_machine_stack();
  Value slow = list;
  uint64_t n = 0;
  for (Value p = list; !p.is_nil(); p = cdr(p)) {
    if (!is_cons(p)) cant_coerce(vm, list, vm.S.string);  // improper tail
    append_coerced(vm, out, car(p), depth + 1);
    if (++n % 2 == 0) slow = cdr(slow);
    if (cdr(p) == slow) cant_coerce(vm, list, vm.S.string);  // cdr cycle
  }
}

void append_coerced(VM& vm, std::u32string& out, Value v, int depth) {
  switch (TYPE(v)) {
    case Kind::String: {
      uint64_t n = string_len(v);
      for (uint64_t i = 0; i < n; ++i) out.push_back(string_ref(v, i));
      return;
    }
    case Kind::Char: out.push_back(v.as_char()); return;
    case Kind::Nil: return;
    case Kind::True:
    case Kind::Symbol: append_utf8(out, symbol_name(v)); return;
    case Kind::Fixnum:
    case Kind::Bignum:
    case Kind::Flonum:
    case Kind::Ratnum: append_utf8(out, number_to_string(vm, v)); return;
    case Kind::Cons: append_list(vm, out, v, depth); return;
    case Kind::Tagged: throw_error(vm, "Can't coerce annotated object");
    default: cant_coerce(vm, v, vm.S.string);
  }
}

// An exact integer as a character, if it is a Unicode scalar value.
Value integer_to_char(VM& vm, Value n, Value x, Value type) {
  if (!n.is_fixnum()) cant_coerce(vm, x, type);
  int64_t c = n.as_fixnum();
  if (c < 0 || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) cant_coerce(vm, x, type);
  return Value::character(uint32_t(c));
}

Value from_char(VM& vm, Value x, Value type) {
  uint32_t c = x.as_char();
  if (type == vm.S.int_) return Value::fixnum(c);
  if (type == vm.S.string) return make_string(vm, 1, c);
  if (type == vm.S.sym) {
    std::string name;
    utf8_append(name, c);
    return intern(vm, name);
  }
  cant_coerce(vm, x, type);
}

Value from_integer(VM& vm, Value x, Value type, Value arg) {
  if (type == vm.S.char_) return integer_to_char(vm, x, x, type);
  if (type == vm.S.string) return make_string_utf8(vm, number_to_string(vm, x, radix_of(vm, arg)));
  if (type == vm.S.num) return x;
  cant_coerce(vm, x, type);
}

// Flonums and exact rationals; `int` rounds half to even.
Value from_real(VM& vm, Value x, Value type, Value arg) {
  if (type == vm.S.int_) return num_round_even(vm, x);
  if (type == vm.S.char_) return integer_to_char(vm, num_round_even(vm, x), x, type);
  if (type == vm.S.string) {
    int radix = radix_of(vm, arg);
    // A float has digits only in base 10 (Arc 3.1 raises Racket's error);
    // writing it in base 10 anyway would answer another question.
    if (TYPE(x) == Kind::Flonum && radix != 10)
      throw_error(vm, "coerce: a float can only be written in base 10, got", {x, arg});
    return make_string_utf8(vm, number_to_string(vm, x, radix));
  }
  cant_coerce(vm, x, type);
}

Value string_to_list(VM& vm, Value s) {
  Value r = NIL;
  for (uint64_t i = string_len(s); i-- > 0;) r = cons(vm, Value::character(string_ref(s, i)), r);
  return r;
}

Value from_string(VM& vm, Value x, Value type, Value arg) {
  if (type == vm.S.sym) return intern(vm, string_utf8(x));
  if (type == vm.S.cons) return string_to_list(vm, x);
  if (type != vm.S.num && type != vm.S.int_) cant_coerce(vm, x, type);
  std::optional<Value> n = parse_number(vm, string_utf8(x), radix_of(vm, arg));
  if (!n) cant_coerce(vm, x, type);
  if (type == vm.S.int_ && !is_integer(*n)) return num_round_even(vm, *n);
  return *n;
}

Value from_symbol(VM& vm, Value x, Value type) {
  if (type == vm.S.string) return make_string_utf8(vm, symbol_name(x));
  cant_coerce(vm, x, type);
}

Value bi_type(VM& vm, Value* args, int) { return arc_type(vm, args[0]); }

// (isa x y): (is (type x) y), without a closure's frame and type's call.
Value bi_isa(VM& vm, Value* args, int) { return boolean(arc_is(arc_type(vm, args[0]), args[1])); }

Value bi_annotate(VM& vm, Value* args, int) {
  if (arc_type(vm, args[1]) == args[0]) return args[1];
  return make_tagged(vm, args[0], args[1]);
}

Value bi_rep(VM&, Value* args, int) {
  return is_tagged(args[0]) ? args[0].as<Tagged>()->rep : args[0];
}

Value bi_coerce(VM& vm, Value* args, int nargs) {
  return coerce(vm, args[0], args[1], nargs > 2 ? args[2] : MISSING);
}

// A proper list's length; improper and circular lists are errors.
int64_t list_length(VM& vm, Value x) {
  int64_t n = 0;
  Value slow = x;
  for (Value p = x; !p.is_nil(); p = cdr(p)) {
    if (!is_cons(p)) type_error(vm, "len", "a proper list", x);
    if (++n % 2 == 0) slow = cdr(slow);
    if (cdr(p) == slow && is_cons(slow)) type_error(vm, "len", "a proper list", x);
  }
  return n;
}

Value bi_len(VM& vm, Value* args, int) {
  Value x = args[0];
  switch (TYPE(x)) {
    case Kind::String: return Value::fixnum(int64_t(string_len(x)));
    case Kind::Table: return Value::fixnum(int64_t(x.as<Table>()->count));
    case Kind::Nil:
    case Kind::Cons: return Value::fixnum(list_length(vm, x));
    default: type_error(vm, "len", "a string, table or list", x);
  }
}

const BuiltinDef kTypeBuiltins[] = {
    {"type", bi_type, 1, 1, "(type x): the type of x as a symbol; a tagged object's tag"},
    {"isa", bi_isa, 2, 2, "(isa x y): whether x's type is y"},
    {"annotate", bi_annotate, 2, 2,
     "(annotate tag x): x tagged with tag, or x if already of type tag"},
    {"rep", bi_rep, 1, 1, "(rep x): the contents of a tagged object; other values unchanged"},
    {"coerce", bi_coerce, 2, 3, "(coerce x type (o radix)): x converted to type"},
    {"len", bi_len, 1, 1, "(len x): length of a string or proper list, entries of a table"},
};

}  // namespace

Value arc_type_by_object(VM& vm, Value v) {
  Kind k = TYPE(v);
  if (k == Kind::Tagged) return v.as<Tagged>()->tag;
  if (k == Kind::Port) return port_impl(v) && port_impl(v)->is_input ? vm.S.input : vm.S.output;
  throw_error(vm, "type: unknown type", {v});
}

Value coerce(VM& vm, Value x, Value type, Value arg) {
  Kind k = TYPE(x);
  // Arc 3.1's text, word for word: it names no object.
  if (k == Kind::Tagged) throw_error(vm, "Can't coerce annotated object");
  if (arc_type(vm, x) == type) return x;
  switch (k) {
    case Kind::Char: return from_char(vm, x, type);
    case Kind::Fixnum:
    case Kind::Bignum: return from_integer(vm, x, type, arg);
    case Kind::String: return from_string(vm, x, type, arg);
    case Kind::Cons:
      if (type == vm.S.string) return coerce_to_string(vm, x);
      cant_coerce(vm, x, type);
    case Kind::Nil:
      if (type == vm.S.string) return make_string(vm, 0);
      cant_coerce(vm, x, type);
    case Kind::Symbol:
    case Kind::True: return from_symbol(vm, x, type);
    default: return is_real_kind(k) ? from_real(vm, x, type, arg) : x;  // 3.1: others unchanged
  }
}

Value coerce_to_string(VM& vm, Value v) {
  if (is_string(v)) return v;
  std::u32string out;
  append_coerced(vm, out, v, 0);
  return make_string_u32(vm, out);
}

void append_as_string(VM& vm, std::u32string& out, Value v) { append_coerced(vm, out, v, 0); }

void register_type_builtins(VM& vm) { define_builtins(vm, kTypeBuiltins); }

}  // namespace vm
