// io/http.cpp — see http.h.
#include "io/http.h"

#include <http_parser.h>

#include <algorithm>
#include <cstring>
#include <ctime>

#include "vm/string.h"

namespace vm::http {

namespace {

char lower(char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; }

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (lower(a[i]) != lower(b[i])) return false;
  return true;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  c = lower(c);
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

// Bytes as UTF-8, each invalid sequence one U+FFFD (as ports decode).
std::string valid_utf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) utf8_append(out, utf8_decode(s, i));
  return out;
}

// Splits s at any character in seps, dropping empty pieces (Arc's tokens).
std::vector<std::string_view> tokens(std::string_view s, std::string_view seps) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && seps.find(s[i]) != std::string_view::npos) ++i;
    size_t j = i;
    while (j < s.size() && seps.find(s[j]) == std::string_view::npos) ++j;
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

// A byte of a Host value: uri-host [":" port] (RFC 9112 3.2, RFC 3986
// 3.2.2), an IP literal's brackets and a reg-name's escapes included.
bool host_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         std::strchr("-._~%!$&'()*+,;=:[]", c) != nullptr;
}

// Why a request's Host headers are wrong, or null (RFC 9112 3.2): an
// HTTP/1.1 request has exactly one, an HTTP/1.0 request at most one.
const char* host_problem(const Request& q) {
  const std::string* host = nullptr;
  for (auto& [k, v] : q.headers) {
    if (k != "host") continue;
    if (host) return "more than one Host header";
    host = &v;
  }
  if (!host) return q.minor >= 1 ? "no Host header in an HTTP/1.1 request" : nullptr;
  for (char c : *host)
    if (c == '\0' || !host_char(c)) return "invalid Host header";
  return nullptr;
}

// The status for a request's transfer codings (all its Transfer-Encoding
// lines, in order), 0 if they are fine, with why. The server decodes
// chunked only, which must come last and once (RFC 9112 6.3, 7); any
// other coding is one it does not implement (6.1: 501). An HTTP/1.0
// request with Transfer-Encoding has faulty framing (6.1).
int transfer_coding_status(const Request& q, std::string& why) {
  std::vector<std::string_view> codings;
  bool present = false;
  for (auto& [k, v] : q.headers) {
    if (k != "transfer-encoding") continue;
    present = true;
    for (std::string_view c : tokens(v, ",")) {
      c = trim(c.substr(0, c.find(';')));
      if (!c.empty()) codings.push_back(c);
    }
  }
  if (!present) return 0;
  if (q.minor == 0) {
    why = "Transfer-Encoding in an HTTP/1.0 request";
    return 400;
  }
  if (codings.empty() || !iequals(codings.back(), "chunked")) {
    why = "chunked is not the last transfer coding";
    return 400;
  }
  for (size_t i = 0; i + 1 < codings.size(); ++i) {
    if (iequals(codings[i], "chunked")) {
      why = "chunked applied more than once";
      return 400;
    }
  }
  if (codings.size() > 1) {
    why = "transfer coding " + std::string(codings.front());
    return 501;
  }
  return 0;
}

// A byte of a token (RFC 9110 5.6.2), as a method is.
bool tchar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         (c != '\0' && std::strchr("!#$%&'*+-.^_`|~", c) != nullptr);
}

// Whether a request line (without its line end) is method SP
// request-target SP HTTP-version (RFC 9112 3): the method a token, single
// spaces, a target of visible ASCII, the version HTTP/d.d (2.3). The
// non-strict parser takes more (any letters for HTTP, a version of several
// digits, HTTP/0.9's line without a version), and refuses an unknown
// method before it has seen the rest of the line.
bool request_line_well_formed(std::string_view line) {
  size_t sp1 = line.find(' ');
  if (sp1 == 0 || sp1 == std::string_view::npos) return false;
  for (char c : line.substr(0, sp1))
    if (!tchar(c)) return false;
  size_t sp2 = line.find(' ', sp1 + 1);
  if (sp2 == sp1 + 1 || sp2 == std::string_view::npos) return false;
  for (char c : line.substr(sp1 + 1, sp2 - sp1 - 1))
    if (uint8_t(c) <= ' ' || uint8_t(c) >= 0x7f) return false;
  std::string_view v = line.substr(sp2 + 1);
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  return v.size() == 8 && v.substr(0, 5) == "HTTP/" && digit(v[5]) && v[6] == '.' && digit(v[7]);
}

