; array1: fill a 10,000-element array with 0..9999, copy it backwards into
; another, and take the copy's length; the arrays are tables keyed by
; integers, so this measures table stores and loads. Run ITERS times.
(= iters 200)

(def create-x (n)
  (let r (table)
    (for i 0 (- n 1) (= (r i) i))
    r))

(def create-y (x n)
  (let r (table)
    (down i (- n 1) 0 (= (r i) (x i)))
    r))

(def my-try (n) (len (create-y (create-x n) n)))

(def bench (n thunk)
  (let r nil (repeat n (= r (thunk))) r))
(def verify (got want)
  (prn got)
  (unless (iso got want) (err "array1: wrong result, expected" want)))

(verify (bench iters (fn () (my-try 10000))) 10000)
