// vm/thread.cpp — green threads: the scheduler, the atomic lock, and the
// builtins of docs/LANGUAGE.md 4.12 (new-thread, current-thread, kill-thread,
// break-thread, sleep, dead, atomic-invoke).
//
// The model. A thread is a line of execution with its own VM stack and
// machine stack (a stack-pool slot; the main thread keeps the process's). One
// OS thread runs them one at a time. Switching is symmetric: the running
// thread saves its execution state (ExecState, the running fiber, its ports)
// into its ThreadImpl, loads the next thread's into the VM, and switches
// machine stacks; whoever later switches back loads its state the same way.
// There is no scheduler fiber: the thread that gives up the processor runs
// the scheduling decision itself, and when nothing is runnable it waits in
// epoll on everybody's behalf.
//
// A thread gives up the processor when it
//  - sleeps: a timer (an ordered multimap of monotonic deadlines, in
//    nanoseconds) wakes it; the wait is epoll_pwait2 with a nanosecond
//    timeout (a timerfd on kernels without it), and the OS thread's timer
//    slack is set to 1 us, so a 100 us sleep is not rounded to milliseconds;
//  - waits for a descriptor: registered in epoll, level-triggered while it
//    waits (pipes, terminals, children) or kept edge-triggered (sockets;
//    see FdWaiters);
//  - waits for the atomic lock (handed over in FIFO order on release);
//  - runs out of its instruction budget: VM::preempt_budget counts down at
//    every call and backward jump (the interpreter's safe points); at zero
//    the safe point calls scheduler_tick, which wakes due timers and ready
//    descriptors and moves the thread to the back of the run queue if
//    another is runnable. While only one thread exists the count is long
//    (VM::kIdleSafePoints) and the slow path finds nothing to switch to; the
//    same count serves the collector, the profiler and Ctrl-C, whose pokes
//    take the slow path at once without ending the slice (VM::kPoke).
//
// Kill and break. kill-thread is immediate: the victim is marked dead at
// once, loses the lock, and the next time it is switched to it throws
// ThreadKilled, which unwinds its C++ frames (no Arc code, as in Racket) up
// to thread_entry. break-thread posts the break exception (VM::break_exc),
// interrupting a sleep or wait; it is an Arc error that on-err does not
// catch, so protect cleanups run as it unwinds. Ctrl-C breaks the main
// thread the same way whichever thread is running.
//
// A rule for code that waits: never inside a catch block. The C++ runtime
// keeps its record of the exceptions being handled per OS thread, so a
// switch there would interleave two threads' handlers (bi_system leaves its
// handler before it waits for its child).
//
// Roots. The scheduler is a RootSource: every thread that has not finished
// is a root (its Thread object, function, saved state and ports), so the
// Thread objects themselves need no trace and a finished thread's object
// dies like any other.
#include "vm/thread.h"

#include <poll.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <ctime>
#include <deque>
#include <exception>
#include <map>
#include <unordered_map>

#include "vm/builtins.h"
#include "vm/context.h"
#include "vm/error.h"
#include "vm/fiber.h"
#include "vm/number.h"
#include "vm/port.h"
#include "vm/string.h"
#include "vm/vm.h"

namespace vm {

using Timers = std::multimap<uint64_t, ThreadImpl*>;

struct ThreadImpl {
  enum State { Runnable, Running, Sleeping, WaitingFd, WaitingLock } state = Runnable;
  VM* vm = nullptr;  // its VM, for its first frame on its own stacks (thread_entry)
  bool is_main = false;
  bool started = false;   // has run (the main thread always has)
  bool finished = false;  // returned, failed or unwound
  bool killed = false;    // kill-thread: dead now, unwinding when next run
  StackSlot* slot = nullptr;
  Context ctx = nullptr;                 // where switching to it continues
  ExecState saved;                       // its execution while another thread runs
  Value fiber = NIL;                     // VM::current_fiber while another thread runs
  Value in = NIL, out = NIL, err = NIL;  // its ports, likewise
  Value fn = NIL;                        // the thunk it runs
  Value self = NIL;                      // its Thread object
  Value pending = NIL;                   // an exception to raise when it next runs (a break)
  Timers::iterator timer;
  bool has_timer = false;
  Timers::iterator alarm;  // set_alarm: when it is broken
  bool has_alarm = false;
  std::vector<int> fds;  // descriptors it waits for (WaitingFd)
  int woke_fd = -1;      // the descriptor whose readiness woke it (-1: something else)
  uint64_t number = 0;   // running_thread_number
  // Its WorkMeter: the process-wide counters when it was last switched
  // out, and what they rose by while it was out (thread_meter).
  WorkMeter left, away;
};

struct Scheduler final : gc::RootSource {
  explicit Scheduler(VM& v);
  ~Scheduler() override;
  void trace_roots(gc::Visitor& v) override;

