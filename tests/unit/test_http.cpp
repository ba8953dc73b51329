// tests/unit/test_http.cpp — the VM-free HTTP layer of io/http.h: the
// request parser and its policy (limits, methods, versions, errors), fed
// whole, in every split and a byte at a time; Arc 3.1's urldecode,
// parseargs and parsecookies; request targets; multipart bodies; and the
// completion of a handler's output into an HTTP/1.1 response head.
//
// The expected values come from io/http.h's comments, Arc 3.1's srv.arc
// and RFC 9110/9112, not from running the code.
#include <catch2/catch.hpp>
#include <cstdint>
#include <ctime>
#include <regex>
#include <string>
#include <vector>

#include "io/http.h"
#include "support.h"
#include "vm/print.h"
#include "vm/symbol.h"
#include "vm/table.h"

using vm::http::Pairs;
using vm::http::Part;
using vm::http::Request;
using vm::http::RequestParser;
using vm::http::ResponseInfo;
using State = vm::http::RequestParser::State;

namespace {

// ---- driving the parser as the server does (io/http_builtins.cpp) ----

// A request in a form Catch can compare and print.
std::string describe(const Request& r) {
  std::string s = r.method + " " + r.target + " HTTP/" + std::to_string(r.major) + "." +
                  std::to_string(r.minor) + "\n";
  for (auto& [k, v] : r.headers) s += "[" + k + "]=[" + v + "]\n";
  s += "keep_alive=" + std::to_string(r.keep_alive) +
       " expect_continue=" + std::to_string(r.expect_continue) +
       " upgrade=" + std::to_string(r.upgrade) +
       " content_length=" + std::to_string(r.content_length) + "\n";
  s += "body=[" + r.body + "]\n";
  return s;
}

struct Outcome {
  std::vector<std::string> requests;  // describe() of each request parsed
  int error = 0;                      // the error status, if one ended it
  bool operator==(const Outcome& o) const { return requests == o.requests && error == o.error; }
};

std::string describe(const Outcome& o) {
  std::string s;
  for (auto& r : o.requests) s += r + "--\n";
  return s + "error=" + std::to_string(o.error);
}

// Feeds the chunks in turn as a connection's reads, keeping what the parser
// leaves unconsumed (as the socket buffer does); sets body_limit when a head
// is complete; after Done takes the request and calls next(); at the end
// tells the parser of the peer's close.
Outcome drive(const std::vector<std::string>& chunks, uint64_t body_limit = UINT64_MAX,
              vm::http::Limits limits = {}) {
  RequestParser p(limits);
  Outcome o;
  std::string buf;
  auto pump = [&] {
    for (int guard = 0; guard < 1000000; ++guard) {
      if (p.state() == State::Done) {
        o.requests.push_back(describe(p.request()));
        p.next();
        continue;
      }
      if (p.state() == State::Error || buf.empty()) return;
      State before = p.state();
      size_t used = p.feed(buf.data(), buf.size());
      REQUIRE(used <= buf.size());
      buf.erase(0, used);
      if ((before == State::Idle || before == State::Head) && p.state() == State::Body) {
        p.set_body_limit(body_limit);
        continue;
      }
      if (used == 0 && p.state() == before) return;  // it needs more bytes
    }
    FAIL("the parser makes no progress");
  };
  for (auto& c : chunks) {
    buf += c;
    pump();
    if (p.state() == State::Error) break;
  }
  if (p.state() != State::Error) p.eof();
  if (p.state() == State::Error) o.error = p.error_status();
  return o;
}

Outcome drive_whole(const std::string& s, uint64_t body_limit = UINT64_MAX) {
  return drive({s}, body_limit);
}

Outcome drive_bytes(const std::string& s, uint64_t body_limit = UINT64_MAX) {
  std::vector<std::string> chunks;
  for (char c : s) chunks.emplace_back(1, c);
  return drive(chunks, body_limit);
}

// The error status a single request (fed whole, then a byte at a time)
// ends with; both must agree.
int error_of(const std::string& s, uint64_t body_limit = UINT64_MAX) {
  Outcome whole = drive_whole(s, body_limit);
  Outcome bytes = drive_bytes(s, body_limit);
  CHECK(whole.error == bytes.error);
  CHECK(whole.requests.empty());
  return whole.error;
}

// A head of exactly n bytes before the blank line that ends it: a request
// line, a Host header and a padding header.
std::string head_of_size(size_t n) {
  std::string start = "GET / HTTP/1.1\r\nHost: x\r\n";  // 25 bytes
  std::string pad_name = "X-Pad: ";                     // then the value and \r\n
  REQUIRE(n >= start.size() + pad_name.size() + 2 + 1);
  std::string h =
      start + pad_name + std::string(n - start.size() - pad_name.size() - 2, 'p') + "\r\n";
  REQUIRE(h.size() == n);
  return h + "\r\n";
}

// ---- responses ----

// Checks the Date line of a response head (present once, well-formed, now)
// and returns the head with its value replaced by "D".
std::string without_date(const std::string& head) {
  static const std::regex date_line(
      "\r\nDate: ((Mon|Tue|Wed|Thu|Fri|Sat|Sun), [0-3][0-9] "
      "(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [0-9]{4} "
      "[0-2][0-9]:[0-5][0-9]:[0-6][0-9] GMT)\r\n");
  std::smatch m;
  REQUIRE(std::regex_search(head, m, date_line));
  std::string rest = m.suffix().str();
  CHECK(rest.find("\r\nDate:") == std::string::npos);
  CHECK(head.find("\r\ndate:") == std::string::npos);
  tm t{};
  REQUIRE(strptime(m[1].str().c_str(), "%a, %d %b %Y %H:%M:%S GMT", &t) != nullptr);
  int64_t when = int64_t(timegm(&t));
  int64_t now = int64_t(time(nullptr));
  CHECK(when <= now);
  CHECK(when >= now - 5);
  return m.prefix().str() + "\r\nDate: D\r\n" + rest;
}

std::string complete(std::string_view written, bool http10, bool keep_alive, ResponseInfo& info) {
  std::string head = "garbage from before";
  info = vm::http::complete_response(written, http10, keep_alive, head);
  return without_date(head);
}

// Arc 3.1's srv.arc.
const std::string kArcHeader =
    "HTTP/1.1 200 OK\nContent-Type: text/html; charset=utf-8\nConnection: close";
const std::string kArcRdHeader = "HTTP/1.0 302 Moved";

}  // namespace

// =========================== the request parser ===========================

TEST_CASE("a simple GET", "[http]") {
  RequestParser p;
  CHECK(p.state() == State::Idle);
  CHECK_FALSE(p.started());
  std::string s = "GET /news?id=7 HTTP/1.1\r\nHost: example.com\r\n\r\n";
  size_t used = p.feed(s.data(), s.size());
  // The head is complete: the parser stops so the caller can look at it.
  REQUIRE(p.state() == State::Body);
  CHECK(p.started());
  CHECK(used <= s.size());
  Request& r = p.request();
  CHECK(r.method == "GET");
  CHECK(r.target == "/news?id=7");
  CHECK(r.major == 1);
  CHECK(r.minor == 1);
  REQUIRE(r.headers.size() == 1);
  CHECK(r.headers[0] == std::pair<std::string, std::string>("host", "example.com"));
  CHECK(r.content_length == 0);
  CHECK_FALSE(r.expect_continue);
  CHECK_FALSE(r.upgrade);
  // Feeding on ends the request (no body), using exactly the rest.
  used += p.feed(s.data() + used, s.size() - used);
  CHECK(p.state() == State::Done);
  CHECK(used == s.size());
  CHECK(p.request().body.empty());
  CHECK(p.request().keep_alive);
  CHECK(p.error_status() == 0);
  // Done: nothing more is consumed until next().
  CHECK(p.feed("GET", 3) == 0);
  CHECK(p.state() == State::Done);
  p.next();
  CHECK(p.state() == State::Idle);
  CHECK_FALSE(p.started());
  CHECK(p.request().method.empty());
  CHECK(p.request().headers.empty());
}

TEST_CASE("HEAD is served", "[http]") {
  Outcome o = drive_whole("HEAD / HTTP/1.1\r\nHost: x\r\n\r\n");
  CHECK(o.error == 0);
  REQUIRE(o.requests.size() == 1);
  CHECK(o.requests[0].rfind("HEAD / HTTP/1.1\n", 0) == 0);
}

