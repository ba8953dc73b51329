;; ctak: tak where each call returns by invoking a continuation captured
;; with call/cc (4 captures a call): (ctak 18 12 6) = 7; run ITERS times.
;; Fewer runs than would give Arcana 0.3 s: Guile's call/cc copies the
;; stack, and takes some 35 to 70 times Arcana's time here.
(define iters 25)

(define (ctak-aux k x y z)
  (if (< y x)
      (call-with-current-continuation
       (lambda (k)
         (ctak-aux k
                   (call-with-current-continuation
                    (lambda (k) (ctak-aux k (- x 1) y z)))
                   (call-with-current-continuation
                    (lambda (k) (ctak-aux k (- y 1) z x)))
                   (call-with-current-continuation
                    (lambda (k) (ctak-aux k (- z 1) x y))))))
      (k z)))

(define (ctak x y z)
  (call-with-current-continuation (lambda (k) (ctak-aux k x y z))))

(define (bench n thunk)
  (let loop ((i n) (r #f))
    (if (= i 0) r (loop (- i 1) (thunk)))))
(define (verify got want)
  (write got) (newline)
  (unless (equal? got want)
    (display "ctak: wrong result, expected " (current-error-port))
    (write want (current-error-port)) (newline (current-error-port))
    (exit 1)))

(verify (bench iters (lambda () (ctak 18 12 6))) 7)
