// tests/unit/support.h — what the unit tests share: one Runtime (one heap,
// one VM, one symbol table) for the whole test binary, and helpers to run
// Arc text in it.
#pragma once
#include <string>

#include "compiler/runtime.h"
#include "vm/error.h"

namespace support {

compiler::Runtime& runtime();
// The written form of the value of the last form of src.
std::string eval(const std::string& src);
// The message of the error src raises, or "" if it raises none.
std::string error_of(const std::string& src);
// What src writes to stdout.
std::string output_of(const std::string& src);

// The message of the Arc error f() raises, or "" if it raises none.
template <class F>
std::string error_from(F f) {
  try {
    f();
  } catch (const vm::ArcError& e) {
    return vm::exception_message(e.exc);
  }
  return "";
}

}  // namespace support
