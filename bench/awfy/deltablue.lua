-- deltablue: the DeltaBlue incremental constraint solver (Freeman-Benson,
-- Maloney and Borning), as the Are We Fast Yet suite has it: a chain of
-- equality constraints and a projection of scale constraints, each solved
-- for and re-planned as edit constraints come and go. Classes are
-- metatables; Vector and IdentityDictionary are the suite's som library.

local ITERATIONS = 5
local N = 2000

-- Lua 5.4 has the operators, LuaJIT (Lua 5.1) the bit library; the
-- operators are compiled at run time so that LuaJIT's parser never sees them.
local bxor, rshift
if bit then
  bxor, rshift = bit.bxor, bit.rshift
else
  bxor = load('return function(a, b) return a ~ b end')()
  rshift = load('return function(a, n) return a >> n end')()
end

-- The som library's growable array: 1-based, first and last index.
local Vector = {}
Vector.__index = Vector

function Vector.new(size)
  return setmetatable({storage = {}, capacity = size or 50,
                       first_idx = 1, last_idx = 1}, Vector)
end

function Vector.with(elem)
  local v = Vector.new(1)
  v:append(elem)
  return v
end

function Vector:at(idx)
  if idx > self.capacity then return nil end
  return self.storage[idx]
end

function Vector:append(elem)
  if self.last_idx > self.capacity then
    self.capacity = 2 * self.capacity
  end
  self.storage[self.last_idx] = elem
  self.last_idx = self.last_idx + 1
end

function Vector:is_empty()
  return self.last_idx == self.first_idx
end

function Vector:size()
  return self.last_idx - self.first_idx
end

function Vector:each(fn)
  for i = self.first_idx, self.last_idx - 1 do
    fn(self.storage[i])
  end
end

function Vector:remove_first()
  if self:is_empty() then return nil end
  self.first_idx = self.first_idx + 1
  return self.storage[self.first_idx - 1]
end

function Vector:remove(obj)
  local new_storage = {}
  local new_last = 1
  local found = false
  self:each(function(it)
    if it == obj then
      found = true
    else
      new_storage[new_last] = it
      new_last = new_last + 1
    end
  end)
  self.storage = new_storage
  self.last_idx = new_last
  self.first_idx = 1
  return found
end

-- Sorts storage[i..j] by precedes, as the som library does: order the
-- ends and the middle, then partition round the middle and recurse.
function Vector:sort_range(i, j, precedes)
  local n = j + 1 - i
  if n <= 1 then return end
  local storage = self.storage
  local di, dj = storage[i], storage[j]
  if not precedes(di, dj) then
    storage[i], storage[j] = storage[j], storage[i]
    di, dj = dj, di
  end
  if n > 2 then
    local ij = math.floor((i + j) / 2)
    local dij = storage[ij]
    if precedes(di, dij) then
      if not precedes(dij, dj) then
        storage[j], storage[ij] = storage[ij], storage[j]
        dij = dj
      end
    else
      storage[i], storage[ij] = storage[ij], storage[i]
      dij = di
    end
    if n > 3 then
      local k, l = i, j - 1
      while true do
        while k <= l and precedes(dij, storage[l]) do l = l - 1 end
        k = k + 1
        while k <= l and precedes(storage[k], dij) do k = k + 1 end
        if k > l then break end
        storage[k], storage[l] = storage[l], storage[k]
      end
      self:sort_range(i, l, precedes)
      self:sort_range(k, j, precedes)
    end
  end
end

function Vector:sort(precedes)
  if self:size() > 0 then
    self:sort_range(self.first_idx, self.last_idx - 1, precedes)
  end
end

-- The som library's hash table of chained entries, keyed by identity with
-- the key's own hash. It never grows here: it holds eight strengths.
local IdentityDictionary = {}
IdentityDictionary.__index = IdentityDictionary

function IdentityDictionary.new(size)
  return setmetatable({buckets = {}, capacity = size or 16, size = 0},
                      IdentityDictionary)
end

local function hash(key)
  local h = key.hash
  return bxor(h, rshift(h, 16))
end

function IdentityDictionary:bucket_idx(h)
  return h % self.capacity + 1
