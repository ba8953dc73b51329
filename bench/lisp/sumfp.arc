; sumfp: sum on floats: 100,000.0 down to 0.0 adds to 5000050000.0; run
; ITERS times.
(= iters 100)

(def sumfp (n)
  ((afn (i acc) (if (< i 0.0) acc (self (- i 1.0) (+ i acc)))) n 0.0))

(def bench (n thunk)
  (let r nil (repeat n (= r (thunk))) r))
(def verify (got want)
  (prn got)
  (unless (iso got want) (err "sumfp: wrong result, expected" want)))

(verify (bench iters (fn () (sumfp 1e5))) 5000050000.0)
