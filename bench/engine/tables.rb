h = {}
200000.downto(1) { |i| h[i.to_s] = i }
n = 0
200000.downto(1) { |i| n += h[i.to_s].to_s.length }
puts n
