(load "lib/base.arc")
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
(let log nil
  (let k nil
    (let n 0
      (protect (fn () (ccc (fn (c) (assign k c))) (assign log (cons 'body log)))
               (fn () (assign log (cons 'after log))))
      (assign n (+ n 1))
      (if (< n 3) (k nil))
      log)))
; expect: (after body after body after body)
; leaving again by an escape also runs it again
(let log nil
  (let k nil
    (let n 0
      (ccc (fn (out)
        (protect (fn () (ccc (fn (c) (assign k c)))
                        (assign log (cons 'body log))
                        (out nil))
                 (fn () (assign log (cons 'after log))))))
      (assign n (+ n 1))
      (if (< n 2) (k nil))
      log)))
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

