; dderiv: deriv, the method for each operator found in a table keyed by
; the operator's symbol (Gabriel's version used property lists). Run ITERS
; times.
(= iters 300000)

(= methods* (table))

(def dderiv (a)
  (if (atom a)
      (if (is a 'x) 1 0)
      (aif (methods* (car a))
           (it a)
           (err "dderiv: no method for" a))))

(= (methods* '+) (fn (a) (cons '+ (map dderiv (cdr a))))
   (methods* '-) (fn (a) (cons '- (map dderiv (cdr a))))
   (methods* '*) (fn (a)
                   (list '* a (cons '+ (map (fn (e) (list '/ (dderiv e) e))
                                            (cdr a)))))
   (methods* '/) (fn (a)
                   (list '-
                         (list '/ (dderiv (cadr a)) (car:cddr a))
                         (list '/ (cadr a)
                               (list '* (car:cddr a) (car:cddr a)
                                     (dderiv (car:cddr a)))))))

(= expr '(+ (* 3 x x) (* a x x) (* b x) 5))
(= expected '(+ (* (* 3 x x) (+ (/ 0 3) (/ 1 x) (/ 1 x)))
                (* (* a x x) (+ (/ 0 a) (/ 1 x) (/ 1 x)))
                (* (* b x) (+ (/ 0 b) (/ 1 x)))
                0))

(def bench (n thunk)
  (let r nil (repeat n (= r (thunk))) r))
(def verify (got want)
  (prn got)
  (unless (iso got want) (err "dderiv: wrong result, expected" want)))

(verify (bench iters (fn () (dderiv expr))) expected)
