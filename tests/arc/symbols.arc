; Symbols: docs/LANGUAGE.md 1.1, 1.2, 2.7, 4.5, 4.7, 7.4.
(assign caught (fn (thunk) (on-err (fn (e) 'caught) thunk)))

; symbols are interned and case-sensitive
(type 'a) ; expect: sym
(is 'abc 'abc) ; expect: t
(is 'a 'A) ; expect: nil
'Foo ; expect: Foo
'a.b ; expect: a.b
(type 'a.b) ; expect: sym
'+-*/<>=?%$_ ; expect: +-*/<>=?%$_
(is 'abc (coerce "abc" 'sym)) ; expect: t
(type t) ; expect: sym
t ; expect: t
(is t 't) ; expect: t
(type nil) ; expect: sym
'nil ; expect: nil

; uniq: fresh symbols gsN
(type (uniq)) ; expect: sym
(is (uniq) (uniq)) ; expect: nil
((coerce (uniq) 'string) 0) ; expect: #\g
((coerce (uniq) 'string) 1) ; expect: #\s
(< 2 (len (coerce (uniq) 'string))) ; expect: t
((fn (g) (is g g)) (uniq)) ; expect: t
((fn (g) (bound g)) (uniq)) ; expect: nil

; bound
(bound 'car) ; expect: t
(bound 'cons) ; expect: t
(bound 'this-is-not-defined-anywhere) ; expect: nil
(bound 'sym-test-var) ; expect: nil
(assign sym-test-var 1)
(bound 'sym-test-var) ; expect: t
(assign sym-test-nil nil)
(bound 'sym-test-nil) ; expect: t
(bound 'bound) ; expect: t

; |...| symbols (1.2, 2.7)
'|a b| ; expect: |a b|
(type '|a b|) ; expect: sym
'|abc| ; expect: abc
(is '|abc| 'abc) ; expect: t
(is '|a b| (coerce "a b" 'sym)) ; expect: t
(coerce "a b" 'sym) ; expect: |a b|
(disp '|a b|) ; prints: a b
(write '|a b|) ; prints: |a b|
(disp 'abc) ; prints: abc
(write 'abc) ; prints: abc
'(x |a b| y) ; expect: (x |a b| y)
(disp '(x |a b| y)) ; prints: (x a b y)
(coerce '|a b| 'string) ; expect: "a b"
(len (coerce '|a b| 'string)) ; expect: 3
(coerce "a(b" 'sym) ; expect: |a(b|
(coerce "12" 'sym) ; expect: |12|
(type (coerce "12" 'sym)) ; expect: sym
(is (coerce "12" 'sym) 12) ; expect: nil
(disp (coerce "12" 'sym)) ; prints: 12

; coerce between strings and symbols (4.7, 7.4 #21)
(coerce 'abc 'string) ; expect: "abc"
(coerce "abc" 'sym) ; expect: abc
(coerce "nil" 'sym) ; expect: nil
(is (coerce "nil" 'sym) nil) ; expect: t
(is (coerce "nil" 'sym) '()) ; expect: t
(coerce nil 'string) ; expect: ""
(coerce 'a 'sym) ; expect: a
(coerce "λ" 'sym) ; expect: λ
(coerce 'λ 'string) ; expect: "λ"
(coerce (coerce "" 'sym) 'string) ; expect: ""
(coerce "Abc" 'sym) ; expect: Abc
(coerce #\a 'sym) ; expect: a
(coerce #\space 'sym) ; expect: | |
(coerce 't 'string) ; expect: "t"
(coerce 'a.b 'string) ; expect: "a.b"
(caught (fn () (coerce 1 'sym))) ; expect: caught
(caught (fn () (coerce 'abc 'cons))) ; expect: caught
(coerce 'abc 'cons) ; error: Can't coerce

; symbols compare by name with < (4.2)
(< 'abc 'abd) ; expect: t
(< 'b 'a) ; expect: nil

; %unintern (the server's fnids): out of the table, then a new name; never
; a symbol with a value, a primitive, or a non-symbol
(let s (sym "unintern-test-id")
  (list (is (%find-sym "unintern-test-id") s) (%unintern s) (%find-sym "unintern-test-id")
        (%unintern s) (is (sym "unintern-test-id") s) (is (sym "unintern-test-id") (sym "unintern-test-id"))))
; expect: (t t nil nil nil t)
(= unintern-bound* 1)
(list (%unintern 'unintern-bound*) (%unintern 'car) (%unintern 'if) (%unintern 3) (%unintern nil))
; expect: (nil nil nil nil nil)
unintern-bound* ; expect: 1
; holes are taken by new names, and every name finds its own symbol
(let ids (map [sym (string "uid-" _)] (range 1 50))
  (each s ids (%unintern s))
  (let fresh (map [sym (string "uid2-" _)] (range 1 50))
    (list (all [is (sym (string _)) _] fresh) (all [no (%find-sym (string _))] ids))))
; expect: (t t)
; a name's characters past ASCII survive the trip to UTF-8 and back
(list (string 'café) (len (string 'café)) (string 'ab→c) (len (string 'ab→c))) ; expect: ("café" 4 "ab→c" 4)
