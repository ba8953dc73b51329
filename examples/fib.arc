#!/usr/bin/env arcana
; examples/fib.arc — naive Fibonacci, timed.
;
;   arcana examples/fib.arc        the first 20 numbers, then (fib 25) timed
;   arcana examples/fib.arc 30     (fib 30) timed

(def fib (n)
  (if (< n 2)
      n
      (+ (fib (- n 1)) (fib (- n 2)))))

(def timed (n)
  (let start (msec)
    (let v (fib n)
      (prn "(fib " n ") = " v " in " (- (msec) start) " ms"))))

(if argv
    (timed (int (car argv)))
    (do (prall (map fib (range 0 19)) "" " ")
        (prn)
        (timed 25)))
