// vm/error.cpp — building Arc errors from C++.
#include "vm/error.h"

#include "vm/object.h"
#include "vm/print.h"
#include "vm/string.h"

namespace vm {

void throw_error_list(const std::string& msg, Value irritants) {
  std::string text = msg;
  for (Value p = irritants; is_cons(p); p = cdr(p)) {
    text += ' ';
    text += write_string(car(p));
  }
  throw ArcError{make_exception(make_string_utf8(text), irritants, NIL)};
}

void throw_error(const std::string& msg, std::initializer_list<Value> irritants) {
  throw_error_list(msg, list(irritants));
}

void type_error(const char* fn, const char* expected, Value got) {
  throw_error(std::string(fn) + ": expected " + expected + ", got", {got});
}

void arity_error(const std::string& fn, int min, int max, int got) {
  std::string want;
  if (max < 0) want = "at least " + std::to_string(min);
  else if (min == max) want = std::to_string(min);
  else want = std::to_string(min) + " to " + std::to_string(max);
  bool one = want == "1" || want == "at least 1";
  throw_error(fn + ": expects " + want + " argument" + (one ? "" : "s") + ", got " +
              std::to_string(got));
}

std::string exception_message(Value exc) { return string_utf8(exc.as<Exception>()->message); }

std::string describe_error(Value exc) {
  std::string out = "Error: " + exception_message(exc) + "\n";
  for (Value p = exc.as<Exception>()->backtrace; is_cons(p); p = cdr(p))
    out += string_utf8(car(p)) + "\n";
  return out;
}

}  // namespace vm