TEST_CASE("header names are lower-cased, kept in order, values trimmed", "[http]") {
  RequestParser p;
  std::string s =
      "GET / HTTP/1.1\r\n"
      "Host: example.com\r\n"
      "X-Custom-Thing: Mixed Case Value\r\n"
      "ACCEPT: */*\r\n"
      "x-empty:\r\n"
      "X-Spaces: \t padded value \t \r\n"
      "Cookie: a=1\r\n"
      "cookie: b=2\r\n"
      "\r\n";
  p.feed(s.data(), s.size());
  REQUIRE(p.state() == State::Body);
  Request& r = p.request();
  Pairs expected = {
      {"host", "example.com"}, {"x-custom-thing", "Mixed Case Value"}, {"accept", "*/*"},
      {"x-empty", ""},         {"x-spaces", "padded value"},           {"cookie", "a=1"},
      {"cookie", "b=2"}};
  CHECK(r.headers == expected);
  // header(): the first of that name (given in lower case), or null.
  REQUIRE(r.header("cookie") != nullptr);
  CHECK(*r.header("cookie") == "a=1");
  REQUIRE(r.header("x-empty") != nullptr);
  CHECK(r.header("x-empty")->empty());
  CHECK(r.header("content-type") == nullptr);
}

TEST_CASE("an obsolete line fold becomes a space (RFC 9112 5.2)", "[http]") {
  RequestParser p;
  std::string s = "GET / HTTP/1.1\r\nX-Long: first\r\n second\r\nHost: x\r\n\r\n";
  p.feed(s.data(), s.size());
  REQUIRE(p.state() == State::Body);
  Pairs expected = {{"x-long", "first second"}, {"host", "x"}};
  CHECK(p.request().headers == expected);
}

TEST_CASE("a POST with Content-Length", "[http]") {
  RequestParser p;
  std::string s =
      "POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
      "Content-Length: 14\r\n\r\nu=ann&pw=s3cr";
  size_t used = p.feed(s.data(), s.size());
  REQUIRE(p.state() == State::Body);
  CHECK(p.request().method == "POST");
  CHECK(p.request().target == "/login");
  CHECK(p.request().content_length == 14);
  used += p.feed(s.data() + used, s.size() - used);
  // One byte of the body is still to come.
  CHECK(p.state() == State::Body);
  CHECK(used == s.size());
  std::string more = "tGET / HTTP/1.1\r\nHost: x\r\n\r\n";
  size_t n = p.feed(more.data(), more.size());
  CHECK(p.state() == State::Done);
  CHECK(n == 1);  // the rest is the next request's
  CHECK(p.request().body == "u=ann&pw=s3crt");
  CHECK(p.request().content_length == 14);
}

TEST_CASE("a POST with Content-Length: the body is exactly the announced bytes", "[http]") {
  std::string s =
      "POST /login HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhelloGET / HTTP/1.1\r\nHost: "
      "x\r\n\r\n";
  Outcome o = drive_whole(s);
  REQUIRE(o.requests.size() == 2);
  CHECK(o.error == 0);
  CHECK(o.requests[0] ==
        "POST /login HTTP/1.1\n[host]=[x]\n[content-length]=[5]\n"
        "keep_alive=1 expect_continue=0 upgrade=0 content_length=5\nbody=[hello]\n");
  CHECK(o.requests[1] ==
        "GET / HTTP/1.1\n[host]=[x]\nkeep_alive=1 expect_continue=0 upgrade=0 content_length=0\n"
        "body=[]\n");
}

TEST_CASE("a chunked POST: the body is decoded", "[http]") {
  std::string s =
      "POST /up HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
      "4\r\nWiki\r\n"
      "5;name=value\r\npedia\r\n"
      "E\r\n in\r\n\r\nchunks.\r\n"
      "0\r\n\r\n";
  RequestParser p;
  size_t used = p.feed(s.data(), s.size());
  REQUIRE(p.state() == State::Body);
  // Chunked: no length is announced.
  CHECK(p.request().content_length == 0);
  used += p.feed(s.data() + used, s.size() - used);
  REQUIRE(p.state() == State::Done);
  CHECK(used == s.size());
  CHECK(p.request().body == "Wikipedia in\r\n\r\nchunks.");
  Pairs expected = {{"host", "x"}, {"transfer-encoding", "chunked"}};
  CHECK(p.request().headers == expected);
}

TEST_CASE("trailer fields are not merged into the headers (RFC 9110 6.5.1)", "[http]") {
  // Once a bug: libhttp-parser reports trailer fields through the same
  // callbacks as header fields, and all but the last were committed into
  // Request::headers, so a trailer could add a header (a Cookie, say).
  std::string s =
      "POST /up HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
      "3\r\nabc\r\n0\r\nCookie: user=mallory\r\nX-Checksum: 1\r\n\r\n";
  Outcome o = drive_whole(s);
  REQUIRE(o.requests.size() == 1);
  CHECK(o.requests[0] ==
        "POST /up HTTP/1.1\n[host]=[x]\n[transfer-encoding]=[chunked]\n"
        "keep_alive=1 expect_continue=0 upgrade=0 content_length=0\nbody=[abc]\n");
}

TEST_CASE("two pipelined requests in one buffer", "[http]") {
  std::string a = "GET /a HTTP/1.1\r\nHost: x\r\n\r\n";
  std::string b = "POST /b HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nxyz";
  std::string s = a + b;
  RequestParser p;
  size_t used = p.feed(s.data(), s.size());
  REQUIRE(p.state() == State::Body);
  CHECK(p.request().target == "/a");
  used += p.feed(s.data() + used, s.size() - used);
  REQUIRE(p.state() == State::Done);
  // The second request is left unconsumed.
  CHECK(used == a.size());
  CHECK(p.request().target == "/a");
  CHECK(p.feed(s.data() + used, s.size() - used) == 0);
  CHECK(p.state() == State::Done);
  p.next();
  size_t used2 = p.feed(s.data() + used, s.size() - used);
  REQUIRE(p.state() == State::Body);
  CHECK(p.request().method == "POST");
  CHECK(p.request().target == "/b");
  CHECK(p.request().body.empty());
  used2 += p.feed(s.data() + used + used2, s.size() - used - used2);
  REQUIRE(p.state() == State::Done);
  CHECK(used + used2 == s.size());
  CHECK(p.request().body == "xyz");
  // Nothing is left over from the first request.
  Pairs expected = {{"host", "x"}, {"content-length", "3"}};
  CHECK(p.request().headers == expected);
}

TEST_CASE("every split of the input, and a byte at a time, parse the same", "[http]") {
  std::string get = "GET /a?x=1&y=%20 HTTP/1.1\r\nHost: h\r\nX-Two: two words\r\n\r\n";
  std::string form =
      "POST /form HTTP/1.1\r\nHost: h\r\nContent-Type: application/x-www-form-urlencoded\r\n"
      "Content-Length: 7\r\n\r\na=1&b=2";
  std::string chunked =
      "POST /up HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
      "4\r\nWiki\r\n5;ext=1\r\npedia\r\n0\r\n\r\n";
  std::string s = get + form + chunked + get;
  const std::string get_d =
      "GET /a?x=1&y=%20 HTTP/1.1\n[host]=[h]\n[x-two]=[two words]\n"
      "keep_alive=1 expect_continue=0 upgrade=0 content_length=0\nbody=[]\n";
  const std::string form_d =
      "POST /form HTTP/1.1\n[host]=[h]\n[content-type]=[application/x-www-form-urlencoded]\n"
      "[content-length]=[7]\nkeep_alive=1 expect_continue=0 upgrade=0 content_length=7\n"
      "body=[a=1&b=2]\n";
  const std::string chunked_d =
      "POST /up HTTP/1.1\n[host]=[h]\n[transfer-encoding]=[chunked]\n"
      "keep_alive=1 expect_continue=0 upgrade=0 content_length=0\nbody=[Wikipedia]\n";
  Outcome expected{{get_d, form_d, chunked_d, get_d}, 0};

  Outcome whole = drive_whole(s);
  INFO(describe(whole));
  CHECK(whole == expected);
  Outcome bytes = drive_bytes(s);
  INFO(describe(bytes));
  CHECK(bytes == expected);

  int bad_two = 0, bad_three = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (!(drive({s.substr(0, i), s.substr(i)}) == expected)) {
      if (bad_two++ == 0) UNSCOPED_INFO("first bad split at " << i);
    }
  }
  CHECK(bad_two == 0);
  // Three pieces: every pair of split points (a stride for the second keeps
  // the count of runs moderate).
  for (size_t i = 0; i <= s.size(); ++i)
    for (size_t j = i; j <= s.size(); j += 3)
      if (!(drive({s.substr(0, i), s.substr(i, j - i), s.substr(j)}) == expected)) {
        if (bad_three++ == 0) UNSCOPED_INFO("first bad splits at " << i << ", " << j);
      }
  CHECK(bad_three == 0);
}

