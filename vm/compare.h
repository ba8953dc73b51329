// vm/compare.h — the ordering behind `<` and `>` (docs/LANGUAGE.md 4.2, 7.2): numbers
// numerically, strings and symbols by code point, characters by code point.
#pragma once
#include "vm/object.h"

namespace vm {

// <0, 0 or >0 as a is less than, equal to or greater than b. Values of
// different types (or of an unordered type) raise "FN: can't compare A and B".
int compare_values(VM& vm, const char* fn, Value a, Value b);

}  // namespace vm
