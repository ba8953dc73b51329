// vm/builtins/io.cpp — the port builtins of docs/LANGUAGE.md 4.8: the current ports,
// string ports, reading and writing characters and bytes, write/disp,
// close and flushout. Opening files and pipe-from are the I/O library's
// (io/os.cpp).
//
// call-w/stdout and call-w/stdin are written in Arc (they need dynamic-wind)
// on top of %set-stdout and %set-stdin here; sread/readline live with the
// reader.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "vm/builtins.h"
#include "vm/error.h"
#include "vm/port.h"
#include "vm/print.h"
#include "vm/string.h"
#include "vm/symbol.h"
#include "vm/vm.h"

namespace vm {

namespace {

// The optional port argument at index i, or the given default.
Value port_arg(Value* args, int nargs, int i, Value dflt) { return nargs > i ? args[i] : dflt; }

// An interactive read from stdin first shows what was written (a prompt).
PortImpl* input_arg(VM& vm, const char* fn, Value* args, int nargs, int i) {
  PortImpl* in = arg_input(vm, fn, port_arg(args, nargs, i, vm.in_port()));
  if (in->fd() == 0 && is_output_port(vm.out_port()) && !port_impl(vm.out_port())->closed)
    port_impl(vm.out_port())->flush();
  return in;
}

// Argument i if given, else the current output port. That one is not asked
// what it is: every store into the VM's out port (set_out_port: %set-stdout, a thread's switch
// back to its own) has checked it to be an output port, so only whether it
// has been closed since is left to ask.
PortImpl* output_arg(VM& vm, const char* fn, Value* args, int nargs, int i) {
  if (nargs <= i) {
    PortImpl* p = port_impl(vm.out_port());
    if (p && p->is_output && !p->closed) return p;
  }
  return arg_output(vm, fn, port_arg(args, nargs, i, vm.out_port()));
}

// ---- the current ports ----

Value bi_stdin(VM& vm, Value*, int) { return vm.in_port(); }
Value bi_stdout(VM& vm, Value*, int) { return vm.out_port(); }
Value bi_stderr(VM& vm, Value*, int) { return vm.err_port(); }

Value bi_set_stdout(VM& vm, Value* args, int) {
  if (!is_output_port(args[0])) type_error(vm, "%set-stdout", "an output port", args[0]);
  Value old = vm.out_port();
  vm.set_out_port(args[0]);
  return old;
}

Value bi_set_stdin(VM& vm, Value* args, int) {
  if (!is_input_port(args[0])) type_error(vm, "%set-stdin", "an input port", args[0]);
  Value old = vm.in_port();
  vm.set_in_port(args[0]);
  return old;
}

// ---- string ports ----

// (%check-input-open who port): nil, or the error an open input port's
// reader would raise, named for who (an Arc-defined reader such as
// readline, lib.arc's %check-input).
Value bi_check_input_open(VM& vm, Value* args, int) {
  std::string who = arg_text(vm, "%check-input-open", args[0]);
  arg_input(vm, who.c_str(), args[1]);
  return NIL;
}

Value bi_instring(VM& vm, Value* args, int) {
  return make_port(vm, make_input_string(string_utf8(arg_string(vm, "instring", args[0]))));
}

// The optional argument is a port name in Racket; it is accepted and ignored.
Value bi_outstring(VM& vm, Value*, int) { return make_port(vm, make_output_string()); }

// Works on a closed string port too: its contents stay readable. The
// buffer is UTF-8; all ASCII (most pages), it becomes a narrow string by
// one memcpy (make_string_utf8).
Value bi_inside(VM& vm, Value* args, int) {
  std::string* s = is_output_port(args[0]) ? port_impl(args[0])->contents() : nullptr;
  if (!s) type_error(vm, "inside", "an output string port", args[0]);
  return make_string_utf8(vm, *s);
}

// ---- characters and bytes ----

Value bi_readc(VM& vm, Value* args, int nargs) {
  int32_t c = input_arg(vm, "readc", args, nargs, 0)->read_char();
  return c < 0 ? NIL : Value::character(uint32_t(c));
}

Value bi_readb(VM& vm, Value* args, int nargs) {
  int b = input_arg(vm, "readb", args, nargs, 0)->read_byte();
  return b < 0 ? NIL : Value::fixnum(b);
}

Value bi_peekc(VM& vm, Value* args, int nargs) {
  int32_t c = input_arg(vm, "peekc", args, nargs, 0)->peek_char();
  return c < 0 ? NIL : Value::character(uint32_t(c));
}

Value bi_writec(VM& vm, Value* args, int nargs) {
  uint32_t c = arg_char(vm, "writec", args[0]);
  output_arg(vm, "writec", args, nargs, 1)->write_char(c);
  return args[0];
}

Value bi_writeb(VM& vm, Value* args, int nargs) {
  int64_t b = arg_index(vm, "writeb", args[0]);
  if (b > 255) type_error(vm, "writeb", "a byte (0 to 255)", args[0]);
  char byte = char(b);
  output_arg(vm, "writeb", args, nargs, 1)->write_bytes(&byte, 1);
  return args[0];
}

// ---- printing ----

Value print_to(VM& vm, const char* fn, Value* args, int nargs, bool write) {
  if (nargs == 0) return NIL;
  PortImpl* out = output_arg(vm, fn, args, nargs, 1);
  print_value(vm, *out, args[0], write);
  if (!vm.declarations().explicit_flush) out->flush();
  return NIL;
}

Value bi_write(VM& vm, Value* args, int nargs) { return print_to(vm, "write", args, nargs, true); }

// (%log-line port items (o flush t)): items displayed, separated by
// spaces, then a newline, added to the port whole and flushed: one write
// per line, as a log shared by threads (and processes) must have, without
// building the line in Arc. With flush nil the line waits in the port's
// buffer (which is only ever written out in whole lines).
Value bi_log_line(VM& vm, Value* args, int nargs) {
  PortImpl* out = arg_output(vm, "%log-line", args[0]);
  std::string text;
  for (Value l = args[1]; TYPE(l) == Kind::Cons; l = cdr(l)) {
    if (!text.empty()) text += ' ';
    print_value(vm, text, car(l), false);
  }
  text += '\n';
  out->write_str(text);
  if (nargs < 3 || !args[2].is_nil()) out->flush();
  return NIL;
}
Value bi_disp(VM& vm, Value* args, int nargs) { return print_to(vm, "disp", args, nargs, false); }

// (pr . xs) and (prn . xs): each x displayed on the current output port,
// prn then a newline; both return the first x. Arc 3.1 defines them in
// arc.arc as disp mapped over xs; here they are one call, since a page of
// HTML is mostly pr calls: one port check and one flush for all of xs.
// Each x is printed straight into the port's buffer (print_values), so an
// x that cannot be printed leaves the ones before it written, as disp one
// at a time would.
Value print_all(VM& vm, Value* args, int nargs, bool newline) {
  PortImpl* out = output_arg(vm, newline ? "prn" : "pr", args, 0, 0);
  print_values(vm, *out, args, nargs, false);
  if (newline) out->write_char('\n');
  if (!vm.declarations().explicit_flush) out->flush();
  return nargs ? args[0] : NIL;
}
Value bi_pr(VM& vm, Value* args, int nargs) { return print_all(vm, args, nargs, false); }
Value bi_prn(VM& vm, Value* args, int nargs) { return print_all(vm, args, nargs, true); }

// ---- closing and flushing ----

// Closing twice is harmless; closing what is neither a port nor an object
// a library gives a close (a listening socket: vm/library.h, KindOps) is an
// error. force-close resets a socket's connection, dropping what it has
// not sent (PortImpl::abort).
Value close_ports(VM& vm, const char* fn, Value* args, int nargs, bool force) {
  for (int i = 0; i < nargs; ++i) {
    Kind k = TYPE(args[i]);
    if (k != Kind::Port && (int(k) >= kHeapKinds || !vm.kind_ops(k).close))
      type_error(vm, fn, "a port or socket", args[i]);
  }
  for (int i = 0; i < nargs; ++i) {
    if (Kind k = TYPE(args[i]); k != Kind::Port) {
      vm.kind_ops(k).close(args[i], force);
      continue;
    }
    PortImpl* p = port_impl(args[i]);
    if (p && !p->closed) force ? p->abort() : p->close();
  }
  return NIL;
}

Value bi_close(VM& vm, Value* args, int nargs) {
  return close_ports(vm, "close", args, nargs, false);
}
Value bi_force_close(VM& vm, Value* args, int nargs) {
  return close_ports(vm, "force-close", args, nargs, true);
}

Value bi_flushout(VM& vm, Value* args, int nargs) {
  output_arg(vm, "flushout", args, nargs, 0)->flush();
  return T;
}

const BuiltinDef kIoBuiltins[] = {
    {"stdin", bi_stdin, 0, 0, "the current input port"},
    {"stdout", bi_stdout, 0, 0, "the current output port"},
    {"stderr", bi_stderr, 0, 0, "the current error port"},
    {"%set-stdout", bi_set_stdout, 1, 1, "make port the current output port; returns the old one"},
    {"%set-stdin", bi_set_stdin, 1, 1, "make port the current input port; returns the old one"},
    {"%check-input-open", bi_check_input_open, 2, 2, "an error unless port is an open input"},
    {"instring", bi_instring, 1, 1, "an input port reading the characters of a string"},
    {"outstring", bi_outstring, 0, 1, "an output port accumulating a string"},
    {"inside", bi_inside, 1, 1, "the string accumulated by an outstring port"},
    {"readc", bi_readc, 0, 1, "next character, or nil at end of input"},
    {"readb", bi_readb, 0, 1, "next byte 0-255, or nil at end of input"},
    {"peekc", bi_peekc, 0, 1, "next character without consuming it, or nil"},
    {"writec", bi_writec, 1, 2, "write a character; returns it"},
    {"writeb", bi_writeb, 1, 2, "write a byte 0-255; returns it"},
    {"write", bi_write, 0, 2, "print x re-readably; returns nil"},
    {"disp", bi_disp, 0, 2, "print x for humans; returns nil"},
    {"pr", bi_pr, 0, -1, "display each argument on stdout; returns the first"},
    {"prn", bi_prn, 0, -1, "display each argument on stdout, then a newline; returns the first"},
    {"%log-line", bi_log_line, 2, 3, "(%log-line port items (o flush t)): one line of items"},
    {"close", bi_close, 0, -1, "close each port; returns nil"},
    {"force-close", bi_force_close, 0, -1, "close each port at once; returns nil"},
    {"flushout", bi_flushout, 0, 1, "flush the current output port; returns t"},
};

}  // namespace

void register_io_builtins(VM& vm) { define_builtins(vm, kIoBuiltins); }

}  // namespace vm
