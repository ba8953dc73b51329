; a tail-recursive counting loop: calls, fixnum arithmetic, comparisons
(assign sumdown (fn (i acc) (if (is i 0) acc (sumdown (- i 1) (+ acc i)))))
(disp (sumdown 20000000 0)) (disp "\n")
