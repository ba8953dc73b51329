// vm/print.cpp — the written and displayed forms of every value (docs/LANGUAGE.md 1,
// 7.10).
//
// The printer never recurses on the machine stack: containers push their
// remaining work (literal text, values, the rest of a list) on an explicit
// stack, so a long or deeply nested list prints whole in constant C++ stack
// (the VM may run on small fiber stacks).
//
// Cyclic structure prints as Racket's printer (and so Arc 3.1's) prints it,
// with labels: the list whose cdr leads back to it is #0=(1 2 3 . #0#), a
// table holding itself #0=#hash((1 . #0#)). A structure is first printed as
// if it had no cycle, watching for one (a container met again while it is
// still being printed; Floyd's tortoise and hare along a cdr chain), which
// costs a flat list one set insertion. Only when a cycle is found does a
// second pass run: a depth-first walk marks the targets of its back edges,
// and the print starts over, giving each marked container a label where it
// is first printed and #N# wherever it is met again. Every cycle holds a
// back edge's target (without those edges the graph is acyclic), so the
// labelled print ends. Structure that is shared but not cyclic is printed
// at each place, as Racket's write does without print-graph.
#include "vm/print.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <iterator>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "vm/code.h"
#include "vm/number.h"
#include "vm/port.h"
#include "vm/string.h"
#include "vm/symbol.h"
#include "vm/table.h"
#include "vm/vm.h"

