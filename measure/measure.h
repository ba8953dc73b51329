// measure/measure.h — the measurement library: what a program costs and
// where. The counts by site of --stats and (site-stats) (measure/sites.h),
// the sampling profiler of --profile and w/profile with its pprof files
// (measure/profiler.h, measure/pprof.h), and the collector's figures of
// (gc-stats) and --stats (measure/gc_stats.h). It sits on the core (vm/),
// which it watches through one Instrument (vm/instrument.h) attached when
// the library opens; the core links none of it (nor zlib, which pprof's
// files are compressed with).
#pragma once
#include <memory>
#include <string>

#include "measure/pprof.h"
#include "measure/sites.h"
#include "vm/instrument.h"
#include "vm/library.h"

namespace vm {

class Profiler;

extern const Library kMeasureLibrary;

// The library's state in one VM: its instrument.
class Measure final : public Instrument {
 public:
  explicit Measure(VM& vm);
  ~Measure() override;

  // The Measure of a VM the library is open in (an Arc error if it is not).
  static Measure& of(VM& vm);

  // ---- counting by site (--stats, (count-sites t)) ----
  void count_sites(bool on);
  bool counting_sites() const;
  SiteCounters& sites() { return sites_; }

  // ---- the sampling profiler ----
  // Starts it (an Arc error if it runs); stops it, keeping what it took as
  // the last profile, which last_profile() gives (null before any). Started
  // with a path (--profile), what it takes is written there when the
  // process ends (finish: the end of main, or quit).
  void start_profiler(int rate, std::string path = {});
  void stop_profiler();
  // Stops a profiler started with a path and writes its file; a failure is
  // printed to stderr, and the result is false.
  bool finish_profile();
  bool profiling() const { return profiler_ != nullptr; }
  const pprof::Profile* last_profile() const { return last_profile_.get(); }

  // ---- Instrument ----
  void enter_site(Code* c, uint32_t pc) override { sites_.at(c, pc); }
  void at_frame(const Value* base, const Insn* pc) override { sites_.at_frame(base, pc); }
  Code* site_code() const override { return sites_.code(); }
  uint32_t site_pc() const override { return sites_.pc(); }
  void forget_site() override { sites_.forget_code(); }
  void allocation(Kind k, size_t bytes) override;
  uint32_t collection_begins() override;
  void collection_ends(uint32_t token, bool major) override;
  bool sample_pending() const override;
  void sample(bool at_entry) override;
  void sample_builtin(const Builtin* b, uint64_t ticks_before) override;
  void finish() override { finish_profile(); }

 private:
  VM& vm_;
  SiteCounters sites_;
  std::unique_ptr<Profiler> profiler_;
  std::unique_ptr<pprof::Profile> last_profile_;
  std::string profile_path_;  // start_profiler's path
};

}  // namespace vm
