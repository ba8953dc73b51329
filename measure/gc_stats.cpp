// measure/gc_stats.cpp — the list of the collector's figures (measure/gc_stats.h).
#include "measure/gc_stats.h"

#include <sys/resource.h>

#include <ctime>

namespace vm {

std::vector<GcFigure> gc_figures(gc::Heap& heap) {
  heap.refresh_stats();  // (the allocation totals are summed up here)
  const gc::GcStats& st = heap.stats();
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  timespec cpu{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu);
  using F = GcFigure;
  auto count = [](const char* key, uint64_t n) { return F{key, F::Count, n}; };
  auto ms = [](const char* key, double d) { return F{key, F::Ms, 0, d}; };
  auto ratio = [](const char* key, double d) { return F{key, F::Ratio, 0, d}; };
  return {
      F{"collector", F::Name, 0, 0, heap.name()},
      count("collections", st.collections),
      count("minor-collections", st.minor_collections),
      count("major-collections", st.major_collections),
      ms("gc-ms", st.gc_ms),
      ms("collector-thread-ms", st.collector_thread_ms),
      ms("run-ms", gc::GcStats::run_ms()),
      ratio("gc-share", st.gc_share()),
      ms("p50-pause-ms", st.pause_percentile(50)),
      ms("p99-pause-ms", st.pause_percentile(99)),
      ms("max-pause-ms", st.max_pause_ms),
      ms("p50-minor-pause-ms", st.minor_pauses_ms.percentile(50)),
      ms("p99-minor-pause-ms", st.minor_pauses_ms.percentile(99)),
      ms("max-minor-pause-ms", st.minor_pauses_ms.percentile(100)),
      ms("p50-major-pause-ms", st.major_pauses_ms.percentile(50)),
      ms("p99-major-pause-ms", st.major_pauses_ms.percentile(99)),
      ms("max-major-pause-ms", st.major_pauses_ms.percentile(100)),
      count("allocated-bytes", st.bytes_allocated),
      count("allocated-objects", st.objects_allocated),
      count("promoted-bytes", st.bytes_promoted),
      count("live-bytes", st.bytes_live),
      count("peak-heap-bytes", st.peak_heap_bytes),
      ratio("fragmentation", st.fragmentation),
      count("compactions", st.compactions),
      count("compacted-bytes", st.bytes_compacted),
      count("peak-rss-bytes", uint64_t(ru.ru_maxrss) * 1024),  // Linux: KiB
      ms("cpu-ms", double(cpu.tv_sec) * 1e3 + double(cpu.tv_nsec) / 1e6),
  };
}

}  // namespace vm
