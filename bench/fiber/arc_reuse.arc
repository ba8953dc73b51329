; bench/fiber/arc_reuse.arc — fiber_reuse in Arc: make 1,024 fibers, resume
; each once, drop them, collect; 200 times. Prints "fiber_reuse ROUNDS SECONDS".
(= rounds (if argv (int (car argv)) 200))
(= t0 (%nsec))
(repeat rounds
  (let fibers (n-of 1024 (fiber (fn (_) (yield))))
    (each f fibers (resume f)))
  (gc))
(prn "fiber_reuse " rounds " " (/ (- (%nsec) t0) 1e9))
