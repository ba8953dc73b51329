; a tail-recursive counting loop: calls, fixnum arithmetic, comparisons
(assign loop (fn (i acc) (if (is i 0) acc (loop (- i 1) (+ acc i)))))
(disp (loop 20000000 0)) (disp "\n")
