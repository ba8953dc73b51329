// vm/string.cpp — Arc strings and the UTF-8 codec.
//
// A String's characters are one byte each while every character is below
// 256 (the common case: source text, HTML), four bytes each once
// kStringWide is set. The flag only ever goes from narrow to wide, so a
// string mutated back to Latin-1 stays wide; that keeps string_set O(1)
// apart from the one widening copy. A narrow string of up to
// kStringInlineMax characters holds them in its own room (kStringInline,
// vm/object.h): a word of a text, a key, a literal; widening moves them out
// to a Blob, and the room stays, unused, as the object's size.
//
// string_copy of a string whose characters are in a Blob shares the Blob:
// the copy is one String, and both it and the original are marked
// kStringShared, so that whichever is written first (string_set, the only
// writer of an existing string's characters) takes a copy of the
// characters for itself then. An inline string is copied whole, which is
// as cheap. Every evaluation of a string literal is such a copy (STRING,
// docs/LANGUAGE.md 1.6), and most are only read: printed, compared, used
// as a key. Once set, the shared flag stays on a string that still shares
// (no count is kept of the others), so it may copy once more than it
// needed to, never less.
//
// Flags change on a string that others may already see, while vcgc's
// collector thread sizes it (string_size, vm/object.cpp, reads
// kStringRoom, which never changes once allocated): such a change is an
// atomic store (store_flags), so that the two do not race.
#include "vm/string.h"

#include <cstring>

#include "vm/vm.h"

