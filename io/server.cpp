// io/server.cpp — see server.h: stop signals, the workers of --workers,
// the workers' channels that hand a connection to the worker owning its
// closure (server.h), and the server's builtins that are about processes
// and threads rather than HTTP (%srv-open, %srv-accept, %srv-signals,
// %srv-stopping, %srv-worker, %srv-generation, %srv-bump-generation,
// %alarm).
#include "io/server.h"

#include <fcntl.h>
#include <linux/sockios.h>
#include <linux/tcp.h>
#include <malloc.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "io/socket.h"
#include "vm/builtins.h"
#include "vm/error.h"
#include "vm/number.h"
#include "vm/port.h"
#include "vm/symbol.h"
#include "vm/table.h"
#include "vm/thread.h"
#include "vm/vm.h"

namespace vm {

namespace {

// Process-wide: SIGTERM/SIGINT's handler sets them, and a signal belongs to
// the process (the server's workers are processes of their own).
volatile sig_atomic_t g_stopping = 0;
int g_stop_fd = -1;
int g_worker = -1;  // this worker's index; -1 in a process that is none

// The workers' generation: a counter in memory the parent maps shared
// before it forks them, so that every worker, and one started again, sees
// the same word. A worker bumps it after each commit to a store they share
// (apps/news/store-sqlite.arc), and one that reads the value it saw last
// knows that no other worker has committed since, for a load and a
// compare, where asking the database costs a read transaction.
std::atomic<uint64_t>* g_generation = nullptr;

// The workers' channels (server.h), one per worker, made by the parent
// before the first fork. In worker i only channels[i].recv and the others'
// send ends are open; the parent keeps every end, for restarts.
struct Channel {
  int recv = -1, send = -1;
};
std::vector<Channel> g_channels;

// What a channel carries: this header, then the bytes read of the
// connection, or nothing when they are in the memfd sent as the second
// descriptor (past kHandOverInline: a message must fit in the socket's
// send buffer, and a request may have a body of a megabyte). The last
// descriptor is the write end of the sender's pipe (server.h).
struct HandOverHeader {
  uint32_t magic;
  int32_t from;       // the sending worker
  uint64_t size;      // of the bytes read
  uint32_t in_memfd;  // 1: the bytes are in the second descriptor
};
constexpr uint32_t kHandOverMagic = 0x41524348;  // "ARCH"
constexpr size_t kHandOverInline = 16 * 1024;

void make_channels(VM& vm, int n) {
  if (n < 2 || !g_channels.empty()) return;
  for (int i = 0; i < n; ++i) {
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0) {
      int err = errno;
      for (Channel& c : g_channels) ::close(c.recv), ::close(c.send);
      g_channels.clear();
      throw_error(vm, std::string("serve: cannot make the workers' channels: ") + strerror(err));
    }
    // How much may wait for a worker that takes nothing (busy in a long
    // handler, or stopped) before its senders wait: a size of our own
    // (the kernel doubles it, within net.core.wmem_max) rather than the
    // system's default, so that it is alike on every machine.
    int sndbuf = 256 * 1024;
    setsockopt(sv[1], SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof sndbuf);
    g_channels.push_back(Channel{sv[0], sv[1]});
  }
}

// In worker i, just forked: the ends it does not use are closed.
void keep_own_channel(int i) {
  for (size_t j = 0; j < g_channels.size(); ++j) {
    int& drop = j == size_t(i) ? g_channels[j].send : g_channels[j].recv;
    ::close(drop);
    drop = -1;
  }
}

void on_stop_signal(int) {
  int saved = errno;  // a handler must not change errno under the code it interrupts
  g_stopping = 1;
  if (g_stop_fd >= 0) {
    uint64_t one = 1;
    (void)!write(g_stop_fd, &one, sizeof one);
  }
  errno = saved;
}

void install(int sig, void (*handler)(int), bool restart) {
  struct sigaction sa {};
  sa.sa_handler = handler;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = restart ? SA_RESTART : 0;
  sigaction(sig, &sa, nullptr);
}

// SIGINT is the server's to handle only where nothing else took it (the
// REPL has its own: there Ctrl-C breaks the main thread, as ever).
void (*g_script_sigint)(int) = nullptr;  // set_script_sigint_handler

bool sigint_free() {
  struct sigaction old {};
  sigaction(SIGINT, nullptr, &old);
  return old.sa_handler == SIG_DFL || old.sa_handler == on_stop_signal ||
         (g_script_sigint && old.sa_handler == g_script_sigint);
}

void install_stop_signals(bool restart) {
  if (g_stop_fd < 0) g_stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  install(SIGTERM, on_stop_signal, restart);
  if (sigint_free()) install(SIGINT, on_stop_signal, restart);
}

// A server holds a descriptor per connection: the soft limit goes up to
// the hard one (often 1,024 against 524,288).
void raise_fd_limit() {
  rlimit r{};
  if (getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur < r.rlim_max) {
    r.rlim_cur = r.rlim_max;
    setrlimit(RLIMIT_NOFILE, &r);
  }
}

// ---- workers ----

struct Worker {
  pid_t pid = -1;
  time_t started = 0;
};

// Forks worker i. In the child: returns true, set up to serve. In the
// parent: records the child and returns false.
bool fork_worker(VM& vm, std::vector<Worker>& ws, int i) {
  flush_quietly(vm.out_port());  // else both processes would write what is buffered
  flush_quietly(vm.err_port());
  vm.heap().before_fork();  // a collector's thread (gen's marker) stopped, for the child's own
  pid_t pid = fork();
  if (pid < 0) {
    std::fprintf(stderr, "arcana: cannot fork a worker: %s\n", strerror(errno));
    return false;
  }
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGTERM);  // the parent gone, stop too
    g_worker = i;
    g_stopping = 0;
    keep_own_channel(i);
    install(SIGTERM, SIG_DFL, true);  // until this worker's serve installs its own
    install(SIGINT, SIG_DFL, true);
    scheduler_after_fork(vm);
    // A worker that spins while it waits for events (thread.cpp's
    // wait_for_events) keeps its core busy with looking; with as many
    // workers as cores, that core is one another worker or the client
    // needs, so such a worker sleeps in epoll at once.
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    set_scheduler_spin(vm, cores > 0 && long(ws.size()) < cores);
    return true;
  }
  ws[size_t(i)] = Worker{pid, time(nullptr)};
  return false;
}

