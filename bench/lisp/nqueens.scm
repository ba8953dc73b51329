;; nqueens: count the placements of 8 queens on an 8x8 board by trying
;; each remaining row in each column, with list appends; 92. Run ITERS
;; times.
(define iters 250)

;; x: rows still to try here, y: rows tried and put aside, z: rows placed
(define (queens-try x y z)
  (if (null? x)
      (if (null? y) 1 0)
      (+ (if (queens-ok (car x) 1 z)
             (queens-try (append (cdr x) y) '() (cons (car x) z))
             0)
         (queens-try (cdr x) (cons (car x) y) z))))

(define (queens-ok row dist placed)
  (or (null? placed)
      (and (not (= (car placed) (+ row dist)))
           (not (= (car placed) (- row dist)))
           (queens-ok row (+ dist 1) (cdr placed)))))

(define (range a b)
  (if (> a b) '() (cons a (range (+ a 1) b))))

(define (nqueens n) (queens-try (range 1 n) '() '()))

(define (bench n thunk)
  (let loop ((i n) (r #f))
    (if (= i 0) r (loop (- i 1) (thunk)))))
(define (verify got want)
  (write got) (newline)
  (unless (equal? got want)
    (display "nqueens: wrong result, expected " (current-error-port))
    (write want (current-error-port)) (newline (current-error-port))
    (exit 1)))

(verify (bench iters (lambda () (nqueens 8))) 92)
