// tests/unit/test_data.cpp — symbols, strings, tables, printing, type and
// coerce: the data layer below the interpreter, tested without a VM.
#include <catch2/catch.hpp>

#include "gc/heap.h"
#include "support.h"
#include "vm/code.h"
#include "vm/coerce.h"
#include "vm/compare.h"
#include "vm/error.h"
#include "vm/number.h"
#include "vm/object.h"
#include "vm/port.h"
#include "vm/print.h"
#include "vm/string.h"
#include "vm/symbol.h"
#include "vm/table.h"

using namespace vm;

namespace {

// The VM of the test binary's one runtime (tests/unit/support.h).
VM& setup() { return support::runtime().vm(); }

Value str(const char* s) { return make_string_utf8(setup(), s); }
Value fix(int64_t n) { return Value::fixnum(n); }
Value sym(const char* s) { return intern(setup(), s); }

// The message of the Arc error f raises ("" if none).
template <class F>
std::string error_of(F f) {
  return support::error_from(f);
}

Value make_named_closure(Value name) {
  VM& vm = setup();
  Code* c = alloc<Code>(vm, Kind::Code);
  c->name = name;
  return make_closure(vm, Value::ref(c), 0);
}

Value make_test_builtin(const char* name) {
  VM& vm = setup();
  Builtin* b = alloc<Builtin>(vm, Kind::Builtin);
  b->name = intern(vm, name);
  return Value::ref(b);
}

}  // namespace

TEST_CASE("intern returns one symbol per name; nil and t are immediates", "[data][symbol]") {
  VM& vm = setup();
  Value a = sym("foo");
  CHECK(a == sym("foo"));
  CHECK(a != sym("bar"));
  CHECK(TYPE(a) == Kind::Symbol);
  CHECK(sym("nil") == NIL);
  CHECK(sym("t") == T);
  CHECK(symbol_name(a) == "foo");
  CHECK(symbol_name(NIL) == "nil");
  CHECK(symbol_name(T) == "t");
  CHECK(global_value(sym("never-assigned")) == UNBOUND);
  set_global(vm, a, fix(3));
  CHECK(global_value(sym("foo")) == fix(3));
  CHECK(vm.S.quote == sym("quote"));
  CHECK(vm.S.unquote_splicing == sym("unquote-splicing"));
  CHECK(vm.S.fn_type == sym("fn"));
}

TEST_CASE("UTF-8 round trip keeps wide characters", "[data][string]") {
  setup();
  Value s = str("héllo 😀");
  CHECK(string_len(s) == 7);
  CHECK(string_ref(s, 1) == 0xE9);
  CHECK(string_ref(s, 6) == 0x1F600);
  CHECK(string_utf8(s) == "héllo 😀");
  CHECK(string_u32(s) == U"héllo 😀");
}

TEST_CASE("utf8_decode replaces invalid bytes and stops at the end", "[data][string]") {
  std::string bad = "a\xff\xc3";  // stray byte, truncated sequence
  size_t i = 0;
  CHECK(utf8_decode(bad, i) == 'a');
  CHECK(utf8_decode(bad, i) == 0xFFFD);
  CHECK(utf8_decode(bad, i) == 0xFFFD);
  CHECK(i == 3);
  std::string overlong = "\xc0\xaf";
  i = 0;
  CHECK(utf8_decode(overlong, i) == 0xFFFD);
}

TEST_CASE("make_string_utf8 is narrow up to U+00FF and wide past it", "[data][string]") {
  VM& vm = setup();
  auto wide = [](Value v) { return bool(v.header()->flags & kStringWide); };
  // All ASCII, longer than a word (the prefix is scanned eight bytes at a
  // time), and a text whose first byte past ASCII is at each offset 0-16.
  std::string ascii = "<a href=\"x\">text</a> and more text";
  Value a = str(ascii.c_str());
  CHECK_FALSE(wide(a));
  CHECK(string_len(a) == ascii.size());
  CHECK(string_utf8(a) == ascii);
  for (size_t at = 0; at <= 16; ++at) {
    std::string t = std::string(at, 'x') + "\xc3\xa9" + "yz";  // é
    Value v = make_string_utf8(vm, t);
    CHECK_FALSE(wide(v));
    CHECK(string_len(v) == at + 3);
    CHECK(string_ref(v, at) == 0xE9);
    CHECK(string_ref(v, at + 1) == 'y');
    CHECK(string_utf8(v) == t);
  }
  Value latin = str("é ÿ");
  CHECK_FALSE(wide(latin));
  CHECK(string_ref(latin, 2) == 0xFF);
  Value emoji = str("long ascii prefix 😀 東京 é");
  CHECK(wide(emoji));
  CHECK(string_len(emoji) == 24);
  CHECK(string_ref(emoji, 0) == 'l');
  CHECK(string_ref(emoji, 18) == 0x1F600);
  CHECK(string_ref(emoji, 20) == 0x6771);
  CHECK(string_ref(emoji, 23) == 0xE9);
  CHECK(string_utf8(emoji) == "long ascii prefix 😀 東京 é");
  Value empty = make_string_utf8(vm, "");
  CHECK(string_len(empty) == 0);
  CHECK_FALSE(wide(empty));
  // Invalid bytes: one U+FFFD each, which makes the string wide.
  Value bad = make_string_utf8(vm, "ab\xff\xc3");
  CHECK(wide(bad));
  CHECK(string_u32(bad) == U"ab\uFFFD\uFFFD");
}

