// vm/builtins/control.cpp — errors, continuations, apply, dynamic wind, the
// collector (docs/LANGUAGE.md 4.13); its statistics and the profiler are
// the measurement library's (measure/measure.cpp). on-err, protect and call-w/stdout are written in
// Arc over these (stdlib/prelude.arc).
#include <algorithm>
#include <cstdint>

#include "vm/builtins.h"
#include "vm/error.h"
#include "vm/number.h"
#include "vm/print.h"
#include "vm/string.h"
#include "vm/symbol.h"
#include "vm/table.h"
#include "vm/vm.h"

namespace vm {
namespace {

// (err msg . args): msg displayed, then each arg as errors show it
// (vm/error.h), space-separated.
Value bi_err(VM& vm, Value* a, int n) {
  Value irritants = NIL;
  for (int i = n; i-- > 1;) irritants = cons(vm, a[i], irritants);
  throw_error_list(vm, disp_string(vm, a[0]), irritants);
}

Value bi_details(VM& vm, Value* a, int) {
  if (TYPE(a[0]) != Kind::Exception) type_error(vm, "details", "an exception", a[0]);
  return string_copy(vm, a[0].as<Exception>()->message);
}

// (%describe-error e): the message and the Arc backtrace of an exception,
// as the REPL prints them (the server's error log).
Value bi_describe_error(VM& vm, Value* a, int) {
  if (TYPE(a[0]) != Kind::Exception) type_error(vm, "%describe-error", "an exception", a[0]);
  return make_string_utf8(vm, describe_error(a[0]));
}

Value bi_ccc(VM& vm, Value* a, int) {
  Value f = a[0];
  Value k = vm.capture_continuation();
  Value* s = vm.tail_call_slots(1);
  s[-1] = f;
  s[0] = k;
  return vm.tail_call_marker();
}

Value bi_captures(VM& vm, Value*, int) { return Value::fixnum(int64_t(vm.captures())); }

// (apply f a1 ... an lst): f called with a1..an and lst's elements.
Value bi_apply(VM& vm, Value* a, int n) {
  Value f = a[0];
  if (n == 1) {
    vm.tail_call_slots(0)[-1] = f;
    return vm.tail_call_marker();
  }
  Value lst = a[n - 1];
  int64_t len = 0;
  for (Value p = lst; is_cons(p); p = cdr(p)) ++len;
  Value tail = lst;
  for (int64_t i = 0; i < len; ++i) tail = cdr(tail);
  if (!tail.is_nil()) type_error(vm, "apply", "a proper list as the last argument", lst);
  int total = n - 2 + int(len);
  Value* s = vm.tail_call_slots(total);
  // s aliases a: shift a1..an left by one, then append the list.
  s[-1] = f;
  for (int i = 1; i < n - 1; ++i) s[i - 1] = a[i];
  int j = n - 2;
  for (Value p = lst; is_cons(p); p = cdr(p)) s[j++] = car(p);
  return vm.tail_call_marker();
}

Value bi_push_wind(VM& vm, Value* a, int) {
  vm.push_wind(a[0], a[1]);
  return NIL;
}

Value bi_pop_wind(VM& vm, Value*, int) {
  vm.pop_wind();
  return NIL;
}

// (%wind-to w): %run-winds sets the chain each step of a transfer runs
// under. The unwinding code takes car and cdr of each element unchecked,
// so anything but a proper list of pairs is refused.
Value bi_wind_to(VM& vm, Value* a, int) {
  Value p = a[0];
  for (; is_cons(p); p = cdr(p))
    if (!is_cons(car(p))) type_error(vm, "%wind-to", "a list of (before . after) pairs", a[0]);
  if (!p.is_nil()) type_error(vm, "%wind-to", "a list of (before . after) pairs", a[0]);
  vm.set_winds(a[0]);
  return NIL;
}

// (gc): a full collection.
Value bi_gc(VM& vm, Value*, int) {
  // A full collection, now. The call is a safe point: this builtin holds no
  // Values, its arguments are on the VM stack, and the interpreter saved its
  // registers before the call and reloads them after every builtin.
  vm.collect_garbage();
  return NIL;
}

// The heap verifier, for tests: the list of problems found (nil: none).
Value bi_verify_heap(VM& vm, Value*, int) {
  Value r = NIL;
  for (const std::string& p : vm.heap().verify()) r = cons(vm, make_string_utf8(vm, p), r);
  return r;
}

// For tests that must scale their work down when every safe point collects.
Value bi_gc_stress(VM& vm, Value*, int) { return boolean(vm.heap().stress()); }

Value bi_bound(VM& vm, Value* a, int) {
  Value s = arg_symbol(vm, "bound", a[0]);
  if (s == NIL || s == T) return T;
  return boolean(global_value(s) != UNBOUND);
}

const BuiltinDef kDefs[] = {
    {"err", bi_err, 1, -1, "raise an error: msg, then the other args shown"},
    {"details", bi_details, 1, 1, "the message string of an exception"},
    {"%describe-error", bi_describe_error, 1, 1, "an exception's message and backtrace"},
    {"ccc", bi_ccc, 1, 1, "call f with the current continuation"},
    {"%captures", bi_captures, 0, 0, "the count of continuations captured so far"},
    {"apply", bi_apply, 1, -1, "(apply f a1 ... lst): call f with a1... and lst's elements"},
    {"%push-wind", bi_push_wind, 2, 2, "enter a dynamic-wind extent (before after)"},
    {"%pop-wind", bi_pop_wind, 0, 0, "leave the innermost dynamic-wind extent"},
    {"%wind-to", bi_wind_to, 1, 1, "make w the wind chain (a transfer's steps, %run-winds)"},
    {"gc", bi_gc, 0, 0, "force a full collection"},
    {"%verify-heap", bi_verify_heap, 0, 0, "run the heap verifier; list of problems"},
    {"%gc-stress", bi_gc_stress, 0, 0, "t if the heap collects at every safe point"},
    {"bound", bi_bound, 1, 1, "t if the global variable sym has a value"},
};

}  // namespace

void register_control_builtins(VM& vm) {
  define_builtins(vm, kDefs);
  // Room for the library's definitions (about 650) and a program's: the
  // table is not rebuilt nine times over as the library loads.
  vm.define("sig", make_table(vm, 1024));
}

}  // namespace vm
