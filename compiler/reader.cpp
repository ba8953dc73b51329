// compiler/reader.cpp — the reader (docs/LANGUAGE.md 2): a character lexer (Reader)
// and an iterative list builder (FormBuilder) that keeps open lists, pending
// quotes and #; comments on an explicit stack instead of the machine stack.
#include "compiler/reader.h"

#include <optional>
#include <vector>

#include "vm/error.h"
#include "vm/number.h"
#include "vm/object.h"
#include "vm/port.h"
#include "vm/string.h"
#include "vm/symbol.h"
#include "vm/vm.h"

namespace compiler {

using vm::NIL;
using vm::Value;

namespace {

bool is_whitespace(int32_t c) {
  if (c < 0x80) return c == ' ' || (c >= '\t' && c <= '\r');  // \t \n \v \f \r
  switch (c) {
    case 0x85:
    case 0xA0:
    case 0x1680:
    case 0x2028:
    case 0x2029:
    case 0x202F:
    case 0x205F:
    case 0x3000: return true;
    default: return c >= 0x2000 && c <= 0x200A;
  }
}

// docs/LANGUAGE.md 2.2: what ends a token.
bool is_delimiter(int32_t c) {
  switch (c) {
    case '(':
    case ')':
    case '[':
    case ']':
    case '{':
    case '}':
    case '"':
    case ';':
    case '\'':
    case '`':
    case ',': return true;
    default: return is_whitespace(c);
  }
}

bool is_alpha(int32_t c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_octal(int32_t c) { return c >= '0' && c <= '7'; }

int digit_value(int32_t c, int base) {
  int d = -1;
  if (c >= '0' && c <= '9') d = c - '0';
  else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
  else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
  return d < base ? d : -1;
}

std::string lowercase(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
  return s;
}

// docs/LANGUAGE.md 2.5. Names are matched without regard to case, as the host does.
std::optional<uint32_t> char_by_name(const std::string& name) {
  static const struct {
    const char* name;
    uint32_t cp;
  } kNames[] = {
      {"space", ' '},   {"newline", '\n'}, {"linefeed", '\n'}, {"tab", '\t'},
      {"return", '\r'}, {"nul", 0},        {"null", 0},        {"backspace", 8},
      {"rubout", 127},  {"delete", 127},   {"page", 12},       {"vtab", 11},
  };
  std::string lower = lowercase(name);
  for (const auto& n : kNames)
    if (lower == n.name) return n.cp;
  return std::nullopt;
}

// A printable rendering of a delimiter or character for error messages.
std::string quoted_char(int32_t c) {
  std::string s = "'";
  vm::utf8_append(s, uint32_t(c));
  return s + "'";
}

}  // namespace

// ---- the character source ----

Reader::Reader(vm::VM& vm, std::string text, std::string file, uint32_t first_line)
    : vm_(vm),
      text_(std::move(text)),
      file_(std::move(file)),
      file_id_(vm::file_id(file_)),
      line_(first_line) {
  // A UTF-8 byte-order mark, which some editors write first, is not text.
  if (text_.rfind("\xEF\xBB\xBF", 0) == 0) index_ = 3;
}

Reader::Reader(vm::VM& vm, vm::PortImpl* port)
    : vm_(vm), port_(port), file_(port->name), file_id_(vm::file_id(file_)) {}

int32_t Reader::peek() {
  if (port_) return port_->peek_char();
  if (index_ >= text_.size()) return -1;
  unsigned char b = uint8_t(text_[index_]);
  if (b < 0x80) return b;
  size_t j = index_;
  return int32_t(vm::utf8_decode(text_, j));
}

int32_t Reader::next() {
  int32_t c;
  if (port_) {
    c = port_->read_char();
  } else if (index_ >= text_.size()) {
    c = -1;
  } else {
    unsigned char b = uint8_t(text_[index_]);
    c = b < 0x80 ? (++index_, b) : int32_t(vm::utf8_decode(text_, index_));
  }
  if (c == '\n') {
    ++line_;
    col_ = 1;
  } else if (c >= 0) {
    ++col_;
  }
  return c;
}

std::string Reader::where(uint32_t line, uint32_t col) const {
  return file_ + ":" + std::to_string(line) + ":" + std::to_string(col);
}

uint64_t Reader::pos(uint32_t line, uint32_t col) const {
  return vm::make_pos(file_id_, line, col);
}

void Reader::fail_in_text(const std::string& what, uint32_t line, uint32_t col) {
  eof_in_text_ = true;
  fail(what, line, col, true);
}

void Reader::fail(const std::string& what, uint32_t line, uint32_t col, bool at_eof) {
  eof_error_ = at_eof;
  vm::throw_error(vm_, "read: " + what + " at " + where(line, col));
}

// ---- whitespace and comments ----

// Skips whitespace and ; comments. (#| and #; start with '#', so the
// builder handles them once it has seen what follows the '#'.)
void Reader::skip_atmosphere() {
  for (;;) {
    int32_t c = peek();
    if (is_whitespace(c)) {
      next();
    } else if (c == ';') {
      while (c >= 0 && c != '\n') c = next();
    } else {
      return;
    }
  }
}

// Called after "#|"; block comments nest.
void Reader::skip_block_comment(uint32_t line, uint32_t col) {
  int depth = 1;
  while (depth > 0) {
    int32_t c = next();
    if (c < 0) fail_in_text("unterminated block comment", line, col);
    if (c == '|' && peek() == '#') {
      next();
      --depth;
    } else if (c == '#' && peek() == '|') {
      next();
      ++depth;
    }
  }
}

// ---- strings and characters ----

// Called after the opening '"'.
Value Reader::read_string(uint32_t line, uint32_t col) {
  std::u32string chars;
  for (;;) {
    uint32_t cl = line_, cc = col_;
    int32_t c = next();
    if (c < 0) fail_in_text("unterminated string", line, col);
    if (c == '"') return vm::make_string_u32(vm_, chars);
    if (c == '\\') read_escape(chars, cl, cc);
    else chars.push_back(char32_t(c));
  }
}

// Reads up to max digits in base; count says how many there were.
uint32_t Reader::read_digits(int base, int max, int& count) {
  uint32_t value = 0;
  for (count = 0; count < max && digit_value(peek(), base) >= 0; ++count)
    value = value * uint32_t(base) + uint32_t(digit_value(next(), base));
  return value;
}

uint32_t Reader::checked_code_point(uint32_t cp, uint32_t line, uint32_t col) {
  if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
    fail("bad character code " + std::to_string(cp), line, col);
  return cp;
}

// docs/LANGUAGE.md 2.4: one escape, the backslash at line:col already read.
void Reader::read_escape(std::u32string& out, uint32_t line, uint32_t col) {
  // Pairs: the letter after the backslash, then the character it stands for.
  static const char kSimple[] = "a\ab\bt\tn\nv\vf\fr\re\x1b\"\"''\\\\";
  int32_t c = next();
  if (c < 0) fail_in_text("unterminated string escape", line, col);
  for (size_t i = 0; kSimple[i]; i += 2)
    if (c == kSimple[i]) return out.push_back(char32_t(kSimple[i + 1]));
  if (c == '\n') return;  // line continuation: the newline is dropped
  if (c == '\r') {
    if (peek() == '\n') next();
    return;
  }
  int count = 0;
  uint32_t cp = 0;
  if (is_octal(c)) {
    // c is the first of one to three octal digits.
    uint32_t rest = read_digits(8, 2, count);
    cp = uint32_t(c - '0') << (3 * count) | rest;
    count = 1;
  } else if (c == 'x') {
    cp = read_digits(16, 2, count);
  } else if (c == 'u') {
    cp = read_digits(16, 4, count);
  } else if (c == 'U') {
    cp = read_digits(16, 8, count);
  }
  if (count == 0) fail("bad string escape \\" + std::string(1, char(c < 128 ? c : '?')), line, col);
  out.push_back(char32_t(checked_code_point(cp, line, col)));
}

// Called after "#\" (docs/LANGUAGE.md 2.5).
Value Reader::read_char_literal(uint32_t line, uint32_t col) {
  int32_t c = next();
  if (c < 0) fail("end of input after #\\", line, col, true);
  Value ch = Value::character(uint32_t(c));
  if (is_octal(c) && is_octal(peek())) {
    int count = 0;
    uint32_t rest = read_digits(8, 2, count);
    if (count != 2) fail("bad octal character (need three digits)", line, col);
    ch = Value::character(uint32_t(c - '0') * 64 + rest);
  } else if (is_alpha(c)) {
    ch = read_char_name(c, line, col);
  }
  // A constant of letters or digits ends at a delimiter: #\a1 is an error,
  // not #\a and 1 (the host's reading, which no program means).
  bool alnum = is_alpha(c) || (c >= '0' && c <= '9');
  if (alnum && peek() >= 0 && !is_delimiter(peek()))
    fail("bad character constant: " + quoted_char(peek()) + " follows it", line, col);
  return ch;
}

// After "#\" and a letter: the letter itself, #\uHHHH / #\UHHHHHHHH /
// #\xHHHHHH, or a name. A run of several letters must be a known name.
Value Reader::read_char_name(int32_t first, uint32_t line, uint32_t col) {
  if ((first == 'u' || first == 'U' || first == 'x') && digit_value(peek(), 16) >= 0) {
    int count = 0;
    uint32_t cp = read_digits(16, first == 'u' ? 4 : first == 'x' ? 6 : 8, count);
    return Value::character(checked_code_point(cp, line, col));
  }
  std::string run(1, char(first));
  while (is_alpha(peek())) run += char(next());
  if (run.size() == 1) return Value::character(uint32_t(first));
  if (auto cp = char_by_name(run)) return Value::character(*cp);
  fail("unknown character name #\\" + run, line, col);
}

// ---- tokens: numbers and symbols ----

// Appends the token's characters to text until a delimiter; |...| and a
// backslash quote characters. Returns whether anything was quoted (a quoted
// token is always a symbol).
bool Reader::read_token(std::string& text, uint32_t line, uint32_t col) {
  bool quoted = false;
  for (int32_t c = peek(); c >= 0 && !is_delimiter(c); c = peek()) {
    next();
    if (c == '|') {
      quoted = true;
      read_bar_quoted(text, line, col);
    } else if (c == '\\') {
      quoted = true;
      int32_t d = next();
      if (d < 0) fail("end of input after '\\' in symbol", line, col, true);
      vm::utf8_append(text, uint32_t(d));
    } else {
      vm::utf8_append(text, uint32_t(c));
    }
  }
  return quoted;
}

// Called after a '|' inside a token: everything up to the next '|' is
// taken literally.
void Reader::read_bar_quoted(std::string& text, uint32_t line, uint32_t col) {
  for (int32_t c = next(); c != '|'; c = next()) {
    if (c < 0) fail_in_text("unterminated |symbol|", line, col);
    vm::utf8_append(text, uint32_t(c));
  }
}

// Every number (docs/LANGUAGE.md 2.6) starts with a digit, a sign, a '.' or a '#'
// prefix; other tokens skip the number parser.
static bool could_be_number(const std::string& text) {
  char c = text.empty() ? 0 : text[0];
  return (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.' || c == '#';
}

Value Reader::atom(const std::string& text, bool quoted, uint32_t line, uint32_t col) {
  if (!quoted && could_be_number(text)) {
    std::optional<Value> n;
    try {
      n = vm::parse_number(vm_, text);
    } catch (const vm::ArcError&) {
      fail("bad number " + text, line, col);  // e.g. a division by zero in 1/0
    }
    if (n) return *n;
  }
  return vm::intern(vm_, text);
}

// A token that starts with '#' and is not a comment, character or vector:
// #t/#f (docs/LANGUAGE.md 2.8: read as t and nil) or a number with a radix or
// exactness prefix.
Value Reader::hash_atom(const std::string& text, uint32_t line, uint32_t col) {
  std::string lower = lowercase(text);
  if (lower == "#t" || lower == "#true") return vm::T;
  if (lower == "#f" || lower == "#false") return NIL;
  if (lower.size() >= 2 && std::string("xobeid").find(lower[1]) != std::string::npos) {
    Value v = atom(text, false, line, col);
    if (vm::is_number(v)) return v;
    fail("bad number " + text, line, col);
  }
  fail("bad syntax " + text, line, col);
}

// ---- building forms ----

// Builds one form. Open lists, pending quotes and #; comments wait on an
// explicit stack; list elements wait in vals_. Reading from a port can wait
// for input, and other threads run (and collect) meanwhile, so both are
// roots while the builder lives.
class FormBuilder final : public gc::RootSource {
 public:
  explicit FormBuilder(Reader& r) : r_(r), vm_(r.vm_) { vm_.heap().add_root_source(this); }
  ~FormBuilder() override { vm_.heap().remove_root_source(this); }
  bool run(Value& out);
  void trace_roots(gc::Visitor& v) override {
    v.visit_range(reinterpret_cast<gc::Word*>(vals_.data()),
                  reinterpret_cast<gc::Word*>(vals_.data() + vals_.size()));
    for (Frame& f : frames_)
      if (f.extra.is_ref()) v.visit(reinterpret_cast<gc::Word*>(&f.extra));
  }

 private:
  enum class Kind : uint8_t { List, Quote, DatumComment };
  enum Dot : uint8_t { kNoDot, kDotSeen, kTailRead };
  struct Frame {
    Kind kind;
    int32_t open;  // List: the opening character
    Dot dot;
    uint32_t line, col;  // where the frame opened
    size_t base;         // List: index of its first element in vals_
    Value extra;         // Quote: the symbol; List: the dotted tail
  };

  bool step(int32_t c, uint32_t line, uint32_t col, Value& v);
  bool hash(uint32_t line, uint32_t col, Value& v);
  bool deliver(Value v, uint32_t line, uint32_t col, Value& out);
  void add_element(Frame& f, Value v, uint32_t line, uint32_t col);
  void dot(uint32_t line, uint32_t col);
  Value close(int32_t c, uint32_t line, uint32_t col);
  Value bracket_fn(Value body, uint64_t pos);
  [[noreturn]] void fail_at_eof();
  void push(Kind k, uint32_t line, uint32_t col, Value extra = NIL, int32_t open = 0) {
    frames_.push_back(Frame{k, open, kNoDot, line, col, vals_.size(), extra});
  }

  Reader& r_;
  vm::VM& vm_;
  std::vector<Frame> frames_;
  std::vector<Value> vals_;
};

bool FormBuilder::run(Value& out) {
  for (;;) {
    r_.skip_atmosphere();
    uint32_t line = r_.line_, col = r_.col_;
    int32_t c = r_.peek();
    if (c < 0) {
      if (frames_.empty()) return false;
      fail_at_eof();
    }
    Value v;
    if (step(c, line, col, v) && deliver(v, line, col, out)) return true;
  }
}

// Reads what starts with c. Returns true with a finished datum in v, false
// when it only opened a frame or skipped a comment.
bool FormBuilder::step(int32_t c, uint32_t line, uint32_t col, Value& v) {
  switch (c) {
    case '(':
    case '[':
    case '{':
      r_.next();
      push(Kind::List, line, col, NIL, c);
      return false;
    case ')':
    case ']':
    case '}':
      r_.next();
      v = close(c, line, col);
      return true;
    case '\'':
    case '`':
    case ',': {
      r_.next();
      // Peek first: reading a port may wait, and other threads collect.
      bool splice = c == ',' && r_.peek() == '@';
      if (splice) r_.next();
      Value sym = splice      ? vm_.S.unquote_splicing
                  : c == '\'' ? vm_.S.quote
                  : c == '`'  ? vm_.S.quasiquote
                              : vm_.S.unquote;
      push(Kind::Quote, line, col, sym);
      return false;
    }
    case '"':
      r_.next();
      v = r_.read_string(line, col);
      return true;
    case '#': r_.next(); return hash(line, col, v);
  }
  std::string text;
  bool quoted = r_.read_token(text, line, col);
  if (!quoted && text == ".") {
    dot(line, col);
    return false;
  }
  v = r_.atom(text, quoted, line, col);
  return true;
}

// After a '#' at line:col.
bool FormBuilder::hash(uint32_t line, uint32_t col, Value& v) {
  int32_t c = r_.peek();
  if (c == '|') {
    r_.next();
    r_.skip_block_comment(line, col);
    return false;
  }
  if (c == ';') {
    r_.next();
    push(Kind::DatumComment, line, col);
    return false;
  }
  if (c == '\\') {
    r_.next();
    v = r_.read_char_literal(line, col);
    return true;
  }
  if (c == '(' || c == '[' || c == '{') r_.fail("vectors #( ) are not supported", line, col);
  std::string text = "#";
  r_.read_token(text, line, col);
  v = r_.hash_atom(text, line, col);
  return true;
}

// Hands a finished datum (starting at line:col) to the innermost frame.
// Returns true when it completes a top-level form, stored in out.
bool FormBuilder::deliver(Value v, uint32_t line, uint32_t col, Value& out) {
  while (!frames_.empty()) {
    Frame& f = frames_.back();
    if (f.kind == Kind::List) {
      add_element(f, v, line, col);
      return false;
    }
    if (f.kind == Kind::DatumComment) {
      frames_.pop_back();  // the datum is discarded
      return false;
    }
    uint64_t pos = r_.pos(f.line, f.col);
    v = vm::src_cons(vm_, f.extra, vm::src_cons(vm_, v, NIL, pos), pos);
    line = f.line;
    col = f.col;
    frames_.pop_back();
  }
  out = v;
  return true;
}

void FormBuilder::add_element(Frame& f, Value v, uint32_t line, uint32_t col) {
  switch (f.dot) {
    case kNoDot: vals_.push_back(v); break;
    case kDotSeen:
      f.extra = v;
      f.dot = kTailRead;
      break;
    case kTailRead: r_.fail("more than one datum after '.'", line, col);
  }
}

// A lone '.': legal only after at least one element of an open list.
void FormBuilder::dot(uint32_t line, uint32_t col) {
  if (frames_.empty()) r_.fail("misplaced '.'", line, col);
  Frame& f = frames_.back();
  if (f.kind != Kind::List || f.dot != kNoDot || vals_.size() == f.base)
    r_.fail("misplaced '.'", line, col);
  f.dot = kDotSeen;
}

// A closing delimiter c at line:col: finishes the innermost list.
Value FormBuilder::close(int32_t c, uint32_t line, uint32_t col) {
  if (frames_.empty() || frames_.back().kind != Kind::List)
    r_.fail("unexpected " + quoted_char(c), line, col);
  Frame& f = frames_.back();
  int32_t want = f.open == '(' ? ')' : f.open == '[' ? ']' : '}';
  if (c != want)
    r_.fail("unexpected " + quoted_char(c) + " (expected " + quoted_char(want) + " to close " +
                quoted_char(f.open) + " at " + r_.where(f.line, f.col) + ")",
            line, col);
  if (f.dot == kDotSeen) r_.fail("missing datum after '.'", line, col);
  uint64_t pos = r_.pos(f.line, f.col);
  Value list = f.dot == kTailRead ? f.extra : NIL;
  for (size_t i = vals_.size(); i > f.base; --i) list = vm::src_cons(vm_, vals_[i - 1], list, pos);
  vals_.resize(f.base);
  bool bracket = f.open == '[';
  frames_.pop_back();
  return bracket ? bracket_fn(list, pos) : list;
}

// docs/LANGUAGE.md 2.9: [ ... ] is (fn (_) (...)).
Value FormBuilder::bracket_fn(Value body, uint64_t pos) {
  Value params = vm::src_cons(vm_, vm_.S.underscore, NIL, pos);
  return vm::src_cons(vm_, vm_.S.fn,
                      vm::src_cons(vm_, params, vm::src_cons(vm_, body, NIL, pos), pos), pos);
}

// End of input with frames open: the innermost one names the problem.
void FormBuilder::fail_at_eof() {
  const Frame& f = frames_.back();
  std::string what = f.kind == Kind::List    ? "unclosed " + quoted_char(f.open)
                     : f.kind == Kind::Quote ? "end of input after a quote"
                                             : "end of input after #;";
  r_.fail(what, f.line, f.col, true);
}

// ---- entry points ----

bool Reader::read(Value& out) {
  eof_error_ = false;
  eof_in_text_ = false;
  FormBuilder builder(*this);
  return builder.run(out);
}

Value read_all(vm::VM& vm, const std::string& text, const std::string& file) {
  Reader reader(vm, text, file);
  // Forms wait unrooted between read() calls: reading never collects.
  std::vector<Value> forms;
  Value form;
  while (reader.read(form)) forms.push_back(form);
  Value list = NIL;
  for (size_t i = forms.size(); i > 0; --i) list = vm::cons(vm, forms[i - 1], list);
  return list;
}

namespace {

// Reads all of text as the REPL's input; false if it stopped at an error,
// which the reader then describes.
bool reads_whole(Reader& reader) {
  try {
    Value form;
    while (reader.read(form)) {
    }
    return true;
  } catch (const vm::ArcError&) {
    return false;
  }
}

}  // namespace

bool form_complete(vm::VM& vm, const std::string& text) {
  Reader reader(vm, text, "<input>");
  return reads_whole(reader) || !reader.error_at_eof();
}

bool ends_inside_text(vm::VM& vm, const std::string& text) {
  Reader reader(vm, text, "<input>");
  return !reads_whole(reader) && reader.error_inside_text();
}

}  // namespace compiler
