; Control (ARC.md 4.13, 4.14, 7.9): err, on-err, details, errsafe, protect,
; ccc, eval, load, and recursion depth.
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
