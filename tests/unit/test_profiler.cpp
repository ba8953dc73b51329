// tests/unit/test_profiler.cpp — the sampling profiler (measure/profiler.h) and
// its pprof files (measure/pprof.h). The files are read back with a decoder of
// this test's own, written from profile.proto's field numbers, so that the
// test checks what pprof would read rather than what the writer meant.
// Profiles of known programs, run by the real binary with --profile: a hot
// function on top with its file and line, a recursion's depth in the
// stacks, an allocation site on top of the allocation figures, a builtin and
// the collector as frames of their own, two threads in their labels. The
// programs run long enough (half a second of CPU or more) that the
// proportions asserted hold whatever the load: the timer counts CPU time.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "measure/measure.h"
#include "measure/pprof.h"
#include "measure/profiler.h"
#include "support.h"

namespace {

// ---- a decoder of profile.proto's wire format ----

struct Reader {
  const std::string& s;
  size_t i = 0;
  size_t end;
  Reader(const std::string& str, size_t from, size_t to) : s(str), i(from), end(to) {}
  bool more() const { return i < end; }
  uint64_t varint() {
    uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
      REQUIRE(i < end);
      uint8_t b = uint8_t(s[i++]);
      v |= uint64_t(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
      REQUIRE(shift < 63);
    }
  }
  // The next field: its number, wire type, and for type 2 the bounds.
  struct Field {
    int number, wire;
    uint64_t value;
    size_t from, to;
  };
  Field field() {
    uint64_t key = varint();
    Field f{int(key >> 3), int(key & 7), 0, 0, 0};
    if (f.wire == 0) {
      f.value = varint();
    } else {
      REQUIRE(f.wire == 2);  // the writer uses no other wire types
      size_t n = size_t(varint());
      REQUIRE(i + n <= end);
      f.from = i;
      f.to = i + n;
      i += n;
    }
    return f;
  }
};

struct Decoded {
  struct Sample {
    std::vector<uint64_t> locations;
    std::vector<int64_t> values;
    std::map<std::string, std::string> labels;
  };
  std::vector<std::pair<std::string, std::string>> sample_types;
  std::vector<Sample> samples;
  std::map<uint64_t, std::pair<uint64_t, int64_t>> locations;  // id -> function, line
  struct Function {
    std::string name, file;
  };
  std::map<uint64_t, Function> functions;
  std::vector<std::string> strings;
  std::string default_type;
  int64_t period = 0;

  std::vector<int64_t> packed_or_single(const std::string& s, const Reader::Field& f) {
    std::vector<int64_t> out;
    if (f.wire == 0) {
      out.push_back(int64_t(f.value));
    } else {
      Reader r(s, f.from, f.to);
      while (r.more()) out.push_back(int64_t(r.varint()));
    }
    return out;
  }

  explicit Decoded(const std::string& s) {
    Reader r(s, 0, s.size());
    std::vector<std::pair<uint64_t, uint64_t>> type_ids;  // resolved once strings are read
    std::vector<std::vector<std::pair<uint64_t, uint64_t>>> label_ids;
    std::map<uint64_t, std::pair<uint64_t, uint64_t>> function_ids;
    uint64_t default_id = 0;
    while (r.more()) {
      Reader::Field f = r.field();
      Reader sub(s, f.from, f.to);
      switch (f.number) {
        case 1: {  // sample_type
          uint64_t t = 0, u = 0;
          while (sub.more()) {
            Reader::Field g = sub.field();
            (g.number == 1 ? t : u) = g.value;
          }
          type_ids.emplace_back(t, u);
          break;
        }
        case 2: {  // sample
          Sample smp;
          label_ids.emplace_back();
          while (sub.more()) {
            Reader::Field g = sub.field();
            if (g.number == 1)
              for (int64_t v : packed_or_single(s, g)) smp.locations.push_back(uint64_t(v));
            else if (g.number == 2)
              for (int64_t v : packed_or_single(s, g)) smp.values.push_back(v);
            else if (g.number == 3) {
              Reader l(s, g.from, g.to);
              uint64_t k = 0, v = 0;
              while (l.more()) {
                Reader::Field h = l.field();
                if (h.number == 1) k = h.value;
                if (h.number == 2) v = h.value;
              }
              label_ids.back().emplace_back(k, v);
            }
          }
          samples.push_back(smp);
          break;
        }
        case 4: {  // location
          uint64_t id = 0, fn = 0;
          int64_t line = 0;
          while (sub.more()) {
            Reader::Field g = sub.field();
            if (g.number == 1) id = g.value;
            if (g.number == 4) {
              Reader l(s, g.from, g.to);
              while (l.more()) {
                Reader::Field h = l.field();
                if (h.number == 1) fn = h.value;
                if (h.number == 2) line = int64_t(h.value);
              }
            }
          }
          locations[id] = {fn, line};
          break;
        }
        case 5: {  // function
          uint64_t id = 0, name = 0, file = 0;
          while (sub.more()) {
            Reader::Field g = sub.field();
            if (g.number == 1) id = g.value;
            if (g.number == 2) name = g.value;
            if (g.number == 4) file = g.value;
          }
          function_ids[id] = {name, file};
          break;
        }
        case 6: strings.emplace_back(s, f.from, f.to - f.from); break;
        case 12: period = int64_t(f.value); break;
        case 14: default_id = f.value; break;
        default: break;  // mapping, times, period type
      }
    }
    REQUIRE(!strings.empty());
    CHECK(strings[0].empty());  // as profile.proto requires
    auto str = [&](uint64_t i) {
      REQUIRE(i < strings.size());
      return strings[i];
    };
    for (auto [t, u] : type_ids) sample_types.emplace_back(str(t), str(u));
    for (size_t i = 0; i < samples.size(); ++i)
      for (auto [k, v] : label_ids[i]) samples[i].labels[str(k)] = str(v);
    for (auto& [id, nf] : function_ids) functions[id] = {str(nf.first), str(nf.second)};
    default_type = str(default_id);
  }

