// io/server.h — the process-level side of srv.arc's server: being told to
// stop (SIGTERM, and SIGINT outside the REPL), and the pre-forked workers
// of arcana --workers N.
//
// Stopping. %srv-signals installs the handlers; a signal sets a flag and
// makes an eventfd readable. Every thread of the server that waits for a
// new connection or for the next request of an idle connection also waits
// for that descriptor (wait_io's wake_fd), so all of them see the stop at
// once: the accept loop ends, idle connections close, and the requests in
// flight finish (srv.arc's %srv-finish gives them srv-grace* seconds).
//
// Workers. With --workers N, %srv-open reserves the port (a socket bound
// with SO_REUSEPORT but not listening, which also resolves port 0), then
// forks N children. Each child opens its own listening socket on that port
// (SO_REUSEPORT: the kernel spreads new connections over them) and returns
// to srv.arc's serve loop; the parent never returns: it prints the ready
// line once every child listens, restarts a child that dies, and on
// SIGTERM or SIGINT passes the signal on, waits for the children (each
// stops as above), and exits 0. Workers share nothing but the port and the
// files: for applications that keep no state in memory between requests,
// or keep it coherent through a store they share (the news site's SQLite
// store, apps/news/store-sqlite.arc).
#pragma once

namespace vm {

class VM;

// True once a stop signal has arrived (after %srv-signals).
bool server_stopping();
// Readable once stopping; -1 before %srv-signals.
int server_stop_fd();

// The SIGINT handler of a script (arcana FILE, -e: repl/main.cpp), which a
// server started by the script takes over: there Ctrl-C stops the server
// gracefully, as without it. The REPL's handler it leaves alone.
void set_script_sigint_handler(void (*handler)(int));

void register_server_builtins(VM& vm);

}  // namespace vm
