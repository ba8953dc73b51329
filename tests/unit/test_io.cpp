// tests/unit/test_io.cpp — the PortImpl kinds of vm/port.cpp, exercised
// directly: UTF-8 over string and file ports, peeking, byte/char mixing, end
// of input, buffering across refills, append mode and open errors; and the
// printer writing straight into a port's buffer (vm/print.h).
#include <fcntl.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <memory>
#include <string>

#include "gc/heap.h"
#include "support.h"
#include "vm/error.h"
#include "vm/number.h"
#include "vm/object.h"
#include "vm/port.h"
#include "vm/print.h"
#include "vm/string.h"
#include "vm/symbol.h"

using namespace vm;

namespace {

// The VM of the test binary's one runtime (tests/unit/support.h).
VM& setup() { return support::runtime().vm(); }

// A fresh directory under TMPDIR (or /tmp), removed with its files at scope end.
struct TempDir {
  std::string path;
  TempDir() {
    const char* t = getenv("TMPDIR");
    std::string tmpl = std::string(t && *t ? t : "/tmp") + "/arcana-io-XXXXXX";
    REQUIRE(mkdtemp(tmpl.data()) != nullptr);
    path = tmpl;
  }
  ~TempDir() { (void)!system(("rm -rf '" + path + "'").c_str()); }
  std::string file(const char* name) const { return path + "/" + name; }
};

std::string read_all_bytes(PortImpl* p) {
  std::string s;
  for (int b; (b = p->read_byte()) >= 0;) s += char(b);
  return s;
}

std::u32string read_all_chars(PortImpl* p) {
  std::u32string s;
  for (int32_t c; (c = p->read_char()) >= 0;) s += char32_t(c);
  return s;
}

void write_file(const std::string& path, const std::string& text, bool append) {
  VM& vm = setup();
  std::unique_ptr<PortImpl> out(open_output_file(vm, path, append));
  out->write_str(text);
  out->close();
}

std::string read_file(const std::string& path) {
  VM& vm = setup();
  std::unique_ptr<PortImpl> in(open_input_file(vm, path));
  return read_all_bytes(in.get());
}

// U+00E9 (2 bytes), U+20AC (3 bytes), U+1F600 (4 bytes).
const std::u32string kMixed = U"a\u00e9\u20ac\U0001F600z";
const std::string kMixedUtf8 = "a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80z";

}  // namespace

TEST_CASE("string output port encodes UTF-8, string input decodes it", "[io]") {
  setup();
  std::unique_ptr<PortImpl> out(make_output_string());
  for (char32_t c : kMixed) out->write_char(uint32_t(c));
  REQUIRE(out->contents() != nullptr);
  CHECK(*out->contents() == kMixedUtf8);

  std::unique_ptr<PortImpl> in(make_input_string(*out->contents()));
  CHECK(read_all_chars(in.get()) == kMixed);
  CHECK(in->read_char() == -1);
}

TEST_CASE("peek_char does not consume, even a 4-byte character", "[io]") {
  setup();
  std::unique_ptr<PortImpl> in(make_input_string("\xf0\x9f\x98\x80x"));
  CHECK(in->peek_char() == 0x1F600);
  CHECK(in->peek_char() == 0x1F600);
  CHECK(in->read_char() == 0x1F600);
  CHECK(in->peek_char() == 'x');
  CHECK(in->read_char() == 'x');
  CHECK(in->peek_char() == -1);
}

TEST_CASE("bytes of a peeked character can still be read one by one", "[io]") {
  setup();
  std::unique_ptr<PortImpl> in(make_input_string("\xe2\x82\xac!"));
  CHECK(in->peek_char() == 0x20AC);
  CHECK(in->read_byte() == 0xE2);
  CHECK(in->peek_byte() == 0x82);
  CHECK(in->read_byte() == 0x82);
  CHECK(in->read_byte() == 0xAC);
  CHECK(in->read_char() == '!');
}

