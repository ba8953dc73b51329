(load "lib/base.arc")
; --- recursion depth ---
; (%scale n), from lib/base.arc, is n normally and 10000 under --gc-stress.
(def count-down (n) (if (is n 0) 0 (+ 1 (count-down (- n 1)))))
(let n (%scale 100000) (is (count-down n) n)) ; expect: t
(count-down 10000) ; expect: 10000
(def build (n) (if (is n 0) nil (cons n (build (- n 1)))))
(def len-of (xs acc) (if xs (len-of (cdr xs) (+ acc 1)) acc))
(let n (%scale 100000) (is (len-of (build n) 0) n)) ; expect: t
; unbounded non-tail recursion hits the stack limit. Under --gc-stress every
; call collects and scans the whole stack, so reaching the limit would take
; hours: there the error is raised by hand instead (not a real test).
(def runaway (n) (+ 1 (runaway n)))
(if %stress-mode (err "stack overflow (not run under --gc-stress)") (runaway 0))
; error: stack overflow
(if %stress-mode 'caught (on-err (fn (e) 'caught) (fn () (runaway 0)))) ; expect: caught
; and everything still works afterwards
(count-down 1000) ; expect: 1000
(protect (fn () 'ok) (fn () nil)) ; expect: ok
