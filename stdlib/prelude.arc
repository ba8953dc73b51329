; stdlib/prelude.arc — the primitives of docs/LANGUAGE.md section 4 that Arcana writes
; in Arc over internal builtins, so that they call Arc functions without C++
; recursion (docs/ARCHITECTURE.md invariant 4). Loaded before anything else.

; Runs each step, then returns v: how the VM runs protect cleanups (and
; dynamic-wind befores) when an error or a continuation moves control. A
; step is (thunk during . after), wind chains to run the thunk under and
; to leave behind (vm/continuation.h, wind_thunks).
(assign %run-winds
  (fn (steps v)
    (if steps
        ((fn (s)
           (%wind-to (car (cdr s)))
           ((car s))
           (%wind-to (cdr (cdr s)))
           (%run-winds (cdr steps) v))
         (car steps))
        v)))

(assign dynamic-wind
  (fn (before during after)
    (before)
    (%push-wind before after)
    ((fn (v) (%pop-wind) (after) v) (during))))

; (atomic-invoke f) calls this once the program has more than one thread
; (vm/thread.cpp): the global lock held around f however control leaves it.
(assign %atomic-locked
  (fn (f) (dynamic-wind %atomic-acquire f %atomic-release)))

; (protect during after): after runs however control leaves during.
(assign protect (fn (during after) (dynamic-wind (fn () nil) during after)))

; (on-err handler thunk): an error in thunk unwinds, then (handler e).
(assign on-err (fn (h f) (%catch (f) h)))

(assign errsafe
  (annotate 'mac (fn (expr) `(on-err (fn (c) nil) (fn () ,expr)))))

; Rebinding stdout to the port it already is needs no wind (a handler of
; srv.arc's defop does, inside respond's w/stdout).
(assign call-w/stdout
  (fn (port thunk)
    ((fn (old)
       (if (is port old)
           (thunk)
           (dynamic-wind (fn () (%set-stdout port)) thunk (fn () (%set-stdout old)))))
     (stdout))))

(assign call-w/stdin
  (fn (port thunk)
    ((fn (old)
       (dynamic-wind (fn () (%set-stdin port)) thunk (fn () (%set-stdin old))))
     (stdin))))

; (table (o init)): a new table, given first to init if there is one.
(assign table (fn ((o init)) ((fn (h) (if init (init h)) h) (%table))))

(assign %maptable-walk
  (fn (f h keys)
    (if keys ((fn () (f (car keys) (h (car keys))) (%maptable-walk f h (cdr keys)))))))

(assign maptable (fn (f h) (%maptable-walk f h (%table-keys h)) h))

(assign %load-forms
  (fn (forms)
    (if forms ((fn () (eval (car forms)) (%load-forms (cdr forms)))))))

; (load file): read and evaluate each form of file in turn.
(assign load (fn (file) (%load-forms (%read-file file))))
