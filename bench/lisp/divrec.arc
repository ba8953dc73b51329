; divrec: diviter's halving of a 1,000-element list written recursively,
; consing on the way back up; the length is 500. Run ITERS times.
(= iters 30000)

(def create-n (n)
  (let a nil (repeat n (push nil a)) a))

(= ll (create-n 1000))

(def recursive-div2 (l)
  (if l (cons (car l) (recursive-div2 (cddr l)))))

(def bench (n thunk)
  (let r nil (repeat n (= r (thunk))) r))
(def verify (got want)
  (prn got)
  (unless (iso got want) (err "divrec: wrong result, expected" want)))

(verify (len (bench iters (fn () (recursive-div2 ll)))) 500)
