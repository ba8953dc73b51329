// vm/table.h — Arc tables: keys compared structurally (Racket's equal?):
// strings by content, conses element-wise, numbers by value and exactness,
// everything else by identity. A table never holds nil as a value: storing
// nil deletes the key (vm/table.cpp: its entry stays, dead, to the next
// rebuild).
#pragma once
#include "vm/object.h"

namespace vm {

Value make_table(VM& vm, uint64_t capacity = 0);
// The hash part's lookup (vm/table.cpp); table_get tries the array part first.
Value table_get_hashed(Value t, Value key, Value dflt);
// The value of key in t, or dflt. Inline, for the interpreter's call of a
// table: a fixnum key within the array part is one compare and one load.
inline Value table_get(Value t, Value key, Value dflt = NIL) {
  const Table* tb = t.as<Table>();
  // A negative fixnum is a huge index, past any array part.
  if (key.is_fixnum() && uint64_t(key.as_fixnum()) < tb->asize) {
    Value v = tb->array.as<Vector>()->items[key.as_fixnum()];
    return v.is_nil() ? dflt : v;
  }
  return table_get_hashed(t, key, dflt);
}
// Stores val under key (nil deletes); the index of key's entry in the hash
// part after it (a field site's cache: table_cached_slot), or -1 when the
// key is in the array part, was absent and val nil, or was an object other
// than a symbol and deleted (its entry keeps GONE instead: vm/table.cpp).
int64_t table_put(VM& vm, Value t, Value key, Value val);
// table_put when key is in t's array part, inline for the interpreter's
// SREF and SREFLL (always: with two callers in the loop GCC made it a
// call); false, having stored nothing, when it is not. (set is vm/vm.h's.)
[[gnu::always_inline]] inline bool table_put_array(VM& vm, Value t, Value key, Value val) {
  Table* tb = t.as<Table>();
  if (!key.is_fixnum() || uint64_t(key.as_fixnum()) >= tb->asize) return false;
  Vector* a = tb->array.as<Vector>();
  Value* slot = &a->items[key.as_fixnum()];
  int64_t change = int64_t(!val.is_nil()) - int64_t(!slot->is_nil());
  tb->count += uint64_t(change);
  tb->acount += uint64_t(change);
  set(vm, &a->h, slot, val);
  return true;
}
uint64_t table_count(Value t);
// A site's cache of a field b!x (GETF, SETF: vm/opcodes.def) is the index
// of the symbol key's entry in the hash part of the table it last found
// the key in (a symbol key never lives in the array part). It is only a
// guess, checked by the key in that entry: a table rebuilt since, or
// another table with its keys elsewhere, misses, and the miss finds the
// key by hashing (table_hash_index) and remembers its index again. A key
// deleted keeps its entry, dead (its value nil), so a field set to nil
// and back hits. key's value slot if index holds it, else null.
inline Value* table_cached_slot(Value t, Value key, uint32_t index) {
  Value s = t.as<Table>()->slots;
  if (s.is_nil()) return nullptr;
  Vector* v = s.as<Vector>();
  if (uint64_t(index) * 2 >= v->len || v->items[2 * uint64_t(index)] != key) return nullptr;
  return &v->items[2 * uint64_t(index) + 1];
}
// The index of key's entry in t's hash part (live or dead), or -1 if it has none.
int64_t table_hash_index(Value t, Value key);
// The value of the entry at index in t's hash part (one table_hash_index gave).
inline Value table_hash_value(Value t, int64_t index) {
  return t.as<Table>()->slots.as<Vector>()->items[2 * index + 1];
}
// Stores v into the value slot of an entry of t's hash part (one
// table_cached_slot gave): nil deletes, leaving the entry dead; a value
// into a dead entry makes it live again.
inline void table_store_cached(VM& vm, Value t, Value* slot, Value v) {
  Table* tb = t.as<Table>();
  if (__builtin_expect(v.is_nil() != slot->is_nil(), 0)) tb->count += v.is_nil() ? ~uint64_t(0) : 1;
  set(vm, &tb->slots.as<Vector>()->h, slot, v);
}
// Calls f(key, value) for each entry, the array part's first, in key
// order; f must not modify the table.
template <class F>
void table_each(Value t, F f) {
  const Table* tb = t.as<Table>();
  for (uint64_t i = 0; i < tb->asize; ++i) {
    Value v = tb->array.as<Vector>()->items[i];
    if (!v.is_nil()) f(Value::fixnum(int64_t(i)), v);
  }
  Value slots = tb->slots;
  if (slots.is_nil()) return;
  Vector* v = slots.as<Vector>();
  for (uint64_t i = 0; i < v->len; i += 2) {
    Value k = v->items[i];
    if (k != EMPTY && !v->items[i + 1].is_nil()) f(k, v->items[i + 1]);
  }
}
// Racket's equal? and a hash consistent with it.
bool arc_equal(Value a, Value b);
uint64_t equal_hash(Value v);
// `is`: identity, numbers by value and exactness, strings by content.
bool arc_is(Value a, Value b);
// Whether two heap objects of this kind may be is without being the same
// object (arc_is): strings and boxed numbers. A symbol, cons or table is
// only ever itself. The interpreter's fast path tests the header's kind
// with it, as its other fast paths test tags.
inline bool compared_by_value(uint8_t kind) {
  return kind == uint8_t(Kind::String) || kind == uint8_t(Kind::Flonum) ||
         kind == uint8_t(Kind::Bignum) || kind == uint8_t(Kind::Ratnum);
}

}  // namespace vm
