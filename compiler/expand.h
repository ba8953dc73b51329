// compiler/expand.h — macro expansion, ssyntax and quasiquote: Arc forms to
// core forms. A core form is a literal, a symbol without ssyntax, or a list
// headed by quote, if, fn, assign, %catch, or anything else (a call). Macros
// run on the VM (vm::VM::apply), so every Value the expander holds across an
// expansion is rooted.
#pragma once
#include <string>

#include "vm/vm.h"

namespace compiler {

using vm::Value;

class Expander {
 public:
  explicit Expander(vm::VM& vm) : vm_(vm) {}
  Value expand(Value form);

 private:
  Value expand_list(Value form, uint64_t pos);
  Value expand_elements(Value forms, uint64_t pos, bool keep_head);
  Value expand_fn(Value form, uint64_t pos);
  Value expand_params(Value params);
  Value expand_assign(Value form, uint64_t pos);
  Value rewrite_operator(Value head, Value args, uint64_t pos, bool& done);
  Value atstring(Value s);
  Value quasiquote(Value x, int depth, uint64_t pos);

  // One level of nesting in a walk of a form (expansion, quasiquote,
  // parameter lists), for as long as it lives: the machine stack is checked
  // and the depth kept within kMaxDepth, so that a form nested too deeply
  // is an Arc error, not a crash.
  struct Nest {
    Nest(Expander& e, uint64_t pos);
    ~Nest() { --depth; }
    int& depth;
  };
  [[noreturn]] static void too_deep(vm::VM& vm, uint64_t pos);

  vm::VM& vm_;
  int depth_ = 0;
};

// The global macro named by head, or nil.
Value macro_of(vm::VM& vm, Value head);
// (macex1 form) / (macex form): expand the outermost macro call once / fully.
Value macex1(vm::VM& vm, Value form);
Value macex(vm::VM& vm, Value form);

bool has_ssyntax(Value sym);
// One step of ssyntax expansion (docs/LANGUAGE.md 2.10); non-ssyntax values unchanged.
Value ssexpand(vm::VM& vm, Value sym);

// A fresh symbol for the compiler's own temporaries.
Value gensym(vm::VM& vm, const char* prefix);

// "file:line: " for messages about a form, "" when it has no position.
std::string where(uint64_t pos);

}  // namespace compiler
