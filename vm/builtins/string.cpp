// vm/builtins/string.cpp — the Arc 3.1 host primitives for strings and
// symbols (newstring, uniq), and the ordering `<` and `>` use on numbers,
// strings, symbols and characters (vm/compare.h). Everything else about
// strings is library code over len, indexing, sref, coerce and +.
#include "vm/string.h"

#include <string>

#include "vm/builtins.h"
#include "vm/compare.h"
#include "vm/error.h"
#include "vm/number.h"
#include "vm/print.h"
#include "vm/symbol.h"

namespace vm {

namespace {

int sign(int64_t d) { return d < 0 ? -1 : d > 0 ? 1 : 0; }

bool is_symbol_kind(Kind k) { return k == Kind::Symbol || k == Kind::Nil || k == Kind::True; }

[[noreturn]] void cant_compare(const char* fn, Value a, Value b) {
  throw_error(std::string(fn) + ": can't compare " + write_string(a) + " and " + write_string(b));
}

Value bi_newstring(VM&, Value* args, int nargs) {
  int64_t n = arg_index("newstring", args[0]);
  uint32_t fill = nargs > 1 ? arg_char("newstring", args[1]) : 0;
  return make_string(uint64_t(n), fill);
}

// Arc 3.1's uniq: interned symbols gs1, gs2, ... from one counter.
Value bi_uniq(VM&, Value*, int) { return next_uniq(); }

// (%find-sym s): the symbol named s if one exists, else nil, interning
// nothing: for names that come from the network (the server's fnids).
Value bi_find_sym(VM&, Value* args, int) {
  Value s = find_symbol(string_utf8(arg_string("%find-sym", args[0])));
  return s == UNBOUND ? NIL : s;
}

// (%unintern sym): takes sym out of the intern table (vm/symbol.h's
// unintern): for ids such as the server's fnids, dropped with their
// closures. t if it was taken out.
Value bi_unintern(VM&, Value* args, int) { return boolean(unintern(args[0])); }

const BuiltinDef kStringBuiltins[] = {
    {"%find-sym", bi_find_sym, 1, 1, "the existing symbol named s, or nil (interns nothing)"},
    {"%unintern", bi_unintern, 1, 1, "take an unbound id symbol out of the intern table"},
    {"newstring", bi_newstring, 1, 2,
     "(newstring n (o c)): a string of n copies of c (default #\\nul)"},
    {"uniq", bi_uniq, 0, 0, "(uniq): a fresh symbol gsN"},
};

}  // namespace

int compare_values(const char* fn, Value a, Value b) {
  Kind ka = TYPE(a), kb = TYPE(b);
  if (is_number(a) && is_number(b)) return num_compare(a, b);
  if (ka == Kind::String && kb == Kind::String) return string_compare(a, b);
  if (ka == Kind::Char && kb == Kind::Char)
    return sign(int64_t(a.as_char()) - int64_t(b.as_char()));
  // UTF-8 byte order is code point order, and std::string compares bytes
  // as unsigned.
  if (is_symbol_kind(ka) && is_symbol_kind(kb)) return sign(symbol_name(a).compare(symbol_name(b)));
  cant_compare(fn, a, b);
}

void register_string_builtins(VM& vm) { define_builtins(vm, kStringBuiltins); }

}  // namespace vm
