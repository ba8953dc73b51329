// measure/pprof.cpp — see measure/pprof.h. The field numbers below are those of
// profile.proto (package perftools.profiles); each message is written as
// protobuf's wire format: a key (field << 3 | wire type) then a varint
// (type 0) or a length and bytes (type 2: strings, messages, packed
// repeated numbers).
#include "measure/pprof.h"

#include <zlib.h>

#include <stdexcept>

namespace vm::pprof {

namespace {

// profile.proto's field numbers.
enum ProfileField {
  kSampleType = 1,
  kSample = 2,
  kMapping = 3,
  kLocation = 4,
  kFunction = 5,
  kStringTable = 6,
  kTimeNanos = 9,
  kDurationNanos = 10,
  kPeriodType = 11,
  kPeriod = 12,
  kDefaultSampleType = 14,
};
enum ValueTypeField { kVtType = 1, kVtUnit = 2 };
enum SampleField { kSampleLocationId = 1, kSampleValue = 2, kSampleLabel = 3 };
enum LabelField { kLabelKey = 1, kLabelStr = 2 };
enum MappingField {
  kMapId = 1,
  kMapMemoryStart = 2,
  kMapMemoryLimit = 3,
  kMapFilename = 5,
  kMapHasFunctions = 7,
  kMapHasFilenames = 8,
  kMapHasLineNumbers = 9,
};
enum LocationField { kLocId = 1, kLocMappingId = 2, kLocAddress = 3, kLocLine = 4 };
enum LineField { kLineFunctionId = 1, kLineLine = 2 };
enum FunctionField { kFnId = 1, kFnName = 2, kFnSystemName = 3, kFnFilename = 4, kFnStartLine = 5 };

constexpr int kVarint = 0, kLengthDelimited = 2;
constexpr const char* kMappingFile = "arcana";

// One message being written.
class Writer {
 public:
  void varint(uint64_t v) {
    while (v >= 0x80) {
      out_ += char(uint8_t(v) | 0x80);
      v >>= 7;
    }
    out_ += char(uint8_t(v));
  }
  void key(int field, int wire) { varint(uint64_t(field) << 3 | uint64_t(wire)); }
  // A number field; zero is the default and is left out, as protobuf does.
  void number(int field, int64_t v) {
    if (v == 0) return;
    key(field, kVarint);
    varint(uint64_t(v));  // negative int64s take ten bytes, as protobuf's
  }
  void bytes(int field, const std::string& s) {
    key(field, kLengthDelimited);
    varint(s.size());
    out_ += s;
  }
  void message(int field, const Writer& w) { bytes(field, w.out_); }
  template <class T>
  void packed(int field, const std::vector<T>& vs) {
    if (vs.empty()) return;
    Writer inner;
    for (T v : vs) inner.varint(uint64_t(v));
    bytes(field, inner.out_);
  }
  const std::string& str() const { return out_; }

