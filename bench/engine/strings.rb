n = 0
10.times do
  out = +""
  1.upto(200_000) { |i| out << i.to_s << " " << "x" << "," }
  n += out.size
end
puts n
