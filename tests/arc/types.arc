; type, annotate, rep, coerce: docs/LANGUAGE.md 1 (the types), 1.8, 1.9, 4.7, 7.3 #13, 7.4 #24.
(assign list (fn args args))
(assign caught (fn (thunk) (on-err (fn (e) 'caught) thunk)))

; type of every kind
(type 'a) ; expect: sym
(type nil) ; expect: sym
(type t) ; expect: sym
(type '(1)) ; expect: cons
(type '(1 . 2)) ; expect: cons
(type 1) ; expect: int
(type -5) ; expect: int
(type (expt 2 100)) ; expect: int
(type 1/2) ; expect: num
(type 1.5) ; expect: num
(type 2.0) ; expect: num
(type #\a) ; expect: char
(type "a") ; expect: string
(type "") ; expect: string
(type (table)) ; expect: table
(type car) ; expect: fn
(type (fn () 1)) ; expect: fn
(type on-err) ; expect: fn
(type (annotate 'mac (fn () 1))) ; expect: mac
(type errsafe) ; expect: mac
(type (annotate 'point '(1 2))) ; expect: point
(type (stdin)) ; expect: input
(type (stdout)) ; expect: output
(type (stderr)) ; expect: output
(type (instring "abc")) ; expect: input
(type (outstring)) ; expect: output
(on-err (fn (e) (type e)) (fn () (car 1))) ; expect: exception
(on-err (fn (e) (type e)) (fn () (err "x"))) ; expect: exception
(type (type 1)) ; expect: sym

; annotate and rep (1.9)
(annotate 'point '(1 2)) ; expect: #(tagged point (1 2 . nil))
(rep (annotate 'point '(1 2))) ; expect: (1 2)
(rep 5) ; expect: 5
(rep '(a b)) ; expect: (a b)
(rep "s") ; expect: "s"
(annotate 'int 5) ; expect: 5
(annotate 'sym 'foo) ; expect: foo
(annotate 'cons '(1)) ; expect: (1)
(annotate 'a (annotate 'a 1)) ; expect: #(tagged a 1)
(rep (annotate 'a (annotate 'a 1))) ; expect: 1
((fn (x) ((fn (y) (list y (is y x))) (annotate 'a x))) (annotate 'a 1)) ; expect: (#(tagged a 1) t)
(annotate 'b (annotate 'a 1)) ; expect: #(tagged b #(tagged a 1))
(rep (annotate 'b (annotate 'a 1))) ; expect: #(tagged a 1)
(type (rep (annotate 'b (annotate 'a 1)))) ; expect: a
(annotate 'mac car) ; expect: #(tagged mac #<procedure:car>)
(is (rep (annotate 'mac car)) car) ; expect: t
((annotate 'point car) '(1)) ; error: Function call on inappropriate object

; printed forms of functions (1.8)
car ; expect: #<procedure:car>
(fn (x) x) ; expect: #<procedure>
(assign named-fn (fn (x) x))
named-fn ; expect: #<procedure: named-fn>

; coerce: same type returns x itself
(coerce 5 'int) ; expect: 5
(coerce 2.5 'num) ; expect: 2.5
(coerce "abc" 'string) ; expect: "abc"
((fn (x) ((fn (y) (list y (is y x))) (coerce x 'cons))) (list 1 2)) ; expect: ((1 2) t)
(coerce nil 'sym) ; expect: nil
(coerce #\a 'char) ; expect: #\a

; char -> int, string, sym
(coerce #\a 'int) ; expect: 97
(coerce #\λ 'int) ; expect: 955
(coerce #\a 'string) ; expect: "a"
(coerce #\λ 'string) ; expect: "λ"
(coerce #\a 'sym) ; expect: a

; int -> char, string (radix), num
(coerce 97 'char) ; expect: #\a
(coerce 955 'char) ; expect: #\λ
(coerce 123 'string) ; expect: "123"
(coerce -5 'string) ; expect: "-5"
(coerce (expt 2 100) 'string) ; expect: "1267650600228229401496703205376"
(coerce 255 'string 16) ; expect: "ff"
(coerce -255 'string 16) ; expect: "-ff"
(coerce 5 'string 2) ; expect: "101"
(coerce 8 'string 8) ; expect: "10"
(coerce 5 'num) ; expect: 5
(type (coerce 5 'num)) ; expect: int

; other number -> int: round to nearest, ties to even
(coerce 2.5 'int) ; expect: 2
(coerce 3.5 'int) ; expect: 4
(coerce 3.7 'int) ; expect: 4
(coerce 2.4 'int) ; expect: 2
(coerce -2.5 'int) ; expect: -2
(coerce -3.5 'int) ; expect: -4
(coerce -0.4 'int) ; expect: 0
(coerce 1/2 'int) ; expect: 0
(coerce 3/2 'int) ; expect: 2
(coerce 5/2 'int) ; expect: 2
(coerce 7/2 'int) ; expect: 4
(coerce 1e20 'int) ; expect: 100000000000000000000
(type (coerce 2.5 'int)) ; expect: int
(exact (coerce 4.0 'int)) ; expect: t

; other number -> char, string
(coerce 97.4 'char) ; expect: #\a
(coerce 97.5 'char) ; expect: #\b
(coerce 195/2 'char) ; expect: #\b
(coerce 2.5 'string) ; expect: "2.5"
(coerce 1/2 'string) ; expect: "1/2"
(coerce 1/2 'string 2) ; expect: "1/10"
; a float has digits in base 10 only, as in Arc 3.1 (Racket's number->string)
(coerce 2.5 'string 2) ; error: coerce: a float can only be written in base 10
(coerce 2.0 'string 16) ; error: coerce: a float can only be written in base 10
(coerce 2.5 'string 10) ; expect: "2.5"

; string -> sym, cons, num, int
(coerce "abc" 'sym) ; expect: abc
(coerce "nil" 'sym) ; expect: nil
(coerce "abc" 'cons) ; expect: (#\a #\b #\c)
(coerce "" 'cons) ; expect: nil
(coerce "1.5" 'num) ; expect: 1.5
(coerce "1/2" 'num) ; expect: 1/2
(coerce "42" 'num) ; expect: 42
(coerce "1e3" 'num) ; expect: 1000.0
(coerce "ff" 'num 16) ; expect: 255
(caught (fn () (coerce "abc" 'num))) ; expect: caught
(caught (fn () (coerce "" 'num))) ; expect: caught
(coerce "1.5" 'int) ; expect: 2
(coerce "2.5" 'int) ; expect: 2
(coerce "42" 'int) ; expect: 42
(coerce "-7" 'int) ; expect: -7
(coerce "ff" 'int 16) ; expect: 255
(coerce "101" 'int 2) ; expect: 5
(coerce "1267650600228229401496703205376" 'int) ; expect: 1267650600228229401496703205376
(caught (fn () (coerce "x" 'int))) ; expect: caught

; cons, nil, symbol -> string
(coerce '(#\a #\b) 'string) ; expect: "ab"
(coerce '(1 "b" c #\d) 'string) ; expect: "1bcd"
(coerce '(a (b c)) 'string) ; expect: "abc"
(coerce nil 'string) ; expect: ""
(coerce 'abc 'string) ; expect: "abc"

; everything else errors "Can't coerce"
(coerce 'a 'int) ; error: Can't coerce
(coerce 1 'sym) ; error: Can't coerce
(coerce 1.5 'sym) ; error: Can't coerce
(coerce #\a 'num) ; error: Can't coerce
(coerce nil 'cons) ; error: Can't coerce
(coerce 'abc 'cons) ; error: Can't coerce
(coerce "abc" 'table) ; error: Can't coerce
(coerce 1.5 'cons) ; error: Can't coerce
(coerce '(1) 'int) ; error: Can't coerce
(coerce #\a 'cons) ; error: Can't coerce

; annotated objects refuse coerce, even to their own tag
(coerce (annotate 'foo 1) 'int) ; error: Can't coerce annotated object
(coerce (annotate 'foo "s") 'string) ; error: Can't coerce annotated object
(coerce (annotate 'foo 1) 'foo) ; error: Can't coerce annotated object
; Arc 3.1's message names no object
(on-err details (fn () (coerce (annotate 'foo 1) 'int))) ; expect: "Can't coerce annotated object"
(on-err details (fn () (coerce (list 1 (annotate 'foo 1)) 'string))) ; expect: "Can't coerce annotated object"

; the unknown-type quirk: other source types come back unchanged (7.4 #24)
(type (coerce (table) 'cons)) ; expect: table
((fn (h) (is h (coerce h 'string))) (table)) ; expect: t
(is car (coerce car 'int)) ; expect: t
(type (coerce (stdout) 'string)) ; expect: output

; more coerce rows and exact messages
(coerce "1/2" 'int) ; expect: 0
(coerce "3/2" 'int) ; expect: 2
(coerce 1.0 'string) ; expect: "1.0"
(coerce nil 'int) ; error: Can't coerce
(coerce "a" 'char) ; error: Can't coerce
(on-err details (fn () (coerce 'a 'int))) ; expect: "Can't coerce 'a 'int"
((fn () (coerce (annotate 'foo 1) 'int))) ; error: Can't coerce annotated object
(1 2) ; error: Function call on inappropriate object
('a 0) ; error: Function call on inappropriate object
(#\a 0) ; error: Function call on inappropriate object
((annotate 'mac (fn () 1))) ; error: Function call on inappropriate object
(coerce (expt 2 100) 'string 16) ; expect: "10000000000000000000000000"
(coerce "-ff" 'int 16) ; expect: -255
(coerce "7/2" 'int) ; expect: 4
(coerce 0.5 'int) ; expect: 0
(coerce 1.5 'int) ; expect: 2
(coerce -1/2 'int) ; expect: 0
(coerce 65.0 'char) ; expect: #\A
(coerce "" 'string) ; expect: ""
(coerce '() 'string) ; expect: ""
