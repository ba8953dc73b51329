// tests/unit/test_reader.cpp — the reader (compiler/reader.h) against docs/LANGUAGE.md 2:
// structure of what it builds, source positions, errors and their positions,
// form_complete for the REPL, and very deep nesting.
#include <catch2/catch.hpp>
#include <memory>
#include <string>

#include "compiler/reader.h"
#include "gc/heap.h"
#include "support.h"
#include "vm/error.h"
#include "vm/number.h"
#include "vm/object.h"
#include "vm/port.h"
#include "vm/string.h"
#include "vm/symbol.h"

using compiler::Reader;
using namespace vm;

namespace {

// The VM of the test binary's one runtime (tests/unit/support.h).
VM& setup() { return support::runtime().vm(); }

// Reads exactly one form from text (file "t.arc").
Value rd(const std::string& text) {
  VM& vm = setup();
  Reader r(vm, text, "t.arc");
  Value v;
  REQUIRE(r.read(v));
  Value extra;
  REQUIRE_FALSE(r.read(extra));
  return v;
}

// The error message reading text raises; fails the test if none is raised.
std::string read_error(const std::string& text) {
  VM& vm = setup();
  Reader r(vm, text, "t.arc");
  try {
    Value v;
    while (r.read(v)) {
    }
  } catch (const ArcError& e) {
    return exception_message(e.exc);
  }
  FAIL("no error reading: " << text);
  return "";
}

// A structural rendering built from car/cdr and the accessors, independent
// of vm/print: symbols bare, strings in double quotes (raw), characters as
// #\ followed by the code point, fixnums in decimal, flonums as f<value>.
std::string show(Value v);

std::string show_list(Value v) {
  std::string s = "(";
  for (;;) {
    s += show(car(v));
    v = cdr(v);
    if (v.is_nil()) break;
    if (!is_cons(v)) {
      s += " . " + show(v);
      break;
    }
    s += " ";
  }
  return s + ")";
}

std::string show(Value v) {
  switch (TYPE(v)) {
    case Kind::Nil: return "nil";
    case Kind::True: return "t";
    case Kind::Symbol: return symbol_name(v);
    case Kind::Fixnum: return std::to_string(v.as_fixnum());
    case Kind::Flonum: return "f" + std::to_string(flonum_value(v));
    case Kind::String: return "\"" + string_utf8(v) + "\"";
    case Kind::Char: return "#\\" + std::to_string(v.as_char());
    case Kind::Cons: return show_list(v);
    default: return std::string("<") + kind_name(TYPE(v)) + ">";
  }
}

Value nth(Value list, int n) {
  while (n-- > 0) list = cdr(list);
  return car(list);
}

uint32_t line_of(Value v) { return pos_line(pos_of(v)); }
uint32_t col_of(Value v) { return pos_col(pos_of(v)); }

}  // namespace

TEST_CASE("symbols are case-sensitive tokens that keep ssyntax characters", "[reader]") {
  VM& vm = setup();
  Value foo = rd("foo");
  REQUIRE(TYPE(foo) == Kind::Symbol);
  REQUIRE(symbol_name(foo) == "foo");
  REQUIRE(foo == intern(vm, "foo"));
  REQUIRE(rd("Foo") != foo);
  REQUIRE(symbol_name(rd("Foo")) == "Foo");
  REQUIRE(symbol_name(rd("a.b")) == "a.b");
  REQUIRE(symbol_name(rd("!a:b~c&d.")) == "!a:b~c&d.");
  REQUIRE(symbol_name(rd("...")) == "...");
  REQUIRE(symbol_name(rd("+")) == "+");
  REQUIRE(symbol_name(rd("-")) == "-");
  REQUIRE(symbol_name(rd("<=")) == "<=");
  REQUIRE(symbol_name(rd("a#b")) == "a#b");
  REQUIRE(symbol_name(rd("caf\xc3\xa9")) == "caf\xc3\xa9");
}

TEST_CASE("nil and t read as the immediates, as do #t and #f", "[reader]") {
  setup();
  REQUIRE(rd("nil") == NIL);
  REQUIRE(rd("t") == T);
  REQUIRE(rd("#t") == T);
  REQUIRE(rd("#f") == NIL);
  REQUIRE(rd("()") == NIL);
  REQUIRE(rd("( )") == NIL);
}

