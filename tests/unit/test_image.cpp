// tests/unit/test_image.cpp — the library image (compiler/image.h): a start
// from the image builds the same library as a start from source, uniq goes
// on past the library's names, and an image that does not match is refused
// (the library is then compiled from source).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "compiler/compile.h"
#include "compiler/image.h"
#include "compiler/runtime.h"
#include "vm/error.h"
#include "vm/print.h"
#include "vm/string.h"
#include "vm/symbol.h"
#include "vm/table.h"

namespace {

using namespace vm;

// The slots of c's assigned locals that a continuation's capture boxes
// (Code::shared), and its nested code objects' after it; disassemble does
// not show them. *with_slots counts the code objects that have some.
std::string shared_slots(Code* c, int* with_slots) {
  std::string s = " shared";
  if (TYPE(c->shared) == Kind::Blob) {
    ++*with_slots;
    Blob* b = c->shared.as<Blob>();
    for (size_t i = 0; i + sizeof(uint32_t) <= b->size; i += sizeof(uint32_t)) {
      uint32_t slot;
      std::memcpy(&slot, b->data + i, sizeof slot);
      s += " " + std::to_string(slot);
    }
  }
  for (uint32_t i = 0; i < c->nconsts; ++i)
    if (TYPE(code_consts(c)[i]) == Kind::Code)
      s += shared_slots(code_consts(c)[i].as<Code>(), with_slots);
  return s;
}

// A function's whole bytecode (disassemble, which reads a lazily read
// body first) and then its shared slots.
std::string describe_fn(VM& vm, Value fn, int* with_slots) {
  std::string text = compiler::disassemble(vm, fn);
  return text + shared_slots(code_of(fn), with_slots);
}

// What a global is, as far as a program can tell: for a function or a
// macro its whole bytecode with constants, names, files and lines
// (disassemble) and its shared slots, for anything else its type and
// written form.
std::string describe(VM& vm, Value v, int* with_slots) {
  if (v == UNBOUND) return "unbound";
  Kind k = TYPE(v);
  if (k == Kind::Closure) return "fn " + describe_fn(vm, v, with_slots);
  if (k == Kind::Tagged && v.as<Tagged>()->tag == vm.S.mac &&
      TYPE(v.as<Tagged>()->rep) == Kind::Closure)
    return "mac " + describe_fn(vm, v.as<Tagged>()->rep, with_slots);
  if (k == Kind::Table) {  // its entries, sorted: the order is the keys' hashes'
    std::vector<std::string> entries;
    table_each(v, [&](Value key, Value val) {
      entries.push_back(write_string(vm, key) + " " + describe(vm, val, with_slots));
    });
    std::sort(entries.begin(), entries.end());
    std::string s = "table";
    for (const std::string& e : entries) s += "\n  " + e;
    return s;
  }
  return std::string(kind_name(k)) + " " + write_string(vm, v);
}

// Every global of a fresh runtime's library, by name.
std::map<std::string, std::string> library_globals(bool image, bool* from_image, int* with_slots) {
  compiler::RuntimeOptions opts;
  opts.library_image = image;
  compiler::Runtime rt(opts);
  *from_image = rt.library_from_image();
  std::map<std::string, std::string> globals;
  // A copy: reading a body (describe) may intern names.
  std::vector<Value> symbols = all_symbols(rt.vm());
  for (Value sym : symbols)
    if (TYPE(sym) == Kind::Symbol && global_value(sym) != UNBOUND)
      globals[symbol_name(sym)] = describe(rt.vm(), global_value(sym), with_slots);
  return globals;
}

}  // namespace

TEST_CASE("the library from its image is the library from source", "[image]") {
  bool a = false, b = true;
  int image_slots = 0, source_slots = 0;
  std::map<std::string, std::string> from_image = library_globals(true, &a, &image_slots);
  std::map<std::string, std::string> from_source = library_globals(false, &b, &source_slots);
  CHECK(image_slots > 0);  // some have shared slots, which the image writes
  CHECK(image_slots == source_slots);
  REQUIRE(a);  // this binary has its image, and it matched
  REQUIRE_FALSE(b);
  CHECK(from_image.size() > 500);
  CHECK(from_image.size() == from_source.size());
  for (const auto& [name, what] : from_source) {
    INFO(name);
    auto it = from_image.find(name);
    REQUIRE(it != from_image.end());
    CHECK(it->second == what);
  }
}

