local function sieve(n)
  local flags = {}
  for i = 2, n do flags[i] = true end
  local count = 0
  for i = 2, n do
    if flags[i] then
      count = count + 1
      for k = i * i, n, i do flags[k] = false end
    end
  end
  return count
end

local count
for _ = 1, 5 do count = sieve(1000000) end
print(count)
