; bench/fiber/arc_switch.arc — fiber_switch in Arc: resume/yield ping-pong.
; Prints "fiber_switch ITERATIONS SECONDS".
(= n (if argv (int (car argv)) 20000000))
(= fb (fiber (fn (_) ((afn () (yield) (self))))))
(= t0 (msec))
(repeat n (resume fb))
(prn "fiber_switch " n " " (/ (- (msec) t0) 1000.0))
