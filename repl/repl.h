// repl/repl.h — the interactive REPL and the --stats report.
#pragma once
#include <cstdio>

#include "compiler/runtime.h"

namespace repl {

// Runs the REPL on the terminal until end of input; the exit status.
int run_repl(compiler::Runtime& rt);

// The counters --stats prints at exit.
void print_stats(compiler::Runtime& rt, std::FILE* out);

}  // namespace repl
