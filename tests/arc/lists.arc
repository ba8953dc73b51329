; Pairs and lists: docs/LANGUAGE.md 1.1, 1.3, 3.7, 3.8, 4.1, 7.1, 7.10.
(assign list (fn args args))
(assign caught (fn (thunk) (on-err (fn (e) 'caught) thunk)))

; cons / car / cdr
(cons 1 2) ; expect: (1 . 2)
(cons 1 nil) ; expect: (1)
(cons 1 (cons 2 (cons 3 nil))) ; expect: (1 2 3)
(cons 1 (cons 2 3)) ; expect: (1 2 . 3)
(cons nil nil) ; expect: (nil)
(cons '(1) '(2)) ; expect: ((1) 2)
(car '(a b c)) ; expect: a
(cdr '(a b c)) ; expect: (b c)
(cdr '(a)) ; expect: nil
(car '(a . b)) ; expect: a
(cdr '(a . b)) ; expect: b
(car nil) ; expect: nil
(cdr nil) ; expect: nil
(car '()) ; expect: nil
(car 5) ; error: Can't take car of 5
(cdr 5) ; error: Can't take cdr of 5
(car 'a) ; error: Can't take car of 'a
(car "abc") ; error: Can't take car of
(cdr "abc") ; error: Can't take cdr of
(car (car '((x) y))) ; expect: x

; nil and () are one object
(is nil '()) ; expect: t
(is nil ()) ; expect: t
'() ; expect: nil
(type nil) ; expect: sym
(type '()) ; expect: sym
(type '(1)) ; expect: cons
(type (cons 1 2)) ; expect: cons
(cdr (cdr (list 1 2))) ; expect: nil
(is (cdr '(1)) nil) ; expect: t
((fn args args)) ; expect: nil
(is ((fn args args)) nil) ; expect: t
(if '() 1 2) ; expect: 2
(if '(nil) 1 2) ; expect: 1

; len
(len nil) ; expect: 0
(len '(1)) ; expect: 1
(len '(1 2 3)) ; expect: 3
(len '(nil nil)) ; expect: 2
(len '((1 2) (3 4 5))) ; expect: 2
(caught (fn () (len '(1 2 . 3)))) ; expect: caught
(caught (fn () (len (cons 1 2)))) ; expect: caught

; scar / scdr mutate, return the value
((fn (x) (scar x 'z)) (list 1 2)) ; expect: z
((fn (x) (scar x 'z) x) (list 1 2)) ; expect: (z 2)
((fn (x) (scdr x 'z)) (list 1 2)) ; expect: z
((fn (x) (scdr x 'z) x) (list 1 2)) ; expect: (1 . z)
((fn (x) (scdr x nil) x) (list 1 2 3)) ; expect: (1)
((fn (x) (scdr (cdr x) '(9 8)) x) (list 1 2 3)) ; expect: (1 2 9 8)
((fn (s) (scar s #\X) s) (newstring 3 #\a)) ; expect: "Xaa"
(caught (fn () (scdr "abc" #\x))) ; expect: caught
(caught (fn () (scar 5 1))) ; expect: caught
(caught (fn () (scdr 5 1))) ; expect: caught
; quoted constants are mutable too
(assign qc '(1 2 3))
(scar qc 'one) ; expect: one
qc ; expect: (one 2 3)
; shared structure sees mutation
(assign tail (list 2 3))
(assign l1 (cons 1 tail))
(assign l2 (cons 0 tail))
(scar tail 'b) ; expect: b
l1 ; expect: (1 b 3)
l2 ; expect: (0 b 3)

; indexing a list (3.7) and sref on lists (3.8)
('(a b c) 0) ; expect: a
('(a b c) 1) ; expect: b
('(a b c) 2) ; expect: c
(caught (fn () ('(a b) 5))) ; expect: caught
(caught (fn () ('(a b) -1))) ; expect: caught
(assign sl (list 'a 'b 'c))
(sref sl 'x 1) ; expect: x
sl ; expect: (a x c)
(sref sl 'y 0) ; expect: y
(sref sl 'z 2) ; expect: z
sl ; expect: (y x z)
(sref sl nil 1) ; expect: nil
sl ; expect: (y nil z)
(len sl) ; expect: 3
(caught (fn () (sref 5 1 0))) ; expect: caught

; printing: proper, improper, nested, quoted (1.3, 7.10)
'(1 2 3) ; expect: (1 2 3)
'(1 . 2) ; expect: (1 . 2)
'(1 2 . 3) ; expect: (1 2 . 3)
'(1 . (2 . (3 . nil))) ; expect: (1 2 3)
'(nil) ; expect: (nil)
'(nil . nil) ; expect: (nil)
'((a . b) (c . d)) ; expect: ((a . b) (c . d))
'(((1))) ; expect: (((1)))
''a ; expect: (quote a)
'(quote a) ; expect: (quote a)
'`(a ,b ,@c) ; expect: (quasiquote (a (unquote b) (unquote-splicing c)))
'(a 'b) ; expect: (a (quote b))
'("a" #\b 1.5) ; expect: ("a" #\b 1.5)
(disp '("a" #\b (c "d"))) ; prints: (a b (c d))
(write '("a" #\b (c "d"))) ; prints: ("a" #\\b (c "d"))
(disp '(1 . 2)) ; prints: (1 . 2)
(disp '(1 2 . 3)) ; prints: (1 2 . 3)
(disp nil) ; prints: nil
(disp ''x) ; prints: (quote x)
(write '(nil)) ; prints: (nil)

; error messages name the offending value in written form
(car "abc") ; error: Can't take car of "abc"
(cdr #\a) ; error: Can't take cdr of #\a
(on-err details (fn () (car 'x))) ; expect: "Can't take car of 'x"

; + on lists appends into a fresh list (4.3, 7.3 #15)
(+ '(1 2) '(3) nil) ; expect: (1 2 3)
(+ nil nil) ; expect: nil
(+ nil '(1)) ; expect: (1)
(+ '(1) '((2)) '(3 4)) ; expect: (1 (2) 3 4)
((fn (x) (is x (+ x nil))) (list 1 2)) ; expect: nil
((fn (x) (scar (+ x) 9) x) (list 1 2)) ; expect: (1 2)
(caught (fn () (+ '(1) 2))) ; expect: caught
; apply (4.1)
(apply + 1 2 '(3 4)) ; expect: 10
(apply list '()) ; expect: nil
(apply list 1 '(2)) ; expect: (1 2)
(apply cons '(a b)) ; expect: (a . b)
(apply '(a b c) '(1)) ; expect: b
(apply +) ; expect: 0

; long and deeply nested lists
(assign build (fn (n acc) (if (is n 0) acc (build (- n 1) (cons n acc)))))
(len (build 5000 nil)) ; expect: 5000
(assign nest (fn (n acc) (if (is n 0) acc (nest (- n 1) (cons acc nil)))))
(len (nest 2000 nil)) ; expect: 1
(assign depth (fn (x n) (if x (depth (car x) (+ n 1)) n)))
(depth (nest 2000 nil) 0) ; expect: 2000
(nest 3 nil) ; expect: (((nil)))
(nest 3 'a) ; expect: (((a)))
(len (on-err (fn (e) "err") (fn () ((fn (o) (write (nest 2000 nil) o) (inside o)) (outstring))))) ; expect: 4003
(caught (fn () (sref (list 1 2) (quote x) 5))) ; expect: caught
(list car "s") ; expect: (#<procedure:car> "s")
