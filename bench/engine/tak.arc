; Takeuchi's function: deep non-tail recursion, three arguments, comparisons
(def tak (x y z)
  (if (< y x)
      (tak (tak (- x 1) y z) (tak (- y 1) z x) (tak (- z 1) x y))
      z))
(prn (tak 24 16 8))
