; deriv: symbolic differentiation of 3x^2 + ax^2 + bx + 5, dispatching on
; the operator with a case; builds about 60 conses a call. Run ITERS times.
(= iters 200000)

(def deriv (a)
  (if (atom a)
      (if (is a 'x) 1 0)
      (case (car a)
        + (cons '+ (map deriv (cdr a)))
        - (cons '- (map deriv (cdr a)))
        * (list '* a (cons '+ (map (fn (e) (list '/ (deriv e) e)) (cdr a))))
        / (list '-
                (list '/ (deriv (cadr a)) (car:cddr a))
                (list '/ (cadr a)
                      (list '* (car:cddr a) (car:cddr a) (deriv (car:cddr a)))))
          (err "deriv: no method for" a))))

(= expr '(+ (* 3 x x) (* a x x) (* b x) 5))
(= expected '(+ (* (* 3 x x) (+ (/ 0 3) (/ 1 x) (/ 1 x)))
                (* (* a x x) (+ (/ 0 a) (/ 1 x) (/ 1 x)))
                (* (* b x) (+ (/ 0 b) (/ 1 x)))
                0))

(def bench (n thunk)
  (let r nil (repeat n (= r (thunk))) r))
(def verify (got want)
  (prn got)
  (unless (iso got want) (err "deriv: wrong result, expected" want)))

(verify (bench iters (fn () (deriv expr))) expected)
