; an integer-keyed table as an array: the primes up to 1,000,000 by
; Eratosthenes' sieve, five times, each over a fresh table; a crossed-out
; number's entry is deleted (storing nil)
(def sieve (n)
  (let flags (table)
    (for i 2 n (= (flags i) t))
    (let count 0
      (for i 2 n
        (when (flags i)
          (++ count)
          (let k (* i i)
            (while (<= k n)
              (= (flags k) nil)
              (= k (+ k i))))))
      count)))

(let count nil
  (repeat 5 (= count (sieve 1000000)))
  (prn count))