// The parent's life: wait for the workers to listen, print the ready line,
// restart those that die, and on a stop signal stop them and exit 0.
// Returns only in a (re)started child: the descriptor it writes a byte to
// once it listens.
int supervise(VM& vm, int nworkers, int port, const std::string& host_text) {
  std::vector<Worker> ws(static_cast<size_t>(nworkers));
  int ready[2];
  if (pipe2(ready, O_CLOEXEC) != 0) throw_error(vm, "serve: cannot make a pipe for the workers");
  install_stop_signals(false);  // no SA_RESTART: the signal cuts waitpid short
  for (int i = 0; i < nworkers; ++i)
    if (fork_worker(vm, ws, i)) {
      ::close(ready[0]);
      return ready[1];
    }
  // Each child writes a byte once it listens (a child that fails to is
  // not waited for past 10 s; its death is reported below).
  time_t give_up = time(nullptr) + 10;
  for (int got = 0; got < nworkers && !g_stopping && time(nullptr) < give_up;) {
    pollfd p{ready[0], POLLIN, 0};
    if (poll(&p, 1, 1000) <= 0) continue;
    char b;
    if (read(ready[0], &b, 1) == 1) ++got;
  }
  std::string line = "ready to serve port " + std::to_string(port) + " (" +
                     std::to_string(nworkers) + " workers" + host_text + ")\n";
  PortImpl* out = port_impl(vm.out_port());
  out->write_str(line);
  flush_quietly(vm.out_port());
  double grace = number_or(vm, global_value(intern(vm, "srv-grace*")), 10);
  bool forwarded = false;
  time_t stop_at = 0;
  for (;;) {
    if (g_stopping && !forwarded) {
      for (auto& w : ws)
        if (w.pid > 0) kill(w.pid, SIGTERM);
      forwarded = true;
      stop_at = time(nullptr);
    }
    int status;
    pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0) {
      if (errno == EINTR) {
        // Past the grace period (and a margin), what is left is killed.
        if (forwarded && time(nullptr) - stop_at > grace + 5)
          for (auto& w : ws)
            if (w.pid > 0) kill(w.pid, SIGKILL);
        continue;
      }
      break;  // ECHILD: none left
    }
    int i = 0;
    while (i < nworkers && ws[size_t(i)].pid != pid) ++i;
    if (i == nworkers) continue;
    ws[size_t(i)].pid = -1;
    if (g_stopping) {
      bool any = false;
      for (auto& w : ws) any |= w.pid > 0;
      if (!any) break;
      continue;
    }
    std::fprintf(stderr, "arcana: worker %d (pid %d) %s %d; restarting it\n", i, int(pid),
                 WIFSIGNALED(status) ? "died of signal" : "exited with status",
                 WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
    // One that dies at once would be restarted in a tight loop.
    if (time(nullptr) - ws[size_t(i)].started < 1) sleep(1);
    if (g_stopping) continue;
    if (fork_worker(vm, ws, i)) {
      ::close(ready[0]);
      return ready[1];
    }
  }
  exit_process(vm, 0);
}

