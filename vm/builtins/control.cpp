// vm/builtins/control.cpp — errors, continuations, apply, dynamic wind, the
// collector (docs/LANGUAGE.md 4.13). on-err, protect and call-w/stdout are written in
// Arc over these (stdlib/prelude.arc).
#include <algorithm>
#include <cstdint>

#include "vm/builtins.h"
#include "vm/error.h"
#include "vm/gc_stats.h"
#include "vm/number.h"
#include "vm/print.h"
#include "vm/profiler.h"
#include "vm/string.h"
#include "vm/symbol.h"
#include "vm/table.h"
#include "vm/vm.h"

namespace vm {
namespace {

// (err msg . args): msg displayed, then each arg as errors show it
// (vm/error.h), space-separated.
Value bi_err(VM&, Value* a, int n) {
  Value irritants = NIL;
  for (int i = n; i-- > 1;) irritants = cons(a[i], irritants);
  throw_error_list(disp_string(a[0]), irritants);
}

Value bi_details(VM&, Value* a, int) {
  if (TYPE(a[0]) != Kind::Exception) type_error("details", "an exception", a[0]);
  return string_copy(a[0].as<Exception>()->message);
}

// (%describe-error e): the message and the Arc backtrace of an exception,
// as the REPL prints them (the server's error log).
Value bi_describe_error(VM&, Value* a, int) {
  if (TYPE(a[0]) != Kind::Exception) type_error("%describe-error", "an exception", a[0]);
  return make_string_utf8(describe_error(a[0]));
}

Value bi_ccc(VM& vm, Value* a, int) {
  Value f = a[0];
  Value k = vm.capture_continuation();
  Value* s = vm.tail_call_slots(1);
  s[-1] = f;
  s[0] = k;
  return vm.tail_call_marker();
}

Value bi_captures(VM& vm, Value*, int) { return Value::fixnum(int64_t(vm.captures())); }

// (apply f a1 ... an lst): f called with a1..an and lst's elements.
Value bi_apply(VM& vm, Value* a, int n) {
  Value f = a[0];
  if (n == 1) {
    vm.tail_call_slots(0)[-1] = f;
    return vm.tail_call_marker();
  }
  Value lst = a[n - 1];
  int64_t len = 0;
  for (Value p = lst; is_cons(p); p = cdr(p)) ++len;
  Value tail = lst;
  for (int64_t i = 0; i < len; ++i) tail = cdr(tail);
  if (!tail.is_nil()) type_error("apply", "a proper list as the last argument", lst);
  int total = n - 2 + int(len);
  Value* s = vm.tail_call_slots(total);
  // s aliases a: shift a1..an left by one, then append the list.
  s[-1] = f;
  for (int i = 1; i < n - 1; ++i) s[i - 1] = a[i];
  int j = n - 2;
  for (Value p = lst; is_cons(p); p = cdr(p)) s[j++] = car(p);
  return vm.tail_call_marker();
}

Value bi_push_wind(VM& vm, Value* a, int) {
  vm.push_wind(a[0], a[1]);
  return NIL;
}

Value bi_pop_wind(VM& vm, Value*, int) {
  vm.pop_wind();
  return NIL;
}

// (%wind-to w): %run-winds sets the chain each step of a transfer runs
// under. The unwinding code takes car and cdr of each element unchecked,
// so anything but a proper list of pairs is refused.
Value bi_wind_to(VM& vm, Value* a, int) {
  Value p = a[0];
  for (; is_cons(p); p = cdr(p))
    if (!is_cons(car(p))) type_error("%wind-to", "a list of (before . after) pairs", a[0]);
  if (!p.is_nil()) type_error("%wind-to", "a list of (before . after) pairs", a[0]);
  vm.set_winds(a[0]);
  return NIL;
}

// (gc): a full collection.
Value bi_gc(VM& vm, Value*, int) {
  // A full collection, now. The call is a safe point: this builtin holds no
  // Values, its arguments are on the VM stack, and the interpreter saved its
  // registers before the call and reloads them after every builtin.
  vm.collect_garbage();
  return NIL;
}

// (type-dispatches): how many times TYPE (vm/object.h) has decided a value's
// kind, by kind name, with `total`; counted only when --stats turned the
// counters on (otherwise every count is 0), so a program such as the news
// benchmark can measure one request by the difference of two readings.
Value bi_type_dispatches(VM&, Value*, int) {
  Value t = make_table();
  uint64_t total = 0;
  for (int k = 0; k < kKindCount; ++k) {
    uint64_t n = g_profile.type_counts[k];
    total += n;
    if (n) table_put(t, intern(kind_name(Kind(k))), make_integer(int64_t(n)));
  }
  table_put(t, intern("total"), make_integer(int64_t(total)));
  table_put(t, intern("counting"), g_profile.count_types ? T : NIL);
  return t;
}

// (gc-stats): the collector's statistics, one table of the same keys under
// every collector (vm/gc_stats.h lists them); times in milliseconds and
// shares as floats, counts and bytes as integers, the collector's name as a
// symbol.
Value bi_gc_stats(VM& vm, Value*, int) {
  Value t = make_table();
  for (const GcFigure& f : gc_figures(vm.heap())) {
    Value v = f.kind == GcFigure::Count  ? make_integer(int64_t(f.count))
              : f.kind == GcFigure::Name ? intern(f.name)
                                         : make_flonum(f.number);
    table_put(t, intern(f.key), v);
  }
  return t;
}

// (site-stats (o n)): the per-site counters (vm/sites.h) as a table:
// dispatches, allocations and collections, each a list of tables, most
// first (allocations: by bytes), at most n of each; and counting, t while
// the counters count. Each entry names its site (fn, file, line) and
// holds its counts: count and type; count, bytes and type; minor and major.
Value bi_site_stats(VM& vm, Value* a, int n) {
  size_t limit = n > 0 ? size_t(arg_index("site-stats", a[0])) : SIZE_MAX;
  SiteCounters& s = vm.sites();
  if (g_profile.sites == &s) s.flush();  // the dispatches of the call
  auto entry = [&s](uint32_t site) {
    SiteCounters::Site where = s.site(site);  // a copy: allocating may add sites
    Value e = make_table();
    table_put(e, intern("fn"), make_string_utf8(where.function));
    table_put(e, intern("file"), where.file.empty() ? NIL : make_string_utf8(where.file));
    table_put(e, intern("line"), make_integer(where.line));
    return e;
  };
  auto count = [](uint64_t c) { return make_integer(int64_t(c)); };
  // Built back to front (cons), so that the list is most first.
  auto d = s.top_dispatches();
  auto al = s.top_allocations();
  auto c = s.top_collections();
  Value ds = NIL, as = NIL, cs = NIL;
  for (size_t i = std::min(limit, d.size()); i-- > 0;) {
    Value e = entry(d[i].site);
    table_put(e, intern("type"), intern(kind_name(d[i].kind)));
    table_put(e, intern("count"), count(d[i].count));
    ds = cons(e, ds);
  }
  for (size_t i = std::min(limit, al.size()); i-- > 0;) {
    Value e = entry(al[i].site);
    table_put(e, intern("type"), intern(kind_name(al[i].kind)));
    table_put(e, intern("count"), count(al[i].count));
    table_put(e, intern("bytes"), count(al[i].bytes));
    as = cons(e, as);
  }
  for (size_t i = std::min(limit, c.size()); i-- > 0;) {
    Value e = entry(c[i].site);
    table_put(e, intern("minor"), count(c[i].minor));
    table_put(e, intern("major"), count(c[i].major));
    cs = cons(e, cs);
  }
  Value t = make_table();
  table_put(t, intern("dispatches"), ds);
  table_put(t, intern("allocations"), as);
  table_put(t, intern("collections"), cs);
  table_put(t, intern("counting"), boolean(g_profile.sites == &vm.sites()));
  return t;
}

// (site-stats-reset): the per-site counters start again from nothing (the
// totals of type-dispatches and --stats go on).
Value bi_site_stats_reset(VM& vm, Value*, int) {
  vm.sites().reset();
  return NIL;
}

// (count-sites on): turns the counting of type dispatches, opcodes and
// sites on (as --stats does) or off; the previous setting.
Value bi_count_sites(VM& vm, Value* a, int) {
  bool was = g_profile.sites == &vm.sites();
  vm.count_sites(a[0] != NIL);
  return boolean(was);
}

// The heap verifier, for tests: the list of problems found (nil: none).
Value bi_verify_heap(VM& vm, Value*, int) {
  Value r = NIL;
  for (const std::string& p : vm.heap().verify()) r = cons(make_string_utf8(p), r);
  return r;
}

// For tests that must scale their work down when every safe point collects.
Value bi_gc_stress(VM& vm, Value*, int) { return boolean(vm.heap().stress()); }

// The sampling profiler (vm/profiler.h): (%profile-start [rate]) begins,
// (%profile-stop) ends and keeps the profile, (%profile-write file) writes
// the kept one in pprof's format, (%profile-top [n]) is pprof -top's table
// of it as a string. w/profile and prof (stdlib/lib.arc) are built on them.
Value bi_profile_start(VM& vm, Value* a, int n) {
  int64_t rate = n > 0 ? arg_fixnum("%profile-start", a[0]) : Profiler::kDefaultRate;
  if (rate < 1 || rate > Profiler::kMaxRate)
    throw_error("%profile-start: the rate must be 1 to " + std::to_string(Profiler::kMaxRate),
                {a[0]});
  vm.start_profiler(int(rate));
  return NIL;
}

Value bi_profile_stop(VM& vm, Value*, int) {
  vm.stop_profiler();
  return NIL;
}

const pprof::Profile& last_profile(VM& vm, const char* fn) {
  if (!vm.last_profile()) throw_error(std::string(fn) + ": no profile taken yet");
  return *vm.last_profile();
}

Value bi_profile_write(VM& vm, Value* a, int) {
  std::string path = arg_text("%profile-write", a[0]);
  Profiler::write(last_profile(vm, "%profile-write"), path);
  return a[0];
}

Value bi_profile_top(VM& vm, Value* a, int n) {
  int64_t rows = n > 0 ? arg_index("%profile-top", a[0]) : 20;
  return make_string_utf8(Profiler::top(last_profile(vm, "%profile-top"), size_t(rows)));
}

Value bi_bound(VM&, Value* a, int) {
  Value s = arg_symbol("bound", a[0]);
  if (s == NIL || s == T) return T;
  return boolean(global_value(s) != UNBOUND);
}

const BuiltinDef kDefs[] = {
    {"err", bi_err, 1, -1, "raise an error: msg, then the other args shown"},
    {"details", bi_details, 1, 1, "the message string of an exception"},
    {"%describe-error", bi_describe_error, 1, 1, "an exception's message and backtrace"},
    {"ccc", bi_ccc, 1, 1, "call f with the current continuation"},
    {"%captures", bi_captures, 0, 0, "the count of continuations captured so far"},
    {"apply", bi_apply, 1, -1, "(apply f a1 ... lst): call f with a1... and lst's elements"},
    {"%push-wind", bi_push_wind, 2, 2, "enter a dynamic-wind extent (before after)"},
    {"%pop-wind", bi_pop_wind, 0, 0, "leave the innermost dynamic-wind extent"},
    {"%wind-to", bi_wind_to, 1, 1, "make w the wind chain (a transfer's steps, %run-winds)"},
    {"gc", bi_gc, 0, 0, "force a full collection"},
    {"type-dispatches", bi_type_dispatches, 0, 0,
     "table of type dispatches by kind, and total (counted under --stats)"},
    {"site-stats", bi_site_stats, 0, 1,
     "table of type dispatches, allocations and collections by site, most first (at most n)"},
    {"site-stats-reset", bi_site_stats_reset, 0, 0, "start the per-site counters again"},
    {"count-sites", bi_count_sites, 1, 1,
     "turn counting of dispatches, opcodes and sites on or off (as --stats); the old setting"},
    {"gc-stats", bi_gc_stats, 0, 0,
     "table of the collector's statistics (collections, pauses, bytes)"},
    {"%verify-heap", bi_verify_heap, 0, 0, "run the heap verifier; list of problems"},
    {"%gc-stress", bi_gc_stress, 0, 0, "t if the heap collects at every safe point"},
    {"bound", bi_bound, 1, 1, "t if the global variable sym has a value"},
    {"%profile-start", bi_profile_start, 0, 1, "start the sampling profiler ([rate] a second)"},
    {"%profile-stop", bi_profile_stop, 0, 0, "stop the profiler, keeping its profile"},
    {"%profile-write", bi_profile_write, 1, 1, "write the last profile to file (pprof's format)"},
    {"%profile-top", bi_profile_top, 0, 1, "the last profile's top [n] functions, as pprof -top"},
};

}  // namespace

void register_control_builtins(VM& vm) {
  define_builtins(vm, kDefs);
  // Room for the library's definitions (about 650) and a program's: the
  // table is not rebuilt nine times over as the library loads.
  vm.define("sig", make_table(1024));
}

}  // namespace vm
