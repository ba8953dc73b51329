; pnpoly: is a point inside a polygon? The crossing test along the edges of
; a 20-sided polygon, floats in tables keyed by integers, for 12 points of
; which 6 are inside. Run ITERS times.
(= iters 10000)

(def int-table (xs)
  (let tb (table)
    (on x xs (= (tb index) x))
    tb))

(= xs* (int-table '(0.0 1.0 1.0 0.0 0.0 1.0 -0.5 -1.0 -1.0 -2.0 -2.5 -2.0
                    -1.5 -0.5 1.0 1.0 0.0 -0.5 -1.0 -0.5))
   ys* (int-table '(0.0 0.0 1.0 1.0 2.0 3.0 2.0 3.0 0.0 -0.5 -1.0 -1.5
                    -2.0 -2.0 -1.5 -1.0 -0.5 -1.0 -1.0 -0.5)))

; flip c at each edge (i, j) that a ray from (x, y) towards +x crosses
(def pt-in-poly2 (xp yp n x y)
  ((afn (c i j)
     (if (< i 0)
         c
         (or (and (or (> (yp i) y) (>= y (yp j)))
                  (or (> (yp j) y) (>= y (yp i))))
             (>= x (+ (xp i) (/ (* (- (xp j) (xp i)) (- y (yp i)))
                                (- (yp j) (yp i))))))
         (self c (- i 1) i)
         (self (no c) (- i 1) i)))
   nil (- n 1) 0))

(= points* '((0.5 0.5) (0.5 1.5) (-0.5 1.5) (0.75 2.25) (0.0 2.01)
             (-0.5 2.5) (-1.0 -0.5) (-1.5 0.5) (-2.25 -1.0) (0.5 -0.25)
             (0.5 -1.25) (-0.5 -2.5)))

(def points-inside ()
  (count [pt-in-poly2 xs* ys* 20 (car _) (cadr _)] points*))

(def bench (n thunk)
  (let r nil (repeat n (= r (thunk))) r))
(def verify (got want)
  (prn got)
  (unless (iso got want) (err "pnpoly: wrong result, expected" want)))

(verify (bench iters points-inside) 6)