  VM& vm;
  ThreadImpl* main = nullptr;
  ThreadImpl* current = nullptr;
  uint64_t threads_made = 0;      // numbers the next one
  std::vector<ThreadImpl*> live;  // not finished, the running one included
  std::deque<ThreadImpl*> runq;
  Timers timers;
  Timers alarms;  // set_alarm's deadlines, apart from the waits they break
  int epfd = -1;
  int timerfd = -1;  // the fallback timer when epoll_pwait2 is missing
  bool have_pwait2 = true;
  int fd_waiters = 0;  // threads waiting for descriptors
  // Who waits for each descriptor: one epoll registration per descriptor
  // (epoll allows no more), data.fd naming it. Two kinds:
  //  - level-triggered (wait_fds: pipes, terminals, children), registered
  //    while someone waits and removed after; readiness wakes every waiter
  //    and each looks again;
  //  - kept (wait_io's sockets): registered once, edge-triggered for input
  //    and output, until fd_closing, which saves two epoll_ctl calls a
  //    wait. A reader waits only after a read found nothing, so no edge is
  //    missed; readiness wakes the waiters that want what is ready.
  struct FdWaiters {
    uint32_t events = 0;
    bool kept = false;
    // A kept descriptor's readiness that came while nobody waited for it
    // (an edge is reported once): the next wait for it returns at once.
    uint32_t pending = 0;
    // What stays true once seen: the peer closed its side (RDHUP: reads
    // will find the end), or the connection is gone (HUP, ERR). A read that
    // took the last data may leave the end unread, and no edge comes again.
    uint32_t sticky = 0;
    std::vector<std::pair<ThreadImpl*, uint32_t>> threads;  // and what each waits for
  };
  std::unordered_map<int, FdWaiters> fd_table;
  std::vector<pid_t> zombies;  // children whose waiter was killed: reaped later
  bool metering = false;       // a WorkMeter was read: switches keep them

  bool watch_fd(ThreadImpl* t, int fd, uint32_t events, bool kept = false);
  void unwatch_fd(ThreadImpl* t, int fd);
  ThreadImpl* lock_owner = nullptr;
  int lock_depth = 0;
  std::deque<ThreadImpl*> lock_waiters;
  SchedulerStats stats;

  ThreadImpl* make_thread(Value fn);
  void update_budget() {
    vm.preempt_budget.store(live.size() > 1 ? kPreemptBudget : VM::kIdleSafePoints,
                            std::memory_order_relaxed);
    // The store drops pending pokes; --gc-stress's must stay, or a thread
    // switched to (or woken) would run its slice without collecting.
    if (vm.heap().stress()) vm.poke_safe_point();
  }
  void make_runnable(ThreadImpl* t, bool front = false);
  void cancel_wait(ThreadImpl* t);
  void post(ThreadImpl* t, Value exc);
  void kill(ThreadImpl* t);
  void release_lock_of(ThreadImpl* t);
  void cancel_alarm(ThreadImpl* t);
  void fire_alarms(uint64_t now);
  void poll_ready(const timespec* timeout);
  void wait_for_events();
  void wait_parked();
  // wait_for_events's spin (see there): how long, and when it last found
  // something (a time on now_ns's clock).
  static constexpr uint64_t kSpinNs = 50000;
  uint64_t last_event_ns = 0;
  bool spin = true;  // set_scheduler_spin
  void block();
  [[noreturn]] void finish(ThreadImpl* t);
  void switch_to(ThreadImpl* next);
  void after_switch(Transfer t);
  void check_pending(ThreadImpl* t);
};

namespace {

uint64_t now_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000u + uint64_t(ts.tv_nsec);
}

timespec to_timespec(uint64_t ns) {
  return timespec{time_t(ns / 1000000000u), long(ns % 1000000000u)};
}

void visit(gc::Visitor& v, Value& slot) {
  if (slot.is_ref()) v.visit(reinterpret_cast<gc::Word*>(&slot));
}

// Values left above a thread's VM stack end for the few writes a call makes
// before it checks (as for fibers).
constexpr size_t kStackHeadroom = 64;

Scheduler& sched(VM& vm) {
  if (!vm.scheduler()) vm.set_scheduler(new Scheduler(vm));
  return *vm.scheduler();
}

ThreadImpl* impl_of(Value v) { return v.as<Thread>()->impl; }

// The process-wide counters a WorkMeter is the rise of.
WorkMeter process_meter(VM& vm) {
  WorkMeter m;
  for (uint64_t n : g_profile.type_counts) m.dispatches += n;
  m.objects = vm.heap().objects_allocated_now();
  m.bytes = vm.heap().bytes_allocated_now();
  m.gc_ms = vm.heap().stats().gc_ms;
  return m;
}

void thread_entry(Transfer t);

}  // namespace

Scheduler::Scheduler(VM& v) : vm(v) {
  epfd = epoll_create1(EPOLL_CLOEXEC);
  if (epfd < 0) throw_error(vm, "threads: epoll_create1 failed");
  // Sleeps are precise to microseconds: no slack added by the kernel.
  prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
  vm.heap().add_root_source(this);
  main = make_thread(NIL);
  main->is_main = true;
  main->started = true;
  main->state = ThreadImpl::Running;
  current = main;
}

Scheduler::~Scheduler() {
  vm.heap().remove_root_source(this);
  if (epfd >= 0) close(epfd);
  if (timerfd >= 0) close(timerfd);
  vm.preempt_budget.store(VM::kIdleSafePoints, std::memory_order_relaxed);
}

void Scheduler::trace_roots(gc::Visitor& v) {
  for (ThreadImpl* t : live) {
    for (Value* slot : {&t->self, &t->fn, &t->fiber, &t->in, &t->out, &t->err, &t->pending})
      visit(v, *slot);
    trace_exec(t->saved, v);
  }
}

