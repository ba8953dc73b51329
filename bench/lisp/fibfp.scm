;; fibfp: fib on floats, every number boxed or not as the runtime's doubles
;; are: (fibfp 25.0) = 75025.0; run ITERS times.
(define iters 30)

(define (fibfp n)
  (if (< n 2.)
      n
      (+ (fibfp (- n 1.)) (fibfp (- n 2.)))))

(define (bench n thunk)
  (let loop ((i n) (r #f))
    (if (= i 0) r (loop (- i 1) (thunk)))))
(define (verify got want)
  (write got) (newline)
  (unless (equal? got want)
    (display "fibfp: wrong result, expected " (current-error-port))
    (write want (current-error-port)) (newline (current-error-port))
    (exit 1)))

(verify (bench iters (lambda () (fibfp 25.))) 75025.)