// The methods the server answers; the other standard ones are 405.
bool served_method(unsigned m) { return m == HTTP_GET || m == HTTP_HEAD || m == HTTP_POST; }
bool standard_method(unsigned m) {
  return m == HTTP_PUT || m == HTTP_DELETE || m == HTTP_CONNECT || m == HTTP_OPTIONS ||
         m == HTTP_TRACE || m == HTTP_PATCH;
}

}  // namespace

const std::string* Request::header(std::string_view lname) const {
  for (auto& [k, v] : headers)
    if (k == lname) return &v;
  return nullptr;
}

void Request::clear() {
  method.clear();
  target.clear();
  headers.clear();
  if (body.capacity() > 64 * 1024) std::string().swap(body);
  body.clear();
  major = minor = 1;
  keep_alive = expect_continue = upgrade = false;
  content_length = 0;
}

// ---- the parser ----

struct RequestParser::Impl {
  http_parser p;
};

struct RequestParser::Callbacks {
  static RequestParser& self(http_parser* p) { return *static_cast<RequestParser*>(p->data); }

  // Adds the header received to the request.
  static void commit_header(RequestParser& r) {
    if (r.field_.empty() && r.value_.empty()) return;
    std::string name = r.field_;
    for (char& c : name) c = lower(c);
    r.req_.headers.emplace_back(std::move(name), std::string(trim(r.value_)));
    r.field_.clear();
    r.value_.clear();
    r.in_value_ = false;
  }

  // (The URI's limit is checked on the bytes, in feed: a callback comes
  // when a piece of data ends or the buffer does, so what it could see
  // would depend on how the bytes arrived.)
  static int on_url(http_parser* p, const char* at, size_t n) {
    self(p).req_.target.append(at, n);
    return 0;
  }

  // Header callbacks after the head are a chunked body's trailer fields:
  // dropped, so nothing can add a header (a Cookie) after the head was
  // read (RFC 9110 6.5.1).
  //
  // A name with whitespace in it is refused (RFC 9112 5.1: "Host : x" must
  // be, or two parties could read different headers), which Debian's
  // non-strict libhttp-parser lets through. Each piece is looked at as it
  // comes: a piece ends at the end of each feed at the latest.
  static int on_header_field(http_parser* p, const char* at, size_t n) {
    RequestParser& r = self(p);
    if (r.state_ != State::Head) return 0;
    if (r.in_value_) commit_header(r);
    if (std::memchr(at, ' ', n) || std::memchr(at, '\t', n)) {
      r.fail(400, "whitespace in a header name");
      return 1;
    }
    r.field_.append(at, n);
    return 0;
  }

  static int on_header_value(http_parser* p, const char* at, size_t n) {
    RequestParser& r = self(p);
    if (r.state_ != State::Head) return 0;
    r.in_value_ = true;
    r.value_.append(at, n);
    return 0;
  }