end

function IdentityDictionary:at(key)
  local h = hash(key)
  local e = self.buckets[self:bucket_idx(h)]
  while e do
    if e.hash == h and e.key == key then return e.value end
    e = e.next
  end
  return nil
end

function IdentityDictionary:at_put(key, value)
  local h = hash(key)
  local i = self:bucket_idx(h)
  local current = self.buckets[i]
  if not current then
    self.buckets[i] = {hash = h, key = key, value = value, next = nil}
    self.size = self.size + 1
    return
  end
  while true do
    if current.hash == h and current.key == key then
      current.value = value
      return
    end
    if not current.next then
      self.size = self.size + 1
      current.next = {hash = h, key = key, value = value, next = nil}
      return
    end
    current = current.next
  end
end

function IdentityDictionary:keys()
  local keys = Vector.new(self.size)
  for i = 1, self.capacity do
    local current = self.buckets[i]
    while current do
      keys:append(current.key)
      current = current.next
    end
  end
  return keys
end

-- Strengths: symbols with a hash, mapped to their arithmetic values.
local function sym(h) return {hash = h} end
local ABSOLUTE_STRONGEST, REQUIRED, STRONG_PREFERRED, PREFERRED =
  sym(0), sym(1), sym(2), sym(3)
local STRONG_DEFAULT, DEFAULT, WEAK_DEFAULT, ABSOLUTE_WEAKEST =
  sym(4), sym(5), sym(6), sym(7)

local STRENGTH_TABLE = IdentityDictionary.new()
STRENGTH_TABLE:at_put(ABSOLUTE_STRONGEST, -10000)
STRENGTH_TABLE:at_put(REQUIRED, -800)
STRENGTH_TABLE:at_put(STRONG_PREFERRED, -600)
STRENGTH_TABLE:at_put(PREFERRED, -400)
STRENGTH_TABLE:at_put(STRONG_DEFAULT, -200)
STRENGTH_TABLE:at_put(DEFAULT, 0)
STRENGTH_TABLE:at_put(WEAK_DEFAULT, 500)
STRENGTH_TABLE:at_put(ABSOLUTE_WEAKEST, 10000)

local Strength = {}
Strength.__index = Strength

local STRENGTH_CONSTANTS = IdentityDictionary.new()
STRENGTH_TABLE:keys():each(function(key)
  STRENGTH_CONSTANTS:at_put(key, setmetatable(
    {symbolic_value = key, arithmetic_value = STRENGTH_TABLE:at(key)}, Strength))
end)

function Strength.of(s) return STRENGTH_CONSTANTS:at(s) end

local STRENGTH_REQUIRED = Strength.of(REQUIRED)
local STRENGTH_WEAKEST = Strength.of(ABSOLUTE_WEAKEST)

function Strength:same_as(s) return self.arithmetic_value == s.arithmetic_value end
function Strength:stronger(s) return self.arithmetic_value < s.arithmetic_value end
function Strength:weaker(s) return self.arithmetic_value > s.arithmetic_value end

function Strength:strongest(s)
  if s:stronger(self) then return s end
  return self
end

function Strength:weakest(s)
  if s:weaker(self) then return s end
  return self
end

-- Constraints: AbstractConstraint, its Unary (Edit, Stay) and Binary
-- (Equality, Scale) subclasses.
local AbstractConstraint = {}
AbstractConstraint.__index = AbstractConstraint

function AbstractConstraint:is_input() return false end

function AbstractConstraint:add_constraint(planner)
  self:add_to_graph()
  planner:incremental_add(self)
end

function AbstractConstraint:destroy_constraint(planner)
  if self:is_satisfied() then planner:incremental_remove(self) end
  self:remove_from_graph()
end

function AbstractConstraint:inputs_known(mark)
  return not self:inputs_has_one(function(v)
    return not (v.mark == mark or v.stay or v.determined_by == nil)
  end)
end

