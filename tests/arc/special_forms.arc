; The five special forms of docs/LANGUAGE.md 3.1-3.6 (quote, quasiquote, if, fn,
; assign), variable reference, and proper tail calls (3.7).
(load "lib/base.arc")

; --- quote (3.2, 1.3) ---
(quote a) ; expect: a
'a ; expect: a
'(1 . 2) ; expect: (1 . 2)
'(1 2 . 3) ; expect: (1 2 . 3)
''a ; expect: (quote a)
'`(a ,b ,@c) ; expect: (quasiquote (a (unquote b) (unquote-splicing c)))
'() ; expect: nil
(is nil '()) ; expect: t
'(nil) ; expect: (nil)
'(a (b (c))) ; expect: (a (b (c)))
(quote (+ 1 2)) ; expect: (+ 1 2)
; quoted structure is shared and mutable: mutating it changes what later
; evaluations of the same expression return.
(def quoted-list () '(1 2 3))
(let x (quoted-list) (list x (is x (quoted-list)))) ; expect: ((1 2 3) t)
(scar (quoted-list) 99) ; expect: 99
(quoted-list) ; expect: (99 2 3)
(scdr (cdr (quoted-list)) '(4 5))
(quoted-list) ; expect: (99 2 4 5)
; quote is recognized by name even when a local is called quote (7.6 #36)
((fn (quote) (quote x)) 5) ; expect: x

; --- quasiquote (3.3) ---
`x ; expect: x
`(1 2) ; expect: (1 2)
`,(+ 1 2) ; expect: 3
(let x 1 `(a ,x ,@(list 2 3) b)) ; expect: (a 1 2 3 b)
`(1 ,@nil 2) ; expect: (1 2)
; a splice copies its list, last or not (Arc 3.1's do)
(let l (list 1 2) (scar (cdr `(0 ,@l)) 'x) l) ; expect: (1 2)
(let l (list 1 2) (scar `(,@l) 'x) l) ; expect: (1 2)
(let l (list 1 2) (scar (cdr `(0 ,@l 3)) 'x) l) ; expect: (1 2)
(let l (list 1 2) (list `(0 ,@l) `(,@l) `(,@l ,@l))) ; expect: ((0 1 2) (1 2) (1 2 1 2))
; a dotted tail is the list itself, not a splice
(let l (list 1 2) (scar (cdr `(0 . ,l)) 'x) l) ; expect: (x 2)
`(,@nil) ; expect: nil
`(1 ,@nil) ; expect: (1)
(let xs '(b c) `(a ,@xs)) ; expect: (a b c)
(let xs '(1 2) `(,@xs ,@xs)) ; expect: (1 2 1 2)
`(a ,(list 'b 'c)) ; expect: (a (b c))
(let x 1 `(a ',x)) ; expect: (a (quote 1))
(let x 5 `(a . ,x)) ; expect: (a . 5)
(let x '(2 3) `(1 . ,x)) ; expect: (1 2 3)
`(1 (2 . ,(+ 1 2))) ; expect: (1 (2 . 3))
`(1 (,(+ 1 1) (,(+ 1 2)))) ; expect: (1 (2 (3)))
; nesting: only expressions reaching depth 0 are evaluated
`(a `(b ,(c ,(+ 1 2)))) ; expect: (a (quasiquote (b (unquote (c 3)))))
`(a `(b ,(c d))) ; expect: (a (quasiquote (b (unquote (c d)))))
(let x 'y `(a `(b ,,x))) ; expect: (a (quasiquote (b (unquote y))))
; unquote-splicing inside a nested quasiquote goes out a level too, as
; Racket's quasiquote (Arc 3.1's) takes it: macro-defining macros use ,@,x
(let x '(1 2) `(a `(b ,@,x))) ; expect: (a (quasiquote (b (unquote-splicing (1 2)))))
(let x '(1 2) `(a `(b ,,@x))) ; expect: (a (quasiquote (b (unquote 1 2))))
(let x '(p q) `(a `(b ,,x ,@,x))) ; expect: (a (quasiquote (b (unquote (p q)) (unquote-splicing (p q)))))
(let x 'y `(a `(b ,@(c ,x)))) ; expect: (a (quasiquote (b (unquote-splicing (c y)))))
(let x 'y `(a `(b `(c ,@,,x)))) ; expect: (a (quasiquote (b (quasiquote (c (unquote-splicing (unquote y)))))))
(do (mac defconst-list (name vals) `(mac ,name () `(list ,@',vals))) 1) ; expect: 1
(do (defconst-list three (1 2 3)) 1) ; expect: 1
(three) ; expect: (1 2 3)
; splicing copies: the spliced list is not modified
(let xs (list 1 2) (let ys `(,@xs 3) (list xs ys))) ; expect: ((1 2) (1 2 3))
; a quasiquote with an unquote builds fresh structure each time
(def qq (v) `(v ,v))
(list (qq 1) (qq 2)) ; expect: ((v 1) (v 2))

; --- if (3.4) ---
(if) ; expect: nil
(if 5) ; expect: 5
(if nil) ; expect: nil
(if t 'a) ; expect: a
(if nil 'a) ; expect: nil
(if nil 1 nil 2 3) ; expect: 3
(if nil 1 nil 2) ; expect: nil
(if nil 1 t 2 3) ; expect: 2
(if 0 'yes 'no) ; expect: yes
(if "" 'yes 'no) ; expect: yes
(if '() 'yes 'no) ; expect: no
(if nil 1 nil 2 nil 3 nil 4 'x 5 6) ; expect: 5
(if nil 1 nil 2 nil 3 nil 4 nil 5 6) ; expect: 6
; tests in order, only the chosen branch runs
(if (disp "a") 1 (do (disp "b") t) 2 (disp "c"))
; expect: 2
; prints: ab
(if (disp "a") (disp "x") (disp "b") (disp "y") (disp "z"))
; prints: abz
; an and (an if with no else) as a test: each part in order, the first
; false one choosing the else branch, the parts after it not run; as a
; value, the last part's
(map (fn ((a b c)) (if (and a b c) 'then 'else)) '((1 2 3) (nil 2 3) (1 nil 3) (1 2 nil) (nil nil nil))) ; expect: (then else else else else)
(if (and (disp "a") nil (disp "b")) 1 2)
; expect: 2
; prints: a
(if (if (disp "a") (disp "b")) (disp "x") (disp "y"))
; prints: ay
(if (if (do (disp "a") t) (do (disp "b") t)) (disp "x") (disp "y"))
; prints: abx
(let x 5 (if (and (> x 1) (< x 10) (is (mod x 5) 0)) 'yes 'no)) ; expect: yes
(let x 12 (if (and (> x 1) (< x 10)) 'yes 'no)) ; expect: no
(list (and 1 2 3) (and 1 nil 3) (let x 4 (when (and x (> x 3)) (+ x 1)))) ; expect: (3 nil 5)
(let i 0 (while (and (< i 10) (no (is i 7))) (++ i)) i) ; expect: 7
; if is recognized by name even when a local is called if (7.6 #36)
((fn (if) (if nil 1 2)) 5) ; expect: 2

; --- fn: simple parameter lists (3.5) ---
((fn () 1)) ; expect: 1
((fn ())) ; expect: nil
((fn nil 3)) ; expect: 3
((fn (x) 1 2 x) 3) ; expect: 3
((fn args args)) ; expect: nil
((fn args args) 1 2 3) ; expect: (1 2 3)
((fn (a b c) (list a b c)) 1 2 3) ; expect: (1 2 3)
((fn (a b . rest) (list a b rest)) 1 2) ; expect: (1 2 nil)
((fn (a b . rest) (list a b rest)) 1 2 3 4) ; expect: (1 2 (3 4))
((fn (t) t) 5) ; expect: 5
; simple lists check arity
(on-err (fn (e) 'caught) (fn () ((fn (a b) a) 1))) ; expect: caught
(on-err (fn (e) 'caught) (fn () ((fn (a b) a) 1 2 3))) ; expect: caught
(on-err (fn (e) 'caught) (fn () ((fn () 1) 1))) ; expect: caught
(on-err (fn (e) 'caught) (fn () ((fn (a b . r) a) 1))) ; expect: caught

; --- fn: complex parameter lists (3.5, 7.5) ---
((fn (a (o b)) (list a b)) 1) ; expect: (1 nil)
((fn (a (o b 2)) (list a b)) 1) ; expect: (1 2)
((fn (a (o b 2)) (list a b)) 1 nil) ; expect: (1 nil)
((fn (a (o b 2)) (list a b)) 1 3) ; expect: (1 3)
((fn (a (o b a)) (list a b)) 1) ; expect: (1 1)
((fn (a (o b (+ a 1)) (o c (+ b 1))) (list a b c)) 1) ; expect: (1 2 3)
((fn (a (o b (+ a 1)) (o c (+ b 1))) (list a b c)) 1 10) ; expect: (1 10 11)
((fn ((o x)) x)) ; expect: nil
; a list starting with o is always an optional spec (7.5 #28)
((fn ((o x)) x) '(1 2)) ; expect: (1 2)
; extra arguments are ignored without a rest parameter
((fn (a (o b 2)) (list a b)) 1 2 3) ; expect: (1 2)
((fn (a (o b)) a) 1 2 3) ; expect: 1
((fn ((a b)) (list a b)) '(1 2) 'extra) ; expect: (1 2)
((fn (a (o b 5) . r) (list a b r)) 1) ; expect: (1 5 nil)
((fn (a (o b 5) . r) (list a b r)) 1 2 3 4) ; expect: (1 2 (3 4))
; defaults run only when the argument is absent, at each call
(assign n 0)
((fn ((o x (assign n (+ n 1)))) x) 5) ; expect: 5
n ; expect: 0
(def count-default ((o x (assign n (+ n 1)))) x)
(count-default) ; expect: 1
(count-default) ; expect: 2
(count-default nil) ; expect: nil
n ; expect: 2
; destructuring
((fn ((a b)) (list a b)) '(1)) ; expect: (1 nil)
((fn ((a b)) (list a b)) '(1 2 3)) ; expect: (1 2)
((fn ((a b)) (list a b)) nil) ; expect: (nil nil)
((fn ((a (o b 5))) (list a b)) '(1)) ; expect: (1 5)
((fn ((a (o b 5))) (list a b)) '(1 2)) ; expect: (1 2)
((fn ((a . b)) (list a b)) '(1 2 3)) ; expect: (1 (2 3))
((fn (a (b c)) (list a b c)) 1 nil) ; expect: (1 nil nil)
((fn ((a (b c)) d) (list a b c d)) '(1 (2 3)) 4) ; expect: (1 2 3 4)
((fn ((a (b c))) (list a b c)) '(1 (2))) ; expect: (1 2 nil)
((fn (x (a b) (o y (list x a b))) y) 1 '(2 3)) ; expect: (1 2 3)
(on-err (fn (e) 'caught) (fn () ((fn ((a b)) a) 5))) ; expect: caught
(on-err (fn (e) 'caught) (fn () ((fn (x (a b)) a) 1 5))) ; expect: caught
; a missing top-level required argument is an error
(on-err (fn (e) 'caught) (fn () ((fn (a (o b)) a)))) ; expect: caught
(on-err (fn (e) 'caught) (fn () ((fn ((a b) c) c) '(1)))) ; expect: caught
; duplicate parameter names are an error
(on-err (fn (e) 'caught) (fn () ((eval '(fn (a a) a)) 1 2))) ; expect: caught
(on-err (fn (e) 'caught) (fn () ((eval '(fn (a . a) a)) 1 2))) ; expect: caught
(on-err (fn (e) 'caught) (fn () ((eval '(fn (a (o a)) a)) 1 2))) ; expect: caught
(on-err (fn (e) 'caught) (fn () ((eval '(fn (a (b a)) a)) 1 '(2 3)))) ; expect: caught

; --- assign (3.6) ---
(assign g1 10) ; expect: 10
g1 ; expect: 10
(assign g2 1 g3 'two) ; expect: two
(list g2 g3) ; expect: (1 two)
(assign g4 1 g4 (+ g4 1)) ; expect: 2
(assign lx 100)
((fn (lx) (assign lx 5) lx) 1) ; expect: 5
lx ; expect: 100
((fn () (assign fresh-global 7)) ) ; expect: 7
fresh-global ; expect: 7
; def/assign inside a let assigns the lexical variable (7.5 #30)
(let foo30 1 (def foo30 () 2) (foo30)) ; expect: 2
(bound 'foo30) ; expect: nil
; the target is macro-expanded first
(mac target-mac () 'via-mac-target)
(assign (target-mac) 42) ; expect: 42
via-mac-target ; expect: 42
(on-err (fn (e) 'caught) (fn () (eval '(assign (car x) 1)))) ; expect: caught
(assign nil 1) ; error: Can't rebind nil
(assign t 1) ; error: Can't rebind t
((fn () (assign nil 5))) ; error: Can't rebind nil
(assign g5 1 t 2) ; error: Can't rebind t
t ; expect: t
nil ; expect: nil
; a function assigned to a global takes that name for printing (3.6, 1.8)
(assign named-fn (fn (x) x)) ; expect: #<procedure: named-fn>
(fn (x) x) ; expect: #<procedure>

; --- closures capture variables by reference (3.5, 7.5 #29) ---
(def make-counter ()
  (let n 0
    (list (fn () (assign n (+ n 1))) (fn () n))))
(assign ctr (make-counter))
((car ctr)) ; expect: 1
((car ctr)) ; expect: 2
((cadr ctr)) ; expect: 2
(assign ctr2 (make-counter))
((car ctr2)) ; expect: 1
((cadr ctr)) ; expect: 2
(let x 1 (let f (fn () x) (assign x 2) (f))) ; expect: 2
(let x 1 (let f (fn (v) (assign x v)) (f 3) x)) ; expect: 3

; --- variable reference (3.1, 7.5 #31) ---
undefined-var-xyz ; error: undefined-var-xyz
(undefined-fn-qqq 1) ; error: undefined-fn-qqq
(on-err (fn (e) 'caught) (fn () never-defined-var)) ; expect: caught
(def uses-later () later-var)
(assign later-var 9)
(uses-later) ; expect: 9

; --- tail calls run in constant space (3.7) ---
; (%scale n), from lib/base.arc, is n normally and 10000 under --gc-stress.
(def tail-loop (n acc) (if (is n 0) acc (tail-loop (- n 1) (+ acc 1))))
(let n (%scale 1000000) (let v (tail-loop n 0) (if (is v n) 'n v))) ; expect: n
; through the branches of a many-armed if, do and let
(def tail-loop2 (n)
  (if (is n 0) 'done
      (is n -1) 'never
      (do (assign n (- n 1))
          (let m n (tail-loop2 m)))))
(tail-loop2 (%scale 1000000)) ; expect: done
; mutual recursion
(def even-loop (n) (if (is n 0) t (odd-loop (- n 1))))
(def odd-loop (n) (if (is n 0) nil (even-loop (- n 1))))
(even-loop (+ (%scale 1000000) 1)) ; expect: nil
(even-loop (%scale 1000000)) ; expect: t
; a tail call through apply
(def tail-apply (n) (if (is n 0) 'ok (apply tail-apply (list (- n 1)))))
(tail-apply (%scale 1000000)) ; expect: ok
; long enough to overflow the 512 MiB VM stack if frames were kept
(let n (%scale 50000000) (let v (tail-loop n 0) (if (is v n) 'n v))) ; expect: n
