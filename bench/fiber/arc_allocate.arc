; bench/fiber/arc_allocate.arc — fiber_allocate in Arc: make a fiber and
; resume it once to a yield. Prints "fiber_allocate ITERATIONS SECONDS".
(= n (if argv (int (car argv)) 100000))
(= t0 (%nsec))
(repeat n (resume (fiber (fn (_) (yield)))))
(prn "fiber_allocate " n " " (/ (- (%nsec) t0) 1e9))