  static int on_headers_complete(http_parser* p) {
    RequestParser& r = self(p);
    commit_header(r);
    Request& q = r.req_;
    q.method = http_method_str(http_method(p->method));
    q.major = p->http_major;
    q.minor = p->http_minor;
    q.keep_alive = http_should_keep_alive(p) != 0;
    q.upgrade = p->upgrade != 0;
    q.content_length = (p->flags & F_CONTENTLENGTH) ? p->content_length : 0;
    if (const std::string* e = q.header("expect")) q.expect_continue = iequals(*e, "100-continue");
    if (q.major != 1) {
      r.fail(505, "HTTP version " + std::to_string(q.major) + "." + std::to_string(q.minor));
      return -1;
    }
    if (const char* why = host_problem(q)) {
      r.fail(400, why);
      return -1;
    }
    std::string why;
    if (int status = transfer_coding_status(q, why)) {
      r.fail(status, why);
      return -1;
    }
    if (!served_method(p->method)) {
      r.fail(standard_method(p->method) ? 405 : 501, "method " + q.method);
      return -1;
    }
    if (q.content_length > r.body_limit_) {
      r.fail(413, "body of " + std::to_string(q.content_length) + " bytes");
      return -1;
    }
    r.state_ = State::Body;
    r.chunked_ = (p->flags & F_CHUNKED) != 0;
    http_parser_pause(p, 1);  // the caller looks at the head before the body
    return 0;
  }

  static int on_body(http_parser* p, const char* at, size_t n) {
    RequestParser& r = self(p);
    if (r.req_.body.size() + n > r.body_limit_) {
      r.fail(413, "body over " + std::to_string(r.body_limit_) + " bytes");
      return 1;
    }
    r.req_.body.append(at, n);
    return 0;
  }

  static int on_message_complete(http_parser* p) {
    RequestParser& r = self(p);
    r.state_ = State::Done;
    r.req_.keep_alive = http_should_keep_alive(p) != 0;
    http_parser_pause(p, 1);  // a pipelined request after it waits its turn
    return 0;
  }
};

namespace {

const http_parser_settings kSettings = [] {
  http_parser_settings s{};
  s.on_url = RequestParser::Callbacks::on_url;
  s.on_header_field = RequestParser::Callbacks::on_header_field;
  s.on_header_value = RequestParser::Callbacks::on_header_value;
  s.on_headers_complete = RequestParser::Callbacks::on_headers_complete;
  s.on_body = RequestParser::Callbacks::on_body;
  s.on_message_complete = RequestParser::Callbacks::on_message_complete;
  return s;
}();

}  // namespace

RequestParser::RequestParser(Limits limits) : impl_(std::make_unique<Impl>()), limits_(limits) {
  next();
}

RequestParser::~RequestParser() = default;

void RequestParser::next() {
  http_parser_init(&impl_->p, HTTP_REQUEST);
  impl_->p.data = this;
  state_ = State::Idle;
  error_status_ = 0;
  error_message_.clear();
  req_.clear();
  body_limit_ = UINT64_MAX;
  head_bytes_ = 0;
  head_size_ = 0;
  line_len_ = 0;
  target_len_ = 0;
  line_ = Line::Start;
  after_cr_ = false;
  chunk_ = Chunk::HeadEnd;
  chunked_ = false;
  chunk_left_ = 0;
  request_line_.clear();
  line_end_ = 0;
  line_error_ = HPE_OK;
  field_.clear();
  value_.clear();
  in_value_ = false;
}

void RequestParser::set_body_limit(uint64_t n) {
  body_limit_ = n;
  // Set after the head (where the caller learns the op): the announced
  // length is checked now, before a byte of the body is read.
  if (state_ == State::Body && req_.content_length > n)
    fail(413, "body of " + std::to_string(req_.content_length) + " bytes");
}

void RequestParser::fail(int status, std::string message) {
  if (state_ == State::Error) return;
  state_ = State::Error;
  error_status_ = status;
  error_message_ = std::move(message);
}

