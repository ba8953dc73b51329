-- the idiomatic twin: arrays and higher-order helpers taking closures
local function map(f, t)
  local r = {}
  for i = 1, #t do r[i] = f(t[i]) end
  return r
end
local function keep(f, t)
  local r, n = {}, 0
  for i = 1, #t do
    if f(t[i]) then n = n + 1; r[n] = t[i] end
  end
  return r
end
local function reduce(f, t)
  local acc = t[1]
  for i = 2, #t do acc = f(acc, t[i]) end
  return acc
end
local xs = {}
for i = 1, 1000000 do xs[i] = i end
local total = 0
for k = 1, 5 do
  total = total + reduce(function(a, b) return a + b end,
                         map(function(x) return x * k end,
                             keep(function(x) return x % 3 == k % 3 end, xs)))
end
print(total)
