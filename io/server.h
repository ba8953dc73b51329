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
// stops as above), and exits 0. Workers share nothing but the port, the
// files and the channels below: for applications that keep no state in
// memory between requests, or keep it coherent through a store they share
// (the news site's SQLite store, apps/news/store-sqlite.arc).
//
// Closures. A fnid (srv.arc's closures as links and forms) lives in the
// worker that made it, which writes its index into the fnid's name; a
// request naming another worker's fnid is answered by that worker. Before
// the first fork the parent makes one channel per worker (a Unix
// SOCK_SEQPACKET socket pair, whose receiving end only that worker reads,
// and whose sending end every other worker writes; the parent keeps both,
// so a restarted worker gets its channel again, with what was sent to it
// meanwhile). A worker that reads such a request sends the connection's
// descriptor over the owner's channel (SCM_RIGHTS) with the bytes it has
// read of it (the request, and any pipelined behind it: in the message,
// or past kHandOverInline in a memfd sent along), then closes its own
// descriptor; the owner serves the connection as if it had accepted it,
// its input port reading those bytes first (io/http_builtins.cpp,
// %srv-hand-over and %srv-handed).
//
// A connection is never left without an answer because its owner died
// while it was being handed over. The sender sends along the write end of
// a pipe, which the owner closes once it has written to the connection
// (SocketConn::answered_fd), and keeps the connection open until then.
// The pipe closes with nothing written when the owner died after taking
// the message (in its handler, say): the sender, which can tell from the
// connection's count of bytes written that no byte of an answer went out,
// answers 503 itself. A message still in the channel when its owner dies
// stays there (the parent holds the channel) for the restarted worker,
// which answers it: the expired-link answer, since the closures died.
#pragma once

#include <cstdint>
#include <string>

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

// This process's worker index, -1 outside the workers.
int server_worker();
// How many workers have channels: N with --workers N (N >= 2), else 0.
int worker_channels();
// Sends the connection fd, with bytes (what was read of it), to worker w,
// waiting until deadline_ns while its channel is full. The descriptor
// stays this process's to close. false, with why, if it could not be sent;
// true, with answered the read end of the pipe the owner closes once it
// has written to the connection (for await_handed_answer).
bool hand_over_connection(VM& vm, int w, int fd, const std::string& bytes, uint64_t deadline_ns,
                          std::string& why, int& answered);
// The bytes written to TCP connection fd since it was opened (what the
// peer acknowledged and what waits in the send queue), or -1 if unknown.
int64_t connection_bytes_written(int fd);
// After a hand-over: waits (parked) until the owner closes its end of the
// pipe answered, or the server is told to stop, or deadline_ns passes
// (the owner still holds the connection then), and closes answered.
// false if the owner is gone without a byte written to connection fd
// since written_before (connection_bytes_written before the hand-over):
// the connection is still unanswered, and this process answers it.
bool await_handed_answer(VM& vm, int answered, int fd, int64_t written_before,
                         uint64_t deadline_ns);
enum class Handed { Connection, Unreadable, None };
// Waits (parked on the scheduler's epoll) for the next connection handed
// to this worker: Connection, with its descriptor, the bytes read of it
// and the sender's pipe (answered: to close once written to, or -1);
// Unreadable, with its descriptor and pipe, when those bytes did not
// arrive whole (why says why: the caller answers 503); None in a process
// with no channel.
Handed receive_connection(VM& vm, int& fd, std::string& bytes, std::string& why, int& answered);

void register_server_builtins(VM& vm);

}  // namespace vm