// Looks at the bytes [p, p + n) of the head before the parser does, for
// the limits: a URI over max_uri is 414; the head (the request line and the
// header lines, not the blank line that ends it, nor blank lines before
// it) over max_header is 431, once the request line has ended (until then
// the URI's length decides). And for what the non-strict parser lets
// through (400): a CR not followed by LF (RFC 9112 2.2), a request line
// that is not method SP target SP version (3; request_line_well_formed,
// decided at the line's LF, and before it a space before the method, two
// spaces, a space in the version), a target with a control, space or
// non-ASCII byte in it (3.2: a tab or form feed the parser takes). Returns
// how many bytes come before the one that decides (n if none does, or the
// head ends first), with the verdict. The parser is given only those, so whatever it
// finds wrong in them comes first, and the answer never depends on how the
// bytes were split.
size_t RequestParser::head_scan(const char* p, size_t n, Verdict& v) {
  v = {};
  for (size_t i = 0; i < n; ++i) {
    char c = p[i];
    if (after_cr_ && c != '\n') {
      v = {400, "CR without LF in the head"};
      return i;
    }
    after_cr_ = c == '\r';
    bool eol = c == '\r' || c == '\n';
    if (line_len_ == 0 && eol) {  // a blank line: before the request, or the head's end
      if (c == '\n' && line_ == Line::Headers) return n;
      continue;
    }
    if (line_ < Line::End && !eol) request_line_ += c;
    switch (line_) {
      case Line::Start:
        if (c == ' ' || c == '\t') {  // (the parser calls it an unknown method: 501)
          v = {400, "malformed request line"};
          return i;
        }
        line_ = Line::Method;
        break;
      case Line::Method:
        if (c == ' ') line_ = Line::Target;
        else if (eol) line_ = Line::End;
        break;
      case Line::Target:
        if (c == ' ' && target_len_ == 0) {
          v = {400, "malformed request line"};
          return i;
        }
        if (c == ' ' || eol) {
          line_ = eol ? Line::End : Line::Version;
        } else if (uint8_t(c) <= ' ' || uint8_t(c) >= 0x7f) {
          v = {400, "invalid byte in the request target"};
          return i;
        } else if (++target_len_ > limits_.max_uri) {
          v = {414, ""};
          return i;
        }
        break;
      case Line::Version:
        if (c == ' ') {
          v = {400, "malformed request line"};
          return i;
        }
        if (eol) line_ = Line::End;
        break;
      case Line::End:
      case Line::Headers: break;
    }
    if (line_ == Line::End && c == '\n') {  // the request line's end
      if (!request_line_well_formed(request_line_)) {
        v = {400, "malformed request line"};
        return i;
      }
      line_ = Line::Headers;
      line_end_ = head_bytes_ + i;
    }
    line_len_ = c == '\n' ? 0 : c == '\r' ? line_len_ : line_len_ + 1;
    if (++head_size_ > limits_.max_header && line_ == Line::Headers) {
      v = {431, ""};
      return i;
    }
  }
  return n;
}

