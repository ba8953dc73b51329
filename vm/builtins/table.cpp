// vm/builtins/table.cpp — the table primitives the library builds on:
// %table (wrapped by the library's `table`, which adds the init function)
// and %table-keys (under maptable). Lookup is a call of the table and
// storing is sref, both elsewhere.
#include "vm/table.h"

#include "vm/builtins.h"
#include "vm/vm.h"

namespace vm {

namespace {

Value bi_table(VM& vm, Value*, int) { return make_table(vm); }

// The keys are gathered first so the caller may modify the table while it
// walks the list (maptable's function may store into it).
Value bi_table_keys(VM& vm, Value* args, int) {
  Value t = arg_table(vm, "%table-keys", args[0]);
  Value keys = NIL;
  table_each(t, [&](Value k, Value) { keys = cons(vm, k, keys); });
  return keys;
}

const BuiltinDef kTableBuiltins[] = {
    {"%table", bi_table, 0, 0, "(%table): a new empty table"},
    {"%table-keys", bi_table_keys, 1, 1, "(%table-keys h): a list of the keys of h"},
};

}  // namespace

void register_table_builtins(VM& vm) { define_builtins(vm, kTableBuiltins); }

}  // namespace vm
