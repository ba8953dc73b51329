// tests/unit/test_number.cpp — the numeric tower (vm/number.h) against
// docs/LANGUAGE.md 1.4, 2.6, 4.3 and 7.3: fixnum/bignum boundaries, rationals, float
// printing, parsing, rounding, mod, expt, sqrt, comparison and identity.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "gc/heap.h"
#include "support.h"
#include "vm/error.h"
#include "vm/number.h"
#include "vm/object.h"

using namespace vm;

namespace {

// The VM of the test binary's one runtime (tests/unit/support.h).
VM& setup() { return support::runtime().vm(); }

// A number from its text; fails the test if the text is not a number.
Value num(const char* text) {
  VM& vm = setup();
  std::optional<Value> v = parse_number(vm, text);
  INFO("parsing " << text);
  REQUIRE(v.has_value());
  return *v;
}

std::string str(Value v) { return number_to_string(setup(), v); }
Value fix(int64_t n) { return Value::fixnum(n); }
Value flo(double d) {
  VM& vm = setup();
  return make_flonum(vm, d);
}

// The message of the Arc error f raises ("" if none).
template <class F>
std::string error_of(F f) {
  return support::error_from(f);
}

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

}  // namespace

TEST_CASE("fixnum arithmetic overflows into bignums and comes back", "[number]") {
  VM& vm = setup();
  Value two61 = num_expt(vm, fix(2), fix(61));
  REQUIRE(two61.is_fixnum());
  Value big = num_mul(vm, two61, fix(4));  // 2^63
  CHECK(TYPE(big) == Kind::Bignum);
  CHECK(str(big) == "9223372036854775808");
  Value back = num_div(vm, big, fix(4));
  CHECK(back.is_fixnum());
  CHECK(back.as_fixnum() == int64_t(1) << 61);

  Value max = fix(Value::kFixMax), min = fix(Value::kFixMin);
  Value over = num_add(vm, max, fix(1));
  CHECK(TYPE(over) == Kind::Bignum);
  CHECK(str(over) == "4611686018427387904");
  CHECK(num_sub(vm, over, fix(1)) == max);
  CHECK(TYPE(num_sub(vm, min, fix(1))) == Kind::Bignum);
  CHECK(str(num_neg(vm, min)) == "4611686018427387904");
  CHECK(num_neg(vm, num_neg(vm, min)) == min);
  CHECK(str(num_mul(vm, min, fix(-1))) == "4611686018427387904");
  CHECK(num_add(vm, fix(-3), fix(5)) == fix(2));
  CHECK(num_sub(vm, fix(3), fix(5)) == fix(-2));
  CHECK(num_mul(vm, fix(-6), fix(7)) == fix(-42));
  // Bignum results that fit are fixnums again.
  Value b2 = num_add(vm, over, over);
  CHECK(num_sub(vm, b2, over) != max);
  CHECK(num_sub(vm, num_sub(vm, b2, over), over) == fix(0));
}

TEST_CASE("bignums print and parse round trip", "[number]") {
  VM& vm = setup();
  Value p = num_expt(vm, fix(2), fix(100));
  CHECK(str(p) == "1267650600228229401496703205376");
  Value q = num("1267650600228229401496703205376");
  CHECK(num_eqv(p, q));
  CHECK(num_hash(p) == num_hash(q));
  CHECK(str(num_neg(vm, p)) == "-1267650600228229401496703205376");
  CHECK(str(num("-1267650600228229401496703205376")) == "-1267650600228229401496703205376");
  CHECK(number_to_string(vm, p, 16) == "10000000000000000000000000");
  CHECK(number_to_string(vm, num("#x-ABCDEF0123456789abcdef"), 16) == "-abcdef0123456789abcdef");
  CHECK(number_to_string(vm, fix(255), 16) == "ff");
  CHECK(number_to_string(vm, fix(-5), 2) == "-101");
  CHECK(number_to_string(vm, fix(35), 36) == "z");
  CHECK(num("4611686018427387903").is_fixnum());
  CHECK(TYPE(num("4611686018427387904")) == Kind::Bignum);
  CHECK(num("-4611686018427387904").is_fixnum());
  CHECK(number_to_double(vm, p) == std::ldexp(1.0, 100));
}

