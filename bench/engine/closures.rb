xs = (1..1_000_000).to_a
total = 0
(1..5).each do |k|
  total += xs.select { |x| x % 3 == k % 3 }.map { |x| x * k }.reduce { |a, b| a + b }
end
puts total
