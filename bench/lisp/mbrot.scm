;; mbrot: the Mandelbrot set's escape counts (at most 64 steps) over a
;; 75x75 grid from -1.0-0.5i in steps of 0.005, floats throughout, stored
;; in a vector of vectors; the count at the corner is 5. Run ITERS times.
(define iters 12)

(define (escape-count r i step x y)
  (let ((cr (+ r (* (exact->inexact x) step)))
        (ci (+ i (* (exact->inexact y) step))))
    (let loop ((zr cr) (zi ci) (c 0))
      (if (= c 64)
          c
          (let ((zr2 (* zr zr)) (zi2 (* zi zi)))
            (if (> (+ zr2 zi2) 16.0)
                c
                (loop (+ (- zr2 zi2) cr)
                      (+ (* 2.0 (* zr zi)) ci)
                      (+ c 1))))))))

(define (mbrot matrix r i step n)
  (do ((y (- n 1) (- y 1))) ((< y 0))
    (do ((x (- n 1) (- x 1))) ((< x 0))
      (vector-set! (vector-ref matrix x) y (escape-count r i step x y)))))

(define (mbrot-test n)
  (let ((matrix (make-vector n)))
    (do ((i 0 (+ i 1))) ((= i n))
      (vector-set! matrix i (make-vector n 0)))
    (mbrot matrix -1.0 -0.5 0.005 n)
    (vector-ref (vector-ref matrix 0) 0)))

(define (bench n thunk)
  (let loop ((i n) (r #f))
    (if (= i 0) r (loop (- i 1) (thunk)))))
(define (verify got want)
  (write got) (newline)
  (unless (equal? got want)
    (display "mbrot: wrong result, expected " (current-error-port))
    (write want (current-error-port)) (newline (current-error-port))
    (exit 1)))

(verify (bench iters (lambda () (mbrot-test 75))) 5)