  const Function& function_at(uint64_t location) {
    REQUIRE(locations.count(location));
    uint64_t fn = locations[location].first;
    REQUIRE(functions.count(fn));
    return functions[fn];
  }
  int type_index(const std::string& type) {
    for (size_t i = 0; i < sample_types.size(); ++i)
      if (sample_types[i].first == type) return int(i);
    FAIL("no sample type " << type);
    return -1;
  }
  // Sum of a sample type's values by the innermost frame's function.
  std::map<std::string, int64_t> flat(const std::string& type) {
    int k = type_index(type);
    std::map<std::string, int64_t> by;
    for (const Sample& smp : samples)
      if (!smp.locations.empty()) by[function_at(smp.locations[0]).name] += smp.values[size_t(k)];
    return by;
  }
  std::string top(const std::string& type) {
    auto by = flat(type);
    auto it = std::max_element(by.begin(), by.end(),
                               [](const auto& a, const auto& b) { return a.second < b.second; });
    return it == by.end() ? "" : it->first;
  }
  int64_t total(const std::string& type) {
    int64_t t = 0;
    for (auto& [name, v] : flat(type)) t += v;
    return t;
  }
};

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Runs the binary on program (written to a file) with --profile; the
// decoded profile. The script's path is returned for checking file names.
struct Profiled {
  std::string script;
  Decoded profile;
};

// One directory for the whole run, removed with everything in it when the
// test binary exits (each run left one behind before).
struct TempDir {
  std::string path;
  TempDir() {
    char tmpl[] = "/tmp/arcana-profile-XXXXXX";
    REQUIRE(mkdtemp(tmpl) != nullptr);
    path = tmpl;
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
};

std::string temp_dir() {
  static TempDir dir;
  return dir.path;
}

// relative: the binary runs in the temporary directory, given the
// script's name alone (the profile must still name it absolutely).
Decoded run_profiled(const std::string& name, const std::string& program, std::string& script,
                     const std::string& options = "", bool relative = false) {
  script = temp_dir() + "/" + name + ".arc";
  std::string prof = temp_dir() + "/" + name + ".pb.gz";
  std::ofstream(script) << program;
  std::string cmd = (relative ? "cd " + temp_dir() + " && " : std::string()) +
                    std::string(ARCANA_BINARY) + " --profile=" + prof + " " + options + " " +
                    (relative ? name + ".arc" : script) + " > /dev/null 2> " + temp_dir() + "/" +
                    name + ".err";
  int status = std::system(cmd.c_str());
  INFO("stderr: " << slurp(temp_dir() + "/" + name + ".err"));
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  return Decoded(vm::pprof::gunzip(slurp(prof)));
}

}  // namespace

TEST_CASE("pprof: a profile encodes as profile.proto reads it", "[profiler]") {
  vm::pprof::Profile p({{"samples", "count"}, {"cpu", "nanoseconds"}}, {"cpu", "nanoseconds"},
                       1000000);
  p.set_default_sample_type("cpu");
  uint64_t f = p.function("f", "a.arc", 3), g = p.function("g", "b.arc", 10);
  CHECK(p.function("f", "a.arc", 3) == f);  // interned
  uint64_t f4 = p.location(f, 4), g11 = p.location(g, 11);
  CHECK(p.location(f, 4) == f4);
  p.add({f4, g11}, {1, 1000000}, {{"thread", "main"}});
  p.add({f4, g11}, {2, 2000000}, {{"thread", "main"}});  // merged with the first
  p.add({g11}, {1, 1000000}, {{"thread", "thread 1"}});
  Decoded d(vm::pprof::gunzip(vm::pprof::gzip(p.encode())));
  REQUIRE(d.sample_types.size() == 2);
  CHECK(d.sample_types[1] == std::make_pair(std::string("cpu"), std::string("nanoseconds")));
  CHECK(d.default_type == "cpu");
  CHECK(d.period == 1000000);
  REQUIRE(d.samples.size() == 2);
  std::map<std::string, Decoded::Sample> by_thread;
  for (auto& s : d.samples) by_thread[s.labels["thread"]] = s;
  REQUIRE(by_thread.count("main"));
  CHECK(by_thread["main"].values == std::vector<int64_t>{3, 3000000});
  REQUIRE(by_thread["main"].locations.size() == 2);
  CHECK(d.function_at(by_thread["main"].locations[0]).name == "f");
  CHECK(d.function_at(by_thread["main"].locations[0]).file == "a.arc");
  CHECK(d.locations[by_thread["main"].locations[1]].second == 11);
  CHECK(d.function_at(by_thread["thread 1"].locations[0]).name == "g");
  CHECK_THROWS(vm::pprof::gunzip("not gzip"));
}

TEST_CASE("profiler: the hot function is on top, with its file and line", "[profiler]") {
  std::string script;
  Decoded d = run_profiled("hot", R"(
(def cold (n) (let s 0 (for i 1 n (++ s i)) s))
(def hot (n)
  (let s 0
    (for i 1 n
      (++ s (+ i i i)))
    s))
(cold 100000)
(hot 20000000)
)",
                           script);
  CHECK(d.default_type == "cpu");
  CHECK(d.top("cpu") == "hot");
  auto flat = d.flat("cpu");
  // Most of the run is hot's own: its body calls no builtin (a builtin is
  // a frame of its own, as (* i 3) was, and under a loaded machine's
  // scheduling its share could take hot below the bar).
  CHECK(flat["hot"] * 10 > d.total("cpu") * 8);
  // Its frames name the script and lines of hot's body (3 to 7).
  bool located = false;
  for (auto& s : d.samples) {
    if (s.locations.empty() || d.function_at(s.locations[0]).name != "hot") continue;
    CHECK(d.function_at(s.locations[0]).file == script);
    int64_t line = d.locations[s.locations[0]].second;
    CHECK(line >= 3);
    CHECK(line <= 7);
    located = true;
  }
  CHECK(located);
  for (auto& s : d.samples) CHECK(s.labels["thread"] == "main");
  // Where Go is installed, pprof itself reads the file the same way.
  if (std::system("command -v go > /dev/null 2>&1") == 0) {
    std::string top = temp_dir() + "/hot.top";
    std::string cmd = "go tool pprof -top " + temp_dir() + "/hot.pb.gz > " + top + " 2>&1";
    CHECK(std::system(cmd.c_str()) == 0);
    std::string text = slurp(top);
    INFO(text);
    CHECK(text.find("Type: cpu") != std::string::npos);
    CHECK(text.find(" hot\n") != std::string::npos);
  }
}