TEST_CASE("rationals are normalised and print as n/d", "[number]") {
  VM& vm = setup();
  CHECK(str(num("2/4")) == "1/2");
  CHECK(num("4/2") == fix(2));
  CHECK(str(num("-6/4")) == "-3/2");
  CHECK(str(num_div(vm, fix(1), fix(3))) == "1/3");
  CHECK(num_div(vm, fix(6), fix(3)) == fix(2));
  CHECK(str(num_div(vm, fix(5), fix(-10))) == "-1/2");
  CHECK(num_add(vm, num("1/2"), num("1/2")) == fix(1));
  CHECK(str(num_add(vm, num("1/2"), num("1/3"))) == "5/6");
  CHECK(str(num_neg(vm, num("1/3"))) == "-1/3");
  CHECK(str(num_mul(vm, num("2/3"), num("3/4"))) == "1/2");
  CHECK(str(num_div(vm, fix(1), num("-2/3"))) == "-3/2");
  Value big = num_div(vm, num_expt(vm, fix(2), fix(100)), fix(3));
  CHECK(str(big) == "1267650600228229401496703205376/3");
  CHECK(str(num_mul(vm, big, fix(3))) == "1267650600228229401496703205376");
  CHECK(number_to_string(vm, num("-1/255"), 16) == "-1/ff");
  CHECK(num_eqv(num("1/2"), num("2/4")));
}

TEST_CASE("mixed exact and inexact arithmetic gives floats", "[number]") {
  VM& vm = setup();
  Value r = num_add(vm, fix(1), flo(2.0));
  CHECK(TYPE(r) == Kind::Flonum);
  CHECK(str(r) == "3.0");
  CHECK(str(num_add(vm, num("1/10"), flo(0.0))) == "0.1");  // correctly rounded
  CHECK(str(num_mul(vm, num("1/3"), flo(3.0))) == "1.0");
  CHECK(str(num_div(vm, flo(1.0), flo(0.0))) == "+inf.0");
  CHECK(str(num_div(vm, flo(-1.0), flo(0.0))) == "-inf.0");
  CHECK(str(num_div(vm, fix(1), flo(4.0))) == "0.25");
  CHECK(str(num_sub(vm, num_expt(vm, fix(2), fix(100)), flo(1.0))) == "1.2676506002282294e+30");
  CHECK(number_to_double(vm, num("1/3")) == 1.0 / 3.0);
  CHECK(number_to_double(vm, num("-2/3")) == -2.0 / 3.0);
  // 2^53 + 1 + 2^-20 lies just above a tie; truncating at 64 bits would make
  // it the tie itself and round to even (2^53) instead of up.
  Value above_tie = num_add(vm, num_add(vm, num_expt(vm, fix(2), fix(53)), fix(1)),
                            num_expt(vm, fix(2), fix(-20)));
  CHECK(number_to_double(vm, above_tie) == 9007199254740994.0);
  CHECK(number_to_double(vm, num_neg(vm, above_tie)) == -9007199254740994.0);
  CHECK(number_to_double(vm, num_add(vm, num_expt(vm, fix(2), fix(53)), fix(1))) ==
        9007199254740992.0);
}

