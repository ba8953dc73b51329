// vm/number.cpp — the numeric tower of vm/number.h: arithmetic, comparison,
// hashing, printing and parsing of fixnums, bignums, exact rationals and
// flonums.
//
// Invariants every function here keeps (and may rely on in its arguments):
//  - an integer in the fixnum range is a fixnum, never a Bignum;
//  - a Ratnum is in lowest terms with den > 1, its parts normalised integers.
// So two exact numbers of different kinds are never equal, and a result is
// normalised by building it through make_integer / rational_from.
//
// Bignums are read in place through mpz_roinit_n views (IntView). That is safe
// because allocation never collects (gc/heap.h rule 1): no object moves or dies
// while a number operation runs.
#include "vm/number.h"

#include <charconv>
#include <cmath>
#include <cstring>

#include "vm/error.h"
#include "vm/vm.h"

namespace vm {
namespace {

// RAII owners, so an Arc error thrown mid-computation frees GMP memory.
struct Z {
  mpz_t z;
  Z() { mpz_init(z); }
  ~Z() { mpz_clear(z); }
  Z(const Z&) = delete;
  operator mpz_ptr() { return z; }
  __mpz_struct* operator->() { return z; }  // for GMP's macros
};
struct Q {
  mpq_t q;
  Q() { mpq_init(q); }
  ~Q() { mpq_clear(q); }
  Q(const Q&) = delete;
  operator mpq_ptr() { return q; }
};

// A read-only mpz of an integer Value with no copying and no allocation: a
// bignum's limbs are used where they lie, a fixnum's magnitude fits one limb.
class IntView {
 public:
  explicit IntView(Value v) {
    if (v.is_fixnum()) {
      int64_t n = v.as_fixnum();
      limb_ = n < 0 ? 0 - uint64_t(n) : uint64_t(n);
      ptr_ = mpz_roinit_n(view_, &limb_, n < 0 ? -1 : n > 0 ? 1 : 0);
    } else {
      Bignum* b = v.as<Bignum>();
      ptr_ = mpz_roinit_n(view_, b->limbs, b->size);
    }
  }
  IntView(const IntView&) = delete;
  operator mpz_srcptr() const { return ptr_; }
  // GMP's macros (mpz_sgn, mpz_odd_p) dereference their argument with ->.
  const __mpz_struct* operator->() const { return ptr_; }

