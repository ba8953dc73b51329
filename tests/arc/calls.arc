; Calls (docs/LANGUAGE.md 3.7): functions, and calling lists, strings and tables;
; calling anything else; apply (4.1).
(load "lib/base.arc")

; --- functions ---
(car '(1 2)) ; expect: 1
((fn (x y) (+ x y)) 1 2) ; expect: 3
(((fn () list)) 1 2) ; expect: (1 2)
((car (list cdr)) '(1 2)) ; expect: (2)
(((fn (x) (fn (y) (list x y))) 1) 2) ; expect: (1 2)
; the operator is evaluated first, then the arguments left to right
(assign trace nil)
((do (assign trace (cons 'op trace)) list)
 (do (assign trace (cons 'a1 trace)) 1)
 (do (assign trace (cons 'a2 trace)) 2)) ; expect: (1 2)
trace ; expect: (a2 a1 op)

; --- lists: 0-based index ---
('(a b c) 0) ; expect: a
('(a b c) 1) ; expect: b
('(a b c) 2) ; expect: c
(let xs '(10 20 30) (xs 2)) ; expect: 30
('((a b) (c d)) 1) ; expect: (c d)
(('((a b) (c d)) 1) 0) ; expect: c
('(a b c) 1 2) ; expect: b
('(a b c) 1 'ignored 'too) ; expect: b
('(nil x) 0) ; expect: nil
(on-err (fn (e) 'caught) (fn () ('(a b c) 3))) ; expect: caught
(on-err (fn (e) 'caught) (fn () ('(a b c) 10))) ; expect: caught
(on-err (fn (e) 'caught) (fn () ('(a b c) -1))) ; expect: caught
(on-err (fn (e) 'caught) (fn () ('(a b c) 1.5))) ; expect: caught
(on-err (fn (e) 'caught) (fn () ('(a b c) 'x))) ; expect: caught
(on-err (fn (e) 'caught) (fn () ('(a b c)))) ; expect: caught

; --- strings ---
("abc" 0) ; expect: #\a
("abc" 2) ; expect: #\c
(let s "hello" (s 4)) ; expect: #\o
(type ("abc" 1)) ; expect: char
(on-err (fn (e) 'caught) (fn () ("abc" 3))) ; expect: caught
(on-err (fn (e) 'caught) (fn () ("abc" -1))) ; expect: caught
(on-err (fn (e) 'caught) (fn () ("" 0))) ; expect: caught
(on-err (fn (e) 'caught) (fn () ("abc" 'x))) ; expect: caught

; --- tables, with and without a default ---
(assign h (table))
(sref h 1 'a) ; expect: 1
(sref h '(x) "key") ; expect: (x)
(h 'a) ; expect: 1
(h 'z) ; expect: nil
(h 'z 5) ; expect: 5
(h 'a 5) ; expect: 1
(h "key") ; expect: (x)
(h (+ "k" "ey")) ; expect: (x)
; the default is an ordinary argument, evaluated even when unused
(assign n 0)
(h 'a (assign n (+ n 1))) ; expect: 1
n ; expect: 1
(sref h nil 'a) ; expect: nil
(h 'a) ; expect: nil
(h 'a 'gone) ; expect: gone
((table) 'anything) ; expect: nil
(let k (list 1 2) (sref h 'by-value k) (h (list 1 2))) ; expect: by-value

; --- anything else: "Function call on inappropriate object" ---
(5 1) ; error: Function call on inappropriate object
(5) ; error: Function call on inappropriate object
(1.5 0) ; error: Function call on inappropriate object
('a 1) ; error: Function call on inappropriate object
(let s 'sym (s)) ; error: Function call on inappropriate object
(#\a 0) ; error: Function call on inappropriate object
((annotate 'foo '(1 2)) 0) ; error: Function call on inappropriate object
((annotate 'foo car) '(1 2)) ; error: Function call on inappropriate object
((annotate 'mac (fn () 1))) ; error: Function call on inappropriate object
(let m (annotate 'mac (fn () 1)) (m)) ; error: Function call on inappropriate object
(t 1) ; error: Function call on inappropriate object
(on-err (fn (e) 'caught) (fn () ('x))) ; expect: caught

; --- apply ---
(apply + 1 2 '(3 4)) ; expect: 10
(apply list '(1 2)) ; expect: (1 2)
(apply list) ; expect: nil
(apply list nil) ; expect: nil
(apply list 1 2 nil) ; expect: (1 2)
(apply list 'a '(b (c))) ; expect: (a b (c))
(apply (fn args args) 'x nil) ; expect: (x)
(apply (fn (a (o b 9)) (list a b)) '(1)) ; expect: (1 9)
(apply (fn (a . r) (list a r)) 1 '(2 3)) ; expect: (1 (2 3))
(apply apply list '((1 2))) ; expect: (1 2)
(on-err (fn (e) 'caught) (fn () (apply (fn (a b) a) '(1)))) ; expect: caught
; apply dispatches like a call
(apply '(a b c) '(1)) ; expect: b
(apply '(a b c) 2 nil) ; expect: c
(apply "abc" '(0)) ; expect: #\a
(apply h '(z 7)) ; expect: 7
(apply h (list "key")) ; expect: (x)
(let h2 (table) (sref h2 1 'a) (apply h2 '(a))) ; expect: 1
(apply 5 '(1)) ; error: Function call on inappropriate object
(apply 'sym nil) ; error: Function call on inappropriate object
(apply (annotate 'mac (fn () 1)) nil) ; error: Function call on inappropriate object

; --- primitives with opcode fast paths, redefined ---
; Code compiled before the redefinition calls the new definition, for
; every operand (fixnums included); restoring the primitive restores it.
(def fp-add (a b) (+ a b))
(def fp-add3 (a b c) (+ a b c))
(def fp-inc (a) (+ a 1))
(def fp-small5 (a) (< a 5))
(def fp-zero (a) (is a 0))
(def fp-head (x) (car x))
(def fp-pair (a b) (cons a b))
(def fp-small (a b) (< a b))
(def fp-same (a b) (is a b))
(assign orig+ +)
(assign orig-car car)
(assign orig-cons cons)
(assign orig< <)
(assign orig-is is)
(assign + (fn args (list 'plus args)))
(assign car (fn (x) 'my-car))
(assign cons (fn (a b) (list 'kons a b)))
(assign < (fn (a b) 'lt))
(assign is (fn (a b) 'same))
(fp-add 1 2) ; expect: (plus (1 2))
(fp-add3 1 2 3) ; expect: (plus (1 2 3))
(fp-inc 7) ; expect: (plus (7 1))
(fp-small5 9) ; expect: lt
(fp-zero 0) ; expect: same
(fp-head '(1 2)) ; expect: my-car
(fp-pair 1 2) ; expect: (kons 1 2)
(fp-small 1 2) ; expect: lt
(fp-same 3 3) ; expect: same
(assign + orig+)
(assign car orig-car)
(assign cons orig-cons)
(assign < orig<)
(assign is orig-is)
(fp-add 1 2) ; expect: 3
(fp-add3 1 2 3) ; expect: 6
(fp-inc 7) ; expect: 8
(fp-small5 9) ; expect: nil
(fp-zero 0) ; expect: t
(fp-head '(1 2)) ; expect: 1
(fp-pair 1 2) ; expect: (1 . 2)
(fp-small 1 2) ; expect: t
(fp-same 3 3) ; expect: t
; The same for operands that are not locals (the local forms, CARL ADDIL
; and so on, are what the functions above compile to; these compile to
; the plain opcodes).
(def fp-add-e (a b) (+ (car a) (car b)))
(def fp-inc-e (a) (+ (car a) 1))
(def fp-zero-e (a) (is (car a) 0))
(def fp-small-e (a) (< (car a) (cadr a)))
(def fp-no-e (a) (no (car a)))
(assign orig-no no)
(assign + (fn args (list 'plus args)))
(assign is (fn (a b) 'same))
(assign < (fn (a b) 'lt))
(assign no (fn (x) 'nope))
(fp-add-e '(1) '(2)) ; expect: (plus (1 2))
(fp-inc-e '(7)) ; expect: (plus (7 1))
(fp-zero-e '(0)) ; expect: same
(fp-small-e '(1 2)) ; expect: lt
(fp-no-e '(nil)) ; expect: nope
(assign + orig+)
(assign is orig-is)
(assign < orig<)
(assign no orig-no)
(fp-add-e '(1) '(2)) ; expect: 3
(fp-inc-e '(7)) ; expect: 8
(fp-zero-e '(0)) ; expect: t
(fp-small-e '(1 2)) ; expect: t
(fp-no-e '(nil)) ; expect: t
; a primitive's global holding another builtin
(assign + -)
(fp-add 5 3) ; expect: 2
(assign + orig+)
(fp-add 5 3) ; expect: 8
