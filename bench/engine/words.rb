seed = 42
text = +""
300_000.times do
  seed = (seed * 16807) % 2147483647
  text << "w" << (seed % 5000).to_s << " "
end
counts = Hash.new(0)
text.split.each { |w| counts[w] += 1 }
puts "#{counts.size} #{counts["w1"]}"
