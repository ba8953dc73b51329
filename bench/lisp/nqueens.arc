; nqueens: count the placements of 8 queens on an 8x8 board by trying
; each remaining row in each column, with list appends; 92. Run ITERS
; times.
(= iters 250)

; x: rows still to try here, y: rows tried and put aside, z: rows placed
(def queens-try (x y z)
  (if (no x)
      (if (no y) 1 0)
      (+ (if (queens-ok (car x) 1 z)
             (queens-try (join (cdr x) y) nil (cons (car x) z))
             0)
         (queens-try (cdr x) (cons (car x) y) z))))

(def queens-ok (row dist placed)
  (or (no placed)
      (and (isnt (car placed) (+ row dist))
           (isnt (car placed) (- row dist))
           (queens-ok row (+ dist 1) (cdr placed)))))

(def nqueens (n) (queens-try (range 1 n) nil nil))

(def bench (n thunk)
  (let r nil (repeat n (= r (thunk))) r))
(def verify (got want)
  (prn got)
  (unless (iso got want) (err "nqueens: wrong result, expected" want)))

(verify (bench iters (fn () (nqueens 8))) 92)
