// vm/object.cpp — each kind's size, trace and finalize, side by side, and
// the small constructors every part of the VM uses.
#include "vm/object.h"

#include <unordered_map>
#include <vector>

#include "vm/code.h"
#include "vm/error.h"
#include "vm/instrument.h"
#include "vm/port.h"
#include "vm/string.h"
#include "vm/symbol.h"
#include "vm/vm.h"

namespace vm {

// Process-wide, as the TYPE() macro that counts into it is used by every
// part of the VM without a VM at hand (and the counting test is one load).
Profile g_profile;

namespace {

using gc::Visitor;
using gc::Word;

template <class T>
size_t fixed_size(const GcHeader*) {
  return sizeof(T);
}

// The slot is read with gc::load_word: vcgc's collector traces objects while
// the mutator stores into them.
void visit(Visitor& v, Value& slot) {
  if (gc::is_ref(gc::load_word(reinterpret_cast<Word*>(&slot))))
    v.visit(reinterpret_cast<Word*>(&slot));
}

size_t cons_size(const GcHeader* h) {
  return (h->flags & kConsHasPos) ? sizeof(SrcCons) : sizeof(Cons);
}
void cons_trace(GcHeader* h, Visitor& v) {
  auto* c = reinterpret_cast<Cons*>(h);
  visit(v, c->car);
  visit(v, c->cdr);
}
void symbol_trace(GcHeader* h, Visitor& v) {
  auto* s = reinterpret_cast<Symbol*>(h);
  visit(v, s->name);
  visit(v, s->value);
}
size_t blob_size(const GcHeader* h) {
  return sizeof(Blob) + reinterpret_cast<const Blob*>(h)->size;
}
// A String with room for its characters inline (kStringRoom) is that much
// longer, whether or not they are still there. vcgc calls this on its own
// thread while the mutator may change the string's other flags, so the
// flags are loaded atomically (vm/string.cpp, store_flags).
size_t string_size(const GcHeader* h) {
  auto* s = reinterpret_cast<const String*>(h);
  uint16_t flags = __atomic_load_n(&h->flags, __ATOMIC_RELAXED);
  return sizeof(String) + ((flags & kStringRoom) ? s->len : 0);
}
void string_trace(GcHeader* h, Visitor& v) { visit(v, reinterpret_cast<String*>(h)->buf); }
size_t vector_size(const GcHeader* h) {
  return sizeof(Vector) + reinterpret_cast<const Vector*>(h)->len * sizeof(Value);
}
void vector_trace(GcHeader* h, Visitor& v) {
  auto* vec = reinterpret_cast<Vector*>(h);
  for (uint64_t i = 0; i < vec->len; ++i) visit(v, vec->items[i]);
}
size_t bignum_size(const GcHeader* h) {
  int64_t n = reinterpret_cast<const Bignum*>(h)->size;
  return sizeof(Bignum) + size_t(n < 0 ? -n : n) * sizeof(mp_limb_t);
}
void ratnum_trace(GcHeader* h, Visitor& v) {
  auto* r = reinterpret_cast<Ratnum*>(h);
  visit(v, r->num);
  visit(v, r->den);
}
void table_trace(GcHeader* h, Visitor& v) {
  auto* t = reinterpret_cast<Table*>(h);
  visit(v, t->slots);
  visit(v, t->array);
}
size_t closure_size(const GcHeader* h) {
  return sizeof(Closure) + reinterpret_cast<const Closure*>(h)->nup * sizeof(Value);
}
void closure_trace(GcHeader* h, Visitor& v) {
  auto* c = reinterpret_cast<Closure*>(h);
  visit(v, c->code);
  for (uint64_t i = 0; i < c->nup; ++i) visit(v, c->up[i]);
}
size_t code_size(const GcHeader* h) {
  auto* c = reinterpret_cast<const Code*>(h);
  return sizeof(Code) + c->nconsts * sizeof(Value) + c->ninsns * sizeof(Insn);
}
void code_trace(GcHeader* h, Visitor& v) {
  auto* c = reinterpret_cast<Code*>(h);
  visit(v, c->lines);
  visit(v, c->name);
  visit(v, c->file);
  visit(v, c->shared);
  Value* k = code_consts(c);
  for (uint32_t i = 0; i < c->nconsts; ++i) visit(v, k[i]);
}
void builtin_trace(GcHeader* h, Visitor& v) { visit(v, reinterpret_cast<Builtin*>(h)->name); }
void tagged_trace(GcHeader* h, Visitor& v) {
  auto* t = reinterpret_cast<Tagged*>(h);
  visit(v, t->tag);
  visit(v, t->rep);
}
// The impl's destructor closes what is open, without waiting (a socket's
// close() may wait for its peer; nothing may wait inside the collector).
void port_finalize(GcHeader* h) {
  auto* p = reinterpret_cast<Port*>(h);
  if (p->impl) {
    delete p->impl;
    p->impl = nullptr;
  }
}
void exception_trace(GcHeader* h, Visitor& v) {
  auto* e = reinterpret_cast<Exception*>(h);
  visit(v, e->message);
  visit(v, e->irritants);
  visit(v, e->backtrace);
}
void box_trace(GcHeader* h, Visitor& v) { visit(v, reinterpret_cast<Box*>(h)->v); }

struct FileTable {
  std::vector<std::string> names{""};
  std::unordered_map<std::string, uint32_t> ids;
};
// Process-wide: source file names outlive the VMs and heaps that read them
// (a Code object's file is an index into this table).
FileTable& files() {
  static FileTable t;
  return t;
}

// Process-wide: object hashes need only differ, whichever heap made them.
uint32_t g_next_hash = 0x9e3779b9u;

}  // namespace

const char* kind_name(Kind k) {
  static const char* names[] = {
#define X(k, n) #k,
      ARC_KINDS(X)
#undef X
  };
  return names[int(k)];
}

void register_kinds(gc::Heap& h) {
  auto reg = [&](Kind k, size_t (*size)(const GcHeader*), void (*trace)(GcHeader*, Visitor&),
                 void (*fin)(GcHeader*) = nullptr) {
    h.register_kind(uint8_t(k), gc::KindInfo{kind_name(k), size, trace, fin});
  };
  reg(Kind::Cons, cons_size, cons_trace);
  {
    gc::KindInfo k = h.kind_info(uint8_t(Kind::Cons));  // car and cdr; a SrcCons has a flag
    k.ref_words = 2;
    k.plain_size = sizeof(Cons);
    h.register_kind(uint8_t(Kind::Cons), k);
  }
  reg(Kind::Symbol, fixed_size<Symbol>, symbol_trace);
  reg(Kind::String, string_size, string_trace);
  reg(Kind::Blob, blob_size, nullptr);
  reg(Kind::Vector, vector_size, vector_trace);
  reg(Kind::Flonum, fixed_size<Flonum>, nullptr);
  reg(Kind::Bignum, bignum_size, nullptr);
  reg(Kind::Ratnum, fixed_size<Ratnum>, ratnum_trace);
  reg(Kind::Table, fixed_size<Table>, table_trace);
  reg(Kind::Closure, closure_size, closure_trace);
  reg(Kind::Code, code_size, code_trace);
  reg(Kind::Builtin, fixed_size<Builtin>, builtin_trace);
  reg(Kind::Tagged, fixed_size<Tagged>, tagged_trace);
  reg(Kind::Port, fixed_size<Port>, nullptr, port_finalize);
  reg(Kind::Exception, fixed_size<Exception>, exception_trace);
  reg(Kind::Box, fixed_size<Box>, box_trace);
}

Value src_cons(VM& vm, Value a, Value b, uint64_t pos) {
  if (pos == 0) return cons(vm, a, b);
  SrcCons* c = alloc<SrcCons>(vm, Kind::Cons);
  c->h.flags |= kConsHasPos;
  c->car = a;
  c->cdr = b;
  c->pos = pos;
  return Value::ref(c);
}

Value list(VM& vm, std::initializer_list<Value> xs) {
  Value r = NIL;
  for (auto it = xs.end(); it != xs.begin();) r = cons(vm, *--it, r);
  return r;
}

uint64_t pos_of(Value form) {
  if (!form.is_ref() || form.header()->kind != uint8_t(Kind::Cons)) return 0;
  if (!(form.header()->flags & kConsHasPos)) return 0;
  return form.as<SrcCons>()->pos;
}

Value make_box(VM& vm, Value v) {
  Box* b = alloc<Box>(vm, Kind::Box);
  b->v = v;
  return Value::ref(b);
}

Value make_heap_flonum(VM& vm, double d) {
  Flonum* f = alloc<Flonum>(vm, Kind::Flonum);
  f->d = d;
  return Value::ref(f);
}

Value make_tagged(VM& vm, Value tag, Value rep) {
  Tagged* t = alloc<Tagged>(vm, Kind::Tagged);
  t->tag = tag;
  t->rep = rep;
  return Value::ref(t);
}

Value make_vector(VM& vm, uint64_t n, Value fill, bool barriered) {
  Vector* v = barriered ? alloc<Vector, true>(vm, Kind::Vector, n * sizeof(Value))
                        : alloc<Vector>(vm, Kind::Vector, n * sizeof(Value));
  v->len = n;
  if (fill != NIL)
    for (uint64_t i = 0; i < n; ++i) v->items[i] = fill;
  return Value::ref(v);
}

Value make_blob(VM& vm, uint64_t size) {
  Blob* b = alloc<Blob>(vm, Kind::Blob, (size + 7) & ~uint64_t(7));
  b->size = size;
  return Value::ref(b);
}

Value make_exception(VM& vm, Value message, Value irritants, Value backtrace) {
  Exception* e = alloc<Exception>(vm, Kind::Exception);
  e->message = message;
  e->irritants = irritants;
  e->backtrace = backtrace;
  return Value::ref(e);
}

Value make_closure(VM& vm, Value code, uint64_t nup) {
  Closure* c = alloc<Closure>(vm, Kind::Closure, nup * sizeof(Value));
  c->code = code;
  c->nup = nup;
  return Value::ref(c);
}

uint32_t identity_hash(Value v) {
  GcHeader* h = v.header();
  if (h->hash == 0) {
    g_next_hash = g_next_hash * 1664525u + 1013904223u;
    h->hash = g_next_hash ? g_next_hash : 1;
  }
  return h->hash;
}

uint64_t make_pos(uint32_t file, uint32_t line, uint32_t col) {
  if (line >= (1u << 28)) line = (1u << 28) - 1;
  if (col >= (1u << 16)) col = (1u << 16) - 1;
  return (uint64_t(file & 0xfffff) << 44) | (uint64_t(line) << 16) | col;
}
uint32_t pos_file(uint64_t p) { return uint32_t(p >> 44); }
uint32_t pos_line(uint64_t p) { return uint32_t(p >> 16) & ((1u << 28) - 1); }
uint32_t pos_col(uint64_t p) { return uint32_t(p & 0xffff); }

uint32_t file_id(const std::string& name) {
  FileTable& t = files();
  auto it = t.ids.find(name);
  if (it != t.ids.end()) return it->second;
  uint32_t id = uint32_t(t.names.size());
  if (id >= (1u << 20)) return 0;
  t.names.push_back(name);
  t.ids[name] = id;
  return id;
}
const std::string& file_name(uint32_t id) {
  FileTable& t = files();
  return id < t.names.size() ? t.names[id] : t.names[0];
}
std::string pos_string(uint64_t p) {
  if (p == 0) return "";
  return file_name(pos_file(p)) + ":" + std::to_string(pos_line(p)) + ":" +
         std::to_string(pos_col(p));
}

bool code_is_internal(Code* c) {
  if (!is_symbol(c->name) || c->name.is_nil() || TYPE(c->file) != Kind::String) return false;
  if (string_utf8(c->file) != "prelude.arc") return false;
  std::string name = symbol_name(c->name);
  return name == "dynamic-wind" || name[0] == '%';
}

std::string code_function_name(Code* c) {
  if (is_symbol(c->name) && !c->name.is_nil()) return symbol_name(c->name);
  std::string file = TYPE(c->file) == Kind::String ? string_utf8(c->file) : "?";
  return "fn@" + file + ":" + std::to_string(c->line);
}

void read_lazy_body(VM& vm, Code* c) {
  if (!code_unread(c)) return;
  auto* reader = static_cast<LazyBodyReader*>(vm.library_state(kLazyBodyReader));
  if (!reader)
    throw_error(vm, "the library image that holds " + code_function_name(c) + "'s body is gone");
  const Insn* insns = code_insns(c);
  reader->read(vm, c, insn_a(insns[0]), insns[1]);
}

uint32_t code_line_at(Code* c, uint32_t pc) {
  if (c->lines.is_nil()) return c->line;
  Blob* b = c->lines.as<Blob>();
  auto* p = reinterpret_cast<const uint32_t*>(b->data);
  size_t n = b->size / 8;
  uint32_t line = c->line;
  for (size_t i = 0; i < n && p[2 * i] <= pc; ++i) line = p[2 * i + 1];
  return line;
}

}  // namespace vm