namespace vm {

namespace {

enum class Step : uint8_t {
  Print,  // print v
  Text,   // append text
  Rest,   // continue the list whose next cell is v
  Leave,  // v is no longer being printed
};

struct Work {
  Step step;
  bool host_nil;  // inside a table: lists show their nil terminator
  Value v;
  Value tortoise;    // Rest: the slow pointer of the cycle check
  uint64_t n;        // Rest: cells printed so far
  const char* text;  // Text
};

// \uXXXX below U+10000, else \UXXXXXXXX, as Racket writes what it escapes.
void hex_escape(std::string& out, const char* prefix, uint32_t c) {
  char buf[16];
  if (c <= 0xFFFF) snprintf(buf, sizeof buf, "%su%04X", prefix, unsigned(c));
  else snprintf(buf, sizeof buf, "%sU%08X", prefix, unsigned(c));
  out += buf;
}

struct CodeRange {
  uint32_t first, last;
};
constexpr CodeRange kGraphic[] = {
#include "vm/unicode_graphic.inc"
};

// Racket's char-graphic? (Unicode letters, marks, numbers, punctuation and
// symbols): what its write prints raw. The rest (controls, format
// characters such as U+00AD and U+FEFF, separators such as U+2028, private
// use, unassigned) it escapes.
bool is_graphic(uint32_t c) {
  if (c < 0x7F) return c > ' ';
  if (c < 0xA1) return false;  // DEL, the C1 controls, no-break space
  auto it = std::upper_bound(std::begin(kGraphic), std::end(kGraphic), c,
                             [](uint32_t x, const CodeRange& r) { return x < r.first; });
  return it != std::begin(kGraphic) && c <= (it - 1)->last;
}

// Racket's char-blank?: tab and Unicode's space separators (Zs), printed
// raw in a string though not graphic.
bool is_blank(uint32_t c) {
  return c == ' ' || c == '\t' || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) ||
         c == 0x202F || c == 0x205F || c == 0x3000;
}

// The joiners and tag characters: not graphic, but Racket prints a string's
// grapheme clusters whole, and these continue the cluster before them
// (emoji sequences joined by U+200D, flags spelled in tags).
bool is_cluster_extender(uint32_t c) {
  return c == 0x200C || c == 0x200D || (c >= 0xE0020 && c <= 0xE007F);
}

// The escapes of Racket's write in a string (docs/LANGUAGE.md 1.6), which
// the reader takes back (2.4).
const char* string_escape(uint32_t c) {
  switch (c) {
    case '"': return "\\\"";
    case '\\': return "\\\\";
    case 7: return "\\a";
    case 8: return "\\b";
    case 9: return "\\t";
    case 10: return "\\n";
    case 11: return "\\v";
    case 12: return "\\f";
    case 13: return "\\r";
    case 27: return "\\e";
    default: return nullptr;
  }
}

void write_string_lit(std::string& out, Value s) {
  out += '"';
  uint64_t n = string_len(s);
  bool in_cluster = false;  // the last character was graphic, or a raw extender after one
  for (uint64_t i = 0; i < n; ++i) {
    uint32_t c = string_ref(s, i);
    if (c >= ' ' && c < 0x7F && c != '"' && c != '\\') {  // most of what pages write
      out += char(c);
      in_cluster = c != ' ';  // a blank, printed raw but begins no cluster
    } else if (const char* esc = string_escape(c)) {
      out += esc;
      in_cluster = false;
    } else if (is_graphic(c) || (in_cluster && is_cluster_extender(c))) {
      utf8_append(out, c);
      in_cluster = true;
    } else if (is_blank(c)) {
      utf8_append(out, c);
      in_cluster = false;
    } else {
      hex_escape(out, "\\", c);
      in_cluster = false;
    }
  }
  out += '"';
}

const char* char_name(uint32_t c) {
  switch (c) {
    case 0: return "nul";
    case 8: return "backspace";
    case 9: return "tab";
    case 10: return "newline";
    case 11: return "vtab";
    case 12: return "page";
    case 13: return "return";
    case 32: return "space";
    case 127: return "rubout";
    default: return nullptr;
  }
}

void write_char(std::string& out, uint32_t c) {
  out += "#\\";
  if (const char* name = char_name(c)) out += name;
  else if (is_graphic(c)) utf8_append(out, c);
  else hex_escape(out, "", c);
}

// Characters that end a token or start another datum (docs/LANGUAGE.md 2.2), plus the
// bar and backslash, which the reader would treat specially.
bool is_delimiter(char c) {
  switch (c) {
    case ' ':
    case '\t':
    case '\n':
    case '\r':
    case '\f':
    case '\v':
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
    case ',':
    case '|':
    case '\\': return true;
    default: return false;
  }
}

bool needs_bars(VM& vm, std::string_view name) {
  if (name.empty() || name == "." || name[0] == '#') return true;
  for (char c : name)
    if (is_delimiter(c) || (unsigned char)c < 0x20) return true;
  return parse_number(vm, name).has_value();
}

// |a b|, as Racket writes it (Arc 3.1's write); a name with a bar in it is
// written instead with a backslash before each character the reader would
// take specially, a\|b\ c, as Racket writes it too.
//
// The name's UTF-8 goes into out first, where it is looked at; only a name
// that needs the bars is copied out and written again with them.
void write_symbol(VM& vm, std::string& out, Value sym) {
  size_t start = out.size();
  string_append_utf8(out, sym.as<Symbol>()->name);
  if (!needs_bars(vm, std::string_view(out).substr(start))) return;
  std::string name = out.substr(start);
  out.resize(start);
  if (name.find('|') == std::string::npos) {
    out += '|';
    out += name;
    out += '|';
    return;
  }
  // A bar in it, the name is no number; a # first is escaped too.
  for (size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    if (is_delimiter(c) || (i == 0 && c == '#')) out += '\\';
    out += c;
  }
}

std::string procedure_form(Value closure) {
  Value name = code_of(closure)->name;
  if (!is_symbol(name) || name.is_nil()) return "#<procedure>";
  return "#<procedure: " + symbol_name(name) + ">";
}

std::string port_form(Value p) {
  PortImpl* impl = port_impl(p);
  if (!impl) return "#<port:closed>";
  return std::string(impl->is_input ? "#<input-port:" : "#<output-port:") + impl->name + ">";
}

const char* internal_form(Value v) {
  if (v == UNBOUND) return "#<unbound>";
  if (v == MISSING) return "#<missing>";
  if (v == EMPTY) return "#<empty>";
  if (v == GONE) return "#<gone>";
  return "#<internal>";
}

bool is_container_kind(Kind k) { return k == Kind::Cons || k == Kind::Table || k == Kind::Tagged; }
bool is_container(Value v) { return is_container_kind(TYPE(v)); }

// An object of a kind a library owns (vm/library.h): as the library
// prints it, or #<type> if vm has not opened it.
void print_library_kind(VM& vm, Value v, std::string& out) {
  Kind k = Kind(v.header()->kind);
  if (auto print = vm.kind_ops(k).print) return print(v, out);
  out += "#<";
  for (const char* c = kind_name(k); *c; ++c) out += char(std::tolower(*c));
  out += ">";
}

// A value that holds no other (all but conses, tables and tagged objects),
// printed with no printer state: what pr mostly prints, so it costs no
// work stack and no sets.
void print_atom(VM& vm, std::string& out, Value v, bool write) {
  switch (TYPE(v)) {
    case Kind::Nil: out += "nil"; break;
    case Kind::True: out += "t"; break;
    case Kind::Fixnum:
    case Kind::Bignum:
    case Kind::Flonum:
    case Kind::Ratnum: append_number(vm, out, v); break;
    case Kind::Char:
      if (write) write_char(out, v.as_char());
      else utf8_append(out, v.as_char());
      break;
    case Kind::String:
      if (write) write_string_lit(out, v);
      else string_append_utf8(out, v);
      break;
    case Kind::Symbol:  // a Symbol object (nil and t are kinds of their own)
      if (write) write_symbol(vm, out, v);
      else string_append_utf8(out, v.as<Symbol>()->name);
      break;
    case Kind::Closure: out += procedure_form(v); break;
    case Kind::Builtin: out += "#<procedure:" + symbol_name(v.as<Builtin>()->name) + ">"; break;
    case Kind::Continuation: out += "#<continuation>"; break;
    case Kind::Fiber: out += "#<fiber>"; break;
    case Kind::Thread: out += "#<thread>"; break;
    case Kind::Socket: print_library_kind(vm, v, out); break;
    case Kind::Port: out += port_form(v); break;
    case Kind::Exception:
      out += "#<exception: " + string_utf8(v.as<Exception>()->message) + ">";
      break;
    case Kind::Box: out += "#<box>"; break;
    case Kind::Code: out += "#<code>"; break;
    case Kind::Vector: out += "#<vector>"; break;
    case Kind::Blob: out += "#<blob>"; break;
    case Kind::Internal: out += internal_form(v); break;
    default: out += "#<unknown>"; break;
  }
}

class Printer {
 public:
  Printer(VM& vm, std::string& out, bool write) : vm_(vm), out_(out), write_(write) {}

