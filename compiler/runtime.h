// compiler/runtime.h — a ready Arc system: heap, VM, compiler builtins and
// the Arc-level library. The REPL, the script runner and the tests use it.
#pragma once
#include <memory>
#include <string>

#include "gc/gen.h"
#include "vm/vm.h"

namespace compiler {

using vm::Value;

struct RuntimeOptions {
  // The default collector (docs/ARCHITECTURE.md, "The heap and the collectors").
  std::string gc = "gen";
  bool gc_stress = false;
  bool gc_trace = false;     // --gc-trace
  size_t nursery_bytes = 0;  // 0: the collector's default (gen only)
  size_t stack_limit_bytes = size_t(512) << 20;
  size_t fiber_stack_bytes = vm::Options{}.fiber_stack_bytes;  // --thread-stack
  vm::StackRelease fiber_release = vm::StackRelease::keep;
  int workers = 0;  // --workers (vm::Options)
  // The library from the image linked into the binary (compiler/image.h)
  // when it has a valid one; false compiles it from source.
  bool library_image = true;
  // When set, the library is compiled from source and the image of what
  // was compiled is left here (tools/make_image.cpp).
  std::string* record_image = nullptr;
};

// A size option's value (--nursery, --thread-stack): a whole number of
// MiB ("4", "4M"), or of KiB with a K ("64K", "1536K"), from min to max
// bytes. Whole numbers only, as --stack-limit takes them: "1.5" is
// refused rather than rounded. 0 for anything else.
size_t parse_size_option(const char* text, size_t min, size_t max);
// Their ranges. 4 GiB is more than any machine this runs on gives a
// nursery or a thread, so a bigger value is a typo; a thread's stack
// holds at least a couple of thousand values.
inline constexpr size_t kMinNurseryBytes = gc::kMinNursery;
inline constexpr size_t kMaxNurseryBytes = size_t(4096) << 20;
inline constexpr size_t kMinThreadStackBytes = size_t(16) << 10;
inline constexpr size_t kMaxThreadStackBytes = size_t(4096) << 20;

class Runtime {
 public:
  explicit Runtime(const RuntimeOptions& opts = {});
  ~Runtime();
  vm::VM& vm() { return *vm_; }
  // Whether the library came from the binary's image (else from source).
  bool library_from_image() const { return from_image_; }

  // Reads and evaluates each form of text in turn; the last value.
  Value eval_string(const std::string& text, const std::string& file = "<string>");
  // The same for a file.
  Value load_file(const std::string& path);

  // "Error: MESSAGE" and the Arc backtrace, one line each.
  static std::string describe_error(Value exc);

 private:
  std::unique_ptr<gc::Heap> heap_;
  std::unique_ptr<vm::VM> vm_;
  bool from_image_ = false;

  void load_library_source(std::string* record);
};

}  // namespace compiler