function AbstractConstraint:satisfy(mark, planner)
  self:choose_method(mark)
  if not self:is_satisfied() then
    if self.strength:same_as(STRENGTH_REQUIRED) then
      error('Failed to satisfy a required constraint')
    end
    return nil
  end
  -- mark inputs to allow cycle detection in add_propagate
  self:inputs_do(function(i) i.mark = mark end)
  local out = self:output()
  local overridden = out.determined_by
  if overridden then overridden:mark_unsatisfied() end
  out.determined_by = self
  if not planner:add_propagate(self, mark) then
    error('Cycle encountered adding: Constraint removed')
  end
  out.mark = mark
  return overridden
end

local function subclass(super)
  local c = setmetatable({}, super)
  c.__index = c
  return c
end

local BinaryConstraint = subclass(AbstractConstraint)

function BinaryConstraint:build(v1, v2, strength)
  self.strength = Strength.of(strength)
  self.v1, self.v2 = v1, v2
  self.direction = nil
end

function BinaryConstraint:is_satisfied() return self.direction ~= nil end

function BinaryConstraint:add_to_graph()
  self.v1:add_constraint(self)
  self.v2:add_constraint(self)
  self.direction = nil
end

function BinaryConstraint:remove_from_graph()
  if self.v1 then self.v1:remove_constraint(self) end
  if self.v2 then self.v2:remove_constraint(self) end
  self.direction = nil
end

function BinaryConstraint:choose_method(mark)
  local v1, v2 = self.v1, self.v2
  if v1.mark == mark then
    if v2.mark ~= mark and self.strength:stronger(v2.walk_strength) then
      self.direction = 'forward'
    else
      self.direction = nil
    end
  elseif v2.mark == mark then
    if v1.mark ~= mark and self.strength:stronger(v1.walk_strength) then
      self.direction = 'backward'
    else
      self.direction = nil
    end
  -- neither variable is marked, so there is a choice
  elseif v1.walk_strength:weaker(v2.walk_strength) then
    if self.strength:stronger(v1.walk_strength) then
      self.direction = 'backward'
    else
      self.direction = nil
    end
  elseif self.strength:stronger(v2.walk_strength) then
    self.direction = 'forward'
  else
    self.direction = nil
  end
  return self.direction
end

function BinaryConstraint:inputs_do(fn)
  if self.direction == 'forward' then fn(self.v1) else fn(self.v2) end
end

function BinaryConstraint:inputs_has_one(fn)
  if self.direction == 'forward' then return fn(self.v1) end
  return fn(self.v2)
end

function BinaryConstraint:mark_unsatisfied() self.direction = nil end

function BinaryConstraint:output()
  if self.direction == 'forward' then return self.v2 end
  return self.v1
end

function BinaryConstraint:recalculate()
  local ihn, out
  if self.direction == 'forward' then
    ihn, out = self.v1, self.v2
  else
    ihn, out = self.v2, self.v1
  end
  out.walk_strength = self.strength:weakest(ihn.walk_strength)
  out.stay = ihn.stay
  if out.stay then self:execute() end
end

local UnaryConstraint = subclass(AbstractConstraint)

function UnaryConstraint:build(v, strength, planner)
  self.strength = Strength.of(strength)
  self.output_ = v
  self.satisfied = false
  self:add_constraint(planner)
end

function UnaryConstraint:is_satisfied() return self.satisfied end

function UnaryConstraint:add_to_graph()
  self.output_:add_constraint(self)
  self.satisfied = false
end

function UnaryConstraint:remove_from_graph()
  if self.output_ then self.output_:remove_constraint(self) end
  self.satisfied = false
end

function UnaryConstraint:choose_method(mark)
  self.satisfied = self.output_.mark ~= mark and
                   self.strength:stronger(self.output_.walk_strength)
  return nil
end

function UnaryConstraint:inputs_do() end -- no input variable
function UnaryConstraint:inputs_has_one() return false end
function UnaryConstraint:mark_unsatisfied() self.satisfied = false end
function UnaryConstraint:output() return self.output_ end

function UnaryConstraint:recalculate()
  self.output_.walk_strength = self.strength
  self.output_.stay = not self:is_input()
  if self.output_.stay then self:execute() end -- stay optimization
end

local EditConstraint = subclass(UnaryConstraint)