 private:
  mpz_t view_;
  mp_limb_t limb_;
  mpz_srcptr ptr_;
};
static_assert(sizeof(mp_limb_t) == sizeof(uint64_t));

// Where a number sits in the tower; the higher rank wins a mixed operation.
enum Rank { kFix, kBig, kRat, kFlo };

Rank rank(VM& vm, const char* op, Value v) {
  switch (TYPE(v)) {
    case Kind::Fixnum: return kFix;
    case Kind::Bignum: return kBig;
    case Kind::Ratnum: return kRat;
    case Kind::Flonum: return kFlo;
    default: type_error(vm, op, "a number", v);
  }
}

double flo(Value v) { return flonum_value(v); }
Value rat_num(Value v) { return v.as<Ratnum>()->num; }
Value rat_den(Value v) { return v.as<Ratnum>()->den; }
bool is_exact_zero(Value v) { return v == Value::fixnum(0); }

// Sign of an exact number (a Ratnum's sign is its numerator's).
int exact_sign(Value v) {
  if (TYPE(v) == Kind::Ratnum) v = rat_num(v);
  if (v.is_fixnum()) return (v.as_fixnum() > 0) - (v.as_fixnum() < 0);
  return mpz_sgn(IntView(v));
}

// q must already be canonical (every mpq operation leaves it so).
Value rational_from(VM& vm, mpq_srcptr q) {
  if (mpz_cmp_ui(mpq_denref(q), 1) == 0) return make_integer(vm, mpq_numref(q));
  Value num = make_integer(vm, mpq_numref(q));
  Value den = make_integer(vm, mpq_denref(q));
  Ratnum* r = alloc<Ratnum>(vm, Kind::Ratnum);
  r->num = num;
  r->den = den;
  return Value::ref(r);
}

// Any exact number, or a finite flonum (exactly), as an mpq.
void to_mpq(Value v, mpq_ptr out) {
  switch (TYPE(v)) {
    case Kind::Fixnum: mpq_set_si(out, v.as_fixnum(), 1); break;
    case Kind::Bignum: mpq_set_z(out, IntView(v)); break;
    case Kind::Flonum: mpq_set_d(out, flo(v)); break;
    default: mpq_set_num(out, IntView(rat_num(v))); mpq_set_den(out, IntView(rat_den(v)));
  }
}

// p/q (q > 0) correctly rounded: scale so the quotient has 63 or 64 bits,
// fold a nonzero remainder into its lowest bit (a sticky bit far below the
// 53-bit rounding point), and let the one uint64 -> double conversion round.
// GMP's own mpz_get_d / mpq_get_d truncate, which would make (+ 1/10 0.0)
// print 0.09999999999999999. Results in the subnormal range may round twice.
double ratio_to_double(mpz_srcptr p, mpz_srcptr q) {
  if (mpz_sgn(p) == 0) return 0.0;
  long shift = 63 - (long(mpz_sizeinbase(p, 2)) - long(mpz_sizeinbase(q, 2)));
  Z n, d, quo, rem;
  mpz_abs(n, p);
  mpz_set(d, q);
  if (shift > 0) mpz_mul_2exp(n, n, shift);
  else mpz_mul_2exp(d, d, -shift);
  mpz_tdiv_qr(quo, rem, n, d);
  uint64_t bits = mpz_get_ui(quo) | (mpz_sgn(rem) != 0);
  double r = std::ldexp(double(bits), int(-shift));
  return mpz_sgn(p) < 0 ? -r : r;
}

// An integral double as an exact integer; op names the caller in the error.
Value exact_from_integral(VM& vm, const char* op, double d) {
  if (!std::isfinite(d))
    throw_error(vm, std::string(op) + ": no exact representation for", {make_flonum(vm, d)});
  if (std::fabs(d) < 0x1p62) return Value::fixnum(int64_t(d));
  Z z;
  mpz_set_d(z, d);
  return make_integer(vm, z);
}

// ---- the four operations, beyond the fixnum fast paths ----

struct ArithOp {
  const char* name;
  double (*flo)(double, double);
  void (*z)(mpz_ptr, mpz_srcptr, mpz_srcptr);  // null: exact results go through mpq
  void (*q)(mpq_ptr, mpq_srcptr, mpq_srcptr);
};
const ArithOp kAdd{"+", [](double x, double y) { return x + y; }, mpz_add, mpq_add};
const ArithOp kSub{"-", [](double x, double y) { return x - y; }, mpz_sub, mpq_sub};
const ArithOp kMul{"*", [](double x, double y) { return x * y; }, mpz_mul, mpq_mul};
const ArithOp kDiv{"/", [](double x, double y) { return x / y; }, nullptr, mpq_div};

Value arith(VM& vm, const ArithOp& op, Value a, Value b) {
  // Flonums in the word (and small fixnums with them) need no ranking: the
  // case of n-ary and applied float arithmetic, which the interpreter's
  // two-operand fast paths do not see.
  if (double x, y; float_operands(a, b, &x, &y) && !(&op == &kDiv && is_exact_zero(b)))
    return make_flonum(vm, op.flo(x, y));
  Rank ra = rank(vm, op.name, a), rb = rank(vm, op.name, b);
  // Arc 3.1's text, without operands: programs match it (docs/LANGUAGE.md 4.13).
  if (&op == &kDiv && is_exact_zero(b)) throw_error(vm, "/: division by zero");
  if (ra == kFlo || rb == kFlo)
    return make_flonum(vm, op.flo(number_to_double(vm, a), number_to_double(vm, b)));
  if (ra == kRat || rb == kRat || !op.z) {
    Q x, y, r;
    to_mpq(a, x);
    to_mpq(b, y);
    op.q(r, x, y);
    return rational_from(vm, r);
  }
  Z r;
  op.z(r, IntView(a), IntView(b));
  return make_integer(vm, r);
}

// ---- powers and roots ----

// Refuse powers whose result would take more than this many bits, rather
// than let GMP abort the process on a runaway (expt 2 (expt 10 12)).
constexpr double kMaxPowerBits = double(1u << 30);

size_t exact_bits(Value v) {
  if (TYPE(v) != Kind::Ratnum) return mpz_sizeinbase(IntView(v), 2);
  return std::max(mpz_sizeinbase(IntView(rat_num(v)), 2), mpz_sizeinbase(IntView(rat_den(v)), 2));
}

// base exact, e an exact integer.
Value exact_expt(VM& vm, Value base, Value e) {
  int es = exact_sign(e);
  if (is_exact_zero(base)) {
    if (es < 0) throw_error(vm, "expt: division by zero", {base, e});
    return Value::fixnum(es == 0 ? 1 : 0);
  }
  if (base == Value::fixnum(1)) return base;
  if (base == Value::fixnum(-1)) return Value::fixnum(mpz_odd_p(IntView(e)) ? -1 : 1);
  if (!e.is_fixnum() || double(exact_bits(base)) * std::fabs(double(e.as_fixnum())) > kMaxPowerBits)
    throw_error(vm, "expt: result too large", {base, e});
  unsigned long m = static_cast<unsigned long>(std::abs(e.as_fixnum()));
  Q q;
  to_mpq(base, q);
  // Powers of coprime numerator and denominator stay coprime: no canonicalise.
  mpz_pow_ui(mpq_numref(q.q), mpq_numref(q.q), m);
  mpz_pow_ui(mpq_denref(q.q), mpq_denref(q.q), m);
  if (es < 0) mpq_inv(q, q);
  return rational_from(vm, q);
}

// The exact root of a non-negative integer if it is a perfect square.
bool exact_isqrt(VM& vm, Value v, Value* out) {
  IntView z(v);
  if (!mpz_perfect_square_p(z)) return false;
  Z r;
  mpz_sqrt(r, z);
  *out = make_integer(vm, r);
  return true;
}

// sqrt of a non-square non-negative integer as a double. Past 2^106 the
// integer square root is exact to well under an ulp and cannot overflow the
// way converting the argument to double first would.
double inexact_isqrt(VM& vm, Value v) {
  IntView z(v);
  if (mpz_sizeinbase(z, 2) <= 106) return std::sqrt(number_to_double(vm, v));
  Z r;
  mpz_sqrt(r, z);
  return ratio_to_double(r, IntView(Value::fixnum(1)));
}

// ---- printing ----

// GMP writes a bignum's digits into room made at the end of out (its size
// in the radix, which may be one too many, and the sign and the NUL).
void append_integer(std::string& out, Value v, int radix) {
  if (v.is_fixnum()) {
    char buf[72];  // 64 binary digits and a sign
    auto res = std::to_chars(buf, buf + sizeof buf, v.as_fixnum(), radix);
    out.append(buf, res.ptr);
    return;
  }
  IntView z(v);
  size_t at = out.size();
  out.resize(at + mpz_sizeinbase(z, radix) + 2);
  mpz_get_str(&out[at], radix, z);
  out.resize(at + std::strlen(&out[at]));
}

// Whether mag is exactly halfway between the decimals digits * 10^-k and
// (digits + 1) * 10^-k, that is (2 digits + 1) / (2^(k+1) 5^k). Only there can
// two shortest forms be equally near; to_chars then takes the even last
// digit, Racket's printer the upper one.
bool halfway_above(double mag, uint64_t digits, int k) {
  // With k <= 0 mag would be an odd integer or a half-integer, too far from
  // both neighbours for them to read back as it.
  if (k <= 0) return false;
  uint64_t odd = 2 * digits + 1;
  for (int i = 0; i < k; ++i) {
    if (odd % 5 != 0) return false;
    odd /= 5;
  }
  return odd < (uint64_t(1) << 53) && std::ldexp(double(odd), -(k + 1)) == mag;
}

// A flonum as Racket 8 CS writes it, and so Arc 3.1 (docs/LANGUAGE.md 1.4):
// the shortest digits that read back (to_chars' shortest form, but for the
// last digit of a tie), positional while the decimal exponent e of the first
// digit is in -4..max(13, n+2) for n digits, else d.ddde+N / d.ddde-N
// ("1e+20", "1.5e-7"). A stack buffer and no allocation: pages print numbers.
void append_flonum(std::string& out, double d) {
  if (std::isnan(d) || std::isinf(d)) {
    out += std::isnan(d) ? "+nan.0" : d > 0 ? "+inf.0" : "-inf.0";
    return;
  }
  char sci[40];  // "-d.dddddddddddddddde-ddd"
  char* end = std::to_chars(sci, sci + sizeof sci, d, std::chars_format::scientific).ptr;
  const char* p = sci;
  if (*p == '-') out += *p++;
  char digits[20];  // 17 significant digits at most
  int n = 0;
  for (; *p != 'e'; ++p)
    if (*p != '.') digits[n++] = *p;
  int e = 0;
  std::from_chars(p + (p[1] == '+' ? 2 : 1), end, e);
  // Ties need 16 or 17 digits (fewer are too far apart to read back alike).
  if (n >= 16 && (digits[n - 1] - '0') % 2 == 0) {
    uint64_t whole = 0;
    for (int i = 0; i < n; ++i) whole = whole * 10 + uint64_t(digits[i] - '0');
    if (halfway_above(std::fabs(d), whole, n - 1 - e)) ++digits[n - 1];  // even, so no carry
  }
  if (e < -4 || e > std::max(13, n + 2)) {
    out += digits[0];
    if (n > 1) out.append(".").append(digits + 1, size_t(n - 1));
    out += 'e';
    if (e > 0) out += '+';
    char exp[8];
    out.append(exp, std::to_chars(exp, exp + sizeof exp, e).ptr);
  } else if (e < 0) {
    out.append("0.").append(size_t(-e - 1), '0').append(digits, size_t(n));
  } else if (e >= n - 1) {
    out.append(digits, size_t(n)).append(size_t(e - (n - 1)), '0').append(".0");
  } else {
    out.append(digits, size_t(e + 1)).append(".").append(digits + e + 1, size_t(n - e - 1));
  }
}

// ---- parsing ----

int digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'z') return c - 'a' + 10;
  if (c >= 'A' && c <= 'Z') return c - 'A' + 10;
  return 99;
}

