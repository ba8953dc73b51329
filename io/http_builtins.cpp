// io/http_builtins.cpp — the builtins srv.arc serves HTTP with: reading a
// request into the request table (%http-read), the response port handlers
// write into (%response-port), sending what they wrote (%http-send), the
// server's own error answers (%http-error), and static files with their
// validators (%http-file); and, under --workers, handing a connection to
// the worker that owns its request's closure (%srv-hand-over) and taking
// one handed to this worker (%srv-handed: io/server.h). The bytes are
// parsed by io/http.cpp.
//
// A connection's parser lives with its input port (SocketInput::ext), so
// bytes of a pipelined request that arrive with the one before wait there.
// Each builtin here that waits re-reads its arguments afterwards rather
// than keeping Values in C++ locals: other threads run (and collect)
// while it waits, and the arguments are on this thread's VM stack, which
// the collector updates in place.
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>

#include "io/http.h"
#include "io/io.h"
#include "io/server.h"
#include "io/socket.h"
#include "vm/builtins.h"
#include "vm/error.h"
#include "vm/number.h"
#include "vm/port.h"
#include "vm/string.h"
#include "vm/symbol.h"
#include "vm/table.h"
#include "vm/thread.h"
#include "vm/vm.h"

namespace vm {

namespace {

// ---- the response port ----

// Where a handler's output collects until the server sends it. close (by
// the handler) asks for the connection to close after this response;
// force-close drops the response and resets the connection.
class ResponsePort final : public PortImpl {
 public:
  ResponsePort() {
    is_output = true;
    name = "response";
  }
  void write_bytes(const char* p, size_t n) override { buf.append(p, n); }
  std::string* out_buffer() override { return &buf; }
  std::string* contents() override { return &buf; }
  void close() override {
    close_after = true;
    PortImpl::close();
  }
  void abort() override {
    aborted = true;
    PortImpl::close();
  }
  void reset() {
    buf.clear();
    close_after = aborted = false;
    closed = false;
  }
  std::string buf;
  bool close_after = false, aborted = false;
};

ResponsePort* response_port(VM& vm, const char* fn, Value v) {
  ResponsePort* r = TYPE(v) == Kind::Port ? dynamic_cast<ResponsePort*>(port_impl(v)) : nullptr;
  if (!r) type_error(vm, fn, "a response port", v);
  return r;
}

// ---- a connection's HTTP state ----

struct HttpConn final : PortExtension {
  http::RequestParser parser;
  uint64_t requests = 0;  // answered on this connection
  bool received = false;  // some byte of the current request came
  // Of the request being answered:
  bool http10 = false, head = false, keep_alive = false;
  int status = 0;  // of the last response sent, for the request log
  // Under --workers (worker_channels()), the bytes of the request being
  // answered as they came, for %srv-hand-over; freed as the next is read,
  // so an idle connection holds none.
  std::string raw;
  // The connection came from another worker (%srv-handed): its first
  // request, which it read already, is not handed on again, nor answered
  // 100 Continue again; handed_error, if not empty, is why its bytes did
  // not arrive (the request is answered 503).
  bool handed = false;
  std::string handed_error;
};

HttpConn& http_conn(SocketInput* in) {
  if (!in->ext) in->ext = std::make_unique<HttpConn>();
  return static_cast<HttpConn&>(*in->ext);
}

SocketInput* arg_socket_in(VM& vm, const char* fn, Value v) {
  SocketInput* in = socket_input(v);
  if (!in) type_error(vm, fn, "a socket input port", v);
  return in;
}

SocketOutput* arg_socket_out(VM& vm, const char* fn, Value v) {
  SocketOutput* out = socket_output(v);
  if (!out) type_error(vm, fn, "a socket output port", v);
  return out;
}

// A global's value as seconds (srv.arc's header-timeout* and the like).
double global_seconds(VM& vm, const CachedSymbol& name, double dflt) {
  return number_or(vm, global_value(name.get(vm)), dflt);
}

// A global's value as a limit that nil (or anything not a positive
// number) turns off: 0 then.
double global_limit(VM& vm, const CachedSymbol& name) {
  double v = number_or(vm, global_value(name.get(vm)), 0);
  return v > 0 ? v : 0;
}

// The names this file looks up on every request.
const CachedSymbol kHeaderTimeout("header-timeout*"), kIdleTimeout("idle-timeout*"),
    kBodyTimeout("body-timeout*"), kBodyDeadline("body-deadline*"), kBodyMinRate("body-min-rate*"),
    kBodyRateGrace("body-rate-grace*");
const CachedSymbol kType("type"), kOp("op"), kArgs("args"), kCooks("cooks"), kIp("ip"),
    kPath("path"), kQuery("query"), kHeaders("headers"), kBody("body"), kFiles("files"),
    kStart("start"), kVersion("version"), kGet("get"), kPost("post");

// The op symbol of a path: the interned symbol if there is one, else a
// fresh uninterned one (no op or limit can be registered under a name
// never interned, and a hostile client must not grow the symbol table).
Value op_symbol(VM& vm, const std::string& path) {
  Value s = find_symbol(vm, path);
  return s == UNBOUND ? make_uninterned_symbol(vm, path) : s;
}

Value str(VM& vm, std::string_view s) { return make_string_utf8(vm, s); }

// Bytes as characters 0-255 (an uploaded file's content: no decoding can
// lose or change a byte; (writeb (int c)) writes each back).
Value byte_string(VM& vm, std::string_view s) {
  Value v = make_string(vm, s.size());
  for (size_t i = 0; i < s.size(); ++i) string_set(vm, v, i, uint8_t(s[i]));
  return v;
}

Value pairs_list(VM& vm, const http::Pairs& ps, Value tail) {
  Value out = tail;
  for (size_t i = ps.size(); i-- > 0;)
    out = cons(vm, list(vm, {str(vm, ps[i].first), str(vm, ps[i].second)}), out);
  return out;
}

}  // namespace

// What else a handler may want besides Arc 3.1's args, cooks and ip: type
// (get, head, post), op, path, query, headers (an alist of lower-cased
// names), body (unless it was a form), files ((name filename type data)),
// start (msec when its first byte came), version.
Value http::request_to_arc(VM& vm, http::Request& r, const std::string& ip, int64_t start,
                           int& status, std::string& message) {
  struct {
    int& status;
    std::string& message;
  } c{status, message};
  status = 0;
  std::string path, query;
  if (!http::split_target(r.target, path, query)) {
    c.status = 400;
    c.message = "bad request target";
    return NIL;
  }
  http::Pairs query_args, body_args;
  if (!http::parse_args(query, query_args)) {
    c.status = 400;
    c.message = "bad escape in the query";
    return NIL;
  }
  std::vector<http::Part> parts;
  bool form_body = false;
  if (r.method == "POST") {
    const std::string* ct = r.header("content-type");
    std::string boundary = ct ? http::multipart_boundary(*ct) : "";
    if (!boundary.empty()) {
      if (!http::parse_multipart(r.body, boundary, parts)) {
        c.status = 400;
        c.message = "malformed multipart body";
        return NIL;
      }
    } else if (!ct || ct->rfind("application/x-www-form-urlencoded", 0) == 0) {
      // Arc 3.1 reads any POST body as a form.
      form_body = true;
      if (!http::parse_args(r.body, body_args)) {
        c.status = 400;
        c.message = "bad escape in the form";
        return NIL;
      }
    }
  }
  // No collection can happen from here to the return (invariant 2), so the
  // partial values need no roots.
  Value args = pairs_list(vm, query_args, NIL);
  Value files = NIL;
  for (size_t i = parts.size(); i-- > 0;) {
    http::Part& p = parts[i];
    Value data = p.is_file ? byte_string(vm, p.data) : str(vm, p.data);
    if (p.is_file)
      files =
          cons(vm, list(vm, {str(vm, p.name), str(vm, p.filename), str(vm, p.content_type), data}),
               files);
    args = cons(vm, list(vm, {str(vm, p.name), data}), args);
  }
  args = pairs_list(vm, body_args, args);
  Value cooks = NIL, headers = NIL;
  for (size_t i = r.headers.size(); i-- > 0;) {
    auto& [k, v] = r.headers[i];
    headers = cons(vm, list(vm, {str(vm, k), str(vm, v)}), headers);
    if (k == "cookie") {
      auto cs = http::parse_cookies(v);
      for (size_t j = cs.size(); j-- > 0;) {
        Value cookie = NIL;
        for (size_t m = cs[j].size(); m-- > 0;) cookie = cons(vm, str(vm, cs[j][m]), cookie);
        cooks = cons(vm, cookie, cooks);
      }
    }
  }
  std::string type = r.method;
  for (char& ch : type) ch = char(tolower(uint8_t(ch)));
  Value t = make_table(vm, 16);
  table_put(vm, t, kType.get(vm),
            type == "get"    ? kGet.get(vm)
            : type == "post" ? kPost.get(vm)
                             : intern(vm, type));
  table_put(vm, t, kOp.get(vm), op_symbol(vm, path));
  table_put(vm, t, kArgs.get(vm), args);
  table_put(vm, t, kCooks.get(vm), cooks);
  table_put(vm, t, kIp.get(vm), str(vm, ip));
  table_put(vm, t, kPath.get(vm), str(vm, path));
  if (!query.empty()) table_put(vm, t, kQuery.get(vm), str(vm, query));
  table_put(vm, t, kHeaders.get(vm), headers);
  if (!r.body.empty() && !form_body) table_put(vm, t, kBody.get(vm), str(vm, r.body));
  table_put(vm, t, kFiles.get(vm), files);
  table_put(vm, t, kStart.get(vm), make_integer(vm, start));
  table_put(vm, t, kVersion.get(vm),
            str(vm, std::to_string(r.major) + "." + std::to_string(r.minor)));
  return t;
}

namespace {

// The clock a request's body is read against (srv.arc's settings): no gap
// between bytes over body-timeout*, all of it within body-deadline* of its
// start, and, once body-rate-grace* has passed, a mean of body-min-rate*
// bytes a second since its start. The gap alone let a byte every few
// seconds hold a connection for ever. Each moment is a deadline, so the
// reader waits for the nearest and nothing polls.
class BodyClock {
 public:
  void start(VM& vm) {
    gap_ = global_seconds(vm, kBodyTimeout, 10);
    total_ = global_limit(vm, kBodyDeadline);
    rate_ = global_limit(vm, kBodyMinRate);
    grace_ = global_limit(vm, kBodyRateGrace);
    start_ = monotonic_ns();
    bytes_ = 0;
    gap_deadline_ = deadline_after(gap_);
  }
  void progress(size_t n) {
    bytes_ += n;
    gap_deadline_ = deadline_after(gap_);
  }
  uint64_t deadline() const { return std::min({gap_deadline_, total_deadline(), rate_deadline()}); }
  // Why the body is late at now (a deadline has passed), for the 408.
  const char* why(uint64_t now) const {
    if (now >= total_deadline()) return "body not complete within body-deadline*";
    if (now >= rate_deadline()) return "body slower than body-min-rate*";
    return "body stalled past body-timeout*";
  }

