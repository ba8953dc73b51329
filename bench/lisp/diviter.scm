;; diviter: halve a list of 1,000 nils by taking every other cell, in a
;; do loop that conses onto an accumulator; the length is 500. Run ITERS
;; times.
(define iters 40000)

(define (create-n n)
  (do ((n n (- n 1)) (a '() (cons '() a)))
      ((= n 0) a)))

(define ll (create-n 1000))

(define (iterative-div2 l)
  (do ((l l (cddr l)) (a '() (cons (car l) a)))
      ((null? l) a)))

(define (bench n thunk)
  (let loop ((i n) (r #f))
    (if (= i 0) r (loop (- i 1) (thunk)))))
(define (verify got want)
  (write got) (newline)
  (unless (equal? got want)
    (display "diviter: wrong result, expected " (current-error-port))
    (write want (current-error-port)) (newline (current-error-port))
    (exit 1)))

(verify (length (bench iters (lambda () (iterative-div2 ll)))) 500)
