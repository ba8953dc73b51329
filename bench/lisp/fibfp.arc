; fibfp: fib on floats, every number boxed or not as the runtime's doubles
; are: (fibfp 25.0) = 75025.0; run ITERS times.
(= iters 30)

(def fibfp (n)
  (if (< n 2.0)
      n
      (+ (fibfp (- n 1.0)) (fibfp (- n 2.0)))))

(def bench (n thunk)
  (let r nil (repeat n (= r (thunk))) r))
(def verify (got want)
  (prn got)
  (unless (iso got want) (err "fibfp: wrong result, expected" want)))

(verify (bench iters (fn () (fibfp 25.0))) 75025.0)
