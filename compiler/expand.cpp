// compiler/expand.cpp — from Arc forms to core forms (docs/LANGUAGE.md 2.10, 3.1-3.3,
// 3.9, 3.11). Expansion needs no knowledge of scope: lexical variables do not
// shadow macros, special forms are recognised by name, and ssyntax is pure
// text. The compiler then sees only core forms.
//
// Rooting: a macro call runs Arc code, and so may collect. Everything the
// expander keeps across a call of expand() lives in a Rooted handle or a
// RootedVector.
#include "compiler/expand.h"

#include <algorithm>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "compiler/reader.h"
#include "vm/error.h"
#include "vm/number.h"
#include "vm/string.h"
#include "vm/symbol.h"

namespace compiler {

using gc::Rooted;
using gc::RootedVector;
using namespace vm;

namespace {

constexpr int kMaxDepth = 10000;

Value internal(VM& vm, const char* name) { return global_value(intern(vm, name)); }

// A list whose first cons carries pos (so errors can name the form).
Value with_pos(VM& vm, Value lst, uint64_t pos) {
  if (pos == 0 || !is_cons(lst) || pos_of(lst) != 0) return lst;
  return src_cons(vm, car(lst), cdr(lst), pos);
}

[[noreturn]] void bad(VM& vm, const std::string& msg, uint64_t pos, Value form) {
  throw_error(vm, where(pos) + msg, {form});
}

bool is_proper(Value l) {
  while (is_cons(l)) l = cdr(l);
  return l.is_nil();
}

// Reads one ssyntax piece as a datum: a number if it reads as one, else a
// symbol (which may hold lower-priority ssyntax, expanded later).
Value piece(VM& vm, const std::string& text) {
  if (auto n = parse_number(vm, text)) return *n;
  return intern(vm, text);
}

Value expand_compose(VM& vm, const std::string& name) {
  std::vector<std::string> parts;
  std::string cur;
  for (char c : name) {
    if (c == ':') {
      if (!cur.empty()) parts.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) parts.push_back(cur);
  std::vector<Value> items;
  for (const std::string& p : parts) {
    if (p[0] == '~')
      items.push_back(p.size() == 1 ? vm.S.no
                                    : list(vm, {vm.S.complement, piece(vm, p.substr(1))}));
    else items.push_back(piece(vm, p));
  }
  if (items.size() == 1) return items[0];
  if (items.empty()) throw_error(vm, "Bad ssyntax", {intern(vm, name)});
  Value r = NIL;
  for (size_t i = items.size(); i-- > 0;) r = cons(vm, items[i], r);
  return cons(vm, vm.S.compose, r);
}

Value expand_index(VM& vm, const std::string& name) {
  // Tokens alternate: head, (separator, token)*.
  size_t i = 0;
  Value head;
  if (name[0] == '.' || name[0] == '!') {
    head = vm.S.get;
  } else {
    size_t j = name.find_first_of(".!");
    head = piece(vm, name.substr(0, j));
    i = j;
  }
  while (i < name.size()) {
    char sep = name[i++];
    size_t j = name.find_first_of(".!", i);
    if (j == std::string::npos) j = name.size();
    std::string tok = name.substr(i, j - i);
    if (tok.empty()) throw_error(vm, "Bad ssyntax", {intern(vm, name)});
    Value x = piece(vm, tok);
    head = sep == '.' ? list(vm, {head, x}) : list(vm, {head, list(vm, {vm.S.quote, x})});
    i = j;
  }
  return head;
}

Value expand_and(VM& vm, const std::string& name) {
  std::vector<Value> items;
  size_t i = 0;
  while (i <= name.size()) {
    size_t j = name.find('&', i);
    if (j == std::string::npos) j = name.size();
    std::string tok = name.substr(i, j - i);
    if (tok.empty()) throw_error(vm, "Bad ssyntax", {intern(vm, name)});
    items.push_back(piece(vm, tok));
    i = j + 1;
  }
  Value r = NIL;
  for (size_t k = items.size(); k-- > 0;) r = cons(vm, items[k], r);
  return cons(vm, vm.S.andf, r);
}

bool is_tagged_mac(VM& vm, Value v) {
  return TYPE(v) == Kind::Tagged && v.as<Tagged>()->tag == vm.S.mac;
}

// An error raised while the macro name ran on the form at pos: between the
// macro's own frames and those compiling the form (eval's caller, if any;
// the backtrace may hold them already) goes a line naming the use.
// Allocation never collects (gc/heap.h rule 1), so exc needs no root.
void note_use(VM& vm, Value exc, Value name, uint64_t pos) {
  Exception* ex = exc.as<Exception>();
  if (vm.is_break(exc) || VM::is_escape(exc)) return;
  std::string use = "  in the use of macro " + symbol_name(name);
  if (pos) use += " at " + file_name(pos_file(pos)) + ":" + std::to_string(pos_line(pos));
  std::vector<std::string> lines, outer;
  for (Value p = ex->backtrace; is_cons(p); p = cdr(p)) lines.push_back(string_utf8(car(p)));
  for (Value p = vm.backtrace(); is_cons(p); p = cdr(p)) outer.push_back(string_utf8(car(p)));
  if (lines.size() >= outer.size() &&
      std::equal(outer.begin(), outer.end(), lines.end() - std::ptrdiff_t(outer.size())))
    lines.resize(lines.size() - outer.size());
  lines.push_back(use);
  lines.insert(lines.end(), outer.begin(), outer.end());
  Value r = NIL;
  for (size_t i = lines.size(); i-- > 0;) r = cons(vm, make_string_utf8(vm, lines[i]), r);
  set(vm, ex, &ex->backtrace, r);
}

}  // namespace

std::string where(uint64_t pos) {
  if (pos == 0) return "";
  return file_name(pos_file(pos)) + ":" + std::to_string(pos_line(pos)) + ": ";
}

Value gensym(VM& vm, const char* prefix) {
  static uint64_t counter = 0;
  return intern(vm, std::string(prefix) + std::to_string(++counter));
}

bool has_ssyntax(Value s) {
  // nil and t are not Symbol objects, and have no ssyntax characters
  if (TYPE(s) != Kind::Symbol || !s.is_ref()) return false;
  return string_has_any(s.as<Symbol>()->name, ":~&.!");
}

Value ssexpand(VM& vm, Value s) {
  if (!has_ssyntax(s)) return s;
  std::string n = symbol_name(s);
  if (n.find_first_of(":~") != std::string::npos) return expand_compose(vm, n);
  if (n.find_first_of(".!") != std::string::npos) return expand_index(vm, n);
  return expand_and(vm, n);
}

Value macro_of(VM& vm, Value head) {
  if (TYPE(head) != Kind::Symbol) return NIL;
  Value v = global_value(head);
  return is_tagged_mac(vm, v) ? v : NIL;
}

Value macex1(VM& vm, Value form) {
  if (!is_cons(form)) return form;
  Value m = macro_of(vm, car(form));
  if (m.is_nil()) return form;
  std::vector<Value> args;
  for (Value p = cdr(form); is_cons(p); p = cdr(p)) args.push_back(p.is_ref() ? car(p) : NIL);
  return vm.apply(m.as<Tagged>()->rep, args.data(), int(args.size()));
}

Value macex(VM& vm, Value form) {
  Rooted<Value> f(vm.heap(), form);
  for (;;) {
    Value next = macex1(vm, f);
    if (next == f.get()) return next;
    f = next;
  }
}

namespace {

enum class Unquotes { None, Some, TooDeep };

// Whether template x holds an unquote or unquote-splicing: one walk, its
// pending lists on an explicit stack (a template may be nested deeper than
// the machine stack allows). Expansion goes down a level into each list on
// the way to an unquote, so an unquote more than room levels down means the
// depth error: TooDeep says so at once, where otherwise each level on the
// way down would walk to it again.
Unquotes find_unquote(const Syms& S, Value x, int room) {
  std::vector<std::pair<Value, int>> lists;  // lists still to walk, and how deep they lie
  int depth = 0;
  for (;;) {
    for (; is_cons(x); x = cdr(x)) {
      Value h = car(x);
      if (h == S.unquote || h == S.unquote_splicing)
        return depth <= room ? Unquotes::Some : Unquotes::TooDeep;
      if (is_cons(h)) lists.emplace_back(h, depth + 1);
    }
    if (lists.empty()) return Unquotes::None;
    std::tie(x, depth) = lists.back();
    lists.pop_back();
  }
}

}  // namespace

// `x at nesting depth d, as code that builds it (docs/LANGUAGE.md 3.3). The builders
// are the primitives themselves, as constants, so rebinding `cons` or `list`
// cannot change what a quasiquote means. A template without unquotes is a
// quoted constant; one without splices or a dotted tail is one %list call.
Value Expander::quasiquote(Value x, int depth, uint64_t pos) {
  if (!is_cons(x)) {
    if (TYPE(x) == Kind::Symbol || x.is_nil()) return list(vm_, {vm_.S.quote, x});
    return x;  // self-evaluating
  }
  Nest nest(*this, pos);
  switch (find_unquote(vm_.S, x, kMaxDepth - depth_)) {
    case Unquotes::None: return list(vm_, {vm_.S.quote, x});
    case Unquotes::TooDeep: too_deep(vm_, pos);
    case Unquotes::Some: break;
  }
  Value head = car(x);
  if (head == vm_.S.unquote && is_cons(cdr(x)) && depth == 1) return car(cdr(x));
  // Inside a nested quasiquote, unquote and unquote-splicing alike go out a
  // level, and their arguments are a list at that level, as Racket's
  // quasiquote (Arc 3.1's) reads them: with x (1 2), `(a `(b ,@,x)) gives
  // (a (quasiquote (b (unquote-splicing (1 2))))) and `(a `(b ,,@x)) gives
  // (a (quasiquote (b (unquote 1 2)))).
  if ((head == vm_.S.unquote || head == vm_.S.unquote_splicing) && is_cons(cdr(x)) && depth > 1)
    return list(vm_, {internal(vm_, "%append"), list(vm_, {vm_.S.quote, list(vm_, {head})}),
                      quasiquote(cdr(x), depth - 1, pos)});
  if (head == vm_.S.quasiquote && is_cons(cdr(x)))
    return list(vm_, {internal(vm_, "%list"), list(vm_, {vm_.S.quote, vm_.S.quasiquote}),
                      quasiquote(car(cdr(x)), depth + 1, pos)});
  // A list: segments to append. Each element is a one-element list, or a
  // spliced expression; a dotted tail (including `(a . ,b)`) ends it.
  std::vector<Value> segs;
  Value p = x;
  for (; is_cons(p); p = cdr(p)) {
    Value el = car(p);
    if (el == vm_.S.unquote && is_cons(cdr(p)) && cdr(cdr(p)).is_nil()) break;  // (a . ,b)
    if (is_cons(el) && car(el) == vm_.S.unquote_splicing && depth == 1)
      segs.push_back(car(cdr(el)));
    else segs.push_back(list(vm_, {internal(vm_, "%list"), quasiquote(el, depth, pos)}));
  }
  Value tail = p.is_nil() ? NIL : quasiquote(p, depth, pos);
  Value r = NIL;
  bool spliced = false;
  for (Value s : segs) spliced |= !(is_cons(s) && car(s) == internal(vm_, "%list"));
  if (!spliced && tail.is_nil()) {
    for (size_t i = segs.size(); i-- > 0;) r = cons(vm_, car(cdr(segs[i])), r);
    return cons(vm_, internal(vm_, "%list"), r);
  }
  // Adjacent one-element segments merge: (%list a) (%list b) => (%list a b).
  std::vector<Value> merged;
  for (Value s : segs) {
    bool single = is_cons(s) && car(s) == internal(vm_, "%list");
    if (single && !merged.empty() && is_cons(merged.back()) &&
        car(merged.back()) == internal(vm_, "%list")) {
      Value m = merged.back();
      Value q = m;
      while (!cdr(q).is_nil()) q = cdr(q);
      set(vm_, q.as<Cons>(), &q.as<Cons>()->cdr, cdr(s));
    } else {
      merged.push_back(single ? cons(vm_, car(s), cdr(s)) : s);
    }
  }
  // A splice copies its list wherever it is, as Arc 3.1's does: %append
  // shares its last argument, so a splice that would be last gets a nil
  // after it.
  bool last_spliced =
      !merged.empty() && !(is_cons(merged.back()) && car(merged.back()) == internal(vm_, "%list"));
  if (last_spliced && tail.is_nil()) r = cons(vm_, NIL, r);
  for (size_t i = merged.size(); i-- > 0;) r = cons(vm_, merged[i], r);
  if (!tail.is_nil()) {
    Value t = cons(vm_, tail, NIL);
    if (r.is_nil()) return tail;
    Value q = r;
    while (!cdr(q).is_nil()) q = cdr(q);
    set(vm_, q.as<Cons>(), &q.as<Cons>()->cdr, t);
  }
  if (r.is_nil()) return NIL;
  return cons(vm_, internal(vm_, "%append"), r);
}

Value Expander::expand(Value form) {
  Kind k = TYPE(form);
  if (k == Kind::Symbol) {
    if (!has_ssyntax(form)) return form;
    return expand(ssexpand(vm_, form));
  }
  if (k == Kind::String && vm_.declarations().atstrings) return atstring(form);
  if (k != Kind::Cons) return form;
  Nest nest(*this, pos_of(form));
  return expand_list(form, pos_of(form));
}

Expander::Nest::Nest(Expander& e, uint64_t pos) : depth(e.depth_) {
  e.vm_.check_machine_stack();
  if (depth == kMaxDepth) too_deep(e.vm_, pos);
  ++depth;
}

void Expander::too_deep(VM& vm, uint64_t pos) {
  throw_error(vm, where(pos) + "form nested too deeply to compile");
}

Value Expander::expand_list(Value form, uint64_t pos) {
  Rooted<Value> f(vm_.heap(), form);
  Value head = car(form);
  if (!is_proper(form)) bad(vm_, "improper form:", pos, form);
  if (has_ssyntax(head)) {
    Value h = ssexpand(vm_, head);
    return expand(with_pos(vm_, cons(vm_, h, cdr(f)), pos));
  }
  if (head == vm_.S.quote) {
    if (!is_cons(cdr(form)) || !cdr(cdr(form)).is_nil())
      bad(vm_, "quote takes one argument:", pos, form);
    return form;
  }
  if (head == vm_.S.quasiquote) {
    if (!is_cons(cdr(form)) || !cdr(cdr(form)).is_nil())
      bad(vm_, "quasiquote takes one argument:", pos, form);
    return expand(with_pos(vm_, quasiquote(car(cdr(form)), 1, pos), pos));
  }
  if (head == vm_.S.fn) return expand_fn(form, pos);
  if (head == vm_.S.assign) return expand_assign(form, pos);
  if (head == vm_.S.if_ || head == intern(vm_, "%catch")) return expand_elements(form, pos, true);
  if (is_cons(head)) {
    bool done = false;
    Value r = rewrite_operator(head, cdr(form), pos, done);
    if (done) return expand(with_pos(vm_, r, pos));
  }
  Value m = macro_of(vm_, head);
  if (m.truthy()) {
    Value r;
    try {
      r = macex1(vm_, f);
    } catch (ArcError& e) {
      // The macro ran Arc code, which may have collected and moved head
      // (a symbol may be young): it is read again from the rooted form.
      note_use(vm_, e.exc, car(f), pos);
      throw;
    }
    return expand(with_pos(vm_, r, pos));
  }
  return expand_elements(form, pos, false);
}

// Expands the elements of a form: all of a call's, or the operands of if
// and %catch (keep_head).
Value Expander::expand_elements(Value forms, uint64_t pos, bool keep_head) {
  RootedVector<Value> items(vm_.heap());
  Rooted<Value> rest(vm_.heap(), forms);
  if (keep_head) {
    items.items.push_back(car(forms));
    rest = cdr(forms);
  }
  for (; is_cons(rest.get()); rest = cdr(rest)) items.items.push_back(expand(car(rest)));
  Value r = NIL;
  for (size_t i = items.items.size(); i-- > 1;) r = cons(vm_, items.items[i], r);
  return src_cons(vm_, items.items[0], r, pos);
}

Value Expander::expand_fn(Value form, uint64_t pos) {
  if (!is_cons(cdr(form))) bad(vm_, "fn needs a parameter list:", pos, form);
  Rooted<Value> f(vm_.heap(), form);
  Rooted<Value> params(vm_.heap(), expand_params(car(cdr(form))));
  RootedVector<Value> body(vm_.heap());
  for (Rooted<Value> p(vm_.heap(), cdr(cdr(f))); is_cons(p.get()); p = cdr(p))
    body.items.push_back(expand(car(p)));
  Value r = NIL;
  for (size_t i = body.items.size(); i-- > 0;) r = cons(vm_, body.items[i], r);
  return src_cons(vm_, vm_.S.fn, cons(vm_, params, r), pos);
}

// Parameter lists keep their shape; only the defaults of (o var default)
// are code, and they are expanded.
Value Expander::expand_params(Value params) {
  if (!is_cons(params)) return params;
  Nest nest(*this, pos_of(params));
  Rooted<Value> p(vm_.heap(), params);
  RootedVector<Value> items(vm_.heap());
  for (; is_cons(p.get()); p = cdr(p)) {
    Value el = car(p);
    if (is_cons(el) && car(el) == vm_.S.o) {
      Rooted<Value> spec(vm_.heap(), el);
      Value dflt = is_cons(cdr(el)) && is_cons(cdr(cdr(el))) ? car(cdr(cdr(el))) : NIL;
      Value e = expand(dflt);
      Value var = is_cons(cdr(spec)) ? car(cdr(spec)) : NIL;
      items.items.push_back(list(vm_, {vm_.S.o, var, e}));
    } else if (is_cons(el)) {
      items.items.push_back(expand_params(el));
    } else {
      items.items.push_back(el);
    }
  }
  Value r = p.get();  // the dotted tail, or nil
  for (size_t i = items.items.size(); i-- > 0;) r = cons(vm_, items.items[i], r);
  return r;
}

Value Expander::expand_assign(Value form, uint64_t pos) {
  Rooted<Value> p(vm_.heap(), cdr(form));
  RootedVector<Value> items(vm_.heap());
  for (; is_cons(p.get()); p = cdr(cdr(p))) {
    Value target = car(p);
    if (is_cons(target) && macro_of(vm_, car(target)).truthy()) target = macex(vm_, target);
    if (TYPE(target) != Kind::Symbol && !target.is_nil() && target != T)
      bad(vm_, "assign: the target must be a symbol, got", pos, target);
    if (target.is_nil()) throw_error(vm_, where(pos) + "Can't rebind nil");
    if (target == T) throw_error(vm_, where(pos) + "Can't rebind t");
    if (has_ssyntax(target))
      bad(vm_, "assign: the target must be a plain symbol, got", pos, target);
    items.items.push_back(target);
    if (!is_cons(cdr(p))) {
      items.items.push_back(NIL);
      break;
    }
    items.items.push_back(expand(car(cdr(p))));
  }
  Value r = NIL;
  for (size_t i = items.items.size(); i-- > 0;) r = cons(vm_, items.items[i], r);
  return src_cons(vm_, vm_.S.assign, r, pos);
}

// ((compose f g) x) => (f (g x)); ((complement f) x) => (no (f x));
// ((andf f g) x) => ((fn (t) (if (f t) (g t))) x). docs/LANGUAGE.md 2.10.
Value Expander::rewrite_operator(Value head, Value args, uint64_t, bool& done) {
  Value op = car(head);
  Value fns = cdr(head);
  if (op == vm_.S.compose) {
    done = true;
    if (fns.is_nil()) return is_cons(args) ? car(args) : NIL;
    std::vector<Value> fv;
    for (Value p = fns; is_cons(p); p = cdr(p)) fv.push_back(car(p));
    Value r = cons(vm_, fv.back(), args);
    for (size_t i = fv.size() - 1; i-- > 0;) r = list(vm_, {fv[i], r});
    return r;
  }
  if (op == vm_.S.complement && is_cons(fns)) {
    done = true;
    return list(vm_, {vm_.S.no, cons(vm_, car(fns), args)});
  }
  if (op == vm_.S.andf) {
    done = true;
    std::vector<Value> temps, argv;
    for (Value p = args; is_cons(p); p = cdr(p)) {
      temps.push_back(gensym(vm_, "%andf"));
      argv.push_back(car(p));
    }
    Value tl = NIL;
    for (size_t i = temps.size(); i-- > 0;) tl = cons(vm_, temps[i], tl);
    std::vector<Value> fv;
    for (Value p = fns; is_cons(p); p = cdr(p)) fv.push_back(car(p));
    Value body = T;
    for (size_t i = fv.size(); i-- > 0;) {
      Value call = cons(vm_, fv[i], tl);
      body = i + 1 == fv.size() ? call : list(vm_, {vm_.S.if_, call, body});
    }
    Value al = NIL;
    for (size_t i = argv.size(); i-- > 0;) al = cons(vm_, argv[i], al);
    return cons(vm_, list(vm_, {vm_.S.fn, tl, body}), al);
  }
  return NIL;
}

// "a @x b @(f y) @@" => (+ "a " x " b " (f y) " @"), docs/LANGUAGE.md 3.11.
Value Expander::atstring(Value s) {
  std::u32string text = string_u32(s);
  if (text.find(U'@') == std::u32string::npos) return s;
  RootedVector<Value> rooted(vm_.heap());  // expand() may run macros, which may collect
  std::vector<Value>& parts = rooted.items;
  std::u32string lit;
  bool interpolated = false;
  for (size_t i = 0; i < text.size();) {
    if (text[i] != U'@') {
      lit += text[i++];
      continue;
    }
    if (i + 1 < text.size() && text[i + 1] == U'@') {
      lit += U'@';
      i += 2;
      continue;
    }
    // Read one form right after the @ from the rest of the string.
    std::u32string rest32 = text.substr(i + 1);
    std::string rest;
    for (char32_t c : rest32) utf8_append(rest, c);
    Reader r(vm_, rest, "string");
    Value form;
    if (!r.read(form)) {  // nothing after the @: it stays, as text
      lit += text[i++];
      continue;
    }
    // Map the reader's position (in UTF-8 bytes of rest) back to characters:
    // re-read the consumed prefix length by counting columns is fragile, so
    // count characters of rest consumed by reading up to (line, col).
    size_t consumed = 0;
    uint32_t line = 1, col = 1;
    while (consumed < rest32.size() && (line < r.line() || col < r.col())) {
      if (rest32[consumed] == U'\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
      ++consumed;
    }
    if (!lit.empty()) parts.push_back(make_string_u32(vm_, lit));
    lit.clear();
    parts.push_back(expand(form));
    interpolated = true;
    i += 1 + consumed;
  }
  if (!lit.empty()) parts.push_back(make_string_u32(vm_, lit));
  if (!interpolated) return parts.empty() ? make_string(vm_, 0) : parts[0];
  Value r = NIL;
  for (size_t i = parts.size(); i-- > 0;) r = cons(vm_, parts[i], r);
  r = cons(vm_, make_string(vm_, 0), r);  // a string first: + concatenates
  // The forms are expanded, the literal parts not again: their @@ were
  // already made @ (Arc 3.1 would re-read them, docs/LANGUAGE.md 3.11).
  return cons(vm_, internal(vm_, "%concat"), r);
}

}  // namespace compiler
