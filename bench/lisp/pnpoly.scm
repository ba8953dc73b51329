;; pnpoly: is a point inside a polygon? The crossing test along the edges
;; of a 20-sided polygon, floats in vectors, for 12 points of which 6 are
;; inside. Run ITERS times.
(define iters 10000)

(define xs (vector 0.0 1.0 1.0 0.0 0.0 1.0 -0.5 -1.0 -1.0 -2.0 -2.5 -2.0
                   -1.5 -0.5 1.0 1.0 0.0 -0.5 -1.0 -0.5))
(define ys (vector 0.0 0.0 1.0 1.0 2.0 3.0 2.0 3.0 0.0 -0.5 -1.0 -1.5
                   -2.0 -2.0 -1.5 -1.0 -0.5 -1.0 -1.0 -0.5))

;; flip c at each edge (i, j) that a ray from (x, y) towards +x crosses
(define (pt-in-poly2 xp yp n x y)
  (let loop ((c #f) (i (- n 1)) (j 0))
    (cond ((< i 0) c)
          ((or (and (or (> (vector-ref yp i) y) (>= y (vector-ref yp j)))
                    (or (> (vector-ref yp j) y) (>= y (vector-ref yp i))))
               (>= x (+ (vector-ref xp i)
                        (/ (* (- (vector-ref xp j) (vector-ref xp i))
                              (- y (vector-ref yp i)))
                           (- (vector-ref yp j) (vector-ref yp i))))))
           (loop c (- i 1) i))
          (else (loop (not c) (- i 1) i)))))

(define points '((0.5 0.5) (0.5 1.5) (-0.5 1.5) (0.75 2.25) (0.0 2.01)
                 (-0.5 2.5) (-1.0 -0.5) (-1.5 0.5) (-2.25 -1.0) (0.5 -0.25)
                 (0.5 -1.25) (-0.5 -2.5)))

(define (points-inside)
  (let loop ((ps points) (n 0))
    (if (null? ps)
        n
        (loop (cdr ps)
              (if (pt-in-poly2 xs ys 20 (caar ps) (cadar ps)) (+ n 1) n)))))

(define (bench n thunk)
  (let loop ((i n) (r #f))
    (if (= i 0) r (loop (- i 1) (thunk)))))
(define (verify got want)
  (write got) (newline)
  (unless (equal? got want)
    (display "pnpoly: wrong result, expected " (current-error-port))
    (write want (current-error-port)) (newline (current-error-port))
    (exit 1)))

(verify (bench iters points-inside) 6)