// Loops are macros whose jump back is at the loop's own line; a sample
// taken at that jump (the safe point after the tick) would charge the
// whole body to the loop's head. Each body here is two lines whose work
// outweighs the head's (repeat's and each's by enough that the body's
// share stays well above a half on a loaded machine too).
TEST_CASE("profiler: a loop's body is charged to its own lines", "[profiler]") {
  std::string script;
  Decoded d = run_profiled("loops", R"(
(def via-for (n)
  (let acc 0
    (for i 1 n
      (= acc (mod (+ (* acc 7) i) 1000003))
      (= acc (mod (+ (* acc 5) i) 1000033)))
    acc))
(def via-while (n)
  (with (acc 0 i 0)
    (while (< i n)
      (= acc (mod (+ (* acc 7) i) 1000003))
      (= acc (mod (+ (* acc 5) i) 1000033))
      (++ i))
    acc))
(def via-repeat (n)
  (let acc 0
    (repeat n
      (= acc (mod (+ (* acc 7) 3 (mod acc 11)) 1000003))
      (= acc (mod (+ (* acc 5) 3 (mod acc 13)) 1000033)))
    acc))
(def via-each (xs)
  (let acc 0
    (each x xs
      (= acc (mod (+ (* acc 7) x (mod acc 11)) 1000003))
      (= acc (mod (+ (* acc 5) x (mod acc 13)) 1000033)))
    acc))
(via-for 6000000)
(via-while 6000000)
(via-repeat 6000000)
(let xs (range 1 200000) (repeat 30 (via-each xs)))
)",
                           script, "", true);
  // Each function's samples by line: the loop's head and the body's lines.
  struct Loop {
    const char* fn;
    int64_t head, first, last;
  };
  for (Loop l : {Loop{"via-for", 4, 5, 6}, Loop{"via-while", 10, 11, 13},
                 Loop{"via-repeat", 17, 18, 19}, Loop{"via-each", 23, 24, 25}}) {
    INFO(l.fn);
    int64_t body = 0, all = 0;
    for (auto& s : d.samples) {
      if (s.locations.empty() || d.function_at(s.locations[0]).name != l.fn) continue;
      // Absolute, though the script was given by its name alone: pprof
      // -list finds it from any directory.
      CHECK(d.function_at(s.locations[0]).file == script);
      int64_t line = d.locations[s.locations[0]].second;
      all += s.values[0];
      if (line >= l.first && line <= l.last) body += s.values[0];
      else CHECK(line <= l.head);
    }
    INFO("body " << body << " of " << all << " samples");
    CHECK(all >= 20);
    CHECK(body * 2 > all);
  }
}

