// vm/library.h — how a library above the core plugs into a VM.
//
// The core (vm/) is the language: values and objects, the interpreter,
// continuations, fibers, green threads, ports. What reaches further is a
// library the core neither includes nor links: files, processes, sockets,
// HTTP and crypto (io/), profiling and counting (measure/). Each offers one
// Library, whose open function registers its builtins, and the functions
// of the heap kinds the core reserves for it (Kind::Socket), in a VM; a
// program gets the libraries compiler::Runtime opens (compiler/runtime.cpp,
// kLibraries), as a Lua state gets those linit.c opens.
#pragma once
#include <string>

#include "vm/value.h"

namespace vm {

class VM;

struct Library {
  const char* name;
  void (*open)(VM& vm);
};

// What a library keeps in each VM it is open in (io's open SQLite
// databases), by a name of its own (VM::library_state): owned by the VM,
// so no library needs a process-wide table, and ended with it, or earlier
// by VM::end_library_states.
struct LibraryState {
  virtual ~LibraryState() = default;
};

// What the core does with an object of a kind a library owns: write and
// disp print it with print, close and force-close close it with close.
// Unset, it prints as #<type> and close refuses it as it refuses a number.
struct KindOps {
  void (*print)(Value v, std::string& out) = nullptr;
  void (*close)(Value v, bool force) = nullptr;
};

}  // namespace vm
