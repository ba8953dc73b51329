;; dderiv: deriv, the method for each operator found in a table keyed by
;; the operator's symbol (Gabriel's version used property lists). Run ITERS
;; times.
(define iters 300000)

(define methods (make-hash-table))

(define (dderiv a)
  (if (not (pair? a))
      (if (eq? a 'x) 1 0)
      (let ((method (hashq-ref methods (car a))))
        (if method
            (method a)
            (error "dderiv: no method for" a)))))

(hashq-set! methods '+ (lambda (a) (cons '+ (map dderiv (cdr a)))))
(hashq-set! methods '- (lambda (a) (cons '- (map dderiv (cdr a)))))
(hashq-set! methods '*
            (lambda (a)
              (list '* a (cons '+ (map (lambda (e) (list '/ (dderiv e) e))
                                       (cdr a))))))
(hashq-set! methods '/
            (lambda (a)
              (list '-
                    (list '/ (dderiv (cadr a)) (caddr a))
                    (list '/ (cadr a)
                          (list '* (caddr a) (caddr a) (dderiv (caddr a)))))))

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
    (display "dderiv: wrong result, expected " (current-error-port))
    (write want (current-error-port)) (newline (current-error-port))
    (exit 1)))

(verify (bench iters (lambda () (dderiv expr))) expected)
