;; destruc: destructive list surgery (set-car!, set-cdr!) on a list of 10
;; lists, 600 rounds of cutting each list in half and splicing the cut half
;; onto the next, growing them by 50 cells when the first runs empty. Run
;; ITERS times.
(define iters 100)

(define (nils n)
  (let loop ((n n) (a '()))
    (if (= n 0) a (loop (- n 1) (cons '() a)))))

;; x with y put after its last cell (x itself, or y when x is empty)
(define (attach-tail x y)
  (if (null? x)
      y
      (let loop ((a x))
        (if (pair? (cdr a))
            (loop (cdr a))
            (begin (set-cdr! a y) x)))))

(define (half n) (quotient n 2))

(define (destructive n m)
  (let ((l (nils 10)))
    (do ((i n (- i 1)))
        ((= i 0) l)
      (if (null? (car l))
          (do ((xs l (cdr xs)))
              ((null? xs))
            (when (null? (car xs)) (set-car! xs (cons '() '())))
            (attach-tail (car xs) (nils m)))
          (do ((l1 l (cdr l1)) (l2 (cdr l) (cdr l2)))
              ((null? l2))
            (set-cdr! (do ((j (half (length (car l2))) (- j 1))
                           (a (car l2) (cdr a)))
                          ((= j 0) a)
                        (set-car! a i))
                      (let ((k (half (length (car l1)))))
                        (if (= k 0)
                            (begin (set-car! l1 '()) (car l1))
                            (do ((j (- k 1) (- j 1)) (a (car l1) (cdr a)))
                                ((= j 0) (let ((cut (cdr a))) (set-cdr! a '()) cut))
                              (set-car! a i))))))))))

(define expected '((1 1 2) (1 1 1) (1 1 1 2) (1 1 1 1) (1 1 1 1 2) (1 1 1 1 2)
                   (1 1 1 1 2) (1 1 1 1 2) (1 1 1 1 2)
                   (1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 2 2 2 2 2 3)))

(define (bench n thunk)
  (let loop ((i n) (r #f))
    (if (= i 0) r (loop (- i 1) (thunk)))))
(define (verify got want)
  (write got) (newline)
  (unless (equal? got want)
    (display "destruc: wrong result, expected " (current-error-port))
    (write want (current-error-port)) (newline (current-error-port))
    (exit 1)))

(verify (bench iters (lambda () (destructive 600 50))) expected)
