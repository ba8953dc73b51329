; tests/arc/lib/code_sample.arc — a fixture for tests/arc/code.arc; the
; counts the tests expect are worked out by hand in comments there.

(def f (x)
  ; a comment inside a definition
  (+ x x))

   ; an indented comment

(car '(a))
