// vm/symbol.h — interned symbols. The symbols nil and t are the immediates
// NIL and T; every other name maps to one Symbol object, kept while it is
// in the table, which is for ever but for the ids unintern takes out (Arc
// 3.1's uniq symbols are interned too). A symbol's global value lives in the
// symbol itself, so a global reference in code is a reference to its symbol.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "vm/object.h"

namespace vm {

Value intern(VM& vm, std::string_view utf8_name);
// The symbol of that name if one was interned, else UNBOUND; interns
// nothing (for names from the network, which must not grow the table).
Value find_symbol(VM& vm, std::string_view utf8_name);
// A symbol of that name outside the table: equal (is) to no other symbol,
// collected when unreferenced.
Value make_uninterned_symbol(VM& vm, std::string_view utf8_name);
// Takes sym out of the table, for names that are only ever ids: srv.arc's
// fnids, made for closures by the thousand and dropped with them. A name
// looked up afterwards is not found (find_symbol) or interned anew, and the
// symbol is collected once nothing holds it. Refused (false) for a symbol
// not in the table, one with a global value, one of the well-known ones
// (S) and one C++ code has cached.
bool unintern(VM& vm, Value sym);
// The symbol's name in UTF-8 ("nil" and "t" for the immediates).
std::string symbol_name(Value sym);

// A symbol C++ code names often (a table key, a global): looked up by name
// once; its place in the intern table never changes, so a moving collector
// cannot make the cached place stale, as it would a cached Value.
class CachedSymbol {
 public:
  explicit constexpr CachedSymbol(const char* name) : name_(name) {}
  Value get(VM& vm) const;

 private:
  const char* name_;
  mutable const void* table_ = nullptr;  // the intern table the index is into
  mutable size_t index_ = 0;
};
// Where a name is in the intern table, for a reader that meets the same
// names again and again (the library image, compiler/image.cpp): intern(name,
// place) looks the name up once and afterwards goes to its place, which a
// moving collector leaves as it is, until unintern runs or another table is
// current, when it looks the name up again.
class SymbolPlace {
 private:
  friend Value intern(VM& vm, std::string_view, SymbolPlace&);
  uint32_t index_ = 0;
  uint32_t epoch_ = 0;  // the table's when index_ was found; 0: never
};
Value intern(VM& vm, std::string_view utf8_name, SymbolPlace& place);

// Global value cell access; sym must be a Symbol object (not nil or t).
inline Value global_value(Value sym) { return sym.as<Symbol>()->value; }
void set_global(VM& vm, Value sym, Value v);
// Every interned symbol (for completion and root tracing); a place an
// uninterned symbol left holds nil until a new name takes it.
const std::vector<Value>& all_symbols(VM& vm);
// The table's symbols and the VM's well-known ones (VM::S), as roots.
void trace_symbols(VM& vm, gc::Visitor& v);
// For a minor collection: only the symbols that may be young (interned
// since the last one, or found young by it); the others are old and stay
// where they are (vm/symbol.cpp).
void trace_young_symbols(VM& vm, gc::Visitor& v);
// Each VM has its own symbols (they live in its heap): its table, made
// with it and freed with it (VM::symbols_).
struct SymbolTable;
SymbolTable* make_symbol_table();
struct SymbolTableDeleter {
  void operator()(SymbolTable* t) const;
};

// The counter behind Arc 3.1's uniq (gs1, gs2, ...), kept with the symbol
// table its names are interned in (each VM's own). The library image
// (compiler/image.h) records where the library left it and advances it
// there, so a start from the image makes the names a start from source does.
uint64_t uniq_count(VM& vm);
Value next_uniq(VM& vm);
void advance_uniq_count(VM& vm, uint64_t at_least);

// Frequently used symbols, interned once by each VM as it starts
// (init_symbols), kept in it as VM::S.
struct Syms {
  Value quote, quasiquote, unquote, unquote_splicing, fn, if_, assign, o, compose, complement, andf,
      no, get, mac, underscore, do_, sig, int_, num, string, sym, cons, char_, table, fn_type,
      input, output, exception, append;
  // What `type` gives for a value of each kind (ARC_KINDS' names); nil for
  // the kinds it answers otherwise (tagged, port) or never meets.
  Value kind_type[kKindCount];
};
void init_symbols(VM& vm);

}  // namespace vm
