; stdlib/pprint.arc: docs/LANGUAGE.md 6.2. Expected values are derived from the
; spec, not from running the code.

; bodops*: operator -> number of header arguments
(bodops* 'def) ; expect: 2
(bodops* 'let) ; expect: 2
(bodops* 'fn) ; expect: 1
(bodops* 'for) ; expect: 3
(bodops* 'tag) ; expect: 1
(bodops* 'whitepage) ; expect: 0
(bodops* 'car) ; expect: nil

; oneline*
oneline* ; expect: 35

; ppr: short forms on one line, nil when nothing was broken
(ppr 'a) ; prints: a
(ppr 'a) ; expect: nil
(ppr "s") ; prints: "s"
(ppr 12) ; prints: 12
(ppr '(+ 1 2)) ; prints: (+ 1 2)
(ppr '(+ 1 2)) ; expect: nil
(ppr '(+ 1 2) 4) ; prints:     (+ 1 2)
(ppr '(+ 1 2) 4 t) ; prints: (+ 1 2)
(ppr '(a . b)) ; prints: (a . b)
(ppr nil) ; prints: nil

; (quote x) prints as 'x
(ppr ''x) ; prints: 'x
(ppr ''x) ; expect: nil
(ppr ''(a b)) ; prints: '(a b)
(ppr '(f 'x)) ; prints: (f 'x)

; body operators: header arguments on the first line, body indented by two
(ppr '(def foo (x y) (prn "first line of the body") (prn "second"))) ; expect: t
; prints: (def foo (x y)\n  (prn "first line of the body")\n  (prn "second"))
(ppr '(let x (compute-something 1 2) (prn x) (prn (list x x x)))) ; expect: t
; prints: (let x (compute-something 1 2)\n  (prn x)\n  (prn (list x x x)))
(ppr '(fn (a b) (list a b a b a b a b a b a b a b a b))) ; expect: t
; prints: (fn (a b)\n  (list a b a b a b a b a b a b a b a b))
(ppr '(for i 1 10 (prn i) (prn (* i i)) (prn (* i i i)))) ; expect: t
; prints: (for i 1 10\n  (prn i)\n  (prn (* i i))\n  (prn (* i i i)))
(ppr '(def foo (x y) (prn "first line of the body") (prn "second")) 2) ; expect: t
; prints:   (def foo (x y)\n    (prn "first line of the body")\n    (prn "second"))

; calls: first argument after the operator, the rest aligned under it
(ppr '(foo (bar 1 2 3 4 5 6 7 8 9 10) (baz 1) (qux 2))) ; expect: t
; prints: (foo (bar 1 2 3 4 5 6 7 8 9 10)\n     (baz 1)\n     (qux 2))
(ppr '(if (no x) (bar y) (baz x (+ y 1) 'long-symbol-here))) ; expect: t
; (the baz form is measured with (quote long-symbol-here), too long for a line)
; prints: (if (no x)\n    (bar y)\n    (baz x\n         (+ y 1)\n         'long-symbol-here))
; remaining arguments that are all atoms stay on one line
(ppr '(foo aaaaaaaaaa bbbbbbbbbbbbb cccccccccccc dddd))
; prints: (foo aaaaaaaaaa bbbbbbbbbbbbb cccccccccccc dddd)
(ppr '(foo aaaaaaaaaa bbbbbbbbbbbbb cccccccccccc dddd)) ; expect: nil
; nested: an inner long form breaks at its own column
(ppr '(def f (x) (foo (bar 1 2 3 4 5 6 7 8 9 10) (baz 1) (qux 2))))
; prints: (def f (x)\n  (foo (bar 1 2 3 4 5 6 7 8 9 10)\n       (baz 1)\n       (qux 2)))

; ppr-progn and ppr-call lay out from the current position
(tostring (ppr-progn '(let x 1 (a) (b)) 0 nil)) ; expect: "(let x 1\n  (a)\n  (b))"
(tostring (ppr-progn '(whitepage (a) (b)) 0 nil)) ; expect: "(whitepage\n  (a)\n  (b))"
(tostring (ppr-call '(f 1 2) 0 nil)) ; expect: "(f 1 2)"
(tostring (ppr-call '(f (g 1) (h 2)) 0 nil)) ; expect: "(f (g 1)\n   (h 2))"
(tostring (ppr-call '(f) 0 nil)) ; expect: "(f)"

; pprest: the remaining arguments (and the closing parenthesis)
(tostring (pprest '(a b) 3)) ; expect: " a b)"
(tostring (pprest '(a (b)) 3)) ; expect: "\n   a\n   (b))"
(tostring (pprest '(a b) 3 nil)) ; expect: "\n   a\n   b)"

; write-spaced
(tostring (write-spaced '(a "b" #\c 1))) ; expect: "a \"b\" #\\c 1"
(tostring (write-spaced nil)) ; expect: ""

; sp, lpar, rpar
(tostring (sp)) ; expect: " "
(tostring (sp 3)) ; expect: "   "
(tostring (sp 0)) ; expect: ""
(tostring (lpar)) ; expect: "("
(tostring (rpar)) ; expect: ")"
