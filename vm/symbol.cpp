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
// program and the library define (2,800 symbols after the library loads:
// visiting them all made an empty minor collection's median pause 7.8 us,
// 0.7 us without them).
#include "vm/symbol.h"

#include <string>
#include <unordered_map>

#include "vm/string.h"
#include "vm/vm.h"

namespace vm {

Syms S;

namespace {

// Looked up by string_view, without making a std::string of the name.
struct NameHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

struct InternTable {
  std::unordered_map<std::string, size_t, NameHash, std::equal_to<>> index;
  std::vector<Value> syms;
  std::vector<size_t> holes;  // indices of uninterned symbols, free again
  // Indices whose symbol may be young: interned since the last minor
  // collection, or found young by it (an index may be listed twice, once a
  // hole is taken again; a hole's nil is skipped).
  std::vector<size_t> young;
  uint64_t uniq_count = 0;  // uniq's last gsN: its names go into this table
  uint64_t uninterns = 0;   // how many unintern took out (SymbolPlace's check)
};

struct TableAndSyms {
  InternTable table;
  Syms syms;
};

// The symbol table intern() and the well-known symbols (S) use. Process-wide
// because intern and symbol_name are called from everywhere without a VM
// (the reader, printers, builtins' tables); a VM pushes its own and pops it
// at its end (push_symbol_table).
TableAndSyms* g_current = new TableAndSyms();

InternTable& table() { return g_current->table; }

Value new_symbol(std::string_view name) {
  // make_string_utf8 allocates first; allocation never collects, so the
  // string is safe while the symbol is allocated.
  Value str = make_string_utf8(name);
  Symbol* s = alloc<Symbol>(Kind::Symbol);
  s->name = str;
  s->value = UNBOUND;
  return Value::ref(s);
}

}  // namespace

uint64_t uniq_count() { return table().uniq_count; }
Value next_uniq() { return intern("gs" + std::to_string(++table().uniq_count)); }
void advance_uniq_count(uint64_t at_least) {
  uint64_t& n = table().uniq_count;
  if (n < at_least) n = at_least;
}

Value intern(std::string_view name) {
  if (name == "nil") return NIL;
  if (name == "t") return T;
  InternTable& t = table();
  auto it = t.index.find(name);
  if (it != t.index.end()) return t.syms[it->second];
  std::string key(name);
  Value sym = new_symbol(name);
  if (!t.holes.empty()) {
    size_t i = t.holes.back();
    t.holes.pop_back();
    t.index.emplace(std::move(key), i);
    t.syms[i] = sym;
    t.young.push_back(i);
    return sym;
  }
  t.index.emplace(std::move(key), t.syms.size());
  t.young.push_back(t.syms.size());
  t.syms.push_back(sym);
  return sym;
}

bool unintern(Value sym) {
  if (TYPE(sym) != Kind::Symbol) return false;
  Symbol* s = sym.as<Symbol>();
  if (s->value != UNBOUND || (s->h.flags & (kSymPinned | kSymPrimitiveOp))) return false;
  // Nor one of the well-known symbols (S: special forms, type names), which
  // the compiler and the builtins compare with.
  const Value* known = reinterpret_cast<const Value*>(&S);
  for (size_t i = 0; i < sizeof(Syms) / sizeof(Value); ++i)
    if (known[i] == sym) return false;
  InternTable& t = table();
  auto it = t.index.find(string_utf8(s->name));
  if (it == t.index.end() || t.syms[it->second] != sym) return false;
  t.syms[it->second] = NIL;
  t.holes.push_back(it->second);
  t.index.erase(it);
  ++t.uninterns;
  return true;
}

Value intern(std::string_view name, SymbolPlace& place) {
  InternTable& t = table();
  if (place.table_ == &t && place.uninterns_ == t.uninterns) return t.syms[place.index_];
  Value sym = intern(name);
  if (sym.is_ref()) {  // nil and t have no place
    place.table_ = &t;
    place.index_ = t.index.find(name)->second;
    place.uninterns_ = t.uninterns;
  }
  return sym;
}

Value find_symbol(std::string_view name) {
  if (name == "nil") return NIL;
  if (name == "t") return T;
  InternTable& t = table();
  auto it = t.index.find(name);
  return it == t.index.end() ? UNBOUND : t.syms[it->second];
}

Value make_uninterned_symbol(std::string_view name) { return new_symbol(name); }

Value CachedSymbol::get() const {
  InternTable& t = table();
  if (table_ != &t) {  // first use, or another runtime's table (tests)
    Value s = intern(name_);
    table_ = &t;
    index_ = t.index.find(std::string_view(name_))->second;
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

void set_global(Value sym, Value v) {
  Symbol* s = sym.as<Symbol>();
  set(s, &s->value, v);
  if ((s->h.flags & kSymPrimitiveOp) && has_vm()) VM::current().refresh_dispatch();
}

const std::vector<Value>& all_symbols() { return table().syms; }

SymbolTable* push_symbol_table() {
  g_current->syms = S;
  auto* previous = reinterpret_cast<SymbolTable*>(g_current);
  g_current = new TableAndSyms();
  S = Syms{};
  return previous;
}

void pop_symbol_table(SymbolTable* previous) {
  delete g_current;
  g_current = reinterpret_cast<TableAndSyms*>(previous);
  S = g_current->syms;
}

namespace {
// S caches symbols too; a moving collector must update those copies.
void trace_cached_symbols(gc::Visitor& v) {
  static_assert(sizeof(Syms) % sizeof(Value) == 0);
  auto* first = reinterpret_cast<Word*>(&S);
  v.visit_range(first, first + sizeof(Syms) / sizeof(Value));
}
}  // namespace

void trace_symbols(gc::Visitor& v) {
  std::vector<Value>& syms = table().syms;
  v.visit_range(reinterpret_cast<Word*>(syms.data()),
                reinterpret_cast<Word*>(syms.data() + syms.size()));
  trace_cached_symbols(v);
}

void trace_young_symbols(gc::Visitor& v) {
  InternTable& t = table();
  size_t keep = 0;
  for (size_t i : t.young) {
    auto* slot = reinterpret_cast<Word*>(&t.syms[i]);
    if (!gc::is_ref(*slot)) continue;  // a hole
    v.visit(slot);
    if (v.young(*slot)) t.young[keep++] = i;
  }
  t.young.resize(keep);
  trace_cached_symbols(v);
}

void init_symbols() {
  S.quote = intern("quote");
  S.quasiquote = intern("quasiquote");
  S.unquote = intern("unquote");
  S.unquote_splicing = intern("unquote-splicing");
  S.fn = intern("fn");
  S.if_ = intern("if");
  S.assign = intern("assign");
  S.o = intern("o");
  S.compose = intern("compose");
  S.complement = intern("complement");
  S.andf = intern("andf");
  S.no = intern("no");
  S.get = intern("get");
  S.mac = intern("mac");
  S.underscore = intern("_");
  S.do_ = intern("do");
  S.sig = intern("sig");
  S.int_ = intern("int");
  S.num = intern("num");
  S.string = intern("string");
  S.sym = intern("sym");
  S.cons = intern("cons");
  S.char_ = intern("char");
  S.table = intern("table");
  S.fn_type = intern("fn");
  S.input = intern("input");
  S.output = intern("output");
  S.exception = intern("exception");
  S.append = intern("append");
}

}  // namespace vm