TEST_CASE("a start from the image runs the library's code", "[image]") {
  compiler::Runtime rt;
  VM& vm = rt.vm();
  REQUIRE(rt.library_from_image());
  // Macros, their gensyms, string constants (fresh at each evaluation),
  // quoted lists and a library error's file and line all came through.
  CHECK(write_string(vm, rt.eval_string("(let xs nil (each x '(1 2 3) (push x xs)) xs)")) ==
        "(3 2 1)");
  CHECK(write_string(vm, rt.eval_string("(tostring (prn \"a\" #\\b 1.5 (expt 2 70)))")) ==
        "\"ab1.51180591620717411303424\\n\"");
  CHECK(write_string(vm, rt.eval_string("(is (w/uniq g g) (w/uniq g g))")) == "nil");
  std::string where;
  try {
    rt.eval_string("(trim 'x)");
  } catch (const ArcError& e) {
    where = compiler::Runtime::describe_error(e.exc);
  }
  CHECK(where.find("strings.arc:") != std::string::npos);
}

TEST_CASE("uniq goes on past the names the library's macros took", "[image]") {
  compiler::Runtime rt;
  REQUIRE(rt.library_from_image());
  uint64_t highest = 0;
  for (Value sym : all_symbols(rt.vm())) {
    if (TYPE(sym) != Kind::Symbol) continue;
    std::string n = symbol_name(sym);
    if (n.size() > 2 && n.compare(0, 2, "gs") == 0 &&
        n.find_first_not_of("0123456789", 2) == std::string::npos)
      highest = std::max<uint64_t>(highest, std::stoull(n.substr(2)));
  }
  REQUIRE(highest > 0);  // the library's macros made some
  std::string fresh = symbol_name(rt.eval_string("(uniq)"));
  CHECK(std::stoull(fresh.substr(2)) > highest);
}

TEST_CASE("an image that does not match its binary is refused", "[image]") {
  std::string_view image = compiler::embedded_image();
  REQUIRE(compiler::image_valid(image));
  std::string bad(image);
  bad[bad.size() / 2] ^= 1;  // one bit of the body
  CHECK_FALSE(compiler::image_valid(bad));
  CHECK_FALSE(compiler::image_valid(image.substr(0, image.size() - 1)));
  CHECK_FALSE(compiler::image_valid(image.substr(0, 20)));
  CHECK_FALSE(compiler::image_valid(""));
  std::string other(image);
  other[8] ^= 1;  // the sources' hash: made from other sources
  CHECK_FALSE(compiler::image_valid(other));
  compiler::Runtime rt;  // an image refused runs nothing
  CHECK_FALSE(compiler::run_image(rt.vm(), bad, [](VM&) { FAIL("ran a damaged image"); }));
}

TEST_CASE("the image holds what a form's code holds", "[image]") {
  // A form compiled here, written and read back the way the build writes
  // the library's: the same bytecode and constants.
  compiler::Runtime rt;
  VM& vm = rt.vm();
  const char* src =
      "(def image-test (x) (list 'a \"s\u00e9\u4e2d\" #\\x 2.5 717897987691852588770249 1/3"
      " '(1 (2 . 3) \"q\") (fn (y) (+ x y))))";
  Value form = rt.eval_string(std::string("'") + src);
  Value fn = compiler::compile_toplevel(rt.vm(), form, "image-test.arc", 1);
  compiler::ImageWriter w;
  w.add_form(vm, fn.as<Closure>()->code, "image-test.arc:1");
  std::string image = w.finish(0);
  // Its own hash matches (the writer's), so the reader accepts it.
  REQUIRE(compiler::image_valid(image));
  rt.vm().apply(fn, nullptr, 0);
  std::string before = compiler::disassemble(vm, global_value(intern(vm, "image-test")));
  rt.eval_string("(= image-test nil)");
  REQUIRE(compiler::run_image(rt.vm(), image, [](VM&) {}));
  CHECK(compiler::disassemble(vm, global_value(intern(vm, "image-test"))) == before);
  CHECK(write_string(vm, rt.eval_string("(firstn 7 (image-test 1))")) ==
        "(a \"s\u00e9\u4e2d\" #\\x 2.5 717897987691852588770249 1/3 (1 (2 . 3) \"q\"))");
  CHECK(write_string(vm, rt.eval_string("((last (image-test 1)) 2)")) == "3");
}