TEST_CASE("arithmetic errors name the operation", "[number]") {
  VM& vm = setup();
  CHECK(starts_with(error_of([&vm] { num_add(vm, fix(1), NIL); }), "+: expected a number, got"));
  CHECK(starts_with(error_of([&vm] { num_mul(vm, T, fix(1)); }), "*: expected a number, got"));
  CHECK(starts_with(error_of([&vm] { num_div(vm, fix(1), fix(0)); }), "/: division by zero"));
  CHECK(starts_with(error_of([&vm] { num_div(vm, flo(1.5), fix(0)); }), "/: division by zero"));
  CHECK(starts_with(error_of([&vm] { num_div(vm, num("1/2"), fix(0)); }), "/: division by zero"));
  CHECK(starts_with(error_of([&vm] { num_mod(vm, fix(1), fix(0)); }), "mod: division by zero"));
  CHECK(starts_with(error_of([&vm] { num_mod(vm, flo(7.5), fix(2)); }),
                    "mod: argument 1 is 7.5; expected an integer"));
  CHECK(starts_with(error_of([&vm] { num_mod(vm, fix(7), flo(0.0)); }), "mod: division by zero"));
  CHECK(str(num_mod(vm, flo(7.0), fix(2))) == "1.0");  // integral floats, as Racket's modulo
  CHECK(str(num_mod(vm, flo(-7.0), fix(3))) == "2.0");
  CHECK(str(num_mod(vm, fix(7), flo(-3.0))) == "-2.0");
  CHECK(starts_with(error_of([&vm] { num_sqrt(vm, fix(-4)); }), "sqrt: negative argument"));
  CHECK(starts_with(error_of([&vm] { num_sqrt(vm, flo(-0.5)); }), "sqrt: negative argument"));
  CHECK(starts_with(error_of([&vm] { num_expt(vm, fix(0), fix(-1)); }), "expt: division by zero"));
  CHECK(starts_with(error_of([&vm] { num_trunc(vm, flo(INFINITY)); }), "trunc:"));
  CHECK(starts_with(error_of([&vm] { num_compare(vm, fix(1), NIL); }), "<: expected a number"));
}

TEST_CASE("floats print in shortest round-trip form", "[number]") {
  setup();
  CHECK(str(flo(1.5)) == "1.5");
  CHECK(str(flo(2.0)) == "2.0");
  CHECK(str(flo(0.5)) == "0.5");
  CHECK(str(flo(-0.0)) == "-0.0");
  CHECK(str(flo(0.0)) == "0.0");
  CHECK(str(flo(1e21)) == "1e+21");
  // Racket 8's choice of form: positional from 1e-4 up to 1e13, and up to
  // three zeros before the point beyond (docs/LANGUAGE.md 1.4).
  CHECK(str(flo(1e20)) == "1e+20");
  CHECK(str(flo(1e13)) == "10000000000000.0");
  CHECK(str(flo(1e14)) == "1e+14");
  CHECK(str(flo(12345678901234567e3)) == "12345678901234567000.0");
  CHECK(str(flo(12345678901234567e4)) == "1.2345678901234567e+20");
  CHECK(str(flo(1.2345e21)) == "1.2345e+21");
  CHECK(str(flo(1e-4)) == "0.0001");
  CHECK(str(flo(1.5e-5)) == "1.5e-5");
  CHECK(str(flo(1e-7)) == "1e-7");
  CHECK(str(flo(1.5e-8)) == "1.5e-8");
  CHECK(str(flo(1e-6)) == "1e-6");
  CHECK(str(flo(5e-324)) == "5e-324");
  // A tie between two shortest forms goes to the one greater in magnitude.
  CHECK(str(flo(1541340805628845.25)) == "1541340805628845.3");
  CHECK(str(flo(-201382685546994.625)) == "-201382685546994.63");
  CHECK(str(flo(-123.456)) == "-123.456");
  CHECK(str(flo(0.1 + 0.2)) == "0.30000000000000004");
  CHECK(str(flo(1e300)) == "1e+300");
  CHECK(str(flo(-2.5e-300)) == "-2.5e-300");
  CHECK(str(flo(HUGE_VAL)) == "+inf.0");
  CHECK(str(flo(-HUGE_VAL)) == "-inf.0");
  CHECK(str(flo(std::nan(""))) == "+nan.0");
  CHECK(str(flo(-std::nan(""))) == "+nan.0");
}

