; Corners where Arcana answers as Arc 3.1 does, or makes a documented choice:
; error texts (docs/LANGUAGE.md 3.1, 4.13), nil as a parameter (3.5), numbers
; in a radix (2.6, 4.7), string literals (1.6), atstrings (3.11), character
; constants (2.5), mod and even/odd on floats, sqrt of a negative (1.4, 4.3).
(assign caught (fn (thunk) (on-err (fn (e) 'caught) thunk)))

; --- error texts programs match on (4.13) ---
(on-err details (fn () (/ 1 0))) ; expect: "/: division by zero"
(on-err details (fn () (/ 1.5 0))) ; expect: "/: division by zero"
(on-err details (fn () (/ 0))) ; expect: "/: division by zero"
(on-err details (fn () (car 5))) ; expect: "Can't take car of 5"
(on-err details (fn () (cdr 'x))) ; expect: "Can't take cdr of 'x"
(on-err details (fn () unbound-arc31-var)) ; expect: "reference to undefined identifier: _unbound-arc31-var"
(on-err details (fn () (unbound-arc31-fn 1))) ; expect: "reference to undefined identifier: _unbound-arc31-fn"

; --- nil as a parameter binds nothing (3.5) ---
((fn (nil) nil) 3) ; expect: nil
((fn (a nil b) (list a b)) 1 2 3) ; expect: (1 3)
((fn (nil nil) 'ok) 1 2) ; expect: ok
((fn (nil . rest) rest) 1 2 3) ; expect: (2 3)
(let nil 5 nil) ; expect: nil
(caught (fn () ((fn (nil) nil)))) ; expect: caught
(assign arc31-side nil)
((fn (a (o nil (assign arc31-side 'ran))) a) 1) ; expect: 1
arc31-side ; expect: ran
((fn (a (o nil)) a) 1 2) ; expect: 1
((fn ((a nil b)) (list a b)) '(1 2 3)) ; expect: (1 3)
((fn ((a (o nil 9) b)) (list a b)) '(1)) ; expect: (1 nil)
; a part nothing binds is not taken apart
((fn ((a nil)) a) '(1 . 5)) ; expect: 1
((fn ((nil)) 'ok) 5) ; expect: ok

; --- numbers in a radix, as Racket's string->number (2.6, 4.7) ---
(coerce "10.11" 'num 2) ; expect: 2.75
(coerce "10.11" 'int 2) ; expect: 3
(coerce "101E100" 'int 2) ; expect: 80
(coerce "10.11E1010" 'num 2) ; expect: 2816.0
(coerce "-1e-1" 'num 2) ; expect: -0.5
(coerce ".4" 'num 8) ; expect: 0.5
(coerce "1.8" 'num 16) ; expect: 1.5
(coerce "1e1" 'num 16) ; expect: 481
(coerce "ff" 'int 16) ; expect: 255
(caught (fn () (coerce "10.12" 'num 2))) ; expect: caught
(caught (fn () (coerce "1e" 'num 2))) ; expect: caught
#b10.11 ; expect: 2.75
#x1.8 ; expect: 1.5
#e#b10.11 ; expect: 11/4

; --- string literals: a fresh string at each evaluation (1.6) ---
(do (def arc31-lit () "abc") (= ((arc31-lit) 0) #\z) (arc31-lit)) ; expect: "abc"

; --- atstrings (3.11) ---
(declare 'atstrings t)
(assign arc31-x 5)
"a@@b @arc31-x" ; expect: "a@b 5"
"@@@arc31-x" ; expect: "@5"
"@(+ 1 1)@@" ; expect: "2@"
"ab@" ; expect: "ab@"
"@" ; expect: "@"
"a@@b" ; expect: "a@b"
"x is @arc31-x and @(+ arc31-x 1)" ; expect: "x is 5 and 6"
(declare 'atstrings nil)
"a@@b" ; expect: "a@@b"

; --- #\x and characters that run into a token (2.5) ---
#\x41 ; expect: #\A
'(#\x41) ; expect: (#\A)
(read "#\\x7e") ; expect: #\~
#\x ; expect: #\x
(on-err details (fn () (read "(a #\\x41g)"))) ; expect: "read: bad character constant: 'g' follows it at string:1:4"
(on-err details (fn () (read "#\\a1"))) ; expect: "read: bad character constant: '1' follows it at string:1:1"

; --- mod, even and odd on floats; sqrt of a negative (1.4, 4.3) ---
(mod 7.0 3) ; expect: 1.0
(mod -7.0 3) ; expect: 2.0
(mod 7 -3.0) ; expect: -2.0
(even 2.0) ; expect: nil
(odd 2.0) ; expect: t
(even 2) ; expect: t
(odd 3) ; expect: t
(caught (fn () (even 2.5))) ; expect: caught
(on-err details (fn () (mod 7 0.0))) ; expect: "mod: division by zero 7"
(on-err details (fn () (sqrt -1))) ; expect: "sqrt: negative argument -1"
