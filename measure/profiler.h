// measure/profiler.h — the Arc-level sampling profiler: --profile=FILE,
// (w/profile FILE body...) and (prof expr) (docs/LANGUAGE.md 8.4).
//
// How a sample is taken. A CPU-time timer of the VM's own OS thread
// (timer_create on CLOCK_THREAD_CPUTIME_ID, SIGPROF to that thread, at
// --profile-rate ticks a second, 1,000 by default) only counts: its handler
// adds one to the VM's tick count (or to the collection tick count while a
// collection runs), points every entry of the interpreter's dispatch table
// at the sampling handler (VM::sample_next_instruction) and pokes the
// safe-point counter, all async-signal safe. The next instruction the
// interpreter dispatches, wherever it is, then takes the sample
// (VM::sample_at_instruction) between two instructions, where the Arc stack
// and the heap are consistent, and puts the table back: the whole stack,
// innermost first, each frame a function (the global it was defined as, or
// fn@FILE:LINE where an anonymous one was made), its file and the line it
// is at, with the ticks pending as the sample's weight. Between ticks the
// table is the plain one, so sampling costs the loop nothing.
//
// Keeping it unbiased. A tick is charged to the instruction after the one
// it interrupted, so a loop's body gets its own lines (a sample taken at
// the next safe point, a backward jump, would charge the whole body to the
// loop's head). Two places are handled apart:
//  - a call's entry is a safe point, which comes before the callee's first
//    instruction: ticks pending there came while the caller ran (its
//    argument set-up, the call), so they are charged to the caller's frame
//    at the line of the call;
//  - a builtin runs no instruction (unless it calls back into Arc): the
//    interpreter compares the tick count before and after each builtin
//    call it makes (two loads), and ticks that came during the call are
//    charged to the builtin, as a frame of its own above its caller. A
//    long instruction is not over-charged: a tick is charged to whatever
//    was running when it came, wherever it is noticed.
// File names are absolute (source_path), so that pprof -list finds them
// from any directory.
//
// Collections are charged as a [gc] frame above the stack they interrupted. Allocated bytes are a
// second figure: at each sample, the bytes allocated since the previous one, charged to the same
// stack (so the allocation profile has the timer's resolution).
//
// Each sample is labelled with its green thread ("main", "thread 3"); a
// fiber or generator is sampled on its own stack.
#pragma once
#include <signal.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "measure/pprof.h"
#include "vm/object.h"

namespace vm {

class VM;
struct Builtin;
struct Code;

class Profiler {
 public:
  static constexpr int kDefaultRate = 1000;  // ticks a second
  static constexpr int kMaxRate = 100000;

  // Starts sampling vm's thread at rate ticks a second. One profiler at a
  // time in a process (the signal is process-wide, and its handler acts on
  // the foreground VM, vm/vm.h): an Arc error if one runs already, if
  // another VM is the foreground one, or if the timer cannot be made.
  Profiler(VM& vm, int rate);
  ~Profiler();  // stops the timer
  Profiler(const Profiler&) = delete;
  Profiler& operator=(const Profiler&) = delete;

  // Whether ticks wait to be charged (the safe point's test).
  bool pending() const;

  // At a safe point: charges the pending ticks to the running stack (at a
  // call's entry, to the caller), then the collection ticks to [gc] on top.
  void sample(bool at_entry);
  // After a builtin call during which ticks came: the timer counts them in
  // its VM's profile_ticks (vm/vm.h), which the interpreter reads before
  // and after each builtin call, and before is the first reading. b is
  // null when the builtin is not known any more (it tail-called): its
  // ticks go to the Arc frame that called it.
  void sample_builtin(const Builtin* b, uint64_t before);

  // Stops the timer; the profile as taken.
  std::unique_ptr<pprof::Profile> finish();

  // pprof -top's table for a profile: the top functions by self (flat)
  // CPU time, with their share and their total (cum) time.
  static std::string top(const pprof::Profile& p, size_t n);
  // Writes p gzipped to path (an Arc error naming it if that fails).
  static void write(VM& vm, const pprof::Profile& p, const std::string& path);

 private:
  struct Frame {
    uint64_t location;
  };
  // Records weight ticks (and the bytes allocated since the last sample)
  // at the running stack, with extra frames on top (a builtin, [gc]),
  // leaving out the innermost frame if skip_top.
  void record(int64_t ticks, const std::vector<uint64_t>& extra, bool skip_top);
  uint64_t function_of(Code* c);
  std::string source_path(const std::string& file);
  uint64_t builtin_location(const Builtin* b);
  std::string thread_label() const;

  VM& vm_;
  int rate_;
  int64_t period_ns_;
  void* timer_ = nullptr;  // timer_t
  bool timer_made_ = false;
  uint64_t charged_ = 0, gc_charged_ = 0;
  uint64_t last_bytes_ = 0;
  int64_t started_ns_ = 0;
  std::unique_ptr<pprof::Profile> profile_;
  // Code objects move in a collection: the cache from code to function id
  // is good until the next one.
  std::unordered_map<const Code*, uint64_t> functions_;
  uint64_t functions_epoch_ = 0;
  // By name, not by object: a builtin's object moves in collections.
  std::unordered_map<std::string, uint64_t> builtins_;
  std::unordered_map<std::string, std::string> paths_;  // source_path's
  uint64_t gc_location_ = 0;

  bool published_ = false;  // this profiler made its VM the foreground one
  // Stops the timer and the handler's counting; withdraws what it published.
  void withdraw();
  static void on_signal(int, siginfo_t* info, void*);
};

}  // namespace vm
