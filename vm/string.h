// vm/string.h — Arc strings: mutable, fixed length, O(1) indexing by
// character; UTF-8 only at the edges (reading source, ports, printing).
#pragma once
#include <string>
#include <string_view>

#include "vm/object.h"

namespace vm {

Value make_string(VM& vm, uint64_t len, uint32_t fill = 0);
Value make_string_utf8(VM& vm, std::string_view utf8);
Value make_string_u32(VM& vm, std::u32string_view chars);

inline uint64_t string_len(Value s) { return s.as<String>()->len; }
uint32_t string_ref(Value s, uint64_t i);                  // i < len, unchecked
void string_set(VM& vm, Value s, uint64_t i, uint32_t c);  // widens the buffer if needed
std::string string_utf8(Value s);
// Appends s's characters to out in UTF-8, in place: a narrow string's
// ASCII runs are copied whole (what printing a string to a port does).
void string_append_utf8(std::string& out, Value s);
// Whether s holds any of the ASCII characters in chars, read in place.
bool string_has_any(Value s, std::string_view chars);
std::u32string string_u32(Value s);
bool string_equal(Value a, Value b);
int string_compare(Value a, Value b);  // <0, 0, >0 by code point
uint64_t string_hash(Value s);
Value string_copy(VM& vm, Value s);
// s, or a copy of it whose characters are in a Blob, which string_copy's
// copies share rather than copy (a string literal's constant).
Value string_shareable(VM& vm, Value s);
// A string of len characters, zero, in a Blob: the library image's string
// constants, so that a literal's is string_shareable as the compiler made
// it (the others, quoted data, are as good in a Blob).
Value make_string_in_blob(VM& vm, uint64_t len, bool wide);
// The bytes of s's characters, one or four (native order) each as s is
// narrow or wide: for filling a string just made (the library image).
uint8_t* string_bytes(Value s);
// A fresh string of s's characters [start, end) (start <= end <= len,
// unchecked), as wide as s is.
Value string_slice(VM& vm, Value s, uint64_t start, uint64_t end);

// UTF-8 helpers shared by the reader, the printer and the ports.
// The one encoder: cp's bytes into b (room for 4), their number returned.
size_t utf8_encode(uint32_t cp, char* b);
void utf8_append(std::string& out, uint32_t cp);
// Decodes one code point at s[i], advancing i; invalid bytes decode as U+FFFD.
uint32_t utf8_decode(std::string_view s, size_t& i);

}  // namespace vm