TEST_CASE("parse_number reads Arc number syntax", "[number]") {
  VM& vm = setup();
  CHECK(num("42") == fix(42));
  CHECK(num("-7") == fix(-7));
  CHECK(num("+7") == fix(7));
  CHECK(num("-0") == fix(0));
  CHECK(str(num("1.5")) == "1.5");
  CHECK(str(num(".5")) == "0.5");
  CHECK(str(num("-.5")) == "-0.5");
  CHECK(str(num("5.")) == "5.0");
  CHECK(str(num("1e3")) == "1000.0");
  CHECK(str(num("1E3")) == "1000.0");
  CHECK(str(num("-2.5e-3")) == "-0.0025");
  CHECK(str(num("1.5e+2")) == "150.0");
  CHECK(str(num("-0.0")) == "-0.0");
  CHECK(num("#x1f") == fix(31));
  CHECK(num("#X1F") == fix(31));
  CHECK(num("#o17") == fix(15));
  CHECK(num("#b101") == fix(5));
  CHECK(num("#d99") == fix(99));
  CHECK(num("#x-ff") == fix(-255));
  CHECK(str(num("#e1.5")) == "3/2");
  CHECK(str(num("#e1.1")) == "11/10");  // decimal, not the double's exact value
  CHECK(num("#e1e3") == fix(1000));
  CHECK(str(num("#e-2.5e-3")) == "-1/400");
  CHECK(str(num("#i1/2")) == "0.5");
  CHECK(str(num("#i5")) == "5.0");
  CHECK(str(num("#x#e1f")) == "31");
  CHECK(str(num("#i#x10")) == "16.0");
  CHECK(str(num("+inf.0")) == "+inf.0");
  CHECK(str(num("-inf.0")) == "-inf.0");
  CHECK(str(num("+nan.0")) == "+nan.0");
  CHECK(str(num("1e400")) == "+inf.0");
  CHECK(str(num("-1e400")) == "-inf.0");
  CHECK(str(num("1e-400")) == "0.0");
  CHECK(str(num("123456789012345678901234567890")) == "123456789012345678901234567890");
  CHECK(parse_number(vm, "ff", 16).value() == fix(255));
  CHECK(parse_number(vm, "z", 36).value() == fix(35));
}

TEST_CASE("a radix point and exponent in any radix, as Racket's string->number", "[number]") {
  VM& vm = setup();
  auto in = [&vm](const char* s, int radix) { return str(parse_number(vm, s, radix).value()); };
  CHECK(in("10.11", 2) == "2.75");
  CHECK(in("101E100", 2) == "80.0");  // the exponent's digits and base are the radix
  CHECK(in("10.11E1010", 2) == "2816.0");
  CHECK(in("1e-1", 2) == "0.5");
  CHECK(in("-.4", 8) == "-0.5");
  CHECK(in("1e1", 16) == "481");  // e is a hex digit
  CHECK(in("1.8", 16) == "1.5");
  CHECK(str(num("#x1.8")) == "1.5");
  CHECK(str(num("#e#b10.11")) == "11/4");
  CHECK(str(num("#b-0.0")) == "-0.0");
  CHECK(str(num("#b1e11111111111")) == "+inf.0");
  CHECK(str(num("#b1e-11111111111")) == "0.0");
  for (const char* s : {"1.2", "1e2", "1e", ".", "1..1", "1e1.1", "1/1.1"}) {
    INFO("text: '" << s << "'");
    CHECK_FALSE(parse_number(vm, s, 2).has_value());
  }
}

TEST_CASE("parse_number rejects what is not a number", "[number]") {
  VM& vm = setup();
  for (const char* s : {"",     "+",     "-",     ".",    "...", "+.",       "1+",  "a1",  "1/0",
                        "1/-2", "1/2.0", "1.2.3", "1e",   "1e+", "e3",       "#x",  "#xg", "#b102",
                        "#q1",  "#e#e1", "#x#o1", "1+2i", "+i",  "#e+inf.0", "inf", "nan", "1 2",
                        " 1",   "1_000", "#b1.2", "--1",  "+-1", "1/",       "/2",  "0x10"}) {
    INFO("text: '" << s << "'");
    CHECK_FALSE(parse_number(vm, s).has_value());
  }
}