TEST_CASE("read_byte and read_char mix on one port", "[io]") {
  setup();
  std::unique_ptr<PortImpl> in(
      make_input_string("ab\xe2\x82\xac"
                        "c"));
  CHECK(in->read_byte() == 'a');
  CHECK(in->read_char() == 'b');
  CHECK(in->peek_byte() == 0xE2);
  CHECK(in->read_char() == 0x20AC);
  CHECK(in->read_byte() == 'c');
  CHECK(in->read_byte() == -1);
}

TEST_CASE("end of input is -1 for every read and stays so", "[io]") {
  setup();
  std::unique_ptr<PortImpl> in(make_input_string(""));
  CHECK(in->read_byte() == -1);
  CHECK(in->peek_byte() == -1);
  CHECK(in->read_char() == -1);
  CHECK(in->peek_char() == -1);
  CHECK(in->read_char() == -1);
}

TEST_CASE("invalid UTF-8 decodes as U+FFFD without swallowing what follows", "[io]") {
  setup();
  auto decode = [](const std::string& bytes) {
    std::unique_ptr<PortImpl> in(make_input_string(bytes));
    return read_all_chars(in.get());
  };
  CHECK(decode("\xff"
               "x") == U"\uFFFDx");  // never a lead byte
  CHECK(decode("\x80"
               "x") == U"\uFFFDx");        // stray continuation
  CHECK(decode("\xe2(") == U"\uFFFD(");    // sequence cut by ASCII
  CHECK(decode("\xe2\x82") == U"\uFFFD");  // cut by end of input
  CHECK(decode("\xc0\x80"
               "x") == U"\uFFFDx");  // overlong NUL
  CHECK(decode("\xed\xa0\x80"
               "x") == U"\uFFFDx");                // surrogate
  CHECK(decode("\xf4\x90\x80\x80") == U"\uFFFD");  // above U+10FFFF
}

TEST_CASE("write_char replaces code points that are not characters", "[io]") {
  setup();
  std::unique_ptr<PortImpl> out(make_output_string());
  out->write_char(0xD800);
  out->write_char(0x110000);
  CHECK(*out->contents() == "\xef\xbf\xbd\xef\xbf\xbd");
}

TEST_CASE("a file written through a port reads back the same", "[io]") {
  VM& vm = setup();
  TempDir dir;
  std::string path = dir.file("round.txt");
  write_file(path, kMixedUtf8 + "\nline two\n", false);
  std::unique_ptr<PortImpl> in(open_input_file(vm, path));
  CHECK(in->is_input);
  CHECK_FALSE(in->is_output);
  CHECK(in->fd() >= 0);
  CHECK(in->name == path);
  CHECK(read_all_chars(in.get()) == kMixed + U"\nline two\n");
}

TEST_CASE("append mode appends, the default truncates", "[io]") {
  setup();
  TempDir dir;
  std::string path = dir.file("log");
  write_file(path, "one", false);
  write_file(path, "two", true);
  CHECK(read_file(path) == "onetwo");
  write_file(path, "three", false);
  CHECK(read_file(path) == "three");
}

TEST_CASE("file output is buffered until flush", "[io]") {
  VM& vm = setup();
  TempDir dir;
  std::string path = dir.file("buffered");
  std::unique_ptr<PortImpl> out(open_output_file(vm, path, false));
  out->write_str("hello");
  CHECK(read_file(path) == "");  // a regular file is not line buffered
  out->flush();
  CHECK(read_file(path) == "hello");
  out->write_str(" world");
  out->close();
  CHECK(out->closed);
  CHECK(read_file(path) == "hello world");
}

TEST_CASE("release_output_buffers gives back empty buffers only, and the port goes on", "[io]") {
  VM& vm = setup();
  TempDir dir;
  std::string path = dir.file("big");
  std::unique_ptr<PortImpl> out(open_output_file(vm, path, false));
  out->write_str(std::string(40000, 'a'));  // buffered: not empty, kept
  CHECK(release_output_buffers() < 40000);
  out->flush();
  CHECK(release_output_buffers() >= 40000);  // empty now: its room goes
  CHECK(release_output_buffers() == 0);
  out->write_str("b");
  out->close();
  CHECK(read_file(path) == std::string(40000, 'a') + "b");
}

