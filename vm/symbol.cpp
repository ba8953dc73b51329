// vm/symbol.cpp — the intern table and the well-known symbols.
//
// The table maps a UTF-8 name to an index into `syms`, a vector of Values,
// rather than to the Value itself: the vector is what the collector sees
// (trace_symbols), so a moving collector can update it in one place. A
// symbol stays at its index while it is interned; unintern leaves nil
// there (a hole, which the next new name takes), and never takes a symbol
// whose index C++ code keeps (CachedSymbol pins it).
//
// A minor collection sees only the indices in `young` (trace_young_symbols,
// gc::RootSource::trace_young_roots): each symbol interned goes there, and
// stays while the minor collections that visit it find it young. The others
// are old, and a minor collection neither moves them nor needs them as
// roots: their global values, the one thing in them that changes, are
// stored through the write barrier (set_global), which remembers a symbol
// given a young value. So a minor collection costs nothing per global the
// program and the library define: visiting the library's thousands of
// symbols was nearly all of an empty minor collection's pause.
#include "vm/symbol.h"

#include <atomic>
#include <cstring>
#include <string>
#include <vector>

#include "vm/string.h"
#include "vm/vm.h"

namespace vm {

namespace {

// The names' index: open addressing with linear probing over slots that
// each hold a name's hash (32 bits of it, to skip most comparisons) and its
// index in `syms` (plus one: 0 is an empty slot), the names' bytes kept in
// one string (`text`) that grows and is never compacted (an unintern
// leaves its name's bytes behind). A lookup hashes the name once and
// touches a slot or two. A start interns the library's names:
// std::unordered_map hashed each three times and allocated twice for it,
// and its nodes took more memory than these do.
constexpr uint32_t kDeleted = ~uint32_t(0);  // a slot an unintern emptied

uint32_t next_epoch() {
  static std::atomic<uint32_t> epochs{0};  // (a VM per thread in the tests)
  return ++epochs;
}
constexpr size_t kFirstSlots = 4096;  // a power of two; the library's names fit

uint64_t name_hash(std::string_view s) {
  uint64_t h = 0x9e3779b97f4a7c15ull ^ s.size();
  size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
    h ^= h >> 31;
  }
  if (i < s.size()) {
    uint64_t w = 0;
    std::memcpy(&w, s.data() + i, s.size() - i);
    h = (h ^ w) * 0x94d049bb133111ebull;
    h ^= h >> 29;
  }
  return h * 0xbf58476d1ce4e5b9ull;
}

struct InternTable {
  struct Slot {
    uint32_t hash = 0;
    uint32_t index = 0;  // into syms, plus one; 0: empty; kDeleted
  };
  struct Name {
    uint32_t at = 0, size = 0;  // in text
  };
  std::vector<Slot> slots;  // a power of two of them, once a name is added
  size_t filled = 0;        // slots not empty (deleted ones count)
  std::vector<Value> syms;
  std::vector<Name> names;  // syms[i]'s
  std::string text;
  std::vector<size_t> holes;  // indices of uninterned symbols, free again
  // Indices whose symbol may be young: interned since the last minor
  // collection, or found young by it (an index may be listed twice, once a
  // hole is taken again; a hole's nil is skipped).
  std::vector<size_t> young;
  uint64_t uniq_count = 0;  // uniq's last gsN: its names go into this table
  // SymbolPlace's check: unique to this table, and renewed by each
  // unintern (a place found before may be a hole now, or another name's).
  uint32_t epoch = next_epoch();

