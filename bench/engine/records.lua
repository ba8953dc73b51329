local bodies = {}
for i = 0, 999 do
  bodies[#bodies + 1] = {x = (i * 37) % 1000, y = (i * 91) % 1000,
                         vx = i % 7 - 3, vy = i % 5 - 2, mass = 1 + i % 4, hits = 0}
end

local function step(bodies)
  for _, b in ipairs(bodies) do
    local x = b.x + b.vx
    if x < 0 or x > 999 then
      b.vx = -b.vx
      b.hits = b.hits + 1
      x = b.x + b.vx
    end
    b.x = x
    local y = b.y + b.vy
    if y < 0 or y > 999 then
      b.vy = -b.vy
      b.hits = b.hits + 1
      y = b.y + b.vy
    end
    b.y = y
  end
end

for _ = 1, 3000 do step(bodies) end
local sum = 0
for _, b in ipairs(bodies) do sum = sum + b.mass * b.x + b.y + b.hits end
print(sum)