TEST_CASE("|...| and backslash quote characters into symbols", "[reader]") {
  setup();
  REQUIRE(symbol_name(rd("|a b|")) == "a b");
  REQUIRE(symbol_name(rd("a|b c|d")) == "ab cd");
  REQUIRE(symbol_name(rd("||")) == "");
  REQUIRE(symbol_name(rd("|(x)|")) == "(x)");
  Value one = rd("|1|");
  REQUIRE(TYPE(one) == Kind::Symbol);
  REQUIRE(symbol_name(one) == "1");
  REQUIRE(symbol_name(rd("a\\ b")) == "a b");
  REQUIRE(TYPE(rd("|.|")) == Kind::Symbol);
}

TEST_CASE("integers and floats", "[reader]") {
  setup();
  REQUIRE(rd("42") == Value::fixnum(42));
  REQUIRE(rd("-7") == Value::fixnum(-7));
  REQUIRE(rd("+7") == Value::fixnum(7));
  REQUIRE(rd("#x1F") == Value::fixnum(31));
  REQUIRE(rd("#x1f") == Value::fixnum(31));
  REQUIRE(rd("#o17") == Value::fixnum(15));
  REQUIRE(rd("#b101") == Value::fixnum(5));
  Value f = rd("1.5");
  REQUIRE(TYPE(f) == Kind::Flonum);
  REQUIRE(flonum_value(f) == 1.5);
  REQUIRE(flonum_value(rd(".5")) == 0.5);
  REQUIRE(flonum_value(rd("1e3")) == 1000.0);
  REQUIRE(flonum_value(rd("-2.5e-3")) == -2.5e-3);
  REQUIRE(flonum_value(rd("+inf.0")) > 1e308);
  REQUIRE(TYPE(rd("1+")) == Kind::Symbol);
}

TEST_CASE("exact rationals and exactness prefixes go through parse_number", "[reader][number]") {
  setup();
  Value half = rd("1/2");
  REQUIRE(TYPE(half) == Kind::Ratnum);
  REQUIRE(num_eqv(rd("2/4"), half));
  REQUIRE(rd("4/2") == Value::fixnum(2));
  REQUIRE(num_eqv(rd("#e1.5"), rd("3/2")));
  REQUIRE(TYPE(rd("#i1/2")) == Kind::Flonum);
  REQUIRE(TYPE(rd("123456789012345678901234567890")) == Kind::Bignum);
}

TEST_CASE("lists, dotted pairs and braces", "[reader]") {
  VM& vm = setup();
  REQUIRE(show(rd("(a b c)")) == "(a b c)");
  REQUIRE(show(rd("(a . b)")) == "(a . b)");
  REQUIRE(show(rd("(a b . c)")) == "(a b . c)");
  REQUIRE(show(rd("(a . (b c))")) == "(a b c)");
  REQUIRE(show(rd("((a) (b c) ())")) == "((a) (b c) nil)");
  REQUIRE(show(rd("{a b}")) == "(a b)");
  REQUIRE(show(rd("(a{b}c)")) == "(a (b) c)");
  REQUIRE(show(rd("(1 \"s\" #\\a)")) == "(1 \"s\" #\\97)");
  REQUIRE(show(rd("(a .b)")) == "(a .b)");  // ".b" is a symbol, not a dot
  REQUIRE(show(rd("(a ..)")) == "(a ..)");
  Value l = rd("(x y)");
  REQUIRE(car(l) == intern(vm, "x"));
  REQUIRE(car(cdr(l)) == intern(vm, "y"));
  REQUIRE(cdr(cdr(l)) == NIL);
}

TEST_CASE("the quote family", "[reader]") {
  setup();
  REQUIRE(show(rd("'x")) == "(quote x)");
  REQUIRE(show(rd("`x")) == "(quasiquote x)");
  REQUIRE(show(rd(",x")) == "(unquote x)");
  REQUIRE(show(rd(",@x")) == "(unquote-splicing x)");
  REQUIRE(show(rd("''a")) == "(quote (quote a))");
  REQUIRE(show(rd("' a")) == "(quote a)");
  REQUIRE(show(rd("`(a ,b ,@c)")) == "(quasiquote (a (unquote b) (unquote-splicing c)))");
  REQUIRE(show(rd("'(a . b)")) == "(quote (a . b))");
  REQUIRE(car(rd("'x")) == setup().S.quote);
}