// ---- builtins ----

// (%srv-open port host): the server's listening socket. With --workers N
// this process becomes the workers' parent and only the workers return,
// each with a socket of its own (server.h).
Value bi_srv_open(VM& vm, Value* args, int) {
  int port = arg_port(vm, "serve", args[0]);
  std::string host = args[1].is_nil() ? "" : arg_text(vm, "serve", args[1]);
  raise_fd_limit();
  int n = vm.options().workers;
  if (n <= 0 || g_worker >= 0) return open_listen_socket(vm, port, host, false, true);
  if (!vm.heap().fork_safe())
    throw_error(vm, std::string("--workers needs a collector without a thread of its own (not ") +
                        vm.heap().name() + ")");
  if (!g_generation) {
    void* p = mmap(nullptr, sizeof(std::atomic<uint64_t>), PROT_READ | PROT_WRITE,
                   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p != MAP_FAILED) g_generation = new (p) std::atomic<uint64_t>(0);
  }
  make_channels(vm, n);
  // The reservation: bound, never listening, so no connection waits on it.
  Value reserve = open_listen_socket(vm, port, host, true, false);
  ListenSocket* rs = reserve.as<ListenSocket>();
  int bound = rs->port, rfd = rs->fd;
  int ready_fd = supervise(vm, n, bound, host.empty() ? "" : ", " + host);
  // A worker: its own socket on the port, then tell the parent.
  Value s = open_listen_socket(vm, bound, host, true, true);
  ::close(rfd);
  reserve.as<ListenSocket>()->fd = -1;
  char b = 1;
  (void)!write(ready_fd, &b, 1);
  ::close(ready_fd);
  return s;
}

Value bi_srv_signals(VM&, Value*, int) {
  install_stop_signals(true);
  return NIL;
}

Value bi_srv_stopping(VM&, Value*, int) { return boolean(g_stopping != 0); }

Value bi_srv_worker(VM&, Value*, int) { return g_worker >= 0 ? Value::fixnum(g_worker) : NIL; }

// (%srv-generation): the workers' generation (a fixnum), or nil in a
// process that is not a worker.
Value bi_srv_generation(VM&, Value*, int) {
  if (g_worker < 0 || !g_generation) return NIL;
  return Value::fixnum(
      int64_t(g_generation->load(std::memory_order_acquire) & ((uint64_t(1) << 61) - 1)));
}

// (%srv-bump-generation): a worker's commit, told to the others.
Value bi_srv_bump_generation(VM&, Value*, int) {
  if (g_worker >= 0 && g_generation) g_generation->fetch_add(1, std::memory_order_acq_rel);
  return NIL;
}

// (%srv-accept s): a connection (in out ip), or nil once the server is
// told to stop.
Value bi_srv_accept(VM& vm, Value* args, int) {
  if (TYPE(args[0]) != Kind::Socket) type_error(vm, "%srv-accept", "a socket", args[0]);
  if (g_stopping) return NIL;
  return accept_connection(vm, &args[0], g_stop_fd);
}