TEST_CASE("a name the image names again is interned again after an unintern", "[image]") {
  // The reader keeps each interned symbol's place in the table from its
  // first naming (vm::SymbolPlace); a form that uninterns one in between
  // must not leave a later form the hole, or the name that took it.
  compiler::Runtime rt;
  VM& vm = rt.vm();
  compiler::ImageWriter w;
  const char* forms[] = {"(assign image-a 'image-sym-x)", "(%unintern image-a)",
                         "(assign image-hole-taker 'image-sym-y)", "(assign image-b 'image-sym-x)"};
  int line = 1;
  for (const char* f : forms) {
    Value form = rt.eval_string(std::string("'") + f);
    Value fn = compiler::compile_toplevel(rt.vm(), form, "image-test.arc", line++);
    w.add_form(vm, fn.as<Closure>()->code, "image-test.arc");
  }
  std::string image = w.finish(0);
  REQUIRE(compiler::run_image(rt.vm(), image, [](VM&) {}));
  Value a = global_value(intern(vm, "image-a")), b = global_value(intern(vm, "image-b"));
  CHECK(a != b);  // a was uninterned; b is the name interned anew
  CHECK(b == intern(vm, "image-sym-x"));
  CHECK(symbol_name(b) == "image-sym-x");
  CHECK(symbol_name(a) == "image-sym-x");
}

namespace {
// The code of a top-level form (quoted, as text) after a macro definition.
Value code_after_macro(compiler::Runtime& rt, const char* mac, const char* quoted_form) {
  rt.eval_string(mac);
  Value form = rt.eval_string(quoted_form);
  return compiler::compile_toplevel(rt.vm(), form, "image-test.arc", 1).as<Closure>()->code;
}
}  // namespace

TEST_CASE("an object a form reaches twice is one object after the image", "[image]") {
  // Only such objects get an id in the image (kShared): the reader must
  // give the second reference the first one's object, not a copy.
  compiler::Runtime rt;
  VM& vm = rt.vm();
  Value code = code_after_macro(rt, "(mac image-twice () (let x (list 1 2) `(list ',x '(a ,x))))",
                                "'(assign image-shared (image-twice))");
  compiler::ImageWriter w;
  w.add_form(vm, code, "image-test.arc:1");
  std::string image = w.finish(0);
  REQUIRE(compiler::run_image(vm, image, [](VM&) {}));
  CHECK(write_string(vm, rt.eval_string("image-shared")) == "((1 2) (a (1 2)))");
  CHECK(write_string(vm, rt.eval_string("(is (car image-shared) (cadr (cadr image-shared)))")) ==
        "t");
}

TEST_CASE("a constant that holds itself stops the image's build", "[image]") {
  // The reader makes a list after its elements, so it could not make one
  // that holds itself: the writer refuses it, as it refuses a constant of
  // a kind it cannot hold.
  compiler::Runtime rt;
  Value code = code_after_macro(rt, "(mac image-loop () (let x (list 1 2) (scdr (cdr x) x) `',x))",
                                "'(assign image-looped (image-loop))");
  compiler::ImageWriter w;
  CHECK_THROWS_WITH(w.add_form(rt.vm(), code, "image-test.arc:1"), Catch::Contains("holds itself"));
}