TEST_CASE("num_round_even rounds half to even, to an exact integer", "[number]") {
  VM& vm = setup();
  CHECK(num_round_even(vm, flo(2.5)) == fix(2));
  CHECK(num_round_even(vm, flo(3.5)) == fix(4));
  CHECK(num_round_even(vm, flo(-2.5)) == fix(-2));
  CHECK(num_round_even(vm, flo(-3.5)) == fix(-4));
  CHECK(num_round_even(vm, flo(3.7)) == fix(4));
  CHECK(num_round_even(vm, flo(-3.7)) == fix(-4));
  CHECK(num_round_even(vm, flo(0.4)) == fix(0));
  CHECK(num_round_even(vm, num("5/2")) == fix(2));
  CHECK(num_round_even(vm, num("7/2")) == fix(4));
  CHECK(num_round_even(vm, num("-5/2")) == fix(-2));
  CHECK(num_round_even(vm, num("-7/2")) == fix(-4));
  CHECK(num_round_even(vm, num("1/3")) == fix(0));
  CHECK(num_round_even(vm, num("2/3")) == fix(1));
  CHECK(num_round_even(vm, num("-2/3")) == fix(-1));
  CHECK(num_round_even(vm, fix(9)) == fix(9));
  CHECK(str(num_round_even(vm, flo(1e30))) == "1000000000000000019884624838656");
}

TEST_CASE("trunc goes toward zero, to an exact integer", "[number]") {
  VM& vm = setup();
  CHECK(num_trunc(vm, flo(-3.7)) == fix(-3));
  CHECK(num_trunc(vm, flo(3.7)) == fix(3));
  CHECK(num_trunc(vm, num("7/2")) == fix(3));
  CHECK(num_trunc(vm, num("-7/2")) == fix(-3));
  CHECK(num_trunc(vm, fix(5)) == fix(5));
  CHECK(str(num_trunc(vm, flo(-1e20))) == "-100000000000000000000");
}

TEST_CASE("mod takes the sign of the divisor", "[number]") {
  VM& vm = setup();
  CHECK(num_mod(vm, fix(-7), fix(3)) == fix(2));
  CHECK(num_mod(vm, fix(7), fix(-3)) == fix(-2));
  CHECK(num_mod(vm, fix(7), fix(3)) == fix(1));
  CHECK(num_mod(vm, fix(-7), fix(-3)) == fix(-1));
  CHECK(num_mod(vm, fix(6), fix(3)) == fix(0));
  Value big = num_expt(vm, fix(10), fix(30));
  CHECK(num_mod(vm, big, fix(7)) == fix(1));  // 10^30 = 1 mod 7
  CHECK(num_mod(vm, num_neg(vm, big), fix(7)) == fix(6));
  CHECK(num_mod(vm, big, fix(-7)) == fix(-6));
  CHECK(num_mod(vm, fix(5), big) == fix(5));
}

TEST_CASE("expt is exact for exact integer exponents", "[number]") {
  VM& vm = setup();
  CHECK(str(num_expt(vm, fix(2), fix(100))) == "1267650600228229401496703205376");
  CHECK(str(num_expt(vm, fix(2), fix(-1))) == "1/2");
  CHECK(str(num_expt(vm, fix(-2), fix(-3))) == "-1/8");
  CHECK(str(num_expt(vm, num("2/3"), fix(2))) == "4/9");
  CHECK(str(num_expt(vm, num("2/3"), fix(-2))) == "9/4");
  CHECK(num_expt(vm, fix(7), fix(0)) == fix(1));
  CHECK(num_expt(vm, fix(0), fix(0)) == fix(1));
  CHECK(num_expt(vm, fix(0), fix(5)) == fix(0));
  CHECK(num_expt(vm, fix(-1), num_expt(vm, fix(2), fix(70))) == fix(1));
  CHECK(num_expt(vm, fix(-1), num_add(vm, num_expt(vm, fix(2), fix(70)), fix(1))) == fix(-1));
  CHECK(str(num_expt(vm, flo(2.0), fix(3))) == "8.0");
  CHECK(str(num_expt(vm, fix(4), num("1/2"))) == "2.0");
  CHECK(str(num_expt(vm, fix(2), flo(0.5))) == "1.4142135623730951");
}

