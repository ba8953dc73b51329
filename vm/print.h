// vm/print.h — printed forms (docs/LANGUAGE.md 1 and 7.10): write (re-readable:
// strings quoted, chars as #\c) and disp (for humans).
#pragma once
#include <string>

#include "vm/object.h"

namespace vm {

void print_value(std::string& out, Value v, bool write);
std::string write_string(Value v);  // written form
std::string disp_string(Value v);   // displayed form

}  // namespace vm
