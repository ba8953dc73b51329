// io/http.h — HTTP/1.1 for the web library: the request parser, the parsing
// of what a request carries (query and form arguments, multipart bodies,
// cookies), and the completion of a handler's response.
//
// Everything here works on bytes and knows nothing of the VM, so the fuzz
// target (tests/fuzz/fuzz_http.cpp) drives it directly; the builtins that
// read requests into Arc and send responses are in io/http_builtins.cpp.
//
// Requests are parsed by Debian's libhttp-parser (Node.js's parser for a
// decade), which handles the grammar: the request line, header folding,
// chunked bodies, conflicting lengths (request smuggling). Debian builds it
// non-strict, where it takes any byte after a CR for the LF, any two bytes
// after a chunk's data for its CRLF, runs of spaces in the request line
// and a tab or form feed in the target: a proxy in front reading the same
// bytes strictly would see other requests than the server (smuggling). So
// this file looks at the bytes before the parser does and refuses those
// (RFC 9112), and checks what the parser does not: Host (3.2) and the
// transfer codings (6.1, 6.3). It adds policy too: limits (URI, header
// block, body), the methods served, and the error status each failure is
// answered with.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "vm/value.h"

namespace vm {
class VM;
}

namespace vm::http {

struct Limits {
  size_t max_uri = 8 * 1024;     // longer: 414
  size_t max_header = 8 * 1024;  // request line and headers together; more: 431
};

using Pairs = std::vector<std::pair<std::string, std::string>>;

struct Request {
  std::string method;  // "GET", "HEAD", "POST"
  int major = 1, minor = 1;
  std::string target;            // as sent: path and query
  Pairs headers;                 // names lower-cased, in order
  std::string body;              // decoded from chunks if it was chunked
  bool keep_alive = false;       // what the client's version and Connection ask
  bool expect_continue = false;  // Expect: 100-continue
  bool upgrade = false;          // Upgrade or CONNECT: the connection closes after
  uint64_t content_length = 0;   // announced (0 if none or chunked)
  // The first header named lname (lower case), or null.
  const std::string* header(std::string_view lname) const;
  // Empty again, keeping the strings' memory for the next request on the
  // connection (but not a large body's).
  void clear();
};

// Parses the requests on one connection, one after another, from bytes fed
// as they arrive. After the head of a request it stops (state Body) so the
// caller can apply the op's body limit and answer Expect: 100-continue;
// feeding on reads the body; Done leaves the rest of the bytes (the next,
// pipelined request) unconsumed.
class RequestParser {
 public:
  enum class State { Idle, Head, Body, Done, Error };
  explicit RequestParser(Limits limits = {});
  ~RequestParser();
  RequestParser(const RequestParser&) = delete;
  RequestParser& operator=(const RequestParser&) = delete;

  // Makes ready for the next request on the connection.
  void next();
  // Parses from p; returns the bytes used. Stops at the end of the head,
  // at the end of the request, or at an error.
  size_t feed(const char* p, size_t n);
  // The body limit for this request (bytes): a longer body is an error 413
  // (checked against Content-Length at once, and as chunks arrive).
  void set_body_limit(uint64_t n);
  // The peer closed: a request cut short is an error (400).
  void eof();

  State state() const { return state_; }
  // Idle: no byte of this request seen yet (a closed idle connection is
  // not an error).
  bool started() const { return state_ != State::Idle; }
  int error_status() const { return error_status_; }
  const std::string& error_message() const { return error_message_; }
  Request& request() { return req_; }

  // libhttp-parser's callbacks (public for its C callback table).
  struct Callbacks;

