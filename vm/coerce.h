// vm/coerce.h — `type` and `coerce` (docs/LANGUAGE.md 1, 4.7), shared by the builtins
// and by `+`, which coerces every argument to a string when its first
// argument is a string or a character.
#pragma once
#include <string>

#include "vm/object.h"
#include "vm/vm.h"

namespace vm {

// (type x): the type symbol; a tagged object's tag. Internal kinds raise
// "type: unknown type". Inline: coerce asks it of every value first.
Value arc_type_by_object(VM& vm, Value v);  // the kinds whose type is not their kind's
inline Value arc_type(VM& vm, Value v) {
  Value t = vm.S.kind_type[int(TYPE(v))];
  return __builtin_expect(t.is_nil(), 0) ? arc_type_by_object(vm, v) : t;
}
// (coerce x type arg): arg is the radix, or MISSING/nil for 10.
Value coerce(VM& vm, Value x, Value type, Value arg);
// (coerce v 'string), always a String: nil -> "", symbols their names,
// numbers their text, chars one-char strings, strings themselves, lists the
// concatenation of their elements each coerced. Anything else raises
// "Can't coerce X string".
Value coerce_to_string(VM& vm, Value v);
// The same text, appended to out (lets `+` build one string from many).
void append_as_string(VM& vm, std::u32string& out, Value v);

}  // namespace vm
