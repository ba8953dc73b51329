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
#include "vm/vm.h"

namespace vm {

namespace {

int sign(int64_t d) { return d < 0 ? -1 : d > 0 ? 1 : 0; }

bool is_symbol_kind(Kind k) { return k == Kind::Symbol || k == Kind::Nil || k == Kind::True; }

[[noreturn]] void cant_compare(VM& vm, const char* fn, Value a, Value b) {
  throw_error(vm, std::string(fn) + ": can't compare " + write_string(vm, a) + " and " +
                      write_string(vm, b));
}

Value bi_newstring(VM& vm, Value* args, int nargs) {
  int64_t n = arg_index(vm, "newstring", args[0]);
  uint32_t fill = nargs > 1 ? arg_char(vm, "newstring", args[1]) : 0;
  return make_string(vm, uint64_t(n), fill);
}

// Arc 3.1's uniq: interned symbols gs1, gs2, ... from one counter.
Value bi_uniq(VM& vm, Value*, int) { return next_uniq(vm); }

// (%find-sym s): the symbol named s if one exists, else nil, interning
// nothing: for names that come from the network (the server's fnids).
Value bi_find_sym(VM& vm, Value* args, int) {
  Value s = find_symbol(vm, string_utf8(arg_string(vm, "%find-sym", args[0])));
  return s == UNBOUND ? NIL : s;
}

// (%unintern sym): takes sym out of the intern table (vm/symbol.h's
// unintern): for ids such as the server's fnids, dropped with their
// closures. t if it was taken out.
Value bi_unintern(VM& vm, Value* args, int) { return boolean(unintern(vm, args[0])); }

// (%substring s start end): the characters [start, end) of s, a fresh
// string; cut's string case (stdlib/core.arc), which checks the bounds
// for its own messages. Checked again here: a % name may be called with
// anything (tests/unit/test_fuzz_names.cpp).
Value bi_substring(VM& vm, Value* args, int) {
  Value s = arg_string(vm, "%substring", args[0]);
  int64_t start = arg_index(vm, "%substring", args[1]), end = arg_index(vm, "%substring", args[2]);
  if (uint64_t(end) > string_len(s) || start > end)
    throw_error(vm, "%substring: bad range", {args[1], args[2]});
  return string_slice(vm, s, uint64_t(start), uint64_t(end));
}

// (%tokens s sep): tokens's common cases in one pass (stdlib/strings.arc):
// the non-empty runs of s between separators, sep a character or nil for
// whitec's four (space, newline, tab, return). Each token a fresh string.
Value bi_tokens(VM& vm, Value* args, int) {
  Value s = arg_string(vm, "%tokens", args[0]);
  bool white = args[1].is_nil();
  uint32_t sep = white ? 0 : arg_char(vm, "%tokens", args[1]);
  auto is_sep = [&](uint32_t c) {
    return white ? c == ' ' || c == '\n' || c == '\t' || c == '\r' : c == sep;
  };
  // Right to left, consing each token on in order; allocation never
  // collects, so s and the list stay put (no safe point here).
  Value acc = NIL;
  uint64_t end = string_len(s);
  for (uint64_t i = end; i-- > 0;) {
    if (!is_sep(string_ref(s, i))) continue;
    if (end > i + 1) acc = cons(vm, string_slice(vm, s, i + 1, end), acc);
    end = i;
  }
  if (end > 0) acc = cons(vm, string_slice(vm, s, 0, end), acc);
  return acc;
}

const BuiltinDef kStringBuiltins[] = {
    {"%substring", bi_substring, 3, 3,
     "(%substring s start end): a fresh copy of s's [start, end)"},
    {"%tokens", bi_tokens, 2, 2,
     "(%tokens s sep): tokens of s split at the character sep (nil: whitespace)"},
    {"%find-sym", bi_find_sym, 1, 1, "the existing symbol named s, or nil (interns nothing)"},
    {"%unintern", bi_unintern, 1, 1, "take an unbound id symbol out of the intern table"},
    {"newstring", bi_newstring, 1, 2,
     "(newstring n (o c)): a string of n copies of c (default #\\nul)"},
    {"uniq", bi_uniq, 0, 0, "(uniq): a fresh symbol gsN"},
};

}  // namespace

int compare_values(VM& vm, const char* fn, Value a, Value b) {
  Kind ka = TYPE(a), kb = TYPE(b);
  if (is_number(a) && is_number(b)) return num_compare(vm, a, b);
  if (ka == Kind::String && kb == Kind::String) return string_compare(a, b);
  if (ka == Kind::Char && kb == Kind::Char)
    return sign(int64_t(a.as_char()) - int64_t(b.as_char()));
  // UTF-8 byte order is code point order, and std::string compares bytes
  // as unsigned.
  if (is_symbol_kind(ka) && is_symbol_kind(kb)) return sign(symbol_name(a).compare(symbol_name(b)));
  cant_compare(vm, fn, a, b);
}

void register_string_builtins(VM& vm) { define_builtins(vm, kStringBuiltins); }

}  // namespace vm