ThreadImpl* Scheduler::make_thread(Value fn) {
  gc::Rooted<Value> f(vm.heap(), fn);
  Thread* th = alloc<Thread>(vm, Kind::Thread);
  auto* t = new ThreadImpl();
  t->vm = &vm;
  t->number = threads_made++;
  th->impl = t;
  t->self = Value::ref(th);
  t->fn = f;
  // A new thread starts with its creator's ports (Racket's parameters).
  t->in = vm.in_port();
  t->out = vm.out_port();
  t->err = vm.err_port();
  live.push_back(t);
  vm.set_other_threads_live(live.size() > 1);
  return t;
}

void Scheduler::make_runnable(ThreadImpl* t, bool front) {
  t->state = ThreadImpl::Runnable;
  if (front) runq.push_front(t);
  else runq.push_back(t);
}

// Takes t out of whatever it waits for (not the run queue).
void Scheduler::cancel_wait(ThreadImpl* t) {
  if (t->has_timer) {
    timers.erase(t->timer);
    t->has_timer = false;
  }
  if (!t->fds.empty()) {
    for (int fd : t->fds) unwatch_fd(t, fd);
    t->fds.clear();
    --fd_waiters;
  }
  if (t->state == ThreadImpl::WaitingLock)
    lock_waiters.erase(std::remove(lock_waiters.begin(), lock_waiters.end(), t),
                       lock_waiters.end());
}

// Raises exc in t when it next runs, interrupting what it waits for.
void Scheduler::post(ThreadImpl* t, Value exc) {
  t->pending = exc;
  switch (t->state) {
    case ThreadImpl::Sleeping:
    case ThreadImpl::WaitingFd:
    case ThreadImpl::WaitingLock:
      cancel_wait(t);
      make_runnable(t, true);
      break;
    default: break;  // Runnable: it raises when it runs
  }
}

void Scheduler::release_lock_of(ThreadImpl* t) {
  if (lock_owner != t) return;
  lock_owner = nullptr;
  lock_depth = 0;
  if (!lock_waiters.empty()) {
    ThreadImpl* w = lock_waiters.front();
    lock_waiters.pop_front();
    lock_owner = w;  // handed over: it wakes owning the lock
    lock_depth = 1;
    make_runnable(w);
  }
}

// t is not the running thread.
void Scheduler::kill(ThreadImpl* t) {
  if (t->killed || t->finished) return;
  t->killed = true;
  cancel_wait(t);
  cancel_alarm(t);
  runq.erase(std::remove(runq.begin(), runq.end(), t), runq.end());
  release_lock_of(t);
  if (!t->started) {  // never ran: nothing to unwind
    t->finished = true;
    live.erase(std::find(live.begin(), live.end(), t));
    vm.set_other_threads_live(live.size() > 1);
    t->fn = NIL;
    if (t->slot) vm.fiber_pool().release(t->slot);  // now: see thread_finalize
    t->slot = nullptr;
    update_budget();
    return;
  }
  make_runnable(t, true);  // to unwind its C++ frames
}

// Adds t to fd's waiters, registering fd with epoll (or widening its
// events). False if epoll cannot watch fd (a regular file).
bool Scheduler::watch_fd(ThreadImpl* t, int fd, uint32_t events, bool kept) {
  auto it = fd_table.find(fd);
  if (it == fd_table.end()) {
    epoll_event ev{};
    ev.events = kept ? EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET : events;
    ev.data.fd = fd;
    if (epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev) != 0) return false;
    it = fd_table.emplace(fd, FdWaiters{ev.events, kept, 0, 0, {}}).first;
  } else if (!it->second.kept && (it->second.events | events) != it->second.events) {
    epoll_event ev{};
    ev.events = it->second.events | events;
    ev.data.fd = fd;
    if (epoll_ctl(epfd, EPOLL_CTL_MOD, fd, &ev) != 0) return false;
    it->second.events = ev.events;
  }
  it->second.threads.emplace_back(t, events);
  return true;
}

void Scheduler::unwatch_fd(ThreadImpl* t, int fd) {
  auto it = fd_table.find(fd);
  if (it == fd_table.end()) return;
  auto& v = it->second.threads;
  v.erase(std::remove_if(v.begin(), v.end(), [t](auto& w) { return w.first == t; }), v.end());
  if (v.empty() && !it->second.kept) {
    epoll_ctl(epfd, EPOLL_CTL_DEL, fd, nullptr);
    fd_table.erase(it);
  }
}

void Scheduler::cancel_alarm(ThreadImpl* t) {
  if (!t->has_alarm) return;
  alarms.erase(t->alarm);
  t->has_alarm = false;
}

// Breaks the threads whose alarms are due (the running one raises it at
// its next check_pending).
void Scheduler::fire_alarms(uint64_t now) {
  while (!alarms.empty() && alarms.begin()->first <= now) {
    ThreadImpl* t = alarms.begin()->second;
    cancel_alarm(t);
    post(t, vm.break_exc());
  }
}

void Scheduler::check_pending(ThreadImpl* t) {
  if (t->killed) throw ThreadKilled{};
  if (!t->pending.is_nil()) {
    Value e = t->pending;
    t->pending = NIL;
    throw ArcError{e};
  }
}