function EditConstraint.new(v, strength, planner)
  local c = setmetatable({}, EditConstraint)
  c:build(v, strength, planner)
  return c
end

function EditConstraint:is_input() return true end
function EditConstraint:execute() end -- edits do nothing

local StayConstraint = subclass(UnaryConstraint)

function StayConstraint.new(v, strength, planner)
  local c = setmetatable({}, StayConstraint)
  c:build(v, strength, planner)
  return c
end

function StayConstraint:execute() end -- stays do nothing

local EqualityConstraint = subclass(BinaryConstraint)

function EqualityConstraint.new(v1, v2, strength, planner)
  local c = setmetatable({}, EqualityConstraint)
  c:build(v1, v2, strength)
  c:add_constraint(planner)
  return c
end

function EqualityConstraint:execute()
  if self.direction == 'forward' then
    self.v2.value = self.v1.value
  else
    self.v1.value = self.v2.value
  end
end

local ScaleConstraint = subclass(BinaryConstraint)

function ScaleConstraint.new(src, scale, offset, dest, strength, planner)
  local c = setmetatable({scale = scale, offset = offset}, ScaleConstraint)
  c:build(src, dest, strength)
  c:add_constraint(planner)
  return c
end

function ScaleConstraint:add_to_graph()
  self.v1:add_constraint(self)
  self.v2:add_constraint(self)
  self.scale:add_constraint(self)
  self.offset:add_constraint(self)
  self.direction = nil
end

function ScaleConstraint:remove_from_graph()
  if self.v1 then self.v1:remove_constraint(self) end
  if self.v2 then self.v2:remove_constraint(self) end
  if self.scale then self.scale:remove_constraint(self) end
  if self.offset then self.offset:remove_constraint(self) end
  self.direction = nil
end

function ScaleConstraint:execute()
  if self.direction == 'forward' then
    self.v2.value = self.v1.value * self.scale.value + self.offset.value
  else
    self.v1.value = (self.v2.value - self.offset.value) / self.scale.value
  end
end

function ScaleConstraint:inputs_do(fn)
  if self.direction == 'forward' then fn(self.v1) else fn(self.v2) end
  fn(self.scale)
  fn(self.offset)
end

function ScaleConstraint:recalculate()
  local ihn, out
  if self.direction == 'forward' then
    ihn, out = self.v1, self.v2
  else
    ihn, out = self.v2, self.v1
  end
  out.walk_strength = self.strength:weakest(ihn.walk_strength)
  out.stay = ihn.stay and self.scale.stay and self.offset.stay
  if out.stay then self:execute() end -- stay optimization
end

local Variable = {}
Variable.__index = Variable

function Variable.new(initial_value)
  return setmetatable({value = initial_value or 0, constraints = Vector.new(2),
                       determined_by = nil, walk_strength = STRENGTH_WEAKEST,
                       stay = true, mark = 0}, Variable)
end

function Variable:add_constraint(c)
  self.constraints:append(c)
end

function Variable:remove_constraint(c)
  self.constraints:remove(c)
  if self.determined_by == c then self.determined_by = nil end
end

local function execute_plan(plan)
  plan:each(function(c) c:execute() end)
end

local Planner = {}
Planner.__index = Planner

function Planner.new()
  return setmetatable({current_mark = 1}, Planner)
end

function Planner:new_mark()
  local mark = self.current_mark
  self.current_mark = mark + 1
  return mark
end

function Planner:incremental_add(c)
  local mark = self:new_mark()
  local overridden = c:satisfy(mark, self)
  while overridden do
    overridden = overridden:satisfy(mark, self)
  end
end

function Planner:incremental_remove(c)
  local out = c:output()
  c:mark_unsatisfied()
  c:remove_from_graph()
  self:remove_propagate_from(out):each(function(u)
    self:incremental_add(u)
  end)
end

function Planner:add_constraints_consuming_to(v, coll)
  local determining = v.determined_by
  v.constraints:each(function(c)
    if c ~= determining and c:is_satisfied() then coll:append(c) end
  end)
end