// Looks at the bytes [p, p + n) of a chunked body before the parser does
// (RFC 9112 7.1), for what the non-strict parser lets through: any two
// bytes after a chunk's data taken for its CRLF (so "3\r\nabcXX0\r\n\r\n"
// was the body "abc"), any byte after a chunk size line's CR, a line end
// or control byte in a chunk extension, a trailer line not ended by CRLF.
// Returns how many bytes come before the first of these (n if none is, or
// the body ends first), with the verdict (400), as head_scan does.
size_t RequestParser::chunk_scan(const char* p, size_t n, Verdict& v) {
  v = {};
  auto bad = [&](size_t i, const char* why) {
    v = {400, why};
    return i;
  };
  for (size_t i = 0; i < n; ++i) {
    char c = p[i];
    switch (chunk_) {
      case Chunk::HeadEnd:  // the head's last LF: the parser stops before it (on_headers_complete)
        chunk_ = Chunk::Size;
        if (c == '\n') break;
        [[fallthrough]];
      case Chunk::Size:  // the parser refuses what is not hex, ';', ' ' or CR
        if (int d = hex_digit(c); d >= 0) {
          chunk_left_ =
              chunk_left_ > (UINT64_MAX >> 4) ? UINT64_MAX : chunk_left_ * 16 + uint64_t(d);
        } else {
          chunk_ = c == '\r' ? Chunk::SizeLF : Chunk::Ext;
        }
        break;
      case Chunk::Ext:
        if (c == '\r') chunk_ = Chunk::SizeLF;
        else if ((uint8_t(c) < ' ' && c != '\t') || c == 0x7f)
          return bad(i, "invalid byte in a chunk extension");
        break;
      case Chunk::SizeLF:
        if (c != '\n') return bad(i, "chunk size line not ended by CRLF");
        chunk_ = chunk_left_ == 0 ? Chunk::TrailerStart : Chunk::Data;
        break;
      case Chunk::Data: {
        uint64_t k = std::min<uint64_t>(chunk_left_, n - i);
        chunk_left_ -= k;
        i += size_t(k) - 1;
        if (chunk_left_ == 0) chunk_ = Chunk::DataCR;
        break;
      }
      case Chunk::DataCR:
        if (c != '\r') return bad(i, "chunk data not followed by CRLF");
        chunk_ = Chunk::DataLF;
        break;
      case Chunk::DataLF:
        if (c != '\n') return bad(i, "chunk data not followed by CRLF");
        chunk_ = Chunk::Size;
        break;
      case Chunk::TrailerStart:
        if (c == '\n') return bad(i, "trailer not ended by CRLF");
        chunk_ = c == '\r' ? Chunk::EndLF : Chunk::TrailerLine;
        break;
      case Chunk::TrailerLine:
        if (c == '\n') return bad(i, "trailer line not ended by CRLF");
        if (c == '\r') chunk_ = Chunk::TrailerLF;
        break;
      case Chunk::TrailerLF:
        if (c != '\n') return bad(i, "trailer line not ended by CRLF");
        chunk_ = Chunk::TrailerStart;
        break;
      case Chunk::EndLF:
        if (c != '\n') return bad(i, "trailer not ended by CRLF");
        chunk_ = Chunk::End;
        return n;  // what follows is the next request's
      case Chunk::End: return n;
    }
  }
  return n;
}

size_t RequestParser::feed(const char* p, size_t n) {
  if (state_ == State::Done || state_ == State::Error || n == 0) return 0;
  bool head = state_ == State::Idle || state_ == State::Head;
  Verdict verdict;
  if (head) {
    state_ = State::Head;
    // The bytes of a head are bounded even if none decides a limit (blank
    // lines before the request line are not counted): a client sending
    // them for ever is refused.
    size_t allowance = std::max(limits_.max_header, limits_.max_uri) + 64;
    n = std::min(n, allowance - head_bytes_);
    n = head_scan(p, n, verdict);
  } else {
    http_parser_pause(&impl_->p, 0);  // resume after the head
    if (chunked_) n = chunk_scan(p, n, verdict);
  }
  if (line_error_ != HPE_OK) return refused_line(n, verdict);
  if (n == 0) {  // (zero bytes would tell the parser the input ended)
    if (!verdict.status) verdict = {400, "request not parseable"};
    fail_verdict(verdict);
    return 0;
  }
  size_t used = http_parser_execute(&impl_->p, &kSettings, p, n);
  http_errno e = HTTP_PARSER_ERRNO(&impl_->p);
  if (e != HPE_OK && e != HPE_PAUSED && state_ != State::Error) {
    // (On an error, the parser stops at the byte it refused.)
    if (head && (line_ != Line::Headers || head_bytes_ + used <= line_end_)) {
      line_error_ = e;
      return refused_line(n, verdict);
    }
    fail_parser(e);
  }
  if (head) head_bytes_ += used;
  if (state_ == State::Body && !head && verdict.status) fail_verdict(verdict);
  if (state_ != State::Head) return used;
  if (verdict.status) {
    fail_verdict(verdict);
  } else if (head_bytes_ >= std::max(limits_.max_header, limits_.max_uri) + 64) {
    fail(400, "no request line within " + std::to_string(head_bytes_) + " bytes");
  }
  return used;
}

void RequestParser::fail_verdict(const Verdict& v) {
  if (v.status == 414) fail(414, "request URI over " + std::to_string(limits_.max_uri) + " bytes");
  else if (v.status == 431)
    fail(431, "header block over " + std::to_string(limits_.max_header) + " bytes");
  else fail(v.status, v.why);
}

