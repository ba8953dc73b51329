// vm/port.h — Arc ports. A Port object owns a PortImpl; the impl is deleted
// when the port is collected (and closed first if it was open). Characters
// cross a port as UTF-8; readb/writeb see the bytes.
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

  // Input side. -1 at end of input.
  virtual int read_byte() = 0;
  virtual int peek_byte() = 0;
  int32_t read_char();   // decodes UTF-8; -1 at end
  int32_t peek_char();
  // Output side.
  virtual void write_bytes(const char* p, size_t n) = 0;
  void write_str(const std::string& s) { write_bytes(s.data(), s.size()); }
  void write_char(uint32_t c);
  virtual void flush() {}
  virtual void close() { closed = true; }
  // The file descriptor underneath, or -1 (string ports).
  virtual int fd() const { return -1; }
  // An output string port's contents so far; null for other ports.
  virtual std::string* contents() { return nullptr; }
};

Value make_port(PortImpl* impl);
inline PortImpl* port_impl(Value p) { return p.as<Port>()->impl; }
bool is_input_port(Value v);
bool is_output_port(Value v);

// Constructors (vm/port.cpp). File opening errors are Arc errors.
PortImpl* open_input_file(const std::string& path);
PortImpl* open_output_file(const std::string& path, bool append);
PortImpl* make_input_string(const std::string& utf8);
PortImpl* make_output_string();
PortImpl* make_fd_input(int fd, const std::string& name, bool owns);
PortImpl* make_fd_output(int fd, const std::string& name, bool owns);

}  // namespace vm
