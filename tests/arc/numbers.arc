; The numeric tower: docs/LANGUAGE.md 1.4, 2.6, 4.3, 7.3.
(assign caught (fn (thunk) (on-err (fn (e) 'caught) thunk)))
; (near a b): t when a and b differ by less than 1e-9.
(assign near (fn (a b) (if (< (- a b) 1e-9) (> (- a b) -1e-9))))

; reading number literals (2.6)
42 ; expect: 42
-7 ; expect: -7
+7 ; expect: 7
1/2 ; expect: 1/2
2/4 ; expect: 1/2
4/2 ; expect: 2
-6/4 ; expect: -3/2
(type 4/2) ; expect: int
(type 1/2) ; expect: num
1.5 ; expect: 1.5
.5 ; expect: 0.5
5. ; expect: 5.0
1e3 ; expect: 1000.0
(list -2.5e-3 (is -2.5e-3 (/ -25 10000.0))) ; expect: (-0.0025 t)
#x1f ; expect: 31
#x1F ; expect: 31
#o17 ; expect: 15
#b101 ; expect: 5
#e1.5 ; expect: 3/2
#e0.5 ; expect: 1/2
#i1/2 ; expect: 0.5
(type #i1/2) ; expect: num
(type #x10) ; expect: int

; float printing (1.4, 7.10 #61)
2.0 ; expect: 2.0
0.5 ; expect: 0.5
-1.5 ; expect: -1.5
(type 2.0) ; expect: num
(- 0.0) ; expect: -0.0
(/ 1.0 0.0) ; expect: +inf.0
(/ -1.0 0.0) ; expect: -inf.0
; a NaN is unordered: neither < nor > holds, so max and best keep the
; first, and <= and >= (no > and no <) hold, as in Arc 3.1
(list (> +nan.0 1) (< +nan.0 1) (> 1 +nan.0) (< 1 +nan.0) (> +nan.0 +nan.0) (> +nan.0 (expt 2 80)) (> 1/2 +nan.0)) ; expect: (nil nil nil nil nil nil nil)
(list (<= 1 +nan.0) (>= 1 +nan.0)) ; expect: (t t)
(list (max 1 +nan.0) (max 1 +nan.0 2) (min 1 +nan.0) (best > (list 1 +nan.0))) ; expect: (1 2 1 1)
((fn (x) (> x 1)) +nan.0) ; expect: nil
(> 3 2 +nan.0) ; expect: nil

; fixnum overflow to bignum and back
(+ 4611686018427387903 1) ; expect: 4611686018427387904
(+ 9223372036854775807 1) ; expect: 9223372036854775808
(- -9223372036854775808 1) ; expect: -9223372036854775809
(- 9223372036854775808 1) ; expect: 9223372036854775807
(* 4611686018427387904 2) ; expect: 9223372036854775808
(* 3037000500 3037000500) ; expect: 9223372037000250000
(* 4294967296 4294967296) ; expect: 18446744073709551616
(- -9223372036854775808) ; expect: 9223372036854775808
(- -4611686018427387904) ; expect: 4611686018427387904
(* -1 -4611686018427387904) ; expect: 4611686018427387904
(let x (- (+ 4611686018427387903 1) 1) (list x (is x 4611686018427387903))) ; expect: (4611686018427387903 t)
(let x (- (* 4294967296 4294967296) (* 4294967296 4294967296)) (list x (is x 0))) ; expect: (0 t)
(type (* 4294967296 4294967296)) ; expect: int
(type (- (* 4294967296 4294967296) 1)) ; expect: int
(expt 2 100) ; expect: 1267650600228229401496703205376
(- (expt 2 100) (expt 2 100)) ; expect: 0
(type (- (expt 2 100) (expt 2 100))) ; expect: int
(- (expt 2 100)) ; expect: -1267650600228229401496703205376
(/ (expt 10 30) (expt 10 28)) ; expect: 100
(/ (expt 2 100) (expt 6 3)) ; expect: 158456325028528675187087900672/27
(trunc (/ (expt 10 30) 7)) ; expect: 142857142857142857142857142857
(mod (expt 10 30) 7) ; expect: 1
(mod (expt 2 100) 7) ; expect: 2
(exact (expt 2 100)) ; expect: t

; arity-special cases (4.3, 7.3 #15-16)
(+) ; expect: 0
(+ 5) ; expect: 5
(*) ; expect: 1
(* 5) ; expect: 5
(- 5) ; expect: -5
(- 10 1 2) ; expect: 7
(+ 1 2 3 4) ; expect: 10
; three or more arguments (one opcode): fixnums, overflow, other types
(let (a b c) '(1 2 3) (+ a b c)) ; expect: 6
(let x 4611686018427387903 (+ x x 2)) ; expect: 9223372036854775808
(let x 1.5 (+ 1 x 2)) ; expect: 4.5
(let x 1/2 (+ x x 1)) ; expect: 2
(let s "b" (+ "a" s "c")) ; expect: "abc"
(let l '(2) (+ '(1) l nil '(3))) ; expect: (1 2 3)
(let x 'a (+ 1 2 x)) ; error: +: argument 3 is 'a but argument 1 is 1
; a small constant operand (one opcode): fixnums, overflow, other types
(let x 5 (list (+ x 1) (- x 2) (< x 9) (> x 9) (is x 5) (is x 6))) ; expect: (6 3 t nil t nil)
(let x 2.5 (list (+ x 1) (- x 2) (< x 9) (> x 9) (is x 5))) ; expect: (3.5 0.5 t nil nil)
(let x 4611686018427387903 (+ x 1)) ; expect: 4611686018427387904
(let x -4611686018427387904 (- x 1)) ; expect: -4611686018427387905
(let x 1/2 (< x 1)) ; expect: t
(let x "a" (+ x 1)) ; expect: "a1"
(let x "a" (is x 1)) ; expect: nil
(let x 'a (- x 1)) ; error: -: argument 1 is 'a; expected a number
(* 1 2 3 4) ; expect: 24
(caught (fn () (-))) ; expect: caught
(caught (fn () (+ nil 1))) ; expect: caught
(caught (fn () (+ 1 'a))) ; expect: caught
(caught (fn () (* 2 "a"))) ; expect: caught

; exact rationals in lowest terms (7.3 #12)
(/ 1 3) ; expect: 1/3
(/ 6 3) ; expect: 2
(type (/ 6 3)) ; expect: int
(/ 4 6) ; expect: 2/3
(/ 5 2) ; expect: 5/2
(/ -1 2) ; expect: -1/2
(/ 1 -2) ; expect: -1/2
(/ -3 6) ; expect: -1/2
(/ 2) ; expect: 1/2
(/ 1/2) ; expect: 2
(/ 12 2 3) ; expect: 2
(+ 1/3 2/3) ; expect: 1
(type (+ 1/3 2/3)) ; expect: int
(- 1/2 1/3) ; expect: 1/6
(* 2/3 3/2) ; expect: 1
(* 1/2 4) ; expect: 2
(- 1/2) ; expect: -1/2
(exact 1/2) ; expect: nil

; mixed exact/inexact yields a float
(+ 1 2.0) ; expect: 3.0
(type (+ 1 2.0)) ; expect: num
(* 2 0.5) ; expect: 1.0
(* 1.5 2) ; expect: 3.0
(/ 1.0 2) ; expect: 0.5
(/ 1 2.0) ; expect: 0.5
(/ 3 4.0) ; expect: 0.75
(- 2.5 0.5) ; expect: 2.0
(+ 1/2 0.5) ; expect: 1.0
(exact (+ 1 2.0)) ; expect: nil
(exact (+ (expt 2 100) 0.5)) ; expect: nil

; division by zero
(caught (fn () (/ 1 0))) ; expect: caught
(caught (fn () (/ 0 0))) ; expect: caught
(caught (fn () (/ 0))) ; expect: caught
(caught (fn () (/ 1.0 0))) ; expect: caught
(caught (fn () (/ (expt 2 100) 0))) ; expect: caught

; mod: sign of the divisor, integers only
(mod 7 3) ; expect: 1
(mod -7 3) ; expect: 2
(mod 7 -3) ; expect: -2
(mod -7 -3) ; expect: -1
(mod 6 3) ; expect: 0
(caught (fn () (mod 1/2 1))) ; expect: caught
(caught (fn () (mod 7.5 2))) ; expect: caught
(caught (fn () (mod 5 0))) ; expect: caught

; expt
(expt 2 10) ; expect: 1024
(expt 2 0) ; expect: 1
(expt 0 0) ; expect: 1
(expt 2 -1) ; expect: 1/2
(expt 2 -3) ; expect: 1/8
(expt 2/3 2) ; expect: 4/9
(expt -2 3) ; expect: -8
(expt 10 20) ; expect: 100000000000000000000
(expt 2.0 3) ; expect: 8.0
(expt 4 0.5) ; expect: 2.0
(exact (expt 4 0.5)) ; expect: nil

; sqrt
(sqrt 16) ; expect: 4
(sqrt 1/4) ; expect: 1/2
(sqrt 0) ; expect: 0
(sqrt (expt 2 100)) ; expect: 1125899906842624
(sqrt 2.25) ; expect: 1.5
(sqrt 4.0) ; expect: 2.0
(exact (sqrt 2)) ; expect: nil
(type (sqrt 2)) ; expect: num
(near (* (sqrt 2) (sqrt 2)) 2) ; expect: t

; trunc and exact
(trunc -3.7) ; expect: -3
(trunc 3.7) ; expect: 3
(trunc 5/2) ; expect: 2
(trunc -5/2) ; expect: -2
(trunc 7) ; expect: 7
(trunc 1e20) ; expect: 100000000000000000000
(type (trunc 3.7)) ; expect: int
(exact 5) ; expect: t
(exact 5.0) ; expect: nil
(exact -3) ; expect: t
(exact 'a) ; expect: nil

; rand
(type (rand)) ; expect: num
(exact (rand)) ; expect: nil
(rand 1) ; expect: 0
(exact (rand 10)) ; expect: t
(assign rand-ok
  (fn (n) (if (is n 0) t
              ((fn (x y) (if (< x 1) (if (< x 0) nil (if (< y 10) (if (< y 0) nil (rand-ok (- n 1)))))))
               (rand) (rand 10)))))
(rand-ok 500) ; expect: t
; over many draws, (rand 2) gives both 0 and 1
(assign rand-seen
  (fn (n z o) (if (is n 0) (if z o) ((fn (r) (rand-seen (- n 1) (if z z (is r 0)) (if o o (is r 1)))) (rand 2)))))
(rand-seen 200 nil nil) ; expect: t

; trigonometry, in radians, floats
(sin 0.0) ; expect: 0.0
(cos 0.0) ; expect: 1.0
(tan 0.0) ; expect: 0.0
(asin 0.0) ; expect: 0.0
(acos 1.0) ; expect: 0.0
(atan 0.0) ; expect: 0.0
(log 1.0) ; expect: 0.0
(type (sin 1)) ; expect: num
(exact (cos 1)) ; expect: nil
(near (sin 1.5707963267948966) 1.0) ; expect: t
(near (cos 3.141592653589793) -1.0) ; expect: t
(near (tan 0.7853981633974483) 1.0) ; expect: t
(near (asin 1.0) 1.5707963267948966) ; expect: t
(near (acos 0.0) 1.5707963267948966) ; expect: t
(near (acos -1.0) 3.141592653589793) ; expect: t
(near (* 4 (atan 1)) 3.141592653589793) ; expect: t
(near (atan 1 1) 0.7853981633974483) ; expect: t
(near (atan 1 -1) 2.356194490192345) ; expect: t
(near (atan -1 -1) -2.356194490192345) ; expect: t
(near (atan -1 0) -1.5707963267948966) ; expect: t
(near (log 2.718281828459045) 1.0) ; expect: t
(near (log 100.0) 4.605170185988092) ; expect: t

; complex results: in Arc 3.1 (sqrt -1) is the host's imaginary unit (1.4,
; 4.3), which nothing in the libraries uses. Arcana has no complex numbers:
; asking for one is a clear error instead.
(sqrt -4) ; error: sqrt: negative argument
