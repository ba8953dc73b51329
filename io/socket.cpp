// io/socket.cpp — see socket.h: listening sockets, the ports of a
// connection, and the system calls under them.
#include "io/socket.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "vm/builtins.h"
#include "vm/error.h"
#include "vm/string.h"
#include "vm/thread.h"
#include "vm/vm.h"

namespace vm {

namespace {

// A connection's input buffer starts small enough to share its page with
// other allocations (a request is usually a few hundred bytes; a server's
// memory grows with the connections it holds at once), and doubles when a
// read fills it, up to kInBufMax.
constexpr size_t kInBufStart = 2 * 1024;
constexpr size_t kInBufMax = 16 * 1024;
// Output is sent once this much is buffered (or on flush).
constexpr size_t kOutBufSize = 64 * 1024;

[[noreturn]] void sys_error(VM& vm, const std::string& what, int err) {
  throw_error(vm, what + ": " + strerror(err));
}

// The peer's address as text; an IPv4 client of a dual-stack socket shows
// as 1.2.3.4, not ::ffff:1.2.3.4.
std::string address_text(const sockaddr_storage& a) {
  char buf[INET6_ADDRSTRLEN] = "";
  if (a.ss_family == AF_INET) {
    inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in&>(a).sin_addr, buf, sizeof buf);
  } else if (a.ss_family == AF_INET6) {
    auto& a6 = reinterpret_cast<const sockaddr_in6&>(a);
    if (IN6_IS_ADDR_V4MAPPED(&a6.sin6_addr))
      inet_ntop(AF_INET, &a6.sin6_addr.s6_addr[12], buf, sizeof buf);
    else inet_ntop(AF_INET6, &a6.sin6_addr, buf, sizeof buf);
  }
  return buf;
}

ListenSocket* listen_socket(Value v) { return v.as<ListenSocket>(); }

}  // namespace

std::string normal_ip(const std::string& text) {
  sockaddr_storage a{};
  if (text.find('\0') != std::string::npos) return "";
  if (inet_pton(AF_INET, text.c_str(), &reinterpret_cast<sockaddr_in&>(a).sin_addr) == 1) {
    a.ss_family = AF_INET;
  } else if (inet_pton(AF_INET6, text.c_str(), &reinterpret_cast<sockaddr_in6&>(a).sin6_addr) ==
             1) {
    a.ss_family = AF_INET6;
  } else {
    return "";
  }
  return address_text(a);
}

// ---- the descriptor ----

void SocketConn::close_fd() {
  // A connection another worker handed here may be open there still (it
  // closes its descriptor once it sees this process's first write): the
  // end of the output goes to the peer now, not when the last holder
  // closes.
  if (handed && fd >= 0) shutdown(fd, SHUT_WR);
  answered();
  vm::close_fd(vm, fd);
}

void SocketConn::answered() {
  if (answered_fd >= 0) ::close(answered_fd);
  answered_fd = -1;
}

void SocketConn::reset() {
  if (fd < 0) return;
  linger l{1, 0};
  setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof l);
  handed = false;  // a reset, not an orderly end
  close_fd();
}

// ---- input ----

SocketInput::SocketInput(VM& vm, std::shared_ptr<SocketConn> c) : vm_(vm), conn_(std::move(c)) {
  is_input = true;
  name = "socket";
}

SocketInput::~SocketInput() {
  if (!closed) close();
}

// Closing frees the buffer and the HTTP state at once rather than when
// the port is collected: a port that lived through a few collections is
// old, and waits for a major collection, which a server busy with short
// requests may not have for a long time.
void SocketInput::close() {
  conn_->in_open = false;
  if (!conn_->out_open) conn_->close_fd();
  release();
  PortImpl::close();
}

void SocketInput::abort() {
  conn_->in_open = conn_->out_open = false;
  conn_->reset();
  release();
  PortImpl::close();
}

void SocketInput::release() {
  buf_.reset();
  pos_ = end_ = 0;
  ext.reset();
}

