-- Lua builds a string from pieces with table.concat
local n = 0
for _ = 1, 10 do
  local parts, k = {}, 0
  for i = 1, 200000 do
    parts[k + 1] = i; parts[k + 2] = " "; parts[k + 3] = "x"; parts[k + 4] = ","; k = k + 4
  end
  n = n + #table.concat(parts)
end
print(n)
