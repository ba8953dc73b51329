// vm/thread.h — green threads and their scheduler (vm/thread.cpp).
//
// Every thread is a line of execution on its own pooled stacks (the main
// program's is the process's). One OS thread runs them all, one at a time:
// a thread runs until it sleeps, waits for a file descriptor or the atomic
// lock, or uses up its instruction budget (VM::preempt_budget, counted down
// at every call and backward jump) at a safe point.
#pragma once
#include "gc/heap.h"
#include "vm/object.h"

namespace vm {

class VM;
struct ThreadImpl;
struct Thread {
  GcHeader h;
  ThreadImpl* impl;
};

// Thrown to unwind a killed thread's C++ frames (no Arc code runs: kill is
// immediate, as in Racket); caught where the thread (or a fiber inside it)
// began.
struct ThreadKilled {};

// Safe points a thread runs before the scheduler looks for others to run:
// small enough that a busy thread yields every few tens of microseconds.
constexpr int64_t kPreemptBudget = 2048;

void register_thread_kind(gc::Heap& h);
void register_thread_builtins(VM& vm);
void destroy_scheduler(VM& vm);

// VM::safe_point_slow, when the budget ran out: wakes the threads whose
// timers or descriptors are due, and switches to the next runnable thread.
void scheduler_tick(VM& vm);
// A pending Ctrl-C while another thread than the main one runs: hands it to
// the main thread (true), or leaves it to the caller to raise (false).
bool deliver_interrupt(VM& vm);
// What the scheduler has done, for --stats (all zero before the first
// thread operation).
struct SchedulerStats {
  uint64_t threads_started = 0;  // new-thread calls
  uint64_t live = 0;             // threads not finished, the main one included
  uint64_t switches = 0;         // from one thread to another
  uint64_t preemptions = 0;      // of those, at the end of an instruction budget
  uint64_t waits = 0;            // sleeps, descriptor waits, lock waits that blocked
};
SchedulerStats scheduler_stats(VM& vm);
// The work the running thread has done: what the process-wide counters
// (TYPE's counts, the heap's allocations, its pause time) went up by while
// it ran, since some point of its own; the difference of two readings is
// the work in between, whatever other threads did meanwhile. For
// per-request figures (srv.arc's opstats*, docs/LANGUAGE.md 6.5). The
// scheduler charges the counters' rise over each time slice to the thread
// that ran it once anything has read a meter (none of this costs a switch
// before), so a thread's first reading may include work from before.
struct WorkMeter {
  uint64_t dispatches = 0;  // type dispatches, while they are counted (--stats)
  uint64_t objects = 0;     // objects allocated
  uint64_t bytes = 0;       // bytes allocated
  double gc_ms = 0;  // collection pauses, charged to the thread whose allocation started them
  WorkMeter& operator+=(const WorkMeter& o) {
    dispatches += o.dispatches;
    objects += o.objects;
    bytes += o.bytes;
    gc_ms += o.gc_ms;
    return *this;
  }
  WorkMeter operator-(const WorkMeter& o) const {
    return {dispatches - o.dispatches, objects - o.objects, bytes - o.bytes, gc_ms - o.gc_ms};
  }
};
WorkMeter thread_meter(VM& vm);
// True if threads other than the running one exist.
bool other_threads(const VM& vm);
// The running thread's number: 0 for the main thread, then 1, 2, ... in
// the order threads were made (the profiler's labels).
uint64_t running_thread_number(VM& vm);
// Parks the running thread until one of fds is ready (for reading, or for
// writing), letting the others run; returns at once if there are no other
// threads, epoll cannot watch the descriptor (a regular file), or it is
// called inside a catch block (vm/thread.cpp says why); the caller's system
// call then waits.
void wait_fds(VM& vm, const int* fds, int n, bool write);
inline void wait_fd(VM& vm, int fd, bool write) { wait_fds(vm, &fd, 1, write); }
// How wait_io ended.
enum class IoWait { Ready, Timeout, Woken };
// Parks the running thread until fd is ready (for reading, or for
// writing), the monotonic clock reaches deadline_ns (0: no deadline), or
// wake_fd (-1: none) is readable; the others run meanwhile. For
// non-blocking descriptors, called when an operation has just found fd not
// ready (EAGAIN): unlike wait_fds it parks even when no other thread exists
// (the process then waits in epoll), and inside a catch block it waits in
// poll(2). Ready may be spurious: the caller tries again. A break posted
// meanwhile is raised.
//   keep: fd (and wake_fd) stay registered with epoll, edge-triggered,
//   until fd_closing, saving two system calls a wait; only for descriptors
//   whose every close goes through fd_closing (sockets, io/socket.cpp).
IoWait wait_io(VM& vm, int fd, bool write, uint64_t deadline_ns, int wake_fd = -1,
               bool keep = false);
// The clock wait_io's deadlines are on (CLOCK_MONOTONIC), in nanoseconds.
uint64_t monotonic_ns();
// The deadline secs seconds from now on that clock (not a number or
// negative: now; at most about 31 years ahead).
uint64_t deadline_after(double secs);
// Breaks the running thread (as break-thread does) once secs seconds have
// passed, unless it is called again first; secs < 0 only cancels. The
// server's threadlife* watchdog, without a watchdog thread.
void set_alarm(VM& vm, double secs);
// In a child just forked (the server's workers): the epoll instance is
// shared with the parent across fork, so the child makes its own and
// registers its waits there again.
void scheduler_after_fork(VM& vm);
// Whether a wait for events spins before it sleeps (wait_for_events in
// thread.cpp; on by default). Off where the process's spin would take a
// core another process needs: the server's workers when they are as
// many as the cores.
void set_scheduler_spin(VM& vm, bool spin);
// fd is about to be closed: the threads waiting for it wake (and find it
// closed) rather than wait forever, as epoll forgets a closed descriptor.
// Never switches threads (finalizers call it).
void fd_closing(VM& vm, int fd);
// Closes fd, if it is open, after fd_closing; leaves it -1.
void close_fd(VM& vm, int& fd);
// A child whose waiter gave up (its thread was killed or broken): the
// scheduler reaps it when it exits, so it does not stay a zombie.
void reap_later(VM& vm, int pid);

}  // namespace vm