TEST_CASE("string_append_utf8 appends both widths in place", "[data][string]") {
  VM& vm = setup();
  std::string out = "head:";
  string_append_utf8(out, str("plain "));
  string_append_utf8(out, str("é€ÿ 😀"));  // € makes this one wide
  string_append_utf8(out, make_string_utf8(vm, ""));
  string_append_utf8(out, str("ñ and ascii after"));
  CHECK(out == "head:plain é€ÿ 😀ñ and ascii after");
  char b[4];
  CHECK(utf8_encode(0x41, b) == 1);
  CHECK(utf8_encode(0xE9, b) == 2);
  CHECK(utf8_encode(0x20AC, b) == 3);
  CHECK(utf8_encode(0x1F600, b) == 4);
  CHECK(std::string(b, 4) == "😀");
  CHECK(utf8_encode(0xD800, b) == 3);  // a surrogate: U+FFFD
  CHECK(std::string(b, 3) == "\xef\xbf\xbd");
}

TEST_CASE("string_set widens a narrow string", "[data][string]") {
  VM& vm = setup();
  Value s = make_string(vm, 3, 'a');
  CHECK_FALSE(s.header()->flags & kStringWide);
  string_set(vm, s, 1, 0xE9);  // still fits a byte
  CHECK_FALSE(s.header()->flags & kStringWide);
  string_set(vm, s, 2, 0x3BB);  // λ
  CHECK(s.header()->flags & kStringWide);
  CHECK(string_utf8(s) == "aéλ");
  CHECK(string_equal(s, str("aéλ")));
  Value copy = string_copy(vm, s);
  string_set(vm, copy, 0, 'z');
  CHECK(string_utf8(s) == "aéλ");
  CHECK(string_hash(str("aé")) == string_hash(make_string_u32(vm, U"aé")));
}

// vm/object.h: a narrow string of up to kStringInlineMax characters holds
// them itself; widening moves them to a Blob and keeps the room as the
// object's size; a longer string's copy shares its Blob until written.
TEST_CASE("short strings hold their characters; long ones share a Blob", "[data][string]") {
  VM& vm = setup();
  auto flags = [](Value v) { return v.header()->flags; };
  auto bytes = [&vm](Value v) { return vm.heap().kind_info(v.header()->kind).size(v.header()); };
  Value s = str("abc");
  CHECK(flags(s) & kStringInline);
  CHECK(bytes(s) == sizeof(String) + 3);
  Value edge = make_string(vm, kStringInlineMax, 'x');
  CHECK(flags(edge) & kStringInline);
  Value longer = make_string(vm, kStringInlineMax + 1, 'x');
  CHECK_FALSE(flags(longer) & (kStringInline | kStringRoom));
  CHECK(bytes(longer) == sizeof(String));
  // widening: the characters move out, the room stays
  string_set(vm, s, 1, 0x3BB);
  CHECK(flags(s) & kStringWide);
  CHECK_FALSE(flags(s) & kStringInline);
  CHECK(flags(s) & kStringRoom);
  CHECK(bytes(s) == sizeof(String) + 3);
  CHECK(string_utf8(s) == "aλc");
  // an inline string's copy is its own; a long one's shares until written
  Value t = str("short");
  Value tc = string_copy(vm, t);
  CHECK(flags(tc) & kStringInline);
  string_set(vm, tc, 0, 'S');
  CHECK(string_utf8(t) == "short");
  Value lc = string_copy(vm, longer);
  CHECK(flags(lc) & kStringShared);
  CHECK(flags(longer) & kStringShared);
  string_set(vm, longer, 0, 'y');
  CHECK_FALSE(flags(longer) & kStringShared);
  CHECK(string_ref(lc, 0) == 'x');
  CHECK(string_ref(longer, 0) == 'y');
  // a literal's constant keeps its characters in a Blob, so its copies share
  Value lit = string_shareable(vm, str("lit"));
  CHECK_FALSE(flags(lit) & kStringInline);
  CHECK(string_utf8(lit) == "lit");
  CHECK(flags(string_copy(vm, lit)) & kStringShared);
  CHECK(vm.heap().verify().empty());
}

TEST_CASE("string_compare orders by code point", "[data][string]") {
  setup();
  CHECK(string_compare(str("B"), str("a")) < 0);
  CHECK(string_compare(str("ab"), str("abc")) < 0);
  CHECK(string_compare(str("abc"), str("abc")) == 0);
  CHECK(string_compare(str("😀"), str("é")) > 0);
}

TEST_CASE("tables: put, get, delete, grow; string keys by content", "[data][table]") {
  VM& vm = setup();
  Value t = make_table(vm);
  table_put(vm, t, str("k"), fix(1));
  CHECK(table_get(t, str("k")) == fix(1));
  CHECK(table_count(t) == 1);
  table_put(vm, t, str("k"), fix(2));
  CHECK(table_count(t) == 1);
  CHECK(table_get(t, str("k")) == fix(2));
  CHECK(table_get(t, str("absent"), fix(-1)) == fix(-1));
  table_put(vm, t, str("k"), NIL);  // nil deletes
  CHECK(table_count(t) == 0);
  CHECK(table_get(t, str("k")) == NIL);
  for (int i = 0; i < 1000; ++i) table_put(vm, t, str(std::to_string(i).c_str()), fix(i));
  CHECK(table_count(t) == 1000);
  for (int i = 0; i < 1000; i += 2) table_put(vm, t, str(std::to_string(i).c_str()), NIL);
  CHECK(table_count(t) == 500);
  for (int i = 0; i < 1000; ++i)
    CHECK(table_get(t, str(std::to_string(i).c_str())) == (i % 2 ? fix(i) : NIL));
}

