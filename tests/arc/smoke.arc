; A first smoke test of the runner itself.
(+ 1 2) ; expect: 3
(car 5) ; error: Can't take car of 5
(disp "hi\n") ; prints: hi\n
(assign x 10)
(+ x 1)
; expect: 11
