// vm/table.h — Arc tables: keys compared structurally (Racket's equal?):
// strings by content, conses element-wise, numbers by value and exactness,
// everything else by identity. A table never holds nil as a value: storing
// nil deletes the key.
#pragma once
#include "vm/object.h"

namespace vm {

Value make_table(VM& vm, uint64_t capacity = 0);
Value table_get(Value t, Value key, Value dflt = NIL);
void table_put(VM& vm, Value t, Value key, Value val);  // val nil deletes
uint64_t table_count(Value t);
// Calls f(key, value) for each entry; f must not modify the table.
template <class F>
void table_each(Value t, F f) {
  Value slots = t.as<Table>()->slots;
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
