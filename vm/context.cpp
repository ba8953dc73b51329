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

const char* context_impl_name() {
#if defined(ARCANA_HAVE_SWAP64) && !defined(ARCANA_FCONTEXT)
  return "swap64";
#else
  return "fcontext";
#endif
}

}  // namespace vm