// (%trim-memory keep (o collect)): gives back to the system the pages of
// vacant fiber and thread stacks (all but the keep most recent), the room
// of output ports' empty buffers, and the free memory of the C++ heap
// (malloc_trim): what a burst of connections used, once it is over. With collect, first a full
// collection, after which the collector gives back what it kept for growth
// (Heap::release_spare_memory): for a server gone idle. The number of
// stacks given back. (A builtin call is a safe point: see bi_gc.)
Value bi_trim_memory(VM& vm, Value* args, int nargs) {
  size_t keep = size_t(arg_index(vm, "%trim-memory", args[0]));
  if (nargs > 1 && args[1].truthy()) {
    vm.collect_garbage();
    vm.heap().release_spare_memory();
  }
  size_t n = vm.has_fiber_pool() ? vm.fiber_pool().trim(keep) : 0;
  release_output_buffers();
  malloc_trim(0);
  return Value::fixnum(int64_t(n));
}

// (%alarm secs): break this thread in secs seconds; (%alarm nil) cancels.
Value bi_alarm(VM& vm, Value* args, int) {
  if (args[0].is_nil()) {
    set_alarm(vm, -1);
    return NIL;
  }
  if (!is_number(args[0])) type_error(vm, "%alarm", "a number of seconds or nil", args[0]);
  set_alarm(vm, number_to_double(vm, args[0]));
  return NIL;
}

// (%opstats-add s ns m0): adds one request to s, an op's entry of
// srv.arc's opstats* (a table of totals): ns nanoseconds of handler time,
// and the work of this thread since its meter read m0 ((%meter) at the
// handler's start). In C++ because it runs for every request, where the
// same work in Arc was a large share of a cheap page (docs/ARCHITECTURE.md,
// "Measurements behind the code").
Value bi_opstats_add(VM& vm, Value* a, int) {
  const char* fn = "%opstats-add";
  Value s = arg_table(vm, fn, a[0]);
  double ms = number_to_double(vm, arg_number(vm, fn, a[1])) / 1e6;
  Value m[4];
  Value l = a[2];
  for (Value& x : m) {
    if (TYPE(l) != Kind::Cons) type_error(vm, fn, "a reading of %meter", a[2]);
    x = car(l);
    l = cdr(l);
  }
  if (!m[3].is_fixnum() && !is_number(m[3])) type_error(vm, fn, "a reading of %meter", a[2]);
  WorkMeter then;
  then.objects = uint64_t(arg_fixnum(vm, fn, m[1]));
  then.bytes = uint64_t(arg_fixnum(vm, fn, m[2]));
  then.gc_ms = number_to_double(vm, m[3]);
  WorkMeter now = thread_meter(vm);
  WorkMeter d = now - then;
  static const CachedSymbol kRequests("requests"), kMs("ms"), kCounted("counted"),
      kDispatches("dispatches"), kAllocations("allocations"), kBytes("bytes"), kGcMs("gc-ms");
  auto add = [&](const CachedSymbol& key, Value v) {
    Value k = key.get(vm);
    table_put(vm, s, k, num_add(vm, table_get(s, k, Value::fixnum(0)), v));
  };
  add(kRequests, Value::fixnum(1));
  add(kMs, make_flonum(vm, ms));
  if (!m[0].is_nil() && g_profile.count_types) {
    add(kCounted, Value::fixnum(1));
    add(kDispatches, make_integer(vm, int64_t(now.dispatches) - arg_fixnum(vm, fn, m[0])));
  }
  add(kAllocations, make_integer(vm, int64_t(d.objects)));
  add(kBytes, make_integer(vm, int64_t(d.bytes)));
  add(kGcMs, make_flonum(vm, d.gc_ms));
  return NIL;
}

