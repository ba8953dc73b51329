// vm/table.cpp — Arc tables, Racket's equal? and the hash that matches it.
//
// A table has two parts, as Lua's tables have (Lua 5.4's ltable.c, whose
// design this follows; the code is ours). The array part holds the fixnum
// keys 0..asize-1: key k's value in slot k, nil where k is absent. Indices
// start at 0 because Arc's do (lists and strings are indexed from 0, and a
// program ported from a language indexing from 1 only leaves slot 0 empty).
// Every other key lives in the hash part; a key in the array part's range
// never does, so a lookup of a fixnum key looks in one part only.
//
// The hash part: open addressing with linear probing. `slots` is a Vector
// of 2*capacity Values, key then value; capacity is a power of two. A
// never-used key slot holds EMPTY. A deleted key keeps its entry, its value
// nil, until the next rebuild (a dead entry, as Lua keeps a dead key): the
// probe chains stay intact, and a key deleted and stored again, as a field
// that goes between nil and a value does (Arc has no other way to clear
// one), is stored where it was, where a field site's cache (table.h,
// table_cached_slot) still finds it. That is for symbols and the keys held
// in the word (fixnums, characters): a dead entry whose key is any other
// object gives it up for GONE, which no key is equal to, so that a table
// keyed by strings, conses or threads keeps none of those it deleted alive
// (as Lua's collector clears a dead key). `used` counts the entries, live
// and dead: when it would pass 3/4 of capacity the table is rebuilt, at a
// capacity that puts the live entries at or below 1/2, and the dead ones
// are left out.
//
// The array part's size is chosen only when the hash part is rebuilt
// (rebuild), as Lua's computesizes chooses it but for the density: the
// power of two n that holds the most of the keys present (counting the key
// being inserted) of those n whose n slots take no more words than the hash
// part those keys would need (capacity_for: two words an entry, at a load
// of at most 1/2 after a rebuild, a power of two), the smallest if several
// hold as many. So the array part never costs more memory than the hash
// part it replaces. Lua asks for more than n/2 of the keys; here keys
// filled downwards (an array built from its end) reach the array part
// with far fewer of them passing through the hash part first. Filling 0,
// 1, 2, ... in order doubles it as the hash part would double (the
// smallest size holding them all), while a key far past the others (a
// sparse table of integers) stays in the hash part. Deleting keys never
// shrinks it until the next rebuild.
//
// Hashes never use an object's address, which a moving collector changes:
// identity-compared objects use identity_hash (kept in the header).
#include "vm/table.h"

#include <utility>
#include <vector>

#include "vm/number.h"
#include "vm/string.h"
#include "vm/vm.h"

