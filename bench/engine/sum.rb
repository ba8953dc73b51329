s = 0
1.upto(10_000_000) { |i| s += i }
puts s