TEST_CASE("square brackets read as (fn (_) (...))", "[reader]") {
  setup();
  REQUIRE(show(rd("[+ _ 1]")) == "(fn (_) (+ _ 1))");
  REQUIRE(show(rd("[]")) == "(fn (_) nil)");
  REQUIRE(show(rd("[_]")) == "(fn (_) (_))");
  REQUIRE(show(rd("[map [car _] _]")) == "(fn (_) (map (fn (_) (car _)) _))");
  REQUIRE(show(rd("'[car _]")) == "(quote (fn (_) (car _)))");
  Value f = rd("[x]");
  REQUIRE(car(f) == setup().S.fn);
  REQUIRE(car(car(cdr(f))) == setup().S.underscore);
}

TEST_CASE("strings and their escapes", "[reader]") {
  setup();
  REQUIRE(string_utf8(rd("\"abc\"")) == "abc");
  REQUIRE(string_len(rd("\"\"")) == 0);
  REQUIRE(string_utf8(rd(R"("a\\b\"c")")) == "a\\b\"c");
  REQUIRE(string_utf8(rd(R"("\n\t\r\a\b\v\f\e")")) == "\n\t\r\a\b\v\f\x1b");
  REQUIRE(string_utf8(rd(R"("\101\60x\7")")) == "A0x\x07");
  REQUIRE(string_utf8(rd(R"("\x41\x7e!")")) == "A~!");
  REQUIRE(string_utf8(rd(R"("\u00e9\u41")")) ==
          "\xc3\xa9"
          "A");
  Value smile = rd(R"("\U0001F600")");
  REQUIRE(string_len(smile) == 1);
  REQUIRE(string_ref(smile, 0) == 0x1F600);
  REQUIRE(string_utf8(rd("\"two\nlines\"")) == "two\nlines");
  REQUIRE(string_utf8(rd("\"con\\\ntinued\"")) == "continued");
  Value e = rd("\"caf\xc3\xa9\"");
  REQUIRE(string_len(e) == 4);
  REQUIRE(string_ref(e, 3) == 0xE9);
  REQUIRE(string_utf8(rd("\"a;b(c)\"")) == "a;b(c)");
}

TEST_CASE("characters: single, named, numeric and non-ASCII", "[reader]") {
  setup();
  REQUIRE(rd("#\\a") == Value::character('a'));
  REQUIRE(rd("#\\A") == Value::character('A'));
  REQUIRE(rd("#\\(") == Value::character('('));
  REQUIRE(rd("#\\)") == Value::character(')'));
  REQUIRE(rd("#\\;") == Value::character(';'));
  REQUIRE(rd("#\\\"") == Value::character('"'));
  REQUIRE(rd("#\\ ") == Value::character(' '));
  REQUIRE(rd("#\\1") == Value::character('1'));
  REQUIRE(rd("#\\u") == Value::character('u'));
  const std::pair<const char*, uint32_t> names[] = {
      {"space", ' '},   {"newline", '\n'}, {"linefeed", '\n'}, {"tab", '\t'},
      {"return", '\r'}, {"nul", 0},        {"null", 0},        {"backspace", 8},
      {"rubout", 127},  {"delete", 127},   {"page", 12},       {"vtab", 11}};
  for (const auto& [name, cp] : names) {
    INFO(name);
    REQUIRE(rd(std::string("#\\") + name) == Value::character(cp));
  }
  REQUIRE(rd("#\\u00e9") == Value::character(0xE9));
  REQUIRE(rd("#\\u41") == Value::character('A'));
  REQUIRE(rd("#\\x41") == Value::character('A'));  // one constant, not #\x and 41
  REQUIRE(rd("#\\x") == Value::character('x'));
  REQUIRE(rd("#\\U0001F600") == Value::character(0x1F600));
  REQUIRE(rd("#\\101") == Value::character('A'));
  REQUIRE(rd("#\\000") == Value::character(0));
  REQUIRE(rd("#\\\xc3\xa9") == Value::character(0xE9));
  REQUIRE(show(rd("(#\\a #\\))")) == "(#\\97 #\\41)");
  REQUIRE(show(rd("(#\\space)")) == "(#\\32)");
}

TEST_CASE("comments: line, nested block and datum", "[reader]") {
  VM& vm = setup();
  REQUIRE(rd("; hello\nfoo") == intern(vm, "foo"));
  REQUIRE(rd("foo ; trailing") == intern(vm, "foo"));
  REQUIRE(rd("#| a #| nested |# b |# foo") == intern(vm, "foo"));
  REQUIRE(rd("#;(a b) c") == intern(vm, "c"));
  REQUIRE(show(rd("(a #;b c)")) == "(a c)");
  REQUIRE(show(rd("(a #| x |# b ; y\n c)")) == "(a b c)");
  REQUIRE(rd("#;#;a b c") == intern(vm, "c"));
  REQUIRE(show(rd("'#;a b")) == "(quote b)");
  REQUIRE(show(rd("(a . #;b c)")) == "(a . c)");
  REQUIRE(show(rd("(a#|x|#b)")) == "(a#x#b)");  // inside a token, #| is no comment
}

TEST_CASE("read returns forms one by one and false at the end", "[reader]") {
  VM& vm = setup();
  Reader r(vm, "a (b) \"c\" ; done\n #| end |#  ", "t.arc");
  Value v;
  REQUIRE(r.read(v));
  REQUIRE(v == intern(vm, "a"));
  REQUIRE(r.read(v));
  REQUIRE(show(v) == "(b)");
  REQUIRE(r.read(v));
  REQUIRE(string_utf8(v) == "c");
  REQUIRE_FALSE(r.read(v));
  REQUIRE_FALSE(r.read(v));

  Reader empty(vm, "  ; nothing\n", "t.arc");
  REQUIRE_FALSE(empty.read(v));
  REQUIRE(show(compiler::read_all(vm, "1 (2) x", "t.arc")) == "(1 (2) x)");
  REQUIRE(compiler::read_all(vm, " ", "t.arc") == NIL);
}

TEST_CASE("tokens end at delimiters", "[reader]") {
  VM& vm = setup();
  REQUIRE(show(compiler::read_all(vm, "a'b", "t.arc")) == "(a (quote b))");
  REQUIRE(show(compiler::read_all(vm, "a\"s\"b", "t.arc")) == "(a \"s\" b)");
  REQUIRE(show(compiler::read_all(vm, "a;c\nb", "t.arc")) == "(a b)");
  REQUIRE(show(compiler::read_all(vm, "a,b`c", "t.arc")) == "(a (unquote b) (quasiquote c))");
  REQUIRE(show(rd("(a(b)c[d]e{f})")) == "(a (b) c (fn (_) (d)) e (f))");
}

TEST_CASE("lists carry the position of their opening parenthesis", "[reader][pos]") {
  setup();
  Value v = rd("(a\n  (b c)\n\t[d])");
  REQUIRE(pos_file(pos_of(v)) == file_id("t.arc"));
  REQUIRE(line_of(v) == 1);
  REQUIRE(col_of(v) == 1);
  for (Value p = v; is_cons(p); p = cdr(p)) REQUIRE(pos_of(p) == pos_of(v));  // whole spine
  Value inner = nth(v, 1);
  REQUIRE(line_of(inner) == 2);
  REQUIRE(col_of(inner) == 3);
  REQUIRE(pos_of(cdr(inner)) == pos_of(inner));
  Value br = nth(v, 2);
  REQUIRE(line_of(br) == 3);
  REQUIRE(col_of(br) == 2);
  REQUIRE(pos_of(nth(br, 2)) == pos_of(br));  // the bracket's body list
  REQUIRE(pos_string(pos_of(inner)) == "t.arc:2:3");
}

TEST_CASE("quote wrappers carry the quote's position; columns count characters", "[reader][pos]") {
  VM& vm = setup();
  Value q = rd("\n   'x");
  REQUIRE(line_of(q) == 2);
  REQUIRE(col_of(q) == 4);
  REQUIRE(pos_of(cdr(q)) == pos_of(q));
  Value uq = nth(rd("(a ,@b)"), 1);
  REQUIRE(col_of(uq) == 4);
  Value after = nth(compiler::read_all(vm, "\"\xc3\xa9\xc3\xa9\" (a)", "t.arc"), 1);
  REQUIRE(col_of(after) == 6);
  Value after_str = nth(compiler::read_all(vm, "\"x\ny\" (a)", "t.arc"), 1);
  REQUIRE(line_of(after_str) == 2);
  REQUIRE(col_of(after_str) == 4);
  Value after_comment = rd("#| x\n y |# (a)");
  REQUIRE(line_of(after_comment) == 2);
  REQUIRE(col_of(after_comment) == 7);
}

TEST_CASE("reading from a port", "[reader][port]") {
  VM& vm = setup();
  std::unique_ptr<PortImpl> port(make_input_string("(a b)\n  'c \"d\xc3\xa9\""));
  port->name = "p.arc";
  Reader r(vm, port.get());
  Value v;
  REQUIRE(r.read(v));
  REQUIRE(show(v) == "(a b)");
  REQUIRE(pos_string(pos_of(v)) == "p.arc:1:1");
  REQUIRE(r.read(v));
  REQUIRE(show(v) == "(quote c)");
  REQUIRE(pos_string(pos_of(v)) == "p.arc:2:3");
  REQUIRE(r.read(v));
  REQUIRE(string_len(v) == 2);
  REQUIRE(string_ref(v, 1) == 0xE9);
  REQUIRE_FALSE(r.read(v));

  std::unique_ptr<PortImpl> bad(make_input_string("\n (x"));
  bad->name = "p.arc";
  Reader rb(vm, bad.get());
  try {
    rb.read(v);
    FAIL("no error");
  } catch (const ArcError& e) {
    REQUIRE_THAT(exception_message(e.exc), Catch::Contains("p.arc:2:2"));
  }
}

TEST_CASE("errors name the position", "[reader][errors]") {
  setup();
  const std::pair<const char*, const char*> cases[] = {
      {")", "t.arc:1:1"},
      {"(a b))", "t.arc:1:6"},
      {"\n  (a\n b", "t.arc:2:3"},   // unclosed list: where it opened
      {"\"abc", "t.arc:1:1"},        // unterminated string
      {"x \"a\\qb\"", "t.arc:1:5"},  // bad escape: at the backslash
      {"\"\\x\"", "t.arc:1:2"},
      {"\"\\uD800\"", "t.arc:1:2"},
      {"(a . b c)", "t.arc:1:8"},
      {"(. a)", "t.arc:1:2"},
      {"(a .)", "t.arc:1:5"},
      {"(a . . b)", "t.arc:1:6"},
      {" .", "t.arc:1:2"},
      {"'.", "t.arc:1:2"},
      {"[a . ]", "t.arc:1:6"},
      {"#\\foo", "t.arc:1:1"},
      {"(#\\spac)", "t.arc:1:2"},
      {"#\\12", "t.arc:1:1"},
      {"#\\uD800", "t.arc:1:1"},
      {"(a #\\x41g)", "t.arc:1:4"},
      {"#\\a1", "t.arc:1:1"},
      {"#xZZ", "t.arc:1:1"},
      {"(1 #b102)", "t.arc:1:4"},
      {"#q", "t.arc:1:1"},
      {"#", "t.arc:1:1"},
      {"#(1 2)", "t.arc:1:1"},
      {"(a]", "t.arc:1:3"},
      {"[a)", "t.arc:1:3"},
      {"{a)", "t.arc:1:3"},
      {"  '", "t.arc:1:3"},
      {"#;", "t.arc:1:1"},
      {"(a #;)", "t.arc:1:6"},
      {"#| a #| b |#", "t.arc:1:1"},
      {"x |abc", "t.arc:1:3"},
      {"#\\", "t.arc:1:1"},
  };
  for (const auto& [text, where] : cases) {
    INFO("input: " << text);
    std::string msg = read_error(text);
    REQUIRE_THAT(msg, Catch::Contains(where));
    REQUIRE_THAT(msg, Catch::StartsWith("read: "));
  }
}

TEST_CASE("error_at_eof tells unfinished input from bad input", "[reader][errors]") {
  VM& vm = setup();
  auto at_eof = [&vm](const char* text) {
    Reader r(vm, text, "t.arc");
    try {
      Value v;
      while (r.read(v)) {
      }
    } catch (const ArcError&) {
      return r.error_at_eof();
    }
    FAIL("no error reading: " << text);
    return false;
  };
  REQUIRE(at_eof("(a"));
  REQUIRE(at_eof("\"a"));
  REQUIRE(at_eof("#|"));
  REQUIRE_FALSE(at_eof(")"));
  REQUIRE_FALSE(at_eof("(a . b c"));
}

TEST_CASE("the reader goes on after an error", "[reader][errors]") {
  VM& vm = setup();
  Reader r(vm, ") a", "t.arc");
  Value v;
  REQUIRE_THROWS_AS(r.read(v), ArcError);
  REQUIRE(r.read(v));
  REQUIRE(v == intern(vm, "a"));
  REQUIRE_FALSE(r.read(v));
}

TEST_CASE("form_complete for the REPL", "[reader][repl]") {
  VM& vm = setup();
  using compiler::form_complete;
  REQUIRE(form_complete(vm, ""));
  REQUIRE(form_complete(vm, "   \n"));
  REQUIRE(form_complete(vm, "; just a comment"));
  REQUIRE(form_complete(vm, "foo"));
  REQUIRE(form_complete(vm, "(+ 1 2)\n"));
  REQUIRE(form_complete(vm, "(a) (b)"));
  REQUIRE(form_complete(vm, ")"));  // an error: the REPL reports it
  REQUIRE(form_complete(vm, "(a . b c)"));
  REQUIRE(form_complete(vm, "#\\("));
  REQUIRE(form_complete(vm, "\"a)\""));
  REQUIRE_FALSE(form_complete(vm, "(+ 1"));
  REQUIRE_FALSE(form_complete(vm, "(def f (x)\n  (+ x"));
  REQUIRE_FALSE(form_complete(vm, "(a) (b"));
  REQUIRE_FALSE(form_complete(vm, "\"abc"));
  REQUIRE_FALSE(form_complete(vm, "'"));
  REQUIRE_FALSE(form_complete(vm, "#| open"));
  REQUIRE_FALSE(form_complete(vm, "#;"));
  REQUIRE_FALSE(form_complete(vm, "[a"));
  REQUIRE_FALSE(form_complete(vm, "|ab"));
}

TEST_CASE("ends_inside_text for the REPL's completion", "[reader][repl]") {
  VM& vm = setup();
  using compiler::ends_inside_text;
  REQUIRE(ends_inside_text(vm, "(prn \"sca"));
  REQUIRE(ends_inside_text(vm, "(prn \"a\\\"b"));  // an escaped quote does not end it
  REQUIRE(ends_inside_text(vm, "(list \"one\nline two"));
  REQUIRE(ends_inside_text(vm, "'|a b"));
  REQUIRE(ends_inside_text(vm, "#| a comment"));
  REQUIRE(ends_inside_text(vm, "(prn \"a\" \"b"));
  REQUIRE_FALSE(ends_inside_text(vm, "(sca"));
  REQUIRE_FALSE(ends_inside_text(vm, "(prn \"a\" sca"));
  REQUIRE_FALSE(ends_inside_text(vm, "(list #\\\" sca"));  // #\" is a character
  REQUIRE_FALSE(ends_inside_text(vm, "(a) (b"));
  REQUIRE_FALSE(ends_inside_text(vm, ""));
}

TEST_CASE("100,000 nested parentheses do not crash", "[reader][deep]") {
  VM& vm = setup();
  const int depth = 100000;
  std::string text = std::string(depth, '(') + "x" + std::string(depth, ')');
  Value v = rd(text);
  int d = 0;
  bool one_each = true;  // one element per level
  for (; is_cons(v); v = car(v), ++d) one_each = one_each && cdr(v) == NIL;
  REQUIRE(one_each);
  REQUIRE(d == depth);
  REQUIRE(v == intern(vm, "x"));

  std::string unclosed = std::string(depth, '(');
  REQUIRE_THAT(read_error(unclosed), Catch::Contains("t.arc:1:" + std::to_string(depth)));
  REQUIRE_FALSE(compiler::form_complete(vm, unclosed));

  Value q = rd(std::string(depth, '\'') + "y");
  d = 0;
  for (; is_cons(q); q = car(cdr(q))) ++d;
  REQUIRE(d == depth);

  Value b = rd(std::string(depth, '[') + std::string(depth, ']'));
  d = 0;
  for (; is_cons(b); ++d) {  // [[...]] is (fn (_) ((fn (_) ...)))
    Value body = car(cdr(cdr(b)));
    b = is_cons(body) ? car(body) : NIL;
  }
  REQUIRE(d == depth);
}