// Wakes the threads whose timers are due and whose descriptors are ready,
// waiting up to timeout for one (null: no limit; zero: just look).
void Scheduler::poll_ready(const timespec* timeout) {
  bool zero = timeout && timeout->tv_sec == 0 && timeout->tv_nsec == 0;
  if (fd_waiters > 0 || !zero) {
    epoll_event ev[64];
    int n;
    if (have_pwait2) {
      n = epoll_pwait2(epfd, ev, 64, timeout, nullptr);
      if (n < 0 && errno == ENOSYS) have_pwait2 = false;
    }
    if (!have_pwait2) {
      // The fallback: a timerfd in the epoll set carries the deadline.
      if (timerfd < 0) {
        timerfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
        epoll_event te{};
        te.events = EPOLLIN;
        te.data.fd = -1;
        epoll_ctl(epfd, EPOLL_CTL_ADD, timerfd, &te);
      }
      int ms = zero ? 0 : -1;
      if (timeout && !zero) {
        itimerspec its{};
        its.it_value = *timeout;
        timerfd_settime(timerfd, 0, &its, nullptr);
      }
      n = epoll_wait(epfd, ev, 64, ms);
    }
    if (n < 0 && errno == EINTR) {
      // A signal: Ctrl-C goes to the main thread.
      if (vm.interrupt_pending()) {
        vm.clear_interrupt();
        post(main, vm.interrupt_exc());
      }
      n = 0;
    }
    for (int i = 0; i < n; ++i) {
      int fd = ev[i].data.fd;
      if (fd < 0) {  // the fallback timerfd
        uint64_t expirations;
        (void)!read(timerfd, &expirations, sizeof expirations);
        continue;
      }
      auto it = fd_table.find(fd);
      if (it == fd_table.end()) continue;
      // A level-triggered descriptor wakes all its waiters (one left
      // waiting on a readiness it does not want would have epoll report it
      // again and again); a kept one those who want what is ready.
      uint32_t got = ev[i].events;
      bool all = !it->second.kept || (got & (EPOLLERR | EPOLLHUP));
      if (got & EPOLLRDHUP) got |= EPOLLIN;
      std::vector<ThreadImpl*> ready;  // cancel_wait edits the table
      uint32_t taken = 0;
      for (auto& [t, want] : it->second.threads)
        if (all || (want & got)) {
          ready.push_back(t);
          taken |= want;
        }
      if (it->second.kept) {
        it->second.pending |= got & ~taken;
        it->second.sticky |= got & (EPOLLRDHUP | EPOLLHUP | EPOLLERR);
      }
      for (ThreadImpl* t : ready) {
        cancel_wait(t);
        t->woke_fd = fd;
        make_runnable(t);
      }
    }
  }
  if (!zombies.empty()) {
    zombies.erase(std::remove_if(zombies.begin(), zombies.end(),
                                 [](pid_t pid) { return waitpid(pid, nullptr, WNOHANG) != 0; }),
                  zombies.end());
  }
  if (!timers.empty() || !alarms.empty()) {
    uint64_t now = now_ns();
    while (!timers.empty() && timers.begin()->first <= now) {
      ThreadImpl* t = timers.begin()->second;
      cancel_wait(t);
      make_runnable(t);
    }
    fire_alarms(now);
  }
}

// Nothing is runnable: wait until the earliest timer or alarm is due or a
// descriptor is ready (no limit without either).
//
// Spin, then park. While descriptors have been turning ready in quick
// succession (a server under load: the next request is tens of
// microseconds away), the wait first looks without sleeping for up to
// kSpinNs: falling asleep and being woken costs a context switch and an
// interrupt each way, a large share of a small request's time on a
// virtual machine. An idle process, or one
// whose events come further apart, never spins more than once.
void Scheduler::wait_for_events() {
  uint64_t now = now_ns();
  if (spin && fd_waiters > 0 && now - last_event_ns < 4 * kSpinNs) {
    uint64_t until = now + kSpinNs;
    timespec zero{0, 0};
    do {
      poll_ready(&zero);
      if (vm.interrupt_pending()) {  // a Ctrl-C would not cut a sleep short any more
        vm.clear_interrupt();
        post(main, vm.interrupt_exc());
      }
      if (!runq.empty()) {
        last_event_ns = now_ns();
        return;
      }
    } while (now_ns() < until);
  }
  wait_parked();
  if (!runq.empty()) last_event_ns = now_ns();
}

void Scheduler::wait_parked() {
  if (timers.empty() && alarms.empty()) return poll_ready(nullptr);
  uint64_t at = UINT64_MAX;
  if (!timers.empty()) at = timers.begin()->first;
  if (!alarms.empty()) at = std::min(at, alarms.begin()->first);
  uint64_t now = now_ns();
  timespec wait = to_timespec(at > now ? at - now : 0);
  poll_ready(&wait);
}

