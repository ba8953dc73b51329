-- list (AWFY): Takeuchi's function on linked lists, each list made of
-- element objects linked through their next field
local Element = {}
Element.__index = Element

function Element.new(v)
  return setmetatable({val = v, next = nil}, Element)
end

function Element:length()
  if not self.next then
    return 1
  else
    return 1 + self.next:length()
  end
end

local list = {}

function list:make_list(length)
  if length == 0 then
    return nil
  else
    local e = Element.new(length)
    e.next = self:make_list(length - 1)
    return e
  end
end

function list:is_shorter_than(x, y)
  local x_tail, y_tail = x, y
  while y_tail do
    if not x_tail then
      return true
    end
    x_tail = x_tail.next
    y_tail = y_tail.next
  end
  return false
end

function list:tail(x, y, z)
  if self:is_shorter_than(y, x) then
    return self:tail(self:tail(x.next, y, z),
                     self:tail(y.next, z, x),
                     self:tail(z.next, x, y))
  else
    return z
  end
end

function list:benchmark()
  local result = self:tail(self:make_list(15), self:make_list(10), self:make_list(6))
  return result:length()
end

function list:verify_result(result)
  return result == 10
end

for _ = 1, 800 do
  if not list:verify_result(list:benchmark()) then error('list: wrong result') end
end
print('list ok')
