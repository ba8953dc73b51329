# bench/fiber/ruby_sleep.rb — five sleep(0.0001) in one thread while another
# thread is busy. Prints "sleep_0.0001 MS1 ... MS5" (elapsed ms of each).
busy = Thread.new { loop {} }
times = []
sleeper = Thread.new do
  5.times do
    t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    sleep 0.0001
    times << (Process.clock_gettime(Process::CLOCK_MONOTONIC) - t0) * 1000
  end
end
sleeper.join
busy.kill
puts "sleep_0.0001 " + times.map { |t| format("%.3f", t) }.join(" ")