// A store probes once: a key past dead entries (deleted keys) on its
// probe path is found and updated, and a deleted key stored again takes
// its own entry back. Symbol keys (compared by word) and string keys (by
// content) have probe loops of their own.
TEST_CASE("tables: a store past dead entries updates, a deleted key takes its entry back",
          "[data][table]") {
  VM& vm = setup();
  for (bool symbols : {true, false}) {
    Value t = make_table(vm);
    auto key = [&](int i) {
      std::string name = "key" + std::to_string(i);
      return symbols ? intern(vm, name) : str(name.c_str());
    };
    for (int i = 0; i < 600; ++i) table_put(vm, t, key(i), fix(i));
    for (int round = 0; round < 20; ++round) {
      for (int i = round % 2; i < 600; i += 2) table_put(vm, t, key(i), NIL);
      for (int i = 1 - round % 2; i < 600; i += 2) table_put(vm, t, key(i), fix(i + round));
      CHECK(table_count(t) == 300);
      for (int i = round % 2; i < 600; i += 2) table_put(vm, t, key(i), fix(i));
      CHECK(table_count(t) == 600);
    }
    for (int i = 0; i < 600; ++i) CHECK(table_get(t, key(i)) == fix(i % 2 ? i : i + 19));
    int entries = 0;
    table_each(t, [&](Value, Value) { ++entries; });
    CHECK(entries == 600);
  }
}

// A deleted key's entry stays, dead, until the next rebuild (vm/table.cpp):
// lookups and walks see the key absent, the count leaves it out, storing it
// again takes the same entry (where a field site's cache still finds it,
// table_cached_slot), and a rebuild leaves it out.
TEST_CASE("tables: a deleted key's entry stays dead until a rebuild", "[data][table]") {
  VM& vm = setup();
  Value t = make_table(vm);
  Value k = sym("k"), other = sym("other");
  table_put(vm, t, k, fix(1));
  table_put(vm, t, other, fix(2));
  int64_t at = table_hash_index(t, k);
  REQUIRE(at >= 0);
  table_put(vm, t, k, NIL);
  CHECK(table_count(t) == 1);
  CHECK(table_get(t, k) == NIL);
  CHECK(table_get(t, k, sym("dflt")) == sym("dflt"));
  CHECK(table_hash_index(t, k) == at);  // the entry kept
  int live = 0;
  table_each(t, [&](Value key, Value) { live += key == k; });
  CHECK(live == 0);
  table_put(vm, t, k, NIL);  // deleting a dead key again changes nothing
  CHECK(table_count(t) == 1);
  Value* slot = table_cached_slot(t, k, uint32_t(at));
  REQUIRE(slot);
  table_store_cached(vm, t, slot, fix(3));  // a field's store through its cache
  CHECK(table_count(t) == 2);
  CHECK(table_get(t, k) == fix(3));
  table_store_cached(vm, t, slot, NIL);
  CHECK(table_count(t) == 1);
  table_put(vm, t, k, fix(4));
  CHECK(table_hash_index(t, k) == at);
  CHECK(table_count(t) == 2);
  table_put(vm, t, k, NIL);
  for (int i = 0; i < 100; ++i) table_put(vm, t, fix(1000 + i * 7919), fix(i));  // rebuilds
  CHECK(table_hash_index(t, k) == -1);
  CHECK(table_count(t) == 101);
}

// A dead entry whose key is an object other than a symbol gives the key up
// (GONE), so that the table keeps none of its deleted keys alive.
TEST_CASE("tables: a deleted string or cons key is not kept by its dead entry", "[data][table]") {
  VM& vm = setup();
  Value t = make_table(vm);
  Value s = str("a key"), c = cons(vm, fix(1), fix(2)), k = sym("kept");
  table_put(vm, t, s, fix(1));
  table_put(vm, t, c, fix(2));
  table_put(vm, t, k, fix(3));
  int64_t at = table_hash_index(t, k);
  CHECK(table_put(vm, t, str("a key"), NIL) == -1);  // equal by content: the same key
  CHECK(table_put(vm, t, c, NIL) == -1);
  table_put(vm, t, k, NIL);
  CHECK(table_count(t) == 0);
  const Vector* v = t.as<Table>()->slots.as<Vector>();
  int gone = 0;
  for (uint64_t i = 0; i < v->len; i += 2) {
    CHECK(v->items[i] != s);
    CHECK(v->items[i] != c);
    gone += v->items[i] == GONE;
  }
  CHECK(gone == 2);
  CHECK(table_hash_index(t, k) == at);  // a symbol's entry stays, for field caches
  CHECK(table_get(t, str("a key")) == NIL);
  CHECK(table_get(t, c) == NIL);
  // stored again, each is found; dead entries never show
  table_put(vm, t, str("a key"), fix(4));
  table_put(vm, t, cons(vm, fix(1), fix(2)), fix(5));
  CHECK(table_get(t, s) == fix(4));
  CHECK(table_get(t, c) == fix(5));
  CHECK(table_count(t) == 2);
  int seen = 0;
  table_each(t, [&](Value key, Value) { seen += key != GONE; });
  CHECK(seen == 2);
  // many keys come and go: the table stays small, each found while present
  for (int i = 0; i < 2000; ++i) {
    Value key = cons(vm, fix(i), NIL);
    table_put(vm, t, key, fix(i));
    CHECK(table_get(t, cons(vm, fix(i), NIL)) == fix(i));
    table_put(vm, t, key, NIL);
  }
  CHECK(table_count(t) == 2);
  CHECK(t.as<Table>()->slots.as<Vector>()->len <= 64);
}