TEST_CASE("a string from the image is inline or in a blob as the compiler made it", "[image]") {
  // A code object's file name is inline (compile_toplevel's
  // make_string_utf8), a string literal's characters in a Blob (so its
  // copies can share them): the reader makes each the same way.
  compiler::Runtime rt;
  VM& vm = rt.vm();
  auto is_inline = [](Value s) { return (s.header()->flags & kStringInline) != 0; };
  auto literal = [](Code* c) {
    for (uint32_t i = 0; i < c->nconsts; ++i)
      if (TYPE(code_consts(c)[i]) == Kind::String) return code_consts(c)[i];
    return NIL;
  };
  Value form = rt.eval_string("'(assign image-str-fn (fn () \"a literal\"))");
  Value fn = compiler::compile_toplevel(vm, form, "image-test.arc", 1);
  rt.vm().apply(fn, nullptr, 0);
  Code* compiled = code_of(global_value(intern(vm, "image-str-fn")));
  REQUIRE(is_inline(compiled->file));
  REQUIRE(TYPE(literal(compiled)) == Kind::String);
  REQUIRE_FALSE(is_inline(literal(compiled)));
  compiler::ImageWriter w;
  w.add_form(vm, fn.as<Closure>()->code, "image-test.arc:1");
  std::string image = w.finish(0);
  rt.eval_string("(= image-str-fn nil)");
  REQUIRE(compiler::run_image(vm, image, [](VM&) {}));
  Code* read = code_of(global_value(intern(vm, "image-str-fn")));
  read_lazy_body(vm, read);
  CHECK(string_utf8(read->file) == "image-test.arc");
  CHECK(is_inline(read->file));
  REQUIRE(TYPE(literal(read)) == Kind::String);
  CHECK(string_utf8(literal(read)) == "a literal");
  CHECK_FALSE(is_inline(literal(read)));
}

TEST_CASE("a quoted list from the image keeps its source position", "[image]") {
  // A position's file is named once in the image and numbered after: forms
  // from two files, the first named again, each keep their own.
  compiler::Runtime rt;
  VM& vm = rt.vm();
  const char* files[] = {"image-pos-a.arc", "image-pos-b.arc", "image-pos-a.arc"};
  compiler::ImageWriter w;
  for (uint32_t i = 0; i < 3; ++i) {
    Value quoted = src_cons(vm, intern(vm, "x"), NIL, make_pos(file_id(files[i]), 10 + i, 3 + i));
    Value form = list(vm, {intern(vm, "assign"), intern(vm, "image-pos-" + std::to_string(i)),
                           list(vm, {intern(vm, "quote"), quoted})});
    Value fn = compiler::compile_toplevel(vm, form, files[i], 10 + i);
    w.add_form(vm, fn.as<Closure>()->code, files[i]);
  }
  std::string image = w.finish(0);
  REQUIRE(compiler::run_image(vm, image, [](VM&) {}));
  for (uint32_t i = 0; i < 3; ++i) {
    INFO(i);
    Value v = global_value(intern(vm, "image-pos-" + std::to_string(i)));
    REQUIRE(TYPE(v) == Kind::Cons);
    uint64_t pos = pos_of(v);
    REQUIRE(pos != 0);
    CHECK(file_name(pos_file(pos)) == files[i]);
    CHECK(pos_line(pos) == 10 + i);
    CHECK(pos_col(pos) == 3 + i);
  }
}

TEST_CASE("a nested function from the image has its enclosing code's file", "[image]") {
  // The image does not write a nested code object's file when it is the
  // enclosing one's (kOuterFile): the reader gives it that one, the same
  // string, as the compiler did.
  compiler::Runtime rt;
  VM& vm = rt.vm();
  Value form = rt.eval_string("'(assign image-fns (list (fn () 1) (fn () (fn () 2))))");
  Value fn = compiler::compile_toplevel(vm, form, "image-outer.arc", 1);
  compiler::ImageWriter w;
  w.add_form(vm, fn.as<Closure>()->code, "image-outer.arc:1");
  std::string image = w.finish(0);
  REQUIRE(compiler::run_image(vm, image, [](VM&) {}));
  Value fns = global_value(intern(vm, "image-fns"));
  Value a = fns.as<Cons>()->car, b = fns.as<Cons>()->cdr.as<Cons>()->car;
  Value inner = rt.eval_string("((cadr image-fns))");
  REQUIRE(TYPE(a) == Kind::Closure);
  REQUIRE(TYPE(inner) == Kind::Closure);
  CHECK(string_utf8(code_of(a)->file) == "image-outer.arc");
  CHECK(code_of(a)->file == code_of(b)->file);
  CHECK(code_of(inner)->file == code_of(a)->file);
}

