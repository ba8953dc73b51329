; ctak: tak where each call returns by invoking a continuation captured
; with ccc (4 captures a call): (ctak 18 12 6) = 7; run ITERS times.
; Fewer runs than would give Arcana 0.3 s: Guile's call/cc copies the
; stack, and takes some 35 to 70 times Arcana's time here.
(= iters 25)

(def ctak-aux (k x y z)
  (if (< y x)
      (ccc (fn (k)
             (ctak-aux k
                       (ccc (fn (k) (ctak-aux k (- x 1) y z)))
                       (ccc (fn (k) (ctak-aux k (- y 1) z x)))
                       (ccc (fn (k) (ctak-aux k (- z 1) x y))))))
      (k z)))

(def ctak (x y z)
  (ccc (fn (k) (ctak-aux k x y z))))

(def bench (n thunk)
  (let r nil (repeat n (= r (thunk))) r))
(def verify (got want)
  (prn got)
  (unless (iso got want) (err "ctak: wrong result, expected" want)))

(verify (bench iters (fn () (ctak 18 12 6))) 7)