TEST_CASE("sqrt is exact for exact perfect squares", "[number]") {
  VM& vm = setup();
  CHECK(num_sqrt(vm, fix(16)) == fix(4));
  CHECK(num_sqrt(vm, fix(0)) == fix(0));
  CHECK(str(num_sqrt(vm, num("1/4"))) == "1/2");
  CHECK(str(num_sqrt(vm, num("9/4"))) == "3/2");
  CHECK(str(num_sqrt(vm, fix(2))) == "1.4142135623730951");
  CHECK(str(num_sqrt(vm, num("1/2"))) == "0.7071067811865476");
  CHECK(str(num_sqrt(vm, flo(16.0))) == "4.0");
  CHECK(str(num_sqrt(vm, num_expt(vm, fix(2), fix(200)))) == "1267650600228229401496703205376");
  // A non-square far past the double range still has a finite root.
  CHECK(str(num_sqrt(vm, num_expt(vm, fix(10), fix(401)))) == "3.1622776601683794e+200");
}

TEST_CASE("num_eqv is value and exactness; num_hash agrees", "[number]") {
  VM& vm = setup();
  CHECK_FALSE(num_eqv(fix(1), flo(1.0)));
  CHECK(num_eqv(flo(2.0), flo(2.0)));
  CHECK_FALSE(num_eqv(flo(0.0), flo(-0.0)));
  CHECK(num_eqv(flo(std::nan("")), flo(std::nan(""))));
  Value a = num("123456789012345678901234567890");
  Value b = num_add(vm, num("123456789012345678901234567889"), fix(1));
  CHECK(a != b);  // two objects
  CHECK(num_eqv(a, b));
  CHECK(num_hash(a) == num_hash(b));
  CHECK_FALSE(num_eqv(a, num_neg(vm, a)));
  CHECK(num_hash(flo(2.5)) == num_hash(flo(2.5)));
  CHECK(num_hash(num("1/3")) == num_hash(num_div(vm, fix(2), fix(6))));
  CHECK_FALSE(num_eqv(num("1/3"), num("1/4")));
}

TEST_CASE("num_compare orders reals exactly", "[number]") {
  VM& vm = setup();
  CHECK(num_compare(vm, fix(1), fix(2)) < 0);
  CHECK(num_compare(vm, fix(2), fix(2)) == 0);
  CHECK(num_compare(vm, fix(1), flo(1.0)) == 0);
  CHECK(num_lt(vm, fix(1), flo(1.5)));
  CHECK(num_lt(vm, num("1/3"), flo(0.34)));
  CHECK(num_lt(vm, num_neg(vm, num_expt(vm, fix(2), fix(100))), fix(0)));
  CHECK(num_compare(vm, num_expt(vm, fix(2), fix(100)), flo(HUGE_VAL)) < 0);
  CHECK(num_compare(vm, flo(-HUGE_VAL), num_neg(vm, num_expt(vm, fix(2), fix(100)))) < 0);
  // 2^53 + 1 is not equal to the float 2^53, though it converts to it.
  Value p53 = num_add(vm, num_expt(vm, fix(2), fix(53)), fix(1));
  CHECK(num_compare(vm, p53, flo(9007199254740992.0)) > 0);
  Value nan = flo(std::nan(""));
  CHECK_FALSE(num_lt(vm, nan, fix(1)));
  CHECK_FALSE(num_lt(vm, fix(1), nan));
}