void RequestParser::fail_parser(int err) {
  http_errno e = http_errno(err);
  if (e == HPE_HEADER_OVERFLOW) fail(431, "header block too large");
  else fail(400, http_errno_description(e));
}

// The parser refused a byte of the request line (line_error_), which
// decides nothing yet: it refuses an unknown method at its first byte it
// cannot match, before the line's shape is known, and a verdict on a
// header line after the line must not win when the bytes come whole but
// lose when they come in pieces. So head_scan alone reads on, over the n
// bytes it passed in this feed, to the line's end: what comes first of a
// verdict of its own within the line (a bad byte, the URI's limit, a line
// not method SP target SP version: 400 at its LF) and the end of a
// well-formed line decides. A well-formed line with an unknown method is
// 501 (RFC 9110 9.1); with a known one, the parser's own verdict stands.
size_t RequestParser::refused_line(size_t n, const Verdict& v) {
  head_bytes_ += n;
  size_t allowance = std::max(limits_.max_header, limits_.max_uri) + 64;
  if (line_ == Line::Headers) {
    if (line_error_ == HPE_INVALID_METHOD) fail(501, "unknown method");
    else fail_parser(line_error_);
  } else if (v.status) {
    fail_verdict(v);
  } else if (head_bytes_ >= allowance) {
    fail(400, "no request line within " + std::to_string(head_bytes_) + " bytes");
  }
  return n;
}

void RequestParser::eof() {
  if (state_ == State::Head || state_ == State::Body)
    fail(400, "connection closed in the middle of a request");
}

// ---- what a request carries ----

bool url_decode(std::string_view s, std::string& out) {
  std::string bytes;
  bytes.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '+') {
      bytes += ' ';
    } else if (c == '%') {
      if (s.size() - i > 2) {
        int h = hex_digit(s[i + 1]), l = hex_digit(s[i + 2]);
        if (h < 0 || l < 0) return false;
        bytes += char(h * 16 + l);
      }
      i += 2;
    } else {
      bytes += c;
    }
  }
  out = valid_utf8(bytes);
  return true;
}

bool parse_args(std::string_view s, Pairs& out) {
  for (std::string_view arg : tokens(s, "&")) {
    auto kv = tokens(arg, "=");
    if (kv.empty()) continue;
    std::string value;
    if (kv.size() > 1 && !url_decode(kv[1], value)) return false;
    out.emplace_back(valid_utf8(kv[0]), std::move(value));
  }
  return true;
}

std::vector<std::vector<std::string>> parse_cookies(std::string_view s) {
  std::vector<std::vector<std::string>> out;
  for (std::string_view c : tokens(s, " \t\r\n;")) {
    std::vector<std::string> pieces;
    for (std::string_view piece : tokens(c, "=")) pieces.push_back(valid_utf8(piece));
    if (!pieces.empty()) out.push_back(std::move(pieces));
  }
  return out;
}

namespace {

// The value of parameter key in a header value such as
// `form-data; name="a"; filename="b.txt"` (quotes removed), or nullopt.
bool header_param(std::string_view v, std::string_view key, std::string& out) {
  size_t i = v.find(';');
  while (i != std::string_view::npos) {
    size_t j = i + 1;
    while (j < v.size() && (v[j] == ' ' || v[j] == '\t')) ++j;
    size_t eq = v.find('=', j);
    if (eq == std::string_view::npos) return false;
    std::string_view name = trim(v.substr(j, eq - j));
    size_t k = eq + 1;
    std::string value;
    if (k < v.size() && v[k] == '"') {
      ++k;
      while (k < v.size() && v[k] != '"') {
        if (v[k] == '\\' && k + 1 < v.size()) ++k;
        value += v[k++];
      }
      ++k;
    } else {
      while (k < v.size() && v[k] != ';') value += v[k++];
      value = std::string(trim(value));
    }
    if (iequals(name, key)) {
      out = value;
      return true;
    }
    i = v.find(';', k > v.size() ? v.size() : k);
  }
  return false;
}

}  // namespace