bool all_digits(std::string_view s, int radix) {
  if (s.empty()) return false;
  for (char c : s)
    if (digit_value(c) >= radix) return false;
  return true;
}

enum class Exactness { Default, Exact, Inexact };

// Reads "#e" "#i" "#x" "#o" "#b" "#d" prefixes (each kind at most once).
bool read_prefixes(std::string_view& s, int& radix, Exactness& ex) {
  bool radix_seen = false;
  while (s.size() >= 2 && s[0] == '#') {
    char c = char(std::tolower(static_cast<unsigned char>(s[1])));
    if (c == 'e' || c == 'i') {
      if (ex != Exactness::Default) return false;
      ex = c == 'e' ? Exactness::Exact : Exactness::Inexact;
    } else if (c == 'x' || c == 'o' || c == 'b' || c == 'd') {
      if (radix_seen) return false;
      radix_seen = true;
      radix = c == 'x' ? 16 : c == 'o' ? 8 : c == 'b' ? 2 : 10;
    } else {
      return false;
    }
    s.remove_prefix(2);
  }
  return true;
}

// Digits validated by the caller; mpz_set_str would otherwise skip spaces.
void set_digits(mpz_ptr z, std::string_view digits, int radix) {
  mpz_set_str(z, std::string(digits).c_str(), radix);
}

