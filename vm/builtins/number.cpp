// vm/builtins/number.cpp — the arithmetic builtins of docs/LANGUAGE.md 4.3: + - * /
// mod expt sqrt trunc exact rand and the float functions. The tower itself is
// vm/number.cpp; this file checks arguments and folds over them.
//
// `+` is also Arc's string and list concatenation, decided by its first
// argument alone (docs/LANGUAGE.md 7.3 item 15). No builtin here reaches a safe point,
// so the Values they hold need no rooting (gc/heap.h rule 1).
#include "vm/number.h"

#include <cmath>
#include <numbers>
#include <random>
#include <string>

#include "vm/builtins.h"
#include "vm/coerce.h"
#include "vm/error.h"
#include "vm/string.h"
#include "vm/vm.h"

namespace vm {

namespace {

// ---- errors that name the argument ----
// The arithmetic builtins take any number of arguments alike, so an error
// says which one, by position, and shows it: in (+ (tbl 'k) 1) the culprit
// is the nil a missing key gave, which "expected a number, got 1" hid.

constexpr const char* kAddKinds =
    "; + adds numbers, joins strings or appends lists, as its first argument chooses";

// Argument i does not fit what the first argument made + do.
[[noreturn]] void add_mismatch(VM& vm, Value* args, int i) {
  arg_error(vm, "+", i + 1, args[i],
            " but argument 1 is " + irritant_form(vm, args[0]) + kAddKinds);
}

void check_numbers(VM& vm, const char* fn, Value* args, int nargs) {
  for (int i = 0; i < nargs; ++i)
    if (!is_number(args[i])) arg_error(vm, fn, i + 1, args[i], "; expected a number");
}

// ---- + as concatenation ----

Value concat_strings(VM& vm, Value* args, int nargs) {
  std::u32string out;
  for (int i = 0; i < nargs; ++i) append_as_string(vm, out, args[i]);
  return make_string_u32(vm, out);
}

// A fresh copy of every list, as Arc 3.1 makes one. Only the last list may
// end in a dotted tail, which is kept. fn: the builtin, + or join, whose
// errors these are.
Value append_lists(VM& vm, Value* args, int nargs, const char* fn = "+") {
  Value head = NIL;
  Cons* tail = nullptr;
  for (int i = 0; i < nargs; ++i) {
    Value p = args[i];
    if (!is_list(p)) {
      if (fn[0] == '+') add_mismatch(vm, args, i);
      arg_error(vm, fn, i + 1, p, "; expected a list");
    }
    for (; is_cons(p); p = cdr(p)) {
      Value c = cons(vm, car(p), NIL);
      if (tail) set(vm, tail, &tail->cdr, c);
      else head = c;
      tail = c.as<Cons>();
    }
    if (!p.is_nil() && i < nargs - 1)
      arg_error(vm, fn, i + 1, args[i],
                "; expected a proper list (only the last may end in a dotted tail)");
    if (!p.is_nil()) {
      if (tail) set(vm, tail, &tail->cdr, p);
      else head = p;
    }
  }
  return head;
}

// ---- arithmetic ----

Value add(VM& vm, Value* args, int nargs) {
  if (nargs == 0) return Value::fixnum(0);
  Kind k = TYPE(args[0]);
  if (k == Kind::String || k == Kind::Char) return concat_strings(vm, args, nargs);
  if (k == Kind::Cons || k == Kind::Nil) return append_lists(vm, args, nargs);
  if (!is_number(args[0])) arg_error(vm, "+", 1, args[0], "; expected a number, string or list");
  Value acc = args[0];
  for (int i = 1; i < nargs; ++i) {
    if (!is_number(args[i])) add_mismatch(vm, args, i);
    acc = num_add(vm, acc, args[i]);
  }
  return acc;
}

// (join . lists): the lists appended, as (+ nil . lists) does, with errors
// of its own name; a builtin since list programs join in their inner loops
// (a check in Arc of each argument first cost nqueens a sixth of its time).
Value join(VM& vm, Value* args, int nargs) { return append_lists(vm, args, nargs, "join"); }

// (string . xs): xs coerced to strings and joined, as (+ "" . xs) is in
// Arc 3.1's arc.arc; a builtin since pages build ids and urls with it.
Value string_of(VM& vm, Value* args, int nargs) { return concat_strings(vm, args, nargs); }

Value sub(VM& vm, Value* args, int nargs) {
  check_numbers(vm, "-", args, nargs);
  if (nargs == 1) return num_neg(vm, args[0]);
  Value acc = args[0];
  for (int i = 1; i < nargs; ++i) acc = num_sub(vm, acc, args[i]);
  return acc;
}

Value mul(VM& vm, Value* args, int nargs) {
  check_numbers(vm, "*", args, nargs);
  if (nargs == 0) return Value::fixnum(1);
  Value acc = args[0];
  for (int i = 1; i < nargs; ++i) acc = num_mul(vm, acc, args[i]);
  return acc;
}

Value divide(VM& vm, Value* args, int nargs) {
  check_numbers(vm, "/", args, nargs);
  if (nargs == 1) return num_div(vm, Value::fixnum(1), args[0]);
  Value acc = args[0];
  for (int i = 1; i < nargs; ++i) acc = num_div(vm, acc, args[i]);
  return acc;
}

Value mod(VM& vm, Value* args, int) { return num_mod(vm, args[0], args[1]); }
Value expt(VM& vm, Value* args, int) {
  check_numbers(vm, "expt", args, 2);
  return num_expt(vm, args[0], args[1]);
}
Value sqrt_(VM& vm, Value* args, int) { return num_sqrt(vm, args[0]); }
Value trunc_(VM& vm, Value* args, int) { return num_trunc(vm, args[0]); }
Value exact(VM&, Value* args, int) { return boolean(is_integer(args[0])); }

// ---- rand ----

std::mt19937_64& rng() {
  static std::mt19937_64 g{std::random_device{}()};
  return g;
}

// Bignum bounds draw from GMP's generator, seeded once from ours.
Value rand_big(VM& vm, Value n) {
  // Process-wide, as rng() is: one random stream per process.
  static gmp_randstate_t state;
  static bool seeded = false;
  if (!seeded) {
    gmp_randinit_default(state);
    gmp_randseed_ui(state, static_cast<unsigned long>(rng()()));
    seeded = true;
  }
  mpz_t bound, r;
  mpz_inits(bound, r, nullptr);
  integer_to_mpz(n, bound);
  mpz_urandomm(r, state, bound);
  Value v = make_integer(vm, r);
  mpz_clears(bound, r, nullptr);
  return v;
}

Value rand_(VM& vm, Value* args, int nargs) {
  if (nargs == 0) return make_flonum(vm, double(rng()() >> 11) * 0x1p-53);  // 53 random bits
  Value n = args[0];
  if (!is_integer(n) || num_compare(vm, n, Value::fixnum(0)) <= 0)
    type_error(vm, "rand", "a positive integer", n);
  if (!n.is_fixnum()) return rand_big(vm, n);
  std::uniform_int_distribution<int64_t> dist(0, n.as_fixnum() - 1);
  return Value::fixnum(dist(rng()));
}

// ---- floating-point functions ----
// We have no complex numbers, so where the host would answer one (asin 2,
// log -1) these raise an error instead.

double real_arg(VM& vm, const char* fn, Value v) {
  return number_to_double(vm, arg_number(vm, fn, v));
}

Value flo_unary(VM& vm, const char* fn, double (*f)(double), Value v) {
  return make_flonum(vm, f(real_arg(vm, fn, v)));
}

Value in_unit_range(VM& vm, const char* fn, double (*f)(double), Value v) {
  double x = real_arg(vm, fn, v);
  if (x < -1 || x > 1) throw_error(vm, std::string(fn) + ": argument outside [-1, 1]", {v});
  return make_flonum(vm, f(x));
}

Value sin_(VM& vm, Value* args, int) { return flo_unary(vm, "sin", std::sin, args[0]); }
Value cos_(VM& vm, Value* args, int) { return flo_unary(vm, "cos", std::cos, args[0]); }
Value tan_(VM& vm, Value* args, int) { return flo_unary(vm, "tan", std::tan, args[0]); }
Value asin_(VM& vm, Value* args, int) { return in_unit_range(vm, "asin", std::asin, args[0]); }
Value acos_(VM& vm, Value* args, int) { return in_unit_range(vm, "acos", std::acos, args[0]); }

Value atan_(VM& vm, Value* args, int nargs) {
  double y = real_arg(vm, "atan", args[0]);
  if (nargs == 1) return make_flonum(vm, std::atan(y));
  return make_flonum(vm, std::atan2(y, real_arg(vm, "atan", args[1])));
}

// A bignum past the double range still has a finite logarithm: take it from
// mantissa and binary exponent.
Value log_(VM& vm, Value* args, int) {
  Value v = arg_number(vm, "log", args[0]);
  if (num_lt(vm, v, Value::fixnum(0))) throw_error(vm, "log: negative argument", {v});
  if (TYPE(v) != Kind::Bignum) return make_flonum(vm, std::log(number_to_double(vm, v)));
  mpz_t z;
  mpz_init(z);
  integer_to_mpz(v, z);
  long exp2;
  double m = mpz_get_d_2exp(&exp2, z);
  mpz_clear(z);
  return make_flonum(vm, std::log(m) + double(exp2) * std::numbers::ln2);
}

const BuiltinDef kNumberBuiltins[] = {
    {"+", add, 0, -1, "sum; or concatenation of strings or lists, chosen by the first argument"},
    {"string", string_of, 0, -1, "the arguments coerced to strings, joined"},
    {"join", join, 0, -1, "the lists appended: a fresh list (the last's dotted tail kept)"},
    {"-", sub, 1, -1, "difference; with one argument, its negation"},
    {"*", mul, 0, -1, "product"},
    {"/", divide, 1, -1, "quotient, exact for exact arguments; with one argument, its reciprocal"},
    {"mod", mod, 2, 2, "integer modulo, with the sign of the divisor"},
    {"expt", expt, 2, 2, "power; exact for an exact base and integer exponent"},
    {"sqrt", sqrt_, 1, 1, "square root; exact for exact perfect squares"},
    {"trunc", trunc_, 1, 1, "truncation toward zero, as an exact integer"},
    {"exact", exact, 1, 1, "t if the argument is an exact integer"},
    {"rand", rand_, 0, 1, "a float in [0,1), or an integer in [0,n)"},
    {"sin", sin_, 1, 1, "sine (radians)"},
    {"cos", cos_, 1, 1, "cosine (radians)"},
    {"tan", tan_, 1, 1, "tangent (radians)"},
    {"asin", asin_, 1, 1, "arcsine"},
    {"acos", acos_, 1, 1, "arccosine"},
    {"atan", atan_, 1, 2, "arctangent; (atan y x) uses both signs for the quadrant"},
    {"log", log_, 1, 1, "natural logarithm"},
};

}  // namespace

void register_number_builtins(VM& vm) { define_builtins(vm, kNumberBuiltins); }

}  // namespace vm
