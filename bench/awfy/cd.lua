-- cd: collision detection (AWFY's CD): aircraft flying for 200 frames,
-- their motions drawn on a voxel map kept in a red-black tree, and the
-- pairs sharing a voxel tested for intersection with float vector
-- arithmetic. Classes are tables with metatables, as AWFY's Lua port has
-- them; keys of a tree are compared by their own compare_to method.
--
-- 100 aircraft, one of AWFY's verified counts (4,305 collisions).

local NUM_AIRCRAFT = 100
local EXPECTED_COLLISIONS = 4305

local MIN_X, MIN_Y, MAX_X, MAX_Y = 0.0, 0.0, 1000.0, 1000.0
local MIN_Z, MAX_Z = 0.0, 10.0
local PROXIMITY_RADIUS = 1.0
local GOOD_VOXEL_SIZE = PROXIMITY_RADIUS * 2.0

local sqrt, floor = math.sqrt, math.floor

-- AWFY's growable Vector, only what CD uses.
local Vector = {}
Vector.__index = Vector

function Vector.new() return setmetatable({storage = {}, cap = 50, first = 1, last = 1}, Vector) end

function Vector:at(i)
  if i > self.cap then return nil end
  return self.storage[i]
end

function Vector:append(val)
  if self.last > self.cap then self.cap = self.cap * 2 end
  self.storage[self.last] = val
  self.last = self.last + 1
end

function Vector:size() return self.last - self.first end

function Vector:each(f)
  local storage = self.storage
  for i = self.first, self.last - 1 do f(storage[i]) end
end

-- Vectors in the plane and in space

local function compare_numbers(a, b)
  if a == b then return 0
  elseif a < b then return -1
  elseif a > b then return 1
  elseif a == a then return 1 -- NaN sorts below every number
  else return -1
  end
end

local Vector2D = {}
Vector2D.__index = Vector2D

function Vector2D.new(x, y) return setmetatable({x = x, y = y}, Vector2D) end
function Vector2D:plus(o) return Vector2D.new(self.x + o.x, self.y + o.y) end
function Vector2D:minus(o) return Vector2D.new(self.x - o.x, self.y - o.y) end

function Vector2D:compare_to(o)
  local c = compare_numbers(self.x, o.x)
  if c ~= 0 then return c end
  return compare_numbers(self.y, o.y)
end

local Vector3D = {}
Vector3D.__index = Vector3D

function Vector3D.new(x, y, z) return setmetatable({x = x, y = y, z = z}, Vector3D) end
function Vector3D:plus(o) return Vector3D.new(self.x + o.x, self.y + o.y, self.z + o.z) end
function Vector3D:minus(o) return Vector3D.new(self.x - o.x, self.y - o.y, self.z - o.z) end
function Vector3D:dot(o) return self.x * o.x + self.y * o.y + self.z * o.z end
function Vector3D:squared_magnitude() return self:dot(self) end
function Vector3D:magnitude() return sqrt(self:squared_magnitude()) end
function Vector3D:times(k) return Vector3D.new(self.x * k, self.y * k, self.z * k) end

-- The red-black tree (Cormen et al.), mapping keys to values

local Node = {}
Node.__index = Node

function Node.new(key, value)
  return setmetatable({key = key, value = value, left = nil, right = nil, parent = nil,
                       color = 'red'}, Node)
end

local function tree_minimum(x)
  while x.left do x = x.left end
  return x
end

function Node:successor()
  local x = self
  if x.right then return tree_minimum(x.right) end
  local y = x.parent
  while y and x == y.right do
    x = y
    y = y.parent
  end
  return y
end

local RedBlackTree = {}
RedBlackTree.__index = RedBlackTree

function RedBlackTree.new() return setmetatable({root = nil}, RedBlackTree) end

-- Returns the key's previous value, or nil if the key is new.
function RedBlackTree:put(key, value)
  local ins = self:tree_insert(key, value)
  if not ins.is_new then return ins.old_value end
  local x = ins.node
  while x ~= self.root and x.parent.color == 'red' do
    local p, g = x.parent, x.parent.parent
    if p == g.left then
      local y = g.right
      if y and y.color == 'red' then
        p.color = 'black'
        y.color = 'black'
        g.color = 'red'
        x = g
      else
        if x == p.right then
          x = p
          self:left_rotate(x)
        end
        x.parent.color = 'black'
        x.parent.parent.color = 'red'
        self:right_rotate(x.parent.parent)
      end
    else
      local y = g.left
      if y and y.color == 'red' then
        p.color = 'black'
        y.color = 'black'
        g.color = 'red'
        x = g
      else
        if x == p.left then
          x = p
          self:right_rotate(x)
        end
        x.parent.color = 'black'
        x.parent.parent.color = 'red'
        self:left_rotate(x.parent.parent)
      end
    end
  end
  self.root.color = 'black'
  return nil
end

function RedBlackTree:remove(key)
  local z = self:find_node(key)
  if not z then return nil end
  -- y is the node unlinked from the tree, x the child that takes its place.
  local y
  if not z.left or not z.right then y = z else y = z:successor() end
  local x = y.left or y.right
  local x_parent
  if x then
    x.parent = y.parent
    x_parent = x.parent
  else
    x_parent = y.parent
  end
  if not y.parent then
    self.root = x
  elseif y == y.parent.left then
    y.parent.left = x
  else
    y.parent.right = x
  end
  if y ~= z then
    if y.color == 'black' then self:remove_fixup(x, x_parent) end
    y.parent = z.parent
    y.color = z.color
    y.left = z.left
    y.right = z.right
    if z.left then z.left.parent = y end
    if z.right then z.right.parent = y end
    if z.parent then
      if z.parent.left == z then z.parent.left = y else z.parent.right = y end
    else
      self.root = y
    end
  elseif y.color == 'black' then
    self:remove_fixup(x, x_parent)
  end
  return z.value
end

function RedBlackTree:get(key)
  local node = self:find_node(key)
  return node and node.value
end

function RedBlackTree:for_each(f)
  if not self.root then return end
  local current = tree_minimum(self.root)
  while current do
    f({key = current.key, value = current.value})
    current = current:successor()
  end
end

function RedBlackTree:find_node(key)
  local current = self.root
  while current do
    local c = key:compare_to(current.key)
    if c == 0 then return current
    elseif c < 0 then current = current.left
    else current = current.right
    end
  end
  return nil
end

function RedBlackTree:tree_insert(key, value)
  local y, x = nil, self.root
  while x do
    y = x
    local c = key:compare_to(x.key)
    if c < 0 then
      x = x.left
    elseif c > 0 then
      x = x.right
    else
      local old = x.value
      x.value = value
      return {is_new = false, node = nil, old_value = old}
    end
  end
  local z = Node.new(key, value)
  z.parent = y
  if not y then
    self.root = z
  elseif key:compare_to(y.key) < 0 then
    y.left = z
  else
    y.right = z
  end
  return {is_new = true, node = z, old_value = nil}
end

function RedBlackTree:left_rotate(x)
  local y = x.right
  x.right = y.left
  if y.left then y.left.parent = x end
  y.parent = x.parent
  if not x.parent then
    self.root = y
  elseif x == x.parent.left then
    x.parent.left = y
  else
    x.parent.right = y
  end
  y.left = x
  x.parent = y
  return y
end

function RedBlackTree:right_rotate(y)
  local x = y.left
  y.left = x.right
  if x.right then x.right.parent = y end
  x.parent = y.parent
  if not y.parent then
    self.root = x
  elseif y == y.parent.left then
    y.parent.left = x
  else
    y.parent.right = x
  end
  x.right = y
  y.parent = x
  return x
end

local function is_black(node) return not node or node.color == 'black' end

function RedBlackTree:remove_fixup(x, x_parent)
  while x ~= self.root and is_black(x) do
    if x == x_parent.left then
      local w = x_parent.right
      if w.color == 'red' then
        w.color = 'black'
        x_parent.color = 'red'
        self:left_rotate(x_parent)
        w = x_parent.right
      end
      if is_black(w.left) and is_black(w.right) then
        w.color = 'red'
        x = x_parent
        x_parent = x.parent
      else
        if is_black(w.right) then
          w.left.color = 'black'
          w.color = 'red'
          self:right_rotate(w)
          w = x_parent.right
        end
        w.color = x_parent.color
        x_parent.color = 'black'
        if w.right then w.right.color = 'black' end
        self:left_rotate(x_parent)
        x = self.root
        x_parent = x.parent
      end
    else
      local w = x_parent.left
      if w.color == 'red' then
        w.color = 'black'
        x_parent.color = 'red'
        self:right_rotate(x_parent)
        w = x_parent.left
      end
      if is_black(w.right) and is_black(w.left) then
        w.color = 'red'
        x = x_parent
        x_parent = x.parent
      else
        if is_black(w.left) then
          w.right.color = 'black'
          w.color = 'red'
          self:left_rotate(w)
          w = x_parent.left
        end
        w.color = x_parent.color
        x_parent.color = 'black'
        if w.left then w.left.color = 'black' end
        self:right_rotate(x_parent)
        x = self.root
        x_parent = x.parent
      end
    end
  end
  if x then x.color = 'black' end
end

-- Aircraft and their motions

local CallSign = {}
CallSign.__index = CallSign

function CallSign.new(value) return setmetatable({value = value}, CallSign) end

function CallSign:compare_to(o)
  if self.value == o.value then return 0 end
  return self.value < o.value and -1 or 1
end

local Motion = {}
Motion.__index = Motion

function Motion.new(callsign, pos_one, pos_two)
  return setmetatable({callsign = callsign, pos_one = pos_one, pos_two = pos_two}, Motion)
end

function Motion:delta() return self.pos_two:minus(self.pos_one) end

-- Where the two aircraft, each moving at constant speed along its segment
-- during the frame, come within the proximity radius of each other: the
-- roots v of |(I1 + v V1) - (I2 + v V2)|^2 = r^2, a quadratic in v.
function Motion:find_intersection(other)
  local init1, init2 = self.pos_one, other.pos_one
  local vec1, vec2 = self:delta(), other:delta()
  local radius = PROXIMITY_RADIUS
  local a = vec2:minus(vec1):squared_magnitude()
  if a ~= 0.0 then
    local b = 2.0 * init1:minus(init2):dot(vec1:minus(vec2))
    local c = -radius * radius + init2:minus(init1):squared_magnitude()
    local discr = b * b - 4.0 * a * c
    if discr < 0.0 then return nil end
    local v1 = (-b - sqrt(discr)) / (2.0 * a)
    local v2 = (-b + sqrt(discr)) / (2.0 * a)
    if v1 <= v2 and ((v1 <= 1.0 and 1.0 <= v2) or (v1 <= 0.0 and 0.0 <= v2)
                     or (0.0 <= v1 and v2 <= 1.0)) then
      -- Report the collision at its start, or at the frame's if earlier.
      local v = v1 <= 0.0 and 0.0 or v1
      local result1 = init1:plus(vec1:times(v))
      local result2 = init2:plus(vec2:times(v))
      local result = result1:plus(result2):times(0.5)
      if result.x >= MIN_X and result.x <= MAX_X and result.y >= MIN_Y
         and result.y <= MAX_Y and result.z >= MIN_Z and result.z <= MAX_Z then
        return result
      end
    end
    return nil
  end
  -- Parallel at the same speed: the distance never changes.
  local dist = init2:minus(init1):magnitude()
  if dist <= radius then return init1:plus(init2):times(0.5) end
  return nil
end

-- The collision detector

local HORIZONTAL = Vector2D.new(GOOD_VOXEL_SIZE, 0.0)
local VERTICAL = Vector2D.new(0.0, GOOD_VOXEL_SIZE)

local Detector = {}
Detector.__index = Detector

function Detector.new() return setmetatable({state = RedBlackTree.new()}, Detector) end

function Detector:handle_new_frame(frame)
  local motions = Vector.new()
  local seen = RedBlackTree.new()
  frame:each(function(aircraft)
    local old_position = self.state:put(aircraft.callsign, aircraft.position)
    local new_position = aircraft.position
    seen:put(aircraft.callsign, true)
    -- A new aircraft counts as standing still.
    motions:append(Motion.new(aircraft.callsign, old_position or new_position, new_position))
  end)

  local to_remove = Vector.new()
  self.state:for_each(function(e)
    if not seen:get(e.key) then to_remove:append(e.key) end
  end)
  to_remove:each(function(key) self.state:remove(key) end)

  local collisions = Vector.new()
  self:reduce_collision_set(motions):each(function(reduced)
    for i = 1, reduced:size() do
      local motion1 = reduced:at(i)
      for j = i + 1, reduced:size() do
        local motion2 = reduced:at(j)
        local collision = motion1:find_intersection(motion2)
        if collision then
          collisions:append({aircraft_a = motion1.callsign, aircraft_b = motion2.callsign,
                             position = collision})
        end
      end
    end
  end)
  return collisions
end

function Detector:is_in_voxel(voxel, motion)
  if voxel.x > MAX_X or voxel.x < MIN_X or voxel.y > MAX_Y or voxel.y < MIN_Y then
    return false
  end
  local init, fin = motion.pos_one, motion.pos_two
  local v_s = GOOD_VOXEL_SIZE
  local r = PROXIMITY_RADIUS / 2.0
  local v_x, x0, xv = voxel.x, init.x, fin.x - init.x
  local v_y, y0, yv = voxel.y, init.y, fin.y - init.y
  local low_x = (v_x - r - x0) / xv
  local high_x = (v_x + v_s + r - x0) / xv
  if xv < 0.0 then low_x, high_x = high_x, low_x end
  local low_y = (v_y - r - y0) / yv
  local high_y = (v_y + v_s + r - y0) / yv
  if yv < 0.0 then low_y, high_y = high_y, low_y end
  return ((xv == 0.0 and v_x <= x0 + r and x0 - r <= v_x + v_s)
          or (low_x <= 1.0 and 1.0 <= high_x) or (low_x <= 0.0 and 0.0 <= high_x)
          or (0.0 <= low_x and high_x <= 1.0))
     and ((yv == 0.0 and v_y <= y0 + r and y0 - r <= v_y + v_s)
          or (low_y <= 1.0 and 1.0 <= high_y) or (low_y <= 0.0 and 0.0 <= high_y)
          or (0.0 <= low_y and high_y <= 1.0))
     and (xv == 0.0 or yv == 0.0
          or (low_y <= high_x and high_x <= high_y)
          or (low_y <= low_x and low_x <= high_y)
          or (low_x <= low_y and high_y <= high_x))
end

function Detector:put_into_map(voxel_map, voxel, motion)
  local array = voxel_map:get(voxel)
  if not array then
    array = Vector.new()
    voxel_map:put(voxel, array)
  end
  array:append(motion)
end

-- Flood-fills the voxels the motion passes through, from the one it
-- starts in, to the eight neighbours of each.
function Detector:recurse(voxel_map, seen, next_voxel, motion)
  if not self:is_in_voxel(next_voxel, motion) then return end
  if seen:put(next_voxel, true) then return end
  self:put_into_map(voxel_map, next_voxel, motion)
  self:recurse(voxel_map, seen, next_voxel:minus(HORIZONTAL), motion)
  self:recurse(voxel_map, seen, next_voxel:plus(HORIZONTAL), motion)
  self:recurse(voxel_map, seen, next_voxel:minus(VERTICAL), motion)
  self:recurse(voxel_map, seen, next_voxel:plus(VERTICAL), motion)
  self:recurse(voxel_map, seen, next_voxel:minus(HORIZONTAL):minus(VERTICAL), motion)
  self:recurse(voxel_map, seen, next_voxel:minus(HORIZONTAL):plus(VERTICAL), motion)
  self:recurse(voxel_map, seen, next_voxel:plus(HORIZONTAL):minus(VERTICAL), motion)
  self:recurse(voxel_map, seen, next_voxel:plus(HORIZONTAL):plus(VERTICAL), motion)
end

function Detector:reduce_collision_set(motions)
  local voxel_map = RedBlackTree.new()
  motions:each(function(motion) self:draw_motion_on_voxel_map(voxel_map, motion) end)
  local result = Vector.new()
  voxel_map:for_each(function(e)
    if e.value:size() > 1 then result:append(e.value) end
  end)
  return result
end

function Detector:voxel_hash(position)
  local x_div = floor(position.x / GOOD_VOXEL_SIZE)
  local y_div = floor(position.y / GOOD_VOXEL_SIZE)
  local x = GOOD_VOXEL_SIZE * x_div
  local y = GOOD_VOXEL_SIZE * y_div
  if position.x < 0 then x = x - GOOD_VOXEL_SIZE end
  if position.y < 0 then y = y - GOOD_VOXEL_SIZE end
  return Vector2D.new(x, y)
end

function Detector:draw_motion_on_voxel_map(voxel_map, motion)
  local seen = RedBlackTree.new()
  self:recurse(voxel_map, seen, self:voxel_hash(motion.pos_one), motion)
end

-- The simulator: pairs of aircraft 3 apart, one on a cosine, one on a sine.

local function simulator_new(num_aircraft)
  local aircraft = Vector.new()
  for i = 1, num_aircraft do aircraft:append(CallSign.new(i)) end
  return aircraft
end

local function simulate(aircraft, time)
  local frame = Vector.new()
  for i = 1, aircraft:size() - 1, 2 do
    frame:append({callsign = aircraft:at(i),
                  position = Vector3D.new(time, math.cos(time) * 2 + (i - 1) * 3, 10.0)})
    frame:append({callsign = aircraft:at(i + 1),
                  position = Vector3D.new(time, math.sin(time) * 2 + (i - 1) * 3, 10.0)})
  end
  return frame
end

local function benchmark(num_aircraft)
  local aircraft = simulator_new(num_aircraft)
  local detector = Detector.new()
  local total = 0
  for i = 0, 199 do
    total = total + detector:handle_new_frame(simulate(aircraft, i / 10.0)):size()
  end
  return total
end

local collisions = benchmark(NUM_AIRCRAFT)
if collisions ~= EXPECTED_COLLISIONS then
  error(("cd: got %d collisions, expected %d"):format(collisions, EXPECTED_COLLISIONS))
end
print("cd ok")
