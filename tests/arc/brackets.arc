; Square brackets (docs/LANGUAGE.md 2.9): [ e1 e2 ... ] reads as (fn (_) (e1 e2 ...)).
(load "lib/base.arc")

; --- the examples of 2.9 ---
([+ _ 1] 5) ; expect: 6
(map [* _ _] '(1 2 3)) ; expect: (1 4 9)
'[car _] ; expect: (fn (_) (car _))
([_] (fn () 7)) ; expect: 7
([] 1) ; expect: nil

; --- how they read ---
'[+ _ 1] ; expect: (fn (_) (+ _ 1))
'[a b c] ; expect: (fn (_) (a b c))
'[_] ; expect: (fn (_) (_))
'[] ; expect: (fn (_) nil)
'[[_]] ; expect: (fn (_) ((fn (_) (_))))
'['x] ; expect: (fn (_) ((quote x)))
'[ + _   1 ] ; expect: (fn (_) (+ _ 1))
'[car
  _] ; expect: (fn (_) (car _))
'(a [b _] c) ; expect: (a (fn (_) (b _)) c)
(car '[f _]) ; expect: fn
(cadr '[f _]) ; expect: (_)

; --- as functions ---
(type [_]) ; expect: fn
([car _] '(1 2)) ; expect: 1
([list _] 'a) ; expect: (a)
([list _ _] 'a) ; expect: (a a)
([_ 1] '(a b)) ; expect: b
([list _.1] '(a b)) ; expect: (b)
(map [cons _ nil] '(1 2)) ; expect: ((1) (2))
(map1 [if _ 'yes 'no] '(1 nil)) ; expect: (yes no)
(let n 10 ([+ _ n] 1)) ; expect: 11
(let f [+ _ 100] (list (f 1) (f 2))) ; expect: (101 102)
(([fn () _] 3)) ; expect: 3
(apply [list _] '(z)) ; expect: (z)
; exactly one argument
(on-err (fn (e) 'caught) (fn () ([+ _ 1]))) ; expect: caught
(on-err (fn (e) 'caught) (fn () ([+ _ 1] 1 2))) ; expect: caught
([] nil) ; expect: nil

; --- nested brackets each bind their own _ ---
([list _ ([+ _ 100] 1)] 5) ; expect: (5 101)
([map [+ _ 1] _] '(1 2)) ; expect: (2 3)
(([fn (x) (list _ x)] 'outer) 'arg) ; expect: (outer arg)
((([list _ [list _]] 1) 1) 2) ; expect: (2)
(type (([list _ [list _]] 1) 1)) ; expect: fn
(([list _ [list _]] 1) 0) ; expect: 1
