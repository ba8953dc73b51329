def sieve(n)
  flags = Array.new(n + 1, true)
  count = 0
  (2..n).each do |i|
    next unless flags[i]
    count += 1
    (i * i).step(n, i) { |k| flags[k] = false }
  end
  count
end

count = nil
5.times { count = sieve(1000000) }
puts count
