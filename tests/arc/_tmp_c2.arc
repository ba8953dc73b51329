(load "lib/base.arc")
(let r nil
  (let k nil
    (let n (ccc (fn (c) (assign k c) 0))
      (assign r (cons n r))
      (if (< n 3) (k (+ n 1)) r))))
; expect: (3 2 1 0)
(let k2 nil
  (let n 0
    (let v (ccc (fn (k) (assign k2 k) 'first))
      (assign n (+ n 1))
      (if (is n 1) (k2 'second) (list v n)))))
; expect: (second 2)
