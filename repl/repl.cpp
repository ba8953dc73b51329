// repl/repl.cpp — the REPL on GNU readline: history in ~/.arcana_history,
// multi-line input until a form is complete, Tab completion of global names,
// Ctrl-C interrupts an evaluation or discards the line being typed, Ctrl-D
// at an empty prompt quits; what other threads print while the prompt waits
// appears above it, the prompt drawn again below.
//
// Readline runs through its callback interface, so that Ctrl-C at the prompt
// is handled in the main loop rather than inside a signal handler: the
// SIGINT handler only sets flags and writes a byte to a self-pipe that the
// input loop polls beside the terminal. While a form evaluates, the handler
// instead asks the VM to interrupt, and the VM raises "interrupted" at its
// next safe point.
#include "repl/repl.h"

#include <fcntl.h>
#include <poll.h>
#include <readline/history.h>
#include <readline/readline.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "compiler/compile.h"
#include "compiler/reader.h"
#include "measure/gc_stats.h"
#include "measure/measure.h"
#include "vm/code.h"
#include "vm/error.h"
#include "vm/port.h"
#include "vm/print.h"
#include "vm/string.h"
#include "vm/symbol.h"
#include "vm/thread.h"

namespace repl {

namespace {

// Process-wide, as the callers have no place for user data: the SIGINT
// handler (g_evaluating, g_sigpipe) and readline's C callbacks
// (complete_global's state, g_line_done, g_line) below. Both reach the
// REPL's VM as vm::foreground_vm().
volatile std::sig_atomic_t g_evaluating = 0;
int g_sigpipe[2] = {-1, -1};  // SIGINT at the prompt: the handler writes here

void on_sigint(int) {
  if (g_evaluating) {
    if (vm::VM* vm = vm::foreground_vm()) vm->request_interrupt();
    return;
  }
  int saved = errno;
  char c = 1;
  ssize_t r = write(g_sigpipe[1], &c, 1);
  (void)r;
  errno = saved;
}

// Empties the self-pipe; true if a SIGINT had arrived.
bool drain_sigpipe() {
  char buf[64];
  bool any = false;
  while (read(g_sigpipe[0], buf, sizeof buf) > 0) any = true;
  return any;
}

void install_sigint() {
  if (pipe(g_sigpipe) == 0) {
    for (int fd : g_sigpipe) fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    for (int fd : g_sigpipe) fcntl(fd, F_SETFD, FD_CLOEXEC);
  }
  struct sigaction sa {};
  sa.sa_handler = on_sigint;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
}

std::string history_path() {
  const char* home = std::getenv("HOME");
  return std::string(home ? home : ".") + "/.arcana_history";
}

// Readline's completion: bound global names starting with the text.
// Readline's words break at the ssyntax characters too, so that the name
// after ~, :, ., ! or & completes (~no, car:cd, x!ke); nothing completes
// inside a string (g_pending holds the form's earlier lines).
constexpr const char* kWordBreaks = " \t\n\"'`,@()[]{};~:.!&";
const std::string* g_pending = nullptr;

char* complete_global(const char* text, int state) {
  static size_t index;
  static std::string prefix;
  if (state == 0) {
    index = 0;
    prefix = text;
  }
  const auto& syms = vm::all_symbols(*vm::foreground_vm());
  while (index < syms.size()) {
    vm::Value s = syms[index++];
    if (s.is_nil() || vm::global_value(s) == vm::UNBOUND) continue;  // nil: a hole
    std::string name = vm::symbol_name(s);
    if (name.compare(0, prefix.size(), prefix) == 0) return strdup(name.c_str());
  }
  return nullptr;
}

char** completion(const char* text, int start, int) {
  rl_attempted_completion_over = 1;
  std::string before = g_pending ? *g_pending : std::string();
  before.append(rl_line_buffer, size_t(start));
  if (compiler::ends_inside_text(*vm::foreground_vm(), before)) return nullptr;
  return rl_completion_matches(text, complete_global);
}

// Output from other threads while the prompt waits (vm::TerminalHooks):
// the prompt and what was typed are cleared, the output goes above them,
// and they are drawn again below it, on a line of their own.
bool g_prompt_up = false;  // readline's handler is installed
bool g_prompt_hidden = false;

void hide_prompt() {
  if (!g_prompt_up || g_prompt_hidden) return;
  g_prompt_hidden = true;
  rl_clear_visible_line();
  std::fflush(rl_outstream);
}

void show_prompt(bool line_ended) {
  if (!g_prompt_hidden) return;
  g_prompt_hidden = false;
  if (!line_ended) std::fputs("\n", rl_outstream);
  rl_forced_update_display();
  std::fflush(rl_outstream);
}

enum class Got { kLine, kEof, kInterrupt };

// The line readline's callback interface hands over.
bool g_line_done = false;
char* g_line = nullptr;

void on_line(char* line) {
  g_line_done = true;
  g_line = line;
  g_prompt_up = false;
  rl_callback_handler_remove();  // restores the terminal for the evaluation
}

// Lets the other green threads run until one of fds (-1: none) is
// readable. An error raised meanwhile (a break posted to the main thread)
// is reported; the prompt goes on.
void wait_for_input(std::initializer_list<int> fds) {
  std::vector<int> v;
  for (int fd : fds)
    if (fd >= 0) v.push_back(fd);
  try {
    vm::wait_fds(*vm::foreground_vm(), v.data(), int(v.size()), false);
  } catch (vm::ArcError& e) {
    if (e.exc != vm::foreground_vm()->interrupt_exc()) {
      hide_prompt();
      std::string msg = vm::describe_error(e.exc);  // whole, NULs and all
      std::fwrite(msg.data(), 1, msg.size(), stderr);
      show_prompt(true);
    }
  }
}

// One line from the terminal with a prompt.
Got read_tty_line(const char* prompt, std::string& out) {
  g_line_done = false;
  g_line = nullptr;
  drain_sigpipe();
  rl_callback_handler_install(prompt, on_line);
  g_prompt_up = true;
  for (;;) {
    // Background threads run while the prompt waits.
    wait_for_input({fileno(rl_instream), g_sigpipe[0]});
    pollfd fds[2] = {{fileno(rl_instream), POLLIN, 0}, {g_sigpipe[0], POLLIN, 0}};
    int n = poll(fds, g_sigpipe[0] >= 0 ? 2 : 1, -1);
    if (n < 0 && errno != EINTR) break;
    if (n > 0 && (fds[1].revents & POLLIN)) {
      drain_sigpipe();
      // Ctrl-C: drop what was typed and start over on a fresh line. The ^C
      // goes after the text, before readline gives the terminal back
      // (which returns the cursor to the start of the line).
      rl_point = rl_end;
      rl_redisplay();
      std::fputs("^C\n", rl_outstream);
      std::fflush(rl_outstream);
      rl_free_line_state();
      rl_callback_sigcleanup();
      g_prompt_up = false;
      rl_callback_handler_remove();
      return Got::kInterrupt;
    }
    if (n > 0 && fds[0].revents) {
      rl_callback_read_char();
      if (g_line_done) {
        if (!g_line) return Got::kEof;
        out = g_line;
        std::free(g_line);
        return Got::kLine;
      }
    }
  }
  g_prompt_up = false;
  rl_callback_handler_remove();
  return Got::kEof;
}

// One line from a pipe or file, byte by byte so that nothing is read ahead
// of what the evaluated code may itself read from stdin.
Got read_plain_line(std::string& out) {
  out.clear();
  char c;
  for (;;) {
    wait_for_input({0});
    ssize_t r = read(0, &c, 1);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return out.empty() ? Got::kEof : Got::kLine;
    if (c == '\n') return Got::kLine;
    out += c;
  }
}

// Reads lines until they hold complete forms; false at end of input.
bool read_input(std::string& text, bool tty) {
  text.clear();
  g_pending = &text;
  for (;;) {
    std::string line;
    Got got = tty ? read_tty_line(text.empty() ? "arc> " : "  ... ", line) : read_plain_line(line);
    if (got == Got::kInterrupt) {
      text.clear();
      continue;
    }
    if (got == Got::kEof) return !text.empty();
    text += line;
    text += '\n';
    if (compiler::form_complete(*vm::foreground_vm(), text)) return true;
  }
}

// Evaluates the forms of text, their lines counted from first_line; false
// if one raised an error.
bool eval_and_print(compiler::Runtime& rt, const std::string& text, uint32_t first_line) {
  vm::VM& vm = rt.vm();
  g_evaluating = 1;
  // A Ctrl-C typed after Enter, before the evaluation began, interrupts it.
  if (drain_sigpipe()) vm.request_interrupt();
  compiler::Reader reader(vm, text, "repl", first_line);
  vm::Value form;
  bool ok = true;
  try {
    while (reader.read(form)) {
      gc::Rooted<vm::Value> f(vm.heap(), form);
      vm::Value v = compiler::eval_toplevel(vm, form, "repl", reader.line());
      vm.define("that", v);
      vm.define("thatexpr", f);
      vm::PortImpl* out = vm::port_impl(vm.out_port());
      out->write_str(vm::write_string(vm, v) + "\n");
      out->flush();
    }
  } catch (vm::ArcError& e) {
    vm::port_impl(vm.out_port())->flush();
    std::string msg = compiler::Runtime::describe_error(e.exc);
    if (e.exc == vm.interrupt_exc()) msg = "\n" + msg;  // after the terminal's ^C
    vm::PortImpl* err = vm::port_impl(vm.err_port());
    err->write_str(msg);
    err->flush();
    ok = false;
  }
  g_evaluating = 0;
  return ok;
}

// Entries keep their line breaks in the history file: each is preceded by a
// timestamp line, which also marks where a multi-line entry begins.
void open_history(const std::string& path) {
  using_history();
  history_comment_char = '#';  // readline stamps entries only when it is set
  history_write_timestamps = 1;
  history_multiline_entries = 1;
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (fd >= 0) close(fd);  // append_history needs the file to exist
  read_history(path.c_str());
  history_truncate_file(path.c_str(), 1000);
}

void remember(const std::string& text, const std::string& path) {
  std::string entry = text.substr(0, text.find_last_not_of('\n') + 1);
  if (entry.find_first_not_of(" \t\n") == std::string::npos) return;
  HIST_ENTRY* last = history_length > 0 ? history_get(history_base + history_length - 1) : nullptr;
  if (last && entry == last->line) return;  // no runs of the same entry
  add_history(entry.c_str());
  append_history(1, path.c_str());
}

}  // namespace

int run_repl(compiler::Runtime& rt) {
  vm::set_foreground_vm(&rt.vm());
  bool tty = isatty(0);
  rl_readline_name = "arcana";
  rl_catch_signals = 0;  // SIGINT is ours: see on_sigint
  rl_attempted_completion_function = completion;
  rl_basic_word_break_characters = const_cast<char*>(kWordBreaks);
  if (tty) vm::set_terminal_hooks({hide_prompt, show_prompt});
  std::string hist = history_path();
  if (tty) open_history(hist);
  install_sigint();
  std::string text;
  // Piped input is a program: its forms are numbered by their lines in it,
  // and an error in any of them makes the exit status 1 (as in a script;
  // the rest still run, as typed ones would).
  uint32_t line = 1;
  bool failed = false;
  while (read_input(text, tty)) {
    if (tty) remember(text, hist);
    failed |= !eval_and_print(rt, text, tty ? 1 : line);
    line += uint32_t(std::count(text.begin(), text.end(), '\n'));
  }
  if (tty) std::fputs("\n", stdout);
  return failed && !tty ? 1 : 0;
}

// The top sites of each count (measure/sites.h), n of each.
static void print_site_stats(vm::VM& vm, std::FILE* out, size_t n) {
  const vm::SiteCounters& s = vm::Measure::of(vm).sites();
  auto where = [&s](uint32_t site) {
    const vm::SiteCounters::Site& w = s.site(site);
    std::string r = w.function;
    if (!w.file.empty()) r += " at " + w.file + ":" + std::to_string(w.line);
    return r;
  };
  auto u = [](uint64_t v) { return (unsigned long long)v; };
  auto d = s.top_dispatches();
  std::fprintf(out, "type dispatches, top sites:\n");
  for (size_t i = 0; i < d.size() && i < n; ++i)
    std::fprintf(out, "  %12llu  %-10s %s\n", u(d[i].count), vm::kind_name(d[i].kind),
                 where(d[i].site).c_str());
  auto a = s.top_allocations();
  std::fprintf(out, "allocations, top sites by bytes:\n");
  for (size_t i = 0; i < a.size() && i < n; ++i)
    std::fprintf(out, "  %12llu bytes %10llu  %-10s %s\n", u(a[i].bytes), u(a[i].count),
                 vm::kind_name(a[i].kind), where(a[i].site).c_str());
  auto c = s.top_collections();
  std::fprintf(out, "collections, by the site whose allocation started them:\n");
  for (size_t i = 0; i < c.size() && i < n; ++i)
    std::fprintf(out, "  %8llu minor %6llu major  %s\n", u(c[i].minor), u(c[i].major),
                 where(c[i].site).c_str());
}

void print_stats(compiler::Runtime& rt, std::FILE* out) {
  vm::VM& vm = rt.vm();
  std::vector<vm::GcFigure> figures = vm::gc_figures(vm.heap());  // refreshes the stats
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
    total += vm.counters().ops[i];
    if (vm.counters().ops[i])
      std::fprintf(out, "  %-14s %llu\n", vm::kOps[i].name,
                   (unsigned long long)vm.counters().ops[i]);
  }
  std::fprintf(out, "  %-14s %llu\n", "total", (unsigned long long)total);
  std::fprintf(out, "allocations: %llu objects, %llu bytes\n",
               (unsigned long long)st.objects_allocated, (unsigned long long)st.bytes_allocated);
  for (int k = 0; k < vm::kHeapKinds; ++k)
    if (st.allocations_by_kind[k])
      std::fprintf(out, "  %-14s %llu\n", vm::kind_name(vm::Kind(k)),
                   (unsigned long long)st.allocations_by_kind[k]);
  // The figures of (gc-stats), under the same names (measure/gc_stats.h).
  auto u = [](uint64_t n) { return (unsigned long long)n; };
  std::fprintf(out, "gc:\n");
  for (const vm::GcFigure& f : figures) {
    switch (f.kind) {
      case vm::GcFigure::Count: std::fprintf(out, "  %s: %llu\n", f.key, u(f.count)); break;
      case vm::GcFigure::Ms: std::fprintf(out, "  %s: %.3f\n", f.key, f.number); break;
      case vm::GcFigure::Ratio: std::fprintf(out, "  %s: %.4f\n", f.key, f.number); break;
      case vm::GcFigure::Name: std::fprintf(out, "  %s: %s\n", f.key, f.name); break;
    }
  }
  if (vm.has_fiber_pool()) {
    vm::StackPoolStats p = vm.fiber_pool().stats();
    std::fprintf(out,
                 "fiber stack pool: %zu slots (%zu in use, %zu vacant), %zu allocations, "
                 "%zu mappings, %zu bytes reserved, %zu resident\n",
                 p.slots, p.in_use, p.vacant, p.allocations, p.mappings, p.reserved_bytes,
                 p.resident_bytes);
  }
  print_site_stats(vm, out, 10);
  vm::SchedulerStats t = vm::scheduler_stats(vm);
  if (t.threads_started)
    std::fprintf(out,
                 "threads: %llu started, %llu live; %llu switches (%llu preemptions), %llu waits\n",
                 u(t.threads_started), u(t.live), u(t.switches), u(t.preemptions), u(t.waits));
}

}  // namespace repl