TEST_CASE("characters split across the 64 KiB input buffer decode whole", "[io]") {
  VM& vm = setup();
  TempDir dir;
  std::string path = dir.file("big");
  std::string euro = "\xe2\x82\xac";
  std::string text;
  for (int i = 0; i < 50000; ++i) text += euro;  // 150000 bytes; 65536 % 3 != 0
  write_file(path, text, false);
  std::unique_ptr<PortImpl> in(open_input_file(vm, path));
  int n = 0;
  bool all_euro = true;
  for (int32_t c; (c = in->peek_char()) >= 0; ++n) {
    all_euro = all_euro && in->read_char() == c && c == 0x20AC;
  }
  CHECK(n == 50000);
  CHECK(all_euro);
}

TEST_CASE("fd ports wrap descriptors they may or may not own", "[io]") {
  VM& vm = setup();
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  std::unique_ptr<PortImpl> out(make_fd_output(vm, fds[1], "pipe-out", true));
  std::unique_ptr<PortImpl> in(make_fd_input(vm, fds[0], "pipe-in", true));
  out->write_str("via pipe");
  out->close();  // owned: closing gives the reader end of input
  CHECK(read_all_bytes(in.get()) == "via pipe");
  in->close();
  CHECK(fcntl(fds[0], F_GETFD) == -1);  // the owned descriptor was closed
}

TEST_CASE("opening a missing file is an Arc error naming the path", "[io]") {
  VM& vm = setup();
  TempDir dir;
  std::string missing = dir.file("no-such-file");
  try {
    delete open_input_file(vm, missing);
    FAIL("open_input_file did not throw");
  } catch (const ArcError& e) {
    std::string msg = exception_message(e.exc);
    CHECK(msg.find(missing) != std::string::npos);
    CHECK(msg.find("No such file") != std::string::npos);
  }
  std::string in_missing_dir = dir.file("no-dir/out.txt");
  CHECK_THROWS_AS(delete open_output_file(vm, in_missing_dir, false), ArcError);
  CHECK_THROWS_AS(delete open_input_file(vm, dir.path), ArcError);  // a directory
}

TEST_CASE("port objects know their direction", "[io]") {
  VM& vm = setup();
  Value in = make_port(vm, make_input_string("x"));
  Value out = make_port(vm, make_output_string());
  CHECK(is_input_port(in));
  CHECK_FALSE(is_output_port(in));
  CHECK(is_output_port(out));
  CHECK_FALSE(is_input_port(out));
  CHECK_FALSE(is_input_port(NIL));
  CHECK_FALSE(is_output_port(Value::fixnum(1)));
  CHECK(port_impl(in)->read_char() == 'x');
}

TEST_CASE("a closed output string port keeps its contents", "[io]") {
  setup();
  std::unique_ptr<PortImpl> out(make_output_string());
  out->write_str("kept");
  out->close();
  CHECK(out->closed);
  REQUIRE(out->contents() != nullptr);
  CHECK(*out->contents() == "kept");
}

namespace {

// What print_value writes to a fresh string port holding before already.
std::string printed_to_port(Value v, bool write, const std::string& before = "") {
  VM& vm = setup();
  std::unique_ptr<PortImpl> out(make_output_string());
  out->write_str(before);
  print_value(vm, *out, v, write);
  return *out->contents();
}

// An output port with no buffer to print into: only write_bytes.
struct BytesOnly final : PortImpl {
  BytesOnly() { is_output = true; }
  void write_bytes(const char* p, size_t n) override {
    got.append(p, n);
    ++writes;
  }
  std::string got;
  int writes = 0;
};

}  // namespace