 private:
  std::string out_;
};

}  // namespace

Profile::Profile(std::vector<ValueType> sample_types, ValueType period_type, int64_t period)
    : sample_types_(std::move(sample_types)),
      period_type_(std::move(period_type)),
      period_(period) {
  // The header's strings, interned now so that encode() adds none.
  for (const ValueType& t : sample_types_) {
    str(t.type);
    str(t.unit);
  }
  str(period_type_.type);
  str(period_type_.unit);
  str(kMappingFile);
}

int64_t Profile::id(const std::string& s) const { return string_ids_.at(s); }

int64_t Profile::str(const std::string& s) {
  auto [it, fresh] = string_ids_.emplace(s, int64_t(strings_.size()));
  if (fresh) strings_.push_back(s);
  return it->second;
}

uint64_t Profile::function(const std::string& name, const std::string& file, int64_t start_line) {
  int64_t n = str(name), f = str(file);
  auto [it, fresh] = function_ids_.emplace(std::make_pair(n, f), functions_.size() + 1);
  if (fresh) functions_.push_back({n, f, start_line});
  return it->second;
}

uint64_t Profile::location(uint64_t function, int64_t line) {
  auto [it, fresh] = location_ids_.emplace(std::make_pair(function, line), locations_.size() + 1);
  if (fresh) locations_.push_back({function, line});
  return it->second;
}

void Profile::add(const std::vector<uint64_t>& stack, const std::vector<int64_t>& values,
                  const std::vector<std::pair<std::string, std::string>>& labels) {
  std::vector<int64_t> label_ids;
  for (const auto& [k, v] : labels) {
    label_ids.push_back(str(k));
    label_ids.push_back(str(v));
  }
  std::vector<int64_t>& sum = samples_[{stack, label_ids}];
  sum.resize(sample_types_.size());
  for (size_t i = 0; i < values.size() && i < sum.size(); ++i) sum[i] += values[i];
}

std::string Profile::encode() const {
  Writer p;
  for (const ValueType& t : sample_types_) {
    Writer vt;
    vt.number(kVtType, id(t.type));
    vt.number(kVtUnit, id(t.unit));
    p.message(kSampleType, vt);
  }
  for (const auto& [key, values] : samples_) {
    Writer s;
    s.packed(kSampleLocationId, key.first);
    s.packed(kSampleValue, values);
    for (size_t i = 0; i + 1 < key.second.size(); i += 2) {
      Writer l;
      l.number(kLabelKey, key.second[i]);
      l.number(kLabelStr, key.second[i + 1]);
      s.message(kSampleLabel, l);
    }
    p.message(kSample, s);
  }
  // One mapping that says the functions, files and lines are all given,
  // so that pprof does not look for a binary to symbolize against; each
  // location's address is its id, inside the mapping.
  Writer m;
  m.number(kMapId, 1);
  m.number(kMapMemoryStart, 1);
  m.number(kMapMemoryLimit, int64_t(locations_.size()) + 1);
  m.number(kMapFilename, id(kMappingFile));
  m.number(kMapHasFunctions, 1);
  m.number(kMapHasFilenames, 1);
  m.number(kMapHasLineNumbers, 1);
  p.message(kMapping, m);
  for (size_t i = 0; i < locations_.size(); ++i) {
    Writer loc, line;
    loc.number(kLocId, int64_t(i + 1));
    loc.number(kLocMappingId, 1);
    loc.number(kLocAddress, int64_t(i + 1));
    line.number(kLineFunctionId, int64_t(locations_[i].function));
    line.number(kLineLine, locations_[i].line);
    loc.message(kLocLine, line);
    p.message(kLocation, loc);
  }
  for (size_t i = 0; i < functions_.size(); ++i) {
    Writer f;
    f.number(kFnId, int64_t(i + 1));
    f.number(kFnName, functions_[i].name);
    f.number(kFnSystemName, functions_[i].name);
    f.number(kFnFilename, functions_[i].file);
    f.number(kFnStartLine, functions_[i].start_line);
    p.message(kFunction, f);
  }
  Writer pt;
  pt.number(kVtType, id(period_type_.type));
  pt.number(kVtUnit, id(period_type_.unit));
  // The string table last: every index above is in it by now.
  for (const std::string& s : strings_) p.bytes(kStringTable, s);
  p.number(kTimeNanos, time_nanos_);
  p.number(kDurationNanos, duration_nanos_);
  p.message(kPeriodType, pt);
  p.number(kPeriod, period_);
  p.number(kDefaultSampleType, default_type_);
  return p.str();
}

std::vector<Profile::Sample> Profile::samples() const {
  std::vector<Sample> out;
  for (const auto& [key, values] : samples_) {
    Sample s{key.first, {}, values};
    for (size_t i = 0; i + 1 < key.second.size(); i += 2)
      s.labels.emplace_back(strings_[size_t(key.second[i])], strings_[size_t(key.second[i + 1])]);
    out.push_back(std::move(s));
  }
  return out;
}

const std::string& Profile::function_name(uint64_t location) const {
  return strings_[size_t(functions_[locations_[location - 1].function - 1].name)];
}

std::string gzip(const std::string& data) {
  z_stream z{};
  // 15 window bits + 16: a gzip header and trailer rather than zlib's.
  if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("gzip: deflateInit2 failed");
  std::string out(deflateBound(&z, uLong(data.size())), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = uInt(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = uInt(out.size());
  int r = deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  if (r != Z_STREAM_END) throw std::runtime_error("gzip: deflate failed");
  return out;
}

std::string gunzip(const std::string& data) {
  z_stream z{};
  if (inflateInit2(&z, 15 + 16) != Z_OK) throw std::runtime_error("gunzip: inflateInit2 failed");
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = uInt(data.size());
  std::string out;
  char buf[65536];
  int r;
  do {
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = sizeof buf;
    r = inflate(&z, Z_NO_FLUSH);
    if (r != Z_OK && r != Z_STREAM_END) {
      inflateEnd(&z);
      throw std::runtime_error("gunzip: not gzip data");
    }
    out.append(buf, sizeof buf - z.avail_out);
  } while (r != Z_STREAM_END);
  inflateEnd(&z);
  return out;
}

}  // namespace vm::pprof