SocketInput::Fill SocketInput::fill(uint64_t deadline, int wake_fd) {
  if (closed) return Fill::Eof;
  // new[] without (): make_unique would zero it, touching every page, where
  // a read touches only the pages it fills.
  if (!buf_) {
    cap_ = kInBufStart;
    buf_.reset(new char[cap_]);
  }
  if (pos_ == end_) pos_ = end_ = 0;
  if (end_ == cap_ && pos_ > 0) {  // make room: move what is left down
    memmove(buf_.get(), buf_.get() + pos_, end_ - pos_);
    end_ -= pos_;
    pos_ = 0;
  }
  if (end_ == cap_ && cap_ < kInBufMax) {
    std::unique_ptr<char[]> bigger(new char[cap_ * 2]);
    memcpy(bigger.get(), buf_.get(), end_);
    buf_ = std::move(bigger);
    cap_ *= 2;
  }
  if (end_ == cap_) return Fill::Data;  // full: the reader must consume first
  for (;;) {
    if (conn_->fd < 0) return Fill::Eof;
    if (!drained_) {
      size_t room = cap_ - end_;
      ssize_t n = ::read(conn_->fd, buf_.get() + end_, room);
      if (n > 0) {
        end_ += size_t(n);
        // Less than asked: the socket is empty now, and what arrives later
        // is an edge the scheduler keeps, so the next fill waits first
        // instead of a read that would find nothing.
        drained_ = size_t(n) < room;
        return Fill::Data;
      }
      if (n == 0) return Fill::Eof;
      if (errno == EINTR) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK) return Fill::Reset;
    }
    drained_ = false;
    switch (wait_io(vm_, conn_->fd, false, deadline, wake_fd, true)) {
      case IoWait::Ready: break;
      case IoWait::Timeout: return Fill::Timeout;
      case IoWait::Woken: return Fill::Woken;
    }
  }
}

void SocketInput::preload(const std::string& bytes) {
  if (bytes.empty()) return;
  // Held whole, however large: the parser takes every byte until its
  // request ends, and drop_empty_buffer frees it after.
  size_t have = end_ - pos_;
  size_t cap = std::max(kInBufStart, bytes.size() + have);
  std::unique_ptr<char[]> b(new char[cap]);
  memcpy(b.get(), bytes.data(), bytes.size());
  if (have) memcpy(b.get() + bytes.size(), buf_.get() + pos_, have);
  buf_ = std::move(b);
  cap_ = cap;
  pos_ = 0;
  end_ = bytes.size() + have;
}

bool SocketInput::refill() {
  if (pos_ < end_) return true;
  switch (fill(0)) {
    case Fill::Data: return true;
    case Fill::Reset: throw_error(vm_, "cannot read from socket: connection reset by peer");
    default: return false;
  }
}

int SocketInput::next_byte() { return refill() ? uint8_t(buf_[pos_++]) : -1; }
int SocketInput::look_byte() { return refill() ? uint8_t(buf_[pos_]) : -1; }

// ---- output ----

SocketOutput::SocketOutput(VM& vm, std::shared_ptr<SocketConn> c) : vm_(vm), conn_(std::move(c)) {
  is_output = true;
  name = "socket";
}

SocketOutput::~SocketOutput() {
  if (!closed) close_quietly();
}

void SocketOutput::write_bytes(const char* p, size_t n) {
  if (closed || conn_->fd < 0) return;
  size_t from = buf_.size();
  buf_.append(p, n);
  wrote(from);
}

void SocketOutput::wrote(size_t) {
  if (buf_.size() >= kOutBufSize) flush();
}

void SocketOutput::flush() {
  if (draining_) return;  // another thread of this port is sending it all
  int err = 0;
  if (send(nullptr, nullptr, 0, 0, &err) == Sent::Failed)
    throw_error(vm_, std::string("cannot write to socket: ") + strerror(err));
}

