; is, < and >: docs/LANGUAGE.md 1.4, 4.2, 7.2.
(assign list (fn args args))
(assign caught (fn (thunk) (on-err (fn (e) 'caught) thunk)))

; is: arity
(is) ; expect: t
(is 1) ; expect: t
(is 'a) ; expect: t
(is nil) ; expect: t
(is 1 1 1) ; expect: t
(is 1 1 2) ; expect: nil
(is 2 1 1) ; expect: nil

; is: symbols, nil
(is 'a 'a) ; expect: t
(is 'a 'b) ; expect: nil
(is nil '()) ; expect: t
(is nil 'nil) ; expect: t
(is t 't) ; expect: t
(is 'a "a") ; expect: nil
(is "a" 'a) ; expect: nil
(is nil "") ; expect: nil

; is: strings by content
(is "ab" "ab") ; expect: t
(is "" "") ; expect: t
(is "ab" "abc") ; expect: nil
(is "a" "A") ; expect: nil
(is (newstring 2 #\a) "aa") ; expect: t
(is "aa" (newstring 2 #\a) "aa") ; expect: t
(is "λx" "λx") ; expect: t

; is: characters
(is #\a #\a) ; expect: t
(is #\a #\b) ; expect: nil
(is #\a "a") ; expect: nil
(is #\a 97) ; expect: nil
(is #\space #\ ) ; expect: t

; is: numbers by value and exactness
(is 1 1) ; expect: t
(is 1 1.0) ; expect: nil
(is 1.0 1) ; expect: nil
(is 2.0 2.0) ; expect: t
(is 1/2 1/2) ; expect: t
(is 1/2 2/4) ; expect: t
(is 1/2 0.5) ; expect: nil
(is 0 -0) ; expect: t
(is (expt 2 100) (* (expt 2 50) (expt 2 50))) ; expect: t
(is (expt 2 100) 1267650600228229401496703205376) ; expect: t
(is (expt 2 100) (+ (expt 2 100) 1)) ; expect: nil
(is (* 99999999999 99999999999) 9999999999800000000001) ; expect: t
(is 1 'a) ; expect: nil
(is 1 "1") ; expect: nil

; is: conses, tables and functions by identity
(is (list 1) (list 1)) ; expect: nil
(is '(1) '(1)) ; expect: nil
((fn (x) (is x x)) (list 1 2)) ; expect: t
((fn (x) (is x (cdr (cons 0 x)))) (list 1 2)) ; expect: t
(is (table) (table)) ; expect: nil
((fn (h) (is h h)) (table)) ; expect: t
(is car car) ; expect: t
(is car cdr) ; expect: nil
((fn (f) (is f f)) (fn () 1)) ; expect: t
((fn (f g) (is f g)) (fn () 1) (fn () 1)) ; expect: nil

; <, > : arity
(<) ; expect: t
(< 5) ; expect: t
(< 'a) ; expect: t
(>) ; expect: t
(> 5) ; expect: t

; numbers
(< 1 2) ; expect: t
(< 2 1) ; expect: nil
(< 1 1) ; expect: nil
(< 1 2 3) ; expect: t
(< 1 3 2) ; expect: nil
(< 1 2 2) ; expect: nil
(> 3 2 1) ; expect: t
(> 3 1 2) ; expect: nil
(> 1 1) ; expect: nil
(< -5 -2) ; expect: t
(< 1 1.5) ; expect: t
(> 2.0 1) ; expect: t
(< 1 1.0) ; expect: nil
(> 1 1.0) ; expect: nil
(< 1/3 1/2) ; expect: t
(< 1/3 0.5) ; expect: t
(> 1/3 0.3) ; expect: t
(< (expt 2 100) (expt 2 101)) ; expect: t
(< 5 (expt 2 100)) ; expect: t
(< (- (expt 2 100)) -5) ; expect: t
(> (- (expt 2 100)) 0) ; expect: nil
(< 1.5 (expt 2 70)) ; expect: t
(< 1 +inf.0) ; expect: t
(> -inf.0 -1) ; expect: nil

; strings lexicographically by code point
(< "a" "b") ; expect: t
(< "b" "a") ; expect: nil
(< "B" "a") ; expect: t
(< "abc" "abd") ; expect: t
(< "ab" "abc") ; expect: t
(< "abc" "ab") ; expect: nil
(< "" "a") ; expect: t
(< "a" "a") ; expect: nil
(> "b" "a") ; expect: t
(< "a" "b" "c") ; expect: t
(< "z" "é") ; expect: t

; symbols by name
(< 'a 'b) ; expect: t
(< 'B 'a) ; expect: t
(< 'abc 'abd) ; expect: t
(> 'b 'a) ; expect: t
(< 'a 'a) ; expect: nil

; characters by code point
(< #\a #\b) ; expect: t
(< #\A #\a) ; expect: t
(> #\b #\a) ; expect: t
(< #\a #\λ) ; expect: t
(< #\a #\a) ; expect: nil

; mixing types errors
(caught (fn () (< 'a "b"))) ; expect: caught
(caught (fn () (< 1 'a))) ; expect: caught
(caught (fn () (< 1 "a"))) ; expect: caught
(caught (fn () (> "a" #\a))) ; expect: caught
(caught (fn () (< #\a 1))) ; expect: caught

; is of two heap objects in a function's locals (the interpreter's fast
; path decides by identity unless the first is a string or a boxed
; number): symbols, conses and tables by identity, strings, bignums, heap
; flonums and rationals still by value, in either order.
(assign is-pairs (fn (x y) (list (is x y) (is y x) ((fn (a) (is a y)) x))))
(is-pairs 'comment 'comment) ; expect: (t t t)
(is-pairs 'comment 'story) ; expect: (nil nil nil)
(is-pairs 'a "a") ; expect: (nil nil nil)
(is-pairs (table) (table)) ; expect: (nil nil nil)
(is-pairs "ab" (+ "a" "b")) ; expect: (t t t)
(is-pairs (expt 2 100) (* (expt 2 50) (expt 2 50))) ; expect: (t t t)
(is-pairs (expt 2.0 128) (/ (expt 2.0 129) 2.0)) ; expect: (t t t)
(is-pairs 1/3 (/ 2 6)) ; expect: (t t t)
(is-pairs 'a (expt 2 100)) ; expect: (nil nil nil)
(is-pairs (list 1) (list 1)) ; expect: (nil nil nil)
