-- storage (AWFY): a tree of arrays four wide and seven deep, its leaves
-- arrays of pseudo-random length, built to load the allocator (a Lua
-- array cannot be allocated with a length: it records the length it would
-- have, as the suite's port does)
local Random = require'som'.Random

local storage = {}

function storage:build_tree_depth(depth, random)
  self.count = self.count + 1
  if depth == 1 then
    return {n = random:next() % 10 + 1}
  else
    local arr = {n = 4}
    for i = 1, 4 do
      arr[i] = self:build_tree_depth(depth - 1, random)
    end
    return arr
  end
end

function storage:benchmark()
  self.count = 0
  self:build_tree_depth(7, Random.new())
  return self.count
end

function storage:verify_result(result)
  return result == 5461
end

for _ = 1, 250 do
  if not storage:verify_result(storage:benchmark()) then
    error('storage: wrong result')
  end
end
print('storage ok')
