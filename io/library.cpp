// io/library.cpp — the I/O library's one entry (io/io.h): its builtins,
// and the socket kind's functions, for the heap and for the core's printer
// and close.
#include <string>

#include "io/io.h"
#include "io/server.h"
#include "io/socket.h"
#include "vm/vm.h"

namespace vm {

namespace {

void open_io(VM& vm) {
  register_socket_kind(vm.heap());
  vm.set_kind_ops(Kind::Socket, KindOps{print_listen_socket, close_listen_socket});
  register_os_builtins(vm);
  register_socket_builtins(vm);
  register_http_builtins(vm);
  register_server_builtins(vm);
  register_crypto_builtins(vm);
  register_sqlite_builtins(vm);
}

}  // namespace

const Library kIoLibrary{"io", open_io};

}  // namespace vm