// Lazily read bodies (vm/code.h, read_lazy_body): a function of an image
// is made at start with its body unread, and reads it on its first run.
namespace {
// Runs an image of these top-level forms (compiled as the build compiles
// the library's, as if from lines 1, 11, 21 and so on of one file) in rt.
void run_forms_image(compiler::Runtime& rt, std::initializer_list<const char*> forms) {
  VM& vm = rt.vm();
  compiler::ImageWriter w;
  int line = 1;
  for (const char* f : forms) {
    Value form = rt.eval_string(std::string("'") + f, "lazy-test.arc");
    Value fn = compiler::compile_toplevel(vm, form, "lazy-test.arc", line);
    w.add_form(vm, fn.as<Closure>()->code, "lazy-test.arc");
    line += 10;
  }
  std::string image = w.finish(0);
  REQUIRE(compiler::run_image(vm, image, [](VM&) {}));
}
Code* global_code(VM& vm, const char* name) { return code_of(global_value(intern(vm, name))); }
std::string eval_written(compiler::Runtime& rt, const char* src) {
  return write_string(rt.vm(), rt.eval_string(src));
}
}  // namespace

TEST_CASE("a function's body from the image is read on its first call in place", "[image]") {
  compiler::Runtime rt;
  VM& vm = rt.vm();
  run_forms_image(rt, {"(def lazy-a (x) (list x 'a \"s\" 2.5 '(1 2) ((fn (y) (+ y 1)) x)))"});
  Code* c = global_code(vm, "lazy-a");
  REQUIRE(code_unread(c));
  CHECK(TYPE(c->name) == Kind::Symbol);  // what a backtrace names is there already
  CHECK(string_utf8(c->file) == "lazy-test.arc");
  CHECK(eval_written(rt, "(lazy-a 1)") == "(1 a \"s\" 2.5 (1 2) 2)");
  CHECK_FALSE(code_unread(global_code(vm, "lazy-a")));
  CHECK(global_code(vm, "lazy-a") == c);  // the same object: no caller needs telling
  CHECK(eval_written(rt, "(lazy-a 2)") == "(2 a \"s\" 2.5 (1 2) 3)");
}

TEST_CASE("the disassembler reads a body not read yet", "[image]") {
  compiler::Runtime rt;
  VM& vm = rt.vm();
  const char* def = "(def lazy-d (x) (if (> x 1) (list x \"d\") 'none))";
  rt.eval_string(def, "lazy-test.arc");
  std::string from_source = compiler::disassemble(vm, global_value(intern(vm, "lazy-d")));
  rt.eval_string("(= lazy-d nil)");
  run_forms_image(rt, {def});
  REQUIRE(code_unread(global_code(vm, "lazy-d")));
  std::string from_image = compiler::disassemble(vm, global_value(intern(vm, "lazy-d")));
  CHECK(from_image == from_source);
  CHECK_FALSE(code_unread(global_code(vm, "lazy-d")));
  CHECK(eval_written(rt, "(lazy-d 2)") == "(2 \"d\")");
}

TEST_CASE("a backtrace through a lazily read function has its lines", "[image]") {
  compiler::Runtime rt;
  VM& vm = rt.vm();
  run_forms_image(rt, {"(def lazy-err (x)\n  (let y (+ x 1)\n    (car y)))"});
  REQUIRE(code_unread(global_code(vm, "lazy-err")));
  std::string where;
  try {
    rt.eval_string("(lazy-err 1)");
  } catch (const ArcError& e) {
    where = compiler::Runtime::describe_error(e.exc);
  }
  INFO(where);
  CHECK(where.find("lazy-err") != std::string::npos);
  CHECK(where.find("lazy-test.arc:3") != std::string::npos);  // the car's line, not the def's
}

