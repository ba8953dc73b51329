;; primes: the primes up to 1,000 by a sieve on lists, each prime filtering
;; the rest with remainder; 168 of them, the last 997, adding to 76127. Run
;; ITERS times.
(define iters 1500)

(define (interval-list m n)
  (if (> m n) '() (cons m (interval-list (+ m 1) n))))

(define (remove-multiples n l)
  (cond ((null? l) '())
        ((= (remainder (car l) n) 0) (remove-multiples n (cdr l)))
        (else (cons (car l) (remove-multiples n (cdr l))))))

(define (sieve l)
  (if (null? l) '() (cons (car l) (sieve (remove-multiples (car l) (cdr l))))))

(define (primes-upto n) (sieve (interval-list 2 n)))

(define (summary ps) (list (length ps) (car (last-pair ps)) (apply + ps)))

(define (bench n thunk)
  (let loop ((i n) (r #f))
    (if (= i 0) r (loop (- i 1) (thunk)))))
(define (verify got want)
  (write got) (newline)
  (unless (equal? got want)
    (display "primes: wrong result, expected " (current-error-port))
    (write want (current-error-port)) (newline (current-error-port))
    (exit 1)))

(verify (summary (bench iters (lambda () (primes-upto 1000)))) '(168 997 76127))
