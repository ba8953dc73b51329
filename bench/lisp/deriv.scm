;; deriv: symbolic differentiation of 3x^2 + ax^2 + bx + 5, dispatching on
;; the operator with a case; builds about 60 conses a call. Run ITERS times.
(define iters 200000)

(define (deriv a)
  (if (not (pair? a))
      (if (eq? a 'x) 1 0)
      (case (car a)
        ((+) (cons '+ (map deriv (cdr a))))
        ((-) (cons '- (map deriv (cdr a))))
        ((*) (list '* a (cons '+ (map (lambda (e) (list '/ (deriv e) e)) (cdr a)))))
        ((/) (list '-
                   (list '/ (deriv (cadr a)) (caddr a))
                   (list '/ (cadr a)
                         (list '* (caddr a) (caddr a) (deriv (caddr a))))))
        (else (error "deriv: no method for" a)))))

(define expr '(+ (* 3 x x) (* a x x) (* b x) 5))
(define expected '(+ (* (* 3 x x) (+ (/ 0 3) (/ 1 x) (/ 1 x)))
                     (* (* a x x) (+ (/ 0 a) (/ 1 x) (/ 1 x)))
                     (* (* b x) (+ (/ 0 b) (/ 1 x)))
                     0))

(define (bench n thunk)
  (let loop ((i n) (r #f))
    (if (= i 0) r (loop (- i 1) (thunk)))))
(define (verify got want)
  (write got) (newline)
  (unless (equal? got want)
    (display "deriv: wrong result, expected " (current-error-port))
    (write want (current-error-port)) (newline (current-error-port))
    (exit 1)))

(verify (bench iters (lambda () (deriv expr))) expected)
