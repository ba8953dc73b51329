;; takl: tak with numbers written as lists, n as a list of length n, and
;; "less than" as a race down two lists: (mas l18 l12 l6) is a list of
;; length 7; run ITERS times.
(define iters 100)

(define (listn n)
  (if (= n 0) '() (cons n (listn (- n 1)))))

(define l18 (listn 18))
(define l12 (listn 12))
(define l6 (listn 6))

(define (shorterp x y)
  (and (pair? y) (or (null? x) (shorterp (cdr x) (cdr y)))))

(define (mas x y z)
  (if (shorterp y x)
      (mas (mas (cdr x) y z) (mas (cdr y) z x) (mas (cdr z) x y))
      z))

(define (bench n thunk)
  (let loop ((i n) (r #f))
    (if (= i 0) r (loop (- i 1) (thunk)))))
(define (verify got want)
  (write got) (newline)
  (unless (equal? got want)
    (display "takl: wrong result, expected " (current-error-port))
    (write want (current-error-port)) (newline (current-error-port))
    (exit 1)))

(verify (length (bench iters (lambda () (mas l18 l12 l6)))) 7)