Value finish_exact(VM& vm, mpq_ptr q, bool negative, Exactness ex) {
  if (negative) mpq_neg(q, q);
  if (ex == Exactness::Inexact)
    return make_flonum(vm, ratio_to_double(mpq_numref(q), mpq_denref(q)));
  return rational_from(vm, q);
}

// Unsigned "n" or "n/d" in the radix.
std::optional<Value> parse_ratio(VM& vm, std::string_view s, bool negative, int radix,
                                 Exactness ex) {
  size_t slash = s.find('/');
  std::string_view num = s.substr(0, slash);
  if (!all_digits(num, radix)) return std::nullopt;
  Q q;
  set_digits(mpq_numref(q.q), num, radix);
  if (slash != std::string_view::npos) {
    std::string_view den = s.substr(slash + 1);
    if (!all_digits(den, radix)) return std::nullopt;
    set_digits(mpq_denref(q.q), den, radix);
    if (mpz_sgn(mpq_denref(q.q)) == 0) return std::nullopt;
    mpq_canonicalize(q);
  }
  return finish_exact(vm, q, negative, ex);
}

// The parts of an unsigned decimal "int.frac e exp".
struct Decimal {
  std::string_view int_part, frac_part;
  long exp = 0;
};

bool split_decimal(std::string_view s, Decimal& d) {
  size_t e = s.find_first_of("eE");
  std::string_view mant = s.substr(0, e);
  size_t dot = mant.find('.');
  d.int_part = mant.substr(0, dot);
  if (dot != std::string_view::npos) d.frac_part = mant.substr(dot + 1);
  if (d.int_part.empty() && d.frac_part.empty()) return false;
  if ((!d.int_part.empty() && !all_digits(d.int_part, 10)) ||
      (!d.frac_part.empty() && !all_digits(d.frac_part, 10)))
    return false;
  if (e == std::string_view::npos) return true;
  std::string_view exp = s.substr(e + 1);
  bool neg = !exp.empty() && exp[0] == '-';
  if (!exp.empty() && (exp[0] == '-' || exp[0] == '+')) exp.remove_prefix(1);
  if (!all_digits(exp, 10)) return false;
  exp.remove_prefix(std::min(exp.find_first_not_of('0'), exp.size() - 1));
  if (exp.size() > 9) exp = "999999999";  // clamps absurd exponents; see parse_decimal
  std::from_chars(exp.data(), exp.data() + exp.size(), d.exp);
  if (neg) d.exp = -d.exp;
  return true;
}