 private:
  uint64_t after_start(double secs) const {
    return start_ + uint64_t(std::min(secs, 1e9) * 1e9);  // (deadline_after's cap)
  }
  uint64_t total_deadline() const { return total_ > 0 ? after_start(total_) : UINT64_MAX; }
  // The moment the mean rate falls below rate_ if no more bytes come.
  uint64_t rate_deadline() const {
    return rate_ > 0 ? after_start(std::max(grace_, double(bytes_) / rate_)) : UINT64_MAX;
  }
  double gap_ = 10, total_ = 0, rate_ = 0, grace_ = 0;
  uint64_t start_ = 0, bytes_ = 0, gap_deadline_ = 0;
};

Value error_pair(VM& vm, int status, const std::string& message) {
  return cons(vm, Value::fixnum(status), str(vm, message));
}

// The body limit for the op of a request whose head has just been read:
// its entry in limits (an Arc table, op -> bytes), else dflt.
uint64_t body_limit(VM& vm, http::Request& r, Value limits, Value dflt) {
  uint64_t n = is_integer(dflt) && dflt.is_fixnum() && dflt.as_fixnum() >= 0
                   ? uint64_t(dflt.as_fixnum())
                   : uint64_t(1) << 20;
  if (TYPE(limits) != Kind::Table) return n;
  std::string path, query;
  if (!http::split_target(r.target, path, query)) return n;
  Value op = find_symbol(vm, path);
  if (op == UNBOUND) return n;
  Value v = table_get(limits, op);
  return v.is_fixnum() && v.as_fixnum() >= 0 ? uint64_t(v.as_fixnum()) : n;
}

// (%http-read in ip limits dflt): the next request of the connection, as
// the request table; nil when the connection is done (closed by the peer
// between requests, idle past idle-timeout*, or the server stopping); or
// (status . message) for a request that must be answered with an error
// (bad syntax 400, unsupported method 405/501, URI 414, header block 431,
// body over its op's limit 413, a timeout 408: of the head, or of the body
// by BodyClock).
Value bi_http_read(VM& vm, Value* args, int) {
  SocketInput* in = arg_socket_in(vm, "%http-read", args[0]);
  HttpConn& c = http_conn(in);
  http::RequestParser& p = c.parser;
  if (p.state() != http::RequestParser::State::Idle) p.next();
  c.received = false;
  std::string().swap(c.raw);
  bool keep_raw = worker_channels() > 0;
  if (!c.handed_error.empty()) {
    std::string why;
    why.swap(c.handed_error);
    c.received = true;
    return error_pair(vm, 503, why);
  }
  double header_secs = global_seconds(vm, kHeaderTimeout, 10);
  double idle_secs = global_seconds(vm, kIdleTimeout, 5);
  // The first request must come within the header timeout of the
  // connection; later ones within the idle timeout of the last.
  uint64_t idle_deadline = c.requests == 0
                               ? in->conn().created_ns + uint64_t(std::max(header_secs, 0.0) * 1e9)
                               : deadline_after(idle_secs);
  uint64_t head_deadline = 0;
  BodyClock body;
  int64_t start = 0;
  using State = http::RequestParser::State;
  for (;;) {
    size_t had = in->avail();
    // Parse what is buffered.
    while (in->avail() > 0 && p.state() != State::Done && p.state() != State::Error) {
      State before = p.state();
      if (before == State::Idle) {
        // Its first byte: the whole head must follow within the header
        // timeout (of the connection's start, for its first request).
        c.received = true;
        start = clock_ms(CLOCK_REALTIME);
        head_deadline = c.requests == 0 ? idle_deadline : deadline_after(header_secs);
      }
      size_t used = p.feed(in->data(), in->avail());
      if (keep_raw) c.raw.append(in->data(), used);
      in->consume(used);
      if (before == State::Head || before == State::Idle) {
        if (p.state() == State::Body) {
          http::Request& r = p.request();
          p.set_body_limit(body_limit(vm, r, args[2], args[3]));  // a length over it: 413 now
          if (p.state() == State::Error) break;
          if (r.expect_continue && r.content_length > 0 && in->conn().fd >= 0 &&
              !(c.handed && c.requests == 0)) {
            static const char kContinue[] = "HTTP/1.1 100 Continue\r\n\r\n";
            (void)!::send(in->conn().fd, kContinue, sizeof kContinue - 1,
                          MSG_NOSIGNAL | MSG_DONTWAIT);
          }
          body.start(vm);
          continue;
        }
      }
      if (used == 0) break;
      if (p.state() == State::Body) body.progress(used);
    }
    if (p.state() == State::Done) {
      in->drop_empty_buffer();  // 10,000 idle connections hold no buffers
      http::Request& r = p.request();
      ++c.requests;
      c.http10 = r.minor == 0;
      c.head = r.method == "HEAD";
      c.keep_alive = r.keep_alive && !r.upgrade;
      int status;
      std::string message;
      Value req = http::request_to_arc(vm, r, in->ip(), start, status, message);
      if (status) return error_pair(vm, status, message);
      return req;
    }
    if (p.state() == State::Error) return error_pair(vm, p.error_status(), p.error_message());
    // Wait for more. A stopping server closes a connection between requests.
    bool idle = p.state() == State::Idle;
    if (idle && server_stopping()) return NIL;
    uint64_t deadline = idle                       ? idle_deadline
                        : p.state() == State::Head ? head_deadline
                                                   : body.deadline();
    // (A body arriving without a pause never waits for its deadline.)
    if (p.state() == State::Body && monotonic_ns() >= deadline)
      return error_pair(vm, 408, body.why(monotonic_ns()));
    size_t before_fill = in->avail();
    auto filled = in->fill(deadline, idle ? server_stop_fd() : -1);
    // A full buffer the parser took nothing from (it takes every byte until
    // it stops, so this should not happen): an error, not a spin.
    if (filled == SocketInput::Fill::Data && before_fill == had && in->avail() == before_fill)
      return error_pair(vm, 400, "request not parseable");
    switch (filled) {
      case SocketInput::Fill::Data: break;
      case SocketInput::Fill::Eof:
        if (!p.started()) return NIL;
        p.eof();
        return error_pair(vm, p.error_status() ? p.error_status() : 400,
                          "connection closed mid-request");
      case SocketInput::Fill::Timeout:
        if (idle && c.requests > 0) return NIL;  // an idle keep-alive connection
        return error_pair(vm, 408,
                          idle                       ? "no request within header-timeout*"
                          : p.state() == State::Head ? "header not complete within header-timeout*"
                                                     : body.why(monotonic_ns()));
      case SocketInput::Fill::Woken:
      case SocketInput::Fill::Reset: return NIL;
    }
  }
}

// (%http-send out str in): sends what the handler wrote into the response
// port str as an HTTP/1.1 response, then empties str. t if the connection
// stays open for another request.
Value bi_http_send(VM& vm, Value* args, int) {
  SocketOutput* out = arg_socket_out(vm, "%http-send", args[0]);
  ResponsePort* r = response_port(vm, "%http-send", args[1]);
  HttpConn& c = http_conn(arg_socket_in(vm, "%http-send", args[2]));
  if (r->aborted) {  // force-close: no response at all
    c.status = 0;
    r->reset();
    out->abort();
    return NIL;
  }
  bool keep = c.keep_alive && !r->close_after && !server_stopping();
  // The written bytes are moved out first: a thread of the handler's may
  // still write to the port while this one waits for the peer.
  std::string written;
  written.swap(r->buf);
  r->reset();
  std::string head;
  http::ResponseInfo info = http::complete_response(written, c.http10, keep, head);
  c.status = info.status;
  const char* pieces[2] = {head.data(), written.data() + info.body_offset};
  size_t sizes[2] = {head.size(), c.head ? 0 : info.body_size};
  auto sent = out->send(pieces, sizes, 2, deadline_after(global_seconds(vm, kBodyTimeout, 10)));
  if (sent != SocketOutput::Sent::Done) {
    out->abort();
    return NIL;
  }
  // The next response reuses the buffer's memory, unless a thread wrote to
  // the port meanwhile.
  r = response_port(vm, "%http-send", args[1]);
  if (r->buf.empty()) {
    written.clear();
    r->buf.swap(written);
  }
  return boolean(keep);
}

// After an error answer the connection closes. The client may still be
// sending (the body of a 413); closing with its bytes unread would reset
// the connection and could destroy the answer before it is read, so the
// output side is shut first and what arrives is read and dropped for a
// moment (as nginx's lingering close).
void lingering_close(SocketInput* in) {
  SocketConn& conn = in->conn();
  if (conn.fd < 0) return;
  shutdown(conn.fd, SHUT_WR);
  uint64_t until = deadline_after(1);
  size_t dropped = 0;
  while (dropped < (size_t(1) << 20)) {
    in->consume(in->avail());
    auto f = in->fill(until);
    if (f != SocketInput::Fill::Data) break;
    dropped += in->avail();
  }
  in->consume(in->avail());
}

// (%http-error out in status msg): the server's own answer (a 400, 413,
// 503 ...), with the connection closing after it. A 408 for a connection
// that sent nothing at all is not answered: it is just closed.
Value bi_http_error(VM& vm, Value* args, int) {
  SocketOutput* out = arg_socket_out(vm, "%http-error", args[0]);
  SocketInput* in = arg_socket_in(vm, "%http-error", args[1]);
  int64_t status = arg_fixnum(vm, "%http-error", args[2]);
  // A client error says what was wrong (the server's words, not the
  // client's); a server error says no more than its status.
  std::string body = http::reason(int(status));
  if (status < 500 && is_string(args[3])) body += ": " + string_utf8(args[3]);
  HttpConn& c = http_conn(in);
  if (!(status == 408 && !c.received)) {
    // A 503 is the server's state, not the request's: it says when to ask again.
    std::string extra = status == 405   ? "Allow: GET, HEAD, POST\r\n"
                        : status == 503 ? "Retry-After: 1\r\n"
                                        : "";
    std::string resp = http::simple_response(int(status), body + "\n", false, extra);
    const char* pieces[1] = {resp.data()};
    size_t sizes[1] = {resp.size()};
    if (out->send(pieces, sizes, 1, deadline_after(2)) != SocketOutput::Sent::Done) return NIL;
    lingering_close(arg_socket_in(vm, "%http-error", args[1]));
  }
  return NIL;
}

// ---- closures under --workers (io/server.h) ----

// (%srv-hand-over in w wait): hands the connection of socket input port in,
// with the request just read (%http-read) and whatever came after it, to
// worker w, waiting up to wait seconds for room in its channel. t once it
// is sent and w has written to it (io/server.h: until then this process
// keeps the connection): this process's descriptor is closed, and the
// ports are left to be closed (which then does nothing to the
// connection). (503 . why) also if w ended without writing a byte to it
// (killed in its handler, say): the connection is still this process's
// to answer. nil if w is not
// another worker, or the request came handed over already (it is answered
// here, so nothing is handed round in a loop): the request is for this
// worker. (503 . why) if the connection could not be handed over (this
// worker answers that).
Value bi_srv_hand_over(VM& vm, Value* args, int) {
  const char* fn = "%srv-hand-over";
  SocketInput* in = arg_socket_in(vm, fn, args[0]);
  int64_t w = arg_fixnum(vm, fn, args[1]);
  double wait = number_or(vm, args[2], 1);
  HttpConn& c = http_conn(in);
  if (w < 0 || w >= worker_channels() || w == server_worker() || (c.handed && c.requests == 1))
    return NIL;
  if (in->conn().fd < 0) return error_pair(vm, 503, "the connection is closed");
  if (server_stopping()) return error_pair(vm, 503, "the server is stopping");
  std::string bytes;
  bytes.swap(c.raw);
  bytes.append(in->data(), in->avail());
  std::string why;
  int fd = in->conn().fd, answered = -1;
  int64_t written = connection_bytes_written(fd);
  bool sent = hand_over_connection(vm, int(w), fd, bytes, deadline_after(wait), why, answered);
  in = arg_socket_in(vm, fn, args[0]);  // (again after the wait)
  if (!sent) return error_pair(vm, 503, why);
  in->consume(in->avail());
  // An owner alive but slow answers within threadlife* (its handler is
  // broken then, and answers 503 itself): the wait is bounded past that.
  static const CachedSymbol kThreadlife("threadlife*");
  uint64_t until = deadline_after(global_seconds(vm, kThreadlife, 30) + wait);
  bool done = await_handed_answer(vm, answered, in->conn().fd, written, until);
  in = arg_socket_in(vm, fn, args[0]);
  if (!done)
    return error_pair(
        vm, 503,
        "worker " + std::to_string(w) + " ended before answering a connection handed to it");
  close_fd(vm, in->conn().fd);
  return T;
}

// (%srv-handed): the next connection another worker hands to this one,
// as (in out ip), %srv-accept's list, its input port reading first what
// that worker had read; nil in a process that is no worker of several.
// Waits for it (parked on the scheduler's epoll). The peer gone
// meanwhile, the connection is dropped and the next waited for.
Value bi_srv_handed(VM& vm, Value*, int) {
  for (;;) {
    int fd = -1, answered = -1;
    std::string bytes, why;
    if (receive_connection(vm, fd, bytes, why, answered) == Handed::None) return NIL;
    std::string ip = peer_address(fd);
    if (ip.empty()) {
      ::close(fd);
      if (answered >= 0) ::close(answered);
      continue;
    }
    Value conn = connection_ports(vm, fd, ip, true);
    SocketInput* in = socket_input(car(conn));
    in->conn().answered_fd = answered;
    in->conn().handed = true;
    in->preload(bytes);
    HttpConn& c = http_conn(in);
    c.handed = true;
    c.handed_error = why;
    return conn;
  }
}

// ---- static files ----

// True if name is a relative path that stays below its folder: no empty
// name, no leading /, no NUL, no .. segment.
bool safe_relative(const std::string& name) {
  if (name.empty() || name[0] == '/' || name.find('\0') != std::string::npos) return false;
  size_t i = 0;
  while (i <= name.size()) {
    size_t j = name.find('/', i);
    if (j == std::string::npos) j = name.size();
    if (name.compare(i, j - i, "..") == 0) return false;
    i = j + 1;
  }
  return true;
}

bool parse_http_date(const std::string& s, time_t& out) {
  tm t{};
  const char* end = strptime(s.c_str(), "%a, %d %b %Y %H:%M:%S GMT", &t);
  if (!end) return false;
  out = timegm(&t);
  return true;
}

// (%http-file str req dir name header max-age): answers a request for the
// static file dir/name into str: the file under header (a type-header*
// text) with its Last-Modified and ETag, or 304 when the request's
// If-None-Match or If-Modified-Since shows the client has it. nil if there
// is no such regular file inside dir (symlinks are followed only while
// they stay inside), which srv.arc answers with a 404.
Value bi_http_file(VM& vm, Value* args, int) {
  ResponsePort* r = response_port(vm, "%http-file", args[0]);
  std::string dir = arg_text(vm, "%http-file", args[2]);
  std::string name = arg_text(vm, "%http-file", args[3]);
  if (!safe_relative(name)) return NIL;
  char real_dir[PATH_MAX], real_file[PATH_MAX];
  std::string path = dir + (dir.empty() || dir.back() == '/' ? "" : "/") + name;
  if (!realpath(dir.c_str(), real_dir) || !realpath(path.c_str(), real_file)) return NIL;
  std::string base = real_dir;
  if (base.back() != '/') base += '/';
  if (std::string(real_file).rfind(base, 0) != 0) return NIL;
  int fd = open(real_file, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return NIL;
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return NIL;
  }
  char etag[64];
  snprintf(etag, sizeof etag, "\"%llx-%llx\"", (unsigned long long)st.st_size,
           (unsigned long long)(st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec));
  std::string modified = http::http_date(st.st_mtim.tv_sec);
  std::string validators = "Last-Modified: " + modified + "\nETag: " + etag + "\n";
  if (args[5].is_fixnum())
    validators += "Cache-Control: max-age=" + std::to_string(args[5].as_fixnum()) + "\n";
  // Is the client's copy current? If-None-Match wins over If-Modified-Since.
  // The headers are the request table's (nil: a request made by hand).
  bool fresh = false;
  Value headers = TYPE(args[1]) == Kind::Table ? table_get(args[1], kHeaders.get(vm)) : NIL;
  std::string inm, ims;
  for (Value h = headers; TYPE(h) == Kind::Cons; h = cdr(h)) {
    Value kv = car(h);
    if (TYPE(kv) != Kind::Cons || TYPE(cdr(kv)) != Kind::Cons) continue;
    if (!is_string(car(kv)) || !is_string(car(cdr(kv)))) continue;
    std::string k = string_utf8(car(kv));
    if (k == "if-none-match" && inm.empty()) inm = string_utf8(car(cdr(kv)));
    if (k == "if-modified-since" && ims.empty()) ims = string_utf8(car(cdr(kv)));
  }
  if (!inm.empty()) {
    fresh = inm == "*";
    // Any of a list of tags (weak ones compare weakly, as for GET).
    for (size_t i = 0; !fresh && i < inm.size();) {
      size_t j = inm.find(',', i);
      if (j == std::string::npos) j = inm.size();
      std::string tag(inm, i, j - i);
      while (!tag.empty() && (tag.front() == ' ' || tag.front() == '\t')) tag.erase(0, 1);
      while (!tag.empty() && (tag.back() == ' ' || tag.back() == '\t')) tag.pop_back();
      if (tag.rfind("W/", 0) == 0) tag.erase(0, 2);
      fresh = tag == etag;
      i = j + 1;
    }
  } else if (!ims.empty()) {
    time_t t;
    fresh = parse_http_date(ims, t) && st.st_mtim.tv_sec <= t;
  }
  if (fresh) {
    ::close(fd);
    r->buf += "HTTP/1.1 304 Not Modified\n" + validators + "\n";
    return T;
  }
  std::string header = is_string(args[4]) ? string_utf8(args[4]) : "HTTP/1.1 200 OK";
  while (!header.empty() && (header.back() == '\n' || header.back() == '\r')) header.pop_back();
  r->buf += header + "\n" + validators + "\n";
  size_t at = r->buf.size();
  r->buf.resize(at + size_t(st.st_size));
  size_t got = 0;
  while (got < size_t(st.st_size)) {
    ssize_t n = read(fd, r->buf.data() + at + got, size_t(st.st_size) - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += size_t(n);
  }
  r->buf.resize(at + got);
  ::close(fd);
  return T;
}

Value bi_response_port(VM& vm, Value*, int) { return make_port(vm, new ResponsePort()); }

Value bi_port_reset(VM& vm, Value* args, int) {
  response_port(vm, "%port-reset", args[0])->reset();
  return NIL;
}

// (%http-status in): the status of the response %http-send last sent on
// the connection (0 before the first), which the request log records.
Value bi_http_status(VM& vm, Value* args, int) {
  return Value::fixnum(http_conn(arg_socket_in(vm, "%http-status", args[0])).status);
}

Value bi_http_reason(VM& vm, Value* args, int) {
  return str(vm, http::reason(int(arg_fixnum(vm, "%http-reason", args[0]))));
}

// (http-date (o secs (seconds))): the date as HTTP writes it.
Value bi_http_date(VM& vm, Value* args, int nargs) {
  int64_t t = nargs > 0 ? arg_fixnum(vm, "http-date", args[0]) : int64_t(time(nullptr));
  return str(vm, http::http_date(t));
}

const BuiltinDef kDefs[] = {
    {"%http-read", bi_http_read, 4, 4, "(%http-read in ip limits dflt): the next request"},
    {"%http-send", bi_http_send, 3, 3, "(%http-send out str in): send a handler's response"},
    {"%http-status", bi_http_status, 1, 1, "(%http-status in): the last response's status"},
    {"%http-error", bi_http_error, 4, 4, "(%http-error out in status msg): answer an error"},
    {"%http-file", bi_http_file, 6, 6,
     "(%http-file str req dir name header max-age): a static file"},
    {"%srv-hand-over", bi_srv_hand_over, 3, 3,
     "(%srv-hand-over in w wait): hand the connection and its request to worker w"},
    {"%srv-handed", bi_srv_handed, 0, 0,
     "the next connection handed to this worker (in out ip); nil outside workers"},
    {"%response-port", bi_response_port, 0, 0, "a port collecting a response"},
    {"%port-reset", bi_port_reset, 1, 1, "empty a response port"},
    {"%http-reason", bi_http_reason, 1, 1, "the reason phrase of a status code"},
    {"http-date", bi_http_date, 0, 1, "(http-date (o secs)): an HTTP date string"},
};

}  // namespace

void register_http_builtins(VM& vm) { define_builtins(vm, kDefs); }

}  // namespace vm
