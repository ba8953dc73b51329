; allocation-heavy: build a 100,000-element list and reverse it, 100 times
(assign build (fn (n acc) (if (is n 0) acc (build (- n 1) (cons n acc)))))
(assign revl (fn (l acc) (if l (revl (cdr l) (cons (car l) acc)) acc)))
(assign rounds (fn (k s) (if (is k 0) s (rounds (- k 1) (+ s (car (revl (build 100000 nil) nil)))))))
(disp (rounds 100 0)) (disp "\n")
