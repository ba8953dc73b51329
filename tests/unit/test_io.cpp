// tests/unit/test_io.cpp — the PortImpl kinds of vm/port.cpp, exercised
// directly: UTF-8 over string and file ports, peeking, byte/char mixing, end
// of input, buffering across refills, append mode and open errors.
#include <fcntl.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <memory>
#include <string>

#include "gc/heap.h"
#include "support.h"
#include "vm/error.h"
#include "vm/object.h"
#include "vm/port.h"

using namespace vm;

namespace {

// The test binary's one runtime (tests/unit/support.h).
void setup() { support::runtime(); }

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
  std::unique_ptr<PortImpl> out(open_output_file(path, append));
  out->write_str(text);
  out->close();
}

std::string read_file(const std::string& path) {
  std::unique_ptr<PortImpl> in(open_input_file(path));
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
  setup();
  TempDir dir;
  std::string path = dir.file("round.txt");
  write_file(path, kMixedUtf8 + "\nline two\n", false);
  std::unique_ptr<PortImpl> in(open_input_file(path));
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
  setup();
  TempDir dir;
  std::string path = dir.file("buffered");
  std::unique_ptr<PortImpl> out(open_output_file(path, false));
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
  setup();
  TempDir dir;
  std::string path = dir.file("big");
  std::unique_ptr<PortImpl> out(open_output_file(path, false));
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
  setup();
  TempDir dir;
  std::string path = dir.file("big");
  std::string euro = "\xe2\x82\xac";
  std::string text;
  for (int i = 0; i < 50000; ++i) text += euro;  // 150000 bytes; 65536 % 3 != 0
  write_file(path, text, false);
  std::unique_ptr<PortImpl> in(open_input_file(path));
  int n = 0;
  bool all_euro = true;
  for (int32_t c; (c = in->peek_char()) >= 0; ++n) {
    all_euro = all_euro && in->read_char() == c && c == 0x20AC;
  }
  CHECK(n == 50000);
  CHECK(all_euro);
}

TEST_CASE("fd ports wrap descriptors they may or may not own", "[io]") {
  setup();
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  std::unique_ptr<PortImpl> out(make_fd_output(fds[1], "pipe-out", true));
  std::unique_ptr<PortImpl> in(make_fd_input(fds[0], "pipe-in", true));
  out->write_str("via pipe");
  out->close();  // owned: closing gives the reader end of input
  CHECK(read_all_bytes(in.get()) == "via pipe");
  in->close();
  CHECK(fcntl(fds[0], F_GETFD) == -1);  // the owned descriptor was closed
}

TEST_CASE("opening a missing file is an Arc error naming the path", "[io]") {
  setup();
  TempDir dir;
  std::string missing = dir.file("no-such-file");
  try {
    delete open_input_file(missing);
    FAIL("open_input_file did not throw");
  } catch (const ArcError& e) {
    std::string msg = exception_message(e.exc);
    CHECK(msg.find(missing) != std::string::npos);
    CHECK(msg.find("No such file") != std::string::npos);
  }
  std::string in_missing_dir = dir.file("no-dir/out.txt");
  CHECK_THROWS_AS(delete open_output_file(in_missing_dir, false), ArcError);
  CHECK_THROWS_AS(delete open_input_file(dir.path), ArcError);  // a directory
}

TEST_CASE("port objects know their direction", "[io]") {
  setup();
  Value in = make_port(make_input_string("x"));
  Value out = make_port(make_output_string());
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
