// io/io.h — the I/O and web library: what a program reaches outside the
// VM through. Files and processes (io/os.cpp), TCP sockets (io/socket.h),
// the HTTP parser and the builtins srv.arc serves with (io/http.h,
// io/http_builtins.cpp), the server's signals and workers (io/server.h),
// libsodium's hashes and random tokens (io/crypto.cpp), and SQLite
// databases (io/sqlite.cpp). It sits on the core (vm/) and registers
// itself through vm/library.h; the core links none of libhttp-parser,
// libsodium or libsqlite3.
#pragma once
#include "vm/library.h"

namespace vm {

// Opens the library in a VM (vm/library.h).
extern const Library kIoLibrary;

// The library's areas; kIoLibrary's open calls each once.
void register_os_builtins(VM& vm);      // files, directories, shell commands, setuid
void register_http_builtins(VM& vm);    // requests, responses, static files (srv.arc)
void register_crypto_builtins(VM& vm);  // password hashes, random strings (libsodium)
void register_sqlite_builtins(VM& vm);  // SQLite: sql-open, sql-exec, sql-query, sql-close

}  // namespace vm
