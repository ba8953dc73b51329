; sieve (AWFY): the primes up to 5,000 by Eratosthenes' sieve, the flags an
; integer-keyed table; a crossed-out number's flag is set to nil
(def sieve (flags size)
  (let count 0
    (for i 2 size
      (when (flags (- i 1))
        (++ count)
        (let k (+ i i)
          (while (<= k size)
            (= (flags (- k 1)) nil)
            (= k (+ k i))))))
    count))

(def benchmark ()
  (let flags (table)
    (for i 0 4999
      (= (flags i) t))
    (sieve flags 5000)))

(def verify-result (result)
  (is result 669))

(repeat 2000
  (unless (verify-result (benchmark))
    (err "sieve: wrong result")))
(prn "sieve ok")
