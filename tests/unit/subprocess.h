// tests/unit/subprocess.h — running a program as the command-line tests
// do (test_cli.cpp, test_cli_located.cpp, test_errors_cli.cpp): its input
// from a string, its output and errors captured, a timeout after which it
// is killed, an address-space or stack limit if asked; and temporary directories
// for the scripts they run.
#pragma once
#include <sys/wait.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace subprocess {

struct Result {
  int status = -1;  // wait status; -1 if the run timed out (the child is killed)
  std::string out, err;
  bool exited_with(int code) const { return WIFEXITED(status) && WEXITSTATUS(status) == code; }
  bool failed_cleanly() const { return WIFEXITED(status) && WEXITSTATUS(status) != 0; }
};

struct Options {
  std::string input;  // the child's stdin (a pipe, closed after it)
  std::vector<std::pair<std::string, std::string>> env;  // set in the child
  int timeout_ms = 20000;
  size_t address_space = 0;  // the child's RLIMIT_AS in bytes; 0: none
  size_t stack = 0;          // the child's RLIMIT_STACK in bytes (its main stack); 0: as is
};

// Runs program (found on PATH, as execvp does) with args, argv[0] being
// program. The child has ARCANA_GC unset and SIGINT at its default,
// whatever the test runner had.
Result run(const std::string& program, const std::vector<std::string>& args,
           const Options& options = {});
// The same for the arcana binary under test (ARCANA_BINARY).
Result arcana(const std::vector<std::string>& args, const Options& options = {});

// A directory for script files, removed with everything in it at the end.
struct TempDir {
  std::string path;
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  // Writes text (bytes as they are) to path/name; the file's path.
  std::string write(const std::string& name, const std::string& text) const;
};

bool has(const std::string& text, const std::string& part);

}  // namespace subprocess
