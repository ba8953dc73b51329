// vm/error.cpp — building Arc errors from C++.
#include "vm/error.h"

#include <cstdint>
#include <utility>

#include "vm/object.h"
#include "vm/print.h"
#include "vm/string.h"
#include "vm/vm.h"

namespace vm {

namespace {

// An irritant's text is cut to Racket's error-print-width, 256 characters,
// its last three the "..." that says so, as in Arc 3.1.
constexpr size_t kIrritantWidth = 256;

std::string cut_form(std::string form) {
  size_t chars = 0, cut = 0;
  for (size_t i = 0; i < form.size(); ++i) {
    if ((uint8_t(form[i]) & 0xC0) == 0x80) continue;  // a UTF-8 continuation byte
    if (chars == kIrritantWidth - 3) cut = i;
    if (++chars > kIrritantWidth) {
      form.resize(cut);
      form += "...";
      break;
    }
  }
  return form;
}

void append_irritant(std::string& text, std::string form) {
  text += ' ';
  text += cut_form(std::move(form));
}

}  // namespace

std::string irritant_form(VM& vm, Value v) { return cut_form(error_form(vm, v)); }

void throw_error_list(VM& vm, const std::string& msg, Value irritants) {
  std::string text = msg;
  for (Value p = irritants; is_cons(p); p = cdr(p)) append_irritant(text, error_form(vm, car(p)));
  throw ArcError{make_exception(vm, make_string_utf8(vm, text), irritants, NIL)};
}

void call_error(VM& vm, Value f, const Value* args, int n) {
  // The arguments are the host's list (Arc 3.1's ar-apply's rest
  // parameter): no nil terminator, '() when empty.
  std::string shown = "'(";
  for (int i = 0; i < n; ++i) shown += (i ? " " : "") + error_form(vm, args[i], false);
  shown += ')';
  std::string text = "Function call on inappropriate object";
  append_irritant(text, error_form(vm, f));
  append_irritant(text, shown);
  Value irritants = NIL;
  for (int i = n; i-- > 0;) irritants = cons(vm, args[i], irritants);
  throw ArcError{make_exception(vm, make_string_utf8(vm, text), list(vm, {f, irritants}), NIL)};
}

void throw_error(VM& vm, const std::string& msg, std::initializer_list<Value> irritants) {
  throw_error_list(vm, msg, list(vm, irritants));
}

void type_error(VM& vm, const char* fn, const char* expected, Value got) {
  throw_error(vm, std::string(fn) + ": expected " + expected + ", got", {got});
}

void arg_error(VM& vm, const char* fn, int position, Value got, const std::string& rest) {
  std::string text = std::string(fn) + ": argument " + std::to_string(position) + " is " +
                     irritant_form(vm, got) + rest;
  throw ArcError{make_exception(vm, make_string_utf8(vm, text), list(vm, {got}), NIL)};
}

void arity_error(VM& vm, const std::string& fn, int min, int max, int got) {
  std::string want;
  if (max < 0) want = "at least " + std::to_string(min);
  else if (min == max) want = std::to_string(min);
  else want = std::to_string(min) + " to " + std::to_string(max);
  bool one = want == "1" || want == "at least 1";
  throw_error(vm, fn + ": expects " + want + " argument" + (one ? "" : "s") + ", got " +
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
