// measure/measure.cpp — the measurement library's entry (measure/measure.h):
// its instrument, which the VM calls (vm/instrument.h), and its builtins:
// type-dispatches, gc-stats, site-stats, count-sites and the profiler's
// (docs/LANGUAGE.md 8.4).
#include "measure/measure.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "measure/gc_stats.h"
#include "measure/profiler.h"
#include "vm/builtins.h"
#include "vm/error.h"
#include "vm/number.h"
#include "vm/string.h"
#include "vm/symbol.h"
#include "vm/table.h"
#include "vm/vm.h"

namespace vm {

Measure::Measure(VM& vm) : vm_(vm), sites_(vm.heap()) {}
Measure::~Measure() = default;

Measure& Measure::of(VM& vm) {
  auto* m = dynamic_cast<Measure*>(vm.instrument());
  if (!m) throw_error(vm, "the measurement library is not open");
  return *m;
}

void Measure::count_sites(bool on) {
  if (counting_sites()) sites_.forget_code();  // what was counted so far
  vm_.set_counting(on);
  sites_.forget_code();
  if (on) sites_.snapshot();
}

bool Measure::counting_sites() const { return vm_.counting_instrument() == this; }

void Measure::allocation(Kind k, size_t bytes) {
  sites_.allocation(k, bytes, vm_.heap().collection_wanted());
}

// The token is the site charged with the collection (0 while not counting).
uint32_t Measure::collection_begins() {
  vm_.profile_collecting.store(true, std::memory_order_relaxed);
  return counting_sites() ? sites_.collection_site() : 0;
}

void Measure::collection_ends(uint32_t site, bool major) {
  vm_.profile_collecting.store(false, std::memory_order_relaxed);
  if (counting_sites()) sites_.collection(site, major);
}

bool Measure::sample_pending() const { return profiler_ && profiler_->pending(); }
void Measure::sample(bool at_entry) { profiler_->sample(at_entry); }

void Measure::sample_builtin(const Builtin* b, uint64_t ticks_before) {
  if (profiler_) profiler_->sample_builtin(b, ticks_before);
}

void Measure::start_profiler(int rate, std::string path) {
  if (profiler_) throw_error(vm_, "profile: the profiler is running already");
  profiler_ = std::make_unique<Profiler>(vm_, rate);
  profile_path_ = std::move(path);
}

void Measure::stop_profiler() {
  if (!profiler_) return;
  last_profile_ = profiler_->finish();
  profiler_.reset();
}

bool Measure::finish_profile() {
  if (!profiler_ || profile_path_.empty()) return true;
  stop_profiler();
  try {
    Profiler::write(vm_, *last_profile_, profile_path_);
    return true;
  } catch (ArcError& e) {
    std::string msg = string_utf8(e.exc.as<Exception>()->message) + "\n";
    std::fwrite(msg.data(), 1, msg.size(), stderr);
    return false;
  }
}

namespace {

// (type-dispatches): how many times TYPE (vm/object.h) has decided a value's
// kind, by kind name, with `total`; counted only when --stats turned the
// counters on (otherwise every count is 0), so a program such as the news
// benchmark can measure one request by the difference of two readings.
Value bi_type_dispatches(VM& vm, Value*, int) {
  Value t = make_table(vm);
  uint64_t total = 0;
  for (int k = 0; k < kKindCount; ++k) {
    uint64_t n = g_profile.type_counts[k];
    total += n;
    if (n) table_put(vm, t, intern(vm, kind_name(Kind(k))), make_integer(vm, int64_t(n)));
  }
  table_put(vm, t, intern(vm, "total"), make_integer(vm, int64_t(total)));
  table_put(vm, t, intern(vm, "counting"), g_profile.count_types ? T : NIL);
  return t;
}

// (gc-stats): the collector's statistics, one table of the same keys under
// every collector (measure/gc_stats.h lists them); times in milliseconds and
// shares as floats, counts and bytes as integers, the collector's name as a
// symbol.
Value bi_gc_stats(VM& vm, Value*, int) {
  Value t = make_table(vm);
  for (const GcFigure& f : gc_figures(vm.heap())) {
    Value v = f.kind == GcFigure::Count  ? make_integer(vm, int64_t(f.count))
              : f.kind == GcFigure::Name ? intern(vm, f.name)
                                         : make_flonum(vm, f.number);
    table_put(vm, t, intern(vm, f.key), v);
  }
  return t;
}

// (site-stats (o n)): the per-site counters (measure/sites.h) as a table:
// dispatches, allocations and collections, each a list of tables, most
// first (allocations: by bytes), at most n of each; and counting, t while
// the counters count. Each entry names its site (fn, file, line) and
// holds its counts: count and type; count, bytes and type; minor and major.
Value bi_site_stats(VM& vm, Value* a, int n) {
  size_t limit = n > 0 ? size_t(arg_index(vm, "site-stats", a[0])) : SIZE_MAX;
  Measure& m = Measure::of(vm);
  SiteCounters& s = m.sites();
  if (m.counting_sites()) s.flush();  // the dispatches of the call
  auto entry = [&s, &vm](uint32_t site) {
    SiteCounters::Site where = s.site(site);  // a copy: allocating may add sites
    Value e = make_table(vm);
    table_put(vm, e, intern(vm, "fn"), make_string_utf8(vm, where.function));
    table_put(vm, e, intern(vm, "file"),
              where.file.empty() ? NIL : make_string_utf8(vm, where.file));
    table_put(vm, e, intern(vm, "line"), make_integer(vm, where.line));
    return e;
  };
  auto count = [&vm](uint64_t c) { return make_integer(vm, int64_t(c)); };
  // Built back to front (cons), so that the list is most first.
  auto d = s.top_dispatches();
  auto al = s.top_allocations();
  auto c = s.top_collections();
  Value ds = NIL, as = NIL, cs = NIL;
  for (size_t i = std::min(limit, d.size()); i-- > 0;) {
    Value e = entry(d[i].site);
    table_put(vm, e, intern(vm, "type"), intern(vm, kind_name(d[i].kind)));
    table_put(vm, e, intern(vm, "count"), count(d[i].count));
    ds = cons(vm, e, ds);
  }
  for (size_t i = std::min(limit, al.size()); i-- > 0;) {
    Value e = entry(al[i].site);
    table_put(vm, e, intern(vm, "type"), intern(vm, kind_name(al[i].kind)));
    table_put(vm, e, intern(vm, "count"), count(al[i].count));
    table_put(vm, e, intern(vm, "bytes"), count(al[i].bytes));
    as = cons(vm, e, as);
  }
  for (size_t i = std::min(limit, c.size()); i-- > 0;) {
    Value e = entry(c[i].site);
    table_put(vm, e, intern(vm, "minor"), count(c[i].minor));
    table_put(vm, e, intern(vm, "major"), count(c[i].major));
    cs = cons(vm, e, cs);
  }
  Value t = make_table(vm);
  table_put(vm, t, intern(vm, "dispatches"), ds);
  table_put(vm, t, intern(vm, "allocations"), as);
  table_put(vm, t, intern(vm, "collections"), cs);
  table_put(vm, t, intern(vm, "counting"), boolean(m.counting_sites()));
  return t;
}

// (site-stats-reset): the per-site counters start again from nothing (the
// totals of type-dispatches and --stats go on).
Value bi_site_stats_reset(VM& vm, Value*, int) {
  Measure::of(vm).sites().reset();
  return NIL;
}

// (count-sites on): turns the counting of type dispatches, opcodes and
// sites on (as --stats does) or off; the previous setting.
Value bi_count_sites(VM& vm, Value* a, int) {
  Measure& m = Measure::of(vm);
  bool was = m.counting_sites();
  m.count_sites(a[0] != NIL);
  return boolean(was);
}

// The sampling profiler (measure/profiler.h): (%profile-start [rate]) begins,
// (%profile-stop) ends and keeps the profile, (%profile-write file) writes
// the kept one in pprof's format, (%profile-top [n]) is pprof -top's table
// of it as a string. w/profile and prof (stdlib/lib.arc) are built on them.
Value bi_profile_start(VM& vm, Value* a, int n) {
  int64_t rate = n > 0 ? arg_fixnum(vm, "%profile-start", a[0]) : Profiler::kDefaultRate;
  if (rate < 1 || rate > Profiler::kMaxRate)
    throw_error(vm, "%profile-start: the rate must be 1 to " + std::to_string(Profiler::kMaxRate),
                {a[0]});
  Measure::of(vm).start_profiler(int(rate));
  return NIL;
}

Value bi_profile_stop(VM& vm, Value*, int) {
  Measure::of(vm).stop_profiler();
  return NIL;
}

const pprof::Profile& last_profile(VM& vm, const char* fn) {
  const pprof::Profile* p = Measure::of(vm).last_profile();
  if (!p) throw_error(vm, std::string(fn) + ": no profile taken yet");
  return *p;
}

Value bi_profile_write(VM& vm, Value* a, int) {
  std::string path = arg_text(vm, "%profile-write", a[0]);
  Profiler::write(vm, last_profile(vm, "%profile-write"), path);
  return a[0];
}

Value bi_profile_top(VM& vm, Value* a, int n) {
  int64_t rows = n > 0 ? arg_index(vm, "%profile-top", a[0]) : 20;
  return make_string_utf8(vm, Profiler::top(last_profile(vm, "%profile-top"), size_t(rows)));
}

const BuiltinDef kDefs[] = {
    {"type-dispatches", bi_type_dispatches, 0, 0,
     "table of type dispatches by kind, and total (counted under --stats)"},
    {"site-stats", bi_site_stats, 0, 1,
     "table of type dispatches, allocations and collections by site, most first (at most n)"},
    {"site-stats-reset", bi_site_stats_reset, 0, 0, "start the per-site counters again"},
    {"count-sites", bi_count_sites, 1, 1,
     "turn counting of dispatches, opcodes and sites on or off (as --stats); the old setting"},
    {"gc-stats", bi_gc_stats, 0, 0,
     "table of the collector's statistics (collections, pauses, bytes)"},
    {"%profile-start", bi_profile_start, 0, 1, "start the sampling profiler ([rate] a second)"},
    {"%profile-stop", bi_profile_stop, 0, 0, "stop the profiler, keeping its profile"},
    {"%profile-write", bi_profile_write, 1, 1, "write the last profile to file (pprof's format)"},
    {"%profile-top", bi_profile_top, 0, 1, "the last profile's top [n] functions, as pprof -top"},
};

void open_measure(VM& vm) {
  vm.attach(std::make_unique<Measure>(vm));
  define_builtins(vm, kDefs);
}

}  // namespace

const Library kMeasureLibrary{"measure", open_measure};

}  // namespace vm