function Planner:constraints_consuming(v, fn)
  local determining = v.determined_by
  v.constraints:each(function(c)
    if c ~= determining and c:is_satisfied() then fn(c) end
  end)
end

function Planner:make_plan(sources)
  local mark = self:new_mark()
  local plan = Vector.new(15)
  local todo = sources
  while not todo:is_empty() do
    local c = todo:remove_first()
    local output = c:output()
    if output.mark ~= mark and c:inputs_known(mark) then
      -- not in the plan already and eligible for it
      plan:append(c)
      output.mark = mark
      self:add_constraints_consuming_to(output, todo)
    end
  end
  return plan
end

function Planner:extract_plan_from_constraints(constraints)
  local sources = Vector.new()
  constraints:each(function(c)
    if c:is_input() and c:is_satisfied() then sources:append(c) end
  end)
  return self:make_plan(sources)
end

function Planner:add_propagate(c, mark)
  local todo = Vector.with(c)
  while not todo:is_empty() do
    local d = todo:remove_first()
    local output = d:output()
    if output.mark == mark then
      self:incremental_remove(c)
      return false
    end
    d:recalculate()
    self:add_constraints_consuming_to(output, todo)
  end
  return true
end

function Planner:remove_propagate_from(out)
  local unsatisfied = Vector.new()
  out.determined_by = nil
  out.walk_strength = STRENGTH_WEAKEST
  out.stay = true
  local todo = Vector.with(out)
  while not todo:is_empty() do
    local v = todo:remove_first()
    v.constraints:each(function(c)
      if not c:is_satisfied() then unsatisfied:append(c) end
    end)
    self:constraints_consuming(v, function(c)
      c:recalculate()
      todo:append(c:output())
    end)
  end
  unsatisfied:sort(function(c1, c2) return c1.strength:stronger(c2.strength) end)
  return unsatisfied
end

function Planner:change_var(var, val)
  local edit = EditConstraint.new(var, PREFERRED, self)
  local plan = self:extract_plan_from_constraints(Vector.with(edit))
  for _ = 1, 10 do
    var.value = val
    execute_plan(plan)
  end
  edit:destroy_constraint(self)
end

-- A chain of equality constraints with a stay at one end; an edit at the
-- other end must propagate down the whole chain.
local function chain_test(n)
  local planner = Planner.new()
  local vars = {}
  for i = 1, n + 1 do vars[i] = Variable.new() end
  for i = 1, n do
    EqualityConstraint.new(vars[i], vars[i + 1], REQUIRED, planner)
  end
  StayConstraint.new(vars[n + 1], STRONG_DEFAULT, planner)
  local edit = EditConstraint.new(vars[1], PREFERRED, planner)
  local plan = planner:extract_plan_from_constraints(Vector.with(edit))
  for v = 1, 100 do
    vars[1].value = v
    execute_plan(plan)
    if vars[n + 1].value ~= v then error('Chain test failed') end
  end
  edit:destroy_constraint(planner)
end

-- Two sets of variables related by a scale and an offset; changes on
-- either side and to the scale and offset propagate to the other.
local function projection_test(n)
  local planner = Planner.new()
  local dests = Vector.new()
  local scale = Variable.new(10)
  local offset = Variable.new(1000)
  local src, dst
  for i = 1, n do
    src = Variable.new(i)
    dst = Variable.new(i)
    dests:append(dst)
    StayConstraint.new(src, DEFAULT, planner)
    ScaleConstraint.new(src, scale, offset, dst, REQUIRED, planner)
  end
  planner:change_var(src, 17)
  if dst.value ~= 1170 then error('Projection 1 failed') end
  planner:change_var(dst, 1050)
  if src.value ~= 5 then error('Projection 2 failed') end
  planner:change_var(scale, 5)
  for i = 1, n - 1 do
    if dests:at(i).value ~= i * 5 + 1000 then error('Projection 3 failed') end
  end
  planner:change_var(offset, 2000)
  for i = 1, n - 1 do
    if dests:at(i).value ~= i * 5 + 2000 then error('Projection 4 failed') end
  end
end

for _ = 1, ITERATIONS do
  chain_test(N)
  projection_test(N)
end
print('deltablue ok')