TEST_CASE("printing into a port's buffer: strings, symbols and numbers", "[io][print]") {
  VM& vm = setup();
  auto str = [&vm](const char* s) { return make_string_utf8(vm, s); };
  struct Case {
    Value v;
    const char* disp;
    const char* write;
  };
  Value big = *parse_number(vm, "-123456789012345678901234567890");
  const Case cases[] = {
      {str("plain ascii, longer than a word"), "plain ascii, longer than a word",
       "\"plain ascii, longer than a word\""},
      {str("é ÿ café"), "é ÿ café", "\"é ÿ café\""},
      {str("😀 東京 and é"), "😀 東京 and é", "\"😀 東京 and é\""},
      {str(""), "", "\"\""},
      {str("q\"b\\s\nt\t\x01"), "q\"b\\s\nt\t\x01", "\"q\\\"b\\\\s\\nt\\t\\u0001\""},
      {intern(vm, "sym"), "sym", "sym"},
      {intern(vm, "a b"), "a b", "|a b|"},
      {intern(vm, "a|b"), "a|b", "a\\|b"},
      {intern(vm, "12"), "12", "|12|"},
      {intern(vm, ""), "", "||"},
      {intern(vm, "café"), "café", "café"},
      {intern(vm, "東京"), "東京", "東京"},
      {Value::fixnum(0), "0", "0"},
      {Value::fixnum(-42), "-42", "-42"},
      {make_integer(vm, INT64_MAX), "9223372036854775807", "9223372036854775807"},
      {make_integer(vm, INT64_MIN), "-9223372036854775808", "-9223372036854775808"},
      {big, "-123456789012345678901234567890", "-123456789012345678901234567890"},
      {*parse_number(vm, "-1/3"), "-1/3", "-1/3"},
      {make_flonum(vm, -0.25), "-0.25", "-0.25"},
      {make_flonum(vm, 1e21), "1e+21", "1e+21"},
      {Value::character(0xE9), "é", "#\\é"},
      {NIL, "nil", "nil"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.disp);
    CHECK(printed_to_port(c.v, false) == c.disp);
    CHECK(printed_to_port(c.v, true) == c.write);
    CHECK(disp_string(vm, c.v) == c.disp);  // the same printer into a string
    CHECK(write_string(vm, c.v) == c.write);
    // Appended after what the port holds, which stays as it was.
    CHECK(printed_to_port(c.v, false, "é:") == std::string("é:") + c.disp);
  }
}

TEST_CASE("a cycle found while printing into a port redoes only its own output", "[io][print]") {
  VM& vm = setup();
  Value l = list(vm, {Value::fixnum(1), make_string_utf8(vm, "é"), intern(vm, "a b")});
  cdr(cdr(l)).as<Cons>()->cdr = l;  // (1 "é" |a b| 1 "é" ...)
  CHECK(printed_to_port(l, true, "before ") == "before #0=(1 \"é\" |a b| . #0#)");
  CHECK(printed_to_port(l, false, "x") == "x#0=(1 é a b . #0#)");
}

TEST_CASE("a port without a buffer gets the printed bytes through write_bytes", "[io][print]") {
  VM& vm = setup();
  BytesOnly out;
  print_value(vm, out, make_string_utf8(vm, "é 😀"), false);
  print_value(vm, out, list(vm, {intern(vm, "a b"), Value::fixnum(7)}), true);
  CHECK(out.got == "é 😀(|a b| 7)");
  CHECK(out.writes == 2);
}

TEST_CASE("printing into a file port sends a full buffer, and waits for flush otherwise",
          "[io][print]") {
  VM& vm = setup();
  TempDir dir;
  std::string path = dir.file("printed");
  std::unique_ptr<PortImpl> out(open_output_file(vm, path, false));
  print_value(vm, *out, make_string_utf8(vm, "small"), false);
  CHECK(read_file(path) == "");  // buffered
  // Past the 64 KiB buffer: the print sends it, as write_bytes would.
  std::string big(70000, 'a');
  big[69999] = 'z';
  print_value(vm, *out, make_string_utf8(vm, big), false);
  CHECK(read_file(path) == "small" + big);
  print_value(vm, *out, make_integer(vm, INT64_MIN), false);
  CHECK(read_file(path).size() == 70005);
  out->flush();
  CHECK(read_file(path) == "small" + big + "-9223372036854775808");
  out->close();
  print_value(vm, *out, make_string_utf8(vm, "after close"), false);  // dropped
  CHECK(read_file(path).size() == 70025);
}
