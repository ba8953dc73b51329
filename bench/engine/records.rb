Body = Struct.new(:x, :y, :vx, :vy, :mass, :hits)

def step(bodies)
  bodies.each do |b|
    x = b.x + b.vx
    if x < 0 || x > 999
      b.vx = -b.vx
      b.hits += 1
      x = b.x + b.vx
    end
    b.x = x
    y = b.y + b.vy
    if y < 0 || y > 999
      b.vy = -b.vy
      b.hits += 1
      y = b.y + b.vy
    end
    b.y = y
  end
end

bodies = (0...1000).map do |i|
  Body.new((i * 37) % 1000, (i * 91) % 1000, i % 7 - 3, i % 5 - 2, 1 + i % 4, 0)
end
3000.times { step(bodies) }
puts bodies.sum { |b| b.mass * b.x + b.y + b.hits }
