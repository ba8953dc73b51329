; A program to profile (README, "Profiling"): a recursive function, then
; word counts into a table.
;   build/arcana --profile=out.pb.gz examples/profile.arc
(def fib (n) (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))

(def count-words (n)
  (let counts (table)
    (for i 1 n
      (let w (string "w" (mod i 997))
        (= (counts w) (+ 1 (or (counts w) 0)))))
    counts))

(prn (fib 30))
(prn (len (count-words 1000000)))