TEST_CASE("a continuation re-entered into a lazily read function", "[image]") {
  // n is assigned and lives in the frame until the capture boxes it
  // (Code::shared, read with the body): each re-entry sees the last value.
  compiler::Runtime rt;
  VM& vm = rt.vm();
  const char* def = "(def lazy-k (f) (let n 0 (f) (= n (+ n 1)) n))";
  const char* run =
      "(let rs nil (let k nil (push (lazy-k (fn () (ccc (fn (c) (= k c))))) rs)"
      " (if (< (len rs) 3) (k nil))) rs)";
  rt.eval_string(def);
  std::string from_source = eval_written(rt, run);
  CHECK(from_source == "(3 2 1)");
  rt.eval_string("(= lazy-k nil)");
  run_forms_image(rt, {def});
  REQUIRE(code_unread(global_code(vm, "lazy-k")));
  CHECK(eval_written(rt, run) == from_source);
  CHECK(TYPE(global_code(vm, "lazy-k")->shared) == Kind::Blob);
  CHECK(eval_written(rt, run) == from_source);  // and once read
}

TEST_CASE("a body read under --gc-stress by threads racing to its first call", "[image]") {
  // Under stress every safe point collects and ends the thread's slice, so
  // each thread stops at the function's entry (its pc at LAZY) and the
  // others call it meanwhile: one reads the body, the rest resume on the
  // body read. The code object was old by then (made at start), its
  // constants young: the stores into it are barriered.
  compiler::RuntimeOptions opts;
  opts.gc_stress = true;
  opts.gc = GENERATE("gen", "gen-stw", "vcgc", "marksweep");
  INFO(opts.gc);
  compiler::Runtime rt(opts);
  VM& vm = rt.vm();
  run_forms_image(rt, {"(def lazy-t (x) (list x \"t\" 1.5 '(1 (2 3)) (fn () x)))",
                       "(def lazy-u (x) (+ x (len '(1 2 3)) (car '(10 20)) (len \"abcd\")))"});
  REQUIRE(code_unread(global_code(vm, "lazy-t")));
  rt.eval_string("(gc)");  // the unread code object old
  rt.eval_string("(= lazy-rs nil)");
  rt.eval_string(
      "(let ths (map (fn (i) (thread (let r (lazy-t i) (atomic (push r lazy-rs))))) '(1 2 3 4))"
      " (each th ths (until (dead th) (sleep .001))))");
  CHECK_FALSE(code_unread(global_code(vm, "lazy-t")));
  rt.eval_string("(repeat 200 (list 1 2 3))");  // collections after the read
  CHECK(eval_written(rt, "(sort < (map car lazy-rs))") == "(1 2 3 4)");
  CHECK(eval_written(rt, "(map [firstn 4 _] (firstn 1 lazy-rs))") ==
        eval_written(rt, "(list (list (car (car lazy-rs)) \"t\" 1.5 '(1 (2 3))))"));
  // One read: every call's quoted list is the one constant.
  CHECK(eval_written(rt, "(all [is (_ 3) ((car lazy-rs) 3)] lazy-rs)") == "t");
  CHECK(eval_written(rt, "(map [(_ 4)] lazy-rs)") == eval_written(rt, "(map car lazy-rs)"));
  // The constants the code holds, after the collections.
  CHECK(eval_written(rt, "(firstn 4 (lazy-t 5))") == "(5 \"t\" 1.5 (1 (2 3)))");
  CHECK(eval_written(rt, "((last (lazy-t 6)))") == "6");
  // Constants only the code object holds: nothing else keeps them.
  CHECK(eval_written(rt, "(lazy-u 1)") == "18");
  rt.eval_string("(repeat 300 (list 1 2 3))");
  CHECK(eval_written(rt, "(map lazy-u '(1 2 3))") == "(18 19 20)");
}
