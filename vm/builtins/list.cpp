// vm/builtins/list.cpp — pairs, lists, equality and ordering (docs/LANGUAGE.md 4.1, 4.2).
#include <cmath>

#include "vm/builtins.h"
#include "vm/compare.h"
#include "vm/error.h"
#include "vm/number.h"
#include "vm/string.h"
#include "vm/table.h"
#include "vm/vm.h"

namespace vm {
namespace {

Value bi_cons(VM& vm, Value* a, int) { return cons(vm, a[0], a[1]); }

Value bi_car(VM& vm, Value* a, int) {
  Value x = a[0];
  if (is_cons(x)) return car(x);
  if (x.is_nil()) return NIL;
  throw_error(vm, "Can't take car of", {x});
}

Value bi_cdr(VM& vm, Value* a, int) {
  Value x = a[0];
  if (is_cons(x)) return cdr(x);
  if (x.is_nil()) return NIL;
  throw_error(vm, "Can't take cdr of", {x});
}

// (%mem-is x xs): the tail of xs whose car is x (is), or nil: mem's walk
// when its test is not a function (stdlib/core.arc), erring on an improper
// tail as its car would.
Value bi_mem_is(VM& vm, Value* a, int) {
  for (Value p = a[1]; !p.is_nil(); p = cdr(p)) {
    if (!is_cons(p)) throw_error(vm, "Can't take car of", {p});
    if (arc_is(car(p), a[0])) return p;
  }
  return NIL;
}

Value bi_scar(VM& vm, Value* a, int) {
  Value x = a[0];
  if (is_cons(x)) {
    set(vm, x.as<Cons>(), &x.as<Cons>()->car, a[1]);
  } else if (is_string(x) && string_len(x) > 0) {
    string_set(vm, x, 0, arg_char(vm, "scar", a[1]));
  } else {
    type_error(vm, "scar", "a cons", x);
  }
  return a[1];
}

Value bi_scdr(VM& vm, Value* a, int) {
  Value x = arg_cons(vm, "scdr", a[0]);
  set(vm, x.as<Cons>(), &x.as<Cons>()->cdr, a[1]);
  return a[1];
}

Value bi_is(VM&, Value* a, int n) {
  for (int i = 0; i + 1 < n; ++i)
    if (!arc_is(a[i], a[i + 1])) return NIL;
  return T;
}

Value bi_lt(VM& vm, Value* a, int n) {
  for (int i = 0; i + 1 < n; ++i)
    if (!(compare_values(vm, "<", a[i], a[i + 1]) < 0)) return NIL;
  return T;
}

// A NaN is unordered: compare_values calls it greater, which suits only <.
bool is_nan(VM& vm, Value v) {
  return TYPE(v) == Kind::Flonum && std::isnan(number_to_double(vm, v));
}

Value bi_gt(VM& vm, Value* a, int n) {
  for (int i = 0; i + 1 < n; ++i)
    if (!(compare_values(vm, ">", a[i], a[i + 1]) > 0) || is_nan(vm, a[i]) || is_nan(vm, a[i + 1]))
      return NIL;
  return T;
}

// (<= . xs) and (>= . xs): each x not greater (not less) than the next,
// which is how Arc 3.1 defines them in arc.arc, (no (> a b)) pair by pair,
// stopping at the first pair that fails: so a NaN gives t, and the errors
// are those of > and <.
Value bi_le(VM& vm, Value* a, int n) {
  for (int i = 0; i + 1 < n; ++i)
    if (compare_values(vm, ">", a[i], a[i + 1]) > 0 && !is_nan(vm, a[i]) && !is_nan(vm, a[i + 1]))
      return NIL;
  return T;
}

Value bi_ge(VM& vm, Value* a, int n) {
  for (int i = 0; i + 1 < n; ++i)
    if (compare_values(vm, "<", a[i], a[i + 1]) < 0) return NIL;
  return T;
}

Value bi_no(VM&, Value* a, int) { return boolean(a[0].is_nil()); }

// A builtin, not arc.arc's Arc definition: every list loop (each, on, map)
// tests it per element, and written in Arc it was a large part of such a
// loop's time, which this builtin and its compiler fast path save.
Value bi_acons(VM&, Value* a, int) { return boolean(TYPE(a[0]) == Kind::Cons); }

// (%rev-onto xs acc): xs's elements reversed, in front of acc; the last
// step of every accumulate-then-reverse loop of stdlib/core.arc (map, keep,
// range, ...). A builtin: in Arc it was a loop of car, cons, cdr and a self
// call per element, the second largest cost of map and keep (bench/engine
// closures.arc). It holds no safe point, so its Values need no rooting.
Value bi_rev_onto(VM& vm, Value* a, int) {
  Value acc = a[1];
  Value p = a[0];
  for (; TYPE(p) == Kind::Cons; p = cdr(p)) acc = cons(vm, car(p), acc);
  if (!p.is_nil()) type_error(vm, "%rev-onto", "a list", a[0]);
  return acc;
}

// (sref obj value key), docs/LANGUAGE.md 3.8.
Value bi_sref(VM& vm, Value* a, int) {
  Value obj = a[0], val = a[1], key = a[2];
  switch (TYPE(obj)) {
    case Kind::Table: table_put(vm, obj, key, val); return val;
    case Kind::String: {
      int64_t i = arg_index(vm, "sref", key);
      if (uint64_t(i) >= string_len(obj))
        throw_error(vm, "sref: string index out of range:", {key});
      string_set(vm, obj, uint64_t(i), arg_char(vm, "sref", val));
      return val;
    }
    case Kind::Cons: {
      int64_t i = arg_index(vm, "sref", key);
      Value p = obj;
      for (int64_t j = 0; j < i && is_cons(p); ++j) p = cdr(p);
      if (!is_cons(p)) throw_error(vm, "sref: list index out of range:", {key});
      set(vm, p.as<Cons>(), &p.as<Cons>()->car, val);
      return val;
    }
    default: throw_error(vm, "Can't set reference ", {obj, key, val});
  }
}

const BuiltinDef kDefs[] = {
    {"cons", bi_cons, 2, 2, "a new pair"},
    {"%rev-onto", bi_rev_onto, 2, 2, "(%rev-onto xs acc): xs reversed, in front of acc"},
    {"car", bi_car, 1, 1, "first element of a list; nil for nil"},
    {"cdr", bi_cdr, 1, 1, "rest of a list; nil for nil"},
    {"scar", bi_scar, 2, 2, "set the car of a cons (or char 0 of a string)"},
    {"scdr", bi_scdr, 2, 2, "set the cdr of a cons"},
    {"%mem-is", bi_mem_is, 2, 2, "(%mem-is x xs): the tail of xs whose car is x, or nil"},
    {"is", bi_is, 0, -1, "identity; numbers by value and exactness, strings by content"},
    {"<", bi_lt, 0, -1, "strictly increasing: numbers, strings, symbols, chars"},
    {">", bi_gt, 0, -1, "strictly decreasing"},
    {"<=", bi_le, 0, -1, "each not greater than the next"},
    {">=", bi_ge, 0, -1, "each not less than the next"},
    {"no", bi_no, 1, 1, "t if x is nil"},
    {"acons", bi_acons, 1, 1, "t if x is a cons"},
    {"sref", bi_sref, 3, 3, "(sref obj value key): store into a table, string or list"},
};

}  // namespace

void register_list_builtins(VM& vm) { define_builtins(vm, kDefs); }

}  // namespace vm
