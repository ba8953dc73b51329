// compiler/reader.h — the reader: Arc source text to Arc values (docs/LANGUAGE.md 2).
//
// Every list the reader builds is made of SrcConses carrying the position of
// its opening parenthesis (a quote-family wrapper carries the position of its
// quote character), so the compiler can name file:line:col in its messages.
// Malformed input raises an Arc error (vm::ArcError) whose message names the
// offending position as "file:line:col".
//
// The reader never recurses on the machine stack: nesting is kept on an
// explicit stack, so any depth of parentheses reads without crashing. It
// allocates while reading but holds no Values between read() calls
// (allocation never collects, gc/heap.h rule 1), so callers need root only
// the forms they keep.
#pragma once
#include <cstdint>
#include <string>

#include "vm/value.h"

namespace vm {
struct PortImpl;
class VM;
}  // namespace vm

namespace compiler {

class FormBuilder;

class Reader {
 public:
  // Reads UTF-8 text; positions name `file`, and its first line is
  // first_line (the REPL's piped input counts on from the last entry).
  Reader(vm::VM& vm, std::string text, std::string file, uint32_t first_line = 1);
  // Reads characters from an input port; positions name the port.
  Reader(vm::VM& vm, vm::PortImpl* port);

  // Reads the next form into out. Returns false at end of input (nothing but
  // whitespace and comments left). Throws vm::ArcError on malformed input.
  bool read(vm::Value& out);

  // After read() threw: true when the error was the input ending inside an
  // unfinished form, i.e. more text could have completed it.
  bool error_at_eof() const { return eof_error_; }
  // ... and that it ended inside text: a string, a |symbol| or a #| comment.
  bool error_inside_text() const { return eof_in_text_; }

  // Where the next character is (lines and columns count from 1).
  uint32_t line() const { return line_; }
  uint32_t col() const { return col_; }
  const std::string& file() const { return file_; }

 private:
  friend class FormBuilder;  // builds lists from the tokens read here

  vm::VM& vm_;  // the VM whose heap the forms are made in

  // Character source: UTF-8 text or a port; -1 at end of input.
  int32_t peek();
  int32_t next();

  [[noreturn]] void fail(const std::string& what, uint32_t line, uint32_t col, bool at_eof = false);
  [[noreturn]] void fail_in_text(const std::string& what, uint32_t line, uint32_t col);
  std::string where(uint32_t line, uint32_t col) const;
  uint64_t pos(uint32_t line, uint32_t col) const;

  void skip_atmosphere();
  void skip_block_comment(uint32_t line, uint32_t col);
  vm::Value read_string(uint32_t line, uint32_t col);
  void read_escape(std::u32string& out, uint32_t line, uint32_t col);
  uint32_t read_digits(int base, int max, int& count);
  uint32_t checked_code_point(uint32_t cp, uint32_t line, uint32_t col);
  vm::Value read_char_literal(uint32_t line, uint32_t col);
  vm::Value read_char_name(int32_t first, uint32_t line, uint32_t col);
  bool read_token(std::string& text, uint32_t line, uint32_t col);
  void read_bar_quoted(std::string& text, uint32_t line, uint32_t col);
  vm::Value atom(const std::string& text, bool quoted, uint32_t line, uint32_t col);
  vm::Value hash_atom(const std::string& text, uint32_t line, uint32_t col);

  std::string text_;
  size_t index_ = 0;
  vm::PortImpl* port_ = nullptr;
  std::string file_;
  uint32_t file_id_ = 0;
  uint32_t line_ = 1, col_ = 1;
  bool eof_error_ = false;
  bool eof_in_text_ = false;
};

// Every form in text, as an Arc list (in order).
vm::Value read_all(vm::VM& vm, const std::string& text, const std::string& file);

// For the REPL's multi-line input: true when text holds no unfinished form
// (complete forms, or only whitespace and comments). Text with an error other
// than running out of input (say an unbalanced ')') counts as complete, so
// the REPL reads it and reports the error.
bool form_complete(vm::VM& vm, const std::string& text);
// For the REPL's completion: true when text ends inside a string, a |symbol|
// or a #| comment, where a name is not being typed.
bool ends_inside_text(vm::VM& vm, const std::string& text);

}  // namespace compiler
