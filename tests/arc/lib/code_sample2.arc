; tests/arc/lib/code_sample2.arc — a second fixture for tests/arc/code.arc.
(+ x 1)
nil
(+ x 2 x)
(car (+ x 3))
