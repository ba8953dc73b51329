# bench/fiber/ruby_allocate.rb — fiber_allocate: make a fiber and resume it
# once to a yield. Prints "fiber_allocate ITERATIONS SECONDS" (best of RUNS).
n = (ARGV[0] || 100_000).to_i
runs = (ENV["RUNS"] || 3).to_i
best = Array.new(runs) do
  t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  n.times { Fiber.new { Fiber.yield }.resume }
  Process.clock_gettime(Process::CLOCK_MONOTONIC) - t0
end.min
puts "fiber_allocate #{n} #{best}"
