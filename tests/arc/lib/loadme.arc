; tests/arc/lib/loadme.arc — loaded by control.arc to test load (docs/LANGUAGE.md 3.13).
; Each form is evaluated before the next is read, so a macro defined here is
; usable in the forms after it.
(assign loaded-var 42)
(assign loaded-fn (fn (x) (* x 2)))
(mac loaded-mac (x) `(list ,x ,x))
(assign loaded-mac-result (loaded-mac 3))
(assign loaded-count (+ (if (bound 'loaded-count) loaded-count 0) 1))
