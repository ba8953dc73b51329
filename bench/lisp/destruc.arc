; destruc: destructive list surgery (scar, scdr) on a list of 10 lists,
; 600 rounds of cutting each list in half and splicing the cut half onto
; the next, growing them by 50 cells when the first runs empty. Run ITERS
; times.
(= iters 100)

(def nils (n)
  (let a nil (repeat n (push nil a)) a))

; x with y put after its last cell (x itself, or y when x is empty)
(def attach-tail (x y)
  (if (no x)
      y
      (let a x
        (while (cdr a) (= a (cdr a)))
        (scdr a y)
        x)))

(def half (n) (trunc (/ n 2)))

(def destructive (n m)
  (let l (nils 10)
    (down i n 1
      (if (no (car l))
          (let xs l
            (while xs
              (unless (car xs) (scar xs (cons nil nil)))
              (attach-tail (car xs) (nils m))
              (= xs (cdr xs))))
          (with (l1 l l2 (cdr l))
            (while l2
              (scdr (let a (car l2)
                      (repeat (half (len (car l2))) (scar a i) (= a (cdr a)))
                      a)
                    (let k (half (len (car l1)))
                      (if (is k 0)
                          (do (scar l1 nil) (car l1))
                          (let a (car l1)
                            (repeat (- k 1) (scar a i) (= a (cdr a)))
                            (let cut (cdr a) (scdr a nil) cut)))))
              (= l1 (cdr l1) l2 (cdr l2))))))
    l))

(= expected '((1 1 2) (1 1 1) (1 1 1 2) (1 1 1 1) (1 1 1 1 2) (1 1 1 1 2)
              (1 1 1 1 2) (1 1 1 1 2) (1 1 1 1 2)
              (1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 2 2 2 2 2 3)))

(def bench (n thunk)
  (let r nil (repeat n (= r (thunk))) r))
(def verify (got want)
  (prn got)
  (unless (iso got want) (err "destruc: wrong result, expected" want)))

(verify (bench iters (fn () (destructive 600 50))) expected)
