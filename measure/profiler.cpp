// measure/profiler.cpp — see measure/profiler.h.
#include "measure/profiler.h"

#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>

#include "vm/code.h"
#include "vm/error.h"
#include "vm/string.h"
#include "vm/symbol.h"
#include "vm/thread.h"
#include "vm/vm.h"

namespace vm {

namespace {

int64_t now_ns(clockid_t clock) {
  timespec ts;
  clock_gettime(clock, &ts);
  return int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

}  // namespace

// The VM is the foreground one (vm/vm.h: a handler has no other way to
// it). The kernel checks CPU-time timers at its own clock tick (250 Hz on
// many kernels), so at 1,000 Hz a signal often stands for several periods:
// the overrun count says how many more, and they count as ticks too.
void Profiler::on_signal(int, siginfo_t* info, void*) {
  VM* vm = foreground_vm();
  if (!vm || !vm->profiling.load(std::memory_order_relaxed)) return;
  int more = info ? info->si_overrun : 0;
  uint64_t n = 1 + uint64_t(more > 0 ? more : 0);
  if (vm->profile_collecting.load(std::memory_order_relaxed))
    vm->profile_gc_ticks.fetch_add(n, std::memory_order_relaxed);
  else vm->profile_ticks.fetch_add(n, std::memory_order_relaxed);
  // Charged where the program is: at the next instruction it dispatches.
  // The poke is for when it runs none soon (a builtin that calls back into
  // Arc reaches a safe point first).
  vm->sample_next_instruction();
  vm->poke_safe_point();
}

Profiler::Profiler(VM& vm, int rate) : vm_(vm), rate_(rate) {
  if (rate < 1 || rate > kMaxRate)
    throw_error(vm_, "profile: the rate must be 1 to " + std::to_string(kMaxRate) + " a second");
  bool published = foreground_vm() == &vm;
  if (vm.profiling.load() || !claim_foreground_vm(&vm))
    throw_error(vm_,
                "profile: the profiler is running already (the timer's signal goes to one VM)");
  published_ = !published;
  period_ns_ = 1000000000 / rate;
  profile_ = std::make_unique<pprof::Profile>(
      std::vector<pprof::ValueType>{
          {"samples", "count"}, {"cpu", "nanoseconds"}, {"alloc_space", "bytes"}},
      pprof::ValueType{"cpu", "nanoseconds"}, period_ns_);
  profile_->set_default_sample_type("cpu");
  charged_ = vm.profile_ticks.load();
  gc_charged_ = vm.profile_gc_ticks.load();
  last_bytes_ = vm.heap().bytes_allocated_now();
  started_ns_ = now_ns(CLOCK_REALTIME);

  struct sigaction sa {};
  sa.sa_sigaction = on_signal;
  sa.sa_flags = SA_RESTART | SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGPROF, &sa, nullptr);
  // The VM's own thread's CPU time, so that another thread's (vcgc's
  // collector) is not charged to the Arc program.
  sigevent sev{};
  sev.sigev_notify = SIGEV_THREAD_ID;
  sev.sigev_signo = SIGPROF;
  sev._sigev_un._tid = pid_t(syscall(SYS_gettid));
  timer_t t;
  if (timer_create(CLOCK_THREAD_CPUTIME_ID, &sev, &t) != 0) {
    int err = errno;
    withdraw();
    throw_error(vm_, std::string("profile: cannot make the timer: ") + strerror(err));
  }
  timer_ = t;
  timer_made_ = true;
  vm.profiling.store(true);
  itimerspec its{};
  its.it_interval.tv_sec = period_ns_ / 1000000000;
  its.it_interval.tv_nsec = period_ns_ % 1000000000;
  its.it_value = its.it_interval;
  timer_settime(t, 0, &its, nullptr);
}

Profiler::~Profiler() { withdraw(); }

void Profiler::withdraw() {
  if (timer_made_) timer_delete(timer_t(timer_));
  timer_made_ = false;
  vm_.profiling.store(false);
  if (published_) release_foreground_vm(&vm_);
  published_ = false;
}

std::unique_ptr<pprof::Profile> Profiler::finish() {
  withdraw();
  profile_->set_time(started_ns_, now_ns(CLOCK_REALTIME) - started_ns_);
  return std::move(profile_);
}

std::string Profiler::thread_label() const {
  uint64_t n = running_thread_number(vm_);
  return n == 0 ? "main" : "thread " + std::to_string(n);
}

uint64_t Profiler::function_of(Code* c) {
  uint64_t epoch = vm_.heap().stats().collections;
  if (epoch != functions_epoch_) {  // code may have moved
    functions_.clear();
    functions_epoch_ = epoch;
  }
  auto it = functions_.find(c);
  if (it != functions_.end()) return it->second;
  std::string file = c->file.is_nil() ? "" : source_path(string_utf8(c->file));
  uint64_t id = profile_->function(code_function_name(c), file, c->line);
  functions_.emplace(c, id);
  return id;
}

// pprof -list reads a function's file where the profile names it, from
// whatever directory pprof runs in: a script's path made absolute (against
// the directory it was loaded from, taken to be the current one), and the
// library's files (built into the binary, named core.arc and so on) found
// in the source tree the binary was built from, where it still is.
std::string Profiler::source_path(const std::string& file) {
  auto it = paths_.find(file);
  if (it != paths_.end()) return it->second;
  namespace fs = std::filesystem;
  std::error_code ec;
  std::string path = file;
  if (!file.empty() && fs::path(file).is_relative()) {
    fs::path lib = fs::path(ARCANA_STDLIB_DIR) / file;
    if (fs::exists(file, ec)) {
      fs::path abs = fs::absolute(file, ec);
      if (!ec) path = abs.lexically_normal().string();
    } else if (fs::exists(lib, ec)) {
      path = lib.string();
    }
  }
  paths_.emplace(file, path);
  return path;
}

uint64_t Profiler::builtin_location(const Builtin* b) {
  std::string name = symbol_name(b->name);
  auto it = builtins_.find(name);
  if (it != builtins_.end()) return it->second;
  uint64_t id = profile_->location(profile_->function(name, "", 0), 0);
  builtins_.emplace(std::move(name), id);
  return id;
}

void Profiler::record(int64_t ticks, const std::vector<uint64_t>& extra, bool skip_top) {
  std::vector<uint64_t> stack(extra.rbegin(), extra.rend());  // innermost first
  bool first = true;
  vm_.each_frame([&](const FrameRef& f) {
    bool top = first;
    first = false;
    if (f.builtin) {
      stack.push_back(builtin_location(f.builtin));
      return true;
    }
    if (top && skip_top && f.has_caller) return true;
    if (code_is_internal(f.code)) return true;  // its time is its callee's or caller's
    // A frame's pc is past the instruction it is at (a caller's: its call).
    uint32_t line = code_line_at(f.code, f.insn > 0 ? f.insn - 1 : 0);
    stack.push_back(profile_->location(function_of(f.code), line));
    return true;
  });
  uint64_t bytes = vm_.heap().bytes_allocated_now();
  int64_t allocated = int64_t(bytes - last_bytes_);
  last_bytes_ = bytes;
  profile_->add(stack, {ticks, ticks * period_ns_, allocated}, {{"thread", thread_label()}});
}

bool Profiler::pending() const {
  return vm_.profile_ticks.load(std::memory_order_relaxed) != charged_ ||
         vm_.profile_gc_ticks.load(std::memory_order_relaxed) != gc_charged_;
}

void Profiler::sample(bool at_entry) {
  uint64_t t = vm_.profile_ticks.load(std::memory_order_relaxed);
  if (t != charged_) {
    record(int64_t(t - charged_), {}, at_entry);
    charged_ = t;
  }
  uint64_t g = vm_.profile_gc_ticks.load(std::memory_order_relaxed);
  if (g != gc_charged_) {
    if (!gc_location_) gc_location_ = profile_->location(profile_->function("[gc]", "", 0), 0);
    record(int64_t(g - gc_charged_), {gc_location_}, false);
    gc_charged_ = g;
  }
}

void Profiler::sample_builtin(const Builtin* b, uint64_t before) {
  uint64_t t = vm_.profile_ticks.load(std::memory_order_relaxed);
  // Those that came during the call, but none charged already (by a safe
  // point of Arc code the builtin called).
  uint64_t during = t - std::max(before, charged_);
  if (t == charged_ || during == 0) return;
  if (b) record(int64_t(during), {builtin_location(b)}, false);
  else record(int64_t(during), {}, false);
  charged_ = t;  // any from before the call: too few to matter, here too
}

void Profiler::write(VM& vm, const pprof::Profile& p, const std::string& path) {
  std::string data = pprof::gzip(p.encode());
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) throw_error(vm, "profile: cannot write " + path + ": " + strerror(errno));
  size_t n = std::fwrite(data.data(), 1, data.size(), f);
  int err = n == data.size() ? 0 : errno;
  if (std::fclose(f) != 0 && !err) err = errno;
  if (err) throw_error(vm, "profile: cannot write " + path + ": " + strerror(err));
}

