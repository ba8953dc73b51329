local function steps(cr, ci)
  local zr, zi, i = 0.0, 0.0, 0
  while i < 50 and zr * zr + zi * zi <= 4.0 do
    zr, zi = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci
    i = i + 1
  end
  return i
end

local n, inside = 300, 0
for y = 0, n - 1 do
  for x = 0, n - 1 do
    if steps(2.0 * x / n - 1.5, 2.0 * y / n - 1.0) == 50 then inside = inside + 1 end
  end
end
print(inside)
