// io/socket.h — TCP sockets (docs/LANGUAGE.md 4.11): a listening socket is an Arc
// object of its own (type `socket`); a connection is two ports, an input
// and an output, sharing one descriptor.
//
// Every descriptor here is non-blocking, and every wait parks the calling
// green thread on the scheduler's epoll (wait_io, docs/ARCHITECTURE.md invariant 7): an
// accept, a read that finds nothing, a write into a full send buffer. The
// descriptor of a connection is closed when both of its ports are closed,
// or collected (as files are); force-close resets it at once.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "vm/object.h"
#include "vm/port.h"

namespace vm {

class VM;

// A socket and a connection keep the VM that made them, whose threads
// they wait with and wake on closing (vm/thread.h), for their close and
// finalizer, which are given no VM (as vm/port.h's descriptors do).
struct ListenSocket {
  GcHeader h;
  int fd;
  int port;  // the bound port (the one the kernel chose for port 0)
  VM* vm;
};

// The descriptor of one connection, shared by its two ports.
struct SocketConn {
  explicit SocketConn(VM& v) : vm(v) {}
  VM& vm;
  int fd = -1;
  std::string ip;           // the peer's address
  uint64_t created_ns = 0;  // when it was accepted (monotonic_ns)
  bool in_open = true, out_open = true;
  // Of a connection another worker handed to this one (io/server.h): the
  // end of a pipe the sender watches, closed as soon as this process has
  // written to the connection or lets it go; if it closes with nothing
  // written (this process died), the sender answers 503 itself.
  int answered_fd = -1;
  bool handed = false;  // it came so (the sender may hold it a moment more)
  ~SocketConn() { close_fd(); }
  // Closes the descriptor (waking the threads parked on it).
  void close_fd();
  // Closes answered_fd: the connection has had bytes of an answer.
  void answered();
  // Closes it with a reset: unsent output is dropped (SO_LINGER 0).
  void reset();
};

// Something a subsystem keeps with a connection's input port (the HTTP
// parser state of io/http.cpp).
struct PortExtension {
  virtual ~PortExtension() = default;
};

class SocketInput final : public PortImpl {
 public:
  SocketInput(VM& vm, std::shared_ptr<SocketConn> c);
  ~SocketInput() override;
  void write_bytes(const char*, size_t) override {}
  void close() override;
  void abort() override;
  int fd() const override { return conn_->fd; }
  const std::string& ip() const { return conn_->ip; }
  SocketConn& conn() { return *conn_; }

  // The buffer, for readers that parse it in place (io/http.cpp).
  const char* data() const { return buf_.get() + pos_; }
  size_t avail() const { return end_ - pos_; }
  void consume(size_t n) { pos_ += n; }
  enum class Fill { Data, Eof, Timeout, Woken, Reset };
  // Reads what has arrived into the buffer (after what is unconsumed),
  // waiting until the deadline (0: none) or until wake_fd is readable.
  Fill fill(uint64_t deadline_ns, int wake_fd = -1);
  // Puts bytes in front of what will be read from the socket: those
  // another worker read of a connection it handed over (io/server.h).
  void preload(const std::string& bytes);
  // Frees the buffer if nothing is left in it (an idle connection between
  // requests holds none; fill allocates it again).
  void drop_empty_buffer() {
    if (pos_ == end_) {
      buf_.reset();
      pos_ = end_ = 0;
    }
  }
  std::unique_ptr<PortExtension> ext;

 protected:
  int next_byte() override;
  int look_byte() override;

 private:
  bool refill();   // for readc and friends: false at end of input
  void release();  // frees the buffer and ext (closing)
  VM& vm_;
  std::shared_ptr<SocketConn> conn_;
  std::unique_ptr<char[]> buf_;  // allocated on the first read
  size_t cap_ = 0, pos_ = 0, end_ = 0;
  bool drained_ = false;  // the last read emptied the socket (fill waits first)
};

class SocketOutput final : public PortImpl {
 public:
  SocketOutput(VM& vm, std::shared_ptr<SocketConn> c);
  ~SocketOutput() override;
  void write_bytes(const char* p, size_t n) override;
  std::string* out_buffer() override { return closed || conn_->fd < 0 ? nullptr : &buf_; }
  void wrote(size_t from) override;
  void flush() override;
  void close() override;
  void abort() override;
  int fd() const override { return conn_->fd; }
  const std::string& ip() const { return conn_->ip; }
  SocketConn& conn() { return *conn_; }

  enum class Sent { Done, Timeout, Failed };
  // Writes what is buffered, then the pieces given (header and body of a
  // response, gathered by writev), waiting for the peer as needed until the
  // deadline (0: none). Failed: the peer reset or closed; err says why.
  Sent send(const char* const* pieces, const size_t* sizes, int n, uint64_t deadline_ns,
            int* err = nullptr);

 private:
  void close_quietly();
  VM& vm_;
  std::shared_ptr<SocketConn> conn_;
  std::string buf_;
  bool draining_ = false;
};

SocketInput* socket_input(Value port);    // null unless a socket's input port
SocketOutput* socket_output(Value port);  // null unless a socket's output port

// A listening TCP socket on port (0: any free one) of host (empty: every
// interface, IPv4 and IPv6). reuse_port: other sockets may bind the same
// port (SO_REUSEPORT: the server's workers); listen: false only binds,
// which reserves the port. Arc errors for what fails.
Value open_listen_socket(VM& vm, int port, const std::string& host, bool reuse_port, bool listen);
// Accepts a connection on the socket in *slot (a rooted place, such as a
// builtin's argument: it is read again after each wait, as the collector
// may move the socket meanwhile): the list (in out ip), or nil if wake_fd
// became readable first. Raises Arc errors for failures (EMFILE...).
Value accept_connection(VM& vm, Value* slot, int wake_fd);
// A builtin's TCP port argument, 0 to 65535.
int arg_port(VM& vm, const char* fn, Value v);
// Closes a listening socket (close and force-close: KindOps::close); again
// is harmless.
void close_listen_socket(Value s, bool force);
// How write and disp show one: #<socket PORT> (KindOps::print).
void print_listen_socket(Value s, std::string& out);
// The address of a connected socket's peer, as accept gives it; empty if
// it has none (the peer is gone).
std::string peer_address(int fd);
// Sets up a connection's two ports for an accepted descriptor.
Value connection_ports(VM& vm, int fd, const std::string& ip, bool with_ip);
// text, an IPv4 or IPv6 address, written as the server writes a peer's
// (the ip of socket-accept): so that addresses given by people or proxies
// compare equal to it. Empty if text is not an address.
std::string normal_ip(const std::string& text);

void register_socket_kind(gc::Heap& h);
void register_socket_builtins(VM& vm);

}  // namespace vm
