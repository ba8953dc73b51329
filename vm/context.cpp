// vm/context.cpp — swap64, the hand-written x86-64 context switch (why it
// exists, and what it leaves out, is in context.h).
//
// A suspended swap64 context is its stack pointer, pointing at
//
//   sp+0   r12   sp+8  r13   sp+16 r14   sp+24 r15   sp+32 rbx   sp+40 rbp
//   sp+48  where to continue
//
// arcana_swap64_jump(to, data) pushes the callee-saved registers (its return
// address is already on the stack), hands its stack pointer over as the
// Transfer's `from`, loads `to`'s, pops, and jumps (not `ret`: an indirect
// jump is predicted from history, while `ret` would mispredict every time
// because the return-stack buffer holds the other context's call). It
// returns {from, data} in rax:rdx and leaves the same pair in rdi:rsi, which
// is what a fresh context's entry takes as its argument.
#include "vm/context.h"

#include <cstdint>

#ifdef ARCANA_ASAN_FIBERS
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#endif
#ifdef ARCANA_TSAN_FIBERS
#include <sanitizer/tsan_interface.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#endif

namespace vm {

#ifdef ARCANA_HAVE_SWAP64

extern "C" void arcana_swap64_start();

// The start of a fresh context: entry is in rbx (make below puts it there),
// its Transfer in rdi:rsi. The CFI marks the outermost frame, so unwinders
// and debuggers stop here. entry must not return (context.h rule 1).
asm(R"(
  .text
  .globl arcana_swap64_jump
  .type arcana_swap64_jump, @function
  .p2align 4
arcana_swap64_jump:
  pushq %rbp
  pushq %rbx
  pushq %r15
  pushq %r14
  pushq %r13
  pushq %r12
  movq %rsp, %rax
  movq %rdi, %rsp
  popq %r12
  popq %r13
  popq %r14
  popq %r15
  popq %rbx
  popq %rbp
  popq %r8
  movq %rsi, %rdx
  movq %rax, %rdi
  jmp *%r8
  .size arcana_swap64_jump, .-arcana_swap64_jump

  .globl arcana_swap64_start
  .type arcana_swap64_start, @function
  .p2align 4
arcana_swap64_start:
  .cfi_startproc
  .cfi_undefined rip
  call *%rbx
  ud2
  .cfi_endproc
  .size arcana_swap64_start, .-arcana_swap64_start
)");

namespace swap64 {

// The first switch pops zeroes into r12-r15 and rbp, entry into rbx, and
// continues at arcana_swap64_start with rsp 16-byte aligned, so entry is
// called with the alignment the ABI requires.
Context make(void* top, size_t size, ContextEntry entry) {
  (void)size;
  auto aligned = uintptr_t(top) & ~uintptr_t(15);
  auto* frame = reinterpret_cast<void**>(aligned - 72);
  for (int i = 0; i < 6; ++i) frame[i] = nullptr;
  frame[4] = reinterpret_cast<void*>(entry);
  frame[6] = reinterpret_cast<void*>(&arcana_swap64_start);
  return frame;
}

}  // namespace swap64

#endif

#ifdef ARCANA_ASAN_FIBERS

// ASan's fiber protocol: before a switch, __sanitizer_start_switch_fiber
// names the stack being switched to; after it, on the resumed stack,
// __sanitizer_finish_switch_fiber completes it and names the stack switched
// from. A Context is only a stack pointer, so the stack of each suspended
// context is recorded here, by address: make_context records a fresh one,
// and each resumed side records the context that switched to it (whose
// stack finish_switch_fiber has just named). A context that is never
// resumed leaves its record behind until a new context is made on its
// stack. Fresh contexts start in asan_start, which finishes the switch
// before calling the real entry.
namespace {

struct SuspendedStack {
  const void* bottom;
  size_t size;
  ContextEntry entry;  // a fresh context's entry; null once it has run
};
// thread_local, not a VM's or a pool's: the switch is below the VM (it
// knows stacks, not VMs), ASan's fake stacks are per OS thread, and
// asan_start reads t_starting as a fresh context's first instruction,
// before anything that could lead to an owner is reachable.
thread_local std::map<uintptr_t, SuspendedStack> t_suspended;
thread_local ContextEntry t_starting = nullptr;

void finish_switch(void* fake_stack, Transfer t) {
  const void* bottom = nullptr;
  size_t size = 0;
  __sanitizer_finish_switch_fiber(fake_stack, &bottom, &size);
  if (t.from) t_suspended[uintptr_t(t.from)] = {bottom, size, nullptr};
}

void asan_start(Transfer t) {
  ContextEntry entry = t_starting;
  finish_switch(nullptr, t);
  entry(t);
}

}  // namespace

Context make_context(void* top, size_t size, ContextEntry entry) {
  auto* bottom = static_cast<char*>(top) - size;
  // Earlier contexts on this stack that never returned: their records, and
  // the poisoned redzones of their frames, which no epilogue cleared.
  t_suspended.erase(t_suspended.lower_bound(uintptr_t(bottom)),
                    t_suspended.lower_bound(uintptr_t(top)));
  ASAN_UNPOISON_MEMORY_REGION(bottom, size);
  Context c = switch_impl::make(top, size, asan_start);
  t_suspended[uintptr_t(c)] = {bottom, size, entry};
  return c;
}

Transfer switch_context(Context to, void* data) {
  auto it = t_suspended.find(uintptr_t(to));
  if (it == t_suspended.end()) {
    std::fprintf(stderr, "switch_context: %p is not a suspended context\n", to);
    std::abort();
  }
  SuspendedStack s = it->second;
  t_suspended.erase(it);
  t_starting = s.entry;
  void* fake_stack = nullptr;
  __sanitizer_start_switch_fiber(&fake_stack, s.bottom, s.size);
  Transfer t = switch_impl::jump(to, data);
  finish_switch(fake_stack, t);
  return t;
}

#endif

#ifdef ARCANA_TSAN_FIBERS

// TSan's fiber protocol: every context runs on a TSan fiber, and
// __tsan_switch_to_fiber(target) comes right before the stack switch. As for
// ASan, a Context is only a stack pointer, so the fiber of each suspended
// context is recorded by address: make_context creates one for a fresh
// context, and each resumed side records the fiber it was switched from
// under the context that switched to it. Making a context on a stack
// destroys the fibers of earlier contexts there that never resumed.
namespace {

struct SuspendedFiber {
  void* fiber;
  ContextEntry entry;  // a fresh context's entry; null once it has run
};
// thread_local for the reasons given for ASan's above: TSan's current
// fiber is per OS thread too, and tsan_start reads t_starting first.
thread_local std::map<uintptr_t, SuspendedFiber> t_fibers;
thread_local void* t_switched_from = nullptr;  // the fiber the last switch left
thread_local ContextEntry t_starting = nullptr;

void finish_switch(Transfer t) {
  if (t.from) t_fibers[uintptr_t(t.from)] = {t_switched_from, nullptr};
}

void tsan_start(Transfer t) {
  ContextEntry entry = t_starting;
  finish_switch(t);
  entry(t);
}

}  // namespace

Context make_context(void* top, size_t size, ContextEntry entry) {
  auto bottom = uintptr_t(top) - size;
  auto it = t_fibers.lower_bound(bottom);
  while (it != t_fibers.end() && it->first < uintptr_t(top)) {
    __tsan_destroy_fiber(it->second.fiber);
    it = t_fibers.erase(it);
  }
  Context c = switch_impl::make(top, size, tsan_start);
  t_fibers[uintptr_t(c)] = {__tsan_create_fiber(0), entry};
  return c;
}

Transfer switch_context(Context to, void* data) {
  auto it = t_fibers.find(uintptr_t(to));
  if (it == t_fibers.end()) {
    std::fprintf(stderr, "switch_context: %p is not a suspended context\n", to);
    std::abort();
  }
  SuspendedFiber s = it->second;
  t_fibers.erase(it);
  t_starting = s.entry;
  t_switched_from = __tsan_get_current_fiber();
  __tsan_switch_to_fiber(s.fiber, 0);
  Transfer t = switch_impl::jump(to, data);
  finish_switch(t);
  return t;
}

#endif

const char* context_impl_name() {
#if defined(ARCANA_HAVE_SWAP64) && !defined(ARCANA_FCONTEXT)
  return "swap64";
#else
  return "fcontext";
#endif
}

}  // namespace vm