// The running thread cannot go on (it sleeps or waits; its state says
// which): run others until it is runnable again, then return in it.
void Scheduler::block() {
  ThreadImpl* self = current;
  ++stats.waits;
  if (self->killed || !self->pending.is_nil()) {  // posted before it got to wait
    cancel_wait(self);
    self->state = ThreadImpl::Running;
    check_pending(self);
  }
  for (;;) {
    if (runq.empty()) {
      if (timers.empty() && alarms.empty() && fd_waiters == 0) {
        // Nothing can ever wake anyone: say so in the thread that waits.
        cancel_wait(self);
        self->state = ThreadImpl::Running;
        throw_error(vm, "deadlock: every thread is waiting and nothing can wake them");
      }
      wait_for_events();  // one system call: waits, and queues whom it wakes
      if (runq.empty()) continue;
    } else {
      // Others are runnable: those whose descriptors are ready queue up
      // behind them.
      timespec zero{0, 0};
      poll_ready(&zero);
    }
    ThreadImpl* next = runq.front();
    runq.pop_front();
    if (next == self) {
      self->state = ThreadImpl::Running;
      check_pending(self);
      return;
    }
    switch_to(next);  // returns when someone switches back to self
    return;
  }
}

// Saves the running thread, loads next and switches to it. Returns when a
// thread switches back to this one; raises what was posted to it meanwhile.
void Scheduler::switch_to(ThreadImpl* next) {
  ThreadImpl* self = current;
  if (metering) {
    WorkMeter now = process_meter(vm);
    self->left = now;
    next->away += now - next->left;
  }
  vm.swap_exec(self->saved);  // self->saved was empty: the VM's is now
  self->fiber = vm.current_fiber();
  self->in = vm.in_port();
  self->out = vm.out_port();
  self->err = vm.err_port();
  if (!next->started) {
    next->started = true;
    if (!next->slot) next->slot = vm.fiber_pool().acquire();
    init_exec_on_slot(next->saved, next->slot, kStackHeadroom);
    next->ctx = make_context(next->slot->machine_top(), next->slot->machine_size(), thread_entry);
  }
  vm.swap_exec(next->saved);  // next's state into the VM; next->saved empty
  vm.set_current_fiber(next->fiber);
  vm.set_in_port(next->in);
  vm.set_out_port(next->out);
  vm.set_err_port(next->err);
  next->fiber = next->in = next->out = next->err = NIL;
  next->state = ThreadImpl::Running;
  current = next;
  ++stats.switches;
  update_budget();
  Transfer t = switch_context(next->ctx, self);
  after_switch(t);
  check_pending(self);
}

// First thing on the side a switch arrives at: record where the thread that
// switched here continues, and give a finished thread's stacks back (it
// could not while it ran on them).
void Scheduler::after_switch(Transfer t) {
  auto* from = static_cast<ThreadImpl*>(t.data);
  from->ctx = t.from;
  if (from->finished && from->slot) {
    vm.fiber_pool().release(from->slot);
    from->slot = nullptr;
    from->ctx = nullptr;
    // What else it held goes now, not when its Thread object is collected
    // (an old one waits for a major collection).
    from->saved = ExecState{};
    std::vector<int>().swap(from->fds);
  }
}

// The running thread t has ended: never returns.
void Scheduler::finish(ThreadImpl* t) {
  t->finished = true;
  cancel_alarm(t);
  release_lock_of(t);
  live.erase(std::find(live.begin(), live.end(), t));
  vm.set_other_threads_live(live.size() > 1);
  t->fn = t->pending = NIL;
  for (;;) {
    if (!runq.empty()) {
      timespec zero{0, 0};
      poll_ready(&zero);  // as in block: the ready queue up behind the runnable
    } else if (timers.empty() && alarms.empty() && fd_waiters == 0) {
      // Everyone left waits for the lock, which t's end handed on, or is
      // stuck; the main thread hears of it.
      post(main,
           make_exception(vm, make_string_utf8(vm, "deadlock: every thread is waiting"), NIL, NIL));
      continue;
    } else {
      wait_for_events();
      if (runq.empty()) continue;
    }
    ThreadImpl* next = runq.front();
    runq.pop_front();
    switch_to(next);  // never comes back: nothing refers to t any more
    std::abort();
  }
}

