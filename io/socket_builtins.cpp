// io/socket_builtins.cpp — the networking builtins of docs/LANGUAGE.md 4.11:
// open-socket, socket-accept, client-ip; and beyond Arc 3.1, socket-port
// (the port a socket listens on, for port 0) and connect-socket (a client
// connection, for clients and tests). w/socket is in lib.arc.
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "io/socket.h"
#include "vm/builtins.h"
#include "vm/error.h"
#include "vm/string.h"
#include "vm/thread.h"
#include "vm/vm.h"

namespace vm {

namespace {

Value arg_socket(VM& vm, const char* fn, Value v) {
  if (TYPE(v) != Kind::Socket) type_error(vm, fn, "a socket", v);
  return v;
}

std::string host_arg(VM& vm, const char* fn, Value* args, int nargs, int i) {
  if (nargs <= i || args[i].is_nil()) return "";
  return arg_text(vm, fn, args[i]);
}

// (open-socket port (o host)): listen on port of host (all interfaces by
// default, as Arc 3.1); port 0 takes a free one (socket-port tells which).
Value bi_open_socket(VM& vm, Value* args, int nargs) {
  int port = arg_port(vm, "open-socket", args[0]);
  return open_listen_socket(vm, port, host_arg(vm, "open-socket", args, nargs, 1), false, true);
}

Value bi_socket_port(VM& vm, Value* args, int) {
  return Value::fixnum(arg_socket(vm, "socket-port", args[0]).as<ListenSocket>()->port);
}

// (socket-accept s): waits (as a thread) for a connection: (in out ip).
Value bi_socket_accept(VM& vm, Value* args, int) {
  arg_socket(vm, "socket-accept", args[0]);
  return accept_connection(vm, &args[0], -1);
}

Value bi_client_ip(VM& vm, Value* args, int) {
  if (SocketInput* in = socket_input(args[0])) return make_string_utf8(vm, in->ip());
  if (SocketOutput* out = socket_output(args[0])) return make_string_utf8(vm, out->ip());
  type_error(vm, "client-ip", "a socket port", args[0]);
}

// (connect-socket host port): a connection to host:port, as (in out). The
// connect waits as a thread; a host name is looked up first (getaddrinfo,
// which does wait for the resolver).
Value bi_connect_socket(VM& vm, Value* args, int) {
  std::string host = arg_text(vm, "connect-socket", args[0]);
  int port = arg_port(vm, "connect-socket", args[1]);
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICSERV;
  addrinfo* res = nullptr;
  std::string service = std::to_string(port);
  int rc = getaddrinfo(host.c_str(), service.c_str(), &hints, &res);
  if (rc != 0) throw_error(vm, "connect-socket: unknown host " + host + ": " + gai_strerror(rc));
  int fd = -1, err = ECONNREFUSED;
  for (addrinfo* a = res; a && fd < 0; a = a->ai_next) {
    fd = socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) {
      err = errno;
      continue;
    }
    if (connect(fd, a->ai_addr, a->ai_addrlen) != 0) {
      if (errno == EINPROGRESS) {
        try {
          wait_io(vm, fd, true, 0, -1, true);
        } catch (...) {
          close_fd(vm, fd);
          freeaddrinfo(res);
          throw;
        }
        socklen_t len = sizeof err;
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
      } else {
        err = errno;
      }
      if (err) close_fd(vm, fd);
    }
  }
  freeaddrinfo(res);
  if (fd < 0)
    throw_error(vm,
                "connect-socket: cannot connect to " + host + ":" + service + ": " + strerror(err));
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return connection_ports(vm, fd, host, false);
}

// (%ip-address s): what srv.arc checks X-Forwarded-For's addresses and
// trusted-proxies* with.
Value bi_ip_address(VM& vm, Value* args, int) {
  std::string ip = normal_ip(arg_text(vm, "%ip-address", args[0]));
  return ip.empty() ? NIL : make_string_utf8(vm, ip);
}

const BuiltinDef kDefs[] = {
    {"open-socket", bi_open_socket, 1, 2, "(open-socket port (o host)): a listening TCP socket"},
    {"socket-port", bi_socket_port, 1, 1, "the port a listening socket is bound to"},
    {"socket-accept", bi_socket_accept, 1, 1, "wait for a connection: (in out ip)"},
    {"client-ip", bi_client_ip, 1, 1, "the peer's IP address of a socket port"},
    {"connect-socket", bi_connect_socket, 2, 2, "(connect-socket host port): (in out)"},
    {"%ip-address", bi_ip_address, 1, 1,
     "(%ip-address s): s as the server writes an IP address, nil if s is none"},
};

}  // namespace

void register_socket_builtins(VM& vm) { define_builtins(vm, kDefs); }

}  // namespace vm
