# bench/fiber/ruby_switch.rb — fiber_switch: resume/yield ping-pong.
# Prints "fiber_switch ITERATIONS SECONDS" (the best of RUNS runs).
n = (ARGV[0] || 20_000_000).to_i
runs = (ENV["RUNS"] || 3).to_i
fiber = Fiber.new { loop { Fiber.yield } }
best = Array.new(runs) do
  t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  n.times { fiber.resume }
  Process.clock_gettime(Process::CLOCK_MONOTONIC) - t0
end.min
puts "fiber_switch #{n} #{best}"
