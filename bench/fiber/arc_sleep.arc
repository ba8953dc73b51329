; bench/fiber/arc_sleep.arc — five (sleep 0.0001) in one thread while another
; thread is busy. Prints "sleep_0.0001 MS1 MS2 MS3 MS4 MS5": the elapsed
; milliseconds of each sleep, measured in the sleeping thread.
(= busy (thread (while t nil)))
(= times nil)
(= sleeper (thread (repeat 5 (let t0 (%nsec) (sleep 0.0001) (push (/ (- (%nsec) t0) 1e6) times)))))
(until (dead sleeper) (sleep 0.001))
(kill-thread busy)
(prn "sleep_0.0001 " (apply string (intersperse " " (map [num _ 3 t t] (rev times)))))
