-- towers (AWFY): the towers of Hanoi with 13 disks, each pile a linked list
-- of disk objects
local towers = {}

local function create_disk(size)
  return {size = size, next = nil}
end

function towers:push_disk(disk, pile)
  local top = self.piles[pile]
  if top and disk.size >= top.size then
    error('Cannot put a big disk on a smaller one')
  end
  disk.next = top
  self.piles[pile] = disk
end

function towers:pop_disk_from(pile)
  local top = self.piles[pile]
  if not top then
    error('Attempting to remove a disk from an empty pile')
  end
  self.piles[pile] = top.next
  top.next = nil
  return top
end

function towers:move_top_disk(from_pile, to_pile)
  self:push_disk(self:pop_disk_from(from_pile), to_pile)
  self.moves_done = self.moves_done + 1
end

function towers:build_tower_at(pile, disks)
  for i = disks, 1, -1 do
    self:push_disk(create_disk(i), pile)
  end
end

function towers:move_disks(disks, from_pile, to_pile)
  if disks == 1 then
    self:move_top_disk(from_pile, to_pile)
  else
    local other_pile = 6 - from_pile - to_pile
    self:move_disks(disks - 1, from_pile, other_pile)
    self:move_top_disk(from_pile, to_pile)
    self:move_disks(disks - 1, other_pile, to_pile)
  end
end

function towers:benchmark()
  self.piles = {}
  self:build_tower_at(1, 13)
  self.moves_done = 0
  self:move_disks(13, 1, 2)
  return self.moves_done
end

function towers:verify_result(result)
  return result == 8191
end

for _ = 1, 300 do
  if not towers:verify_result(towers:benchmark()) then
    error('towers: wrong result')
  end
end
print('towers ok')
