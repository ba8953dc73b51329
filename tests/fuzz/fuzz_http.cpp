// tests/fuzz/fuzz_http.cpp — a libFuzzer target for the HTTP layer
// (io/http.h): the request parser driven as the server drives it
// (io/http_builtins.cpp's %http-read), each request parsed turned into the
// Arc request table, and the input completed as if a handler had written
// it. Built by `make fuzz` (CMakeLists.txt, ARCANA_FUZZ) with ASan and
// UBSan; a crash, a sanitizer report or a broken invariant below fails.
// The connection is served twice, in the input's reads and all at once:
// how the bytes arrive must not change the requests or the answer.
//
// An input is
//   byte 0     flags: bits 0-2 the number of split bytes (0: all at once);
//              bits 3-4 the body limit (none, a byte, a byte squared, 0);
//              bit 5 small parser limits (a byte each for URI and header);
//              bit 6 HTTP/1.0 and bit 7 keep-alive, for complete_response
//   then       the split bytes: the reads' sizes (each byte + 1), in turn
//   then       the bytes the limits take
//   the rest   what the peer sends; the connection closes after it.
#include <sanitizer/lsan_interface.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/runtime.h"
#include "gc/heap.h"
#include "io/http.h"
#include "vm/print.h"

namespace {

using vm::http::RequestParser;
using State = RequestParser::State;

compiler::Runtime* runtime = nullptr;

[[noreturn]] void broken(const char* what) {
  fprintf(stderr, "fuzz_http: invariant broken: %s\n", what);
  abort();
}
#define EXPECT(cond)            \
  do {                          \
    if (!(cond)) broken(#cond); \
  } while (0)

struct Reader {
  const uint8_t* p;
  size_t n;
  uint8_t byte() {
    if (n == 0) return 0;
    --n;
    return *p++;
  }
};

bool error_status_ok(int s) {
  return s == 400 || s == 405 || s == 413 || s == 414 || s == 431 || s == 501 || s == 505;
}

void check_request(vm::http::Request& r, uint64_t body_limit) {
  EXPECT(r.method == "GET" || r.method == "HEAD" || r.method == "POST");
  EXPECT(r.major == 1);
  EXPECT(r.body.size() <= body_limit);
  if (r.content_length > 0) EXPECT(r.body.size() == r.content_length);
  size_t hosts = 0;
  for (auto& [k, v] : r.headers) {
    for (char c : k) EXPECT(!(c >= 'A' && c <= 'Z'));
    hosts += k == "host";
  }
  // RFC 9112 3.2: one Host in HTTP/1.1, at most one in HTTP/1.0.
  EXPECT(hosts == 1 || (hosts == 0 && r.minor == 0));
  // The request line was method SP target SP version: no space or control
  // byte in the target.
  for (char c : r.target) EXPECT(uint8_t(c) > ' ' && uint8_t(c) < 0x7f);
  // Into Arc. The values need no roots: nothing collects inside the call.
  int status = 0;
  std::string message;
  vm::VM& vm = runtime->vm();
  vm::Value t = vm::http::request_to_arc(vm, r, "127.0.0.1", 1700000000000, status, message);
  if (status != 0) {
    EXPECT(status == 400);
    EXPECT(t == vm::NIL);
    EXPECT(!message.empty());
  } else {
    EXPECT(t != vm::NIL);
    (void)vm::write_string(vm, t);
  }
}

void check_error(RequestParser& p) {
  EXPECT(p.state() == State::Error);
  EXPECT(error_status_ok(p.error_status()));
  std::string r = vm::http::simple_response(p.error_status(), p.error_message(), false);
  const std::string& m = p.error_message();
  EXPECT(r.size() >= m.size() && r.compare(r.size() - m.size(), m.size(), m) == 0);
}

void check_response(std::string_view written, bool http10, bool keep_alive) {
  std::string head;
  vm::http::ResponseInfo info = vm::http::complete_response(written, http10, keep_alive, head);
  EXPECT(info.body_offset <= written.size());
  EXPECT(info.body_size <= written.size() - info.body_offset);
  EXPECT(info.status >= 100 && info.status <= 999);
  EXPECT(head.compare(0, 9, "HTTP/1.1 ") == 0);
  EXPECT(head.size() >= 4 && head.compare(head.size() - 4, 4, "\r\n\r\n") == 0);
  // Every line of the head ends \r\n; the head has no blank line but its end.
  EXPECT(head.find("\r\n\r\n") == head.size() - 4);
  for (size_t i = head.find('\n'); i != std::string::npos; i = head.find('\n', i + 1))
    EXPECT(i > 0 && head[i - 1] == '\r');
  bool bodiless =
      (info.status >= 100 && info.status < 200) || info.status == 204 || info.status == 304;
  if (bodiless) EXPECT(info.body_size == 0);
  else
    EXPECT(head.find("\r\nContent-Length: " + std::to_string(info.body_size) + "\r\n") !=
           std::string::npos);
  EXPECT((head.find("\r\nConnection: close\r\n") != std::string::npos) == !keep_alive);
}

std::string describe(const vm::http::Request& r) {
  std::string s = r.method + ' ' + r.target + ' ' + std::to_string(r.major) + '.' +
                  std::to_string(r.minor) + '\n';
  for (auto& [k, v] : r.headers) s += k + ": " + v + '\n';
  s += std::to_string(r.keep_alive) + std::to_string(r.expect_continue) +
       std::to_string(r.upgrade) + ' ' + std::to_string(r.content_length) + '\n' + r.body;
  return s;
}

struct Outcome {
  std::vector<std::string> requests;  // describe() of each request parsed
  int error = 0;                      // the answer that ended the connection, if any
};

// Serves a connection as %http-read does: the peer's bytes arrive in reads
// of the sizes in splits (all at once if none), the body limit is set when
// a head is complete, a request answered closes the connection unless it
// keeps it alive, the peer closes after its last byte. With check, each
// request is also checked and turned into the Arc request table.
Outcome serve(std::string_view peer, const std::vector<size_t>& splits,
              const vm::http::Limits& limits, uint64_t body_limit, bool check) {
  Outcome o;
  RequestParser p(limits);
  std::string buf;  // received, not yet consumed (the socket input's buffer)
  size_t sent = 0, k = 0;
  bool closed = false;  // the server ends the connection
  while (!closed) {
    if (sent < peer.size()) {
      size_t n = splits.empty() ? peer.size() : splits[k++ % splits.size()];
      n = std::min(n, peer.size() - sent);
      buf.append(peer.substr(sent, n));
      sent += n;
    }
    // Parse what is buffered.
    for (;;) {
      if (p.state() == State::Done) {
        vm::http::Request& r = p.request();
        o.requests.push_back(describe(r));
        if (check) check_request(r, body_limit);
        if (!r.keep_alive || r.upgrade) {
          closed = true;
          break;
        }
        p.next();
        continue;
      }
      if (p.state() == State::Error) {
        if (check) check_error(p);
        o.error = p.error_status();
        closed = true;
        break;
      }
      if (buf.empty()) break;
      State before = p.state();
      size_t used = p.feed(buf.data(), buf.size());
      EXPECT(used <= buf.size());
      buf.erase(0, used);
      if ((before == State::Idle || before == State::Head) && p.state() == State::Body) {
        p.set_body_limit(body_limit);
        if (p.request().content_length > body_limit) {  // the server's own check
          o.error = 413;
          closed = true;
          break;
        }
        continue;
      }
      if (used == 0) {
        // No byte used and no new state: the parser would stall the connection.
        EXPECT(p.state() != before);
        if (p.state() == State::Done || p.state() == State::Error) continue;
        break;
      }
    }
    if (!closed && sent == peer.size()) {
      // The peer has sent everything and closes.
      State s = p.state();
      p.eof();
      if (s == State::Head || s == State::Body) {
        if (check) check_error(p);
        EXPECT(p.error_status() == 400);
        o.error = p.error_status();
      } else {
        EXPECT(p.state() == s);
      }
      if (s == State::Idle) EXPECT(!p.started());
      closed = true;
    }
  }
  return o;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // Kept for the whole run, never destroyed. LeakSanitizer does not scan
  // the collector's heap, so what only the heap's objects point to (the
  // standard ports' PortImpls) would look leaked: what the runtime makes
  // here is left out of leak checking.
  __lsan_disable();
  runtime = new compiler::Runtime();
  __lsan_enable();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Reader in{data, size};
  uint8_t flags = in.byte();
  std::vector<size_t> splits;
  for (int i = 0; i < (flags & 7); ++i) splits.push_back(size_t(in.byte()) + 1);
  uint64_t body_limit = UINT64_MAX;
  switch ((flags >> 3) & 3) {
    case 1: body_limit = in.byte(); break;
    case 2: {
      uint64_t b = in.byte();
      body_limit = b * b;
      break;
    }
    case 3: body_limit = 0; break;
  }
  vm::http::Limits limits;
  if (flags & 0x20) {
    limits.max_uri = 1 + in.byte();
    limits.max_header = 1 + size_t(in.byte()) * 8;
  }
  std::string_view peer(reinterpret_cast<const char*>(in.p), in.n);

  Outcome split = serve(peer, splits, limits, body_limit, true);
  if (!splits.empty()) {
    // However the bytes arrive, the requests and the answer are the same.
    Outcome whole = serve(peer, {}, limits, body_limit, false);
    EXPECT(whole.requests == split.requests);
    EXPECT(whole.error == split.error);
  }

  check_response(peer, flags & 0x40, flags & 0x80);

  // Nothing is live in C++ between inputs: a safe point for the heap.
  gc::Heap& heap = runtime->vm().heap();
  if (heap.collection_wanted()) heap.collect_minor();
  return 0;
}
