-- sieve (AWFY): the primes up to 5,000 by Eratosthenes' sieve, the flags
-- an array
local function sieve(flags, size)
  local count = 0
  for i = 2, size do
    if flags[i - 1] then
      count = count + 1
      local k = i + i
      while k <= size do
        flags[k - 1] = false
        k = k + i
      end
    end
  end
  return count
end

local function benchmark()
  local flags = {}
  for i = 1, 5000 do
    flags[i] = true
  end
  return sieve(flags, 5000)
end

local function verify_result(result)
  return result == 669
end

for _ = 1, 2000 do
  if not verify_result(benchmark()) then error('sieve: wrong result') end
end
print('sieve ok')