  // host_nil: root's lists show their nil terminators (Racket's view).
  void run(Value root, bool host_nil = false) {
    size_t start = out_.size();
    walk(root, host_nil);
    if (!cycle_) return;
    out_.resize(start);  // a cycle: again, with labels
    work_.clear();
    open_.clear();
    mark_back_edges(root);
    labelled_ = true;
    walk(root, host_nil);
  }

 private:
  void walk(Value root, bool host_nil) {
    push(Step::Print, root, host_nil);
    while (!work_.empty()) {
      Work w = work_.back();
      work_.pop_back();
      switch (w.step) {
        case Step::Print: print(w.v, w.host_nil); break;
        case Step::Text: out_ += w.text; break;
        case Step::Rest: rest(w); break;
        case Step::Leave: open_.erase(w.v.word()); break;
      }
    }
  }

  void push(Step s, Value v, bool host_nil) { work_.push_back({s, host_nil, v, NIL, 0, nullptr}); }
  void text(const char* t) { work_.push_back({Step::Text, false, NIL, NIL, 0, t}); }

  // Before a container's contents: false if they are not to be printed.
  // Unlabelled, a container already being printed is a cycle: the print is
  // abandoned (run starts it over). Labelled, a marked container printed
  // before prints as #N#, and the first time as #N= and its contents.
  bool enter(Value v) {
    if (!labelled_) {
      if (cycle_) return false;
      if (!open_.insert(v.word()).second) {
        cycle_ = true;
        work_.clear();
        return false;
      }
      push(Step::Leave, v, false);
      return true;
    }
    auto it = labels_.find(v.word());
    if (it == labels_.end()) return true;
    if (it->second >= 0) {
      label(it->second, '#');
      return false;
    }
    it->second = next_label_++;
    label(it->second, '=');
    return true;
  }

