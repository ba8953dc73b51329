// compiler/runtime.cpp — see runtime.h.
#include "compiler/runtime.h"

#include <fstream>
#include <sstream>
#include <string_view>

#include "compiler/builtins.h"
#include "compiler/compile.h"
#include "compiler/reader.h"
#include "vm/error.h"
#include "vm/string.h"
#include "vm/symbol.h"

namespace compiler {

extern const std::string_view k_prelude_source;

using namespace vm;

Runtime::Runtime(const RuntimeOptions& opts) {
  heap_.reset(gc::make_heap(opts.gc));
  if (!heap_) throw std::runtime_error("unknown collector: " + opts.gc);
  previous_heap_ = has_heap() ? &heap() : nullptr;
  set_heap(heap_.get());
  vm::Options vo;
  vo.stack_limit_bytes = opts.stack_limit_bytes;
  vm_ = std::make_unique<VM>(vo);
  register_compiler_builtins(*vm_);
  eval_string(std::string(k_prelude_source), "prelude.arc");
  vm_->run_winds_fn = global_value(intern("%run-winds"));
  heap_->set_stress(opts.gc_stress);
}

Runtime::~Runtime() {
  vm_.reset();
  set_heap(previous_heap_);
}

Value Runtime::eval_string(const std::string& text, const std::string& file) {
  Reader reader(text, file);
  gc::Rooted<Value> last(vm_->heap(), NIL);
  Value form;
  while (reader.read(form)) last = eval_toplevel(*vm_, form, "");
  return last;
}

Value Runtime::load_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw_error("load: can't open file", {make_string_utf8(path)});
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  // A #! line is a comment, so scripts can be executable.
  if (text.rfind("#!", 0) == 0) text[0] = ';';
  return eval_string(text, path);
}

std::string Runtime::describe_error(Value exc) {
  std::string out = "Error: " + exception_message(exc) + "\n";
  for (Value p = exc.as<Exception>()->backtrace; is_cons(p); p = cdr(p))
    out += string_utf8(car(p)) + "\n";
  return out;
}

}  // namespace compiler
