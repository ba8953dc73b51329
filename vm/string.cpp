// vm/string.cpp — Arc strings and the UTF-8 codec.
//
// A String's characters live in a Blob: one byte per character while every
// character is below 256 (the common case: source text, HTML), four bytes
// per character once kStringWide is set. The flag only ever goes from narrow
// to wide, so a string mutated back to Latin-1 stays wide; that keeps
// string_set O(1) apart from the one widening copy.
#include "vm/string.h"

#include <cstring>

namespace vm {

namespace {

constexpr uint32_t kReplacement = 0xFFFD;

String* str(Value s) { return s.as<String>(); }
bool is_wide(const String* s) { return s->h.flags & kStringWide; }
uint8_t* narrow_chars(const String* s) { return s->buf.as<Blob>()->data; }
uint32_t* wide_chars(const String* s) {
  return reinterpret_cast<uint32_t*>(s->buf.as<Blob>()->data);
}

// A string of len characters, narrow or wide, its characters zero.
Value alloc_string(uint64_t len, bool wide) {
  // Allocate the blob first: allocation never collects, so it survives
  // until it is stored in the string.
  Value buf = make_blob(wide ? len * 4 : len);
  String* s = alloc<String>(Kind::String);
  s->len = len;
  s->buf = buf;
  if (wide) s->h.flags |= kStringWide;
  return Value::ref(s);
}

void widen(String* s) {
  Value buf = make_blob(s->len * 4);
  auto* out = reinterpret_cast<uint32_t*>(buf.as<Blob>()->data);
  const uint8_t* in = narrow_chars(s);
  for (uint64_t i = 0; i < s->len; ++i) out[i] = in[i];
  set(s, &s->buf, buf);
  s->h.flags |= kStringWide;
}

bool is_cont(uint8_t b) { return (b & 0xC0) == 0x80; }

}  // namespace

Value make_string(uint64_t len, uint32_t fill) {
  bool wide = fill >= 256;
  Value s = alloc_string(len, wide);
  if (fill == 0) return s;  // blobs come zeroed
  if (wide) {
    uint32_t* p = wide_chars(str(s));
    for (uint64_t i = 0; i < len; ++i) p[i] = fill;
  } else {
    memset(narrow_chars(str(s)), int(fill), len);
  }
  return s;
}

Value make_string_u32(std::u32string_view chars) {
  bool wide = false;
  for (char32_t c : chars) wide |= c >= 256;
  Value s = alloc_string(chars.size(), wide);
  if (wide) {
    memcpy(wide_chars(str(s)), chars.data(), chars.size() * 4);
  } else {
    uint8_t* p = narrow_chars(str(s));
    for (size_t i = 0; i < chars.size(); ++i) p[i] = uint8_t(chars[i]);
  }
  return s;
}

Value make_string_utf8(std::string_view utf8) {
  std::u32string chars;
  chars.reserve(utf8.size());
  for (size_t i = 0; i < utf8.size();) chars.push_back(utf8_decode(utf8, i));
  return make_string_u32(chars);
}

uint32_t string_ref(Value s, uint64_t i) {
  String* p = str(s);
  return is_wide(p) ? wide_chars(p)[i] : narrow_chars(p)[i];
}

void string_set(Value s, uint64_t i, uint32_t c) {
  String* p = str(s);
  if (!is_wide(p) && c >= 256) widen(p);
  if (is_wide(p)) wide_chars(p)[i] = c;
  else narrow_chars(p)[i] = uint8_t(c);
}

std::string string_utf8(Value s) {
  String* p = str(s);
  std::string out;
  if (!is_wide(p)) {
    // A narrow string's ASCII prefix is its UTF-8 already: copied whole.
    const uint8_t* c = narrow_chars(p);
    uint64_t ascii = 0;
    while (ascii < p->len && c[ascii] < 0x80) ++ascii;
    out.reserve(p->len + (p->len - ascii));
    out.assign(reinterpret_cast<const char*>(c), ascii);
    for (uint64_t i = ascii; i < p->len; ++i) utf8_append(out, c[i]);
    return out;
  }
  out.reserve(p->len);
  for (uint64_t i = 0; i < p->len; ++i) utf8_append(out, wide_chars(p)[i]);
  return out;
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

// FNV-1a over code points, so a narrow and a wide string with the same
// characters hash alike.
uint64_t string_hash(Value s) {
  uint64_t h = 0xcbf29ce484222325ull;
  uint64_t n = string_len(s);
  for (uint64_t i = 0; i < n; ++i) {
    h ^= string_ref(s, i);
    h *= 0x100000001b3ull;
  }
  return h;
}

Value string_copy(Value s) {
  String* p = str(s);
  Value r = alloc_string(p->len, is_wide(p));
  String* q = str(r);
  size_t bytes = is_wide(p) ? p->len * 4 : p->len;
  memcpy(q->buf.as<Blob>()->data, p->buf.as<Blob>()->data, bytes);
  return r;
}

// Code points that are not Unicode scalar values (surrogates, beyond
// U+10FFFF) are written as U+FFFD so the output is always valid UTF-8.
void utf8_append(std::string& out, uint32_t cp) {
  if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) cp = kReplacement;
  if (cp < 0x80) {
    out += char(cp);
  } else if (cp < 0x800) {
    out += char(0xC0 | (cp >> 6));
    out += char(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += char(0xE0 | (cp >> 12));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  } else {
    out += char(0xF0 | (cp >> 18));
    out += char(0x80 | ((cp >> 12) & 0x3F));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  }
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