  void label(int n, char end) {
    out_ += '#';
    out_ += std::to_string(n);
    out_ += end;
  }

  bool is_marked(Value v) const { return labelled_ && labels_.count(v.word()); }

  // The containers v holds, in the order they print.
  template <class F>
  static void each_part(Value v, F&& f) {
    switch (TYPE(v)) {
      case Kind::Cons:
        f(car(v));
        f(cdr(v));
        break;
      case Kind::Table:
        table_each(v, [&](Value k, Value val) {
          f(k);
          f(val);
        });
        break;
      case Kind::Tagged:
        f(v.as<Tagged>()->tag);
        f(v.as<Tagged>()->rep);
        break;
      default: break;
    }
  }

  // Depth-first over the containers reachable from root, without machine
  // recursion: a part that is on the current path is a back edge's target,
  // and gets a label (-1 until it is printed).
  void mark_back_edges(Value root) {
    if (!is_container(root)) return;
    struct Frame {
      Value v;
      std::vector<Value> parts;
      size_t next = 0;
    };
    std::unordered_set<Word> on_path, done;
    std::vector<Frame> stack;
    auto visit = [&](Value v) {
      Frame f{v, {}, 0};
      each_part(v, [&](Value p) {
        if (is_container(p)) f.parts.push_back(p);
      });
      on_path.insert(v.word());
      stack.push_back(std::move(f));
    };
    visit(root);
    while (!stack.empty()) {
      Frame& f = stack.back();
      if (f.next == f.parts.size()) {
        on_path.erase(f.v.word());
        done.insert(f.v.word());
        stack.pop_back();
        continue;
      }
      Value p = f.parts[f.next++];
      if (on_path.count(p.word())) labels_.emplace(p.word(), -1);
      else if (!done.count(p.word())) visit(p);
    }
  }

  void print(Value v, bool host_nil);
  void print_cons(Value v, bool host_nil);
  void print_table(Value v);
  void print_tagged(Value v, bool host_nil);
  void rest(const Work& w);

  VM& vm_;
  std::string& out_;
  bool write_;
  std::vector<Work> work_;
  std::unordered_set<Word> open_;         // containers being printed (no GC runs meanwhile)
  bool cycle_ = false;                    // the unlabelled print met a cycle
  bool labelled_ = false;                 // the second print, with labels_
  std::unordered_map<Word, int> labels_;  // marked containers: their label, or -1
  int next_label_ = 0;
};

void Printer::print(Value v, bool host_nil) {
  switch (TYPE(v)) {
    case Kind::Cons: print_cons(v, host_nil); break;
    case Kind::Table: print_table(v); break;
    case Kind::Tagged: print_tagged(v, host_nil); break;
    default: print_atom(vm_, out_, v, write_); break;
  }
}

// Prints "(" and the car now; the rest of the list follows as a Rest step.
void Printer::print_cons(Value v, bool host_nil) {
  if (!enter(v)) return;
  out_ += '(';
  work_.push_back({Step::Rest, host_nil, cdr(v), v, 1, nullptr});
  push(Step::Print, car(v), host_nil);
}

void Printer::rest(const Work& w) {
  Value p = w.v;
  if (p.is_nil()) {
    out_ += w.host_nil ? " . nil)" : ")";
    return;
  }
  // An atom, or (labelled) a marked cell, which prints with its label as a
  // list of its own: (1 . #0=(2 3 . #0#)).
  if (!is_cons(p) || is_marked(p)) {
    out_ += " . ";
    text(")");
    push(Step::Print, p, w.host_nil);
    return;
  }
  if (!labelled_) {
    // The tortoise moves one cell for every two the printer moves.
    Value tortoise = (w.n % 2 == 0) ? cdr(w.tortoise) : w.tortoise;
    if (p == tortoise) {
      cycle_ = true;
      work_.clear();
      return;
    }
    out_ += ' ';
    work_.push_back({Step::Rest, w.host_nil, cdr(p), tortoise, w.n + 1, nullptr});
  } else {
    out_ += ' ';
    work_.push_back({Step::Rest, w.host_nil, cdr(p), NIL, w.n + 1, nullptr});
  }
  push(Step::Print, car(p), w.host_nil);
}

// #hash((k . v) ...). Racket shows Arc lists' nil terminators inside tables
// (docs/LANGUAGE.md 1.7), so entries print with host_nil set.
void Printer::print_table(Value v) {
  if (!enter(v)) return;
  out_ += "#hash(";
  std::vector<std::pair<Value, Value>> entries;
  table_each(v, [&](Value k, Value val) { entries.emplace_back(k, val); });
  text(")");
  for (size_t i = entries.size(); i-- > 0;) {
    text(")");
    push(Step::Print, entries[i].second, true);
    text(" . ");
    push(Step::Print, entries[i].first, true);
    text(i == 0 ? "(" : " (");
  }
}

// #(tagged TAG REP). A tagged object is a Racket vector in Arc 3.1, which
// Arc's printing does not look into, so lists inside show their nil
// terminators, as inside tables: #(tagged foo (1 . nil)).
void Printer::print_tagged(Value v, bool) {
  if (!enter(v)) return;
  out_ += "#(tagged ";
  text(")");
  push(Step::Print, v.as<Tagged>()->rep, true);
  text(" ");
  push(Step::Print, v.as<Tagged>()->tag, true);
}

}  // namespace

