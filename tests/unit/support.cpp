// tests/unit/support.cpp — see support.h.
#include "support.h"

#include <cstdlib>

#include "vm/error.h"
#include "vm/port.h"
#include "vm/print.h"

namespace support {

compiler::Runtime& runtime() {
  // Never destroyed (it lives as long as the process), but its objects are
  // finalized at exit, so that its ports flush and free their buffers.
  static compiler::Runtime* rt = [] {
    auto* r = new compiler::Runtime();
    std::atexit([] { runtime().vm().heap().finalize_all(); });
    return r;
  }();
  return *rt;
}

std::string eval(const std::string& src) {
  vm::VM& vm = runtime().vm();
  return vm::write_string(vm, runtime().eval_string(src, "test"));
}

std::string error_of(const std::string& src) {
  try {
    runtime().eval_string(src, "test");
  } catch (vm::ArcError& e) {
    return vm::exception_message(e.exc);
  }
  return "";
}

std::string output_of(const std::string& src) {
  vm::VM& vm = runtime().vm();
  gc::Rooted<vm::Value> port(vm.heap(), vm::make_port(vm, vm::make_output_string()));
  gc::Rooted<vm::Value> saved(vm.heap(), vm.out_port());
  vm.set_out_port(port);
  try {
    runtime().eval_string(src, "test");
  } catch (...) {
    vm.set_out_port(saved);
    throw;
  }
  vm.set_out_port(saved);
  return *vm::port_impl(port)->contents();
}

}  // namespace support
