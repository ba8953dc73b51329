;; fibc: fib where every result is passed back through a continuation
;; captured with call/cc, and addition is counting in a loop: (fibc 18) = 2584.
;; Fewer runs than would give Arcana 0.3 s: Guile's call/cc copies the
;; stack, and takes some 35 to 70 times Arcana's time here.
(define iters 150)

(define (addc x y k)
  (if (= y 0)
      (k x)
      (addc (+ x 1) (- y 1) k)))

(define (fibc x c)
  (cond ((= x 0) (c 0))
        ((= x 1) (c 1))
        (else
         (addc (call-with-current-continuation (lambda (c) (fibc (- x 1) c)))
               (call-with-current-continuation (lambda (c) (fibc (- x 2) c)))
               c))))

(define (bench n thunk)
  (let loop ((i n) (r #f))
    (if (= i 0) r (loop (- i 1) (thunk)))))
(define (verify got want)
  (write got) (newline)
  (unless (equal? got want)
    (display "fibc: wrong result, expected " (current-error-port))
    (write want (current-error-port)) (newline (current-error-port))
    (exit 1)))

(verify (bench iters (lambda () (fibc 18 (lambda (v) v)))) 2584)