const BuiltinDef kDefs[] = {
    {"%opstats-add", bi_opstats_add, 3, 3,
     "(%opstats-add s ns m0): one request of ns nanoseconds and its work since (%meter) read m0, "
     "added to s"},
    {"%srv-open", bi_srv_open, 2, 2, "the server's listening socket (forks the --workers)"},
    {"%srv-signals", bi_srv_signals, 0, 0, "SIGTERM (and SIGINT outside the REPL) stop the server"},
    {"%srv-stopping", bi_srv_stopping, 0, 0, "t once the server has been told to stop"},
    {"%srv-worker", bi_srv_worker, 0, 0, "this worker's index, or nil"},
    {"%srv-generation", bi_srv_generation, 0, 0,
     "the workers' shared generation, moved by each commit to a shared store; nil outside them"},
    {"%srv-bump-generation", bi_srv_bump_generation, 0, 0,
     "moves the workers' generation (after a commit)"},
    {"%srv-accept", bi_srv_accept, 1, 1, "a connection (in out ip), or nil when stopping"},
    {"%alarm", bi_alarm, 1, 1, "break this thread in secs seconds; nil cancels"},
    {"%trim-memory", bi_trim_memory, 1, 2,
     "give idle stacks and free heap pages back to the system; with collect, after a full "
     "collection"},
};

}  // namespace

bool server_stopping() { return g_stopping != 0; }
int server_worker() { return g_worker; }
int worker_channels() { return g_worker >= 0 ? int(g_channels.size()) : 0; }

bool hand_over_connection(VM& vm, int w, int fd, const std::string& bytes, uint64_t deadline,
                          std::string& why, int& answered) {
  std::string who = "worker " + std::to_string(w);
  if (w < 0 || size_t(w) >= g_channels.size() || w == g_worker || g_channels[size_t(w)].send < 0) {
    why = "no channel to " + who;
    return false;
  }
  struct Owned {  // the memfd and the pipe, however this ends (a break while it waits)
    int fd = -1;
    ~Owned() {
      if (fd >= 0) ::close(fd);
    }
  } mem, pipe_r, pipe_w;
  int p[2];
  if (pipe2(p, O_CLOEXEC | O_NONBLOCK) != 0) {
    why = std::string("cannot hand the connection to ") + who + ": " + strerror(errno);
    return false;
  }
  pipe_r.fd = p[0];
  pipe_w.fd = p[1];
  HandOverHeader h{kHandOverMagic, int32_t(g_worker), bytes.size(), 0};
  if (bytes.size() > kHandOverInline) {
    mem.fd = memfd_create("arcana-request", MFD_CLOEXEC);
    int err = errno;
    for (size_t done = 0; mem.fd >= 0 && done < bytes.size();) {
      ssize_t n = ::write(mem.fd, bytes.data() + done, bytes.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        err = n < 0 ? errno : ENOSPC;
        ::close(mem.fd);
        mem.fd = -1;
        break;
      }
      done += size_t(n);
    }
    if (mem.fd < 0) {
      why = std::string("cannot keep the request for ") + who + ": " + strerror(err);
      return false;
    }
    h.in_memfd = 1;
  }
  iovec iov[2] = {{&h, sizeof h}, {const_cast<char*>(bytes.data()), bytes.size()}};
  int fds[3] = {fd, mem.fd, pipe_w.fd};
  size_t nfds = 2;
  if (mem.fd >= 0) nfds = 3;
  else fds[1] = pipe_w.fd;
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof fds)] = {};
  msghdr m{};
  m.msg_iov = iov;
  m.msg_iovlen = h.in_memfd ? 1 : 2;
  m.msg_control = control;
  m.msg_controllen = CMSG_SPACE(sizeof(int) * nfds);
  cmsghdr* c = CMSG_FIRSTHDR(&m);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof(int) * nfds);
  memcpy(CMSG_DATA(c), fds, sizeof(int) * nfds);
  int ch = g_channels[size_t(w)].send;
  for (;;) {
    if (::sendmsg(ch, &m, MSG_DONTWAIT | MSG_NOSIGNAL) >= 0) {
      answered = pipe_r.fd;  // (the write end is closed here: the owner holds it now)
      pipe_r.fd = -1;
      return true;
    }
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
      // The owner has not taken what was sent to it (busy, or stopped): the
      // wait is bounded, as one for a place under max-conns* is.
      if (wait_io(vm, ch, true, deadline) == IoWait::Timeout) {
        why = who + " takes no connection (its channel is full)";
        return false;
      }
      continue;
    }
    why = "cannot hand the connection to " + who + ": " + strerror(errno);
    return false;
  }
}