namespace vm {

namespace {

constexpr uint32_t kReplacement = 0xFFFD;

String* str(Value s) { return s.as<String>(); }
void store_flags(String* s, uint16_t flags) {
  __atomic_store_n(&s->h.flags, flags, __ATOMIC_RELAXED);
}
bool is_wide(const String* s) { return s->h.flags & kStringWide; }
uint8_t* narrow_chars(const String* s) {
  if (s->h.flags & kStringInline) return const_cast<uint8_t*>(s->room);
  return s->buf.as<Blob>()->data;
}
uint32_t* wide_chars(const String* s) {
  return reinterpret_cast<uint32_t*>(s->buf.as<Blob>()->data);
}

// A string of len characters, narrow or wide, its characters zero; inline
// if it may be.
Value alloc_string(VM& vm, uint64_t len, bool wide, bool may_inline = true) {
  if (may_inline && !wide && len <= kStringInlineMax) {
    String* s = alloc<String>(vm, Kind::String, len);  // zeroed, as allocation is
    s->len = len;
    s->buf = NIL;
    s->h.flags |= kStringInline | kStringRoom;
    return Value::ref(s);
  }
  // Allocate the blob first: allocation never collects, so it survives
  // until it is stored in the string.
  Value buf = make_blob(vm, wide ? len * 4 : len);
  String* s = alloc<String>(vm, Kind::String);
  s->len = len;
  s->buf = buf;
  if (wide) s->h.flags |= kStringWide;
  return Value::ref(s);
}

// Both give s a Blob of its own, so it is no longer shared (nor inline).
void widen(VM& vm, String* s) {
  Value buf = make_blob(vm, s->len * 4);
  auto* out = reinterpret_cast<uint32_t*>(buf.as<Blob>()->data);
  const uint8_t* in = narrow_chars(s);
  for (uint64_t i = 0; i < s->len; ++i) out[i] = in[i];
  set(vm, s, &s->buf, buf);
  store_flags(s, uint16_t((s->h.flags | kStringWide) & ~(kStringShared | kStringInline)));
}

bool is_cont(uint8_t b) { return (b & 0xC0) == 0x80; }

// The length of the ASCII prefix of p[0..n), eight bytes at a time: the
// run a narrow string's or a UTF-8 text's characters can be copied in
// whole, since below 0x80 a character and its UTF-8 byte are the same.
size_t ascii_prefix(const uint8_t* p, size_t n) {
  size_t i = 0;
  for (uint64_t w; i + 8 <= n; i += 8) {
    memcpy(&w, p + i, 8);
    if (w & 0x8080808080808080ull) break;
  }
  while (i < n && p[i] < 0x80) ++i;
  return i;
}

// Walks the UTF-8 text s: ascii(from, n) for each run of ASCII bytes
// s[from, from + n), other(cp) for each character past ASCII, decoded by
// utf8_decode, in order.
template <class Ascii, class Other>
void each_utf8_run(std::string_view s, Ascii&& ascii, Other&& other) {
  const auto* b = reinterpret_cast<const uint8_t*>(s.data());
  for (size_t i = 0; i < s.size();) {
    size_t run = ascii_prefix(b + i, s.size() - i);
    if (run) ascii(i, run);
    i += run;
    if (i < s.size()) other(utf8_decode(s, i));
  }
}

}  // namespace

Value make_string(VM& vm, uint64_t len, uint32_t fill) {
  bool wide = fill >= 256;
  Value s = alloc_string(vm, len, wide);
  if (fill == 0) return s;  // blobs come zeroed
  if (wide) {
    uint32_t* p = wide_chars(str(s));
    for (uint64_t i = 0; i < len; ++i) p[i] = fill;
  } else {
    memset(narrow_chars(str(s)), int(fill), len);
  }
  return s;
}

Value make_string_u32(VM& vm, std::u32string_view chars) {
  bool wide = false;
  for (char32_t c : chars) wide |= c >= 256;
  Value s = alloc_string(vm, chars.size(), wide);
  if (wide) {
    memcpy(wide_chars(str(s)), chars.data(), chars.size() * 4);
  } else {
    uint8_t* p = narrow_chars(str(s));
    for (size_t i = 0; i < chars.size(); ++i) p[i] = uint8_t(chars[i]);
  }
  return s;
}

// All-ASCII text, what string ports mostly hold, is one scan and one
// memcpy. Other text takes two passes, no copy between: the first counts
// the characters and finds the widest (ASCII runs by their length alone),
// the second fills the string of that width (a narrow one's ASCII runs by
// memcpy).
Value make_string_utf8(VM& vm, std::string_view utf8) {
  const auto* b = reinterpret_cast<const uint8_t*>(utf8.data());
  if (ascii_prefix(b, utf8.size()) == utf8.size()) {
    Value s = alloc_string(vm, utf8.size(), false);
    memcpy(narrow_chars(str(s)), b, utf8.size());
    return s;
  }
  uint64_t len = 0;
  uint32_t widest = 0;
  each_utf8_run(
      utf8, [&](size_t, size_t n) { len += n; },
      [&](uint32_t c) {
        ++len;
        widest = c > widest ? c : widest;
      });
  Value s = alloc_string(vm, len, widest >= 256);
  String* p = str(s);
  uint64_t k = 0;
  if (!is_wide(p)) {
    uint8_t* out = narrow_chars(p);
    each_utf8_run(
        utf8,
        [&](size_t from, size_t n) {
          memcpy(out + k, b + from, n);
          k += n;
        },
        [&](uint32_t c) { out[k++] = uint8_t(c); });
  } else {
    uint32_t* out = wide_chars(p);
    each_utf8_run(
        utf8,
        [&](size_t from, size_t n) {
          for (size_t j = 0; j < n; ++j) out[k++] = b[from + j];
        },
        [&](uint32_t c) { out[k++] = c; });
  }
  return s;
}

uint8_t* string_bytes(Value s) {
  String* p = str(s);
  return is_wide(p) ? reinterpret_cast<uint8_t*>(wide_chars(p)) : narrow_chars(p);
}

uint32_t string_ref(Value s, uint64_t i) {
  String* p = str(s);
  return is_wide(p) ? wide_chars(p)[i] : narrow_chars(p)[i];
}

namespace {

// A shared string about to be written: its characters copied for it alone.
void unshare(VM& vm, String* s) {
  Blob* from = s->buf.as<Blob>();
  Value buf = make_blob(vm, from->size);
  if (from->size) memcpy(buf.as<Blob>()->data, from->data, from->size);
  set(vm, s, &s->buf, buf);
  store_flags(s, uint16_t(s->h.flags & ~kStringShared));
}

}  // namespace

void string_set(VM& vm, Value s, uint64_t i, uint32_t c) {
  String* p = str(s);
  if (!is_wide(p) && c >= 256) widen(vm, p);
  else if (p->h.flags & kStringShared) [[unlikely]] unshare(vm, p);
  if (is_wide(p)) wide_chars(p)[i] = c;
  else narrow_chars(p)[i] = uint8_t(c);
}

std::string string_utf8(Value s) {
  std::string out;
  out.reserve(string_len(s));
  string_append_utf8(out, s);
  return out;
}

void string_append_utf8(std::string& out, Value s) {
  String* p = str(s);
  if (is_wide(p)) {
    const uint32_t* c = wide_chars(p);
    for (uint64_t i = 0; i < p->len; ++i) utf8_append(out, c[i]);
    return;
  }
  // A narrow string's ASCII runs are their UTF-8 already; a Latin-1
  // character past them is two bytes.
  const uint8_t* c = narrow_chars(p);
  for (uint64_t i = 0; i < p->len;) {
    uint64_t run = ascii_prefix(c + i, p->len - i);
    out.append(reinterpret_cast<const char*>(c + i), run);
    for (i += run; i < p->len && c[i] >= 0x80; ++i) utf8_append(out, c[i]);
  }
}

bool string_has_any(Value s, std::string_view chars) {
  for (uint64_t i = 0, n = string_len(s); i < n; ++i) {
    uint32_t c = string_ref(s, i);
    if (c < 0x80 && chars.find(char(c)) != std::string_view::npos) return true;
  }
  return false;
}

std::u32string string_u32(Value s) {
  uint64_t n = string_len(s);
  std::u32string out(n, U'\0');
  for (uint64_t i = 0; i < n; ++i) out[i] = string_ref(s, i);
  return out;
}

bool string_equal(Value a, Value b) {
  String *p = str(a), *q = str(b);
  if (p->len != q->len) return false;
  if (!is_wide(p) && !is_wide(q)) return memcmp(narrow_chars(p), narrow_chars(q), p->len) == 0;
  for (uint64_t i = 0; i < p->len; ++i)
    if (string_ref(a, i) != string_ref(b, i)) return false;
  return true;
}

int string_compare(Value a, Value b) {
  uint64_t n = string_len(a), m = string_len(b);
  for (uint64_t i = 0; i < n && i < m; ++i) {
    uint32_t x = string_ref(a, i), y = string_ref(b, i);
    if (x != y) return x < y ? -1 : 1;
  }
  return n < m ? -1 : n > m ? 1 : 0;
}

// FNV-1a over the code points, so that a narrow string and a wide one of
// the same characters hash alike (a narrow one's bytes are its code points).
uint64_t string_hash(Value s) {
  uint64_t h = 0xcbf29ce484222325ull;
  String* p = str(s);
  if (is_wide(p)) {
    const uint32_t* c = wide_chars(p);
    for (uint64_t i = 0; i < p->len; ++i) h = (h ^ c[i]) * 0x100000001b3ull;
  } else {
    const uint8_t* c = narrow_chars(p);
    for (uint64_t i = 0; i < p->len; ++i) h = (h ^ c[i]) * 0x100000001b3ull;
  }
  return h;
}

Value string_copy(VM& vm, Value s) {
  if (str(s)->h.flags & kStringInline) return string_slice(vm, s, 0, string_len(s));
  String* r = alloc<String>(vm, Kind::String);  // allocation never collects: s stays put
  String* p = str(s);
  store_flags(p, uint16_t(p->h.flags | kStringShared));
  r->len = p->len;
  r->buf = NIL;
  r->h.flags = p->h.flags;
  set(vm, r, &r->buf, p->buf);
  return Value::ref(r);
}

Value make_string_in_blob(VM& vm, uint64_t len, bool wide) {
  return alloc_string(vm, len, wide, false);
}

namespace {
// s's characters [start, end) in a fresh string, inline if it may be.
Value copy_chars(VM& vm, Value s, uint64_t start, uint64_t end, bool may_inline) {
  bool wide = is_wide(str(s));
  Value r = alloc_string(vm, end - start, wide, may_inline);  // allocation never collects
  size_t w = wide ? 4 : 1;
  if (end > start) memcpy(string_bytes(r), string_bytes(s) + start * w, (end - start) * w);
  return r;
}
}  // namespace

Value string_shareable(VM& vm, Value s) {
  return str(s)->h.flags & kStringInline ? copy_chars(vm, s, 0, string_len(s), false) : s;
}

Value string_slice(VM& vm, Value s, uint64_t start, uint64_t end) {
  return copy_chars(vm, s, start, end, true);
}

// Code points that are not Unicode scalar values (surrogates, beyond
// U+10FFFF) are written as U+FFFD so the output is always valid UTF-8.
size_t utf8_encode(uint32_t cp, char* b) {
  if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) cp = kReplacement;
  if (cp < 0x80) {
    b[0] = char(cp);
    return 1;
  }
  if (cp < 0x800) {
    b[0] = char(0xC0 | (cp >> 6));
    b[1] = char(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    b[0] = char(0xE0 | (cp >> 12));
    b[1] = char(0x80 | ((cp >> 6) & 0x3F));
    b[2] = char(0x80 | (cp & 0x3F));
    return 3;
  }
  b[0] = char(0xF0 | (cp >> 18));
  b[1] = char(0x80 | ((cp >> 12) & 0x3F));
  b[2] = char(0x80 | ((cp >> 6) & 0x3F));
  b[3] = char(0x80 | (cp & 0x3F));
  return 4;
}

void utf8_append(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += char(cp);
    return;
  }
  char b[4];
  out.append(b, utf8_encode(cp, b));
}

