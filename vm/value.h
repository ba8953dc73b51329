// vm/value.h — the representation of Arc values.
//
// A Value is one 64-bit word (docs/ARCHITECTURE.md invariant 1):
//
//   ...............................1   fixnum: a 63-bit signed integer n, stored n<<1 | 1
//   ............................000    heap reference (8-byte aligned, never 0)
//   0000000000000000000000000000000    nil (the word 0: zeroed memory is nil)
//   ........................CCCC 010   immediate: low byte 0x02 | (subtag << 3),
//                                      a character keeps its code point in bits 8..31
//   ............................100    flonum: a double of ordinary magnitude (below)
//
// Flonums in the word, after the Spur VM's SmallFloat64: a double's 64 bits
// rotated left one place put its sign lowest and its 11-bit exponent
// highest. An exponent in [897, 1151] (magnitudes from 2^-126 to just
// under 2^129), less 896, fits the 8 bits left above the tag, so those
// doubles, and +0.0 and -0.0 (rotated only), are held exactly in the word,
// with no allocation. Every other double (subnormal, huge, infinite, NaN)
// is a heap Flonum. Each double has one representation, so two flonums
// are eqv when their words are equal or both are heap Flonums with the
// same bits.
//
// Immediates: nil, t, characters, and VM-internal markers (unbound, missing
// argument, a table's empty slot and gone key) that never reach Arc code.
//
// Every type test goes through TYPE() (vm/object.h), which names one Kind
// for any value and can count dispatches by kind.
#pragma once
#include <bit>
#include <cstdint>
#include <cstring>

#include "gc/heap.h"

namespace vm {

using gc::Word;

class Value {
 public:
  constexpr Value() : w_(0) {}
  static constexpr Value from_word(Word w) { return Value(w); }
  constexpr Word word() const { return w_; }

  // Fixnums.
  static constexpr int64_t kFixMax = (int64_t(1) << 61) * 2 - 1;  // 2^62 - 1
  static constexpr int64_t kFixMin = -kFixMax - 1;
  static constexpr bool fits_fixnum(int64_t n) { return n >= kFixMin && n <= kFixMax; }
  static constexpr Value fixnum(int64_t n) { return Value((Word(n) << 1) | 1); }
  constexpr bool is_fixnum() const { return w_ & 1; }
  constexpr int64_t as_fixnum() const { return int64_t(w_) >> 1; }

  // Heap references.
  constexpr bool is_ref() const { return (w_ & 7) == 0 && w_ != 0; }
  gc::GcHeader* header() const { return gc::header_of(w_); }
  template <class T>
  T* as() const {
    return reinterpret_cast<T*>(w_);
  }
  static Value ref(const void* p) { return Value(reinterpret_cast<Word>(p)); }

  // Flonums in the word (see the top of the file).
  static constexpr Word kFloTag = 0x04;
  constexpr bool is_flonum_imm() const { return (w_ & 7) == kFloTag; }
  // Both a and b flonums in the word (all four): one test of the tags.
  static constexpr bool both_flonum_imm(Value a, Value b) {
    return (((a.w_ ^ kFloTag) | (b.w_ ^ kFloTag)) & 7) == 0;
  }
  static constexpr bool all_flonum_imm(Value a, Value b, Value c, Value d) {
    return (((a.w_ ^ kFloTag) | (b.w_ ^ kFloTag) | (c.w_ ^ kFloTag) | (d.w_ ^ kFloTag)) & 7) == 0;
  }
  // d in the word, if it has a word of its own; else false. An ordinary
  // magnitude is tested first: one comparison for every arithmetic result
  // but a zero.
  static constexpr bool flonum_imm(double d, Value* out) {
    Word r = std::rotl(std::bit_cast<Word>(d), 1);
    // The exponent less 897, unsigned: below 255 for 897..1151.
    Word e = r - kFloLowest;
    if (e < (Word(255) << 53)) {
      *out = Value(((e + (Word(1) << 53)) << 3) | kFloTag);
      return true;
    }
    if (r <= 1) {  // +0.0 or -0.0
      *out = Value((r << 3) | kFloTag);
      return true;
    }
    return false;
  }
  constexpr double as_flonum_imm() const {
    Word r = w_ >> 3;
    if (r > 1) r += kFloBias;
    return std::bit_cast<double>(std::rotr(r, 1));
  }

  // Immediates.
  static constexpr Word kImmTag = 0x02;
  static constexpr Word imm(Word subtag) { return kImmTag | (subtag << 3); }
  constexpr bool is_imm() const { return (w_ & 7) == kImmTag; }
  constexpr bool is_char() const { return (w_ & 0xff) == imm(kSubChar); }
  static constexpr Value character(uint32_t cp) { return Value((Word(cp) << 8) | imm(kSubChar)); }
  constexpr uint32_t as_char() const { return uint32_t(w_ >> 8); }

  constexpr bool is_nil() const { return w_ == 0; }
  constexpr bool truthy() const { return w_ != 0; }
  constexpr bool operator==(Value o) const { return w_ == o.w_; }
  constexpr bool operator!=(Value o) const { return w_ != o.w_; }

  static constexpr Word kSubChar = 0, kSubT = 1, kSubUnbound = 2, kSubMissing = 3, kSubGone = 4,
                        kSubEmpty = 5, kSubTailCall = 6;  // VM::tail_call_marker