// table_put gives the index of the key's entry (a field site caches it,
// SETF), or -1 when there is none in the hash part; a table's first key
// takes a hash part of its own with no sizing of an array part.
TEST_CASE("tables: table_put gives its entry's index", "[data][table]") {
  VM& vm = setup();
  Value t = make_table(vm);
  for (int i = 0; i < 40; ++i) {
    Value k = sym(("f" + std::to_string(i)).c_str());
    int64_t at = table_put(vm, t, k, fix(i));
    CHECK(at == table_hash_index(t, k));
    CHECK(at >= 0);
    CHECK(table_put(vm, t, k, fix(i + 1)) == at);  // an update: the same entry
  }
  CHECK(table_put(vm, t, sym("absent"), NIL) == -1);
  Value a = make_table(vm);
  CHECK(table_put(vm, a, fix(0), fix(1)) == -1);  // the array part's
  for (int i = 1; i < 10; ++i) CHECK(table_put(vm, a, fix(i), fix(i)) == -1);
  CHECK(table_count(a) == 10);
  CHECK(table_get(a, fix(9)) == fix(9));
  Value s = make_table(vm);
  CHECK(table_put(vm, s, str("k"), fix(1)) >= 0);  // a first key compared by content
  CHECK(table_get(s, str("k")) == fix(1));
}

TEST_CASE("tables: list keys, 1 vs 1.0, symbols and identity keys", "[data][table]") {
  VM& vm = setup();
  Value t = make_table(vm);
  table_put(vm, t, list(vm, {fix(1), str("a"), list(vm, {fix(2)})}), sym("x"));
  CHECK(table_get(t, list(vm, {fix(1), str("a"), list(vm, {fix(2)})})) == sym("x"));
  CHECK(table_get(t, list(vm, {fix(1), str("a")})) == NIL);
  table_put(vm, t, fix(1), sym("exact"));
  table_put(vm, t, make_flonum(vm, 1.0), sym("inexact"));
  CHECK(table_count(t) == 3);
  CHECK(table_get(t, fix(1)) == sym("exact"));
  CHECK(table_get(t, make_flonum(vm, 1.0)) == sym("inexact"));
  Value inner = make_table(vm);
  table_put(vm, t, inner, fix(9));
  CHECK(table_get(t, inner) == fix(9));
  CHECK(table_get(t, make_table(vm)) == NIL);
  table_put(vm, t, NIL, fix(0));  // nil is a fine key
  CHECK(table_get(t, NIL) == fix(0));
}

// The array part (vm/table.cpp): where keys live is not visible from Arc,
// so this looks at the parts themselves.
TEST_CASE("tables: dense fixnum keys go to the array part, sparse ones stay hashed",
          "[data][table]") {
  VM& vm = setup();
  Value t = make_table(vm);
  for (int i = 0; i < 1000; ++i) table_put(vm, t, fix(i), fix(i * 2));
  const Table* tb = t.as<Table>();
  CHECK(tb->asize >= 1000);
  CHECK(tb->asize <= 1024);  // the smallest size that holds them all
  CHECK(tb->acount == 1000);
  CHECK(tb->slots.is_nil());  // nothing in the hash part
  CHECK(table_count(t) == 1000);
  for (int i = 0; i < 1000; ++i) CHECK(table_get(t, fix(i)) == fix(i * 2));
  // other keys go to the hash part; the array part keeps its own
  table_put(vm, t, fix(-1), fix(7));
  table_put(vm, t, make_flonum(vm, 3.0), fix(8));
  table_put(vm, t, fix(1 << 20), fix(9));
  CHECK(table_count(t) == 1003);
  CHECK(t.as<Table>()->acount == 1000);
  CHECK(table_get(t, fix(-1)) == fix(7));
  CHECK(table_get(t, make_flonum(vm, 3.0)) == fix(8));
  CHECK(table_get(t, fix(3)) == fix(6));
  CHECK(table_get(t, fix(1 << 20)) == fix(9));
  // nil deletes from the array part too
  table_put(vm, t, fix(3), NIL);
  CHECK(table_get(t, fix(3)) == NIL);
  CHECK(table_count(t) == 1002);
  CHECK(t.as<Table>()->acount == 999);
  // a table of squares is too sparse for an array part
  Value sq = make_table(vm);
  for (int i = 1; i < 200; ++i) table_put(vm, sq, fix(i * i), fix(i));
  CHECK(sq.as<Table>()->asize < 64);
  for (int i = 1; i < 200; ++i) CHECK(table_get(sq, fix(i * i)) == fix(i));
  CHECK(table_get(sq, fix(2)) == NIL);
  // every third key is dense enough: an array part of 4096 slots for all
  // 1000 takes no more words than a hash part for them (2048 entries)
  Value third = make_table(vm);
  for (int i = 0; i < 1000; ++i) table_put(vm, third, fix(3 * i), fix(i));
  CHECK(third.as<Table>()->asize == 4096);
  CHECK(third.as<Table>()->acount == 1000);
  for (int i = 0; i < 1000; ++i) CHECK(table_get(third, fix(3 * i)) == fix(i));
  CHECK(table_get(third, fix(4)) == NIL);
  // keys filled downwards reach the array part once they are dense
  Value down = make_table(vm);
  for (int i = 999; i >= 0; --i) table_put(vm, down, fix(i), fix(i));
  CHECK(down.as<Table>()->asize >= 1000);
  for (int i = 0; i < 1000; ++i) CHECK(table_get(down, fix(i)) == fix(i));
  // and every entry is seen once by table_each
  uint64_t seen = 0, sum = 0;
  table_each(down, [&](Value k, Value v) {
    ++seen;
    sum += uint64_t(k.as_fixnum());
    CHECK(k == v);
  });
  CHECK(seen == 1000);
  CHECK(sum == 499500);
}