// #e on a decimal is exact in decimal: #e1.1 is 11/10, not the double's value.
std::optional<Value> exact_decimal(VM& vm, const Decimal& d, bool negative) {
  long scale = d.exp - long(d.frac_part.size());
  if (std::labs(scale) > 100000) return std::nullopt;  // refuse 10^huge
  Q q;
  set_digits(mpq_numref(q.q), std::string(d.int_part) + std::string(d.frac_part), 10);
  Z ten;
  mpz_ui_pow_ui(ten, 10, static_cast<unsigned long>(std::labs(scale)));
  if (scale >= 0) mpz_mul(mpq_numref(q.q), mpq_numref(q.q), ten);
  else mpz_set(mpq_denref(q.q), ten);
  mpq_canonicalize(q);
  return finish_exact(vm, q, negative, Exactness::Exact);
}

std::optional<Value> parse_decimal(VM& vm, std::string_view s, bool negative, Exactness ex) {
  Decimal d;
  if (!split_decimal(s, d)) return std::nullopt;
  if (ex == Exactness::Exact) return exact_decimal(vm, d, negative);
  double x = 0;
  auto res = std::from_chars(s.data(), s.data() + s.size(), x);
  if (res.ec == std::errc::result_out_of_range) {
    // Overflow or underflow: which one follows from the decimal magnitude.
    size_t lead = d.int_part.find_first_not_of('0');
    long mag = d.exp + (lead == std::string_view::npos ? 0 : long(d.int_part.size() - lead));
    x = mag > 0 ? HUGE_VAL : 0.0;
  }
  return make_flonum(vm, negative ? -x : x);
}

// A real in a radix other than 10 as Racket's string->number reads it, and
// so Arc 3.1's coerce (docs/LANGUAGE.md 2.6): a radix point and an exponent
// whose digits are in the radix too and whose base is the radix, so in radix
// 2 "101e100" is 5 * 2^4 = 80.0. `e` marks an exponent only where it is not
// a digit (radix below 15). Inexact unless #e, like a decimal.
std::optional<Value> parse_radix_real(VM& vm, std::string_view s, bool negative, int radix,
                                      Exactness ex) {
  size_t e = radix < 15 ? s.find_first_of("eE") : std::string_view::npos;
  std::string_view mant = s.substr(0, e);
  size_t dot = mant.find('.');
  std::string_view int_part = mant.substr(0, dot);
  std::string_view frac_part = dot == std::string_view::npos ? "" : mant.substr(dot + 1);
  if (int_part.empty() && frac_part.empty()) return std::nullopt;
  if ((!int_part.empty() && !all_digits(int_part, radix)) ||
      (!frac_part.empty() && !all_digits(frac_part, radix)))
    return std::nullopt;
  long exp = 0;
  if (e != std::string_view::npos) {
    std::string_view digits = s.substr(e + 1);
    bool neg = !digits.empty() && digits[0] == '-';
    if (!digits.empty() && (digits[0] == '-' || digits[0] == '+')) digits.remove_prefix(1);
    if (!all_digits(digits, radix)) return std::nullopt;
    for (char c : digits) exp = std::min(exp * radix + digit_value(c), 1000000000L);  // clamped
    if (neg) exp = -exp;
  }
  long scale = exp - long(frac_part.size());
  Z m;
  set_digits(m, std::string(int_part) + std::string(frac_part), radix);
  bool exact = ex == Exactness::Exact;
  if (mpz_sgn(m) == 0) return exact ? Value::fixnum(0) : make_flonum(vm, negative ? -0.0 : 0.0);
  if (exact && std::labs(scale) > 100000) return std::nullopt;  // refuse radix^huge
  if (!exact) {  // past a double's range, whatever the digits: no huge power
    double bits = double(mpz_sizeinbase(m, 2)) + double(scale) * std::log2(double(radix));
    if (bits > 1100) return make_flonum(vm, negative ? -HUGE_VAL : HUGE_VAL);
    if (bits < -1200) return make_flonum(vm, negative ? -0.0 : 0.0);
  }
  Q q;
  Z power;
  mpz_ui_pow_ui(power, static_cast<unsigned long>(radix),
                static_cast<unsigned long>(std::labs(scale)));
  mpz_set(mpq_numref(q.q), m);
  if (scale >= 0) mpz_mul(mpq_numref(q.q), mpq_numref(q.q), power);
  else mpz_set(mpq_denref(q.q), power);
  mpq_canonicalize(q);
  return finish_exact(vm, q, negative, exact ? Exactness::Exact : Exactness::Inexact);
}

