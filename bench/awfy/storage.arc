; storage (AWFY): a tree of arrays four wide and seven deep, its leaves
; arrays of pseudo-random length, built to load the allocator; an array is
; an integer-keyed table, allocated with its length as the suite's are
(load "som.arc")

(def build-tree-depth (self depth random)
  (++ self!count)
  (if (is depth 1)
      (obj n (+ (mod (random-next random) 10) 1))
      (let arr (obj n 4)
        (for i 0 3
          (= (arr i) (build-tree-depth self (- depth 1) random)))
        arr)))

(def benchmark ()
  (let self (obj count 0)
    (build-tree-depth self 7 (new-random))
    self!count))

(def verify-result (result)
  (is result 5461))

(repeat 250
  (unless (verify-result (benchmark))
    (err "storage: wrong result")))
(prn "storage ok")