int64_t connection_bytes_written(int fd) {
  tcp_info ti{};
  socklen_t len = sizeof ti;
  if (fd < 0 || getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len) != 0 ||
      len < offsetof(tcp_info, tcpi_bytes_acked) + sizeof ti.tcpi_bytes_acked)
    return -1;
  int queued = 0;  // written and not yet acknowledged (sent or not)
  if (ioctl(fd, SIOCOUTQ, &queued) != 0) return -1;
  return int64_t(ti.tcpi_bytes_acked) + queued;
}

bool await_handed_answer(VM& vm, int answered, int fd, int64_t written_before, uint64_t deadline) {
  if (answered < 0) return true;
  struct Closed {  // however this ends (a break while it waits)
    VM& vm;
    int fd;
    ~Closed() { close_fd(vm, fd); }
  } pipe{vm, answered};
  for (;;) {
    char b;
    ssize_t n = ::read(answered, &b, 1);
    if (n == 0) break;  // the owner's end closed: written to, let go, or its process gone
    if (n > 0 || errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK) break;
    // A stopping server does not wait for the owner: it is stopping too.
    if (wait_io(vm, answered, false, deadline, g_stop_fd) != IoWait::Ready) return true;
  }
  if (written_before < 0) return true;
  int64_t now = connection_bytes_written(fd);
  return now < 0 || now != written_before;
}

Handed receive_connection(VM& vm, int& fd, std::string& bytes, std::string& why, int& answered) {
  if (g_worker < 0 || size_t(g_worker) >= g_channels.size()) return Handed::None;
  int ch = g_channels[size_t(g_worker)].recv;
  if (ch < 0) return Handed::None;
  static std::vector<char> inline_bytes(kHandOverInline);
  for (;;) {
    HandOverHeader h{};
    iovec iov[2] = {{&h, sizeof h}, {inline_bytes.data(), inline_bytes.size()}};
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * 4)] = {};
    msghdr m{};
    m.msg_iov = iov;
    m.msg_iovlen = 2;
    m.msg_control = control;
    m.msg_controllen = sizeof control;
    ssize_t n = ::recvmsg(ch, &m, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK)
        throw_error(vm, std::string("cannot read this worker's channel: ") + strerror(errno));
      wait_io(vm, ch, false, 0, -1, true);  // the channel is never closed: kept registered
      continue;
    }
    if (n == 0) return Handed::None;  // (the parent holds the sending end: not while it lives)
    std::vector<int> got;
    for (cmsghdr* c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c))
      if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
        for (size_t k = 0; k < (c->cmsg_len - CMSG_LEN(0)) / sizeof(int); ++k) {
          int d;
          memcpy(&d, CMSG_DATA(c) + k * sizeof(int), sizeof d);
          got.push_back(d);
        }
    // No descriptor (this process is out of them: MSG_CTRUNC): the
    // connection is gone, closed with the sender's last reference.
    if (got.empty()) continue;
    fd = got[0];
    // The sender's pipe is the last, when all came: its descriptor is
    // kept even when the bytes did not come whole (then this worker
    // answers 503, so the sender must not).
    answered = got.size() >= 2 ? got.back() : -1;
    if (answered >= 0) got.pop_back();
    bytes.clear();
    why.clear();
    if ((m.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) || size_t(n) < sizeof h ||
        h.magic != kHandOverMagic || got.size() != (h.in_memfd ? 2u : 1u)) {
      why = "a connection handed over without its request";
    } else if (!h.in_memfd) {
      if (size_t(n) - sizeof h != h.size)
        why = "a request handed by worker " + std::to_string(h.from) + " cut short";
      else bytes.assign(inline_bytes.data(), h.size);
    } else {
      bytes.resize(h.size);
      size_t done = 0;
      while (done < h.size) {
        ssize_t r = ::pread(got[1], bytes.data() + done, h.size - done, off_t(done));
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        done += size_t(r);
      }
      if (done != h.size) {
        why = "a request handed by worker " + std::to_string(h.from) + " cut short";
        bytes.clear();
      }
    }
    for (size_t k = 1; k < got.size(); ++k) ::close(got[k]);
    return why.empty() ? Handed::Connection : Handed::Unreadable;
  }
}
void set_script_sigint_handler(void (*handler)(int)) { g_script_sigint = handler; }
int server_stop_fd() { return g_stop_fd; }

void register_server_builtins(VM& vm) { define_builtins(vm, kDefs); }

}  // namespace vm