namespace {

// Where a thread's first switch arrives: run the thunk on its own stacks,
// report an uncaught error, end. tr.data is the thread that switched here,
// of the same VM.
void thread_entry(Transfer tr) {
  VM& vm = *static_cast<ThreadImpl*>(tr.data)->vm;
  Scheduler& s = *vm.scheduler();
  s.after_switch(tr);
  ThreadImpl* t = s.current;
  Value failed = NIL;
  try {
    s.check_pending(t);
    vm.set_top_level_run();  // its continuations may be invoked by any thread
    vm.apply(t->fn, nullptr, 0);
  } catch (ThreadKilled&) {
  } catch (ArcError& e) {
    failed = e.exc;
  } catch (std::bad_alloc&) {
    failed = make_exception(vm, make_string_utf8(vm, "out of memory in a thread"), NIL, NIL);
  }
  // Printed on the thread's error port, outside the catch blocks (printing
  // may one day wait for the port, and a switch inside a catch block would
  // mix this thread's exception with the others'); the others go on.
  if (!failed.is_nil()) {
    t->pending = failed;  // a root while it prints
    try {
      PortImpl* err = port_impl(vm.err_port());
      err->write_str(describe_error(t->pending));
      err->flush();
    } catch (...) {  // a closed or failing error port: nothing more to tell
    }
    t->pending = NIL;
  }
  s.finish(t);
}

Value arg_thread(VM& vm, const char* fn, Value v) {
  if (TYPE(v) != Kind::Thread) type_error(vm, fn, "a thread", v);
  return v;
}

Value bi_new_thread(VM& vm, Value* a, int) {
  if (!is_runnable(a[0])) type_error(vm, "new-thread", "a function", a[0]);
  Scheduler& s = sched(vm);
  // The thread's stacks now, not when it first runs: no stacks left is
  // then an Arc error of new-thread, which on-err catches, not a failure
  // in the middle of a later switch (Scheduler::switch_to).
  StackSlot* slot = vm.fiber_pool().acquire();
  ThreadImpl* t;
  try {
    t = s.make_thread(a[0]);
  } catch (...) {
    vm.fiber_pool().release(slot);
    throw;
  }
  t->slot = slot;  // until it ends, or kill-thread's before it first runs
  ++s.stats.threads_started;
  s.make_runnable(t);
  s.update_budget();
  return t->self;
}

Value bi_current_thread(VM& vm, Value*, int) { return sched(vm).current->self; }

// (%meter): the running thread's WorkMeter, (dispatches objects bytes
// gc-ms), dispatches nil while type dispatches are not counted (--stats,
// count-sites). Only differences of two readings mean anything.
Value bi_meter(VM& vm, Value*, int) {
  WorkMeter m = thread_meter(vm);
  return cons(
      vm, g_profile.count_types ? make_integer(vm, int64_t(m.dispatches)) : NIL,
      cons(vm, make_integer(vm, int64_t(m.objects)),
           cons(vm, make_integer(vm, int64_t(m.bytes)), cons(vm, make_flonum(vm, m.gc_ms), NIL))));
}

Value bi_dead(VM& vm, Value* a, int) {
  ThreadImpl* t = impl_of(arg_thread(vm, "dead", a[0]));
  return boolean(t->finished || t->killed);
}

Value bi_kill_thread(VM& vm, Value* a, int) {
  ThreadImpl* t = impl_of(arg_thread(vm, "kill-thread", a[0]));
  Scheduler& s = sched(vm);
  if (t->is_main) throw_error(vm, "kill-thread: the main thread cannot be killed");
  if (t == s.current) {
    t->killed = true;
    s.release_lock_of(t);
    throw ThreadKilled{};
  }
  s.kill(t);
  return NIL;
}

Value bi_break_thread(VM& vm, Value* a, int) {
  ThreadImpl* t = impl_of(arg_thread(vm, "break-thread", a[0]));
  Scheduler& s = sched(vm);
  if (t->finished || t->killed) return NIL;
  if (t == s.current) throw ArcError{vm.break_exc()};
  s.post(t, vm.break_exc());
  return NIL;
}

// (sleep secs): the running thread waits secs seconds; the others run.
Value bi_sleep(VM& vm, Value* a, int) {
  if (!is_number(a[0])) type_error(vm, "sleep", "a number", a[0]);
  double secs = number_to_double(vm, a[0]);
  if (!(secs >= 0) || std::isinf(secs))
    type_error(vm, "sleep", "a non-negative number of seconds", a[0]);
  Scheduler& s = sched(vm);
  ThreadImpl* t = s.current;
  t->timer = s.timers.emplace(deadline_after(secs), t);
  t->has_timer = true;
  t->state = ThreadImpl::Sleeping;
  s.block();
  return NIL;
}

// The atomic lock: one, global, re-entrant; handed to waiters in order.
Value bi_atomic_acquire(VM& vm, Value*, int) {
  Scheduler& s = sched(vm);
  ThreadImpl* t = s.current;
  if (s.lock_owner == t) {
    ++s.lock_depth;
  } else if (!s.lock_owner) {
    s.lock_owner = t;
    s.lock_depth = 1;
  } else {
    t->state = ThreadImpl::WaitingLock;
    s.lock_waiters.push_back(t);
    try {
      s.block();  // returns owning the lock (release_lock_of handed it over)
    } catch (...) {
      // A break (or kill) that came after the lock was handed over: the
      // dynamic-wind that releases it is not in place yet, so give it back
      // here (release_lock_of never switches threads).
      if (s.lock_owner == t) s.release_lock_of(t);
      throw;
    }
  }
  return NIL;
}

Value bi_atomic_release(VM& vm, Value*, int) {
  Scheduler& s = sched(vm);
  if (s.lock_owner != s.current) return NIL;  // released already (a kill)
  if (--s.lock_depth == 0) s.release_lock_of(s.current);
  return NIL;
}

// (atomic-invoke f): f called holding the lock. While the program has one
// thread, nobody can interleave, so f is simply called (no lock, no wind:
// `=` and `++` on places expand to atomic). Otherwise %atomic-locked, from
// the prelude, calls f inside a dynamic-wind of acquire and release. The
// compiler runs a literal thunk's body inline when this builtin would just
// call it (the ATOMIC opcode, vm/opcodes.def), so a change here is a change
// there.
Value bi_atomic_invoke(VM& vm, Value* a, int) {
  Value f = a[0];
  if (other_threads(vm)) {
    Value* s = vm.tail_call_slots(1);
    s[-1] = vm.atomic_locked_fn();
    s[0] = f;
    return vm.tail_call_marker();
  }
  vm.tail_call_slots(0)[-1] = f;
  return vm.tail_call_marker();
}

size_t thread_size(const GcHeader*) { return sizeof(Thread); }

// A Thread object nobody refers to: its thread has finished (a live thread
// is a root), so only the record is left to free. A thread holds stacks
// only while it is live (a finished one's go back at the next switch, a
// thread killed before it ran gives them back in kill), so one finalized
// with stacks is being finalized with its whole heap, and its stacks go
// with its VM's pool, which unmaps them all; the finalizer, which may run
// after the VM has ended, needs no VM.
void thread_finalize(GcHeader* h) {
  Thread* th = reinterpret_cast<Thread*>(h);
  ThreadImpl* t = th->impl;
  if (!t) return;
  delete t;
  th->impl = nullptr;
}

const BuiltinDef kDefs[] = {
    {"new-thread", bi_new_thread, 1, 1, "start a thread running thunk; the thread"},
    {"current-thread", bi_current_thread, 0, 0, "the running thread"},
    {"%meter", bi_meter, 0, 0,
     "the running thread's work so far, (dispatches objects bytes gc-ms): subtract two readings"},
    {"kill-thread", bi_kill_thread, 1, 1, "end a thread now"},
    {"break-thread", bi_break_thread, 1, 1, "raise a break (not caught by on-err) in a thread"},
    {"dead", bi_dead, 1, 1, "t if the thread has finished or been killed"},
    {"sleep", bi_sleep, 1, 1, "(sleep secs): let the other threads run for secs seconds"},
    {"atomic-invoke", bi_atomic_invoke, 1, 1, "call thunk holding the global lock"},
    {"%atomic-acquire", bi_atomic_acquire, 0, 0, "take the global lock (re-entrant)"},
    {"%atomic-release", bi_atomic_release, 0, 0, "give back one hold of the global lock"},
};

}  // namespace