std::optional<Value> parse_special(VM& vm, std::string_view s, Exactness ex) {
  if (ex == Exactness::Exact) return std::nullopt;
  if (s == "+inf.0") return make_flonum(vm, HUGE_VAL);
  if (s == "-inf.0") return make_flonum(vm, -HUGE_VAL);
  if (s == "+nan.0" || s == "-nan.0") return make_flonum(vm, std::nan(""));
  return std::nullopt;
}

uint64_t mix(uint64_t x) {  // splitmix64's finaliser
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

}  // namespace

// ---- construction and conversion ----

Value make_integer(VM& vm, int64_t n) {
  if (Value::fits_fixnum(n)) return Value::fixnum(n);
  Bignum* b = alloc<Bignum>(vm, Kind::Bignum, sizeof(mp_limb_t));
  b->size = n < 0 ? -1 : 1;
  b->limbs[0] = n < 0 ? 0 - uint64_t(n) : uint64_t(n);
  return Value::ref(b);
}

Value make_integer(VM& vm, const mpz_t z) {
  if (mpz_fits_slong_p(z)) {
    long n = mpz_get_si(z);
    if (Value::fits_fixnum(n)) return Value::fixnum(n);
  }
  size_t nlimbs = mpz_size(z);
  Bignum* b = alloc<Bignum>(vm, Kind::Bignum, nlimbs * sizeof(mp_limb_t));
  b->size = z->_mp_size;
  std::memcpy(b->limbs, mpz_limbs_read(z), nlimbs * sizeof(mp_limb_t));
  return Value::ref(b);
}

void integer_to_mpz(Value v, mpz_t out) { mpz_set(out, IntView(v)); }

Value make_rational(VM& vm, const mpq_t q) {
  Q c;
  mpq_set(c, q);
  mpq_canonicalize(c);
  return rational_from(vm, c);
}

double number_to_double(VM& vm, Value v) {
  switch (rank(vm, "real", v)) {
    case kFix: return double(v.as_fixnum());
    case kFlo: return flo(v);
    case kBig: return ratio_to_double(IntView(v), IntView(Value::fixnum(1)));
    case kRat: return ratio_to_double(IntView(rat_num(v)), IntView(rat_den(v)));
  }
  return 0;
}

// ---- arithmetic ----
// Fast paths work on the tagged words (2n+1): the overflow builtins on the
// 64-bit words detect exactly the results that leave the 63-bit range.

Value num_add(VM& vm, Value a, Value b) {
  int64_t r;
  if (a.is_fixnum() && b.is_fixnum() &&
      !__builtin_add_overflow(int64_t(a.word() - 1), int64_t(b.word()), &r))
    return Value::from_word(Word(r));
  return arith(vm, kAdd, a, b);
}

Value num_sub(VM& vm, Value a, Value b) {
  int64_t r;
  if (a.is_fixnum() && b.is_fixnum() &&
      !__builtin_sub_overflow(int64_t(a.word()), int64_t(b.word() - 1), &r))
    return Value::from_word(Word(r));
  return arith(vm, kSub, a, b);
}

Value num_mul(VM& vm, Value a, Value b) {
  int64_t r;
  if (a.is_fixnum() && b.is_fixnum() &&
      !__builtin_mul_overflow(a.as_fixnum(), int64_t(b.word() - 1), &r))
    return Value::from_word(Word(r) | 1);
  return arith(vm, kMul, a, b);
}

