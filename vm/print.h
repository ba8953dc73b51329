// vm/print.h — printed forms (docs/LANGUAGE.md 1 and 7.10): write (re-readable:
// strings quoted, chars as #\c) and disp (for humans).
#pragma once
#include <string>

#include "vm/object.h"

namespace vm {

struct PortImpl;

// v's printed form appended to out, UTF-8.
void print_value(VM& vm, std::string& out, Value v, bool write);
// The same written to a port: encoded straight into its buffer
// (PortImpl::out_buffer), so a string, a symbol or a number is copied
// once, from the heap to the port.
void print_value(VM& vm, PortImpl& out, Value v, bool write);
// xs[0..n) the same, one after another, with one look at the port's buffer
// for them all (pr and prn print several values a call).
void print_values(VM& vm, PortImpl& out, const Value* xs, int n, bool write);
std::string write_string(VM& vm, Value v);  // written form
std::string disp_string(VM& vm, Value v);   // displayed form
// v as Arc 3.1's error messages show it (Racket's print): written, lists
// with their nil terminators, and quoted (a symbol, nil, t, a list, a table
// or a tagged object) unless quoted is false: 'a, '(1 "b" . nil), 3.
std::string error_form(VM& vm, Value v, bool quoted = true);

}  // namespace vm
