; Places and assignment (docs/LANGUAGE.md 5.9, 7.7): =, setter, defset, setforms,
; metafn, expand-metafn-call, expand=, expand=list and the place macros.

; --- = on variables: assign, lexical first ---
(macex '(= x 1)) ; expect: (assign x 1)
(= pl-a 1 pl-b 2) ; expect: 2
(list pl-a pl-b) ; expect: (1 2)
(let pl-lex 1 (= pl-lex 2) pl-lex) ; expect: 2
(bound 'pl-lex) ; expect: nil
(= nil 1) ; error: Can't rebind nil

; --- = on data places (the docs/LANGUAGE.md 5.9 examples) ---
(= xs (list 1 2 3)) ; expect: (1 2 3)
(= (car xs) 'a xs.1 'b) ; expect: b
xs ; expect: (a b 3)
(= h (table)) ; expect: #hash()
(= h!k 1) ; expect: 1
(++ (h 'n 0) 5) ; expect: 5
(list h!k h!n) ; expect: (1 5)
(= h!k nil) ; expect: nil
(list (len h) (h 'k 'gone)) ; expect: (1 gone)
(let x (list 1 2 3) (= (cadr x) 9) x) ; expect: (1 9 3)
(let h (table) (= h!a 1) (= h!a nil) (len h)) ; expect: 0
(let s (copy "abc") (= (s 1) #\X) s) ; expect: "aXc"
(let x (list 1 2) (= x.0 'z) x) ; expect: (z 2)
(let h (table) (= (h "k") 1) (h "k")) ; expect: 1
; = inside atomic: the non-symbol form expands into atomic-invoke
(car (macex '(= (car x) 1))) ; expect: atomic-invoke

; --- defset'd places: car cdr caar cadr cddr ---
(let x (list 1 2 3) (= (cdr x) (list 5)) x) ; expect: (1 5)
(let x (list (list 1 2) 3) (= (caar x) 'a) x) ; expect: ((a 2) 3)
(let x (list 1 2 3) (= (cddr x) nil) x) ; expect: (1 2)
(let x (list 1 2 3) (= (car x) 'q)) ; expect: q
(let x (list 1 2) (= car.x 7) x) ; expect: (7 2)

; --- ssyntax and composed places ---
(let x (list 1 2 3) (= (car:cdr x) 7) x) ; expect: (1 7 3)
(let x (list 1 2 3) (= ((compose car cdr) x) 8) x) ; expect: (1 8 3)
(let x (list 1 (list 2 3)) (= (car:cdr:cadr x) 'z) x) ; expect: (1 (2 z))
(let h (table) (= (!k h) 5) h!k) ; expect: 5
(let h (table) (= ((get 'k) h) 6) h!k) ; expect: 6
(let x (list 1 2) (= ((get 1) x) 'b) x) ; expect: (1 b)
(= (~car xs) 1) ; error: Can't invert
(= (no:car xs) 1) ; error: Can't invert
(= ((complement car) xs) 1) ; error: Can't invert

; --- macro places are expanded first ---
(mac pl-first (x) `(car ,x))
(let x (list 1 2) (= (pl-first x) 9) x) ; expect: (9 2)
(let x (list 1 2) (++ (pl-first x)) x) ; expect: (2 2)

; --- anything else indexes data: (sref obj val key) ---
(= (idfn xs) 1) ; error: Can't set reference
; reading uses the whole form, so a table default counts
(let h (table) (++ (h 'c 0)) (++ (h 'c 0)) (h 'c)) ; expect: 2
(let h (table) (++ h!k)) ; error: +
; container and index are evaluated exactly once
(with (n 0 h (table)) (++ ((do (++ n) h) 'k 0)) (list n h!k)) ; expect: (1 1)
(with (n 0 h (table)) (++ (h (do (++ n) 'k) 0) 3) (list n h!k)) ; expect: (1 3)
(with (n 0 x (list 1 2)) (push 0 (cdr (do (++ n) x))) (list n x)) ; expect: (1 (1 0 2))
; a literal fn in head position warns
(let s (tostring (errsafe (eval '(= ((fn (a) a) pl-a) 2)))) (cut s 0 51))
; expect: "Warning: Inverting what looks like a function call."

; --- setter, defset, setforms, metafn, expand-metafn-call, expand= ---
(isa setter 'table) ; expect: t
(map [isa (setter _) 'fn] '(car cdr caar cadr cddr)) ; expect: (t t t t t)
(setter 'caddr) ; expect: nil
(defset pl-third (x)
  (w/uniq g
    (list (list g x) `(car (cddr ,g)) `(fn (v) (scar (cddr ,g) v)))))
(let x (list 1 2 3) (= (pl-third x) 'c) x) ; expect: (1 2 c)
(let x (list 1 2 3) (++ (pl-third x) 10)) ; expect: 13
(let (binds getter setter) (setforms 'foo) (list (len binds) (cadr binds)))
; expect: (2 foo)
(let (binds getter setter) (setforms '(car x)) (list (cadr binds) (car getter) (car setter)))
; expect: (x car fn)
(len (setforms 'x.0)) ; expect: 3
(metafn 'a:b) ; expect: t
(metafn '(compose a b)) ; expect: t
(metafn '(complement a)) ; expect: t
(metafn 'car) ; expect: nil
(metafn '(car x)) ; expect: nil
(expand-metafn-call '(compose car cdr) '(x)) ; expect: (car (cdr x))
(expand-metafn-call '(compose (compose a b) c) '(x y)) ; expect: (a (b (c x y)))
(expand-metafn-call '(complement car) '(x)) ; error: Can't invert
(expand= 'x 1) ; expect: (assign x 1)
(expand=list '(x 1 y 2)) ; expect: (do (assign x 1) (assign y 2))
(car (expand= '(car x) 1)) ; expect: atomic

; --- wipe, set ---
(let (a b) (list 1 2) (wipe a b) (list a b)) ; expect: (nil nil)
(let (a b) (list 1 2) (set a b) (list a b)) ; expect: (t t)
(let h (obj k 1) (wipe h!k) (len h)) ; expect: 0
(let x (list 1 2) (set (cadr x)) x) ; expect: (1 t)

; --- ++ and -- return the new value; + is generic ---
(let x 5 (++ x)) ; expect: 6
(let x 5 (++ x 10)) ; expect: 15
(let x 5 (-- x)) ; expect: 4
(let x 5 (-- x 2) x) ; expect: 3
(let x "ab" (++ x "c")) ; expect: "abc"
(let x (list 1) (++ x (list 2)) x) ; expect: (1 2)
(let x (list 1 2) (++ (car x)) x) ; expect: (2 2)
(let x (list 1 2) (-- (cadr x) 5)) ; expect: -3
(let x nil (++ x)) ; error: +
; the place's subforms are evaluated before the increment
(let order nil (let x (list 1) (++ (car (do (push 'place order) x)) (do (push 'n order) 1)) order)) ; expect: (n place)

; --- zap ---
(let x 3 (zap + x 1 2)) ; expect: 6
(let x (list 1 2) (zap [* _ 10] (cadr x)) x) ; expect: (1 20)
(let h (obj a "x") (zap upcase h!a) h!a) ; expect: "X"

; --- push, pop ---
(let x nil (push 1 x) (push 2 x)) ; expect: (2 1)
(let h (table) (push 'a h!k) (push 'b h!k) h!k) ; expect: (b a)
; the pushed value is evaluated before the place's subforms
(let order nil
  (let l (list nil)
    (push (do (push 'x order) 'v) (car (do (push 'place order) l)))
    order))
; expect: (place x)
(let x (list 1 2 3) (list (pop x) x)) ; expect: (1 (2 3))
(let h (obj k (list 1 2)) (list (pop h!k) h!k)) ; expect: (1 (2))
(let x nil (pop x)) ; expect: nil

; --- pushnew, pull, togglemem ---
(let x (list 1 2) (pushnew 1 x) (pushnew 3 x) x) ; expect: (3 1 2)
(let x (list (list 1)) (pushnew (list 1) x) x) ; expect: ((1))
(let x (list (list 1)) (pushnew (list 1) x is) (len x)) ; expect: 2
(let x (list 1 2 3 2) (pull 2 x) x) ; expect: (1 3)
(let x (list 1 2 3 4) (pull [< _ 3] x)) ; expect: (3 4)
(let x (list 1 2) (togglemem 1 x) x) ; expect: (2)
(let x (list 1 2) (togglemem 5 x) x) ; expect: (5 1 2)

; --- swap, rotate ---
(let (a b) (list 1 2) (swap a b) (list a b)) ; expect: (2 1)
(let x (list 1 2) (swap (car x) (cadr x)) x) ; expect: (2 1)
(let h (obj a 1) (let y 2 (swap h!a y) (list h!a y))) ; expect: (2 1)
(let x (list 1 2 3) (rotate (car x) (cadr x) (car (cddr x))) x) ; expect: (2 3 1)
(with (a 1 b 2 c 3) (rotate a b c) (list a b c)) ; expect: (2 3 1)

; --- or= ---
(let h (table) (or= h!k (+ 1 2))) ; expect: 3
(let h (obj k 1) (or= h!k (err "evaluated")) h!k) ; expect: 1
(let x nil (or= x 'v) x) ; expect: v
