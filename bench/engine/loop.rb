acc = 0
i = 20_000_000
while i != 0
  acc += i
  i -= 1
end
puts acc
