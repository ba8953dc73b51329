// bench/fiber/bench_context.cpp — the mechanism under Arcana's fibers,
// measured in C++: the context switch, taking and returning pool slots, and
// resident memory per live slot. run.sh prints these beside Ruby's fibers.
//
// Output: one line per figure, "name iterations seconds" for rates and
// "name bytes" for memory, so run.sh can join them with Ruby's by name.
// The workloads follow Ruby's fiber-pool benchmarks (feature #15997):
//   fiber_switch    resume/yield ping-pong (one iteration = two switches)
//   fiber_allocate  take a slot, start a context that yields, return the slot
//   fiber_count     take and start 100,000 contexts, all kept alive
//   fiber_reuse     1,024 contexts started and returned, 200 times
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "vm/context.h"
#include "vm/stack_pool.h"

namespace {

using vm::Context;
using vm::StackPool;
using vm::StackRelease;
using vm::Transfer;
using Clock = std::chrono::steady_clock;
using Jump = Transfer (*)(Context, void*);
using Make = Context (*)(void*, size_t, vm::ContextEntry);

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

void report(const std::string& name, long iterations, double seconds) {
  std::printf("%s %ld %.6f\n", name.c_str(), iterations, seconds);
}

int g_runs = 3;  // RUNS: each rate is the best of this many runs

// The best time of g_runs calls of f (which returns seconds): the machine
// is shared, and the best run is the one least disturbed.
template <class F>
double best(F f) {
  double b = f();
  for (int i = 1; i < g_runs; ++i) b = std::min(b, f());
  return b;
}

// The process's resident set in bytes (VmRSS).
size_t rss_bytes() {
  std::ifstream status("/proc/self/status");
  for (std::string l; std::getline(status, l);)
    if (l.compare(0, 6, "VmRSS:") == 0) return std::stoul(l.substr(6)) << 10;
  return 0;
}

// Yields back to whoever resumed it, forever: Fiber.new { loop { Fiber.yield } }.
template <Jump jump>
void yielder(Transfer t) {
  for (;;) t = jump(t.from, t.data);
}

template <Make make, Jump jump>
void bench_switch(const char* name, long n) {
  StackPool pool;
  vm::StackSlot* s = pool.acquire();
  Context c = make(s->machine_top(), s->machine_size(), yielder<jump>);
  report(name, n, best([&] {
           auto t0 = Clock::now();
           for (long i = 0; i < n; ++i) c = jump(c, nullptr).from;
           return seconds_since(t0);
         }));
}

void bench_allocate(StackRelease policy, long n) {
  vm::StackPoolConfig cfg;
  cfg.release = policy;
  StackPool pool(cfg);
  double t = best([&] {
    auto t0 = Clock::now();
    for (long i = 0; i < n; ++i) {
      vm::StackSlot* s = pool.acquire();
      vm::switch_context(vm::make_context(*s, yielder<vm::switch_context>), nullptr);
      pool.release(s);
    }
    return seconds_since(t0);
  });
  report(std::string("fiber_allocate/") + vm::stack_release_name(policy), n, t);
}

void bench_reuse(StackRelease policy, long rounds, long batch) {
  vm::StackPoolConfig cfg;
  cfg.release = policy;
  StackPool pool(cfg);
  std::vector<vm::StackSlot*> slots(batch);
  double t = best([&] {
    auto t0 = Clock::now();
    for (long r = 0; r < rounds; ++r) {
      for (auto& s : slots) {
        s = pool.acquire();
        vm::switch_context(vm::make_context(*s, yielder<vm::switch_context>), nullptr);
      }
      for (auto* s : slots) pool.release(s);
    }
    return seconds_since(t0);
  });
  report(std::string("fiber_reuse/") + vm::stack_release_name(policy), rounds, t);
}

// 100,000 started contexts, all alive: the time, and memory per context,
// from the pool's own count and from the process's RSS.
void bench_count(long n) {
  size_t rss0 = rss_bytes();
  StackPool pool;
  std::vector<Context> live(n);
  auto t0 = Clock::now();
  for (long i = 0; i < n; ++i) {
    vm::StackSlot* s = pool.acquire();
    live[i] = vm::switch_context(vm::make_context(*s, yielder<vm::switch_context>), nullptr).from;
  }
  report("fiber_count", n, seconds_since(t0));
  auto st = pool.stats();
  std::printf("rss_per_fiber %zu\n", (rss_bytes() - rss0) / n);
  std::printf("pool_resident_per_fiber %zu\n", st.resident_bytes / n);
  std::printf("pool_mappings %zu\n", st.mappings);
  std::printf("pool_reserved_per_fiber %zu\n", st.reserved_bytes / n);
}

}  // namespace

int main(int argc, char** argv) {
  long switches = argc > 1 ? std::atol(argv[1]) : 20000000;
  if (const char* runs = std::getenv("RUNS")) g_runs = std::max(1, std::atoi(runs));
  std::printf("context_impl %s\n", vm::context_impl_name());
  bench_switch<vm::make_context, vm::switch_context>("fiber_switch", switches);
  bench_switch<vm::fctx::make, vm::fctx::jump>("fiber_switch/fcontext", switches);
#ifdef ARCANA_HAVE_SWAP64
  bench_switch<vm::swap64::make, vm::swap64::jump>("fiber_switch/swap64", switches);
#endif
  for (auto p : {StackRelease::keep, StackRelease::madvise, StackRelease::munmap})
    bench_allocate(p, 1000000);
  for (auto p : {StackRelease::keep, StackRelease::madvise, StackRelease::munmap})
    bench_reuse(p, 200, 1024);
  bench_count(100000);
  return 0;
}
