; Fields, b!x: (b 'x) of a local or an expression and (= b!x v) are the
; GETF and SETF opcodes (vm/opcodes.def), which look a table's symbol key up
; first where the site found it last (vm/table.h, table_cached_slot). The
; cache is only a guess checked by the key it points at: each case below
; would read a wrong or stale value if it were trusted.

(def fget-x (b) b!x)
(def fset-x (b v) (= b!x v))
(let b (obj x 1 y 2)
  (list b!x b!y b!z (fget-x b))) ; expect: (1 2 nil 1)
(let b (table) (fset-x b 5) (list (fset-x b 6) b!x (len b))) ; expect: (6 6 1)
; the table grown, rehashed, while the sites' caches point into it
(let b (obj x 'first)
  (fget-x b)
  (for i 1 200 (= (b (sym (+ "k" i))) i))
  (list (fget-x b) b!k150 (len b) (fset-x b 'second) (fget-x b))) ; expect: (first 150 201 second second)
; deleted (storing nil), then read, then added again
(let b (obj x 1 y 2)
  (fget-x b)
  (fset-x b nil)
  (let r1 (list (fget-x b) (len b) (keys b))
    (fset-x b 3)
    (list r1 (fget-x b) (len b)))) ; expect: ((nil 1 (y)) 3 2)
; a key added after the site's cache was filled with another table's
(let (a b) (list (obj x 'a) (table))
  (fget-x a)
  (let r (fget-x b)
    (= b!x 'b)
    (list r (fget-x b) (fget-x a)))) ; expect: (nil b a)
; two tables of different shape at one site, alternately, read and written
(let bs (list (obj x 1 y 2) (obj q 0 r 0 s 0 y 5 x 10) (obj x 100))
  (repeat 3 (each b bs (fset-x b (+ (fget-x b) 1))))
  (map [list _!x _!y] bs)) ; expect: ((4 2) (13 5) (103 nil))
; many keys colliding in a small table: each found, each cached in turn
(let b (table)
  (each k '(a b c d e f g h i j) (= (b k) k))
  (map (fn (k) (let r nil (repeat 2 (push (b k) r)) r)) '(a e j))) ; expect: ((a a) (e e) (j j))

; not a table: x called with the symbol, as any call
(let f [list 'called _] f!x) ; expect: (called x)
(let f [list 'called _] (fget-x f)) ; expect: (called x)
(let s "abc" s!x) ; error: index must be a non-negative integer: 'x
(let l '(1 2) l!x) ; error: index must be a non-negative integer: 'x
(let s "abc" (= s!x #\z)) ; error: expected
(let n 5 n!x) ; error: Function call on inappropriate object 5 '(x)
; before a RETURN a call: a tail call, which a loop of 100,000 rounds
; through it shows (no frame kept per round): the stress runs' 1 MiB VM
; stack (--stack-limit=1) holds some 20,000 of its rounds' frames
(def fwalk (n) (if (is n 0) 'done (let g (fn (k) (fwalk (- n 1))) (g 'x))))
(fwalk 100000) ; expect: done
; other keys are not fields: strings, floats, fixnums, lists
(let b (table)
  (= (b "x") 1 (b 1.5) 2 (b 7) 3 (b '(a)) 4)
  (list (b "x") (b 1.5) (b 7) (b '(a)) (b 'x))) ; expect: (1 2 3 4 nil)

; a redefined sref is called by SETF, by code compiled before too, until
; the builtin is back
(= sref-saved sref sref-log nil)
(= sref (fn (h v k) (assign sref-log (cons k sref-log)) (sref-saved h v k)))
(let b (table) (fset-x b 1) (= b!y 2) (list sref-log b!x b!y)) ; expect: ((y x) 1 2)
(= sref sref-saved)
(let b (table) (fset-x b 1) (list sref-log b!x)) ; expect: ((y x) 1)
; places through = on a field: ++, push, the key a gensym bound to the symbol
(let b (obj n 1) (++ b!n) (++ b!n 5) (push 'a b!l) (push 'b b!l) (list b!n b!l)) ; expect: (7 (b a))
; the object an expression's value (GETF, not a local's GETFL)
(let mk (fn () (obj x 9)) (list ((mk) 'x) ((mk) 'y))) ; expect: (9 nil)
(let mk (fn () [list 'made _]) ((mk) 'x)) ; expect: (made x)

; (= h!k e) of a local h is e; SETFL h (compiler/compile.cpp,
; emit_field_store): e's value stored where it is made, h read after e
; ran; a value, nil (the key deleted), a statement and a value, a table
; as e, h's old value when e assigns h
(def fl-set (b v) (= b!x (+ v 1)) (list (= b!y (* v 2)) (= b!z nil) b!x b!y (len b)))
(fl-set (obj z 1) 4) ; expect: (8 nil 5 8 2)
(let b (table) (list (is (= b!t b) b) (is b!t b))) ; expect: (t t)
(let (b c) (list (table) (table)) (= b!x (do (= b c) 1)) (list (len b) (len c) (is b c))) ; expect: (0 0 t)
(def fl-old (b c) (let orig b (= b!x (do (= b c) 1)) (list orig!x c!x)))
(fl-old (table) (table)) ; expect: (1 nil)
; many rounds: the site's cache across tables of one shape, and a field
; set to nil and back
(def fl-rounds (n) (let total 0 (for i 1 n (let b (obj a i) (= b!n (* i 2)) (= b!a nil) (= b!a i) (++ total (+ b!a b!n)))) total))
(fl-rounds 1000) ; expect: 1501500
; h not a table: sref's general case, its error or its meaning
(let s (string "abc") (= s!x #\z)) ; error: sref: expected a non-negative integer, got 'x
(let l (list 1 2) (= l!x 3)) ; error: sref: expected a non-negative integer, got 'x
;
; (= (h k) e) of locals h and k is e; SREFLL h k (emit_field_store): no
; copy of e's value; h and k as they were when the = began, though e
; assigns them; a value, nil (the key deleted), the value of the =, a key
; from a call, h a string, and an assigned key across many rounds
(def ix-set (h k v) (list (= (h k) (+ v 1)) (= (h (+ k 1)) nil) (h k) (len h)))
(ix-set (obj 2 'two 3 'three) 2 4) ; expect: (5 nil 5 1)
(def ix-old (h c k) (let orig h (= (h k) (do (= h c k 9) 1)) (list orig.7 (orig 9) c.7 c.9 k)))
(ix-old (table) (table) 7) ; expect: (1 nil nil nil 9)
(let h (table) (= (h (len h)) (table)) (len (h 0))) ; expect: 0
(let s (string "abc") (let i 1 (= (s i) (if (is i 1) #\z #\y)) s)) ; expect: "azc"
(def ix-rounds (n) (let (h k total) (list (table) 0 0) (while (< k n) (= (h k) (* k 2)) (++ total (h k)) (++ k)) (list total (len h))))
(ix-rounds 1000) ; expect: (999000 1000)
;
; a let of a fixnum that no comparison reads is the constant itself
; (alias_init): (++ place)'s increment an immediate; one a comparison reads
; (a loop's bound) keeps its slot; past 32 bits, no immediate
(let h (obj n 1) (++ h!n) (++ h!n 2) (-- h!n) (-- h!n -4) h!n) ; expect: 7
(let h (table) (= (h 'x) 1.5) (++ (h 'x)) (h 'x)) ; expect: 2.5
(let h (obj n 5) (list (++ h!n -7) h!n)) ; expect: (-2 -2)
((fn (k) (list (+ 10 k) k (- 10 k) (* k k))) 3) ; expect: (13 3 7 9)
((fn (k) (list (+ 1 k) (- k 1))) 10000000000) ; expect: (10000000001 9999999999)
(let n 0 (accum a (down i 3 n (a i)))) ; expect: (3 2 1 0)
(let h (obj n 'x) (++ h!n)) ; error: +
; sref redefined: SETFL calls it
(= sref-saved2 sref)
(= sref (fn (h v k) (list 'sref k v)))
(def fl-redef (b) (= b!q 5))
(fl-redef (table)) ; expect: (sref q 5)
(= sref sref-saved2)
(let b (table) (fl-redef b) b!q) ; expect: 5
