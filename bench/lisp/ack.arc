; ack: Ackermann's function, deep non-tail recursion (a stack about 2^(n+3)
; calls deep): (ack 3 9) = 4093; run ITERS times.
(= iters 4)

(def ack (m n)
  (if (is m 0) (+ n 1)
      (is n 0) (ack (- m 1) 1)
      (ack (- m 1) (ack m (- n 1)))))

(def bench (n thunk)
  (let r nil (repeat n (= r (thunk))) r))
(def verify (got want)
  (prn got)
  (unless (iso got want) (err "ack: wrong result, expected" want)))

(verify (bench iters (fn () (ack 3 9))) 4093)