void print_value(VM& vm, std::string& out, Value v, bool write) {
  // What pr and disp mostly print, a fixnum or a string's characters, first.
  if (v.is_fixnum()) return append_number(vm, out, v);
  Kind k = TYPE(v);
  if (k == Kind::String && !write) return string_append_utf8(out, v);  // print_atom's, sooner
  if (is_container_kind(k)) Printer(vm, out, write).run(v);
  else print_atom(vm, out, v, write);
}

void print_value(VM& vm, PortImpl& out, Value v, bool write) {
  if (std::string* buf = out.out_buffer()) {
    size_t from = buf->size();
    print_value(vm, *buf, v, write);
    out.wrote(from);
    return;
  }
  std::string text;
  print_value(vm, text, v, write);
  out.write_str(text);
}

void print_values(VM& vm, PortImpl& out, const Value* xs, int n, bool write) {
  std::string* buf = out.out_buffer();
  if (!buf) {
    for (int i = 0; i < n; ++i) print_value(vm, out, xs[i], write);
    return;
  }
  size_t from = buf->size();
  try {
    for (int i = 0; i < n; ++i) print_value(vm, *buf, xs[i], write);
  } catch (...) {
    out.wrote(from);  // what was printed before the failure stays written
    throw;
  }
  out.wrote(from);
}

std::string write_string(VM& vm, Value v) {
  std::string out;
  print_value(vm, out, v, true);
  return out;
}

std::string disp_string(VM& vm, Value v) {
  std::string out;
  print_value(vm, out, v, false);
  return out;
}

std::string error_form(VM& vm, Value v, bool quoted) {
  Kind k = TYPE(v);
  std::string out;
  if (!is_container_kind(k)) {
    if (quoted && (k == Kind::Symbol || k == Kind::Nil || k == Kind::True)) out += '\'';
    print_atom(vm, out, v, true);
    return out;
  }
  Printer(vm, out, true).run(v, true);
  if (!quoted) return out;
  // The quote goes after a cycle's label: #0='(1 . #0#).
  size_t at = 0;
  if (out[0] == '#') {
    size_t i = 1;
    while (i < out.size() && out[i] >= '0' && out[i] <= '9') ++i;
    if (i > 1 && i < out.size() && out[i] == '=') at = i + 1;
  }
  out.insert(at, 1, '\'');
  return out;
}

}  // namespace vm
