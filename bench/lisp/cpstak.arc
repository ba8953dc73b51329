; cpstak: tak in continuation-passing style, every return a closure call:
; (cpstak 18 12 6) = 7; run ITERS times.
(= iters 300)

(def cpstak (x y z)
  (let tak nil
    (= tak (fn (x y z k)
             (if (< y x)
                 (tak (- x 1) y z
                      (fn (v1)
                        (tak (- y 1) z x
                             (fn (v2)
                               (tak (- z 1) x y
                                    (fn (v3) (tak v1 v2 v3 k)))))))
                 (k z))))
    (tak x y z idfn)))

(def bench (n thunk)
  (let r nil (repeat n (= r (thunk))) r))
(def verify (got want)
  (prn got)
  (unless (iso got want) (err "cpstak: wrong result, expected" want)))

(verify (bench iters (fn () (cpstak 18 12 6))) 7)
