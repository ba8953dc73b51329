-- havlak: Havlak's loop recognition (AWFY's Havlak) over a generated
-- control-flow graph of 5,213 basic blocks; AWFY's Vector, Set and
-- IdentityDictionary written here as classes with metatables, as AWFY's
-- Lua port has them.
--
-- The inner iteration count (dummy loops found on the small graph) is 150,
-- one of AWFY's verified counts; the repeated searches over the big graph
-- are 2 rather than AWFY's 51, to fit the bench's time, which leaves the
-- verified result unchanged (their loop structures are thrown away).

local INNER_ITERATIONS = 150
local FIND_LOOP_ITERATIONS = 1

local Vector = {}
Vector.__index = Vector

function Vector.new(capacity)
  return setmetatable({storage = {}, cap = capacity or 50, first = 1, last = 1}, Vector)
end

function Vector:at(i)
  if i > self.cap then return nil end
  return self.storage[i]
end

function Vector:at_put(i, val)
  if i > self.cap then
    local cap = self.cap
    while i > cap do cap = cap * 2 end
    self.cap = cap
  end
  self.storage[i] = val
  if self.last < i + 1 then self.last = i + 1 end
end

function Vector:append(val)
  if self.last > self.cap then self.cap = self.cap * 2 end
  self.storage[self.last] = val
  self.last = self.last + 1
end

function Vector:is_empty() return self.last == self.first end
function Vector:size() return self.last - self.first end

function Vector:each(f)
  local storage = self.storage
  for i = self.first, self.last - 1 do f(storage[i]) end
end

function Vector:has_some(f)
  local storage = self.storage
  for i = self.first, self.last - 1 do
    if f(storage[i]) then return true end
  end
  return false
end

function Vector:remove_first()
  if self:is_empty() then return nil end
  self.first = self.first + 1
  return self.storage[self.first - 1]
end

function Vector:remove_all()
  self.first = 1
  self.last = 1
  self.storage = {}
end

-- Set and IdentitySet compare by identity alike here (== on tables).
local Set = {}
Set.__index = Set

function Set.new(capacity)
  return setmetatable({items = Vector.new(capacity or 10)}, Set)
end

function Set:size() return self.items:size() end
function Set:each(f) self.items:each(f) end

function Set:contains(x)
  return self.items:has_some(function(it) return it == x end)
end

function Set:add(x)
  if not self:contains(x) then self.items:append(x) end
end

-- IdentityDictionary: chained buckets keyed by a key's custom_hash, doubled
-- and split when the entries outnumber the buckets.
local Dict = {}
Dict.__index = Dict

function Dict.new(nbuckets)
  return setmetatable({buckets = {}, nbuckets = nbuckets or 16, size = 0}, Dict)
end

-- Lua 5.4 has the bitwise operators, LuaJIT the bit library; the source
-- that uses the operators is compiled only where they parse.
local mix_bits
if bit then
  local bxor, rshift = bit.bxor, bit.rshift
  mix_bits = function(h) return bxor(h, rshift(h, 16)) end
else
  mix_bits = load("return function(h) return h ~ (h >> 16) end")()
end

local function dict_hash(key)
  if not key then return 0 end
  return mix_bits(key:custom_hash())
end

function Dict:bucket_index(hash) return hash % self.nbuckets + 1 end

function Dict:at(key)
  local hash = dict_hash(key)
  local e = self.buckets[self:bucket_index(hash)]
  while e do
    if e.hash == hash and e.key == key then return e.value end
    e = e.next
  end
  return nil
end

function Dict:at_put(key, value)
  local hash = dict_hash(key)
  local i = self:bucket_index(hash)
  local e = self.buckets[i]
  if not e then
    self.buckets[i] = {hash = hash, key = key, value = value}
    self.size = self.size + 1
  else
    while true do
      if e.hash == hash and e.key == key then
        e.value = value
        break
      end
      if not e.next then
        e.next = {hash = hash, key = key, value = value}
        self.size = self.size + 1
        break
      end
      e = e.next
    end
  end
  if self.size > self.nbuckets then self:resize() end
