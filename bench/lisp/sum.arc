; sum: a tail-recursive loop adding the integers from 10,000 down to 0,
; 50005000; run ITERS times.
(= iters 5000)

(def sum-to (n)
  ((afn (i acc) (if (< i 0) acc (self (- i 1) (+ i acc)))) n 0))

(def bench (n thunk)
  (let r nil (repeat n (= r (thunk))) r))
(def verify (got want)
  (prn got)
  (unless (iso got want) (err "sum: wrong result, expected" want)))

(verify (bench iters (fn () (sum-to 10000))) 50005000)