  std::string_view name(size_t i) const {
    return std::string_view(text.data() + names[i].at, names[i].size);
  }
  // The slot that holds name, or the empty one where it would go; the
  // table has slots.
  Slot& probe(std::string_view name, uint32_t hash) {
    size_t mask = slots.size() - 1;
    Slot* free = nullptr;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
      Slot& s = slots[i];
      if (s.index == 0) return free ? *free : s;
      if (s.index == kDeleted) {
        if (!free) free = &s;
      } else if (s.hash == hash && this->name(s.index - 1) == name) {
        return s;
      }
    }
  }
  // Index of name, or -1.
  int64_t find(std::string_view name) {
    if (slots.empty()) return -1;
    Slot& s = probe(name, uint32_t(name_hash(name)));
    return s.index == 0 || s.index == kDeleted ? -1 : int64_t(s.index - 1);
  }
  // The index of name, interned now if it was not.
  size_t add(VM& vm, std::string_view name) {
    if (slots.empty()) {
      slots.resize(kFirstSlots);
      syms.reserve(kFirstSlots);
      names.reserve(kFirstSlots);
      young.reserve(kFirstSlots);
      text.reserve(8 * kFirstSlots);
    }
    uint32_t hash = uint32_t(name_hash(name));
    Slot* s = &probe(name, hash);
    if (s->index != 0 && s->index != kDeleted) return s->index - 1;
    if (s->index == 0 && (filled + 1) * 4 > slots.size() * 3) {
      rehash();
      s = &probe(name, hash);
    }
    // make_string_utf8 allocates first; allocation never collects, so the
    // string is safe while the symbol is allocated.
    Value str = make_string_utf8(vm, name);
    Symbol* sym = alloc<Symbol>(vm, Kind::Symbol);
    sym->name = str;
    sym->value = UNBOUND;
    Name n{uint32_t(text.size()), uint32_t(name.size())};
    text += name;
    size_t i;
    if (!holes.empty()) {
      i = holes.back();
      holes.pop_back();
      syms[i] = Value::ref(sym);
      names[i] = n;
    } else {
      i = syms.size();
      syms.push_back(Value::ref(sym));
      names.push_back(n);
    }
    if (s->index == 0) ++filled;
    *s = Slot{hash, uint32_t(i + 1)};
    young.push_back(i);
    return i;
  }
  void remove(size_t i) {
    Slot& s = probe(name(i), uint32_t(name_hash(name(i))));
    s.index = kDeleted;
    syms[i] = NIL;
    names[i] = Name{};
    holes.push_back(i);
  }
  // Twice the slots when three quarters are taken (by names or deleted
  // slots; the deleted ones are dropped here).
  void rehash() {
    size_t live = syms.size() - holes.size();
    size_t n = slots.size();
    while ((live + 1) * 2 > n) n *= 2;
    std::vector<Slot> old = std::move(slots);
    slots.assign(n, Slot{});
    filled = 0;
    for (const Slot& o : old) {
      if (o.index == 0 || o.index == kDeleted) continue;
      size_t mask = n - 1, j = o.hash & mask;
      while (slots[j].index) j = (j + 1) & mask;
      slots[j] = o;
      ++filled;
    }
  }
};

}  // namespace

// A VM's own (VM::symbols_).
struct SymbolTable {
  InternTable table;
};

SymbolTable* make_symbol_table() { return new SymbolTable(); }
void SymbolTableDeleter::operator()(SymbolTable* t) const { delete t; }

namespace {
InternTable& table(VM& vm) { return vm.symbol_table().table; }
}  // namespace

uint64_t uniq_count(VM& vm) { return table(vm).uniq_count; }
Value next_uniq(VM& vm) { return intern(vm, "gs" + std::to_string(++table(vm).uniq_count)); }
void advance_uniq_count(VM& vm, uint64_t at_least) {
  uint64_t& n = table(vm).uniq_count;
  if (n < at_least) n = at_least;
}

Value intern(VM& vm, std::string_view name) {
  if (name == "nil") return NIL;
  if (name == "t") return T;
  InternTable& t = table(vm);
  return t.syms[t.add(vm, name)];
}

bool unintern(VM& vm, Value sym) {
  if (TYPE(sym) != Kind::Symbol) return false;
  Symbol* s = sym.as<Symbol>();
  if (s->value != UNBOUND || (s->h.flags & (kSymPinned | kSymPrimitiveOp))) return false;
  // Nor one of the well-known symbols (S: special forms, type names), which
  // the compiler and the builtins compare with.
  const Value* known = reinterpret_cast<const Value*>(&vm.S);
  for (size_t i = 0; i < sizeof(Syms) / sizeof(Value); ++i)
    if (known[i] == sym) return false;
  InternTable& t = table(vm);
  int64_t i = t.find(string_utf8(s->name));
  if (i < 0 || t.syms[i] != sym) return false;
  t.remove(size_t(i));
  t.epoch = next_epoch();
  return true;
}

Value intern(VM& vm, std::string_view name, SymbolPlace& place) {
  InternTable& t = table(vm);
  if (place.epoch_ == t.epoch) return t.syms[place.index_];
  if (name == "nil") return NIL;  // nil and t have no place
  if (name == "t") return T;
  place.index_ = uint32_t(t.add(vm, name));
  place.epoch_ = t.epoch;
  return t.syms[place.index_];
}

Value find_symbol(VM& vm, std::string_view name) {
  if (name == "nil") return NIL;
  if (name == "t") return T;
  InternTable& t = table(vm);
  int64_t i = t.find(name);
  return i < 0 ? UNBOUND : t.syms[i];
}

