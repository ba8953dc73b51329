-- queens (AWFY): the eight queens problem solved ten times; the free rows
-- and diagonals are arrays of booleans
local queens = {}

function queens:get_row_column(r, c)
  return self.free_rows[r] and self.free_maxs[c + r] and self.free_mins[c - r + 8]
end

function queens:set_row_column(r, c, v)
  self.free_rows[r] = v
  self.free_maxs[c + r] = v
  self.free_mins[c - r + 8] = v
end

function queens:place_queen(c)
  for r = 1, 8 do
    if self:get_row_column(r, c) then
      self.queen_rows[r] = c
      self:set_row_column(r, c, false)
      if c == 8 then
        return true
      end
      if self:place_queen(c + 1) then
        return true
      end
      self:set_row_column(r, c, true)
    end
  end
  return false
end

function queens:queens()
  self.free_rows = {true, true, true, true, true, true, true, true}
  self.free_maxs = {true, true, true, true, true, true, true, true,
                    true, true, true, true, true, true, true, true}
  self.free_mins = {true, true, true, true, true, true, true, true,
                    true, true, true, true, true, true, true, true}
  self.queen_rows = {-1, -1, -1, -1, -1, -1, -1, -1}
  return self:place_queen(1)
end

function queens:benchmark()
  local result = true
  for _ = 1, 10 do
    result = result and self:queens()
  end
  return result
end

function queens:verify_result(result)
  return result
end

for _ = 1, 800 do
  if not queens:verify_result(queens:benchmark()) then
    error('queens: wrong result')
  end
end
print('queens ok')
