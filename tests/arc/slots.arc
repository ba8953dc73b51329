; The slot forms (vm/opcodes.def, Slots): (op a b) of two locals reads both
; slots in place, with the fixnum and flonum fast paths inline and
; everything else through the base opcode's general case; an arithmetic
; one's result goes straight into the local a POPL or POPX after it names.
; Also the immediate tests <= and >= (LEI, GEI and their local forms), and
; the flonum fold of n-ary + and *.

; --- two locals: fixnums, flonums, mixed, and each general case
(def sl-add (a b) (+ a b))
(def sl-sub (a b) (- a b))
(def sl-mul (a b) (* a b))
(def sl-le (a b) (<= a b))
(def sl-ge (a b) (>= a b))
(def sl-if-le (a b) (if (<= a b) 'yes 'no))
(def sl-if-ge (a b) (if (>= a b) 'yes 'no))
(list (sl-add 2 3) (sl-add 1.5 2) (sl-add 2 0.25) (sl-add 1.5 2.5)) ; expect: (5 3.5 2.25 4.0)
(list (sl-sub 2 3) (sl-sub 1.5 2) (sl-mul 6 7) (sl-mul 1.5 1.5) (sl-mul -3 0.5)) ; expect: (-1 -0.5 42 2.25 -1.5)
; fixnum overflow into a bignum, through each fast path
(sl-add (- (expt 2 62) 1) 1) ; expect: 4611686018427387904
(sl-sub (- (expt 2 62)) 1) ; expect: -4611686018427387905
(sl-mul (expt 2 31) (expt 2 31)) ; expect: 4611686018427387904
(sl-mul (expt 2 40) 3) ; expect: 3298534883328
; a bignum, a float out of the word's range, a rational, strings and lists
(sl-add (expt 2 70) 1.0) ; expect: 1.1805916207174113e+21
(sl-mul 1e200 1e200) ; expect: +inf.0
(sl-add 1/2 1/3) ; expect: 5/6
(sl-add "ab" "cd") ; expect: "abcd"
(sl-add '(1 2) '(3)) ; expect: (1 2 3)
(list (sl-le 1 2) (sl-le 2 2) (sl-le 3 2) (sl-ge 1 2) (sl-ge 2 2) (sl-ge 3 2)) ; expect: (t t nil nil t t)
(list (sl-le 1.5 2) (sl-le 2 1.5) (sl-ge 2.5 2.5) (sl-le (expt 2 70) 1) (sl-ge (expt 2 70) 1)) ; expect: (t nil t nil t)
(list (sl-if-le 1 2) (sl-if-le 3 2) (sl-if-ge 1 2) (sl-if-ge 3 2) (sl-if-le "a" "b") (sl-if-le 0.5 (expt 2 70))) ; expect: (yes no no yes yes yes)
(sl-le 'a 1) ; error: >: can't compare a and 1

; --- a local and a small constant: <= and >= (LEIL, GEIL), taken by an if or not
(def sl-lei (a) (list (<= a 5) (>= a 5) (if (<= a 5) 'le 'gt)))
(list (sl-lei 4) (sl-lei 5) (sl-lei 6) (sl-lei 4.5) (sl-lei 5.5) (sl-lei (expt 2 70))) ; expect: ((t nil le) (t t le) (nil t gt) (t nil le) (nil t gt) (nil t gt))

; --- results straight into a local: a let's binding (POPL), an assigned
; local (POPX)
(def sl-let (a b) (let c (+ a b) (let d (* c b) (list c d))))
(list (sl-let 1 2) (sl-let 1.5 2) (sl-let (expt 2 62) 2)) ; expect: ((3 6) (3.5 7.0) (4611686018427387906 9223372036854775812))
(def sl-acc (n) (with (s 0 p 1) (for i 1 n (= s (+ s i) p (* p i))) (list s p)))
(sl-acc 5) ; expect: (15 120)
(sl-acc 25) ; expect: (325 15511210043330985984000000)
(def sl-float-acc (n) (with (x 0.5 y 1.5) (for i 1 n (= x (+ x y)) (= y (* y x))) (list x y)))
(sl-float-acc 3) ; expect: (20.0 300.0)
; tests of assigned locals (LELL, LTLL), a loop's at its bottom
(def sl-while (n) (with (i 0 j n) (while (<= i j) (++ i) (-- j)) (list i j)))
(list (sl-while 10) (sl-while 0) (sl-while 1.5)) ; expect: ((6 4) (1 -1) (1 0.5))
(def sl-cmp-shared (n) (with (i 0 lim n) (while (< i lim) (= i (+ i 1))) i))
(list (sl-cmp-shared 7) (sl-cmp-shared 7.5) (sl-cmp-shared 0)) ; expect: (7 8 0)

; --- n-ary + and * with flonums: left to right, as the general case does
(def sl-nary (a b c) (list (* 2.0 a b) (+ a b c) (* a b c) (+ 1 a 2.5) (* 1e200 a 1e200) (* a (expt 2 62) 1.0) (+ a b (expt 2 70))))
(sl-nary 3 4 5) ; expect: (24.0 12 60 6.5 +inf.0 13835058055282164000.0 1180591620717411303431)
(sl-nary 1.5 2 0.5) ; expect: (6.0 4.0 1.5 5.0 +inf.0 6917529027641082000.0 1.1805916207174113e+21)
(sl-nary (expt 2 62) 2 1) ; expect: (18446744073709552000.0 4611686018427387907 9223372036854775808 4611686018427388000.0 +inf.0 2.1267647932558654e+37 1185203306735838691330)
(* 2 3.0 "a") ; error: *: argument 3 is "a"; expected a number

; --- a continuation captured inside a loop over assigned locals, re-entered
; twice: the capture boxes s and p in their slots, the slot forms read and
; store through the boxes, and each re-entry goes on from their values now
(= sl-k nil)
(= sl-n 0)
(def sl-reenter ()
  (with (s 0 p 1.5)
    (for i 1 4
      (= s (+ s i))
      (= p (* p p))
      (when (is i 2) (ccc (fn (k) (= sl-k k)))))
    (list s (<= s 12) p)))
(def sl-twice () (let r (sl-reenter) (++ sl-n) (when (< sl-n 3) (sl-k nil)) (list r sl-n)))
(sl-twice) ; expect: ((24 nil 1.2005004253118409e+45) 3)

; --- a closure made inside a loop over an assigned local sees the later
; assignments; one over a fresh binding each round sees its own
(def sl-closure-later () (with (x 0 fs nil) (for i 1 3 (= x (+ x i)) (push (fn () x) fs)) (= x (* x 10)) (map [_] fs)))
(sl-closure-later) ; expect: (60 60 60)
(def sl-closure-round () (with (fs nil) (for i 1 3 (let y (* i i) (push (fn () y) fs) (= y (+ y i)))) (map [_] fs)))
(sl-closure-round) ; expect: (12 6 2)

; --- redefined primitives are seen by code compiled before; restored, the
; fast paths again
(assign sl-orig* *)
(assign sl-orig<= <=)
(assign sl-orig>= >=)
(assign sl-orig+ +)
(assign * (fn args (cons 'times args)))
(assign <= (fn (a b) 'le))
(list (sl-mul 2 3) (sl-let 1 2) (sl-nary 1 2 3)) ; expect: ((times 2 3) (3 (times 3 2)) ((times 2.0 1 2) 6 (times 1 2 3) 4.5 (times 1e+200 1 1e+200) (times 1 4611686018427387904 1.0) 1180591620717411303427))
(list (sl-le 5 1) (sl-if-le 5 1) (sl-lei 9)) ; expect: (le yes (le t le))
(assign >= (fn (a b) 'ge))
(list (sl-ge 1 5) (sl-if-ge 1 5) (sl-lei 1)) ; expect: (ge yes (le ge le))
(assign * sl-orig*)
(assign sl-calls nil)
(assign + (fn args (assign sl-calls (cons args sl-calls)) (apply sl-orig+ args)))
(list (sl-add 1 2) (sl-acc 2)) ; expect: (3 (3 2))
; (+ 1 2), then each (= s (+ s i)) and each step of i, in order
(rev sl-calls) ; expect: ((1 2) (0 1) (1 1) (1 2) (2 1))
(assign * sl-orig*)
(assign <= sl-orig<=)
(assign >= sl-orig>=)
(assign + sl-orig+)
(list (sl-mul 2 3) (sl-le 5 1) (sl-ge 1 5) (sl-add 1 2) (sl-acc 5) (sl-nary 3 4 5)) ; expect: (6 nil nil 3 (15 120) (24.0 12 60 6.5 +inf.0 13835058055282164000.0 1180591620717411303431))

; --- a long loop of slot forms alone is preempted at its backward jump:
; the thread that sets the flag gets to run
(= sl-flag nil)
(let th (thread (sleep 0.001) (= sl-flag t))
  (with (n 0 x 1.5)
    (while (and (no sl-flag) (<= n 50000000))
      (= x (* x x))
      (= n (+ n 1)))
    sl-flag)) ; expect: t
