; mbrot: the Mandelbrot set's escape counts (at most 64 steps) over a
; 75x75 grid from -1.0-0.5i in steps of 0.005, floats throughout, stored
; in a table of tables; the count at the corner is 5. Run ITERS times.
(= iters 12)

(def escape-count (r i step x y)
  (with (cr (+ r (* (* 1.0 x) step))
         ci (+ i (* (* 1.0 y) step)))
    ((afn (zr zi c)
       (if (is c 64)
           c
           (with (zr2 (* zr zr) zi2 (* zi zi))
             (if (> (+ zr2 zi2) 16.0)
                 c
                 (self (+ (- zr2 zi2) cr)
                       (+ (* 2.0 (* zr zi)) ci)
                       (+ c 1))))))
     cr ci 0)))

(def mbrot (matrix r i step n)
  (down y (- n 1) 0
    (down x (- n 1) 0
      (= ((matrix x) y) (escape-count r i step x y)))))

(def mbrot-test (n)
  (let matrix (table)
    (for i 0 (- n 1) (= (matrix i) (table)))
    (mbrot matrix -1.0 -0.5 0.005 n)
    ((matrix 0) 0)))

(def bench (n thunk)
  (let r nil (repeat n (= r (thunk))) r))
(def verify (got want)
  (prn got)
  (unless (iso got want) (err "mbrot: wrong result, expected" want)))

(verify (bench iters (fn () (mbrot-test 75))) 5)
