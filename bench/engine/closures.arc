; closures: map, keep and reduce with fn literals over a 1,000,000-element
; list, five rounds, each round's fns closing over the round's k
(let xs (range 1 1000000)
  (let total 0
    (for k 1 5
      (= total (+ total (reduce (fn (a b) (+ a b))
                                (map (fn (x) (* x k))
                                     (keep (fn (x) (is (mod x 3) (mod k 3))) xs))))))
    (prn total)))