// A rebuild of a table whose array part is more than half full counts its
// keys without walking it (vm/table.cpp, rebuild): the sizes must be the
// ones a walk gives.
TEST_CASE("tables: a nearly full array part keeps its size and grows as keys come in order",
          "[data][table]") {
  VM& vm = setup();
  Value t = make_table(vm);  // a sieve's: 0 and 1 never stored
  for (int i = 2; i <= 1000; ++i) table_put(vm, t, fix(i), T);
  const Table* tb = t.as<Table>();
  CHECK(tb->asize == 1024);
  CHECK(tb->acount == 999);
  CHECK(table_count(t) == 999);
  // 64 keys, a third of them deleted, then sparse keys that could be an
  // array's: the array part keeps its size and its keys
  Value u = make_table(vm);
  for (int i = 0; i < 64; ++i) table_put(vm, u, fix(i), fix(i));
  for (int i = 0; i < 20; ++i) table_put(vm, u, fix(i), NIL);
  for (int i = 1; i <= 40; ++i) table_put(vm, u, fix(1000 * i), fix(i));
  CHECK(u.as<Table>()->asize == 64);
  CHECK(u.as<Table>()->acount == 44);
  CHECK(table_count(u) == 84);
  for (int i = 20; i < 64; ++i) CHECK(table_get(u, fix(i)) == fix(i));
  for (int i = 1; i <= 40; ++i) CHECK(table_get(u, fix(1000 * i)) == fix(i));
  // and keys in order past its end make it grow, to take in the 1000 too
  // (181 keys: a hash part for them would have 512 entries, 1024 words)
  for (int i = 64; i < 200; ++i) table_put(vm, u, fix(i), fix(i));
  CHECK(u.as<Table>()->asize == 1024);
  CHECK(u.as<Table>()->acount == 181);
}

TEST_CASE("arc_equal on a long list does not overflow the stack", "[data][table]") {
  VM& vm = setup();
  Value a = NIL, b = NIL;
  for (int i = 0; i < 1000000; ++i) {
    a = cons(vm, fix(i), a);
    b = cons(vm, fix(i), b);
  }
  CHECK(arc_equal(a, b));
  CHECK(equal_hash(a) == equal_hash(b));
  Value deep_a = NIL, deep_b = NIL;  // nested through the car
  for (int i = 0; i < 1000000; ++i) {
    deep_a = cons(vm, deep_a, NIL);
    deep_b = cons(vm, deep_b, NIL);
  }
  CHECK(arc_equal(deep_a, deep_b));
  CHECK_FALSE(arc_equal(a, cons(vm, fix(0), a)));
}

TEST_CASE("arc_is: strings by content, conses by identity, numbers by exactness", "[data][is]") {
  VM& vm = setup();
  CHECK(arc_is(str("ab"), str("ab")));
  CHECK_FALSE(arc_is(str("ab"), str("abc")));
  CHECK_FALSE(arc_is(list(vm, {fix(1)}), list(vm, {fix(1)})));
  CHECK_FALSE(arc_is(sym("a"), str("a")));
  CHECK(arc_is(fix(1), fix(1)));
  CHECK_FALSE(arc_is(fix(1), make_flonum(vm, 1.0)));
  CHECK(arc_is(make_flonum(vm, 2.0), make_flonum(vm, 2.0)));
  CHECK(arc_is(Value::character('a'), Value::character('a')));
}

TEST_CASE("printing atoms", "[data][print]") {
  VM& vm = setup();
  CHECK(write_string(vm, NIL) == "nil");
  CHECK(write_string(vm, T) == "t");
  CHECK(write_string(vm, fix(-42)) == "-42");
  CHECK(write_string(vm, make_flonum(vm, 1.5)) == "1.5");
  CHECK(write_string(vm, sym("foo")) == "foo");
  CHECK(write_string(vm, str("a\"b\\c\nd\te\r\x01")) == "\"a\\\"b\\\\c\\nd\\te\\r\\u0001\"");
  CHECK(disp_string(vm, str("a\"b\n")) == "a\"b\n");
  CHECK(write_string(vm, str("héllo 😀")) == "\"héllo 😀\"");
  // Racket 8's escapes (docs/LANGUAGE.md 1.6): named ones, then \u for what is not graphic.
  CHECK(write_string(vm, str("\a\b\v\f\x1b\u00AD\u2028\u00A0")) ==
        "\"\\a\\b\\v\\f\\e\\u00AD\\u2028\u00A0\"");
}

