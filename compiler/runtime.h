// compiler/runtime.h — a ready Arc system: heap, VM, compiler builtins and
// the Arc-level library. The REPL, the script runner and the tests use it.
#pragma once
#include <memory>
#include <string>

#include "vm/vm.h"

namespace compiler {

using vm::Value;

struct RuntimeOptions {
  // The default collector (docs/ARCHITECTURE.md, "The heap and the collectors").
  std::string gc = "gen";
  bool gc_stress = false;
  size_t nursery_bytes = 0;  // 0: the collector's default (gen only)
  size_t stack_limit_bytes = size_t(512) << 20;
  vm::StackRelease fiber_release = vm::StackRelease::keep;
  int workers = 0;  // --workers (vm::Options)
};

class Runtime {
 public:
  explicit Runtime(const RuntimeOptions& opts = {});
  ~Runtime();
  vm::VM& vm() { return *vm_; }

  // Reads and evaluates each form of text in turn; the last value.
  Value eval_string(const std::string& text, const std::string& file = "<string>");
  // The same for a file.
  Value load_file(const std::string& path);

  // "Error: MESSAGE" and the Arc backtrace, one line each.
  static std::string describe_error(Value exc);

 private:
  std::unique_ptr<gc::Heap> heap_;
  std::unique_ptr<vm::VM> vm_;
  gc::Heap* previous_heap_ = nullptr;
};

}  // namespace compiler
