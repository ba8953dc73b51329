local h = {}
for i = 200000, 1, -1 do h[tostring(i)] = i end
local n = 0
for i = 200000, 1, -1 do n = n + #tostring(h[tostring(i)]) end
print(n)
