; Control (ARC.md 4.13, 4.14, 7.9): err, on-err, details, errsafe, protect,
; ccc, eval, load, and recursion depth.
(load "lib/base.arc")

; --- ccc: escape ---
(ccc (fn (k) 5)) ; expect: 5
(ccc (fn (k) (+ 1 (k 42)))) ; expect: 42
(+ 1 (ccc (fn (k) (k 2)))) ; expect: 3
(def walk (xs ret) (if xs (do (if (is (car xs) 3) (ret 'found)) (walk (cdr xs) ret)) 'none))
(ccc (fn (k) (walk '(1 2 3 4) k))) ; expect: found
(ccc (fn (k) (walk '(1 2) k))) ; expect: none
(type (ccc idfn)) ; expect: fn

; --- a continuation invoked from a later top-level form re-runs the rest
;     of the form that captured it (7.9 #51) ---
(assign saved-k nil)
(assign top-result (list 'before (ccc (fn (k) (assign saved-k k) 0))))
; expect: (before 0)
(saved-k 5)
top-result ; expect: (before 5)
(saved-k 6)
top-result ; expect: (before 6)

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