Value num_div(VM& vm, Value a, Value b) {
  if (a.is_fixnum() && b.is_fixnum() && !is_exact_zero(b) && a.as_fixnum() % b.as_fixnum() == 0)
    return make_integer(vm, a.as_fixnum() / b.as_fixnum());  // kFixMin / -1 still fits int64
  return arith(vm, kDiv, a, b);
}

Value num_neg(VM& vm, Value a) {
  switch (rank(vm, "-", a)) {
    case kFix: return make_integer(vm, -a.as_fixnum());
    case kFlo: return make_flonum(vm, -flo(a));
    default: break;
  }
  Q q;
  to_mpq(a, q);
  mpq_neg(q, q);
  return rational_from(vm, q);
}

static bool is_integral_flonum(Value v) {
  return TYPE(v) == Kind::Flonum && std::isfinite(flo(v)) && flo(v) == std::trunc(flo(v));
}

// Arc 3.1's mod is Racket's modulo, which takes integral floats too and then
// answers a float: (mod 7.0 3) is 1.0, so (even 2.0) is nil (docs/LANGUAGE.md 4.3).
Value num_mod(VM& vm, Value a, Value b) {
  bool fa = is_integral_flonum(a), fb = is_integral_flonum(b);
  if (!fa && !is_integer(a)) arg_error(vm, "mod", 1, a, "; expected an integer");
  if (!fb && !is_integer(b)) arg_error(vm, "mod", 2, b, "; expected an integer");
  if (is_exact_zero(b) || (fb && flo(b) == 0)) throw_error(vm, "mod: division by zero", {a});
  if (fa || fb) {
    double x = number_to_double(vm, a), y = number_to_double(vm, b), r = std::fmod(x, y);
    return make_flonum(vm, r != 0 && (r < 0) != (y < 0) ? r + y : r);
  }
  if (a.is_fixnum() && b.is_fixnum())
    return Value::fixnum(fixnum_mod(a.as_fixnum(), b.as_fixnum()));
  Z r;
  mpz_fdiv_r(r, IntView(a), IntView(b));  // floor division: remainder takes b's sign
  return make_integer(vm, r);
}

Value num_expt(VM& vm, Value a, Value b) {
  Rank ra = rank(vm, "expt", a), rb = rank(vm, "expt", b);
  if (ra != kFlo && (rb == kFix || rb == kBig)) return exact_expt(vm, a, b);
  return make_flonum(vm, std::pow(number_to_double(vm, a), number_to_double(vm, b)));
}

// Arc's host answers a complex number for negatives; we have none, so error.
Value num_sqrt(VM& vm, Value a) {
  Rank r = rank(vm, "sqrt", a);
  if (r == kFlo) {
    if (flo(a) < 0) throw_error(vm, "sqrt: negative argument", {a});
    return make_flonum(vm, std::sqrt(flo(a)));
  }
  if (exact_sign(a) < 0) throw_error(vm, "sqrt: negative argument", {a});
  Value root, den_root;
  if (r != kRat) return exact_isqrt(vm, a, &root) ? root : make_flonum(vm, inexact_isqrt(vm, a));
  if (exact_isqrt(vm, rat_num(a), &root) && exact_isqrt(vm, rat_den(a), &den_root))
    return num_div(vm, root, den_root);
  return make_flonum(vm, std::sqrt(number_to_double(vm, a)));
}

Value num_trunc(VM& vm, Value a) {
  switch (rank(vm, "trunc", a)) {
    case kFix:
    case kBig: return a;
    case kFlo: return exact_from_integral(vm, "trunc", std::trunc(flo(a)));
    case kRat: break;
  }
  Z q;
  mpz_tdiv_q(q, IntView(rat_num(a)), IntView(rat_den(a)));
  return make_integer(vm, q);
}

Value num_round_even(VM& vm, Value a) {
  switch (rank(vm, "round", a)) {
    case kFix:
    case kBig: return a;
    case kFlo: return exact_from_integral(vm, "round", std::nearbyint(flo(a)));
    case kRat: break;
  }
  // floor, then up if the remainder is past half, or exactly half and odd.
  IntView den(rat_den(a));
  Z q, r;
  mpz_fdiv_qr(q, r, IntView(rat_num(a)), den);
  mpz_mul_2exp(r, r, 1);
  int c = mpz_cmp(r, den);
  if (c > 0 || (c == 0 && mpz_odd_p(q.z))) mpz_add_ui(q, q, 1);
  return make_integer(vm, q);
}

// ---- comparison and identity ----