 private:
  // What a scan of the bytes found wrong, at the byte it returned.
  struct Verdict {
    int status = 0;  // 0: nothing
    const char* why = "";
  };
  void fail(int status, std::string message);
  void fail_verdict(const Verdict& v);
  size_t head_scan(const char* p, size_t n, Verdict& v);
  size_t chunk_scan(const char* p, size_t n, Verdict& v);
  void fail_parser(int err);
  size_t refused_line(size_t n, const Verdict& v);
  struct Impl;
  std::unique_ptr<Impl> impl_;
  Limits limits_;
  State state_ = State::Idle;
  int error_status_ = 0;
  std::string error_message_;
  Request req_;
  uint64_t body_limit_ = UINT64_MAX;
  size_t head_bytes_ = 0;  // bytes of this request's head the parser took
  // head_scan's place in the head: the line it is in (End: the request
  // line's CR, its LF to come), that line's length so far, the head's size
  // (without blank lines) and the target's, and whether the byte before was
  // a CR.
  enum class Line { Start, Method, Target, Version, End, Headers } line_ = Line::Start;
  size_t line_len_ = 0, head_size_ = 0, target_len_ = 0;
  bool after_cr_ = false;
  // The request line's bytes (without its line end), whose shape decides
  // between 400 and 501, and, once it has ended, where its LF is in the head.
  std::string request_line_;
  size_t line_end_ = 0;
  // libhttp-parser's error (an http_errno) on a byte of the request line:
  // the parser is given no more, and the line's end decides (refused_line).
  int line_error_ = 0;
  // chunk_scan's place in a chunked body (chunked_), and the bytes of the
  // chunk's data still to come.
  enum class Chunk {
    HeadEnd,
    Size,
    Ext,
    SizeLF,
    Data,
    DataCR,
    DataLF,
    TrailerStart,
    TrailerLine,
    TrailerLF,
    EndLF,
    End
  } chunk_ = Chunk::HeadEnd;
  bool chunked_ = false;
  uint64_t chunk_left_ = 0;
  // Header assembly: the field or value being received (the parser may
  // deliver each in several pieces).
  std::string field_, value_;
  bool in_value_ = false;
};

// ---- what a request carries ----

// Arc 3.1's urldecode: + is a space, %XX a byte (bytes are decoded as
// UTF-8 afterwards, invalid ones as U+FFFD); a % with fewer than two
// characters after it is dropped. False for a % followed by non-hex.
bool url_decode(std::string_view s, std::string& out);

// Arc 3.1's parseargs: split at & and at = (empty pieces dropped); each
// argument is its first two pieces, the value URL-decoded ("" if there is
// none), the name as sent. False for an invalid % escape.
bool parse_args(std::string_view s, Pairs& out);

// Arc 3.1's parsecookies on a Cookie header's value: split at whitespace
// and ;, then each piece at = (empty pieces dropped), nothing decoded. Each
// cookie is the list of its pieces: ("user" "abc").
std::vector<std::vector<std::string>> parse_cookies(std::string_view s);

// One part of a multipart/form-data body.
struct Part {
  std::string name, filename, content_type, data;
  bool is_file = false;  // it had a filename
};
// The boundary of a multipart/form-data content type, or "" if it is not one.
std::string multipart_boundary(std::string_view content_type);
// Splits a multipart body at boundary. False if it is malformed.
bool parse_multipart(std::string_view body, std::string_view boundary, std::vector<Part>& parts);

// The decoded path of a request target (the part before ?, without its
// leading /) and the query (after ?, as sent). False if the target is not
// a path ("*", "http://..." are not served) or has an invalid escape.
bool split_target(std::string_view target, std::string& path, std::string& query);

// ---- responses ----

// The reason phrase of a status code ("Not Found"), "Unknown" if none.
const char* reason(int status);
// The HTTP date of t (seconds since the epoch): "Sun, 06 Nov 1994 08:49:37 GMT".
std::string http_date(int64_t t);
// The same for now, formatted at most once a second.
const std::string& http_date_now();

struct ResponseInfo {
  int status = 200;
  size_t body_offset = 0;  // where the body starts in what the handler wrote
  size_t body_size = 0;
};

// Completes what a handler wrote, Arc 3.1 style (a status line, header
// lines and a blank line, with \n or \r\n line ends, then the body), into
// an HTTP/1.1 response head in head: the status line made HTTP/1.1, the
// handler's header lines kept except those the server owns
// (Content-Length, Date, Connection, Transfer-Encoding, Keep-Alive), then
// Date, Content-Length and Connection as the request and close say.
// Output not starting with "HTTP/" is all body, under a 200 text/html head;
// a head with no blank line after it has an empty body.
//   http10: the request was HTTP/1.0 (keep-alive is then announced);
//   keep_alive: the connection stays open after this response.
ResponseInfo complete_response(std::string_view written, bool http10, bool keep_alive,
                               std::string& head);

// A small complete response of the server's own (an error): status, its
// reason as the body, Connection: close unless keep_alive; extra header
// lines (each ending \r\n) after the others.
std::string simple_response(int status, std::string_view body, bool keep_alive,
                            std::string_view extra_headers = {});

// ---- into Arc ----

// The request table handlers see (docs/LANGUAGE.md 6.5's args, cooks and ip, and
// type, op, path, query, headers, body, files, start, version), made from
// a parsed request. On what cannot be parsed (a bad escape, a malformed
// multipart body): nil, with status (400) and message set. Defined in
// io/http_builtins.cpp: it allocates, so it needs a heap and a VM; it
// collects nothing.
Value request_to_arc(vm::VM& vm, Request& r, const std::string& ip, int64_t start_ms, int& status,
                     std::string& message);

}  // namespace vm::http