std::string Profiler::top(const pprof::Profile& p, size_t n) {
  struct Row {
    int64_t flat = 0, cum = 0;
  };
  std::map<std::string, Row> rows;
  int64_t total = 0;
  for (const pprof::Profile::Sample& s : p.samples()) {
    int64_t ns = s.values.size() > 1 ? s.values[1] : 0;
    total += ns;
    if (s.stack.empty()) continue;
    rows[p.function_name(s.stack[0])].flat += ns;
    std::set<std::string> seen;  // a recursive function counts once a sample
    for (uint64_t loc : s.stack)
      if (seen.insert(p.function_name(loc)).second) rows[p.function_name(loc)].cum += ns;
  }
  std::vector<std::pair<std::string, Row>> sorted(rows.begin(), rows.end());
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
    return a.second.flat != b.second.flat ? a.second.flat > b.second.flat
                                          : a.second.cum > b.second.cum;
  });
  auto ms = [](int64_t ns) { return std::to_string(ns / 1000000) + "ms"; };
  auto pct = [&](int64_t ns) {
    char buf[32];
    snprintf(buf, sizeof buf, "%.2f%%", total ? 100.0 * double(ns) / double(total) : 0.0);
    return std::string(buf);
  };
  std::string out = "Total: " + ms(total) + "\n";
  char line[512];
  snprintf(line, sizeof line, "%10s %8s %8s %10s %8s  %s\n", "flat", "flat%", "sum%", "cum", "cum%",
           "function");
  out += line;
  int64_t sum = 0;
  for (size_t i = 0; i < sorted.size() && i < n; ++i) {
    const auto& [name, r] = sorted[i];
    sum += r.flat;
    snprintf(line, sizeof line, "%10s %8s %8s %10s %8s  %s\n", ms(r.flat).c_str(),
             pct(r.flat).c_str(), pct(sum).c_str(), ms(r.cum).c_str(), pct(r.cum).c_str(),
             name.c_str());
    out += line;
  }
  return out;
}

}  // namespace vm