void register_thread_kind(gc::Heap& h) {
  h.register_kind(uint8_t(Kind::Thread),
                  gc::KindInfo{"Thread", thread_size, nullptr, thread_finalize});
}

void register_thread_builtins(VM& vm) { define_builtins(vm, kDefs); }

void destroy_scheduler(VM& vm) {
  delete vm.scheduler();
  vm.set_scheduler(nullptr);
  vm.set_other_threads_live(false);
}

void scheduler_tick(VM& vm) {
  Scheduler* s = vm.scheduler();
  if (!s) {
    vm.preempt_budget.store(VM::kIdleSafePoints, std::memory_order_relaxed);
    return;
  }
  s->update_budget();
  ThreadImpl* self = s->current;
  if (s->live.size() <= 1) {
    if (!s->alarms.empty()) {
      s->fire_alarms(now_ns());
      s->check_pending(self);
    }
    return;
  }
  timespec zero{0, 0};
  s->poll_ready(&zero);
  s->check_pending(self);  // its alarm went off
  if (s->runq.empty()) return;
  s->make_runnable(self);
  ThreadImpl* next = s->runq.front();
  s->runq.pop_front();
  if (next == self) {
    self->state = ThreadImpl::Running;
    return;
  }
  ++s->stats.preemptions;
  s->switch_to(next);
}

bool deliver_interrupt(VM& vm) {
  Scheduler* s = vm.scheduler();
  if (!s || s->current == s->main) return false;
  vm.clear_interrupt();
  s->post(s->main, vm.interrupt_exc());
  return true;
}

SchedulerStats scheduler_stats(VM& vm) {
  if (!vm.scheduler()) return {};
  SchedulerStats st = vm.scheduler()->stats;
  st.live = vm.scheduler()->live.size();
  return st;
}

WorkMeter thread_meter(VM& vm) {
  Scheduler& s = sched(vm);
  WorkMeter now = process_meter(vm);
  if (!s.metering) {
    // Switches have not kept the meters: each thread's reading starts
    // here, where it is next switched to.
    s.metering = true;
    for (ThreadImpl* t : s.live) t->left = now;
  }
  return now - s.current->away;
}

bool other_threads(const VM& vm) { return vm.other_threads_live(); }

uint64_t running_thread_number(VM& vm) {
  Scheduler* s = vm.scheduler();
  return s && s->current ? s->current->number : 0;
}

void wait_fds(VM& vm, const int* fds, int n, bool write) {
  if (!other_threads(vm)) return;
  // Inside a catch block (a report being printed): wait in the system call
  // instead, as a switch there would mix the threads' exceptions.
  if (std::current_exception()) return;
  Scheduler& s = *vm.scheduler();
  std::vector<pollfd> p;
  for (int i = 0; i < n; ++i) p.push_back(pollfd{fds[i], short(write ? POLLOUT : POLLIN), 0});
  // Woken threads look again: another one woken with them may have taken
  // what was there, and the caller's system call must not block.
  while (poll(p.data(), p.size(), 0) == 0) {
    ThreadImpl* t = s.current;
    for (int i = 0; i < n; ++i) {
      if (!s.watch_fd(t, fds[i], write ? EPOLLOUT : EPOLLIN)) {
        // Not pollable (a regular file): the system call waits.
        for (int fd : t->fds) s.unwatch_fd(t, fd);
        t->fds.clear();
        return;
      }
      t->fds.push_back(fds[i]);
    }
    ++s.fd_waiters;
    t->state = ThreadImpl::WaitingFd;
    s.block();
    if (!other_threads(vm)) return;
  }
}

