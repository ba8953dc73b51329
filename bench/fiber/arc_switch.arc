; bench/fiber/arc_switch.arc — fiber_switch in Arc: resume/yield ping-pong.
; Prints "fiber_switch ITERATIONS SECONDS".
(= n (if argv (int (car argv)) 20000000))
(= fb (fiber (fn (_) ((afn () (yield) (self))))))
(= t0 (%nsec))
(repeat n (resume fb))
(prn "fiber_switch " n " " (/ (- (%nsec) t0) 1e9))
