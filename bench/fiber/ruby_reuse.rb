# bench/fiber/ruby_reuse.rb — fiber_reuse: make 1,024 fibers, resume each
# once, drop them, collect; 200 times. Prints "fiber_reuse ROUNDS SECONDS".
rounds = (ARGV[0] || 200).to_i
runs = (ENV["RUNS"] || 3).to_i
best = Array.new(runs) do
  t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  rounds.times do
    fibers = Array.new(1024) { Fiber.new { Fiber.yield } }
    fibers.each(&:resume)
    fibers = nil
    GC.start
  end
  Process.clock_gettime(Process::CLOCK_MONOTONIC) - t0
end.min
puts "fiber_reuse #{rounds} #{best}"
