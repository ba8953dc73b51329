// tests/runner/arc_test.cpp — runs an Arc test file.
//
// A test file is ordinary Arc. Comments state what the form before them
// must do (the last form ending on or before the comment's line):
//   ; expect: TEXT    its value, written, is TEXT
//   ; error: TEXT     it raises an error whose message contains TEXT
//   ; prints: TEXT    what it writes to stdout is TEXT (\n, \t, \\ escapes)
// Forms without a comment just run; an error from one is a failure. After
// the file, the heap verifier checks the collector's invariant.
//
// usage: arc_test [--gc-stress] [--gc=NAME] [--stack-limit=MB] [--nursery=MB|KiB K] FILE...
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "compiler/compile.h"
#include "compiler/reader.h"
#include "compiler/runtime.h"
#include "vm/error.h"
#include "vm/port.h"
#include "vm/print.h"
#include "vm/string.h"

namespace {

struct Expectation {
  std::string kind;  // expect, error, prints
  std::string text;
  int line;
};

std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t\r");
  if (a == std::string::npos) return "";
  size_t b = s.find_last_not_of(" \t\r");
  return s.substr(a, b - a + 1);
}

std::string unescape(const std::string& s) {
  std::string r;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size()) {
      char c = s[++i];
      r += c == 'n' ? '\n' : c == 't' ? '\t' : c;
    } else {
      r += s[i];
    }
  }
  return r;
}

std::multimap<int, Expectation> scan_expectations(const std::string& text) {
  std::multimap<int, Expectation> out;
  std::istringstream in(text);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    for (const char* kind : {"expect", "error", "prints"}) {
      std::string tag = std::string("; ") + kind + ":";
      size_t at = line.find(tag);
      if (at == std::string::npos) continue;
      std::string body = line.substr(at + tag.size());
      if (!body.empty() && body[0] == ' ') body.erase(0, 1);
      out.emplace(n, Expectation{kind, std::string(kind) == "prints" ? body : trim(body), n});
    }
  }
  return out;
}

// Each expectation belongs to the last form ending on or before its line.
int run_file(compiler::Runtime& rt, const std::string& path, int& passed, int& failed) {
  std::ifstream in(path, std::ios::binary);
  auto fail = [&](int line, const std::string& what) {
    std::printf("FAIL %s:%d: %s\n", path.c_str(), line, what.c_str());
    ++failed;
  };
  if (!in) {
    fail(0, "cannot open");
    return 1;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  vm::VM& vm = rt.vm();
  gc::RootedVector<vm::Value> forms(vm.heap());
  std::vector<int> ends;
  compiler::Reader reader(vm, text, path);
  try {
    vm::Value form;
    while (reader.read(form)) {
      forms.items.push_back(form);
      ends.push_back(int(reader.line()));
    }
  } catch (vm::ArcError& e) {
    fail(int(reader.line()), "read error: " + vm::exception_message(e.exc));
    return 1;
  }
  std::vector<std::vector<Expectation>> owned(forms.items.size());
  for (auto& [line, x] : scan_expectations(text)) {
    int owner = -1;
    for (size_t i = 0; i < ends.size() && ends[i] <= line; ++i) owner = int(i);
    if (owner < 0) fail(line, "expectation before any form");
    else owned[size_t(owner)].push_back(x);
  }
  for (size_t i = 0; i < forms.items.size(); ++i) {
    gc::Rooted<vm::Value> out_port(vm.heap(), vm::make_port(vm, vm::make_output_string()));
    gc::Rooted<vm::Value> saved(vm.heap(), vm.out_port());
    vm.set_out_port(out_port);
    std::string value, error;
    bool raised = false;
    try {
      value = vm::write_string(vm, compiler::eval_toplevel(vm, forms.items[i], path));
    } catch (vm::ArcError& e) {
      raised = true;
      error = vm::exception_message(e.exc);
    }
    vm.set_out_port(saved);
    vm::port_impl(out_port)->flush();
    std::string printed = *vm::port_impl(out_port)->contents();
    if (owned[i].empty()) {
      if (raised) fail(ends[i], "unexpected error: " + error);
      continue;
    }
    for (const Expectation& x : owned[i]) {
      if (x.kind == "expect") {
        if (raised) fail(x.line, "expected " + x.text + ", got error: " + error);
        else if (value != x.text) fail(x.line, "expected " + x.text + ", got " + value);
        else ++passed;
      } else if (x.kind == "error") {
        if (!raised) fail(x.line, "expected an error containing \"" + x.text + "\", got " + value);
        else if (error.find(x.text) == std::string::npos)
          fail(x.line, "expected an error containing \"" + x.text + "\", got: " + error);
        else ++passed;
      } else {
        std::string want = unescape(x.text);
        if (raised) fail(x.line, "expected output, got error: " + error);
        else if (printed != want)
          fail(x.line, "expected output \"" + x.text + "\", got \"" + printed + "\"");
        else ++passed;
      }
    }
  }
  for (const std::string& p : vm.heap().verify()) fail(0, "heap verifier: " + p);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  compiler::RuntimeOptions opts;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--gc-stress")) opts.gc_stress = true;
    else if (!std::strncmp(argv[i], "--gc=", 5)) opts.gc = argv[i] + 5;
    else if (!std::strncmp(argv[i], "--stack-limit=", 14))
      opts.stack_limit_bytes = size_t(std::atol(argv[i] + 14)) << 20;
    else if (!std::strncmp(argv[i], "--nursery=", 10)) {
      opts.nursery_bytes = compiler::parse_size_option(argv[i] + 10, compiler::kMinNurseryBytes,
                                                       compiler::kMaxNurseryBytes);
      if (!opts.nursery_bytes) {
        std::fprintf(stderr, "arc_test: bad --nursery: %s\n", argv[i] + 10);
        return 2;
      }
    } else files.push_back(argv[i]);
  }
  int passed = 0, failed = 0;
  for (const std::string& f : files) {
    compiler::Runtime rt(opts);
    run_file(rt, f, passed, failed);
  }
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
