-- mandelbrot (AWFY, after the Computer Language Benchmarks Game): the
-- Mandelbrot set over [-1.5, 0.5] x [-1, 1] on a size x size grid, 50 steps
-- a point, its bitmap's bytes folded together by xor (the bit operations
-- from som.lua, which runs on LuaJIT as well)
local som = require'som'
local bxor, lshift = som.bxor, som.lshift

local function mandelbrot(size)
  local sum = 0
  local byte_acc = 0
  local bit_num = 0
  for y = 0, size - 1 do
    local ci = (2.0 * y / size) - 1.0
    for x = 0, size - 1 do
      local zrzr, zizi, zi = 0.0, 0.0, 0.0
      local cr = (2.0 * x / size) - 1.5
      local z = 0
      local not_done = true
      local escape = 0
      while not_done and z < 50 do
        local zr = zrzr - zizi + cr
        zi = 2.0 * zr * zi + ci
        -- kept for the next step rather than computed again
        zrzr = zr * zr
        zizi = zi * zi
        if zrzr + zizi > 4.0 then
          not_done = false
          escape = 1
        end
        z = z + 1
      end
      byte_acc = lshift(byte_acc, 1) + escape
      bit_num = bit_num + 1
      if bit_num == 8 then
        sum = bxor(sum, byte_acc)
        byte_acc = 0
        bit_num = 0
      elseif x == size - 1 then
        byte_acc = lshift(byte_acc, 8 - bit_num)
        sum = bxor(sum, byte_acc)
        byte_acc = 0
        bit_num = 0
      end
    end
  end
  return sum
end

local function verify_result(result, size)
  if size == 500 then return result == 191
  elseif size == 750 then return result == 50
  elseif size == 1 then return result == 128
  else error(('mandelbrot: no expected result for size %d'):format(size))
  end
end

if not verify_result(mandelbrot(750), 750) then
  error('mandelbrot: wrong result')
end
print('mandelbrot ok')
