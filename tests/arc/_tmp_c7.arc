(load "lib/base.arc")
(assign saved-k nil)
(assign top-result (list 'before (ccc (fn (k) (assign saved-k k) 0))))
; expect: (before 0)
(saved-k 5)
top-result ; expect: (before 5)
(def count-down (n) (if (is n 0) 0 (+ 1 (count-down (- n 1)))))
(count-down 10) ; expect: 10
(count-down 1000) ; expect: 1000
(count-down 100000) ; expect: 100000
(def runaway (n) (+ 1 (runaway n)))
(runaway 0)
; error: stack overflow
(count-down 1000) ; expect: 1000
