local function sumdown(i, acc)
  if i == 0 then return acc end
  return sumdown(i - 1, acc + i)
end
print(sumdown(20000000, 0))