end

function Dict:resize()
  local old, n = self.buckets, self.nbuckets
  self.buckets = {}
  self.nbuckets = n * 2
  for i = 1, n do
    local e = old[i]
    if e then
      if not e.next then
        self.buckets[e.hash % self.nbuckets + 1] = e
      else
        self:split_bucket(n, i, e)
      end
    end
  end
end

-- A chain of old bucket i goes to bucket i or i + n by the hash's next bit.
function Dict:split_bucket(n, i, e)
  local lo_head, lo_tail, hi_head, hi_tail
  while e do
    if math.floor(e.hash / n) % 2 == 0 then
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
    self.buckets[i] = lo_head
  end
  if hi_tail then
    hi_tail.next = nil
    self.buckets[i + n] = hi_head
  end
end

function Dict:remove_all()
  self.buckets = {}
  self.size = 0
end

-- The graph

local BasicBlock = {}
BasicBlock.__index = BasicBlock

function BasicBlock.new(name)
  return setmetatable({name = name, in_edges = Vector.new(2), out_edges = Vector.new(2)},
                      BasicBlock)
end

function BasicBlock:num_pred() return self.in_edges:size() end
function BasicBlock:custom_hash() return self.name end

local CFG = {}
CFG.__index = CFG

function CFG.new()
  return setmetatable({start = nil, blocks = Vector.new(), edges = Vector.new()}, CFG)
end

function CFG:create_node(name)
  local node = self.blocks:at(name)
  if not node then
    node = BasicBlock.new(name)
    self.blocks:at_put(name, node)
  end
  if self:num_nodes() == 1 then self.start = node end
  return node
end

function CFG:num_nodes() return self.blocks:size() end

function CFG:add_edge(from_name, to_name)
  local from = self:create_node(from_name)
  local to = self:create_node(to_name)
  from.out_edges:append(to)
  to.in_edges:append(from)
  self.edges:append({from = from, to = to})
end

-- The loop structure

local SimpleLoop = {}
SimpleLoop.__index = SimpleLoop

function SimpleLoop.new(bb, is_reducible)
  local loop = setmetatable({
    header = bb, is_reducible = is_reducible, parent = nil, is_root = false,
    nesting_level = 0, depth_level = 0, counter = 0,
    basic_blocks = Set.new(), children = Set.new(),
  }, SimpleLoop)
  if bb then loop.basic_blocks:add(bb) end
  return loop
end

function SimpleLoop:add_node(bb) self.basic_blocks:add(bb) end

function SimpleLoop:set_parent(parent)
  self.parent = parent
  parent.children:add(self)
end

function SimpleLoop:set_nesting_level(level)
  self.nesting_level = level
  if level == 0 then self.is_root = true end
end

local LSG = {}
LSG.__index = LSG

function LSG.new()
  local root = SimpleLoop.new(nil, true)
  local lsg = setmetatable({loop_counter = 1, loops = Vector.new(), root = root}, LSG)
  root:set_nesting_level(0)
  root.counter = 0
  lsg.loops:append(root)
  return lsg
end

function LSG:create_new_loop(bb, is_reducible)
  local loop = SimpleLoop.new(bb, is_reducible)
  loop.counter = self.loop_counter
  self.loop_counter = self.loop_counter + 1
  self.loops:append(loop)
  return loop
end

function LSG:calculate_nesting_level()
  self.loops:each(function(loop)
    if not loop.is_root and not loop.parent then loop:set_parent(self.root) end
  end)
  self:calculate_nesting_level_rec(self.root, 0)
end

function LSG:calculate_nesting_level_rec(loop, depth)
  loop.depth_level = depth
  loop.children:each(function(child)
    self:calculate_nesting_level_rec(child, depth + 1)
    loop:set_nesting_level(math.max(loop.nesting_level, 1 + child.nesting_level))
  end)
end