int num_compare(VM& vm, Value a, Value b) {
  if (a.is_fixnum() && b.is_fixnum())
    return (a.as_fixnum() > b.as_fixnum()) - (a.as_fixnum() < b.as_fixnum());
  Rank ra = rank(vm, "<", a), rb = rank(vm, "<", b);
  if (ra == kFlo || rb == kFlo) {
    double x = number_to_double(vm, a), y = number_to_double(vm, b);
    if (std::isnan(x) || std::isnan(y)) return 1;
    // Both floats, or an infinity against anything: doubles decide exactly.
    if ((ra == kFlo && rb == kFlo) || std::isinf(x) || std::isinf(y)) return (x > y) - (x < y);
  }
  if (ra <= kBig && rb <= kBig) {
    int c = mpz_cmp(IntView(a), IntView(b));
    return (c > 0) - (c < 0);
  }
  Q x, y;  // mixed float/exact compares exactly: (< 9007199254740993 9007199254740992.0) is nil
  to_mpq(a, x);
  to_mpq(b, y);
  int c = mpq_cmp(x, y);
  return (c > 0) - (c < 0);
}

bool num_lt(VM& vm, Value a, Value b) {
  if (a.is_fixnum() && b.is_fixnum()) return a.as_fixnum() < b.as_fixnum();
  if (TYPE(a) == Kind::Flonum && std::isnan(flo(a))) return false;
  if (TYPE(b) == Kind::Flonum && std::isnan(flo(b))) return false;
  return num_compare(vm, a, b) < 0;
}

// Flonums are eqv when their bits agree (so 0.0 and -0.0 differ), and every
// NaN is eqv to every other, as Racket's eqv? has it.
bool num_eqv(Value a, Value b) {
  if (a == b) return true;
  Kind k = TYPE(a);
  if (k != TYPE(b)) return false;
  switch (k) {
    case Kind::Bignum: return mpz_cmp(IntView(a), IntView(b)) == 0;
    case Kind::Ratnum: return num_eqv(rat_num(a), rat_num(b)) && num_eqv(rat_den(a), rat_den(b));
    case Kind::Flonum: {
      double x = flo(a), y = flo(b);
      if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && std::isnan(y);
      return std::memcmp(&x, &y, sizeof x) == 0;
    }
    default: return false;
  }
}

uint64_t num_hash(Value a) {
  switch (TYPE(a)) {
    case Kind::Bignum: {
      Bignum* b = a.as<Bignum>();
      uint64_t h = mix(uint64_t(b->size));
      for (int64_t i = 0, n = std::abs(b->size); i < n; ++i) h = mix(h ^ b->limbs[i]);
      return h;
    }
    case Kind::Ratnum: return mix(num_hash(rat_num(a)) * 31 + num_hash(rat_den(a)));
    case Kind::Flonum: {
      double d = flo(a);
      if (std::isnan(d)) return 0x7ff8dead;
      uint64_t bits;
      std::memcpy(&bits, &d, sizeof bits);
      return mix(bits ^ 0x5bd1e995);
    }
    default: return fixnum_hash(a);
  }
}

uint64_t fixnum_hash(Value a) { return mix(a.word()); }

// ---- text ----

std::string number_to_string(VM& vm, Value v, int radix) {
  std::string out;
  append_number(vm, out, v, radix);
  return out;
}

void append_number(VM& vm, std::string& out, Value v, int radix) {
  if (v.is_fixnum()) return append_integer(out, v, radix);  // what printing mostly formats
  switch (rank(vm, "number->string", v)) {
    case kFix:
    case kBig: append_integer(out, v, radix); return;
    case kRat:
      append_integer(out, rat_num(v), radix);
      out += '/';
      append_integer(out, rat_den(v), radix);
      return;
    case kFlo: append_flonum(out, flo(v)); return;
  }
}

std::optional<Value> parse_number(VM& vm, std::string_view text, int radix) {
  Exactness ex = Exactness::Default;
  if (!read_prefixes(text, radix, ex) || text.empty()) return std::nullopt;
  if (auto special = parse_special(vm, text, ex)) return special;
  bool negative = text[0] == '-';
  if (text[0] == '-' || text[0] == '+') text.remove_prefix(1);
  if (text.empty()) return std::nullopt;
  if (auto ratio = parse_ratio(vm, text, negative, radix, ex)) return ratio;
  if (radix != 10) return parse_radix_real(vm, text, negative, radix, ex);
  return parse_decimal(vm, text, negative, ex);
}

}  // namespace vm
