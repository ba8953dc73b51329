// repl/repl.cpp — the REPL on GNU readline: history in ~/.arcana_history,
// multi-line input until a form is complete, Tab completion of global names,
// Ctrl-C interrupts an evaluation, Ctrl-D quits.
#include "repl/repl.h"

#include <readline/history.h>
#include <readline/readline.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <string>

#include "compiler/compile.h"
#include "compiler/reader.h"
#include "vm/code.h"
#include "vm/error.h"
#include "vm/port.h"
#include "vm/print.h"
#include "vm/string.h"
#include "vm/symbol.h"

namespace repl {

namespace {

vm::VM* g_vm = nullptr;

void on_sigint(int) {
  if (g_vm) g_vm->request_interrupt();
}

std::string history_path() {
  const char* home = std::getenv("HOME");
  return std::string(home ? home : ".") + "/.arcana_history";
}

// Readline's completion: bound global names starting with the text.
char* complete_global(const char* text, int state) {
  static size_t index;
  static std::string prefix;
  if (state == 0) {
    index = 0;
    prefix = text;
  }
  const auto& syms = vm::all_symbols();
  while (index < syms.size()) {
    vm::Value s = syms[index++];
    if (vm::global_value(s) == vm::UNBOUND) continue;
    std::string name = vm::symbol_name(s);
    if (name.compare(0, prefix.size(), prefix) == 0) return strdup(name.c_str());
  }
  return nullptr;
}

char** completion(const char* text, int, int) {
  rl_attempted_completion_over = 1;
  return rl_completion_matches(text, complete_global);
}

// Reads lines until they hold complete forms; false at end of input.
bool read_input(std::string& text, bool tty) {
  text.clear();
  for (;;) {
    const char* prompt = text.empty() ? "arc> " : "  ... ";
    char* line = readline(tty ? prompt : "");
    if (!line) return !text.empty();
    text += line;
    text += '\n';
    std::free(line);
    if (compiler::form_complete(text)) return true;
  }
}

void eval_and_print(compiler::Runtime& rt, const std::string& text) {
  vm::VM& vm = rt.vm();
  compiler::Reader reader(text, "repl");
  vm::Value form;
  try {
    while (reader.read(form)) {
      gc::Rooted<vm::Value> f(vm.heap(), form);
      vm::Value v = compiler::eval_toplevel(vm, form, "");
      vm.define("that", v);
      vm.define("thatexpr", f);
      vm::PortImpl* out = vm::port_impl(vm.out_port);
      out->write_str(vm::write_string(v) + "\n");
      out->flush();
    }
  } catch (vm::ArcError& e) {
    vm::port_impl(vm.out_port)->flush();
    std::string msg = compiler::Runtime::describe_error(e.exc);
    vm::PortImpl* err = vm::port_impl(vm.err_port);
    err->write_str(msg);
    err->flush();
  }
}

}  // namespace

int run_repl(compiler::Runtime& rt) {
  g_vm = &rt.vm();
  bool tty = isatty(0);
  rl_readline_name = "arcana";
  rl_attempted_completion_function = completion;
  rl_basic_word_break_characters = const_cast<char*>(" \t\n\"'`,@()[]{};");
  std::string hist = history_path();
  using_history();
  read_history(hist.c_str());
  struct sigaction sa {};
  sa.sa_handler = on_sigint;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  std::string text;
  while (read_input(text, tty)) {
    std::string entry = text.substr(0, text.find_last_not_of('\n') + 1);
    if (!entry.empty()) {
      add_history(entry.c_str());
      append_history(1, hist.c_str());
    }
    eval_and_print(rt, text);
  }
  if (tty) std::fputs("\n", stdout);
  return 0;
}

void print_stats(compiler::Runtime& rt, std::FILE* out) {
  vm::VM& vm = rt.vm();
  const gc::GcStats& st = vm.heap().stats();
  std::fprintf(out, "== arcana stats ==\n");
  std::fprintf(out, "type dispatches by type:\n");
  for (int k = 0; k < vm::kKindCount; ++k)
    if (vm::g_profile.type_counts[k])
      std::fprintf(out, "  %-14s %llu\n", vm::kind_name(vm::Kind(k)),
                   (unsigned long long)vm::g_profile.type_counts[k]);
  std::fprintf(out, "opcodes executed:\n");
  uint64_t total = 0;
  for (int i = 0; i < vm::kOpCount; ++i) {
    total += vm.counters.ops[i];
    if (vm.counters.ops[i])
      std::fprintf(out, "  %-14s %llu\n", vm::kOps[i].name,
                   (unsigned long long)vm.counters.ops[i]);
  }
  std::fprintf(out, "  %-14s %llu\n", "total", (unsigned long long)total);
  std::fprintf(out, "allocations: %llu objects, %llu bytes\n",
               (unsigned long long)st.objects_allocated, (unsigned long long)st.bytes_allocated);
  for (int k = 0; k < vm::kHeapKinds; ++k)
    if (st.allocations_by_kind[k])
      std::fprintf(out, "  %-14s %llu\n", vm::kind_name(vm::Kind(k)),
                   (unsigned long long)st.allocations_by_kind[k]);
  std::fprintf(out, "collections: %llu (%s), gc time %.2f ms, max pause %.2f ms, p99 %.2f ms\n",
               (unsigned long long)st.collections, vm.heap().name(), st.gc_ms, st.max_pause_ms,
               st.pause_percentile(99));
  std::fprintf(out, "live after last gc: %llu bytes, peak heap %llu bytes\n",
               (unsigned long long)st.bytes_live, (unsigned long long)st.peak_heap_bytes);
}

}  // namespace repl