function LSG:num_loops() return self.loops:size() end

-- Union-find over the DFS-numbered nodes

local UnionFindNode = {}
UnionFindNode.__index = UnionFindNode

function UnionFindNode.new()
  return setmetatable({dfs_number = 0, parent = nil, bb = nil, loop = nil}, UnionFindNode)
end

function UnionFindNode:init_node(bb, dfs_number)
  self.parent = self
  self.bb = bb
  self.dfs_number = dfs_number
  self.loop = nil
end

function UnionFindNode:find_set()
  local path = Vector.new()
  local node = self
  while node ~= node.parent do
    if node.parent ~= node.parent.parent then path:append(node) end
    node = node.parent
  end
  -- Path compression: every node on the path now points at the root's child.
  path:each(function(it) it.parent = self.parent end)
  return node
end

-- The loop finder

local UNVISITED = 2147483647
local MAXNONBACKPREDS = 32 * 1024

local Finder = {}
Finder.__index = Finder

function Finder.new(cfg, lsg)
  return setmetatable({
    cfg = cfg, lsg = lsg, non_back_preds = Vector.new(), back_preds = Vector.new(),
    number = Dict.new(), max_size = 0, header = nil, type = nil, last = nil, nodes = nil,
  }, Finder)
end

function Finder:is_ancestor(w, v) return w <= v and v <= self.last[w] end

function Finder:do_dfs(current_node, current)
  self.nodes[current]:init_node(current_node, current)
  self.number:at_put(current_node, current)
  local last_id = current
  current_node.out_edges:each(function(target)
    if self.number:at(target) == UNVISITED then
      last_id = self:do_dfs(target, last_id + 1)
    end
  end)
  self.last[current] = last_id
  return last_id
end

function Finder:init_all_nodes()
  self.cfg.blocks:each(function(bb) self.number:at_put(bb, UNVISITED) end)
  self:do_dfs(self.cfg.start, 1)
end

function Finder:identify_edges(size)
  for w = 1, size do
    self.header[w] = 1
    self.type[w] = 'nonheader'
    local node_w = self.nodes[w].bb
    if not node_w then
      self.type[w] = 'dead'
    else
      self:process_edges(node_w, w)
    end
  end
end

function Finder:process_edges(node_w, w)
  local number = self.number
  if node_w:num_pred() > 0 then
    node_w.in_edges:each(function(node_v)
      local v = number:at(node_v)
      if v ~= UNVISITED then
        if self:is_ancestor(w, v) then
          self.back_preds:at(w):append(v)
        else
          self.non_back_preds:at(w):add(v)
        end
      end
    end)
  end
end

function Finder:find_loops()
  if not self.cfg.start then return end
  local size = self.cfg:num_nodes()
  self.non_back_preds:remove_all()
  self.back_preds:remove_all()
  self.number:remove_all()
  if size > self.max_size then
    self.header, self.type, self.last, self.nodes = {}, {}, {}, {}
    self.max_size = size
  end
  for i = 1, size do
    self.non_back_preds:append(Set.new())
    self.back_preds:append(Vector.new())
    self.nodes[i] = UnionFindNode.new()
  end

  self:init_all_nodes()
  self:identify_edges(size)
  self.header[0] = 0

  -- In reverse DFS preorder, so inner loop headers come before outer ones.
  for w = size, 1, -1 do
    local node_pool = Vector.new()
    local node_w = self.nodes[w].bb
    if node_w then
      self:step_d(w, node_pool)
      local work_list = Vector.new()
      node_pool:each(function(it) work_list:append(it) end)
      if node_pool:size() ~= 0 then self.type[w] = 'reducible' end
      while not work_list:is_empty() do
        local x = work_list:remove_first()
        if self.non_back_preds:at(x.dfs_number):size() > MAXNONBACKPREDS then return end
        self:step_e(w, node_pool, work_list, x)
      end
    end
    if node_pool:size() > 0 or self.type[w] == 'self' then
      local loop = self.lsg:create_new_loop(node_w, self.type[w] ~= 'irreducible')
      self:set_loop_attributes(w, node_pool, loop)
    end
  end
