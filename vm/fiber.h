// vm/fiber.h — fibers (vm/fiber.cpp): the heap kind and its builtins.
#pragma once
#include "gc/heap.h"
#include "vm/object.h"

namespace vm {

struct FiberImpl;
struct Fiber {
  GcHeader h;
  FiberImpl* impl;
};

class VM;
struct ExecState;
class StackSlot;
// A fresh execution state on a pooled slot's stacks (fibers and threads),
// with headroom Values left above its VM stack's end.
void init_exec_on_slot(ExecState& e, StackSlot* slot, size_t headroom);
// Frees the records kept for reuse (at the VM's end).
void free_fiber_spares();
void register_fiber_kind(gc::Heap& h);
void register_fiber_builtins(VM& vm);
// For collectors that do not trace objects (boehm): every live fiber's
// state, as roots (the Fiber objects themselves stay collectable).
void trace_fibers_as_roots(gc::Visitor& v);

}  // namespace vm
