# bench/fiber/ruby_count.rb — fiber_count: make and resume 100,000 fibers and
# keep them all alive. Prints "fiber_count LIVE SECONDS" and "rss_per_fiber
# BYTES" (the growth of VmRSS over the live count). Ruby 3.1 puts a guard
# page on each fiber stack, two kernel mappings per fiber, so it stops near
# vm.max_map_count / 2 (FiberError); then LIVE is how many it reached.
def rss = File.read("/proc/self/status")[/VmRSS:\s+(\d+)/, 1].to_i * 1024

n = (ARGV[0] || 100_000).to_i
GC.start
rss0 = rss
fibers = []
t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
begin
  n.times { fibers << Fiber.new { Fiber.yield }.tap(&:resume) }
rescue FiberError => e
  warn "ruby: fiber #{fibers.size + 1} of #{n}: #{e.message}"
end
seconds = Process.clock_gettime(Process::CLOCK_MONOTONIC) - t0
puts "fiber_count #{fibers.size} #{seconds}"
puts "rss_per_fiber #{(rss - rss0) / fibers.size}"