TEST_CASE("profiler: a recursion shows its depth, a builtin and [gc] their own frames",
          "[profiler]") {
  std::string script;
  Decoded d = run_profiled("deep", R"(
(def spin (n) (let s 0 (for i 1 n (++ s i)) s))
(def deep (n) (if (is n 0) (spin 3000000) (+ 1 (deep (- n 1)))))
(repeat 20 (deep 40))
(def big (n) (let acc nil (repeat n (push (list 1 2) acc)) acc))
(let l (big 300000) (repeat 5 (len (tostring (write l)))))
(def churn (n)
  (with (keep nil kept 0)
    (repeat n
      (push (list 1 2 3) keep)
      (when (> (++ kept) 50000) (= keep nil kept 0)))))
(churn 3000000)
)",
                           script, "--nursery=256K");
  size_t deepest = 0;
  bool builtin_on_top = false, gc_on_top = false;
  for (auto& s : d.samples) {
    size_t n = 0;
    for (uint64_t loc : s.locations) n += d.function_at(loc).name == "deep";
    deepest = std::max(deepest, n);
    if (s.locations.empty()) continue;
    const std::string& top = d.function_at(s.locations[0]).name;
    builtin_on_top |= top == "write" && s.locations.size() > 1;
    gc_on_top |= top == "[gc]" && s.locations.size() > 1;
  }
  // (deep 40) down to (deep 1): (deep 0) calls spin in tail position, so
  // spin's frame took its place.
  CHECK(deepest == 40);
  CHECK(builtin_on_top);
  CHECK(gc_on_top);
}

TEST_CASE("profiler: allocation has its own figures, and two threads their labels", "[profiler]") {
  std::string script;
  Decoded d = run_profiled("alloc", R"(
(def spin (n) (let s 0 (for i 1 n (++ s i)) s))
(def allocator (n) (let acc nil (repeat n (= acc (list 1 2 3 4 5 6))) acc))
(spin 5000000)
(allocator 2000000)
(spin 5000000)
(let th (thread (spin 10000000)) (spin 10000000) (until (dead th) (sleep 0.01)))
)",
                           script);
  CHECK(d.top("alloc_space") == "allocator");
  CHECK(d.top("cpu") == "spin");
  std::map<std::string, int64_t> by_thread;
  int k = d.type_index("cpu");
  for (auto& s : d.samples) by_thread[s.labels["thread"]] += s.values[size_t(k)];
  CHECK(by_thread["main"] > 0);
  CHECK(by_thread["thread 1"] > 0);
}

