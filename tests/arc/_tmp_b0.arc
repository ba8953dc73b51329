; Control (ARC.md 4.13, 4.14, 7.9): err, on-err, details, errsafe, protect,
; ccc, eval, load, and recursion depth.
(load "lib/base.arc")

; --- err: the message is msg then each argument written, space-separated ---
(on-err details (fn () (err "bad" 1))) ; expect: "bad 1"
(on-err details (fn () (err "bad" 1 "x"))) ; expect: "bad 1 \"x\""
(on-err details (fn () (err "msg"))) ; expect: "msg"
(on-err details (fn () (err "m" 'sym '(1 "a") #\c))) ; expect: "m sym (1 \"a\") #\\c"
(on-err details (fn () (err "x" nil 2.5))) ; expect: "x nil 2.5"
(on-err details (fn () (err "q" ''a))) ; expect: "q (quote a)"
(err "top-level failure" 5) ; error: top-level failure 5
(err "written" "s" #\a) ; error: written "s" #\a

; --- on-err ---
(on-err (fn (e) 'caught) (fn () 42)) ; expect: 42
(on-err (fn (e) 'caught) (fn () (err "x"))) ; expect: caught
(type (on-err (fn (e) e) (fn () (err "x")))) ; expect: exception
(on-err (fn (e) (list 'got (details e))) (fn () (err "boom" 7))) ; expect: (got "boom 7")
; it catches primitive errors too
(on-err details (fn () (car 5))) ; expect: "Can't take car of 5"
(on-err (fn (e) 'caught) (fn () (/ 1 0))) ; expect: caught
(on-err (fn (e) 'caught) (fn () (no-such-function-here 1))) ; expect: caught
(on-err (fn (e) 'caught) (fn () ((fn (a) a)))) ; expect: caught
(on-err (fn (e) 'caught) (fn () (+ nil 1))) ; expect: caught
; an error in the handler goes to the next handler out
(on-err details (fn () (on-err (fn (e) (err "inner handler" (details e))) (fn () (err "x")))))
; expect: "inner handler \"x\""
; the error unwinds first, then the handler runs
(assign log nil)
(on-err (fn (e) (assign log (cons 'handler log)))
        (fn () (protect (fn () (err "x")) (fn () (assign log (cons 'cleanup log))))))
log ; expect: (handler cleanup)
; after an error the caller's continuation is intact
(list 1 (on-err (fn (e) 2) (fn () (list 'no (err "x")))) 3) ; expect: (1 2 3)

; --- errsafe ---
(errsafe (car 5)) ; expect: nil
(errsafe (+ 1 2)) ; expect: 3
(errsafe (err "x")) ; expect: nil

; --- protect ---
(protect (fn () 1) (fn () 2)) ; expect: 1
(assign log nil)
(protect (fn () (assign log (cons 'body log)) 'v) (fn () (assign log (cons 'after log))))
; expect: v
log ; expect: (after body)
; cleanup on error, and the error still propagates
(assign log nil)
(protect (fn () (err "protected failure")) (fn () (assign log (cons 'after log))))
; error: protected failure
log ; expect: (after)
(assign log nil)
(on-err (fn (e) (details e))
        (fn () (protect (fn () (err "e1")) (fn () (assign log (cons 'after log))))))
; expect: "e1"
log ; expect: (after)
; nested cleanups run innermost first
(assign log nil)
(protect (fn () (protect (fn () 'x) (fn () (assign log (cons 'inner log)))))
         (fn () (assign log (cons 'outer log))))
; expect: x
log ; expect: (outer inner)
(assign log nil)
(on-err (fn (e) 'caught)
  (fn () (protect (fn () (protect (fn () (err "x")) (fn () (assign log (cons 'inner log)))))
                  (fn () (assign log (cons 'outer log))))))
; expect: caught
log ; expect: (outer inner)
; cleanup on escape through a continuation
(assign log nil)
(list (ccc (fn (k) (protect (fn () (k 'escaped) 'not-reached)
                            (fn () (assign log (cons 'after log))))))
      log)
; expect: (escaped (after))
(assign log nil)
(ccc (fn (k)
  (protect (fn () (protect (fn () (k 'out)) (fn () (assign log (cons 'inner log)))))
           (fn () (assign log (cons 'outer log))))))
; expect: out
log ; expect: (outer inner)
; the cleanup's own value is discarded
(protect (fn () 'during) (fn () 'after)) ; expect: during

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
