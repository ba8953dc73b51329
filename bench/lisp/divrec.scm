;; divrec: diviter's halving of a 1,000-element list written recursively,
;; consing on the way back up; the length is 500. Run ITERS times.
(define iters 30000)

(define (create-n n)
  (do ((n n (- n 1)) (a '() (cons '() a)))
      ((= n 0) a)))

(define ll (create-n 1000))

(define (recursive-div2 l)
  (if (null? l) '() (cons (car l) (recursive-div2 (cddr l)))))

(define (bench n thunk)
  (let loop ((i n) (r #f))
    (if (= i 0) r (loop (- i 1) (thunk)))))
(define (verify got want)
  (write got) (newline)
  (unless (equal? got want)
    (display "divrec: wrong result, expected " (current-error-port))
    (write want (current-error-port)) (newline (current-error-port))
    (exit 1)))

(verify (length (bench iters (lambda () (recursive-div2 ll)))) 500)
