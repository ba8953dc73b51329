#!/usr/bin/env arcana
; examples/fib.arc — naive Fibonacci, timed.
;
;   arcana examples/fib.arc        the first 20 numbers, then (fib 25) timed
;   arcana examples/fib.arc 30     (fib 30) timed
;
; Arc's own library (def, let, each, ...) is not loaded yet, so this file
; builds what it needs from the primitives: assign, fn, if and one macro.

; (def name args body...): a named function, as arc.arc will define it.
(assign def (annotate 'mac (fn (name args . body) `(assign ,name (fn ,args ,@body)))))

(def fib (n)
  (if (< n 2)
      n
      (+ (fib (- n 1)) (fib (- n 2)))))

; Prints (fib i) for i from 0 below n, separated by spaces.
(def show-fibs (i n)
  (if (< i n)
      ((fn ()
         (disp (fib i))
         (disp " ")
         (show-fibs (+ i 1) n)))
      (disp "\n")))

(def timed (n)
  ((fn (start)
     ((fn (v)
        (disp (+ "(fib " n ") = " v " in " (- (msec) start) " ms\n")))
      (fib n)))
   (msec)))

(if argv
    (timed (coerce (car argv) 'int))
    ((fn ()
       (show-fibs 0 20)
       (timed 25))))
