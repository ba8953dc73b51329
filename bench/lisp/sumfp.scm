;; sumfp: sum on floats: 100,000.0 down to 0.0 adds to 5000050000.0; run
;; ITERS times.
(define iters 100)

(define (sumfp n)
  (let loop ((i n) (acc 0.))
    (if (< i 0.) acc (loop (- i 1.) (+ i acc)))))

(define (bench n thunk)
  (let loop ((i n) (r #f))
    (if (= i 0) r (loop (- i 1) (thunk)))))
(define (verify got want)
  (write got) (newline)
  (unless (equal? got want)
    (display "sumfp: wrong result, expected " (current-error-port))
    (write want (current-error-port)) (newline (current-error-port))
    (exit 1)))

(verify (bench iters (lambda () (sumfp 1e5))) 5000050000.)