end

function Finder:step_d(w, node_pool)
  self.back_preds:at(w):each(function(v)
    if v ~= w then
      node_pool:append(self.nodes[v]:find_set())
    else
      self.type[w] = 'self'
    end
  end)
end

function Finder:step_e(w, node_pool, work_list, x)
  self.non_back_preds:at(x.dfs_number):each(function(it)
    local ydash = self.nodes[it]:find_set()
    if not self:is_ancestor(w, ydash.dfs_number) then
      self.type[w] = 'irreducible'
      self.non_back_preds:at(w):add(ydash.dfs_number)
    elseif ydash.dfs_number ~= w then
      work_list:append(ydash)
      node_pool:append(ydash)
    end
  end)
end

function Finder:set_loop_attributes(w, node_pool, loop)
  self.nodes[w].loop = loop
  node_pool:each(function(node)
    self.header[node.dfs_number] = w
    node.parent = self.nodes[w]
    if node.loop then
      node.loop:set_parent(loop)
    else
      loop:add_node(node.bb)
    end
  end)
end

-- The test application: builds the graph and runs the finder on it

local App = {}
App.__index = App

function App.new()
  local app = setmetatable({cfg = CFG.new(), lsg = LSG.new()}, App)
  app.cfg:create_node(1)
  return app
end

function App:connect(from, to) self.cfg:add_edge(from, to) end

function App:build_diamond(start)
  self:connect(start, start + 1)
  self:connect(start, start + 2)
  self:connect(start + 1, start + 3)
  self:connect(start + 2, start + 3)
  return start + 3
end

function App:build_straight(start, n)
  for i = 1, n do self:connect(start + i - 1, start + i) end
  return start + n
end

function App:build_base_loop(from)
  local header = self:build_straight(from, 1)
  local diamond1 = self:build_diamond(header)
  local d11 = self:build_straight(diamond1, 1)
  local diamond2 = self:build_diamond(d11)
  local footer = self:build_straight(diamond2, 1)
  self:connect(diamond2, d11)
  self:connect(diamond1, header)
  self:connect(footer, from)
  return self:build_straight(footer, 1)
end

function App:construct_simple_cfg()
  self.cfg:create_node(1)
  self:build_base_loop(1)
  self.cfg:create_node(2)
  self:connect(1, 3)
end

function App:construct_cfg(par_loops, ppar_loops, pppar_loops)
  local n = 3
  for _ = 1, par_loops do
    self.cfg:create_node(n + 1)
    self:connect(3, n + 1)
    n = n + 1
    for _ = 1, ppar_loops do
      local top = n
      n = self:build_straight(n, 1)
      for _ = 1, pppar_loops do n = self:build_base_loop(n) end
      local bottom = self:build_straight(n, 1)
      self:connect(n, top)
      n = bottom
    end
    self:connect(n, 1)
  end
end

function App:find_loops(lsg)
  Finder.new(self.cfg, lsg):find_loops()
end

function App:main(num_dummy_loops, find_loop_iterations, par_loops, ppar_loops, pppar_loops)
  self:construct_simple_cfg()
  for _ = 1, num_dummy_loops do self:find_loops(self.lsg) end
  self:construct_cfg(par_loops, ppar_loops, pppar_loops)
  self:find_loops(self.lsg)
  for _ = 0, find_loop_iterations do self:find_loops(LSG.new()) end
  self.lsg:calculate_nesting_level()
  return self.lsg:num_loops(), self.cfg:num_nodes()
end

local loops, nodes = App.new():main(INNER_ITERATIONS, FIND_LOOP_ITERATIONS, 10, 10, 5)
if loops ~= 2052 or nodes ~= 5213 then
  error(("havlak: got %d loops and %d nodes, expected 2052 and 5213"):format(loops, nodes))
end
print("havlak ok")
