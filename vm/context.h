// vm/context.h — the user-space context switch between machine stacks
// (docs/ARCHITECTURE.md invariant 5): a register swap, never swapcontext, never a system
// call (swapcontext saves the signal mask with sigprocmask on every switch).
//
// Two implementations with one protocol:
//   fctx    Boost.Context's fcontext (make_fcontext, jump_fcontext); any
//           architecture Boost supports; the fallback.
//   swap64  hand-written for x86-64 (context.cpp): the same register swap
//           without saving and loading MXCSR and the x87 control word.
//           ldmxcsr is most of what an fcontext switch costs (bench/fiber),
//           and the rest is identical. The price: a fiber that changes the FP
//           rounding or exception mode leaks it to the next one. Arc has no
//           way to change either, and the VM must not.
// make_context and switch_context use swap64 on x86-64, fcontext elsewhere
// or when ARCANA_FCONTEXT is defined. A Context is resumed only by the
// implementation that made it (their frames differ).
//
// Protocol:
//   Context c = make_context(slot, entry);   // suspended; entry has not run
//   Transfer t = switch_context(c, p);       // entry(Transfer{caller, p}) starts
//   ... in entry:  t = switch_context(t.from, q);  // the caller's switch
//                                                  // returns {ctx, q}
// A switch returns the Transfer of the switch that resumed it: `from` is the
// context that switched here (switch to it to go back), `data` its pointer.
// A Context is good for one resumption: the next switch returns a fresh one.
//
// Rules for users:
//  1. entry must never return (fcontext would _exit the process, swap64
//     traps); it ends by switching away for the last time, to a context that
//     never resumes it, after which its slot can be released.
//  2. No C++ exception may cross a switch: entry catches everything and
//     hands the error over as data.
#pragma once
#include <boost/context/detail/fcontext.hpp>
#include <cstddef>

#include "vm/stack_pool.h"

namespace vm {

using Context = void*;  // a suspended context's stack pointer; null: none
struct Transfer {
  Context from;
  void* data;
};
using ContextEntry = void (*)(Transfer);

// fcontext's transfer_t has Transfer's layout, so the two entry types have
// one ABI (two pointers, passed in two registers); the cast relies on that,
// going through void (*)() as GCC documents for such casts.
namespace fctx {
namespace bc = boost::context::detail;
static_assert(sizeof(bc::transfer_t) == sizeof(Transfer) &&
              offsetof(bc::transfer_t, data) == offsetof(Transfer, data));
inline Context make(void* top, size_t size, ContextEntry entry) {
  auto fn = reinterpret_cast<void (*)(bc::transfer_t)>(reinterpret_cast<void (*)()>(entry));
  return bc::make_fcontext(top, size, fn);
}
inline Transfer jump(Context to, void* data) {
  bc::transfer_t t = bc::jump_fcontext(to, data);
  return {t.fctx, t.data};
}
}  // namespace fctx

#if defined(__x86_64__) && defined(__linux__)
#define ARCANA_HAVE_SWAP64 1
extern "C" Transfer arcana_swap64_jump(Context to, void* data);  // context.cpp
namespace swap64 {
Context make(void* top, size_t size, ContextEntry entry);
inline Transfer jump(Context to, void* data) { return arcana_swap64_jump(to, data); }
}  // namespace swap64
#endif

#if defined(ARCANA_HAVE_SWAP64) && !defined(ARCANA_FCONTEXT)
namespace switch_impl = swap64;
#else
namespace switch_impl = fctx;
#endif

// The implementation make_context and switch_context use: "swap64" or "fcontext".
const char* context_impl_name();

// Under AddressSanitizer (make sanitize) make_context and switch_context
// are out of line (context.cpp) and tell ASan which stack each switch goes
// to (__sanitizer_start_switch_fiber / __sanitizer_finish_switch_fiber);
// ASan otherwise believes every thread runs on one stack, and its stack
// bookkeeping (fake frames, unpoisoning at exceptions and noreturn calls)
// goes wrong on a fiber. fctx and swap64 used directly are not annotated.
#if defined(__SANITIZE_ADDRESS__)
#define ARCANA_ASAN_FIBERS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ARCANA_ASAN_FIBERS 1
#endif
#endif

// Under ThreadSanitizer (make tsan) likewise: each machine stack is a TSan
// fiber (__tsan_create_fiber), and a switch tells TSan where it goes
// (__tsan_switch_to_fiber); TSan otherwise sees one thread's accesses jump
// between stacks and reports races, or wrong stacks, that are not there.
#if defined(__SANITIZE_THREAD__)
#define ARCANA_TSAN_FIBERS 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define ARCANA_TSAN_FIBERS 1
#endif
#endif
#if defined(ARCANA_ASAN_FIBERS) || defined(ARCANA_TSAN_FIBERS)
#define ARCANA_ANNOTATED_SWITCH 1
#endif

#ifdef ARCANA_ANNOTATED_SWITCH
Context make_context(void* top, size_t size, ContextEntry entry);
Transfer switch_context(Context to, void* data);
#else
// A suspended context that will run entry on the stack [top - size, top).
inline Context make_context(void* top, size_t size, ContextEntry entry) {
  return switch_impl::make(top, size, entry);
}
#endif

// A suspended context on a slot's machine stack.
inline Context make_context(const StackSlot& slot, ContextEntry entry) {
  return make_context(slot.machine_top(), slot.machine_size(), entry);
}

#ifndef ARCANA_ANNOTATED_SWITCH
// Suspends the running context and resumes `to`, handing it data.
inline Transfer switch_context(Context to, void* data) { return switch_impl::jump(to, data); }
#endif

}  // namespace vm
