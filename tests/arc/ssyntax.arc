; Symbol syntax (docs/LANGUAGE.md 2.10): ssexpand on every row of the table, the
; ssyntax predicate (4.5), and evaluated uses.
(load "lib/base.arc")

; --- the reader leaves the symbol intact ---
'a.b ; expect: a.b
(type 'a.b) ; expect: sym
'(f:g ~h a&b x!y) ; expect: (f:g ~h a&b x!y)

; --- ssexpand: one step, every row of the table ---
(ssexpand 'a.b) ; expect: (a b)
(ssexpand 'a!b) ; expect: (a (quote b))
(ssexpand 'a.b.c) ; expect: ((a b) c)
(ssexpand 'a!b.c) ; expect: ((a (quote b)) c)
(ssexpand '.a) ; expect: (get a)
(ssexpand '!a) ; expect: (get (quote a))
(ssexpand '~f) ; expect: (complement f)
(ssexpand 'f:g) ; expect: (compose f g)
(ssexpand 'f:g:h) ; expect: (compose f g h)
(ssexpand '~f:g) ; expect: (compose (complement f) g)
(ssexpand 'f:~g) ; expect: (compose f (complement g))
(ssexpand 'a&b&c) ; expect: (andf a b c)
(ssexpand 'f:a.b) ; expect: (compose f a.b)
(ssexpand 'a.b:c) ; expect: (compose a.b c)
(ssexpand 'a&b:c) ; expect: (compose a&b c)
(ssexpand 'a&b.c) ; expect: (a&b c)
(ssexpand '~a&b) ; expect: (complement a&b)
(ssexpand ':a) ; expect: a
(ssexpand 'a:) ; expect: a
(ssexpand 'a.) ; error: Bad ssyntax
(ssexpand 'a..b) ; error: Bad ssyntax
; more cases from the rules
(ssexpand 'a.b!c) ; expect: ((a b) (quote c))
(ssexpand 'a&b) ; expect: (andf a b)
(ssexpand 'x.1) ; expect: (x 1)
(ssexpand 'x.-1) ; expect: (x -1)
(ssexpand 'a:b.c) ; expect: (compose a b.c)
(ssexpand '~a:b) ; expect: (compose (complement a) b)
(ssexpand '~) ; expect: no
(ssexpand 'f:~) ; expect: (compose f no)
(ssexpand 'a::b) ; expect: (compose a b)
(ssexpand 'a.b&c) ; expect: (a b&c)
(ssexpand '.a.b) ; expect: ((get a) b)
(ssexpand '!a.b) ; expect: ((get (quote a)) b)
(ssexpand 'a!) ; error: Bad ssyntax
(ssexpand 'a.!b) ; error: Bad ssyntax
(ssexpand '...) ; error: Bad ssyntax
; non-symbols are returned unchanged
(ssexpand 5) ; expect: 5
(ssexpand "a.b") ; expect: "a.b"
(ssexpand '(a.b)) ; expect: (a.b)

; --- the ssyntax predicate ---
(ssyntax 'a.b) ; expect: t
(ssyntax 'a!b) ; expect: t
(ssyntax 'f:g) ; expect: t
(ssyntax '~f) ; expect: t
(ssyntax 'a&b) ; expect: t
(ssyntax '...) ; expect: t
(ssyntax 'a.) ; expect: t
(ssyntax 'ab) ; expect: nil
(ssyntax 'a-b) ; expect: nil
(ssyntax "a.b") ; expect: nil
(ssyntax 5) ; expect: nil

; --- evaluated: . and ! ---
(assign xs '(10 20 30))
xs.1 ; expect: 20
xs.0 ; expect: 10
(assign h (table))
(sref h 1 'x)
h!x ; expect: 1
(let h2 h h2!x) ; expect: 1
(let ys '(a b c) ys.2) ; expect: c
(assign lst '((a b) (c d)))
lst.1.0 ; expect: c
(assign hh (table))
(sref hh '(1 2 3) 'k)
hh!k.1 ; expect: 2
(assign tlist (list hh))
tlist.0!k ; expect: (1 2 3)
(list xs.2 h!x) ; expect: (30 1)
; in operator position
(assign fns (table))
(sref fns car 'first)
(fns!first '(1 2)) ; expect: 1
(assign fl (list car cdr))
(fl.1 '(1 2 3)) ; expect: (2 3)
(on-err (fn (e) 'caught) (fn () xs.5)) ; expect: caught
(on-err (fn (e) 'caught) (fn () xs.-1)) ; expect: caught
; .a and !a are (get a) and (get 'a)
(assign idx 2)
(.idx '(a b c)) ; expect: c
(!x h) ; expect: 1
(map1 .idx '((1 2 3) (4 5 6))) ; expect: (3 6)
(map1 !x (list h h)) ; expect: (1 1)

; --- evaluated: ~ (complement) ---
(~no nil) ; expect: nil
(~no 5) ; expect: t
(~is 1 2) ; expect: t
(~is 1 1) ; expect: nil
(~ nil) ; expect: t
(map1 ~no '(1 nil)) ; expect: (t nil)
((complement no) 7) ; expect: t

; --- evaluated: : (compose) ---
(car:cdr '(1 2 3)) ; expect: 2
(car:cdr:cdr '(1 2 3)) ; expect: 3
(list:+ 1 2) ; expect: (3)
(:car '(1 2)) ; expect: 1
(assign a-val 3)
:a-val ; expect: 3
a-val: ; expect: 3
((compose) 5) ; expect: 5
((compose car) '(1 2)) ; expect: 1
; a rewrite, so the composed operators may be macros
(mac mylist2 args `(list ,@args))
(mylist2:car '(1 2)) ; expect: (1)
(car:mylist2 'a 'b) ; expect: a
; value position: compose is then a closure
(assign cadr-fn car:cdr)
(cadr-fn '(1 2 3)) ; expect: 2
(map1 car:cdr '((1 2) (3 4))) ; expect: (2 4)
(apply list:+ '(1 2 3)) ; expect: (6)
; ~ applies to a whole :-segment
(~no:car '(nil 1)) ; expect: nil
(~no:car '(1 2)) ; expect: t
(list:~no 5) ; expect: (t)
(list:~no nil) ; expect: (nil)

; --- evaluated: & (andf) ---
(def pos-num (x) (> x 0))
(def small-num (x) (< x 10))
(pos-num&small-num 5) ; expect: t
(pos-num&small-num 50) ; expect: nil
(pos-num&small-num -1) ; expect: nil
(<&is 1 2) ; expect: nil
(<&< 1 2) ; expect: t
; the arguments are evaluated once
(assign cnt 0)
(pos-num&small-num (do (assign cnt (+ cnt 1)) 5)) ; expect: t
cnt ; expect: 1
(map1 pos-num&small-num '(-1 5 50)) ; expect: (nil t nil)

; --- evaluated: combinations (rows of the table) ---
(assign v 5)
pos-num&small-num.v ; expect: t
(car:fl.1 '(1 2 3)) ; expect: 2
(fl.0:cdr '(1 2 3)) ; expect: 2
(pos-num&small-num:car '(5 100)) ; expect: t
(pos-num&small-num:car '(50)) ; expect: nil
(~pos-num&small-num 5) ; expect: nil
(~pos-num&small-num 50) ; expect: t

; --- Bad ssyntax when evaluated ---
xs. ; error: Bad ssyntax
xs..1 ; error: Bad ssyntax
(xs.!a) ; error: Bad ssyntax
(on-err details (fn () (eval 'xs..1))) ; expect: "Bad ssyntax 'xs..1"
; --- Names past ASCII: the ssyntax characters are found in wide and Latin-1 names ---
(ssexpand 'αβ:car) ; expect: (compose αβ car)
(ssexpand 'café.x) ; expect: (café x)
(ssexpand 'café) ; expect: café
(ssexpand 'αβγ) ; expect: αβγ
