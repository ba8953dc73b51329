// vm/port.h — Arc ports. A Port object owns a PortImpl; the impl is deleted
// when the port is collected (and closed first if it was open). Characters
// cross a port as UTF-8; readb/writeb see the bytes. An output port (file,
// socket, string, response) keeps what was written to it as UTF-8 bytes in
// a std::string, which the printer encodes into in place (out_buffer).
#pragma once
#include <cstdint>
#include <string>

#include "vm/object.h"

namespace vm {

struct PortImpl {
  virtual ~PortImpl() = default;
  bool is_input = false;
  bool is_output = false;
  bool closed = false;
  std::string name;  // for printing: a path, "string", "stdin", ...

  // Input side. -1 at end of input. read_byte/peek_byte serve the pushback
  // (bytes peek_char looked at) before asking the subclass.
  int read_byte() { return pb_n_ ? pb_[--pb_n_] : next_byte(); }
  int peek_byte() { return pb_n_ ? pb_[pb_n_ - 1] : look_byte(); }
  int32_t read_char();  // decodes UTF-8 (invalid bytes: U+FFFD); -1 at end
  int32_t peek_char();  // the same without consuming
  // Output side.
  virtual void write_bytes(const char* p, size_t n) = 0;
  void write_str(const std::string& s) { write_bytes(s.data(), s.size()); }
  void write_char(uint32_t c);
  // Writing in place, for a writer that encodes straight into the port
  // rather than into a string of its own first (the printer, vm/print.h):
  // out_buffer() is the port's buffer of bytes not yet sent, or null if
  // it has none or takes no bytes now (an input port, a closed one), when
  // write_bytes is the way in. The writer appends to the buffer, and may
  // cut back what it appended, then calls wrote(from), from being the
  // buffer's size before, for the port to do what write_bytes does after
  // appending (send a full buffer, a terminal's finished line). Between
  // the two nothing may write to the port or let another thread run.
  virtual std::string* out_buffer() { return nullptr; }
  virtual void wrote(size_t from) { (void)from; }
  virtual void flush() {}
  virtual void close() { closed = true; }
  // force-close: for a socket, drop unsent output and reset the connection
  // (io/socket.h); for other ports, the same as close.
  virtual void abort() { close(); }
  // The file descriptor underneath, or -1 (string ports).
  virtual int fd() const { return -1; }
  // An output string port's contents so far, UTF-8; null for other ports.
  virtual std::string* contents() { return nullptr; }

 protected:
  // What a subclass implements for input: consume / look at the next byte of
  // the underlying source, -1 at end. Output-only ports return -1.
  virtual int next_byte() { return -1; }
  virtual int look_byte() { return -1; }

 private:
  // Bytes given back by peek_char, last one first out; a UTF-8 sequence is
  // at most 4 bytes.
  uint8_t pb_[4] = {};
  int pb_n_ = 0;
  // Decodes one character, recording the bytes it consumed in seen[0..n).
  int32_t decode(uint8_t seen[4], int& n);
};

Value make_port(VM& vm, PortImpl* impl);
inline PortImpl* port_impl(Value p) { return p.as<Port>()->impl; }
bool is_input_port(Value v);
bool is_output_port(Value v);
// Flushes port if it is an open output port, ignoring a failure (a broken
// port with nobody left to tell: before a fork, an exit, a child's output).
void flush_quietly(Value port);
// Gives back the memory of the empty buffers of file and socket output
// ports, which keep the room of their largest fill (for an idle server:
// %trim-memory). The bytes given back.
size_t release_output_buffers();

// The REPL's prompt, which output to a terminal steps around while the
// prompt waits for a line and other threads print: hide clears the prompt's
// line before bytes go to a terminal, show redraws it after them, told
// whether they ended a line. Process-wide, as the terminal is; unset (the
// default), terminal output is written as it comes.
struct TerminalHooks {
  void (*hide)() = nullptr;
  void (*show)(bool line_ended) = nullptr;
};
void set_terminal_hooks(TerminalHooks hooks);
const TerminalHooks& terminal_hooks();

// Constructors (vm/port.cpp). File opening errors are Arc errors.
PortImpl* open_input_file(VM& vm, const std::string& path);
PortImpl* open_output_file(VM& vm, const std::string& path, bool append);
PortImpl* make_input_string(const std::string& utf8);
PortImpl* make_output_string();
// A descriptor's port keeps the VM that made it, whose threads its reads,
// writes and close wait with and wake (vm/thread.h), as every port that
// may wait does (io/socket.h's too): its virtual fill and drain are given
// no VM. So it is used, closed and finalized while that VM exists (the
// heap's owner finalizes before it ends the VM: gc::Heap::finalize_all).
PortImpl* make_fd_input(VM& vm, int fd, const std::string& name, bool owns);
PortImpl* make_fd_output(VM& vm, int fd, const std::string& name, bool owns);

// Shell commands whose output feeds a port (pipe-from, system): starts
// `/bin/sh -c cmd` with its stdout on out_fd (stdin and stderr inherited).
// Returns the child's pid, or -1 with errno set.
int spawn_shell(const std::string& cmd, int out_fd);
// Waits for a child started by spawn_shell; its exit status or -1.
int wait_child(VM& vm, int pid);

}  // namespace vm
