;; array1: fill a 10,000-element array with 0..9999, copy it backwards into
;; another, and take the copy's length; the arrays are vectors. Run ITERS
;; times.
(define iters 200)

(define (create-x n)
  (let ((r (make-vector n)))
    (do ((i 0 (+ i 1))) ((= i n) r)
      (vector-set! r i i))))

(define (create-y x n)
  (let ((r (make-vector n)))
    (do ((i (- n 1) (- i 1))) ((< i 0) r)
      (vector-set! r i (vector-ref x i)))))

(define (my-try n) (vector-length (create-y (create-x n) n)))

(define (bench n thunk)
  (let loop ((i n) (r #f))
    (if (= i 0) r (loop (- i 1) (thunk)))))
(define (verify got want)
  (write got) (newline)
  (unless (equal? got want)
    (display "array1: wrong result, expected " (current-error-port))
    (write want (current-error-port)) (newline (current-error-port))
    (exit 1)))

(verify (bench iters (lambda () (my-try 10000))) 10000)
