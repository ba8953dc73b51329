; tak: Takeuchi's function, Gabriel's first benchmark. (tak 18 12 6) makes
; 63,609 calls, all non-tail but the last; run ITERS times, result 7.
(= iters 700)

(def tak (x y z)
  (if (< y x)
      (tak (tak (- x 1) y z) (tak (- y 1) z x) (tak (- z 1) x y))
      z))

(def bench (n thunk)
  (let r nil (repeat n (= r (thunk))) r))
(def verify (got want)
  (prn got)
  (unless (iso got want) (err "tak: wrong result, expected" want)))

(verify (bench iters (fn () (tak 18 12 6))) 7)
