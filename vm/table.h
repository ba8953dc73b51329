// vm/table.h — Arc tables: keys compared structurally (Racket's equal?):
// strings by content, conses element-wise, numbers by value and exactness,
// everything else by identity. A table never holds nil as a value: storing
// nil deletes the key.
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
void table_put(VM& vm, Value t, Value key, Value val);  // val nil deletes
// table_put when key is in t's array part, inline for the interpreter's
// SREF; false, having stored nothing, when it is not. (set is vm/vm.h's.)
inline bool table_put_array(VM& vm, Value t, Value key, Value val) {
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
    if (k != EMPTY && k != TOMBSTONE) f(k, v->items[i + 1]);
  }
}
// Racket's equal? and a hash consistent with it.
bool arc_equal(Value a, Value b);
uint64_t equal_hash(Value v);
// `is`: identity, numbers by value and exactness, strings by content.
bool arc_is(Value a, Value b);

}  // namespace vm