SocketOutput::Sent SocketOutput::send(const char* const* pieces, const size_t* sizes, int n,
                                      uint64_t deadline, int* err) {
  struct Guard {  // however the send ends (a break while it waits)
    SocketOutput& port;
    ~Guard() { port.draining_ = false; }
  } g{*this};
  draining_ = true;
  // The pieces go after what is buffered. Another thread writing to this
  // port while this one waits appends to a fresh buffer (the one sent here
  // was moved out, so nothing it points into moves); that is sent in the
  // next round, so the port is empty when send returns.
  for (bool pieces_sent = false;;) {
    std::string head;
    head.swap(buf_);
    iovec iov[8];
    int niov = 0;
    if (!head.empty()) iov[niov++] = iovec{head.data(), head.size()};
    if (!pieces_sent)
      for (int i = 0; i < n && niov < 8; ++i)
        if (sizes[i]) iov[niov++] = iovec{const_cast<char*>(pieces[i]), sizes[i]};
    pieces_sent = true;
    if (niov == 0) return Sent::Done;
    int first = 0;
    while (first < niov) {
      if (conn_->fd < 0) {
        if (err) *err = EPIPE;
        buf_.clear();
        return Sent::Failed;
      }
      msghdr m{};
      m.msg_iov = iov + first;
      m.msg_iovlen = size_t(niov - first);
      ssize_t w = ::sendmsg(conn_->fd, &m, MSG_NOSIGNAL);
      if (w < 0) {
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
          if (wait_io(vm_, conn_->fd, true, deadline, -1, true) == IoWait::Timeout) {
            buf_.clear();
            return Sent::Timeout;
          }
          continue;
        }
        if (err) *err = errno;
        buf_.clear();  // dropped: the error is reported once
        return Sent::Failed;
      }
      if (w > 0) conn_->answered();
      size_t left = size_t(w);
      while (first < niov && left >= iov[first].iov_len) left -= iov[first++].iov_len;
      if (first < niov) {
        iov[first].iov_base = static_cast<char*>(iov[first].iov_base) + left;
        iov[first].iov_len -= left;
      }
    }
  }
}

void SocketOutput::close_quietly() {
  // Never waits: this also runs from the collector's finalizer. What the
  // send buffer does not take at once is dropped.
  if (!buf_.empty() && conn_->fd >= 0)
    (void)!::send(conn_->fd, buf_.data(), buf_.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
  buf_.clear();
  conn_->out_open = false;
  if (conn_->fd >= 0) {
    if (conn_->in_open) shutdown(conn_->fd, SHUT_WR);  // the peer sees the end of our output
    else conn_->close_fd();
  }
}

void SocketOutput::close() {
  if (!closed && !draining_ && !buf_.empty() && conn_->fd >= 0) {
    int err;
    send(nullptr, nullptr, 0, 0, &err);  // a closing writer waits for its output to go
  }
  close_quietly();
  PortImpl::close();
}

void SocketOutput::abort() {
  buf_.clear();
  conn_->in_open = conn_->out_open = false;
  conn_->reset();
  PortImpl::close();
}

SocketInput* socket_input(Value v) {
  if (TYPE(v) != Kind::Port || !port_impl(v)) return nullptr;
  return dynamic_cast<SocketInput*>(port_impl(v));
}

SocketOutput* socket_output(Value v) {
  if (TYPE(v) != Kind::Port || !port_impl(v)) return nullptr;
  return dynamic_cast<SocketOutput*>(port_impl(v));
}

// ---- listening and accepting ----

Value open_listen_socket(VM& vm, int port, const std::string& host, bool reuse_port,
                         bool do_listen) {
  if (port < 0 || port > 65535) throw_error(vm, "open-socket: no such port", {Value::fixnum(port)});
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* res = nullptr;
  std::string service = std::to_string(port);
  // Every interface: the IPv6 wildcard, which takes IPv4 too (V6ONLY off).
  const char* node = host.empty() ? "::" : host.c_str();
  int rc = getaddrinfo(node, service.c_str(), &hints, &res);
  if (rc != 0 && host.empty()) {  // no IPv6 here: IPv4's wildcard
    node = "0.0.0.0";
    rc = getaddrinfo(node, service.c_str(), &hints, &res);
  }
  if (rc != 0)
    throw_error(vm, std::string("open-socket: unknown host ") + node + ": " + gai_strerror(rc));
  int fd = -1, err = 0;
  for (addrinfo* a = res; a; a = a->ai_next) {
    fd = socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) {
      err = errno;
      continue;
    }
    int one = 1, zero = 0;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (reuse_port) setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one);
    if (a->ai_family == AF_INET6 && host.empty())
      setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof zero);
    // Responses go out whole (one writev); Nagle would hold back a second
    // segment. Accepted sockets inherit it (Linux), a system call each saved.
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    // A deep queue: connections wait there while the server is at its
    // connection limit (the kernel caps it at net.core.somaxconn).
    if (bind(fd, a->ai_addr, a->ai_addrlen) == 0 && (!do_listen || listen(fd, 4096) == 0)) break;
    err = errno;
    ::close(fd);
    fd = -1;
  }
  freeaddrinfo(res);
  if (fd < 0) sys_error(vm, "open-socket: cannot listen on port " + std::to_string(port), err);
  sockaddr_storage a{};
  socklen_t len = sizeof a;
  getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  int bound = a.ss_family == AF_INET ? ntohs(reinterpret_cast<sockaddr_in&>(a).sin_port)
                                     : ntohs(reinterpret_cast<sockaddr_in6&>(a).sin6_port);
  ListenSocket* s = alloc<ListenSocket>(vm, Kind::Socket);
  s->fd = fd;
  s->port = bound;
  s->vm = &vm;
  return Value::ref(s);
}