// Strict decoding: overlong forms, surrogates and values past U+10FFFF are
// invalid. An invalid sequence consumes one byte and yields U+FFFD, so the
// caller resynchronises on the next byte. At or past the end it yields
// U+FFFD and still advances, so a `while (i < n)` loop always terminates.
uint32_t utf8_decode(std::string_view s, size_t& i) {
  if (i >= s.size()) {
    ++i;
    return kReplacement;
  }
  uint8_t b = uint8_t(s[i]);
  if (b < 0x80) {
    ++i;
    return b;
  }
  int extra;
  uint32_t cp, min;
  if ((b & 0xE0) == 0xC0) {
    extra = 1, cp = b & 0x1F, min = 0x80;
  } else if ((b & 0xF0) == 0xE0) {
    extra = 2, cp = b & 0x0F, min = 0x800;
  } else if ((b & 0xF8) == 0xF0) {
    extra = 3, cp = b & 0x07, min = 0x10000;
  } else {
    ++i;
    return kReplacement;
  }
  if (s.size() - i <= size_t(extra)) {
    ++i;
    return kReplacement;
  }
  for (int k = 1; k <= extra; ++k) {
    uint8_t c = uint8_t(s[i + k]);
    if (!is_cont(c)) {
      ++i;
      return kReplacement;
    }
    cp = (cp << 6) | (c & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
    ++i;
    return kReplacement;
  }
  i += extra + 1;
  return cp;
}

}  // namespace vm