void fd_closing(VM& vm, int fd) {
  Scheduler* s = vm.scheduler();
  if (!s) return;
  auto it = s->fd_table.find(fd);
  if (it == s->fd_table.end()) return;
  std::vector<ThreadImpl*> waiting;
  for (auto& w : it->second.threads) waiting.push_back(w.first);
  for (ThreadImpl* t : waiting) {
    s->cancel_wait(t);
    t->woke_fd = fd;
    s->make_runnable(t);
  }
  // A kept registration goes with the descriptor (its number will be reused).
  it = s->fd_table.find(fd);
  if (it != s->fd_table.end()) {
    epoll_ctl(s->epfd, EPOLL_CTL_DEL, fd, nullptr);
    s->fd_table.erase(it);
  }
}

uint64_t monotonic_ns() { return now_ns(); }

uint64_t deadline_after(double secs) {
  constexpr double kForever = 1e9;  // seconds: about 31 years
  if (!(secs > 0)) secs = 0;
  return now_ns() + uint64_t(std::min(secs, kForever) * 1e9);
}

void close_fd(VM& vm, int& fd) {
  if (fd < 0) return;
  fd_closing(vm, fd);  // wake its waiters
  ::close(fd);
  fd = -1;
}

IoWait wait_io(VM& vm, int fd, bool write, uint64_t deadline, int wake_fd, bool keep) {
  if (std::current_exception()) {
    // No switch inside a catch block (see the top of this file): wait here.
    pollfd p[2] = {{fd, short(write ? POLLOUT : POLLIN), 0}, {wake_fd, POLLIN, 0}};
    nfds_t np = wake_fd >= 0 ? 2 : 1;
    for (;;) {
      int ms = -1;
      if (deadline) {
        uint64_t now = now_ns();
        if (now >= deadline) return IoWait::Timeout;
        ms = int(std::min<uint64_t>((deadline - now) / 1000000 + 1, 1u << 30));
      }
      int n = poll(p, np, ms);
      if (n < 0 && errno != EINTR) return IoWait::Ready;  // let the caller's call fail
      if (n > 0) return np == 2 && p[1].revents ? IoWait::Woken : IoWait::Ready;
    }
  }
  Scheduler& s = sched(vm);
  ThreadImpl* t = s.current;
  // The caller has just found the descriptor not ready (EAGAIN), or knows
  // it drained it, so no look first: park at once, and trust what wakes it.
  uint32_t want = write ? EPOLLOUT : EPOLLIN;
  for (;;) {
    if (keep) {
      // Readiness reported while nobody waited: it may be there now.
      auto it = s.fd_table.find(fd);
      if (it != s.fd_table.end()) {
        uint32_t ended = EPOLLHUP | EPOLLERR | (write ? 0u : uint32_t(EPOLLRDHUP));
        if (it->second.sticky & ended) return IoWait::Ready;
        if (it->second.pending & (want | EPOLLERR | EPOLLHUP)) {
          it->second.pending &= ~(want | EPOLLERR | EPOLLHUP);
          return IoWait::Ready;
        }
      }
      if (wake_fd >= 0) {
        auto w = s.fd_table.find(wake_fd);
        if (w != s.fd_table.end() && (w->second.pending & EPOLLIN)) {
          w->second.pending &= ~uint32_t(EPOLLIN);
          return IoWait::Woken;
        }
      }
    }
    if (deadline && now_ns() >= deadline) return IoWait::Timeout;
    if (!s.watch_fd(t, fd, write ? EPOLLOUT : EPOLLIN, keep)) return IoWait::Ready;  // not pollable
    t->fds.push_back(fd);
    if (wake_fd >= 0 && s.watch_fd(t, wake_fd, EPOLLIN, keep)) t->fds.push_back(wake_fd);
    ++s.fd_waiters;
    if (deadline) {
      t->timer = s.timers.emplace(deadline, t);
      t->has_timer = true;
    }
    t->woke_fd = -1;
    t->state = ThreadImpl::WaitingFd;
    s.block();  // whoever woke it took it out of every wait (cancel_wait)
    if (t->woke_fd == fd) return IoWait::Ready;
    if (wake_fd >= 0 && t->woke_fd == wake_fd) return IoWait::Woken;
    // Else its timer: the deadline is looked at again.
  }
}

void set_alarm(VM& vm, double secs) {
  Scheduler& s = sched(vm);
  ThreadImpl* t = s.current;
  s.cancel_alarm(t);
  if (!(secs >= 0)) return;
  t->alarm = s.alarms.emplace(deadline_after(secs), t);
  t->has_alarm = true;
}

void scheduler_after_fork(VM& vm) {
  Scheduler* s = vm.scheduler();
  if (!s) return;
  ::close(s->epfd);
  s->epfd = epoll_create1(EPOLL_CLOEXEC);
  if (s->timerfd >= 0) {
    ::close(s->timerfd);
    s->timerfd = -1;
  }
  for (auto& [fd, w] : s->fd_table) {
    epoll_event ev{};
    ev.events = w.events;
    ev.data.fd = fd;
    epoll_ctl(s->epfd, EPOLL_CTL_ADD, fd, &ev);
  }
  s->zombies.clear();  // the parent's children, not ours
}

void set_scheduler_spin(VM& vm, bool spin) {
  if (vm.scheduler()) vm.scheduler()->spin = spin;
}

void reap_later(VM& vm, int pid) {
  if (vm.scheduler()) vm.scheduler()->zombies.push_back(pid_t(pid));
}

}  // namespace vm