 private:
  // The rotated exponent's rebasing: 896, and the lowest exponent held, 897.
  static constexpr Word kFloBias = Word(896) << 53;
  static constexpr Word kFloLowest = Word(897) << 53;
  constexpr explicit Value(Word w) : w_(w) {}
  Word w_;
};
static_assert(sizeof(Value) == 8);

constexpr Value NIL = Value();
constexpr Value T = Value::from_word(Value::imm(Value::kSubT));
// A global that has never been assigned.
constexpr Value UNBOUND = Value::from_word(Value::imm(Value::kSubUnbound));
// An optional parameter whose argument was not passed.
constexpr Value MISSING = Value::from_word(Value::imm(Value::kSubMissing));
// A table's never-used slot.
constexpr Value EMPTY = Value::from_word(Value::imm(Value::kSubEmpty));
// The key of a table's dead entry whose key was an object other than a
// symbol (vm/table.cpp): no key is equal to it.
constexpr Value GONE = Value::from_word(Value::imm(Value::kSubGone));

static_assert(!NIL.is_ref() && !T.is_ref() && !Value::fixnum(0).is_ref());
static_assert(Value::fixnum(-5).as_fixnum() == -5);
static_assert(Value::fixnum(Value::kFixMax).as_fixnum() == Value::kFixMax);
static_assert(Value::fixnum(Value::kFixMin).as_fixnum() == Value::kFixMin);
static_assert(Value::character(0x1F600).as_char() == 0x1F600);
static_assert(Value::character(65).is_char() && !T.is_char() && !NIL.is_char());

inline Value boolean(bool b) { return b ? T : NIL; }

// The sum and difference of two fixnums, computed on their tagged words:
// (2a+1) + 2b = 2(a+b)+1 and (2a+1) - 2b = 2(a-b)+1, so the word
// overflows exactly when the result is past the fixnum range, and one
// add with its overflow flag replaces untagging, the add, the range test
// and retagging (the interpreter's fast paths). False on overflow.
inline bool fixnum_add(Value a, Value b, Value* r) {
  int64_t w;
  if (__builtin_add_overflow(int64_t(a.word()), int64_t(b.word() - 1), &w)) return false;
  *r = Value::from_word(Word(w));
  return true;
}
inline bool fixnum_sub(Value a, Value b, Value* r) {
  int64_t w;
  if (__builtin_sub_overflow(int64_t(a.word()), int64_t(b.word() - 1), &w)) return false;
  *r = Value::from_word(Word(w));
  return true;
}
// The product of two fixnums; false when it is past the fixnum range.
inline bool fixnum_mul(Value a, Value b, Value* r) {
  int64_t p;
  if (__builtin_mul_overflow(a.as_fixnum(), b.as_fixnum(), &p) || !Value::fits_fixnum(p))
    return false;
  *r = Value::fixnum(p);
  return true;
}
// Arc's mod of two fixnums, y nonzero: the remainder, with y's sign.
inline int64_t fixnum_mod(int64_t x, int64_t y) {
  int64_t r = x % y;
  return r != 0 && (r < 0) != (y < 0) ? r + y : r;
}
static_assert(Value::fixnum(3).word() + (Value::fixnum(-5).word() - 1) == Value::fixnum(-2).word());

// The operands of the interpreter's float fast paths, as doubles: two
// flonums in the word, or one and a fixnum of at most 2^53 in magnitude,
// which a double holds exactly (so a comparison with it is exact, as
// Racket's comparison of a flonum with an exact integer is). Anything else
// (a heap Flonum, a bignum, a rational, a larger fixnum) takes the general
// path. float_operand is the test of one operand beside a flonum.
inline bool float_operand(Value v, double* d) {
  constexpr int64_t kExact = int64_t(1) << 53;
  if (v.is_flonum_imm()) {
    *d = v.as_flonum_imm();
    return true;
  }
  if (v.is_fixnum() && v.as_fixnum() >= -kExact && v.as_fixnum() <= kExact) {
    *d = double(v.as_fixnum());
    return true;
  }
  return false;
}
inline bool float_operands(Value a, Value b, double* x, double* y) {
  if (Value::both_flonum_imm(a, b)) {  // the commonest case first, one test
    *x = a.as_flonum_imm();
    *y = b.as_flonum_imm();
    return true;
  }
  if (!(a.is_flonum_imm() || b.is_flonum_imm())) return false;
  return float_operand(a, x) && float_operand(b, y);
}

static_assert(Value::fixnum(1).is_fixnum() && !Value::fixnum(1).is_flonum_imm());
static_assert([] {
  Value a, b, z;
  return Value::flonum_imm(1.5, &a) && Value::flonum_imm(-2.0, &b) && Value::flonum_imm(-0.0, &z) &&
         Value::both_flonum_imm(a, b) && Value::both_flonum_imm(z, a) &&
         !Value::both_flonum_imm(a, Value::fixnum(2)) && !Value::both_flonum_imm(NIL, b) &&
         Value::all_flonum_imm(a, b, z, a) && !Value::all_flonum_imm(a, b, z, T) &&
         z.as_flonum_imm() == 0.0 && a.as_flonum_imm() == 1.5 && b.as_flonum_imm() == -2.0;
}());

}  // namespace vm