namespace vm {

namespace {

constexpr uint64_t kMinCapacity = 8;
// The array part holds keys below 2^kMaxArrayBits at most.
constexpr int kMaxArrayBits = 30;
// Structural hashing of conses looks at this many conses at most; equal
// structures look at the same ones, so the hash stays consistent.
constexpr int kHashBudget = 32;

uint64_t mix(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return h;
}
uint64_t combine(uint64_t h, uint64_t x) { return mix(h * 31 + x); }

bool is_num_kind(Kind k) {
  return k == Kind::Fixnum || k == Kind::Bignum || k == Kind::Flonum || k == Kind::Ratnum;
}

// Equality of two values that are not conses (or conses as a whole, by
// identity); conses are walked by arc_equal itself.
bool atom_equal(Value a, Value b, Kind ka, Kind kb) {
  if (a == b) return true;
  if (is_num_kind(ka)) return is_num_kind(kb) && num_eqv(a, b);
  if (ka != kb) return false;
  if (ka == Kind::String) return string_equal(a, b);
  return false;
}

uint64_t hash_bounded(Value v, int& budget);

uint64_t hash_atom(Value v, Kind k) {
  if (k == Kind::Fixnum) return fixnum_hash(v);
  if (is_num_kind(k)) return num_hash(v);
  if (k == Kind::String) return string_hash(v);
  // An identity hash is random already (vm/object.cpp): combine's mix is enough.
  if (v.is_ref()) return identity_hash(v);
  return mix(v.word());  // nil, t, chars, internal markers
}

// The seed every hash starts from.
constexpr uint64_t kHashSeed = 0x51ed27;

// A fixnum's hash, what hash_bounded gives it, without asking its kind:
// the keys of a table used as an array, past its array part.
uint64_t fixnum_key_hash(Value v) { return combine(kHashSeed, fixnum_hash(v)); }

uint64_t hash_bounded(Value v, int& budget) {
  uint64_t h = kHashSeed;
  for (;;) {
    Kind k = TYPE(v);
    if (k == Kind::Tagged) {
      if (--budget < 0) return h;
      h = combine(h, hash_bounded(v.as<Tagged>()->tag, budget));
      v = v.as<Tagged>()->rep;
      continue;
    }
    if (k != Kind::Cons) return combine(h, hash_atom(v, k));
    if (--budget < 0) return h;
    h = combine(h, hash_bounded(car(v), budget));
    v = cdr(v);
  }
}

Vector* slots_of(Value t) {
  Value s = t.as<Table>()->slots;
  return s.is_nil() ? nullptr : s.as<Vector>();
}
uint64_t capacity_of(const Vector* v) { return v ? v->len / 2 : 0; }

// A key's hash, and whether only the same word is equal to it: true of
// every kind but strings, boxed numbers, conses and tagged objects (a
// symbol is interned, a fixnum or character immediate, a table or closure
// equal only to itself), so that finding such a key compares words along
// its probe chain instead of asking each key there what it is.
uint64_t key_hash(Value key, bool& by_word) {
  // A symbol first, the key of every field of a record (b!x): what the
  // general case below gives it, without asking what kind it is.
  if (key.is_ref() && key.header()->kind == uint8_t(Kind::Symbol)) {
    by_word = true;
    return combine(kHashSeed, identity_hash(key));
  }
  if (key.is_fixnum()) {
    by_word = true;
    return fixnum_key_hash(key);
  }
  Kind k = TYPE(key);
  by_word = !(k == Kind::String || k == Kind::Cons || k == Kind::Tagged ||
              (k != Kind::Fixnum && is_num_kind(k)));
  if (k == Kind::Cons || k == Kind::Tagged) {
    int budget = kHashBudget;
    return hash_bounded(key, budget);
  }
  return combine(kHashSeed, hash_atom(key, k));  // as hash_bounded gives it
}

// The probe loops below, for a lookup and for a store (kPut): a store's
// also notes in *free where the key would go if absent, the first
// tombstone on its path or else the empty slot that ends it, so that a new
// key is placed without walking the path again.
//
// find for a key only the same word is equal to (key_hash's by_word): the
// probe loop of a symbol key, every field read b!x, with nothing else in it.
template <bool kPut>
int64_t find_word(const Vector* v, Value key, uint64_t hash, int64_t* free) {
  uint64_t mask = capacity_of(v) - 1;
  for (uint64_t i = hash & mask;; i = (i + 1) & mask) {
    Value k = v->items[2 * i];
    if (k == key) return int64_t(i);
    if (k == EMPTY) {
      if (kPut) *free = int64_t(i);
      return -1;
    }
  }
}

// The slot index of key's entry (live or dead), or -1 if it has none; with
// kPut, *free the empty slot that ends its probe path.
//
// A string key (the common key compared by content) meets the keys on its
// probe path as strings at once: no other kind is equal to a string.
template <bool kPut = false>
int64_t find(const Vector* v, Value key, uint64_t hash, bool by_word, int64_t* free = nullptr) {
  if (!v) return -1;
  if (by_word) return find_word<kPut>(v, key, hash, free);
  uint64_t mask = capacity_of(v) - 1;
  bool string_key = TYPE(key) == Kind::String;
  for (uint64_t i = hash & mask;; i = (i + 1) & mask) {
    Value k = v->items[2 * i];
    if (k == key) return int64_t(i);
    if (k == EMPTY) {
      if (kPut) *free = int64_t(i);
      return -1;
    }
    if (string_key ? TYPE(k) == Kind::String && string_equal(k, key) : arc_equal(k, key))
      return int64_t(i);
  }
}

// Stores a new entry at slot i of t's hash part, an empty slot.
void insert_at(VM& vm, Table* t, Vector* v, uint64_t i, Value key, Value val) {
  t->used++;
  t->count++;
  set(vm, &v->h, &v->items[2 * i], key);
  set(vm, &v->h, &v->items[2 * i + 1], val);
}

// Stores into a table known to have room and not to hold key; the entry's index.
int64_t insert_new(VM& vm, Table* t, Value key, Value val, uint64_t hash) {
  Vector* v = t->slots.as<Vector>();
  uint64_t mask = capacity_of(v) - 1;
  uint64_t i = hash & mask;
  while (v->items[2 * i] != EMPTY) i = (i + 1) & mask;
  insert_at(vm, t, v, i, key, val);
  return int64_t(i);
}

// A table's parts are only ever stored into with set(): a large one allocated
// old need not be remembered.
Value new_slots(VM& vm, uint64_t capacity) { return make_vector(vm, 2 * capacity, EMPTY, true); }

uint64_t capacity_for(uint64_t entries) {
  uint64_t cap = kMinCapacity;
  while (cap < 2 * entries) cap *= 2;
  return cap;
}

// Which power-of-two slice of the array part's candidates a key 0 <=
// k < 2^kMaxArrayBits falls in: slice 0 is {0}, slice b >= 1 the keys
// 2^(b-1) <= k < 2^b, so an array part of 2^b slots holds slices 0..b.
int slice_of(uint64_t k) { return k == 0 ? 0 : 64 - __builtin_clzll(k); }

// Whether key could live in an array part.
bool array_candidate(Value key) {
  return key.is_fixnum() && key.as_fixnum() >= 0 && key.as_fixnum() < (int64_t(1) << kMaxArrayBits);
}

// Counts key in its slice if it could live in an array part; whether it could.
bool count_candidate(Value key, uint64_t* nums) {
  if (!array_candidate(key)) return false;
  nums[slice_of(uint64_t(key.as_fixnum()))]++;
  return true;
}

// The array part for the keys counted in nums: of the powers of two n no
// larger in words than a hash part for the keys 0..n-1 counted, the one
// that holds the most keys, the smallest of those (0 if none: no array
// part); and how many keys it holds.
uint64_t array_size_for(const uint64_t* nums, uint64_t* held) {
  uint64_t below = 0, size = 0;
  *held = 0;
  for (int b = 0; b <= kMaxArrayBits; ++b) {
    below += nums[b];
    if ((uint64_t(1) << b) <= 2 * capacity_for(below) && below > *held) {
      size = uint64_t(1) << b;
      *held = below;
    }
  }
  return size;
}

// Stores a key the table does not hold, with room in the part it goes to.
void place(VM& vm, Table* t, Value key, Value val) {
  if (!table_put_array(vm, Value::ref(t), key, val)) insert_new(vm, t, key, val, equal_hash(key));
}

// Rebuilds the table with room for one more entry, key (which it does not
// hold): sizes the array part anew, then the hash part for the rest.
// Counting the array part's keys walks it, which is needed only while it
// is at most half full. Fuller, the size it has qualifies: when neither
// key nor any key of the hash part could go to an array part, that size
// stays (the count would give it, or a smaller one nothing asks for);
// else the new size is that one or a larger one, and only the total of
// the keys below it counts.
void rebuild(VM& vm, Table* t, Value key) {
  Vector* old_array = t->array.is_nil() ? nullptr : t->array.as<Vector>();
  Vector* old = t->slots.is_nil() ? nullptr : t->slots.as<Vector>();
  uint64_t nums[kMaxArrayBits + 1] = {};
  bool candidates = count_candidate(key, nums);
  for (uint64_t i = 0; old && i < old->len; i += 2) {
    Value k = old->items[i];
    if (k != EMPTY && !old->items[i + 1].is_nil() && count_candidate(k, nums)) candidates = true;
  }
  uint64_t old_asize = t->asize, asize = old_asize, held = t->acount;
  if (candidates || (old_asize > 0 && t->acount * 2 <= old_asize)) {
    if (t->acount * 2 > old_asize) {  // its keys all counted in its last slice: no walk
      nums[slice_of(old_asize - 1)] += t->acount;
    } else {
      for (uint64_t i = 0; i < old_asize; ++i)
        if (!old_array->items[i].is_nil()) nums[slice_of(i)]++;
    }
    asize = array_size_for(nums, &held);
  }
  uint64_t hashed = t->count + 1 - held;
  // Both parts allocated before anything moves: allocation never collects,
  // so the old parts stay where they are meanwhile.
  Value array = asize == old_asize ? t->array : asize ? make_vector(vm, asize, NIL, true) : NIL;
  Value slots = hashed ? new_slots(vm, capacity_for(hashed)) : NIL;
  bool array_moved = array != t->array;
  set(vm, t, &t->array, array);
  set(vm, t, &t->slots, slots);
  t->asize = asize;
  t->used = 0;
  t->count = array_moved ? 0 : t->acount;
  if (array_moved) {
    // The old array's entries: each where it was in the new one, past its
    // end hashed.
    t->acount = 0;
    for (uint64_t i = 0; i < old_asize; ++i) {
      Value v = old_array->items[i];
      if (v.is_nil()) continue;
      if (i < asize) {
        set(vm, &array.as<Vector>()->h, &array.as<Vector>()->items[i], v);
        t->acount++;
        t->count++;
      } else {
        Value k = Value::fixnum(int64_t(i));
        insert_new(vm, t, k, v, equal_hash(k));
      }
    }
  }
  for (uint64_t i = 0; old && i < old->len; i += 2) {
    Value k = old->items[i];
    if (k != EMPTY && !old->items[i + 1].is_nil()) place(vm, t, k, old->items[i + 1]);
  }
}

}  // namespace

Value make_table(VM& vm, uint64_t capacity) {
  // Allocate the slots first: allocation never collects.
  Value slots = capacity ? new_slots(vm, capacity_for(capacity)) : NIL;
  Table* t = alloc<Table>(vm, Kind::Table);
  t->count = t->used = 0;
  t->slots = slots;
  t->array = NIL;
  t->asize = t->acount = 0;
  return Value::ref(t);
}

Value table_get_hashed(Value t, Value key, Value dflt) {
  Vector* v = slots_of(t);
  if (!v) return dflt;
  bool by_word;
  uint64_t hash = key_hash(key, by_word);
  int64_t i = find(v, key, hash, by_word);
  Value val = i < 0 ? NIL : v->items[2 * i + 1];
  return val.is_nil() ? dflt : val;  // (a dead entry's nil: absent)
}

int64_t table_put(VM& vm, Value tv, Value key, Value val) {
  if (table_put_array(vm, tv, key, val)) return -1;
  Table* t = tv.as<Table>();
  bool by_word;
  uint64_t hash = key_hash(key, by_word);
  Vector* v = slots_of(tv);
  if (!v && t->asize == 0) {  // the first key of a table (an obj's): no sizing to do
    if (val.is_nil()) return -1;
    if (!array_candidate(key)) {
      set(vm, t, &t->slots, new_slots(vm, kMinCapacity));
      t->used = 0;
      return insert_new(vm, t, key, val, hash);
    }
  }
  int64_t free = -1;
  int64_t i = find<true>(v, key, hash, by_word, &free);
  if (i >= 0) {  // its entry, live or dead: a deletion leaves it dead (nil)
    table_store_cached(vm, tv, &v->items[2 * i + 1], val);
    Value stored = v->items[2 * i];
    if (val.is_nil() && stored.is_ref() && TYPE(stored) != Kind::Symbol) {
      set(vm, &v->h, &v->items[2 * i], GONE);
      return -1;
    }
    return i;
  }
  if (val.is_nil()) return -1;
  if (!v || (t->used + 1) * 4 > capacity_of(v) * 3) {
    rebuild(vm, t, key);
    if (table_put_array(vm, tv, key, val)) return -1;
    return insert_new(vm, t, key, val, hash);
  }
  insert_at(vm, t, v, uint64_t(free), key, val);
  return free;
}

uint64_t table_count(Value t) { return t.as<Table>()->count; }

int64_t table_hash_index(Value t, Value key) {
  bool by_word;
  uint64_t hash = key_hash(key, by_word);
  return find(slots_of(t), key, hash, by_word);
}

// Walks conses along the cdr without recursion; pairs of cars still to
// compare wait on an explicit stack, so neither a long list nor a deeply
// nested one uses the machine stack.
bool arc_equal(Value a, Value b) {
  std::vector<std::pair<Value, Value>> pending;
  for (;;) {
    // The same word is the same value, whatever its type: equal without
    // asking what it is (a table lookup finds its key this way).
    if (a == b) {
      if (pending.empty()) return true;
      a = pending.back().first;
      b = pending.back().second;
      pending.pop_back();
      continue;
    }
    Kind ka = TYPE(a), kb = TYPE(b);
    if (ka == Kind::Cons && kb == Kind::Cons) {
      pending.emplace_back(car(a), car(b));
      a = cdr(a);
      b = cdr(b);
      continue;
    }
    if (ka == Kind::Tagged && kb == Kind::Tagged) {
      // Racket's equal? compares the vectors Arc 3.1 uses for tagged objects.
      pending.emplace_back(a.as<Tagged>()->tag, b.as<Tagged>()->tag);
      a = a.as<Tagged>()->rep;
      b = b.as<Tagged>()->rep;
      continue;
    }
    if (!atom_equal(a, b, ka, kb)) return false;
    if (pending.empty()) return true;
    a = pending.back().first;
    b = pending.back().second;
    pending.pop_back();
  }
}

uint64_t equal_hash(Value v) {
  if (v.is_fixnum()) return fixnum_key_hash(v);
  int budget = kHashBudget;
  return hash_bounded(v, budget);
}

bool arc_is(Value a, Value b) {
  if (a == b) return true;
  // Only two heap objects can be is without being the same word (strings,
  // boxed numbers: compared_by_value); an immediate is only ever itself.
  if (!a.is_ref() || !b.is_ref() || !compared_by_value(a.header()->kind)) return false;
  Kind ka = TYPE(a);
  if (ka == Kind::String) return TYPE(b) == Kind::String && string_equal(a, b);
  return is_num_kind(ka) && is_num_kind(TYPE(b)) && num_eqv(a, b);
}

}  // namespace vm
