;; tak: Takeuchi's function, Gabriel's first benchmark. (tak 18 12 6) makes
;; 63,609 calls, all non-tail but the last; run ITERS times, result 7.
(define iters 700)

(define (tak x y z)
  (if (< y x)
      (tak (tak (- x 1) y z) (tak (- y 1) z x) (tak (- z 1) x y))
      z))

(define (bench n thunk)
  (let loop ((i n) (r #f))
    (if (= i 0) r (loop (- i 1) (thunk)))))
(define (verify got want)
  (write got) (newline)
  (unless (equal? got want)
    (display "tak: wrong result, expected " (current-error-port))
    (write want (current-error-port)) (newline (current-error-port))
    (exit 1)))

(verify (bench iters (lambda () (tak 18 12 6))) 7)