std::string multipart_boundary(std::string_view content_type) {
  std::string_view type = trim(content_type.substr(0, content_type.find(';')));
  if (!iequals(type, "multipart/form-data")) return "";
  std::string b;
  if (!header_param(content_type, "boundary", b) || b.empty() || b.size() > 200) return "";
  return b;
}

bool parse_multipart(std::string_view body, std::string_view boundary, std::vector<Part>& parts) {
  std::string delim = "--" + std::string(boundary);
  size_t pos = body.find(delim);
  if (pos == std::string_view::npos) return false;
  pos += delim.size();
  for (;;) {
    if (body.substr(pos, 2) == "--") return true;  // the closing delimiter
    if (body.substr(pos, 2) != "\r\n") return false;
    pos += 2;
    size_t head_end = body.find("\r\n\r\n", pos);
    if (head_end == std::string_view::npos) return false;
    Part part;
    bool named = false;
    std::string_view heads = body.substr(pos, head_end - pos);
    size_t line_start = 0;
    while (line_start <= heads.size()) {
      size_t le = heads.find("\r\n", line_start);
      std::string_view line = heads.substr(
          line_start, le == std::string_view::npos ? std::string_view::npos : le - line_start);
      size_t colon = line.find(':');
      if (colon != std::string_view::npos) {
        std::string_view name = trim(line.substr(0, colon)), value = trim(line.substr(colon + 1));
        if (iequals(name, "content-disposition")) {
          named = header_param(value, "name", part.name);
          part.is_file = header_param(value, "filename", part.filename);
        } else if (iequals(name, "content-type")) {
          part.content_type = std::string(value);
        }
      }
      if (le == std::string_view::npos) break;
      line_start = le + 2;
    }
    size_t data_start = head_end + 4;
    size_t next = body.find("\r\n" + delim, data_start);
    if (next == std::string_view::npos) return false;
    part.data = std::string(body.substr(data_start, next - data_start));
    if (named) parts.push_back(std::move(part));
    pos = next + 2 + delim.size();
  }
}

bool split_target(std::string_view target, std::string& path, std::string& query) {
  std::string_view t = target.substr(0, target.find('#'));
  // The absolute form (a proxy's): keep the path after the authority.
  for (std::string_view scheme : {"http://", "https://"}) {
    if (t.size() >= scheme.size() && iequals(t.substr(0, scheme.size()), scheme)) {
      size_t slash = t.find('/', scheme.size());
      t = slash == std::string_view::npos ? std::string_view("/") : t.substr(slash);
    }
  }
  if (t.empty() || t[0] != '/') return false;
  size_t q = t.find('?');
  std::string_view p = t.substr(1, q == std::string_view::npos ? std::string_view::npos : q - 1);
  query = q == std::string_view::npos ? "" : std::string(t.substr(q + 1));
  // Percent-escapes in a path are bytes; + is itself.
  std::string bytes;
  for (size_t i = 0; i < p.size(); ++i) {
    if (p[i] == '%') {
      if (i + 2 >= p.size()) return false;
      int h = hex_digit(p[i + 1]), l = hex_digit(p[i + 2]);
      if (h < 0 || l < 0) return false;
      bytes += char(h * 16 + l);
      i += 2;
    } else {
      bytes += p[i];
    }
  }
  path = valid_utf8(bytes);
  return true;
}

// ---- responses ----

const char* reason(int status) {
  const char* r = http_status_str(http_status(status));
  return r && std::strcmp(r, "<unknown>") != 0 ? r : "Unknown";
}

std::string http_date(int64_t t) {
  time_t tt = time_t(t);
  tm g{};
  gmtime_r(&tt, &g);
  char buf[64];
  strftime(buf, sizeof buf, "%a, %d %b %Y %H:%M:%S GMT", &g);
  return buf;
}

const std::string& http_date_now() {
  static thread_local std::string cached;
  static thread_local time_t cached_at = -1;
  time_t now = time(nullptr);
  if (now != cached_at) {
    cached = http_date(now);
    cached_at = now;
  }
  return cached;
}

