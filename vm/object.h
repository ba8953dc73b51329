// vm/object.h — the heap object kinds, their layouts and their allocation.
//
// Each kind is one struct beginning with a gc::GcHeader. The size, trace
// and finalize functions of the kinds defined here live in object.cpp next
// to one another (tracing beside each type), registered by register_kinds;
// the kinds that belong to a module have their struct in its header and
// their functions in its .cpp (Fiber: vm/fiber.h, Thread: vm/thread.h,
// Socket: io/socket.h, Continuation: vm/continuation.h), registered by
// that module (Continuation by VM::VM). Adding a kind means adding it to ARC_KINDS below, its
// struct, and its three functions beside it.
//
// Every store of a Value into an object goes through set()
// (docs/ARCHITECTURE.md invariant 3); the one exception is initialising the
// fields of an object just allocated, before any other store, which needs
// no barrier.
#pragma once
#include <gmp.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>

#include "vm/value.h"

namespace vm {

class VM;  // vm/vm.h

// X(kind, arc type name for `type`) — heap kinds first; their numbers are
// stored in GcHeader::kind. Immediate kinds follow.
#define ARC_KINDS(X)        \
  X(Cons, "cons")           \
  X(Symbol, "sym")          \
  X(String, "string")       \
  X(Blob, "blob")           \
  X(Vector, "vector")       \
  X(Flonum, "num")          \
  X(Bignum, "int")          \
  X(Ratnum, "num")          \
  X(Table, "table")         \
  X(Closure, "fn")          \
  X(Code, "code")           \
  X(Builtin, "fn")          \
  X(Tagged, "tagged")       \
  X(Port, "port")           \
  X(Exception, "exception") \
  X(Box, "box")             \
  X(Continuation, "fn")     \
  X(Fiber, "fiber")         \
  X(Thread, "thread")       \
  X(Socket, "socket")       \
  X(Fixnum, "int")          \
  X(Char, "char")           \
  X(Nil, "sym")             \
  X(True, "sym")            \
  X(Internal, "internal")

enum class Kind : uint8_t {
#define X(k, n) k,
  ARC_KINDS(X)
#undef X
      Count
};
constexpr int kHeapKinds = int(Kind::Fixnum);
constexpr int kKindCount = int(Kind::Count);
const char* kind_name(Kind k);

// ---- the type dispatches' counters (g_profile, vm/object.cpp) ----
// Process-wide, because TYPE, which counts, is called everywhere without a
// VM, and must cost one test while off: a VM's would cost a load of the
// VM first. The VM's set_counting turns counting on; the measurement
// library (measure/) reads the counts. The rest of the profile state is
// the VM's (its instrument, the profiler's ticks: vm/vm.h).
struct Profile {
  bool count_types = false;  // --stats, (count-sites t) turn this on
  uint64_t type_counts[kKindCount] = {};
};
extern Profile g_profile;

// Counts a type dispatch of kind k (--stats), for a test that decides a
// value's kind without TYPE (the interpreter's fast paths).
inline void count_type(Kind k) {
  if (__builtin_expect(g_profile.count_types, 0)) g_profile.type_counts[int(k)]++;
}

// The one type test. Everything that asks "what is this value" calls it.
inline Kind TYPE(Value v) {
  Kind k;
  if (v.is_fixnum()) k = Kind::Fixnum;
  else if (v.is_ref()) k = Kind(v.header()->kind);
  else if (v.is_flonum_imm()) k = Kind::Flonum;
  else if (v.is_nil()) k = Kind::Nil;
  else if (v.is_char()) k = Kind::Char;
  else if (v == T) k = Kind::True;
  else k = Kind::Internal;
  count_type(k);
  return k;
}

// ---- layouts ----
using gc::GcHeader;

struct Cons {
  GcHeader h;
  Value car, cdr;
};
// A cons made by the reader carries the source position of its form.
struct SrcCons : Cons {
  uint64_t pos;
};
constexpr uint16_t kConsHasPos = 1;

struct Symbol {
  GcHeader h;
  Value name;   // String; never mutated
  Value value;  // the global's value cell, UNBOUND if none
};
// The symbol names a primitive with an opcode fast path (+, car, ...):
// assigning its global changes how the interpreter dispatches that opcode.
constexpr uint16_t kSymPrimitiveOp = 1;
// C++ code keeps the symbol's place in the intern table (CachedSymbol), so
// it is never uninterned.
constexpr uint16_t kSymPinned = 2;

struct Blob {
  GcHeader h;
  uint64_t size;
  alignas(8) uint8_t data[];
};

// Characters are one byte each while every character is below 256, four
// bytes each (kStringWide) once a wider one is stored. A narrow string of
// up to kStringInlineMax characters holds them itself, after its fields
// (kStringInline, buf nil): one object, and no pointer followed to read a
// character. The others keep them in a Blob, which a copy shares with its
// original until one of them is written (kStringShared). The room after
// the fields stays the object's (kStringRoom, its size) when a wider
// character moves the characters out into a Blob (vm/string.cpp).
struct String {
  GcHeader h;
  uint64_t len;
  Value buf;  // Blob, or nil while inline
  alignas(8) uint8_t room[];
};
constexpr uint16_t kStringWide = 1;
constexpr uint16_t kStringShared = 2;
constexpr uint16_t kStringInline = 4;
constexpr uint16_t kStringRoom = 8;
constexpr uint64_t kStringInlineMax = 128;

struct Vector {
  GcHeader h;
  uint64_t len;
  Value items[];
};

struct Flonum {
  GcHeader h;
  double d;
};

// An integer outside the fixnum range; limbs as GMP keeps them, size signed.
struct Bignum {
  GcHeader h;
  int64_t size;
  mp_limb_t limbs[];
};

// An exact rational in lowest terms; den > 1.
struct Ratnum {
  GcHeader h;
  Value num, den;
};

// Two parts (vm/table.cpp): an array part for the fixnum keys 0..asize-1,
// the value of key k in array's slot k (nil: absent), and a hash part by
// open addressing, slots a Vector of 2*capacity Values (key, value), for
// every other key.
struct Table {
  GcHeader h;
  uint64_t count;   // live entries, both parts
  uint64_t used;    // hash part: entries, live and dead
  Value slots;      // hash part: a Vector, or nil before the first key
  Value array;      // array part: a Vector of asize Values, or nil
  uint64_t asize;   // array's length (0 with none)
  uint64_t acount;  // live entries in the array part
};

struct Closure {
  GcHeader h;
  Value code;
  uint64_t nup;
  Value up[];
};

struct Code;
struct Box {
  GcHeader h;
  Value v;
};

// A builtin gets its arguments in place on the VM stack.
using BuiltinFn = Value (*)(VM& vm, Value* args, int nargs);

// What the interpreter must know about a builtin before it calls it
// (vm/interp.cpp): resume and yield may switch fibers without calling it
// (vm/fiber.h); one that runs Arc code in a nested run (eval, macex) moves
// a fiber running without its machine stack onto it first.
enum class BuiltinOp : uint8_t { Plain, Resume, Yield, Reenters };

struct Builtin {
  GcHeader h;
  BuiltinFn fn;
  Value name;                  // Symbol
  int32_t min_args, max_args;  // max -1: any number
  BuiltinOp op;
};

struct Tagged {
  GcHeader h;
  Value tag, rep;
};

struct PortImpl;  // vm/port.h
struct Port {
  GcHeader h;
  PortImpl* impl;
};

struct Exception {
  GcHeader h;
  Value message;    // String
  Value irritants;  // list of the offending values
  Value backtrace;  // list of strings, innermost first
};

// ---- allocation ----
// Every allocation and every barriered store names the VM whose heap it
// goes to, as Lua's functions take their lua_State: nothing reaches a heap
// through a global, so two VMs (each with its own heap) may live at once.
// alloc, set and cons are inline on the hot paths; their bodies are in
// vm/vm.h, after the VM's class, whose heap they read.
// kBarriered: every store into the object, its initialising ones included,
// goes through set() (gc::Heap::allocate_barriered).
template <class T, bool kBarriered = false>
inline T* alloc(VM& vm, Kind k, size_t extra = 0);
inline void set(VM& vm, GcHeader* obj, Value* slot, Value v);
template <class T>
inline void set(VM& vm, T* obj, Value* slot, Value v);
// A store of an immediate over an immediate (a fixnum counter in a box)
// needs no barrier: the generational one looks at the reference stored
// (gc/gen.cpp), the concurrent one's deletion barrier at the reference
// overwritten (gc/vcgc.cpp), and here neither is a reference. Relaxed, as
// a concurrent marker may read the slot meanwhile.
inline void set_immediate(Value* slot, Value v) {
  __atomic_store_n(reinterpret_cast<Word*>(slot), v.word(), __ATOMIC_RELAXED);
}

// ---- predicates and accessors (through TYPE) ----
inline bool is_cons(Value v) { return TYPE(v) == Kind::Cons; }
inline bool is_list(Value v) {
  Kind k = TYPE(v);
  return k == Kind::Cons || k == Kind::Nil;
}
inline bool is_symbol(Value v) {
  Kind k = TYPE(v);
  return k == Kind::Symbol || k == Kind::Nil || k == Kind::True;
}
inline bool is_string(Value v) { return TYPE(v) == Kind::String; }
inline bool is_table(Value v) { return TYPE(v) == Kind::Table; }
inline bool is_fn(Value v) {
  Kind k = TYPE(v);
  return k == Kind::Closure || k == Kind::Builtin || k == Kind::Continuation;
}
// What fiber and new-thread accept to run: a function, or a list or table
// (which are called with one argument, an index or key).
inline bool is_runnable(Value v) {
  Kind k = TYPE(v);
  return is_fn(v) || k == Kind::Cons || k == Kind::Table;
}
inline bool is_number(Value v) {
  Kind k = TYPE(v);
  return k == Kind::Fixnum || k == Kind::Bignum || k == Kind::Flonum || k == Kind::Ratnum;
}
inline bool is_integer(Value v) {
  Kind k = TYPE(v);
  return k == Kind::Fixnum || k == Kind::Bignum;
}
inline bool is_tagged(Value v) { return TYPE(v) == Kind::Tagged; }

inline Value car(Value c) { return c.as<Cons>()->car; }  // c must be a cons
inline Value cdr(Value c) { return c.as<Cons>()->cdr; }

inline Value cons(VM& vm, Value a, Value b);  // in vm/vm.h
Value src_cons(VM& vm, Value a, Value b, uint64_t pos);
Value list(VM& vm, std::initializer_list<Value> xs);
// The source position of a form, 0 if it has none.
uint64_t pos_of(Value form);

Value make_box(VM& vm, Value v);
// A box is never an Arc value, only what a slot or an upvalue holds (an
// assigned variable), so a slot that may hold either is read by this test.
inline bool is_box(Value v) { return v.is_ref() && v.header()->kind == uint8_t(Kind::Box); }
// d in the value word when it has a word of its own (vm/value.h), else a
// heap Flonum: inline, since float arithmetic makes one per result.
Value make_heap_flonum(VM& vm, double d);
inline Value make_flonum(VM& vm, double d) {
  Value v;
  if (Value::flonum_imm(d, &v)) return v;
  return make_heap_flonum(vm, d);
}
// A flonum's double, in either form.
inline double flonum_value(Value v) {
  return v.is_flonum_imm() ? v.as_flonum_imm() : v.as<Flonum>()->d;
}
Value make_tagged(VM& vm, Value tag, Value rep);
// barriered: every store into it will go through set() (alloc's kBarriered);
// else its items may be initialised with plain stores, as any new object's.
Value make_vector(VM& vm, uint64_t n, Value fill = NIL, bool barriered = false);
Value make_blob(VM& vm, uint64_t size);
Value make_exception(VM& vm, Value message, Value irritants, Value backtrace);
Value make_builtin(VM& vm, const char* name, BuiltinFn fn, int min_args, int max_args);

// Identity hash kept in the header (stable under moving collectors).
uint32_t identity_hash(Value v);

// Source positions: file id (20 bits), line (28 bits), column (16 bits).
uint64_t make_pos(uint32_t file, uint32_t line, uint32_t col);
uint32_t pos_file(uint64_t p);
uint32_t pos_line(uint64_t p);
uint32_t pos_col(uint64_t p);
uint32_t file_id(const std::string& name);
const std::string& file_name(uint32_t id);
std::string pos_string(uint64_t p);  // "file:line:col", "" for 0

// Registers the size/trace/finalize of the kinds defined here with the heap
// (the others register theirs in their modules).
void register_kinds(gc::Heap& h);

}  // namespace vm
