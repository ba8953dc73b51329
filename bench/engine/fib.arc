(assign fib (fn (n) (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2))))))
(disp (fib 30)) (disp "\n")