TEST_CASE("keep_alive follows the version and Connection", "[http]") {
  auto keep = [](const std::string& s) {
    RequestParser p;
    size_t used = p.feed(s.data(), s.size());
    REQUIRE(p.state() == State::Body);
    bool at_head = p.request().keep_alive;
    p.feed(s.data() + used, s.size() - used);
    REQUIRE(p.state() == State::Done);
    CHECK(p.request().keep_alive == at_head);
    return p.request().keep_alive;
  };
  CHECK(keep("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
  CHECK_FALSE(keep("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
  CHECK_FALSE(keep("GET / HTTP/1.1\r\nHost: x\r\nConnection: Close\r\n\r\n"));
  CHECK_FALSE(keep("GET / HTTP/1.0\r\n\r\n"));
  CHECK(keep("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"));
  CHECK(keep("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n"));
}

TEST_CASE("the version is kept", "[http]") {
  RequestParser p;
  std::string s = "GET / HTTP/1.0\r\n\r\n";
  p.feed(s.data(), s.size());
  REQUIRE(p.state() == State::Body);
  CHECK(p.request().major == 1);
  CHECK(p.request().minor == 0);
}

TEST_CASE("Expect: 100-continue is seen at the head", "[http]") {
  std::string head =
      "POST /up HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n";
  RequestParser p;
  size_t used = p.feed(head.data(), head.size());
  REQUIRE(p.state() == State::Body);
  CHECK(p.request().expect_continue);
  CHECK(p.request().content_length == 5);
  // The client waits for the 100 before sending the body; it comes later.
  used += p.feed(head.data() + used, head.size() - used);
  CHECK(used == head.size());
  CHECK(p.state() == State::Body);
  p.feed("12345", 5);
  CHECK(p.state() == State::Done);
  CHECK(p.request().body == "12345");

  // The expectation's value is case-insensitive (RFC 9110 10.1.1).
  RequestParser q;
  std::string h2 =
      "POST / HTTP/1.1\r\nHost: x\r\nExpect: 100-Continue\r\nContent-Length: 1\r\n\r\n";
  q.feed(h2.data(), h2.size());
  REQUIRE(q.state() == State::Body);
  CHECK(q.request().expect_continue);

  RequestParser r;
  std::string h3 = "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n\r\n";
  r.feed(h3.data(), h3.size());
  REQUIRE(r.state() == State::Body);
  CHECK_FALSE(r.request().expect_continue);
}

TEST_CASE("Upgrade is reported", "[http]") {
  RequestParser p;
  std::string s =
      "GET /chat HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n";
  p.feed(s.data(), s.size());
  REQUIRE(p.state() == State::Body);
  CHECK(p.request().upgrade);
}

TEST_CASE("a URI over 8 KiB is 414", "[http]") {
  std::string target = "/" + std::string(8 * 1024, 'a');  // 8193 bytes
  std::string s = "GET " + target + " HTTP/1.1\r\nHost: x\r\n\r\n";
  CHECK(drive_whole(s).error == 414);
  // Still 414 when it never ends.
  CHECK(drive_whole("GET /" + std::string(100000, 'b')).error == 414);
  // In pieces.
  CHECK(drive({"GET /" + std::string(5000, 'c'), std::string(5000, 'c')}).error == 414);
}

TEST_CASE("a URI over 8 KiB fed a byte at a time is 414", "[http]") {
  // Once a bug: in small pieces, the header-block check fired as soon as
  // the request line passed the header limit, while the target seen so far
  // was not yet over max_uri: 431, where the same request fed whole is 414.
  std::string target = "/" + std::string(8 * 1024, 'a');  // 8193 bytes
  CHECK(drive_bytes("GET " + target + " HTTP/1.1\r\nHost: x\r\n\r\n").error == 414);
  CHECK(drive_bytes("GET /" + std::string(9000, 'b')).error == 414);
  CHECK(drive({"GET /" + std::string(8190, 'c'), std::string(100, 'c') + " HTTP/1.1\r\n\r\n"})
            .error == 414);
}

TEST_CASE("a URI at its limit is accepted, one byte more is 414", "[http]") {
  vm::http::Limits limits;
  limits.max_uri = 100;
  std::string at = "/" + std::string(99, 'u');
  Outcome ok = drive({"GET " + at + " HTTP/1.1\r\nHost: x\r\n\r\n"}, UINT64_MAX, limits);
  CHECK(ok.error == 0);
  CHECK(ok.requests.size() == 1);
  Outcome over = drive({"GET " + at + "u HTTP/1.1\r\nHost: x\r\n\r\n"}, UINT64_MAX, limits);
  CHECK(over.error == 414);
  CHECK(over.requests.empty());
}

TEST_CASE("a header block at 8 KiB is accepted", "[http]") {
  std::string s = head_of_size(8 * 1024);
  Outcome whole = drive_whole(s);
  CHECK(whole.error == 0);
  CHECK(whole.requests.size() == 1);
  Outcome bytes = drive_bytes(s);
  CHECK(bytes.error == 0);
  CHECK(bytes.requests.size() == 1);
}

TEST_CASE("a header block over 8 KiB is 431", "[http]") {
  // Far over: many headers, and one that never ends.
  std::string many = "GET / HTTP/1.1\r\n";
  for (int i = 0; i < 400; ++i) many += "X-Header-" + std::to_string(i) + ": some value\r\n";
  many += "\r\n";
  CHECK(error_of(many) == 431);
  CHECK(drive_whole("GET / HTTP/1.1\r\nX-Forever: " + std::string(100000, 'v')).error == 431);
  CHECK(drive_bytes("GET / HTTP/1.1\r\nX-Forever: " + std::string(9000, 'v')).error == 431);
  // A little over.
  CHECK(error_of(head_of_size(8 * 1024 + 10)) == 431);
}

TEST_CASE("a header block one byte over 8 KiB is 431", "[http]") {
  // Once a bug (off by one): the parser pauses at the end of the head
  // before consuming its last byte, so the bytes counted were one short and
  // a head of max_header + 1 bytes got through.
  CHECK(error_of(head_of_size(8 * 1024 + 1)) == 431);
}

TEST_CASE("a head over its limit with a URI within its own is 431, not 414", "[http]") {
  // Once a bug: a head over max_header before its first header field was
  // 414 whatever the URI's length (a target within max_uri in a long
  // request line; 8200 bytes of empty lines before a request for "/").
  // http.h: only a URI longer than max_uri is 414.
  std::string target = "/" + std::string(8185, 'a');  // 8186 bytes
  CHECK(error_of("GET " + target + " HTTP/1.1\r\nHost: x\r\n\r\n") == 431);
  std::string blank_lines;
  for (int i = 0; i < 4100; ++i) blank_lines += "\r\n";
  CHECK(drive_whole(blank_lines + "GET / HTTP/1.1\r\n\r\n").error != 414);
}

TEST_CASE("a head over its limit with a bad byte after the limit is 431 however it arrives",
          "[http]") {
  // Once a bug (found by fuzz_http; tests/fuzz/corpus/http/crash-header-limit-split):
  // feed() lets the parser read up to max(max_header, max_uri + 32) + 2
  // bytes of a head at once, and a parse error it meets there wins over the
  // header limit, checked after. So a head passing 8 KiB with a bad byte
  // (here a control character in a header value at byte 8200) is 400 fed
  // whole but 431 fed in pieces (any read ending between bytes 8194 and
  // 8200). The limit is passed first in the byte stream: 431.
  std::string s = "GET / HTTP/1.1\r\nX-Pad: " + std::string(8200 - 23, 'a');
  REQUIRE(s.size() == 8200);
  s += "\x01 rest\r\n\r\n";
  CHECK(drive({s.substr(0, 8195), s.substr(8195)}).error == 431);
  CHECK(error_of(s) == 431);  // whole and a byte at a time
}

TEST_CASE("a body over the limit is 413: Content-Length at the head", "[http]") {
  // A limit set before the head arrives applies at the head.
  RequestParser p;
  p.set_body_limit(10);
  std::string s = "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\n";
  p.feed(s.data(), s.size());
  CHECK(p.state() == State::Error);
  CHECK(p.error_status() == 413);
  // Set after the head (as the server does) with the whole body sent.
  CHECK(error_of(s + "12345678901", 10) == 413);
  // At the limit: accepted.
  Outcome ok =
      drive_whole("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n1234567890", 10);
  CHECK(ok.error == 0);
  CHECK(ok.requests.size() == 1);
}

TEST_CASE("a limit set at the head is checked against Content-Length at once", "[http]") {
  // Once a bug: set_body_limit() only stored the limit, and the
  // Content-Length was compared with it at the end of the head, before the
  // caller (which learns the op there) could set it; the body was read
  // until it passed the limit.
  RequestParser p;
  std::string s = "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n";
  size_t used = p.feed(s.data(), s.size());
  REQUIRE(p.state() == State::Body);
  p.set_body_limit(10);
  p.feed(s.data() + used, s.size() - used);
  p.feed("12345", 5);
  CHECK(p.state() == State::Error);
  CHECK(p.error_status() == 413);
}

TEST_CASE("a body over the limit is 413: by chunks", "[http]") {
  std::string head = "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n";
  CHECK(error_of(head + "8\r\n12345678\r\n8\r\n12345678\r\n0\r\n\r\n", 10) == 413);
  // Cut off as soon as the limit is passed: no need for the rest.
  CHECK(drive({head + "8\r\n12345678\r\n8\r\n123"}, 10).error == 413);
  CHECK(drive({head + "b\r\n12345678901"}, 10).error == 413);
  // At the limit: accepted.
  Outcome ok = drive_whole(head + "5\r\n12345\r\n5\r\n67890\r\n0\r\n\r\n", 10);
  CHECK(ok.error == 0);
  REQUIRE(ok.requests.size() == 1);
  CHECK(ok.requests[0].find("body=[1234567890]") != std::string::npos);
}

TEST_CASE("PUT, DELETE, OPTIONS and the other standard methods are 405", "[http]") {
  CHECK(error_of("PUT /x HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n\r\na") == 405);
  CHECK(error_of("DELETE /x HTTP/1.1\r\nHost: x\r\n\r\n") == 405);
  CHECK(error_of("OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n") == 405);
  CHECK(error_of("OPTIONS /x HTTP/1.1\r\nHost: x\r\n\r\n") == 405);
  CHECK(error_of("PATCH /x HTTP/1.1\r\nHost: x\r\n\r\n") == 405);
  CHECK(error_of("TRACE /x HTTP/1.1\r\nHost: x\r\n\r\n") == 405);
}

TEST_CASE("an unknown method is 501", "[http]") {
  CHECK(error_of("FOO / HTTP/1.1\r\nHost: x\r\n\r\n") == 501);
  CHECK(error_of("GETT / HTTP/1.1\r\nHost: x\r\n\r\n") == 501);
  // Methods are case-sensitive (RFC 9110 9.1): "get" is not GET.
  CHECK(error_of("get / HTTP/1.1\r\nHost: x\r\n\r\n") == 501);
}

// The error status s ends with when fed whole, a byte at a time and in two
// pieces at every split point; each must agree with the whole.
int error_of_every_split(const std::string& s) {
  int whole = error_of(s);
  int bad = 0;
  for (size_t i = 0; i <= s.size(); ++i)
    if (drive({s.substr(0, i), s.substr(i)}).error != whole && bad++ == 0)
      UNSCOPED_INFO("first split deciding otherwise at " << i);
  CHECK(bad == 0);
  return whole;
}

TEST_CASE(
    "a request line not method SP target SP HTTP/d.d is 400 and a well-formed one with an "
    "unknown method 501 however the bytes arrive",
    "[http]") {
  // Once a bug: the parser refuses an unknown method at its first byte it
  // cannot match, so "GARBAGE" was a 501 (RFC 9112 3 makes it a 400).
  CHECK(error_of_every_split("GARBAGE\r\n\r\n") == 400);
  CHECK(error_of_every_split("GARBAGE\n\n") == 400);
  CHECK(error_of_every_split("FOO / HTTP/1.1\r\n\r\n") == 501);
  CHECK(error_of_every_split("FOO / HTTP/1.1\r\nHost: x\r\n\r\n") == 501);
  CHECK(error_of_every_split("\r\nFOO / HTTP/2.0\n\n") == 501);
  CHECK(error_of_every_split("GET  / HTTP/1.1\r\nHost: x\r\n\r\n") == 400);
  CHECK(error_of_every_split("FOO  / HTTP/1.1\r\nHost: x\r\n\r\n") == 400);
  // Not the shape, with a known method or an unknown one.
  for (std::string line :
       {"FOO", "FOO /", "FOO / ", "FOO / HTTP/1.1 x", "FOO / HTTQ/1.1", "FOO / HTTP/1.10",
        "F@O / HTTP/1.1", "GET /", "GET / HXXP/1.1", "GET / HTTP/1.10", "xyz abc def ghi"})
    CHECK(error_of_every_split(line + "\r\nHost: x\r\n\r\n") == 400);
  // Once a bug (the fuzzer's): a verdict on a header line after a request
  // line the parser refused won when the bytes came whole, the line's
  // shape when they came in pieces. The line decides: it comes first.
  std::string big = "X: " + std::string(9000, 'a') + "\r\n\r\n";  // over 8 KiB: 431
  CHECK(error_of_every_split("FOO / HTTP/1.1\r\n" + big) == 501);
  CHECK(error_of_every_split("GARBAGE\r\n" + big) == 400);
  CHECK(error_of_every_split("FOO / HTTP/1.1\r\nbad\rX\r\n\r\n") == 501);
  // After a well-formed line the parser takes, a header's own verdict stands.
  CHECK(error_of_every_split("GET / HTTP/1.1\r\n" + big) == 431);
  CHECK(error_of_every_split("GET / HTTP/1.1\r\nHost: x\r\nbad\rX\r\n\r\n") == 400);
  CHECK(error_of_every_split("GET / HTTP/1.1\r\nHost: x\r\nX Y: 1\r\n\r\n") == 400);
  // A line that never ends is bounded as ever: the URI's limit, or the head's.
  CHECK(error_of("FOO /" + std::string(20000, 'a')) == 414);
  CHECK(error_of("GARBAGE" + std::string(20000, 'a')) == 400);
  CHECK(drive({"FOO /" + std::string(5000, 'a'), std::string(5000, 'a')}).error == 414);
}

TEST_CASE("a version other than 1.x is 505", "[http]") {
  CHECK(error_of("GET / HTTP/2.0\r\nHost: x\r\n\r\n") == 505);
  CHECK(error_of("GET / HTTP/3.0\r\nHost: x\r\n\r\n") == 505);
}

TEST_CASE("malformed requests are 400", "[http]") {
  // The request line.
  CHECK(error_of("GET / HTTP/1.1 extra\r\nHost: x\r\n\r\n") == 400);
  CHECK(error_of("GET / FTP/1.1\r\nHost: x\r\n\r\n") == 400);
  CHECK(error_of("GET / HTTP/x.1\r\nHost: x\r\n\r\n") == 400);
  CHECK(error_of("GET HTTP/1.1\r\nHost: x\r\n\r\n") == 400);
  // A header.
  CHECK(error_of("GET / HTTP/1.1\r\nX\x01Y: 1\r\n\r\n") == 400);
  CHECK(error_of("GET / HTTP/1.1\r\nX(Y): 1\r\n\r\n") == 400);
  CHECK(error_of("GET / HTTP/1.1\r\nNoColon\r\n\r\n") == 400);
  CHECK(error_of("GET / HTTP/1.1\r\n: novalue\r\n\r\n") == 400);
  // Bodies.
  std::string chunked = "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n";
  CHECK(error_of(chunked + "zz\r\nabc\r\n0\r\n\r\n") == 400);
  CHECK(error_of(chunked + "3\r\nabcX\r\n0\r\n\r\n") == 400);
  CHECK(error_of(chunked + "fffffffffffffffffff\r\n") == 400);
  CHECK(error_of("POST / HTTP/1.1\r\nContent-Length: abc\r\n\r\n") == 400);
  // Request smuggling (RFC 9112 6.1, 6.3).
  CHECK(error_of("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n"
                 "Transfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n") == 400);
  CHECK(error_of("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
                 "Content-Length: 3\r\n\r\n3\r\nabc\r\n0\r\n\r\n") == 400);
  CHECK(error_of(
            "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd") ==
        400);
  // A transfer coding other than chunked last in a request (RFC 9112 6.3).
  CHECK(error_of("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\nabc") == 400);
}

TEST_CASE("chunked framing is strict: CRLF after data, size lines, trailers (RFC 9112 7.1)",
          "[http]") {
  // Once a bug: Debian's non-strict libhttp-parser takes any two bytes
  // after a chunk's data for its CRLF, so "abcXX" was the chunk "abc"
  // where a strict proxy in front sees another body (request smuggling).
  std::string chunked = "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n";
  CHECK(error_of(chunked + "3\r\nabcXX0\r\n\r\n") == 400);
  CHECK(error_of(chunked + "3\r\nabc\rX0\r\n\r\n") == 400);
  CHECK(error_of(chunked + "3\r\nabc\n0\r\n\r\n") == 400);
  CHECK(error_of(chunked + "3\rXabc\r\n0\r\n\r\n") == 400);         // size line: CR then not LF
  CHECK(error_of(chunked + "3;a\nb\r\nabc\r\n0\r\n\r\n") == 400);   // LF in an extension
  CHECK(error_of(chunked + "3\r\nabc\r\n0\r\nX: y\n\r\n") == 400);  // a trailer line
  CHECK(error_of(chunked + "3\r\nabc\r\n0\r\n\rX") == 400);         // the body's end
  // Well-formed, with an extension and a trailer, and a request after it.
  Outcome ok =
      drive_whole(chunked + "3;e=1\r\nabc\r\n0\r\nX: y\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n");
  CHECK(ok.error == 0);
  REQUIRE(ok.requests.size() == 2);
  CHECK(ok.requests[0].find("body=[abc]") != std::string::npos);
}

TEST_CASE("Host: one in HTTP/1.1, at most one in HTTP/1.0, a valid value (RFC 9112 3.2)",
          "[http]") {
  CHECK(error_of("GET / HTTP/1.1\r\n\r\n") == 400);
  CHECK(error_of("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n") == 400);
  CHECK(error_of("GET / HTTP/1.1\r\nHost: a\r\nHost: a\r\n\r\n") == 400);
  CHECK(error_of("GET / HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n") == 400);
  CHECK(error_of("GET / HTTP/1.1\r\nHost: a b\r\n\r\n") == 400);
  CHECK(error_of("GET / HTTP/1.1\r\nHost: a/b\r\n\r\n") == 400);
  CHECK(error_of("GET / HTTP/1.1\r\nHost: a@b\r\n\r\n") == 400);
  for (std::string ok :
       {"GET / HTTP/1.0\r\n\r\n", "GET / HTTP/1.1\r\nHost:\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: news.example.com:8080\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: [::1]:80\r\n\r\n", "GET / HTTP/1.1\r\nhOsT: 127.0.0.1\r\n\r\n"}) {
    INFO(ok);
    Outcome o = drive_whole(ok);
    CHECK(o.error == 0);
    CHECK(o.requests.size() == 1);
  }
}

TEST_CASE("transfer codings: chunked last and once, no other (RFC 9112 6.1, 6.3)", "[http]") {
  std::string head = "POST / HTTP/1.1\r\nHost: x\r\n";
  std::string body = "\r\n\r\n3\r\nabc\r\n0\r\n\r\n";
  // Once a bug: "gzip, chunked" was dechunked and handed on still gzipped.
  CHECK(error_of(head + "Transfer-Encoding: gzip, chunked" + body) == 501);
  CHECK(error_of(head + "Transfer-Encoding: gzip\r\nTransfer-Encoding: chunked" + body) == 501);
  CHECK(error_of(head + "Transfer-Encoding: chunked, gzip" + body) == 400);
  CHECK(error_of(head + "Transfer-Encoding: chunked, chunked" + body) == 400);
  CHECK(error_of(head + "Transfer-Encoding: identity" + body) == 400);
  CHECK(error_of("POST / HTTP/1.0\r\nTransfer-Encoding: chunked" + body) == 400);
  // Both framings, and two lengths, even equal ones (6.1, 6.3).
  CHECK(error_of(head + "Transfer-Encoding: chunked\r\nContent-Length: 3" + body) == 400);
  CHECK(error_of(head + "Content-Length: 3\r\nContent-Length: 3\r\n\r\nabc") == 400);
  Outcome ok = drive_whole(head + "Transfer-Encoding: Chunked" + body);
  CHECK(ok.error == 0);
  REQUIRE(ok.requests.size() == 1);
  CHECK(ok.requests[0].find("body=[abc]") != std::string::npos);
}

TEST_CASE("the request line is method SP target SP version (RFC 9112 3)", "[http]") {
  // Once a bug: the non-strict parser took runs of spaces, and a tab or
  // form feed in the target, where a strict proxy in front refuses them
  // or splits the line elsewhere.
  CHECK(error_of("GET  /news  HTTP/1.1\r\nHost: x\r\n\r\n") == 400);
  CHECK(error_of("GET  /news HTTP/1.1\r\nHost: x\r\n\r\n") == 400);
  CHECK(error_of("GET /news  HTTP/1.1\r\nHost: x\r\n\r\n") == 400);
  CHECK(error_of("GET /news HTTP/1.1 \r\nHost: x\r\n\r\n") == 400);
  CHECK(error_of(" GET /news HTTP/1.1\r\nHost: x\r\n\r\n") == 400);
  CHECK(error_of("\r\n\tGET /news HTTP/1.1\r\nHost: x\r\n\r\n") == 400);
  for (char c : {'\f', '\t', '\v', '\x01', '\x7f', '\x80', '\xff'}) {
    INFO(int(uint8_t(c)));
    CHECK(error_of(std::string("GET /ne") + c + "ws HTTP/1.1\r\nHost: x\r\n\r\n") == 400);
  }
  // A CR is followed by LF, in the request line and in the headers (2.2).
  CHECK(error_of("GET / HTTP/1.1\rHost: x\r\n\r\n") == 400);
  CHECK(error_of("GET / HTTP/1.1\r\nHost: x\r\nX: a\rb\r\n\r\n") == 400);
  CHECK(error_of("GET / HTTP/1.1\r\nHost: x\r\n\rX") == 400);
  CHECK(error_of("\rGET / HTTP/1.1\r\nHost: x\r\n\r\n") == 400);
  // A bare LF may end a line (2.2).
  Outcome lf = drive_whole("GET /news HTTP/1.1\nHost: x\n\n");
  CHECK(lf.error == 0);
  CHECK(lf.requests.size() == 1);
}

TEST_CASE("a header name with whitespace in it is 400 (RFC 9112 5.1)", "[http]") {
  // Once a bug: Debian's libhttp-parser is built non-strict, where a space
  // may be part of a field name, so "Bad Header: x" was a header named
  // "bad header" and "Host : x" one named "host ". RFC 9112 5.1: a server
  // MUST reject whitespace between a field name and the colon with 400.
  CHECK(error_of("GET / HTTP/1.1\r\nBad Header: x\r\n\r\n") == 400);
  CHECK(error_of("GET / HTTP/1.1\r\nHost : x\r\n\r\n") == 400);
  CHECK(error_of("POST / HTTP/1.1\r\nContent-Length : 3\r\n\r\nabc") == 400);
}

TEST_CASE("an error stops the parser", "[http]") {
  RequestParser p;
  std::string s = "GET / HTTP/1.1\r\nX(Y): 1\r\n\r\nGET / HTTP/1.1\r\n\r\n";
  p.feed(s.data(), s.size());
  REQUIRE(p.state() == State::Error);
  CHECK(p.error_status() == 400);
  CHECK_FALSE(p.error_message().empty());
  CHECK(p.feed(s.data(), s.size()) == 0);
  CHECK(p.state() == State::Error);
  // next() makes it ready again.
  p.next();
  CHECK(p.state() == State::Idle);
  CHECK(p.error_status() == 0);
  CHECK(p.error_message().empty());
}

TEST_CASE("eof in the middle of a request is 400", "[http]") {
  for (std::string s : {"G", "GET / HTTP/1.1\r\nHost:", "GET / HTTP/1.1\r\nHost: x\r\n",
                        "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc"}) {
    INFO(s);
    RequestParser p;
    size_t used = p.feed(s.data(), s.size());
    if (p.state() == State::Body) p.feed(s.data() + used, s.size() - used);
    CHECK(p.started());
    p.eof();
    CHECK(p.state() == State::Error);
    CHECK(p.error_status() == 400);
  }
  // The head read, the body not yet.
  RequestParser p;
  std::string s = "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n";
  p.feed(s.data(), s.size());
  REQUIRE(p.state() == State::Body);
  p.eof();
  CHECK(p.state() == State::Error);
  CHECK(p.error_status() == 400);
}

TEST_CASE("eof with nothing received is not an error", "[http]") {
  RequestParser p;
  CHECK_FALSE(p.started());
  p.eof();
  CHECK(p.state() == State::Idle);
  CHECK_FALSE(p.started());
  CHECK(p.error_status() == 0);
  // Nor between requests.
  Outcome o = drive_whole("GET / HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\n\r\n");
  CHECK(o.error == 0);
  CHECK(o.requests.size() == 2);
}

// ====================== what a request carries ======================

namespace {

std::string decoded(std::string_view s) {
  std::string out = "unset";
  REQUIRE(vm::http::url_decode(s, out));
  return out;
}

bool decodes(std::string_view s) {
  std::string out;
  return vm::http::url_decode(s, out);
}

Pairs args(std::string_view s) {
  Pairs out;
  REQUIRE(vm::http::parse_args(s, out));
  return out;
}

using Cookies = std::vector<std::vector<std::string>>;

}  // namespace

TEST_CASE("url_decode: Arc 3.1's urldecode", "[http]") {
  CHECK(decoded("") == "");
  CHECK(decoded("plain") == "plain");
  CHECK(decoded("a+b+c") == "a b c");
  CHECK(decoded("%41%42c") == "ABc");
  CHECK(decoded("%2B%25%26%3D") == "+%&=");
  CHECK(decoded("%2b") == "+");
  // Escaped bytes are reassembled as UTF-8.
  CHECK(decoded("caf%C3%A9") == "caf\xC3\xA9");
  CHECK(decoded("%e2%82%ac%F0%9F%98%80") == "\xE2\x82\xAC\xF0\x9F\x98\x80");
  // Literal UTF-8 is kept.
  CHECK(decoded("\xC3\xA9t\xC3\xA9") == "\xC3\xA9t\xC3\xA9");
  // Invalid UTF-8 becomes U+FFFD.
  CHECK(decoded("a%FFb") ==
        "a\xEF\xBF\xBD"
        "b");
  CHECK(decoded("%C3") == "\xEF\xBF\xBD");
  // A % with fewer than two characters after it is dropped (Arc 3.1 skips
  // it and what follows: (++ i 2)).
  CHECK(decoded("abc%") == "abc");
  CHECK(decoded("abc%4") == "abc");
  CHECK(decoded("%") == "");
  // A % followed by non-hex: an error (Arc's (int "zz" 16) fails).
  CHECK_FALSE(decodes("%zz"));
  CHECK_FALSE(decodes("a%4zb"));
  CHECK_FALSE(decodes("%z1"));
  CHECK_FALSE(decodes("ok%%41"));
}

TEST_CASE("parse_args: Arc 3.1's parseargs", "[http]") {
  CHECK(args("") == Pairs{});
  CHECK(args("a=1&b=2") == Pairs{{"a", "1"}, {"b", "2"}});
  // Each argument is its first two pieces.
  CHECK(args("a=b=c") == Pairs{{"a", "b"}});
  // No value: "".
  CHECK(args("k") == Pairs{{"k", ""}});
  CHECK(args("k=") == Pairs{{"k", ""}});
  CHECK(args("k=&j") == Pairs{{"k", ""}, {"j", ""}});
  // Empty pieces are dropped.
  CHECK(args("&&a=1&&b==2&") == Pairs{{"a", "1"}, {"b", "2"}});
  CHECK(args("=v") == Pairs{{"v", ""}});
  CHECK(args("&=&") == Pairs{});
  // Values are decoded, names are not.
  CHECK(args("q=a+b%21&na%20me=x") == Pairs{{"q", "a b!"}, {"na%20me", "x"}});
  CHECK(args("a+b=c+d") == Pairs{{"a+b", "c d"}});
  CHECK(args("bad%zz=ok") == Pairs{{"bad%zz", "ok"}});
  CHECK(args("e=%C3%A9") == Pairs{{"e", "\xC3\xA9"}});
  // Repeated names are all kept, in order.
  CHECK(args("x=1&x=2") == Pairs{{"x", "1"}, {"x", "2"}});
  // An invalid escape in a value: an error.
  Pairs out;
  CHECK_FALSE(vm::http::parse_args("a=1&b=%zz", out));
}

TEST_CASE("parse_cookies: Arc 3.1's parsecookies", "[http]") {
  using vm::http::parse_cookies;
  CHECK(parse_cookies("") == Cookies{});
  CHECK(parse_cookies("user=abc") == Cookies{{"user", "abc"}});
  CHECK(parse_cookies("user=abc; theme=dark") == Cookies{{"user", "abc"}, {"theme", "dark"}});
  CHECK(parse_cookies("a=1;b=2") == Cookies{{"a", "1"}, {"b", "2"}});
  CHECK(parse_cookies("  a=1 ;; b=2\t") == Cookies{{"a", "1"}, {"b", "2"}});
  // Split at whitespace too: a value with a space is two cookies.
  CHECK(parse_cookies("a=x y") == Cookies{{"a", "x"}, {"y"}});
  // Each cookie is all its pieces.
  CHECK(parse_cookies("a=b=c") == Cookies{{"a", "b", "c"}});
  CHECK(parse_cookies("a==b") == Cookies{{"a", "b"}});
  CHECK(parse_cookies("flag") == Cookies{{"flag"}});
  CHECK(parse_cookies("=;=") == Cookies{});
  // Nothing decoded.
  CHECK(parse_cookies("x=a%20b+c") == Cookies{{"x", "a%20b+c"}});
}

TEST_CASE("split_target", "[http]") {
  using vm::http::split_target;
  std::string path, query;
  auto split = [&](std::string_view t) {
    path = query = "unset";
    return split_target(t, path, query);
  };
  REQUIRE(split("/"));
  CHECK(path == "");
  CHECK(query == "");
  REQUIRE(split("/news"));
  CHECK(path == "news");
  CHECK(query == "");
  REQUIRE(split("/item?id=12&x=a+b%20"));
  CHECK(path == "item");
  CHECK(query == "id=12&x=a+b%20");  // as sent
  REQUIRE(split("/a/b/c?"));
  CHECK(path == "a/b/c");
  CHECK(query == "");
  // A fragment is not part of the path or the query.
  REQUIRE(split("/page#top"));
  CHECK(path == "page");
  CHECK(query == "");
  REQUIRE(split("/page?x=1#top?y"));
  CHECK(path == "page");
  CHECK(query == "x=1");
  // The absolute form.
  REQUIRE(split("http://example.com/news?p=2"));
  CHECK(path == "news");
  CHECK(query == "p=2");
  REQUIRE(split("HTTPS://Example.com:8080/a/b"));
  CHECK(path == "a/b");
  CHECK(query == "");
  REQUIRE(split("http://example.com"));
  CHECK(path == "");
  // Escapes in the path are decoded, + is itself.
  REQUIRE(split("/a%2Fb"));
  CHECK(path == "a/b");
  REQUIRE(split("/a+b"));
  CHECK(path == "a+b");
  REQUIRE(split("/caf%C3%A9/%7e"));
  CHECK(path == "caf\xC3\xA9/~");
  // Not a path.
  CHECK_FALSE(split("*"));
  CHECK_FALSE(split(""));
  CHECK_FALSE(split("news"));
  CHECK_FALSE(split("ftp://example.com/x"));
  // Invalid escapes in the path.
  CHECK_FALSE(split("/a%zz"));
  CHECK_FALSE(split("/a%2"));
  CHECK_FALSE(split("/a%"));
  CHECK_FALSE(split("/%g0?x=1"));
}

TEST_CASE("multipart_boundary", "[http]") {
  using vm::http::multipart_boundary;
  CHECK(multipart_boundary("multipart/form-data; boundary=XyZ") == "XyZ");
  CHECK(multipart_boundary("multipart/form-data;boundary=XyZ") == "XyZ");
  CHECK(multipart_boundary("Multipart/Form-Data; charset=utf-8; BOUNDARY=abc") == "abc");
  // A quoted boundary may hold characters a token cannot (RFC 2046 5.1.1).
  CHECK(multipart_boundary("multipart/form-data; boundary=\"a b;c=d\"") == "a b;c=d");
  CHECK(multipart_boundary("multipart/form-data; boundary=\"q\"; charset=x") == "q");
  CHECK(multipart_boundary("multipart/form-data") == "");
  CHECK(multipart_boundary("multipart/form-data; boundary=") == "");
  CHECK(multipart_boundary("multipart/mixed; boundary=XyZ") == "");
  CHECK(multipart_boundary("application/x-www-form-urlencoded") == "");
  CHECK(multipart_boundary("") == "");
}

TEST_CASE("parse_multipart: a text field and a file", "[http]") {
  std::string file_bytes("\x00\x01\xFF\xFE\r\n\x80--Xy\r\n-", 13);
  std::string body =
      "preamble to ignore\r\n"
      "--XyZ\r\n"
      "Content-Disposition: form-data; name=\"title\"\r\n"
      "\r\n"
      "Hello, world\r\n"
      "--XyZ\r\n"
      "Content-Disposition: form-data; name=\"upload\"; filename=\"a b.bin\"\r\n"
      "Content-Type: application/octet-stream\r\n"
      "\r\n" +
      file_bytes +
      "\r\n"
      "--XyZ\r\n"
      "content-disposition: form-data; name=\"empty\"\r\n"
      "\r\n"
      "\r\n"
      "--XyZ--\r\n"
      "epilogue";
  std::vector<Part> parts;
  REQUIRE(vm::http::parse_multipart(body, "XyZ", parts));
  REQUIRE(parts.size() == 3);
  CHECK(parts[0].name == "title");
  CHECK(parts[0].data == "Hello, world");
  CHECK_FALSE(parts[0].is_file);
  CHECK(parts[0].filename == "");
  CHECK(parts[1].name == "upload");
  CHECK(parts[1].is_file);
  CHECK(parts[1].filename == "a b.bin");
  CHECK(parts[1].content_type == "application/octet-stream");
  CHECK(parts[1].data.size() == file_bytes.size());
  CHECK(parts[1].data == file_bytes);
  CHECK(parts[2].name == "empty");
  CHECK(parts[2].data == "");
  CHECK_FALSE(parts[2].is_file);
}

TEST_CASE("parse_multipart with a quoted boundary", "[http]") {
  std::string ct = "multipart/form-data; boundary=\"----Web Kit:7MA4\"";
  std::string b = vm::http::multipart_boundary(ct);
  REQUIRE(b == "----Web Kit:7MA4");
  std::string body =
      "------Web Kit:7MA4\r\nContent-Disposition: form-data; name=\"q\"\r\n\r\nv\r\n"
      "------Web Kit:7MA4--";
  std::vector<Part> parts;
  REQUIRE(vm::http::parse_multipart(body, b, parts));
  REQUIRE(parts.size() == 1);
  CHECK(parts[0].name == "q");
  CHECK(parts[0].data == "v");
}

TEST_CASE("parse_multipart rejects malformed bodies", "[http]") {
  std::string part = "Content-Disposition: form-data; name=\"a\"\r\n\r\nx\r\n";
  auto bad = [](const std::string& body) {
    std::vector<Part> parts;
    return !vm::http::parse_multipart(body, "B", parts);
  };
  CHECK(bad(""));
  CHECK(bad("no delimiter at all"));
  CHECK(bad("--B"));                     // no part and no close
  CHECK(bad("--B\r\n" + part));          // no closing delimiter
  CHECK(bad("--B\r\n" + part + "--B"));  // cut after a delimiter
  CHECK(bad("--B\r\nContent-Disposition: form-data; name=\"a\"\r\nx\r\n--B--"));  // no blank line
  CHECK(bad("--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx"));       // data never ends
  CHECK(bad("--Bjunk\r\n" + part + "--B--"));  // junk after the delimiter
  CHECK(bad("--B\r\n" + part + "--Bjunk"));
  // And the well-formed one it was cut from.
  std::vector<Part> parts;
  CHECK(vm::http::parse_multipart("--B\r\n" + part + "--B--", "B", parts));
  CHECK(parts.size() == 1);
}

// ============================== responses ==============================

TEST_CASE("reason and http_date", "[http]") {
  CHECK(std::string(vm::http::reason(200)) == "OK");
  CHECK(std::string(vm::http::reason(404)) == "Not Found");
  CHECK(std::string(vm::http::reason(413)) == "Payload Too Large");
  CHECK(std::string(vm::http::reason(505)) == "HTTP Version Not Supported");
  CHECK(std::string(vm::http::reason(799)) == "Unknown");
  // RFC 9110 5.6.7's example.
  CHECK(vm::http::http_date(784111777) == "Sun, 06 Nov 1994 08:49:37 GMT");
  CHECK(vm::http::http_date(0) == "Thu, 01 Jan 1970 00:00:00 GMT");
  CHECK(vm::http::http_date(951782400) == "Tue, 29 Feb 2000 00:00:00 GMT");
}

TEST_CASE("Arc 3.1's header* kept alive has no Connection: close", "[http]") {
  std::string body = "<html>hi</html>";
  std::string w = kArcHeader + "\n\n" + body;
  ResponseInfo info;
  std::string head = complete(w, false, true, info);
  CHECK(head ==
        "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nDate: D\r\n"
        "Content-Length: 15\r\n\r\n");
  CHECK(info.status == 200);
  CHECK(info.body_offset == w.size() - body.size());
  CHECK(info.body_size == body.size());
  CHECK(w.substr(info.body_offset, info.body_size) == body);
  // Closing: the server's Connection: close, once.
  head = complete(w, false, false, info);
  CHECK(head ==
        "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nDate: D\r\n"
        "Content-Length: 15\r\nConnection: close\r\n\r\n");
}

TEST_CASE("Arc 3.1's rdheader* becomes HTTP/1.1 302 Moved", "[http]") {
  std::string w = kArcRdHeader + "\nLocation: /news?id=3\n\n";
  ResponseInfo info;
  std::string head = complete(w, false, true, info);
  CHECK(head ==
        "HTTP/1.1 302 Moved\r\nLocation: /news?id=3\r\nDate: D\r\nContent-Length: 0\r\n\r\n");
  CHECK(info.status == 302);
  CHECK(info.body_offset == w.size());
  CHECK(info.body_size == 0);
}

TEST_CASE("the handler's Content-Length, Date, Connection, Transfer-Encoding are replaced",
          "[http]") {
  std::string w =
      "HTTP/1.1 200 OK\n"
      "Content-Length: 999\n"
      "X-Before: 1\n"
      "Date: Mon, 01 Jan 2001 00:00:00 GMT\n"
      "connection: keep-alive\n"
      "TRANSFER-ENCODING: chunked\n"
      "Keep-Alive: timeout=5\n"
      "Content-Type: text/plain\n"
      "\n"
      "hello";
  ResponseInfo info;
  std::string head = complete(w, false, false, info);
  CHECK(head ==
        "HTTP/1.1 200 OK\r\nX-Before: 1\r\nContent-Type: text/plain\r\nDate: D\r\n"
        "Content-Length: 5\r\nConnection: close\r\n\r\n");
  CHECK(info.body_size == 5);
  CHECK(w.substr(info.body_offset) == "hello");
}

TEST_CASE("complete_response: \\r\\n line ends", "[http]") {
  std::string w = "HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\nX-A: b\r\n\r\nnope\r\n";
  ResponseInfo info;
  std::string head = complete(w, false, true, info);
  CHECK(head ==
        "HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\nX-A: b\r\nDate: D\r\n"
        "Content-Length: 6\r\n\r\n");
  CHECK(info.status == 404);
  CHECK(info.body_offset == w.find("nope"));
  CHECK(info.body_size == 6);
}

TEST_CASE("complete_response: output not starting with HTTP/ is all body", "[http]") {
  std::string w = "<p>Hello</p>\n\nHTTP/1.1 500 X\n";
  ResponseInfo info;
  std::string head = complete(w, false, true, info);
  CHECK(head ==
        "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nDate: D\r\n"
        "Content-Length: " +
            std::to_string(w.size()) + "\r\n\r\n");
  CHECK(info.status == 200);
  CHECK(info.body_offset == 0);
  CHECK(info.body_size == w.size());
  // Nothing at all: an empty page.
  head = complete("", false, false, info);
  CHECK(head ==
        "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nDate: D\r\n"
        "Content-Length: 0\r\nConnection: close\r\n\r\n");
  CHECK(info.body_offset == 0);
  CHECK(info.body_size == 0);
  // Almost HTTP/.
  head = complete("HTTP", false, true, info);
  CHECK(info.status == 200);
  CHECK(info.body_offset == 0);
  CHECK(info.body_size == 4);
}

TEST_CASE("complete_response: a head without a blank line has an empty body", "[http]") {
  ResponseInfo info;
  std::string w = "HTTP/1.1 200 OK\nContent-Type: text/plain";
  std::string head = complete(w, false, true, info);
  CHECK(head ==
        "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nDate: D\r\nContent-Length: 0\r\n\r\n");
  CHECK(info.body_size == 0);
  CHECK(info.body_offset <= w.size());
  w = "HTTP/1.1 201 Created\r\nLocation: /x\r\n";
  head = complete(w, false, true, info);
  CHECK(head == "HTTP/1.1 201 Created\r\nLocation: /x\r\nDate: D\r\nContent-Length: 0\r\n\r\n");
  CHECK(info.status == 201);
  CHECK(info.body_size == 0);
  w = "HTTP/1.1 200 OK";
  head = complete(w, false, true, info);
  CHECK(head == "HTTP/1.1 200 OK\r\nDate: D\r\nContent-Length: 0\r\n\r\n");
  CHECK(info.body_size == 0);
}

TEST_CASE("complete_response: 204 and 304 have no Content-Length and no body", "[http]") {
  ResponseInfo info;
  std::string head = complete("HTTP/1.1 204 No Content\n\n", false, true, info);
  CHECK(head == "HTTP/1.1 204 No Content\r\nDate: D\r\n\r\n");
  CHECK(info.status == 204);
  CHECK(info.body_size == 0);
  // Even if the handler wrote one.
  head = complete("HTTP/1.1 304 Not Modified\nETag: \"x\"\n\nstray", false, false, info);
  CHECK(head == "HTTP/1.1 304 Not Modified\r\nETag: \"x\"\r\nDate: D\r\nConnection: close\r\n\r\n");
  CHECK(info.status == 304);
  CHECK(info.body_size == 0);
}

TEST_CASE("complete_response: Connection for HTTP/1.0 and 1.1", "[http]") {
  std::string w = "HTTP/1.1 200 OK\nContent-Type: text/plain\n\nok";
  const std::string base =
      "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nDate: D\r\nContent-Length: 2\r\n";
  ResponseInfo info;
  CHECK(complete(w, true, true, info) == base + "Connection: keep-alive\r\n\r\n");
  CHECK(complete(w, true, false, info) == base + "Connection: close\r\n\r\n");
  CHECK(complete(w, false, true, info) == base + "\r\n");
  CHECK(complete(w, false, false, info) == base + "Connection: close\r\n\r\n");
}

TEST_CASE("complete_response: UTF-8 bodies are counted in bytes", "[http]") {
  std::string body = "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80";  // 4 characters' worth
  ResponseInfo info;
  std::string head = complete(kArcHeader + "\n\n" + body, false, true, info);
  CHECK(body.size() == 14);
  CHECK(info.body_size == 14);
  CHECK(head.find("\r\nContent-Length: 14\r\n") != std::string::npos);
  head = complete(body, false, true, info);
  CHECK(info.body_size == 14);
  CHECK(head.find("\r\nContent-Length: 14\r\n") != std::string::npos);
}

TEST_CASE("complete_response: the status code and reason", "[http]") {
  ResponseInfo info;
  std::string head = complete("HTTP/1.0 500 Internal Oops\n\nx", false, true, info);
  CHECK(info.status == 500);
  CHECK(head.rfind("HTTP/1.1 500 Internal Oops\r\n", 0) == 0);
  // With no reason, the standard one.
  head = complete("HTTP/1.1 404\n\n", false, true, info);
  CHECK(info.status == 404);
  CHECK(head.rfind("HTTP/1.1 404 Not Found\r\n", 0) == 0);
}

TEST_CASE("simple_response", "[http]") {
  std::string r = vm::http::simple_response(404, "Not Found\n", false);
  CHECK(without_date(r) ==
        "HTTP/1.1 404 Not Found\r\nContent-Type: text/plain; charset=utf-8\r\nDate: D\r\n"
        "Content-Length: 10\r\nConnection: close\r\n\r\nNot Found\n");
  r = vm::http::simple_response(400, "Bad", true);
  CHECK(without_date(r) ==
        "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nDate: D\r\n"
        "Content-Length: 3\r\n\r\nBad");
}

TEST_CASE("simple_response puts the extra header lines after the others", "[http]") {
  // Once a bug: they came right after Content-Type.
  std::string r =
      vm::http::simple_response(405, "Method Not Allowed\n", false, "Allow: GET, HEAD, POST\r\n");
  CHECK(without_date(r) ==
        "HTTP/1.1 405 Method Not Allowed\r\nContent-Type: text/plain; charset=utf-8\r\n"
        "Date: D\r\nContent-Length: 19\r\nConnection: close\r\nAllow: GET, HEAD, POST\r\n\r\n"
        "Method Not Allowed\n");
}

// ============================ into Arc ============================

namespace {

// The request table made from raw, in its written form field by field.
struct ArcRequest {
  vm::Value t = vm::NIL;
  int status = 0;
  std::string message;
  std::string get(const char* key) {
    vm::VM& vm = support::runtime().vm();
    return vm::write_string(vm, vm::table_get(t, vm::intern(vm, key)));
  }
};

ArcRequest to_arc(const std::string& raw) {
  support::runtime();
  Outcome o;
  RequestParser p;
  size_t used = p.feed(raw.data(), raw.size());
  REQUIRE(p.state() == State::Body);
  p.feed(raw.data() + used, raw.size() - used);
  REQUIRE(p.state() == State::Done);
  ArcRequest a;
  a.t = vm::http::request_to_arc(support::runtime().vm(), p.request(), "10.0.0.1", 1234, a.status,
                                 a.message);
  return a;
}

}  // namespace

TEST_CASE("request_to_arc: a form POST", "[http]") {
  ArcRequest a = to_arc(
      "POST /login?next=news HTTP/1.1\r\nHost: x\r\nCookie: user=ann; theme=dark\r\n"
      "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 12\r\n\r\nu=ann&pw=a+b");
  REQUIRE(a.status == 0);
  CHECK(a.get("type") == "post");
  CHECK(a.get("op") == "login");
  CHECK(a.get("path") == "\"login\"");
  CHECK(a.get("query") == "\"next=news\"");
  // The form's arguments, then the query's.
  CHECK(a.get("args") == "((\"u\" \"ann\") (\"pw\" \"a b\") (\"next\" \"news\"))");
  CHECK(a.get("cooks") == "((\"user\" \"ann\") (\"theme\" \"dark\"))");
  CHECK(a.get("ip") == "\"10.0.0.1\"");
  CHECK(a.get("start") == "1234");
  CHECK(a.get("version") == "\"1.1\"");
  CHECK(a.get("body") == "nil");
  CHECK(a.get("files") == "nil");
}

TEST_CASE("request_to_arc: a multipart upload and bad requests", "[http]") {
  std::string body =
      "--B\r\nContent-Disposition: form-data; name=\"t\"\r\n\r\nhi\r\n"
      "--B\r\nContent-Disposition: form-data; name=\"f\"; filename=\"x.txt\"\r\n"
      "Content-Type: text/plain\r\n\r\nabc\r\n--B--\r\n";
  ArcRequest a = to_arc(
      "POST /up HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=B\r\n"
      "Content-Length: " +
      std::to_string(body.size()) + "\r\n\r\n" + body);
  REQUIRE(a.status == 0);
  CHECK(a.get("args") == "((\"t\" \"hi\") (\"f\" \"abc\"))");
  CHECK(a.get("files") == "((\"f\" \"x.txt\" \"text/plain\" \"abc\"))");

  ArcRequest bad = to_arc("GET /x?a=%zz HTTP/1.1\r\nHost: x\r\n\r\n");
  CHECK(bad.status == 400);
  CHECK(bad.t == vm::NIL);
  CHECK_FALSE(bad.message.empty());
  ArcRequest bad_path = to_arc("GET /x%zz HTTP/1.1\r\nHost: x\r\n\r\n");
  CHECK(bad_path.status == 400);
  ArcRequest bad_multi = to_arc(
      "POST /up HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=B\r\n"
      "Content-Length: 5\r\n\r\n--B\r\n");
  CHECK(bad_multi.status == 400);
}

TEST_CASE("a known method in a broken request line is 400, an unknown one 501", "[http]") {
  CHECK(error_of("GET\r\n\r\n") == 400);
  CHECK(error_of("POST\r\nHost: x\r\n\r\n") == 400);
  CHECK(error_of("HEAD\n\n") == 400);
  CHECK(error_of("get / HTTP/1.1\r\n\r\n") == 501);
  CHECK(error_of("BREW / HTTP/1.1\r\n\r\n") == 501);
}