TEST_CASE("printing characters", "[data][print]") {
  VM& vm = setup();
  auto w = [&vm](uint32_t c) { return write_string(vm, Value::character(c)); };
  CHECK(w('a') == "#\\a");
  CHECK(w(' ') == "#\\space");
  CHECK(w('\n') == "#\\newline");
  CHECK(w('\t') == "#\\tab");
  CHECK(w('\r') == "#\\return");
  CHECK(w(0) == "#\\nul");
  CHECK(w(8) == "#\\backspace");
  CHECK(w(127) == "#\\rubout");
  CHECK(w(12) == "#\\page");
  CHECK(w(11) == "#\\vtab");
  CHECK(w(1) == "#\\u0001");
  CHECK(w(7) == "#\\u0007");
  CHECK(w(0xA0) == "#\\u00A0");
  CHECK(w(0xAD) == "#\\u00AD");
  CHECK(w(0x10FFFF) == "#\\U0010FFFF");
  CHECK(w(0x3BB) == "#\\λ");
  CHECK(disp_string(vm, Value::character(0x3BB)) == "λ");
  CHECK(disp_string(vm, Value::character(' ')) == " ");
}

TEST_CASE("printing symbols that need bars", "[data][print]") {
  VM& vm = setup();
  CHECK(write_string(vm, sym("a b")) == "|a b|");
  CHECK(disp_string(vm, sym("a b")) == "a b");
  CHECK(write_string(vm, sym("")) == "||");
  CHECK(write_string(vm, sym("a(b")) == "|a(b|");
  CHECK(write_string(vm, sym("a;b")) == "|a;b|");
  CHECK(write_string(vm, sym("12")) == "|12|");
  CHECK(write_string(vm, sym("a.b")) == "a.b");
  CHECK(write_string(vm, sym("+")) == "+");
}

TEST_CASE("printing lists", "[data][print]") {
  VM& vm = setup();
  CHECK(write_string(vm, list(vm, {fix(1), fix(2), fix(3)})) == "(1 2 3)");
  CHECK(write_string(vm, cons(vm, fix(1), fix(2))) == "(1 . 2)");
  CHECK(write_string(vm, cons(vm, fix(1), cons(vm, fix(2), fix(3)))) == "(1 2 . 3)");
  CHECK(write_string(vm, list(vm, {NIL})) == "(nil)");
  CHECK(write_string(vm, list(vm, {vm.S.quote, sym("x")})) == "(quote x)");
  CHECK(write_string(vm, list(vm, {str("a"), Value::character('b')})) == "(\"a\" #\\b)");
  CHECK(disp_string(vm, list(vm, {str("a"), Value::character('b')})) == "(a b)");
  CHECK(write_string(vm, list(vm, {list(vm, {fix(1)}), list(vm, {})})) == "((1) nil)");
}

TEST_CASE("printing long, deep and cyclic lists never crashes", "[data][print]") {
  VM& vm = setup();
  Value l = NIL;
  for (int i = 0; i < 200000; ++i) l = cons(vm, fix(1), l);
  CHECK(write_string(vm, l).size() == 400001);
  Value deep = NIL;
  for (int i = 0; i < 100000; ++i) deep = cons(vm, deep, NIL);
  // Whole, however deep: 100,000 parentheses each side of the innermost nil.
  CHECK(write_string(vm, deep) == std::string(100000, '(') + "nil" + std::string(100000, ')'));
  Value cyc = list(vm, {fix(1), fix(2), fix(3)});
  cdr(cdr(cyc)).as<Cons>()->cdr = cyc;  // (1 2 3 1 2 3 ...)
  CHECK(write_string(vm, cyc) == "#0=(1 2 3 . #0#)");
  Value tail = list(vm, {fix(1), fix(2), fix(3)});
  cdr(cdr(tail)).as<Cons>()->cdr = cdr(tail);  // (1 2 3 2 3 ...)
  CHECK(write_string(vm, tail) == "(1 . #0=(2 3 . #0#))");
  Value self = list(vm, {fix(1), fix(2)});
  self.as<Cons>()->car = self;  // car cycle
  CHECK(write_string(vm, self) == "#0=(#0# 2)");
  Value inner = list(vm, {fix(1)});
  Value outer = list(vm, {inner, inner});  // shared, not cyclic: printed twice
  CHECK(write_string(vm, outer) == "((1) (1))");
  Value two = list(vm, {list(vm, {fix(1)}), list(vm, {fix(2)})});
  car(two).as<Cons>()->cdr = list(vm, {two});
  car(cdr(two)).as<Cons>()->cdr = list(vm, {car(cdr(two))});
  CHECK(write_string(vm, two) == "#0=((1 #0#) #1=(2 #1#))");
}

