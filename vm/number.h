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

Value make_integer(int64_t n);            // fixnum or bignum
Value make_integer(const mpz_t z);        // normalised
void integer_to_mpz(Value v, mpz_t out);  // v a fixnum or bignum; out initialised by caller
Value make_rational(const mpq_t q);       // normalised (may give an integer)
double number_to_double(Value v);         // any real number
// v as a double if it is a number, else dflt (a setting read from a global).
inline double number_or(Value v, double dflt) { return is_number(v) ? number_to_double(v) : dflt; }

Value num_add(Value a, Value b);
Value num_sub(Value a, Value b);
Value num_mul(Value a, Value b);
Value num_div(Value a, Value b);  // "/" ; exact division by 0 errors
Value num_neg(Value a);
Value num_mod(Value a, Value b);  // integers (integral floats too); sign of b
Value num_expt(Value a, Value b);
Value num_sqrt(Value a);
Value num_trunc(Value a);           // exact integer toward zero
Value num_round_even(Value a);      // exact integer, ties to even (coerce to int)
int num_compare(Value a, Value b);  // <0,0,>0; errors on non-reals; NaN compares unordered as >
bool num_lt(Value a, Value b);      // false if either is NaN
bool num_eqv(Value a, Value b);     // `is` on numbers: same value and exactness
uint64_t num_hash(Value a);         // consistent with num_eqv
uint64_t fixnum_hash(Value a);      // num_hash of a known fixnum

// The text of a number as Arc prints it (radix 2..36 for exact numbers).
std::string number_to_string(Value v, int radix = 10);
// The same appended to out: an integer's digits are formatted in place (a
// fixnum's in a stack buffer), as the printer writes numbers to a port.
void append_number(std::string& out, Value v, int radix = 10);
// Parses Arc number syntax (docs/LANGUAGE.md 2.6), or nullopt if the text is not a number.
std::optional<Value> parse_number(std::string_view text, int radix = 10);

}  // namespace vm
