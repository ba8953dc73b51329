; fib: doubly recursive Fibonacci on fixnums, (fib 25) = 75025, 242,785
; calls; run ITERS times.
(= iters 100)

(def fib (n)
  (if (< n 2)
      n
      (+ (fib (- n 1)) (fib (- n 2)))))

(def bench (n thunk)
  (let r nil (repeat n (= r (thunk))) r))
(def verify (got want)
  (prn got)
  (unless (iso got want) (err "fib: wrong result, expected" want)))

(verify (bench iters (fn () (fib 25))) 75025)