TEST_CASE("printing tables and tagged objects", "[data][print]") {
  VM& vm = setup();
  Value t = make_table(vm);
  table_put(vm, t, sym("a"), fix(1));
  CHECK(write_string(vm, t) == "#hash((a . 1))");
  table_put(vm, t, sym("a"), list(vm, {fix(1), fix(2)}));
  CHECK(write_string(vm, t) == "#hash((a . (1 2 . nil)))");
  CHECK(write_string(vm, make_table(vm)) == "#hash()");
  table_put(vm, t, sym("b"), str("x"));
  std::string two = write_string(vm, t);
  CHECK((two == "#hash((a . (1 2 . nil)) (b . \"x\"))" ||
         two == "#hash((b . \"x\") (a . (1 2 . nil)))"));
  CHECK(write_string(vm, make_tagged(vm, sym("point"), list(vm, {fix(1), fix(2)}))) ==
        "#(tagged point (1 2 . nil))");
  Value self = make_table(vm);
  table_put(vm, self, fix(1), self);
  CHECK(write_string(vm, self) == "#0=#hash((1 . #0#))");
  Value tagged = make_tagged(vm, sym("node"), NIL);
  tagged.as<Tagged>()->rep = list(vm, {tagged});
  CHECK(write_string(vm, tagged) == "#0=#(tagged node (#0# . nil))");
}

TEST_CASE("error_form shows values as Arc 3.1's errors do", "[data][print]") {
  VM& vm = setup();
  CHECK(error_form(vm, fix(3)) == "3");
  CHECK(error_form(vm, str("a\"b")) == "\"a\\\"b\"");
  CHECK(error_form(vm, Value::character('c')) == "#\\c");
  CHECK(error_form(vm, sym("a")) == "'a");
  CHECK(error_form(vm, NIL) == "'nil");
  CHECK(error_form(vm, T) == "'t");
  CHECK(error_form(vm, list(vm, {sym("a"), list(vm, {fix(1)})})) == "'(a (1 . nil) . nil)");
  CHECK(error_form(vm, cons(vm, fix(1), fix(2))) == "'(1 . 2)");
  CHECK(error_form(vm, list(vm, {sym("a")}), false) == "(a . nil)");
  CHECK(error_form(vm, make_table(vm)) == "'#hash()");
  CHECK(error_form(vm, make_tagged(vm, sym("x"), list(vm, {fix(1)}))) == "'#(tagged x (1 . nil))");
  CHECK(error_form(vm, make_test_builtin("car")) == "#<procedure:car>");
  Value self = list(vm, {fix(1)});
  self.as<Cons>()->cdr = self;
  CHECK(error_form(vm, self) == "#0='(1 . #0#)");
}

TEST_CASE("printing procedures, ports, exceptions and internal kinds", "[data][print]") {
  VM& vm = setup();
  CHECK(write_string(vm, make_named_closure(NIL)) == "#<procedure>");
  CHECK(write_string(vm, make_named_closure(sym("foo"))) == "#<procedure: foo>");
  CHECK(write_string(vm, make_test_builtin("car")) == "#<procedure:car>");
  Value mac = make_tagged(vm, vm.S.mac, make_named_closure(sym("m")));
  CHECK(write_string(vm, mac) == "#(tagged mac #<procedure: m>)");
  PortImpl* in = make_input_string("");
  in->name = "stdin";
  CHECK(write_string(vm, make_port(vm, in)) == "#<input-port:stdin>");
  PortImpl* out = make_output_string();
  out->name = "string";
  CHECK(write_string(vm, make_port(vm, out)) == "#<output-port:string>");
  CHECK(write_string(vm, make_exception(vm, str("boom"), NIL, NIL)) == "#<exception: boom>");
  CHECK(write_string(vm, make_box(vm, NIL)) == "#<box>");
  CHECK(write_string(vm, make_vector(vm, 2)) == "#<vector>");
  CHECK(write_string(vm, make_blob(vm, 2)) == "#<blob>");
  CHECK(write_string(vm, UNBOUND) == "#<unbound>");
}

TEST_CASE("type names every Arc type", "[data][type]") {
  VM& vm = setup();
  CHECK(arc_type(vm, NIL) == vm.S.sym);
  CHECK(arc_type(vm, T) == vm.S.sym);
  CHECK(arc_type(vm, sym("a")) == vm.S.sym);
  CHECK(arc_type(vm, list(vm, {fix(1)})) == vm.S.cons);
  CHECK(arc_type(vm, fix(1)) == vm.S.int_);
  CHECK(arc_type(vm, make_flonum(vm, 2.0)) == vm.S.num);
  CHECK(arc_type(vm, Value::character('a')) == vm.S.char_);
  CHECK(arc_type(vm, str("")) == vm.S.string);
  CHECK(arc_type(vm, make_table(vm)) == vm.S.table);
  CHECK(arc_type(vm, make_named_closure(NIL)) == vm.S.fn_type);
  CHECK(arc_type(vm, make_tagged(vm, vm.S.mac, NIL)) == vm.S.mac);
  CHECK(arc_type(vm, make_exception(vm, str("x"), NIL, NIL)) == vm.S.exception);
  CHECK(error_of([&vm] { arc_type(vm, make_box(vm, NIL)); }).find("unknown type") !=
        std::string::npos);
}

