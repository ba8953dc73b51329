; takl: tak with numbers written as lists, n as a list of length n, and
; "less than" as a race down two lists: (mas l18 l12 l6) is a list of
; length 7; run ITERS times.
(= iters 100)

(def listn (n)
  (if (is n 0) nil (cons n (listn (- n 1)))))

(= l18 (listn 18) l12 (listn 12) l6 (listn 6))

(def shorterp (x y)
  (and y (or (no x) (shorterp (cdr x) (cdr y)))))

(def mas (x y z)
  (if (shorterp y x)
      (mas (mas (cdr x) y z) (mas (cdr y) z x) (mas (cdr z) x y))
      z))

(def bench (n thunk)
  (let r nil (repeat n (= r (thunk))) r))
(def verify (got want)
  (prn got)
  (unless (iso got want) (err "takl: wrong result, expected" want)))

(verify (len (bench iters (fn () (mas l18 l12 l6)))) 7)