std::string peer_address(int fd) {
  sockaddr_storage a{};
  socklen_t len = sizeof a;
  if (getpeername(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0) return "";
  return address_text(a);
}

Value connection_ports(VM& vm, int fd, const std::string& ip, bool with_ip) {
  auto conn = std::make_shared<SocketConn>(vm);
  conn->fd = fd;
  conn->ip = ip;
  conn->created_ns = monotonic_ns();
  // The ports are made before any Value is held: allocation never collects.
  Value in = make_port(vm, new SocketInput(vm, conn));
  Value out = make_port(vm, new SocketOutput(vm, conn));
  return with_ip ? list(vm, {in, out, make_string_utf8(vm, ip)}) : list(vm, {in, out});
}

Value accept_connection(VM& vm, Value* slot, int wake_fd) {
  for (;;) {
    ListenSocket* s = listen_socket(*slot);  // again after each wait: it may move
    if (s->fd < 0) throw_error(vm, "socket-accept: the socket is closed");
    sockaddr_storage a{};
    socklen_t len = sizeof a;
    int fd = accept4(s->fd, reinterpret_cast<sockaddr*>(&a), &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd >= 0) return connection_ports(vm, fd, address_text(a), true);
    int err = errno;
    if (err == EINTR || err == ECONNABORTED || err == EPROTO) continue;
    if (err != EAGAIN && err != EWOULDBLOCK) sys_error(vm, "socket-accept", err);
    if (wait_io(vm, s->fd, false, 0, wake_fd, true) == IoWait::Woken) return NIL;
  }
}

int arg_port(VM& vm, const char* fn, Value v) {
  int64_t p = arg_fixnum(vm, fn, v);
  if (p < 0 || p > 65535) type_error(vm, fn, "a port number (0 to 65535)", v);
  return int(p);
}

void close_listen_socket(Value sv, bool) {
  ListenSocket* s = listen_socket(sv);
  close_fd(*s->vm, s->fd);
}

void print_listen_socket(Value sv, std::string& out) {
  out += "#<socket " + std::to_string(listen_socket(sv)->port) + ">";
}

// ---- the kind ----

namespace {

size_t listen_size(const GcHeader*) { return sizeof(ListenSocket); }

void listen_finalize(GcHeader* h) {
  auto* s = reinterpret_cast<ListenSocket*>(h);
  close_fd(*s->vm, s->fd);
}

}  // namespace

void register_socket_kind(gc::Heap& h) {
  h.register_kind(uint8_t(Kind::Socket),
                  gc::KindInfo{"Socket", listen_size, nullptr, listen_finalize});
}

}  // namespace vm