// A builtin that collects (here the server's idle collection, which also
// gives the heap's spare pages back) may move its own object: the sample
// of its ticks must not read the object where it was. It did, and a news
// server under --profile crashed at its first idle collection.
TEST_CASE("profiler: a builtin that collects, moving its own object, is sampled by name",
          "[profiler]") {
  std::string script;
  Decoded d = run_profiled("collecting", R"(
(= junk nil)
(repeat 60 (= junk (n-of 2000 (list 1 2 3))) (%trim-memory 0 t) (= junk nil) (%trim-memory 0 t))
)",
                           script, "--profile-rate=4000");
  bool trim_on_top = false;
  for (auto& s : d.samples)
    if (!s.locations.empty()) trim_on_top |= d.function_at(s.locations[0]).name == "%trim-memory";
  CHECK(trim_on_top);
}

TEST_CASE("profiler: profile-top prints the top functions and gives the value", "[profiler]") {
  std::string out = support::output_of(R"(
(def prof-spin (n) (let s 0 (for i 1 n (++ s i)) s))
(prn (profile-top (prof-spin 3000000)))
)");
  CHECK(out.find("flat%") != std::string::npos);
  CHECK(out.find("prof-spin") != std::string::npos);
  CHECK(out.find("4500001500000") != std::string::npos);  // the value, after the table
  CHECK(support::error_of("(%profile-write \"/nonexistent/dir/p.gz\")").find("cannot write") !=
        std::string::npos);
  CHECK(support::error_of("(%profile-start 0)").find("rate") != std::string::npos);
  CHECK(support::error_of("(do (%profile-start) (after (%profile-start) (%profile-stop)))")
            .find("running already") != std::string::npos);
}

TEST_CASE("profiler: --profile to a path it cannot write is an option error", "[profiler]") {
  std::string cmd = std::string(ARCANA_BINARY) +
                    " --profile=/nonexistent/dir/p.pb.gz -e 1 > /dev/null 2> /dev/null";
  int status = std::system(cmd.c_str());
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 2);
  cmd = std::string(ARCANA_BINARY) + " --profile-rate=0 -e 1 > /dev/null 2> /dev/null";
  status = std::system(cmd.c_str());
  CHECK(WEXITSTATUS(status) == 2);
  // A script that quits still writes its profile.
  std::string prof = temp_dir() + "/quit.pb.gz";
  cmd = std::string(ARCANA_BINARY) + " --profile=" + prof +
        " -e '(do (let s 0 (for i 1 3000000 (++ s i))) (quit 3))' > /dev/null 2> /dev/null";
  status = std::system(cmd.c_str());
  CHECK(WEXITSTATUS(status) == 3);
  Decoded d(vm::pprof::gunzip(slurp(prof)));
  CHECK(d.total("cpu") > 0);
}

// The one process-wide way back to a VM (vm/vm.h, foreground_vm): the
// profiler's timer acts on the foreground VM, so a profiler publishes its
// VM when none is published, withdraws it when it stops, and is refused
// for a VM that is not the foreground one.
TEST_CASE("profiler: the timer's VM is the foreground one", "[profiler]") {
  vm::VM* before = vm::foreground_vm();
  vm::set_foreground_vm(nullptr);
  {
    compiler::Runtime a, b;
    vm::Measure::of(a.vm()).start_profiler(vm::Profiler::kDefaultRate, "");
    CHECK(vm::foreground_vm() == &a.vm());
    std::string refused;
    try {
      vm::Measure::of(b.vm()).start_profiler(vm::Profiler::kDefaultRate, "");
    } catch (vm::ArcError& e) {
      refused = compiler::Runtime::describe_error(e.exc);
    }
    CHECK(refused.find("running already") != std::string::npos);
    vm::Measure::of(a.vm()).stop_profiler();
    CHECK(vm::foreground_vm() == nullptr);
    // A VM published by its front end stays published after a profile.
    vm::set_foreground_vm(&b.vm());
    vm::Measure::of(b.vm()).start_profiler(vm::Profiler::kDefaultRate, "");
    vm::Measure::of(b.vm()).stop_profiler();
    CHECK(vm::foreground_vm() == &b.vm());
  }
  CHECK(vm::foreground_vm() == nullptr);  // b withdrew itself as it ended
  vm::set_foreground_vm(before);
}