TEST_CASE("coerce: chars and numbers", "[data][coerce]") {
  VM& vm = setup();
  Value a = Value::character('a');
  CHECK(coerce(vm, a, vm.S.int_, MISSING) == fix(97));
  CHECK(write_string(vm, coerce(vm, a, vm.S.string, MISSING)) == "\"a\"");
  CHECK(coerce(vm, a, vm.S.sym, MISSING) == sym("a"));
  CHECK(coerce(vm, fix(97), vm.S.char_, MISSING) == a);
  CHECK(write_string(vm, coerce(vm, fix(255), vm.S.string, fix(16))) == "\"ff\"");
  CHECK(write_string(vm, coerce(vm, fix(-12), vm.S.string, MISSING)) == "\"-12\"");
  CHECK(coerce(vm, fix(5), vm.S.num, MISSING) == fix(5));
  CHECK(coerce(vm, make_flonum(vm, 2.5), vm.S.int_, MISSING) == fix(2));
  CHECK(coerce(vm, make_flonum(vm, 3.5), vm.S.int_, MISSING) == fix(4));
  CHECK(coerce(vm, make_flonum(vm, 97.2), vm.S.char_, MISSING) == a);
  CHECK(write_string(vm, coerce(vm, make_flonum(vm, 2.5), vm.S.string, MISSING)) == "\"2.5\"");
  CHECK(error_of([&vm] { coerce(vm, fix(1), vm.S.sym, MISSING); }) == "Can't coerce 1 'sym");
  CHECK(error_of([&vm] { coerce(vm, Value::character('a'), vm.S.num, MISSING); }) ==
        "Can't coerce #\\a 'num");
}

TEST_CASE("coerce: strings, symbols, lists and the quirks", "[data][coerce]") {
  VM& vm = setup();
  CHECK(coerce(vm, str("nil"), vm.S.sym, MISSING) == NIL);
  CHECK(write_string(vm, coerce(vm, str("a b"), vm.S.sym, MISSING)) == "|a b|");
  CHECK(write_string(vm, coerce(vm, str("abc"), vm.S.cons, MISSING)) == "(#\\a #\\b #\\c)");
  CHECK(coerce(vm, str(""), vm.S.cons, MISSING) == NIL);
  CHECK(coerce(vm, str("12"), vm.S.num, MISSING) == fix(12));
  CHECK(coerce(vm, str("ff"), vm.S.int_, fix(16)) == fix(255));
  CHECK(coerce(vm, str("1.5"), vm.S.int_, MISSING) == fix(2));
  CHECK(error_of([&vm] { coerce(vm, str("abc"), vm.S.num, MISSING); }) ==
        "Can't coerce \"abc\" 'num");
  Value mixed = list(
      vm, {fix(1), str("a"), Value::character('b'), sym("sym"), NIL, list(vm, {str("x"), fix(2)})});
  CHECK(disp_string(vm, coerce(vm, mixed, vm.S.string, MISSING)) == "1absymx2");
  CHECK(disp_string(vm, coerce(vm, NIL, vm.S.string, MISSING)) == "");
  CHECK(disp_string(vm, coerce(vm, sym("foo"), vm.S.string, MISSING)) == "foo");
  CHECK(coerce(vm, NIL, vm.S.sym, MISSING) == NIL);
  Value s = str("same");
  CHECK(coerce(vm, s, vm.S.string, MISSING) == s);
  Value t = make_table(vm);
  CHECK(coerce(vm, t, vm.S.cons, MISSING) == t);  // 3.1: unknown source type unchanged
  CHECK(error_of([&vm] {
          coerce(vm, make_tagged(vm, sym("x"), fix(1)), vm.S.string, MISSING);
        }).find("Can't coerce annotated object") == 0);
  CHECK(error_of([&vm] { coerce(vm, sym("a"), vm.S.cons, MISSING); }) == "Can't coerce 'a 'cons");
  CHECK(error_of([&vm] { coerce(vm, NIL, vm.S.cons, MISSING); }) == "Can't coerce 'nil 'cons");
}

TEST_CASE("coerce_to_string is what + on strings uses", "[data][coerce]") {
  VM& vm = setup();
  CHECK(disp_string(vm, coerce_to_string(vm, NIL)) == "");
  CHECK(disp_string(vm, coerce_to_string(vm, fix(42))) == "42");
  CHECK(disp_string(vm, coerce_to_string(vm, Value::character(0x1F600))) == "😀");
  CHECK(disp_string(vm, coerce_to_string(vm, list(vm, {sym("a"), fix(1)}))) == "a1");
  CHECK(error_of([&vm] { coerce_to_string(vm, make_table(vm)); }).find("Can't coerce") == 0);
  CHECK(error_of([&vm] { coerce_to_string(vm, cons(vm, fix(1), fix(2))); }).find("Can't coerce") ==
        0);
}

TEST_CASE("compare_values orders numbers, strings, symbols, chars", "[data][compare]") {
  VM& vm = setup();
  CHECK(compare_values(vm, "<", fix(1), fix(2)) < 0);
  CHECK(compare_values(vm, "<", str("B"), str("a")) < 0);
  CHECK(compare_values(vm, "<", sym("b"), sym("a")) > 0);
  CHECK(compare_values(vm, "<", NIL, sym("a")) > 0);
  CHECK(compare_values(vm, "<", Value::character('a'), Value::character('a')) == 0);
  CHECK(error_of([&vm] { compare_values(vm, "<", sym("a"), str("b")); }) ==
        "<: can't compare a and \"b\"");
  CHECK(error_of([&vm] { compare_values(vm, ">", fix(1), sym("a")); }) ==
        ">: can't compare 1 and a");
}
