;; cpstak: tak in continuation-passing style, every return a closure call:
;; (cpstak 18 12 6) = 7; run ITERS times.
(define iters 300)

(define (cpstak x y z)
  (define (tak x y z k)
    (if (< y x)
        (tak (- x 1) y z
             (lambda (v1)
               (tak (- y 1) z x
                    (lambda (v2)
                      (tak (- z 1) x y
                           (lambda (v3) (tak v1 v2 v3 k)))))))
        (k z)))
  (tak x y z (lambda (v) v)))

(define (bench n thunk)
  (let loop ((i n) (r #f))
    (if (= i 0) r (loop (- i 1) (thunk)))))
(define (verify got want)
  (write got) (newline)
  (unless (equal? got want)
    (display "cpstak: wrong result, expected " (current-error-port))
    (write want (current-error-port)) (newline (current-error-port))
    (exit 1)))

(verify (bench iters (lambda () (cpstak 18 12 6))) 7)
