; Iteration (docs/LANGUAGE.md 5.10, 7.8): while until whilet whiler loop for down
; repeat forlen each on drain evtil noisy-each trav accum summing.

; --- while, until ---
(let i 0 (while (< i 3) (pr i) (++ i))) ; prints: 012
(let i 0 (while (< i 3) (++ i))) ; expect: nil
(let i 0 (while nil (++ i)) i) ; expect: 0
(let i 0 (until (is i 3) (pr i) (++ i))) ; prints: 012
(let i 0 (until (> i 2) (++ i)) i) ; expect: 3
; constant stack: a long loop
(let i 0 (while (< i 5000) (++ i)) i) ; expect: 5000

; --- whilet: bind the test's value each round, stop at nil ---
(let xs '(1 2 3) (whilet x (pop xs) (pr x))) ; prints: 123
(let xs '((1 2) (3 4)) (accum a (whilet (p q) (pop xs) (a (+ p q))))) ; expect: (3 7)
(whilet x nil (pr x)) ; expect: nil

; --- whiler: set var to expr each round until (testify end) accepts it ---
(let xs '(1 2 3 stop 4) (whiler x (pop xs) 'stop (pr x))) ; prints: 123
(let xs '(1 2 3 4) (accum a (whiler x (pop xs) [> _ 2] (a x)))) ; expect: (1 2)

; --- loop: the C-style 3.1 form ---
(loop (= li 0) (< li 3) (++ li) (pr li)) ; prints: 012
li ; expect: 3
(loop (= li 5) (< li 3) (++ li) (pr li)) ; prints: 
(loop (= li 0) (< li 3) (++ li)) ; expect: nil

; --- for: inclusive, max evaluated once ---
(for i 1 3 (pr i)) ; prints: 123
(for i 3 1 (pr i)) ; prints: 
(for i 1 3 nil) ; expect: nil
(let n 0 (for i 1 (do (++ n) 3) nil) n) ; expect: 1
(let m 3 (for i 1 m (pr i) (= m 10))) ; prints: 123
(accum a (for i 1 10 (a i) (= i (+ i 2)))) ; expect: (1 4 7 10)
(for i 0 5000 nil) ; expect: nil
; the loop variable is local
(do (for pl-i 1 2 nil) (bound 'pl-i)) ; expect: nil

; --- down ---
(down i 3 1 (pr i)) ; prints: 321
(down i 1 3 (pr i)) ; prints: 
(down i 2 0 nil) ; expect: nil

; --- repeat ---
(repeat 3 (pr "x")) ; prints: xxx
(repeat 0 (pr "x")) ; prints: 
(let n 0 (repeat 5 (++ n)) n) ; expect: 5

; --- forlen ---
(forlen i "abc" (pr i)) ; prints: 012
(forlen i '(a b) (pr i)) ; prints: 01
(forlen i nil (pr i)) ; prints: 

; --- each over lists ---
(each x '(1 2 3) (pr x)) ; prints: 123
(each x '(1 2 3) x) ; expect: nil
(each x nil (pr x)) ; prints: 
(each (a b) '((1 2) (3 4)) (pr a b " ")) ; prints: 12 34 
(each (a . b) '((1 2 3)) (pr a b)) ; prints: 1(2 3)
; a dotted tail ends the walk
(each x '(1 2 . 3) (pr x)) ; prints: 12
(accum a (each x '(1 2 3) (a (* x x)))) ; expect: (1 4 9)
(catch (each x '(1 2 3) (if (is x 2) (throw x)))) ; expect: 2
; the caller's locals named type or alist don't disturb the expansion
(let alist 5 (let type 6 (each x '(1 2) (pr x)))) ; prints: 12
; each round has a fresh binding
(let fs nil (each x '(1 2) (push (fn () x) fs)) (map [_] fs)) ; expect: (2 1)
(let fs nil (for i 1 2 (push (fn () i) fs)) (map [_] fs)) ; expect: (2 1)
(let s 0 (each x (range 1 3000) (++ s x)) s) ; expect: 4501500

; --- each over tables: (k v), returns the table ---
(let h (obj a 1) (each (k v) h (pr k v))) ; prints: a1
(let h (obj a 1) (is (each (k v) h nil) h)) ; expect: t
(let h (obj a 1) (each e h (pr e))) ; prints: (a 1)
(let h (obj a 1 b 2 c 3) (let n 0 (each (k v) h (++ n v)) n)) ; expect: 6
(let h (table) (each (k v) h (pr k))) ; expect: #hash()

; --- each over strings ---
(each c "abc" (pr c "-")) ; prints: a-b-c-
(each c "abc" c) ; expect: nil
(each c "" (pr c)) ; prints: 
(each x 5 (pr x)) ; error: each

; --- on: like each, with index ---
(on x '(a b c) (pr index x)) ; prints: 0a1b2c
(on c "xy" (pr index c)) ; prints: 0x1y
(on x nil (pr x)) ; prints: 
(on x '(a b) x) ; expect: nil
(on index '(a b) index) ; error: index

; --- drain ---
(let xs '(1 2 3) (drain (pop xs))) ; expect: (1 2 3)
(let xs '(1 2 stop 3) (drain (pop xs) 'stop)) ; expect: (1 2)
(let n 0 (drain (if (< n 3) (++ n) 'done) 'done)) ; expect: (1 2 3)
(drain nil) ; expect: nil

; --- evtil ---
(let n 0 (evtil (++ n) [> _ 4])) ; expect: 5
(let n 10 (evtil (++ n) [> _ 4])) ; expect: 11

; --- noisy-each: a dot every n iterations, newline at the end ---
(noisy-each 2 x '(a b c d e) nil) ; prints: ..\n
(noisy-each 1 x '(a b) (pr x)) ; prints: .a.b\n

; --- trav: self continues the traversal; stops at nil ---
(accum a (trav '(1 (2 3) 4) [a (car _)] [self (cdr _)])) ; expect: (1 (2 3) 4)
(accum a (trav '(1 2 3) [a _] [self (cdr _)])) ; expect: ((1 2 3) (2 3) (3))
(let n 0 (trav 5 [++ n]) n) ; expect: 1
(let n 0 (trav nil [++ n]) n) ; expect: 0
(accum a
  (trav '(1 (2 3) 4)
        [if (atom _) (a _)]
        [when (acons _) (self (car _)) (self (cdr _))]))
; expect: (1 2 3 4)

; --- accum, summing ---
(accum a (a 1) (a 2)) ; expect: (1 2)
(accum a nil) ; expect: nil
(len (accum a (for i 1 3000 (a i)))) ; expect: 3000
(summing s (s t) (s nil) (s 5)) ; expect: 2
(summing s nil) ; expect: 0
(summing s (each x '(1 2 3 4 5) (s (odd x)))) ; expect: 3

; --- loops compiled in their caller's frame ---
; (the compiler runs a self-calling local function as a loop; these hold
; whichever way it is compiled)
; each round has its own binding of the loop variable
(let fs nil (for i 1 3 (push (fn () i) fs)) (map [_] fs)) ; expect: (3 2 1)
; also when the body assigns it (a boxed variable: a fresh box each round)
(let fs nil (for i 1 5 (push (fn () i) fs) (++ i)) (map [_] fs)) ; expect: (6 4 2)
(let fs nil (each x '(a b c) (push (fn () x) fs)) (map [_] fs)) ; expect: (c b a)
; a loop's value, in and out of tail position
(list (while nil) (let x 0 (while (< x 3) (++ x)) x)) ; expect: (nil 3)
((afn (i acc) (if (is i 0) acc (self (- i 1) (cons i acc)))) 3 nil) ; expect: (1 2 3)
; nested loops with the same name
((afn (i acc) (if (is i 0) acc
                  (self (- i 1) (+ acc ((afn (j s) (if (is j 0) s (self (- j 1) (+ s 1)))) i 0)))))
 3 0) ; expect: 6
; a self call out of tail position is recursion
((afn (n) (if (is n 0) 0 (+ 1 (self (- n 1))))) 10) ; expect: 10
; the function escapes: it is a function
(isa ((afn (i) (if (is i 0) self (self (- i 1)))) 3) 'fn) ; expect: t
; a closure that calls the loop function
(let r nil ((afn (i) (when (< i 3) (push (fn () (self 10)) r) (self (+ i 1)))) 0) (len r)) ; expect: 3
; a loop whose parameter hides an outer loop's name
((afn (i) (if (< i 3) (self (+ i 1)) ((fn (self) (list i self)) 'inner))) 0) ; expect: (3 inner)
; many rounds, in constant stack, with a handler inside
(let n 0 (repeat 100000 (on-err (fn (e) nil) (fn () (++ n)))) n) ; expect: 100000
