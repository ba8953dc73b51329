// vm/number.h — the numeric tower: fixnum, bignum (GMP), exact rational
// (GMP), flonum. Results are normalised: an integer that fits is a fixnum, a
// rational with denominator 1 is an integer. Mixed exact/inexact gives a
// flonum. Errors (non-numbers, division by exact zero) are Arc errors naming
// the operation.
#pragma once
#include <gmp.h>

#include <optional>
#include <string>
#include <string_view>

#include "vm/object.h"

namespace vm {

Value make_integer(VM& vm, int64_t n);       // fixnum or bignum
Value make_integer(VM& vm, const mpz_t z);   // normalised
void integer_to_mpz(Value v, mpz_t out);     // v a fixnum or bignum; out initialised by caller
Value make_rational(VM& vm, const mpq_t q);  // normalised (may give an integer)
double number_to_double(VM& vm, Value v);    // any real number
// v as a double if it is a number, else dflt (a setting read from a global).
inline double number_or(VM& vm, Value v, double dflt) {
  return is_number(v) ? number_to_double(vm, v) : dflt;
}

Value num_add(VM& vm, Value a, Value b);
Value num_sub(VM& vm, Value a, Value b);
Value num_mul(VM& vm, Value a, Value b);
Value num_div(VM& vm, Value a, Value b);  // "/" ; exact division by 0 errors
Value num_neg(VM& vm, Value a);
Value num_mod(VM& vm, Value a, Value b);  // integers (integral floats too); sign of b
Value num_expt(VM& vm, Value a, Value b);
Value num_sqrt(VM& vm, Value a);
Value num_trunc(VM& vm, Value a);       // exact integer toward zero
Value num_round_even(VM& vm, Value a);  // exact integer, ties to even (coerce to int)
int num_compare(VM& vm, Value a,
                Value b);               // <0,0,>0; errors on non-reals; NaN compares unordered as >
bool num_lt(VM& vm, Value a, Value b);  // false if either is NaN
bool num_eqv(Value a, Value b);         // `is` on numbers: same value and exactness
uint64_t num_hash(Value a);             // consistent with num_eqv
uint64_t fixnum_hash(Value a);          // num_hash of a known fixnum

// The text of a number as Arc prints it (radix 2..36 for exact numbers).
std::string number_to_string(VM& vm, Value v, int radix = 10);
// The same appended to out: an integer's digits are formatted in place (a
// fixnum's in a stack buffer), as the printer writes numbers to a port.
void append_number(VM& vm, std::string& out, Value v, int radix = 10);
// Parses Arc number syntax (docs/LANGUAGE.md 2.6), or nullopt if the text is not a number.
std::optional<Value> parse_number(VM& vm, std::string_view text, int radix = 10);

}  // namespace vm
