; Control (docs/LANGUAGE.md 4.13, 4.14, 7.9): err, on-err, details, errsafe, protect,
; ccc, eval, load, and recursion depth.
(load "lib/base.arc")

; --- err: the message is msg then each argument as Arc 3.1 shows it (4.13) ---
(on-err details (fn () (err "bad" 1))) ; expect: "bad 1"
(on-err details (fn () (err "bad" 1 "x"))) ; expect: "bad 1 \"x\""
(on-err details (fn () (err "msg"))) ; expect: "msg"
(on-err details (fn () (err "m" 'sym '(1 "a") #\c))) ; expect: "m 'sym '(1 \"a\" . nil) #\\c"
(on-err details (fn () (err "x" nil 2.5))) ; expect: "x 'nil 2.5"
(on-err details (fn () (err "q" ''a))) ; expect: "q '(quote a . nil)"
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
(assign trail nil)
(on-err (fn (e) (assign trail (cons 'handler trail)))
        (fn () (protect (fn () (err "x")) (fn () (assign trail (cons 'cleanup trail))))))
trail ; expect: (handler cleanup)
; after an error the caller's continuation is intact
(list 1 (on-err (fn (e) 2) (fn () (list 'no (err "x")))) 3) ; expect: (1 2 3)

; --- errsafe ---
(errsafe (car 5)) ; expect: nil
(errsafe (+ 1 2)) ; expect: 3
(errsafe (err "x")) ; expect: nil

; --- protect ---
(protect (fn () 1) (fn () 2)) ; expect: 1
(assign trail nil)
(protect (fn () (assign trail (cons 'body trail)) 'v) (fn () (assign trail (cons 'after trail))))
; expect: v
trail ; expect: (after body)
; cleanup on error, and the error still propagates
(assign trail nil)
(protect (fn () (err "protected failure")) (fn () (assign trail (cons 'after trail))))
; error: protected failure
trail ; expect: (after)
(assign trail nil)
(on-err (fn (e) (details e))
        (fn () (protect (fn () (err "e1")) (fn () (assign trail (cons 'after trail))))))
; expect: "e1"
trail ; expect: (after)
; nested cleanups run innermost first
(assign trail nil)
(protect (fn () (protect (fn () 'x) (fn () (assign trail (cons 'inner trail)))))
         (fn () (assign trail (cons 'outer trail))))
; expect: x
trail ; expect: (outer inner)
(assign trail nil)
(on-err (fn (e) 'caught)
  (fn () (protect (fn () (protect (fn () (err "x")) (fn () (assign trail (cons 'inner trail)))))
                  (fn () (assign trail (cons 'outer trail))))))
; expect: caught
trail ; expect: (outer inner)
; an error in a cleanup while an error unwinds goes to the on-err around
; both, which gets the cleanup's error (as in Arc 3.1; docs/LANGUAGE.md 7.9)
(on-err (fn (e) (details e)) (fn () (protect (fn () (err "body")) (fn () (err "cleanup")))))
; expect: "cleanup"
(on-err (fn (e) (details e)) (fn () (after (err "body") (err "cleanup")))) ; expect: "cleanup"
(errsafe (after (err "body") (err "cleanup"))) ; expect: nil
(list (errsafe (after (err "body") (err "cleanup"))) 'next) ; expect: (nil next)
; the cleanups further out still run, once, before the handler, called once
(assign trail nil)
(on-err (fn (e) (assign trail (cons (details e) trail)))
  (fn () (after (after (err "body") (err "inner"))
                (assign trail (cons 'outer trail)))))
trail ; expect: ("inner" outer)
; the handler runs outside its on-err: an error in it goes further out
(on-err (fn (e) (list 'out (details e)))
  (fn () (on-err (fn (e) (err "handler" (details e)))
           (fn () (protect (fn () (err "body")) (fn () (err "cleanup")))))))
; expect: (out "handler \"cleanup\"")
; the same on a normal exit and on a continuation's escape
(on-err details (fn () (protect (fn () 1) (fn () (err "on exit"))))) ; expect: "on exit"
(on-err details (fn () (ccc (fn (k) (protect (fn () (k 1)) (fn () (err "on escape")))))))
; expect: "on escape"
; with no on-err, the cleanup's error is the one that leaves the form
(after (err "body") (err "cleanup at top")) ; error: cleanup at top
; cleanup on escape through a continuation
(assign trail nil)
(list (ccc (fn (k) (protect (fn () (k 'escaped) 'not-reached)
                            (fn () (assign trail (cons 'after trail))))))
      trail)
; expect: (escaped (after))
(assign trail nil)
(ccc (fn (k)
  (protect (fn () (protect (fn () (k 'out)) (fn () (assign trail (cons 'inner trail)))))
           (fn () (assign trail (cons 'outer trail))))))
; expect: out
trail ; expect: (outer inner)
; the cleanup's own value is discarded
(protect (fn () 'during) (fn () 'after)) ; expect: during

; --- ccc: escape ---
(ccc (fn (k) 5)) ; expect: 5
(ccc (fn (k) (+ 1 (k 42)))) ; expect: 42
(+ 1 (ccc (fn (k) (k 2)))) ; expect: 3
(def walk-find (xs ret) (if xs (do (if (is (car xs) 3) (ret 'found)) (walk-find (cdr xs) ret)) 'none))
(ccc (fn (k) (walk-find '(1 2 3 4) k))) ; expect: found
(ccc (fn (k) (walk-find '(1 2) k))) ; expect: none
(type (ccc idfn)) ; expect: fn

; --- ccc: re-entry, several times, inside one top-level form ---
(let r nil
  (let k nil
    (let n (ccc (fn (c) (assign k c) 0))
      (assign r (cons n r))
      (if (< n 3) (k (+ n 1)) r))))
; expect: (3 2 1 0)
; a continuation invoked after the ccc call returned
(let k2 nil
  (let n 0
    (let v (ccc (fn (k) (assign k2 k) 'first))
      (assign n (+ n 1))
      (if (is n 1) (k2 'second) (list v n)))))
; expect: (second 2)
; a generator: control passes back and forth between two continuations
(let acc nil
  (let gen-resume nil
    (let caller nil
      (let yield (fn (v) (ccc (fn (k) (assign gen-resume k) (caller v))))
        (let next (fn ()
                    (ccc (fn (c)
                           (assign caller c)
                           (if gen-resume
                               (gen-resume nil)
                               (do (yield 1) (yield 2) (yield 3) (caller 'done))))))
          (assign acc (cons (next) acc))
          (assign acc (cons (next) acc))
          (assign acc (cons (next) acc))
          (assign acc (cons (next) acc))
          acc)))))
; expect: (done 3 2 1)

; --- protect and re-entry: jumping back in runs nothing, leaving again
;     runs the cleanup again (7.9 #52) ---
(let trail nil
  (let k nil
    (let n 0
      (protect (fn () (ccc (fn (c) (assign k c))) (assign trail (cons 'body trail)))
               (fn () (assign trail (cons 'after trail))))
      (assign n (+ n 1))
      (if (< n 3) (k nil))
      trail)))
; expect: (after body after body after body)
; leaving again by an escape also runs it again
(let trail nil
  (let k nil
    (let n 0
      (ccc (fn (out)
        (protect (fn () (ccc (fn (c) (assign k c)))
                        (assign trail (cons 'body trail))
                        (out nil))
                 (fn () (assign trail (cons 'after trail))))))
      (assign n (+ n 1))
      (if (< n 2) (k nil))
      trail)))
; expect: (after body after body)

; --- a continuation invoked from a later top-level form re-runs the rest
;     of the form that captured it (7.9 #51) ---
(assign saved-k nil)
(assign top-result (list 'before (ccc (fn (k) (assign saved-k k) 0))))
; expect: (before 0)
(saved-k 5)
top-result ; expect: (before 5)
(saved-k 6)
top-result ; expect: (before 6)

; --- eval: the global environment, not the caller's locals ---
(eval '(+ 1 2)) ; expect: 3
(eval (list '+ 1 2)) ; expect: 3
(eval ''a) ; expect: a
(eval 5) ; expect: 5
(assign gx 'global)
(let gx 'local (eval 'gx)) ; expect: global
(let zz-local 1 (on-err (fn (e) 'caught) (fn () (eval 'zz-local)))) ; expect: caught
(let zz-local 1 (on-err (fn (e) 'caught) (fn () (eval '(+ zz-local 1))))) ; expect: caught
(eval '(assign ev-g 9)) ; expect: 9
ev-g ; expect: 9
(eval '((fn (x) (list x x)) 4)) ; expect: (4 4)
(eval '(twice-eval 1)) ; error: twice-eval

; --- load ---
(load "lib/loadme.arc")
loaded-var ; expect: 42
(loaded-fn 5) ; expect: 10
loaded-mac-result ; expect: (3 3)
(loaded-mac 4) ; expect: (4 4)
loaded-count ; expect: 1
(load "lib/loadme.arc")
loaded-count ; expect: 2
(on-err (fn (e) 'caught) (fn () (load "lib/no-such-file.arc"))) ; expect: caught

; --- recursion depth ---
; (%scale n), from lib/base.arc, is n normally and 10000 under --gc-stress.
(def count-down (n) (if (is n 0) 0 (+ 1 (count-down (- n 1)))))
(let n (%scale 100000) (let v (count-down n) (if (is v n) 'n v))) ; expect: n
(count-down 10000) ; expect: 10000
(def build (n) (if (is n 0) nil (cons n (build (- n 1)))))
(def len-of (xs acc) (if xs (len-of (cdr xs) (+ acc 1)) acc))
(let n (%scale 100000) (let v (len-of (build n) 0) (if (is v n) 'n v))) ; expect: n
; unbounded non-tail recursion hits the stack limit (512 MiB normally; the
; --gc-stress runs use a 1 MiB stack so that they reach it quickly)
(def runaway (n) (+ 1 (runaway n)))
(runaway 0)
; error: stack overflow
(on-err (fn (e) 'caught) (fn () (runaway 0))) ; expect: caught
; and everything still works afterwards
(count-down 1000) ; expect: 1000
(protect (fn () 'ok) (fn () nil)) ; expect: ok

; (or a b) as an if's test is tested as a, then b, with a's value kept
; nowhere (Emitter::emit_test): each outcome, nested, with a loop's test,
; and a let of the same shape whose else reads the binding (not an or)
(def or-test (x) (if (or (< x 0) (> x 9)) 'out 'in))
(map or-test '(-1 0 9 10)) ; expect: (out in in out)
(def or3 (a b c) (if (or a b c) 'some 'none))
(list (or3 nil nil nil) (or3 1 nil nil) (or3 nil 2 nil) (or3 nil nil 3)) ; expect: (none some some some)
(list (if (or nil (and 1 nil)) 'y 'n) (if (or (and 1 2) nil) 'y 'n)) ; expect: (n y)
(let i 0 (while (or (< i 3) (is i 5)) (++ i)) i) ; expect: 3
(let n 0 (each x '(1 -2 30 4 -5) (when (or (< x 0) (> x 9)) (++ n))) n) ; expect: 3
(def or-like (a) (if (let g a (if g g (list 'else g))) 'y 'n))
(list (or-like nil) (or-like 1)) ; expect: (y y)
(def or-value (a b) (or a b))
(list (or-value nil 2) (or-value 1 2) (or-value nil nil)) ; expect: (2 1 nil)
