; Time primitives and the collector: docs/LANGUAGE.md 4.10.
(assign list (fn args args))
(assign not-less (fn (a b) (if (< a b) nil t)))
; (busy n): burn some CPU.
(assign busy (fn (n) (if (< 0 n) (busy (- n 1)) 'done)))

; seconds: whole seconds since the epoch
(exact (seconds)) ; expect: t
(type (seconds)) ; expect: int
(< 1577836800 (seconds)) ; expect: t
(< (seconds) 4102444800) ; expect: t
((fn (a b) (not-less b a)) (seconds) (seconds)) ; expect: t

; msec: wall-clock milliseconds, consistent with seconds
(exact (msec)) ; expect: t
(< 1577836800000 (msec)) ; expect: t
((fn (a b) (not-less b a)) (msec) (msec)) ; expect: t
((fn (m s) (< (- s 2) (trunc (/ m 1000)) (+ s 2))) (msec) (seconds)) ; expect: t
((fn (a) (busy 2000) (not-less (msec) a)) (msec)) ; expect: t

; CPU time and GC time: non-negative ints that never decrease
(exact (current-process-milliseconds)) ; expect: t
(not-less (current-process-milliseconds) 0) ; expect: t
((fn (a) (busy 5000) (not-less (current-process-milliseconds) a)) (current-process-milliseconds)) ; expect: t
(exact (current-gc-milliseconds)) ; expect: t
(not-less (current-gc-milliseconds) 0) ; expect: t
((fn (a) (gc) (gc) (not-less (current-gc-milliseconds) a)) (current-gc-milliseconds)) ; expect: t

; timedate: (second minute hour day month year) in UTC
(timedate 0) ; expect: (0 0 0 1 1 1970)
(timedate 86399) ; expect: (59 59 23 1 1 1970)
(timedate 1000000000) ; expect: (40 46 1 9 9 2001)
(timedate 1234567890) ; expect: (30 31 23 13 2 2009)
(timedate 951782400) ; expect: (0 0 0 29 2 2000)
(timedate 4102444799) ; expect: (59 59 23 31 12 2099)
(len (timedate)) ; expect: 6
(not-less ((timedate) 5) 2020) ; expect: t
; (not td: html.arc's td is a macro, and in Arc 3.1 a local does not shadow one)
((fn (tm) (list (< 0 (tm 3) 32) (< 0 (tm 4) 13))) (timedate)) ; expect: (t t)
((fn (tm) (list (< -1 (tm 0) 61) (< -1 (tm 1) 60) (< -1 (tm 2) 24))) (timedate)) ; expect: (t t t)
; the year, counted by hand: whole days since the epoch, less 365 or 366 a year
(assign leap-year (fn (y) (if (is (mod y 400) 0) t (is (mod y 100) 0) nil (is (mod y 4) 0))))
(assign year-of-day
  (fn (d y) ((fn (n) (if (< d n) y (year-of-day (- d n) (+ y 1)))) (if (leap-year y) 366 365))))
(list (year-of-day 0 1970) (year-of-day 10956 1970) (year-of-day 10957 1970) (year-of-day 47482 1970))
; expect: (1970 1999 2000 2100)
((fn (s) (- ((timedate s) 5) (year-of-day (trunc (/ s 86400)) 1970))) (seconds)) ; expect: 0

; (gc) returns, and collecting keeps data intact
((fn () (gc) 'ok)) ; expect: ok
(assign build (fn (n acc) (if (is n 0) acc (build (- n 1) (cons n acc)))))
(assign sum-list (fn (xs acc) (if xs (sum-list (cdr xs) (+ acc (car xs))) acc)))
(assign nums (build 2000 nil))
(assign h (table))
(sref h nums "nums")
(sref h (expt 3 80) 'big)
(sref h (+ "str" "ing") (list 1 2))
(assign s (newstring 3 #\λ))
(assign clo ((fn (x) (fn () x)) (list 'captured 1.5 1/3)))
(assign tagged-obj (annotate 'box (list "in" #\c)))
(gc)
(gc)
(len nums) ; expect: 2000
(sum-list nums 0) ; expect: 2001000
(car nums) ; expect: 1
(is (h "nums") nums) ; expect: t
(h 'big) ; expect: 147808829414345923316083210206383297601
(h '(1 2)) ; expect: "string"
s ; expect: "λλλ"
(clo) ; expect: (captured 1.5 1/3)
tagged-obj ; expect: #(tagged box ("in" #\c . nil))
((fn () (build 5000 nil) (gc) (sum-list nums 0))) ; expect: 2001000
