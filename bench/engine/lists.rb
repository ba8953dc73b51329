s = 0
100.times do
  l = nil
  100000.downto(1) { |n| l = [n, l] }
  r = nil
  while l
    r = [l[0], r]
    l = l[1]
  end
  s += r[0]
end
puts s
