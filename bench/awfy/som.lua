-- som.lua: the collections and the random numbers the AWFY programs share
-- (the suite's own "som" library): Vector, Set, IdentitySet, Dictionary,
-- IdentityDictionary, Random, and the bit operations the programs need.
-- The same shapes as som.arc. Runs on Lua 5.4 and on LuaJIT, which has no
-- bitwise operators in its syntax: they come from its bit module there.
-- A program finds this file by require'som' from the directory it runs in
-- (run.sh runs every program from bench/awfy).

local band, bxor, lshift, rshift
local has_bit, bit = pcall(require, 'bit')
if has_bit then
  band, bxor, lshift, rshift = bit.band, bit.bxor, bit.lshift, bit.rshift
else
  -- Lua 5.4: the operators, compiled at run time so LuaJIT can parse this file
  band = load'return function (a, b) return a & b end'()
  bxor = load'return function (a, b) return a ~ b end'()
  lshift = load'return function (a, b) return a << b end'()
  rshift = load'return function (a, b) return a >> b end'()
end

-- An array of fixed capacity n: its elements at 1..n, its capacity in t.n.
local function new_array(n)
  return {n = n}
end

local Vector = {}
Vector.__index = Vector

function Vector.new(size)
  local v = {first = 1, last = 1, storage = nil}
  if size and size > 0 then v.storage = new_array(size) end
  return setmetatable(v, Vector)
end

function Vector.with(elem)
  local v = Vector.new(1)
  v:append(elem)
  return v
end

function Vector:grow(n)
  local new = new_array(n)
  local old = self.storage
  for i = 1, old.n do new[i] = old[i] end
  self.storage = new
end

function Vector:at(i)
  local s = self.storage
  if s == nil or i > s.n then return nil end
  return s[i]
end

function Vector:at_put(i, val)
  local s = self.storage
  if s == nil then
    self.storage = new_array(math.max(i, 10))
  elseif i > s.n then
    local n = s.n
    while i > n do n = n * 2 end
    self:grow(n)
  end
  self.storage[i] = val
  if self.last < i + 1 then self.last = i + 1 end
end

function Vector:append(elem)
  local s = self.storage
  if s == nil then
    self.storage = new_array(10)
  elseif self.last > s.n then
    self:grow(2 * s.n)
  end
  self.storage[self.last] = elem
  self.last = self.last + 1
end

function Vector:is_empty()
  return self.last == self.first
end

function Vector:size()
  return self.last - self.first
end

function Vector:capacity()
  return self.storage and self.storage.n or 0
end

function Vector:each(fn)
  local s = self.storage
  for i = self.first, self.last - 1 do fn(s[i]) end
end

function Vector:has_some(fn)
  local s = self.storage
  for i = self.first, self.last - 1 do
    if fn(s[i]) then return true end
  end
  return false
end

function Vector:get_one(fn)
  local s = self.storage
  for i = self.first, self.last - 1 do
    local e = s[i]
    if fn(e) then return e end
  end
  return nil
end

function Vector:remove_first()
  if self:is_empty() then return nil end
  self.first = self.first + 1
  return self.storage[self.first - 1]
end

function Vector:remove(obj)
  if self.storage == nil or self:is_empty() then return false end
  local new = new_array(self:capacity())
  local last = 1
  local found = false
  self:each(function (e)
    if e == obj then
      found = true
    else
      new[last] = e
      last = last + 1
    end
  end)
  self.storage = new
  self.first = 1
  self.last = last
  return found
end

function Vector:remove_all()
  self.first = 1
  self.last = 1
  if self.storage then self.storage = new_array(self:capacity()) end
end

-- Sorts in place by before(a, b): should a come before b. The same
-- median-of-three quicksort as the suite's.
function Vector:sort(before)
  if self:size() > 0 then self:sort_range(self.first, self.last - 1, before) end
end

function Vector:sort_range(i, j, before)
  local n = j + 1 - i
  if n <= 1 then return end
  local s = self.storage
  local di, dj = s[i], s[j]
  if not before(di, dj) then
    s[i], s[j] = s[j], s[i]
    di, dj = dj, di
  end
  if n > 2 then
    local ij = math.floor((i + j) / 2)
    local dij = s[ij]
    if before(di, dij) then
      if not before(dij, dj) then
        s[j], s[ij] = s[ij], s[j]
        dij = dj
      end
    else
      s[i], s[ij] = s[ij], s[i]
      dij = di
    end
    if n > 3 then
      local k, l = i, j - 1
      while true do
        while k <= l and before(dij, s[l]) do l = l - 1 end
        k = k + 1
        while k <= l and before(s[k], dij) do k = k + 1 end
        if k > l then break end
        s[k], s[l] = s[l], s[k]
      end
      self:sort_range(i, l, before)
      self:sort_range(k, j, before)
    end
  end
end

local Set = {}
Set.__index = Set

function Set.new(size)
  return setmetatable({items = Vector.new(size or 10)}, Set)
end

function Set:size() return self.items:size() end
function Set:each(fn) self.items:each(fn) end
function Set:has_some(fn) return self.items:has_some(fn) end
function Set:get_one(fn) return self.items:get_one(fn) end
function Set:remove_all() self.items:remove_all() end

function Set:contains(obj)
  return self:has_some(function (e) return e == obj end)
end

function Set:add(obj)
  if not self:contains(obj) then self.items:append(obj) end
end

function Set:collect(fn)
  local out = Vector.new()
  self:each(function (e) out:append(fn(e)) end)
  return out
end

-- Lua's == on tables is identity already: an IdentitySet is a Set.
local IdentitySet = setmetatable({}, {__index = Set})
IdentitySet.__index = IdentitySet

function IdentitySet.new(size)
  return setmetatable(Set.new(size), IdentitySet)
end

-- A hash table of chained entries, keyed by objects with a custom_hash
-- method, its buckets an array whose size is a power of two.
local Dictionary = {}
Dictionary.__index = Dictionary

local function new_entry(hash, key, value, next)
  return {hash = hash, key = key, value = value, next = next}
end

function Dictionary.new(size)
  return setmetatable({buckets = new_array(size or 16), size = 0}, Dictionary)
end

function Dictionary:hash(key)
  if not key then return 0 end
  local h = key:custom_hash()
  return bxor(h, rshift(h, 16))
end

function Dictionary:bucket_index(hash)
  return band(self.buckets.n - 1, hash) + 1
end

function Dictionary:is_empty()
  return self.size == 0
end

function Dictionary:at(key)
  local hash = self:hash(key)
  local e = self.buckets[self:bucket_index(hash)]
  while e do
    if e.hash == hash and e.key == key then return e.value end
    e = e.next
  end
  return nil
end

function Dictionary:contains_key(key)
  local hash = self:hash(key)
  local e = self.buckets[self:bucket_index(hash)]
  while e do
    if e.hash == hash and e.key == key then return true end
    e = e.next
  end
  return false
end

function Dictionary:at_put(key, value)
  local hash = self:hash(key)
  local i = self:bucket_index(hash)
  local e = self.buckets[i]
  if not e then
    self.buckets[i] = new_entry(hash, key, value, nil)
    self.size = self.size + 1
  else
    while true do
      if e.hash == hash and e.key == key then
        e.value = value
        break
      end
      if not e.next then
        e.next = new_entry(hash, key, value, nil)
        self.size = self.size + 1
        break
      end
      e = e.next
    end
  end
  if self.size > self.buckets.n then self:resize() end
end

function Dictionary:resize()
  local old = self.buckets
  local n = old.n
  local new = new_array(2 * n)
  self.buckets = new
  for i = 1, n do
    local e = old[i]
    if e then
      old[i] = nil
      if not e.next then
        new[band(e.hash, 2 * n - 1) + 1] = e
      else
        -- split the chain by the hash bit that the doubled size adds
        local lo_head, lo_tail, hi_head, hi_tail
        while e do
          if band(e.hash, n) == 0 then
            if lo_tail then lo_tail.next = e else lo_head = e end
            lo_tail = e
          else
            if hi_tail then hi_tail.next = e else hi_head = e end
            hi_tail = e
          end
          e = e.next
        end
        if lo_tail then
          lo_tail.next = nil
          new[i] = lo_head
        end
        if hi_tail then
          hi_tail.next = nil
          new[i + n] = hi_head
        end
      end
    end
  end
end

function Dictionary:remove_all()
  self.buckets = new_array(self.buckets.n)
  self.size = 0
end

function Dictionary:keys()
  local out = Vector.new(self.size)
  local b = self.buckets
  for i = 1, b.n do
    local e = b[i]
    while e do
      out:append(e.key)
      e = e.next
    end
  end
  return out
end

function Dictionary:values()
  local out = Vector.new(self.size)
  local b = self.buckets
  for i = 1, b.n do
    local e = b[i]
    while e do
      out:append(e.value)
      e = e.next
    end
  end
  return out
end

-- Lua's == on tables is identity already: an IdentityDictionary is a
-- Dictionary.
local IdentityDictionary = setmetatable({}, {__index = Dictionary})
IdentityDictionary.__index = IdentityDictionary

function IdentityDictionary.new(size)
  return setmetatable(Dictionary.new(size), IdentityDictionary)
end

-- The suite's pseudo-random numbers: a 16-bit linear congruential generator.
local Random = {}
Random.__index = Random

function Random.new()
  return setmetatable({seed = 74755}, Random)
end

function Random:next()
  self.seed = (self.seed * 1309 + 13849) % 65536
  return self.seed
end

return {
  Vector = Vector,
  Set = Set,
  IdentitySet = IdentitySet,
  Dictionary = Dictionary,
  IdentityDictionary = IdentityDictionary,
  Random = Random,
  band = band,
  bxor = bxor,
  lshift = lshift,
  rshift = rshift,
}