Value make_uninterned_symbol(VM& vm, std::string_view name) {
  Value str = make_string_utf8(vm, name);  // allocated first (see InternTable::add)
  Symbol* s = alloc<Symbol>(vm, Kind::Symbol);
  s->name = str;
  s->value = UNBOUND;
  return Value::ref(s);
}

Value CachedSymbol::get(VM& vm) const {
  InternTable& t = table(vm);
  if (table_ != &t) {  // first use, or another runtime's table (tests)
    Value s = intern(vm, name_);
    if (s.is_ref()) index_ = size_t(t.find(name_));
    table_ = &t;
    if (s.is_ref()) s.as<Symbol>()->h.flags |= kSymPinned;  // its index is kept
    return s;
  }
  return t.syms[index_];
}

std::string symbol_name(Value sym) {
  if (sym.is_nil()) return "nil";
  if (sym == T) return "t";
  return string_utf8(sym.as<Symbol>()->name);
}

void set_global(VM& vm, Value sym, Value v) {
  Symbol* s = sym.as<Symbol>();
  set(vm, s, &s->value, v);
  if (s->h.flags & kSymPrimitiveOp) vm.refresh_dispatch();
}

const std::vector<Value>& all_symbols(VM& vm) { return table(vm).syms; }

namespace {
// VM::S caches symbols too; a moving collector must update those copies.
void trace_cached_symbols(VM& vm, gc::Visitor& v) {
  static_assert(sizeof(Syms) % sizeof(Value) == 0);
  auto* first = reinterpret_cast<Word*>(&vm.S);
  v.visit_range(first, first + sizeof(Syms) / sizeof(Value));
}
}  // namespace

void trace_symbols(VM& vm, gc::Visitor& v) {
  std::vector<Value>& syms = table(vm).syms;
  v.visit_range(reinterpret_cast<Word*>(syms.data()),
                reinterpret_cast<Word*>(syms.data() + syms.size()));
  trace_cached_symbols(vm, v);
}

void trace_young_symbols(VM& vm, gc::Visitor& v) {
  InternTable& t = table(vm);
  size_t keep = 0;
  for (size_t i : t.young) {
    auto* slot = reinterpret_cast<Word*>(&t.syms[i]);
    if (!gc::is_ref(*slot)) continue;  // a hole
    v.visit(slot);
    if (v.young(*slot)) t.young[keep++] = i;
  }
  t.young.resize(keep);
  trace_cached_symbols(vm, v);
}

void init_symbols(VM& vm) {
  vm.S.quote = intern(vm, "quote");
  vm.S.quasiquote = intern(vm, "quasiquote");
  vm.S.unquote = intern(vm, "unquote");
  vm.S.unquote_splicing = intern(vm, "unquote-splicing");
  vm.S.fn = intern(vm, "fn");
  vm.S.if_ = intern(vm, "if");
  vm.S.assign = intern(vm, "assign");
  vm.S.o = intern(vm, "o");
  vm.S.compose = intern(vm, "compose");
  vm.S.complement = intern(vm, "complement");
  vm.S.andf = intern(vm, "andf");
  vm.S.no = intern(vm, "no");
  vm.S.get = intern(vm, "get");
  vm.S.mac = intern(vm, "mac");
  vm.S.underscore = intern(vm, "_");
  vm.S.do_ = intern(vm, "do");
  vm.S.sig = intern(vm, "sig");
  vm.S.int_ = intern(vm, "int");
  vm.S.num = intern(vm, "num");
  vm.S.string = intern(vm, "string");
  vm.S.sym = intern(vm, "sym");
  vm.S.cons = intern(vm, "cons");
  vm.S.char_ = intern(vm, "char");
  vm.S.table = intern(vm, "table");
  vm.S.fn_type = intern(vm, "fn");
  vm.S.input = intern(vm, "input");
  vm.S.output = intern(vm, "output");
  vm.S.exception = intern(vm, "exception");
  vm.S.append = intern(vm, "append");
  static const char* const kTypeNames[kKindCount] = {
#define X(k, n) n,
      ARC_KINDS(X)
#undef X
  };
  for (int k = 0; k < kKindCount; ++k) vm.S.kind_type[k] = intern(vm, kTypeNames[k]);
  // Kinds a program never holds, and those `type` answers by the object.
  for (Kind k :
       {Kind::Blob, Kind::Vector, Kind::Code, Kind::Box, Kind::Internal, Kind::Tagged, Kind::Port})
    vm.S.kind_type[int(k)] = NIL;
}

}  // namespace vm
