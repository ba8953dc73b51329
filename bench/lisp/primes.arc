; primes: the primes up to 1,000 by a sieve on lists, each prime filtering
; the rest with mod; 168 of them, the last 997, adding to 76127. Run ITERS
; times.
(= iters 1500)

(def interval-list (m n)
  (if (> m n) nil (cons m (interval-list (+ m 1) n))))

(def remove-multiples (n l)
  (if (no l)
      nil
      (is (mod (car l) n) 0)
      (remove-multiples n (cdr l))
      (cons (car l) (remove-multiples n (cdr l)))))

(def sieve (l)
  (if l (cons (car l) (sieve (remove-multiples (car l) (cdr l))))))

(def primes-upto (n) (sieve (interval-list 2 n)))

(def summary (ps) (list (len ps) (last ps) (apply + ps)))

(def bench (n thunk)
  (let r nil (repeat n (= r (thunk))) r))
(def verify (got want)
  (prn got)
  (unless (iso got want) (err "primes: wrong result, expected" want)))

(verify (summary (bench iters (fn () (primes-upto 1000)))) '(168 997 76127))
