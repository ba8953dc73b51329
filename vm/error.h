// vm/error.h — the one error path. C++ code raises an Arc error by throwing
// ArcError, which carries an Exception object; the interpreter catches it at
// the builtin (or compiler) boundary, adds the Arc backtrace and hands it to
// the innermost on-err handler. No safe point lies between the throw and the
// catch, so the Value inside needs no root.
#pragma once
#include <initializer_list>
#include <string>

#include "vm/value.h"

namespace vm {

class VM;  // vm/vm.h

struct ArcError {
  Value exc;  // an Exception object
};

// Raises an error whose message is msg followed by each irritant as Arc
// 3.1's errors show it (vm/print.h, error_form), separated by spaces (as
// Arc's err does).
[[noreturn]] void throw_error(VM& vm, const std::string& msg,
                              std::initializer_list<Value> irritants = {});
// Same, with irritants given as an Arc list.
[[noreturn]] void throw_error_list(VM& vm, const std::string& msg, Value irritants);

// "Function call on inappropriate object F '(ARGS...)": calling f, which is
// not a function, with args[0..n) (docs/LANGUAGE.md 3.7).
[[noreturn]] void call_error(VM& vm, Value f, const Value* args, int n);

// "fn: expected WHAT, got X" — for a builtin's bad argument.
[[noreturn]] void type_error(VM& vm, const char* fn, const char* expected, Value got);
// "fn: argument N is X" and then `rest`: for a builtin whose arguments
// play the same part (+, -, *, /), where only the position tells which one
// is wrong. N counts from 1.
[[noreturn]] void arg_error(VM& vm, const char* fn, int position, Value got,
                            const std::string& rest);
// A value as an error shows it (error_form), cut to Racket's
// error-print-width as every irritant is.
std::string irritant_form(VM& vm, Value v);
// "fn: expects N arguments, got M".
[[noreturn]] void arity_error(VM& vm, const std::string& fn, int min, int max, int got);

// The message of an Exception as a C++ string.
std::string exception_message(Value exc);
// "Error: MESSAGE" and the Arc backtrace, a line each: how the REPL, the
// script runner and a failed thread report an uncaught error.
std::string describe_error(Value exc);

}  // namespace vm
