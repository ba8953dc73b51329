; fibc: fib where every result is passed back through a continuation
; captured with ccc, and addition is counting in a loop: (fibc 18) = 2584.
; Fewer runs than would give Arcana 0.3 s: Guile's call/cc copies the
; stack, and takes some 35 to 70 times Arcana's time here.
(= iters 150)

(def addc (x y k)
  (if (is y 0)
      (k x)
      (addc (+ x 1) (- y 1) k)))

(def fibc (x c)
  (if (is x 0)
      (c 0)
      (is x 1)
      (c 1)
      (addc (ccc (fn (c) (fibc (- x 1) c)))
            (ccc (fn (c) (fibc (- x 2) c)))
            c)))

(def bench (n thunk)
  (let r nil (repeat n (= r (thunk))) r))
(def verify (got want)
  (prn got)
  (unless (iso got want) (err "fibc: wrong result, expected" want)))

(verify (bench iters (fn () (fibc 18 idfn))) 2584)
