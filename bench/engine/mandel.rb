def steps(cr, ci)
  zr, zi, i = 0.0, 0.0, 0
  while i < 50 && zr * zr + zi * zi <= 4.0
    zr, zi = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci
    i += 1
  end
  i
end

n, inside = 300, 0
n.times do |y|
  n.times do |x|
    inside += 1 if steps(2.0 * x / n - 1.5, 2.0 * y / n - 1.0) == 50
  end
end
puts inside
