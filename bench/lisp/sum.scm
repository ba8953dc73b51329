;; sum: a tail-recursive loop adding the integers from 10,000 down to 0,
;; 50005000; run ITERS times.
(define iters 5000)

(define (sum-to n)
  (let loop ((i n) (acc 0))
    (if (< i 0) acc (loop (- i 1) (+ i acc)))))

(define (bench n thunk)
  (let loop ((i n) (r #f))
    (if (= i 0) r (loop (- i 1) (thunk)))))
(define (verify got want)
  (write got) (newline)
  (unless (equal? got want)
    (display "sum: wrong result, expected " (current-error-port))
    (write want (current-error-port)) (newline (current-error-port))
    (exit 1)))

(verify (bench iters (lambda () (sum-to 10000))) 50005000)
