; diviter: halve a list of 1,000 nils by taking every other cell, in a
; while loop that pushes onto an accumulator; the length is 500. Run ITERS
; times.
(= iters 40000)

(def create-n (n)
  (let a nil (repeat n (push nil a)) a))

(= ll (create-n 1000))

(def iterative-div2 (l)
  (let a nil
    (while l
      (push (car l) a)
      (= l (cddr l)))
    a))

(def bench (n thunk)
  (let r nil (repeat n (= r (thunk))) r))
(def verify (got want)
  (prn got)
  (unless (iso got want) (err "diviter: wrong result, expected" want)))

(verify (len (bench iters (fn () (iterative-div2 ll)))) 500)
