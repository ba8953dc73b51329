// measure/pprof.h — profiles in pprof's format: the profile.proto message
// (github.com/google/pprof, proto/profile.proto), protobuf-encoded by hand
// and gzipped with zlib, which `go tool pprof` reads.
//
// A Profile collects samples, each a call stack (innermost frame first) and
// one value per sample type, with string labels. Functions (a name and a
// file) and locations (a function and a line) are interned as samples come
// in, so a sample costs a lookup per frame; identical stacks with identical
// labels are merged, their values summed. encode() writes the message, in
// which every string is an index into one string table whose entry 0 is "".
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace vm::pprof {

struct ValueType {
  std::string type;  // "samples", "cpu", "alloc_space"
  std::string unit;  // "count", "nanoseconds", "bytes"
};

class Profile {
 public:
  Profile(std::vector<ValueType> sample_types, ValueType period_type, int64_t period);

  // The id of the function (name, file) that starts at start_line; the
  // same id for the same name and file.
  uint64_t function(const std::string& name, const std::string& file, int64_t start_line);
  // The id of the location: a line of a function.
  uint64_t location(uint64_t function, int64_t line);
  // Adds values (one per sample type) to the sample of this stack
  // (location ids, innermost first) and these labels (key, value).
  void add(const std::vector<uint64_t>& stack, const std::vector<int64_t>& values,
           const std::vector<std::pair<std::string, std::string>>& labels = {});
  // The sample type pprof shows unless told otherwise (one of those given).
  void set_default_sample_type(const std::string& type) { default_type_ = str(type); }
  void set_time(int64_t time_nanos, int64_t duration_nanos) {
    time_nanos_ = time_nanos;
    duration_nanos_ = duration_nanos;
  }

  // The profile.proto message, not compressed.
  std::string encode() const;

  // For reports without pprof ((prof expr)): each sample's stack as the
  // functions' names, innermost first, and its values.
  struct Sample {
    std::vector<uint64_t> stack;
    std::vector<std::pair<std::string, std::string>> labels;
    std::vector<int64_t> values;
  };
  std::vector<Sample> samples() const;
  const std::string& function_name(uint64_t location) const;
  size_t sample_types() const { return sample_types_.size(); }

 private:
  struct Function {
    int64_t name, file, start_line;
  };
  struct Location {
    uint64_t function;
    int64_t line;
  };
  int64_t str(const std::string& s);       // interns s
  int64_t id(const std::string& s) const;  // an interned string's index

  std::vector<ValueType> sample_types_;
  ValueType period_type_;
  int64_t period_;
  int64_t time_nanos_ = 0, duration_nanos_ = 0;
  int64_t default_type_ = 0;
  std::vector<std::string> strings_{""};
  std::unordered_map<std::string, int64_t> string_ids_{{"", 0}};
  std::vector<Function> functions_;  // id i + 1
  std::map<std::pair<int64_t, int64_t>, uint64_t> function_ids_;
  std::vector<Location> locations_;  // id i + 1
  std::map<std::pair<uint64_t, int64_t>, uint64_t> location_ids_;
  // Samples merged by stack and labels (as string ids).
  std::map<std::pair<std::vector<uint64_t>, std::vector<int64_t>>, std::vector<int64_t>> samples_;
};

// data compressed in gzip's format (zlib's deflate with a gzip header).
std::string gzip(const std::string& data);
// The reverse, for tests and tools; throws std::runtime_error on bad input.
std::string gunzip(const std::string& data);

}  // namespace vm::pprof
