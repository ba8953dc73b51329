-- cons cells as two-element tables, as lists.rb uses two-element arrays
local function build(n, acc)
  if n == 0 then return acc end
  return build(n - 1, {n, acc})
end
local function revl(l, acc)
  if l then return revl(l[2], {l[1], acc}) end
  return acc
end
local s = 0
for _ = 1, 100 do s = s + revl(build(100000, nil), nil)[1] end
print(s)
