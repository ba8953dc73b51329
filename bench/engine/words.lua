local seed = 42
local parts = {}
for i = 1, 300000 do
  seed = (seed * 16807) % 2147483647
  parts[i] = "w" .. (seed % 5000) .. " "
end
local text = table.concat(parts)
local counts, distinct = {}, 0
for w in text:gmatch("%S+") do
  local c = counts[w]
  if c then counts[w] = c + 1 else counts[w] = 1; distinct = distinct + 1 end
end
print(distinct .. " " .. counts["w1"])