namespace {

// Header lines the server writes itself, whatever the handler printed.
bool server_owned(std::string_view name) {
  for (std::string_view owned :
       {"content-length", "date", "connection", "transfer-encoding", "keep-alive"})
    if (iequals(name, owned)) return true;
  return false;
}

bool bodiless(int status) {
  return (status >= 100 && status < 200) || status == 204 || status == 304;
}

}  // namespace

ResponseInfo complete_response(std::string_view w, bool http10, bool keep_alive,
                               std::string& head) {
  ResponseInfo info;
  head.clear();
  head.reserve(256);
  std::string_view lines;
  if (w.substr(0, 5) != "HTTP/") {
    // No header of the handler's: all of it is the page.
    head += "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n";
    info.body_offset = 0;
  } else {
    // The head ends at the first empty line (\n\n, or \r\n\r\n).
    size_t end = std::string_view::npos, body = w.size();
    for (size_t i = w.find('\n'); i != std::string_view::npos; i = w.find('\n', i + 1)) {
      size_t next = i + 1;
      if (next < w.size() && w[next] == '\n') {
        end = i;
        body = next + 1;
        break;
      }
      if (next + 1 < w.size() && w[next] == '\r' && w[next + 1] == '\n') {
        end = i;
        body = next + 2;
        break;
      }
    }
    lines = w.substr(0, end == std::string_view::npos ? w.size() : end);
    info.body_offset = body;
    // The status line: its code and reason, our version.
    size_t le = lines.find('\n');
    std::string_view status_line = trim(lines.substr(0, le));
    lines = le == std::string_view::npos ? std::string_view() : lines.substr(le + 1);
    size_t sp = status_line.find(' ');
    int code = 0;
    std::string_view why;
    if (sp != std::string_view::npos) {
      std::string_view rest = status_line.substr(sp + 1);
      size_t digits = 0;
      while (digits < rest.size() && rest[digits] >= '0' && rest[digits] <= '9' && digits < 3)
        code = code * 10 + (rest[digits++] - '0');
      if (digits != 3 || code < 100) code = 0;
      why = trim(rest.substr(digits));
    }
    if (code == 0) code = 200;
    info.status = code;
    head += "HTTP/1.1 ";
    head += std::to_string(code);
    head += ' ';
    head += why.empty() ? std::string_view(reason(code)) : why;
    head += "\r\n";
    // The handler's own lines, but those the server writes.
    while (!lines.empty()) {
      le = lines.find('\n');
      std::string_view line = trim(lines.substr(0, le));
      lines = le == std::string_view::npos ? std::string_view() : lines.substr(le + 1);
      size_t colon = line.find(':');
      if (colon == std::string_view::npos || colon == 0) continue;
      if (server_owned(trim(line.substr(0, colon)))) continue;
      head += line;
      head += "\r\n";
    }
  }
  info.body_size = bodiless(info.status) ? 0 : w.size() - std::min(info.body_offset, w.size());
  head += "Date: ";
  head += http_date_now();
  head += "\r\n";
  if (!bodiless(info.status)) {
    head += "Content-Length: ";
    head += std::to_string(info.body_size);
    head += "\r\n";
  }
  if (!keep_alive) head += "Connection: close\r\n";
  else if (http10) head += "Connection: keep-alive\r\n";
  head += "\r\n";
  return info;
}

std::string simple_response(int status, std::string_view body, bool keep_alive,
                            std::string_view extra) {
  std::string r = "HTTP/1.1 " + std::to_string(status) + " " + reason(status) + "\r\n";
  r += "Content-Type: text/plain; charset=utf-8\r\n";
  r += "Date: " + http_date_now() + "\r\n";
  if (!bodiless(status)) r += "Content-Length: " + std::to_string(body.size()) + "\r\n";
  if (!keep_alive) r += "Connection: close\r\n";
  r += extra;
  r += "\r\n";
  if (!bodiless(status)) r += body;
  return r;
}

}  // namespace vm::http
