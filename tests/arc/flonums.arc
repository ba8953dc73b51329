; Flonums: those held in the value word (vm/value.h: exponents 2^-126 to
; 2^128, and the zeros) and those on the heap (the rest), the boundary
; between them, arithmetic that crosses it on the interpreter's float fast
; paths (vm/interp.cpp), and identity and hashing, which must not tell the
; two representations apart (docs/LANGUAGE.md 1.4).

; the boundaries: 2^-126 and 2^128 are in the word, 2^-127 and 2^129 not
(expt 2.0 -126) ; expect: 1.1754943508222875e-38
(expt 2.0 -127) ; expect: 5.877471754111438e-39
(expt 2.0 128) ; expect: 3.402823669209385e+38
(expt 2.0 129) ; expect: 6.80564733841877e+38
(- (expt 2.0 129) (expt 2.0 76)) ; expect: 6.8056473384187685e+38
; one representation per double: a result that crosses the boundary is
; the same as the literal on its side
(is (expt 2.0 128) (/ (expt 2.0 129) 2.0)) ; expect: t
(is (expt 2.0 -126) (* (expt 2.0 -127) 2.0)) ; expect: t
(is (expt 2.0 -127) (/ (expt 2.0 -126) 2.0)) ; expect: t
(is (expt 2.0 129) (* (expt 2.0 128) 2)) ; expect: t
; zeros, infinities and NaN (eqv, as Racket's eqv? has it)
(list 0.0 -0.0 (is 0.0 -0.0) (is -0.0 (- 0.0)) (is 0.0 (* 0.0 5))) ; expect: (0.0 -0.0 nil t t)
(list (/ 1.0 0.0) (/ -1.0 0.0) (is (/ 0.0 0.0) (/ 0.0 0.0)) (< (/ 0.0 0.0) 1.0) (> (/ 0.0 0.0) 1.0)) ; expect: (+inf.0 -inf.0 t nil nil)
; subnormals
4.9e-324 ; expect: 5e-324
(* 4.9e-324 2) ; expect: 1e-323
; a fixnum against a flonum compares exactly (2^53 + 1 is no double)
(list (< 9007199254740992.0 9007199254740993) (< 9007199254740992.0 9007199254740992) (> 9007199254740993 9007199254740992.0)) ; expect: (t nil t)
; mixed operands, and a bignum
(list (+ 1 0.5) (+ 0.5 1) (- 2 0.5) (* 3 0.5) (< 1 1.5) (> 1 1.5) (+ 1.5 (expt 2 70))) ; expect: (1.5 1.5 1.5 1.5 t nil 1.1805916207174113e+21)
; the immediate-operand opcodes (ADDI, SUBI, MULI, LTI, GTI) on a flonum
(let x 1.5 (list (+ x 1) (- x 1) (* x 3) (< x 2) (> x 2) (< x 1) (> x 1))) ; expect: (2.5 0.5 4.5 t nil nil t)
; results leaving the word from the fast paths
(let x 1e38 (list (* x 100) (+ x x) (* x 0.5) (- x (* x 3)))) ; expect: (1e+40 2e+38 5e+37 -2.0000000000000003e+38)
(let x 1e-37 (list (* x 1e-10) (- x x) (* x 10))) ; expect: (1.0000000000000001e-47 0.0 1.0000000000000001e-36)
(let x 1e300 (list (* x 10) (+ x 1) (< x 1e301))) ; expect: (1e+301 1e+300 t)
; table keys in each representation
(let h (table) (= (h (expt 2.0 200)) 'big (h 1.5) 'mid (h 5e-320) 'tiny) (list (h (* (expt 2.0 199) 2.0)) (h (+ 1.0 0.5)) (h (/ 1e-319 2)) (h 2.5))) ; expect: (big mid tiny nil)
(let h (table) (= (h -0.0) 'neg (h 0.0) 'pos) (list (h -0.0) (h (- 0.0 0.0)) (h (* -1 0.0)))) ; expect: (neg pos neg)
(iso (list 1.5 (expt 2.0 200)) (list (+ 1 0.5) (expt 2.0 200))) ; expect: t
; loops
(let x 0.0 (for i 1 1000 (= x (+ x 0.001))) x) ; expect: 1.0000000000000007
(let x 1.0 (repeat 200 (= x (* x 2.0))) x) ; expect: 1.6069380442589903e+60
(let x 1.0 (repeat 200 (= x (/ x 2.0))) (list x (type x))) ; expect: (6.223015277861142e-61 num)
; types and conversion
(list (type 1.5) (type 1e-320) (type 1e300) (exact 2.0) (exact 1e300) (coerce 2.5 'int)) ; expect: (num num num nil nil 2)
(map [+ _ 0.25] '(1 1.5 1e38 1e300)) ; expect: (1.25 1.75 1e+38 1e+300)

; a redefined + and < are called for flonums too by code compiled before
(def flo-add (a b) (+ a b))
(def flo-inc (a) (+ a 1))
(def flo-less (a b) (< a b))
(assign flo-orig+ +)
(assign flo-orig< <)
(assign + (fn args (cons 'plus args)))
(assign < (fn args 'lt))
(flo-add 1.5 2.5) ; expect: (plus 1.5 2.5)
(flo-inc 1.5) ; expect: (plus 1.5 1)
(flo-less 1.5 2.5) ; expect: lt
(assign + flo-orig+)
(assign < flo-orig<)
(flo-add 1.5 2.5) ; expect: 4.0
(flo-inc 1.5) ; expect: 2.5
(flo-less 1.5 2.5) ; expect: t

; <= and >= (builtins with opcode fast paths): not greater, not less, as
; Arc 3.1 defines them, so a NaN gives t; errors are those of > and <
(list (<=) (<= 1) (<= 1 2) (<= 2 1) (<= 1 1) (<= 1 2 3) (<= 1 3 2) (<= 1.5 2) (<= 2 1.5) (<= 1/2 0.5) (<= "a" "b") (<= #\b #\a) (<= 'a 'b)) ; expect: (t t t nil t t nil t nil t t nil t)
(list (>=) (>= 1) (>= 1 2) (>= 2 1) (>= 1 1) (>= 3 2 1) (>= 3 1 2) (>= 1.5 2) (>= 2 1.5) (>= 1/2 0.5) (>= "a" "b") (>= #\b #\a) (>= 'a 'b)) ; expect: (t t nil t t t nil nil t t nil t nil)
(let nan (/ 0.0 0.0) (list (<= 1 nan) (<= nan 1) (>= 1 nan) (>= nan 1.5) (< 1 nan) (> nan 1))) ; expect: (t t t t nil nil)
(let x 1.5 (list (<= x 2) (>= x 2) (<= x 1.5) (>= x 1.5) (<= 2 x) (>= 2 x))) ; expect: (t nil t t nil t)
(let (a b) (list 3 4) (list (<= a b) (>= a b) (<= b a) (>= b a))) ; expect: (t nil nil t)
(<= 1 'a) ; error: >: can't compare 1 and a
(>= 1 'a) ; error: <: can't compare 1 and a
(<= 2 1 'a) ; expect: nil
(list (apply <= '(1 2 3)) (apply >= '(3 2 1)) (map [<= _ 5] '(1 5 9 2.5 5.0 1e300))) ; expect: (t t (t t nil t t nil))

; n-ary * (MULN): fixnums, overflow into bignums, floats
(list (* 2 3 4) (* 2 3 4.0) (* 1.5 2 2) (* 4611686018427387903 2 2)) ; expect: (24 24.0 6.0 18446744073709551612)
(* 2 'a 3) ; error: *: argument 2 is 'a; expected a number

; a float in the product makes a float, even with an exact 0 (Racket's
; exact 0 is not kept: docs/LANGUAGE.md 1.4), on every path: the opcodes,
; n-ary, applied
(let x 1.5 (list (* 0 x) (* x 0) (* 0 1.5) (/ 0 x) (* 2 0 x) (apply * (list x 0)))) ; expect: (0.0 0.0 0.0 0.0 0.0 0.0)
(list (* 0.0 2) (/ 0.0 2) (+ 0 1.5) (- 0 1.5) (* 1.5 1)) ; expect: (0.0 0.0 1.5 -1.5 1.5)
(/ 1.5 0) ; error: /: division by zero
(let x 1.5 (/ x 0)) ; error: /: division by zero

; redefined <=, >= and * are called by code compiled before
(def flo-le (a b) (<= a b))
(def flo-ge (a b) (>= a b))
(def flo-mul3 (a b c) (* a b c))
(assign flo-orig<= <=)
(assign flo-orig>= >=)
(assign flo-orig* *)
(assign <= (fn args 'le))
(assign >= (fn args 'ge))
(assign * (fn args (cons 'times args)))
(list (flo-le 1 2) (flo-ge 1.5 2.5) (flo-mul3 1 2 3)) ; expect: (le ge (times 1 2 3))
(assign <= flo-orig<=)
(assign >= flo-orig>=)
(assign * flo-orig*)
(list (flo-le 1 2) (flo-ge 1.5 2.5) (flo-mul3 1 2 3)) ; expect: (t nil 6)

; a float constant's test or arithmetic, fused with its CONST (CONST_LE and
; its kin): floats, a fixnum beside it, and what it leaves to the general
; case (a heap Flonum, a bignum, a NaN, a string), in an if and as a value
(def flk-tests (x) (list (< x 2.5) (> x 2.5) (<= x 2.5) (>= x 2.5)))
(list (flk-tests 1.5) (flk-tests 2.5) (flk-tests 3) (flk-tests 1e300) (flk-tests (expt 2 70)) (flk-tests (/ 0.0 0.0))) ; expect: ((t nil t nil) (nil nil t t) (nil t nil t) (nil t nil t) (nil t nil t) (nil nil t t))
(flk-tests 'a) ; error: <: can't compare a and 2.5
(def flk-if (x) (if (<= x 4.0) 'in 'out))
(list (flk-if 3.9) (flk-if 4.0) (flk-if 4.5) (flk-if 4) (flk-if 5)) ; expect: (in in out in out)
(def flk-arith (x) (list (+ x 1.5) (- x 1.5) (* x 1.5)))
(list (flk-arith 2.5) (flk-arith 2) (flk-arith 5e38) (flk-arith -0.0) (flk-arith 1e300)) ; expect: ((4.0 1.0 3.75) (3.5 0.5 3.0) (5e+38 5e+38 7.5e+38) (1.5 -1.5 -0.0) (1e+300 1e+300 1.5e+300))
(is (car (flk-arith (expt 2 70))) (+ (expt 2 70) 1.5)) ; expect: t
(flk-arith "a") ; error: -: argument 1 is "a"; expected a number
; the result into the local a POPL or POPX after it names (CONST_SUB,
; CONST_MUL; and ADD on the stack, whose float path does the same)
(def flk-store (x) (let y (- x 0.5) (= x (* y 2.0)) (list x y)))
(flk-store 3.5) ; expect: (6.0 3.0)
(def fla-store (a b c) (let s (+ (* a b) c) (= c (+ (* a b) c)) (list s c)))
(fla-store 1.5 2.0 0.5) ; expect: (3.5 3.5)
; n-ary + and * fold in doubles from their first float, as the general case does
(list (* 2.0 1.5 3) (* 2 3 1.5) (+ 1 2 0.5 (expt 2 54)) (* 1e38 1e38 0.0) (+ 1.5 2.5 (expt 2 70))) ; expect: (9.0 9.0 18014398509481988.0 0.0 1.1805916207174113e+21)
(let (x y) (list 1e38 1e38) (list (* 2.0 x y) (* x y 1e-300))) ; expect: (1.9999999999999998e+76 9.999999999999999e-225)
; (* k a b) of a float constant and two locals in one step (CONST_MULN),
; left to right ((3.0 * 0.1) * 0.7, not 3.0 * (0.1 * 0.7)): floats, its
; result stored (POPL) or used; what it leaves to MULN (a fixnum, a
; bignum, a product past the word, a NaN, a string, a shared local's
; box); a redefined * called once with the three
(def flm3 (a b) (let p (* 3.0 a b) (list p (* 3.0 b a))))
(flm3 0.1 0.7) ; expect: (0.21000000000000002 0.20999999999999996)
(list (flm3 2 1.5) (flm3 -0.0 2.0) (flm3 1e38 1e38) (flm3 1e300 1e-300)) ; expect: ((9.0 9.0) (-0.0 -0.0) (3e+76 3e+76) (3.0000000000000004 3.0000000000000004))
(is (car (flm3 (expt 2 70) 0.5)) (* 1.5 (expt 2 70))) ; expect: t
(let n (car (flm3 (/ 0.0 0.0) 1.0)) (list (< n 1) (> n 1))) ; expect: (nil nil)
(flm3 1.5 "a") ; error: *: argument 3 is "a"; expected a number
(= flm3-k nil)
(def flm3-box (a)
  (with (b 0.5 n 0)
    (ccc (fn (k) (= flm3-k k)))
    (++ n)
    (= b (* 2.0 a b))
    (if (< n 3) (flm3-k nil) (list n b))))
(flm3-box 1.5) ; expect: (3 13.5)
(assign flo-orig* *)
(assign * (fn args (cons 'times args)))
(flm3 0.1 0.7) ; expect: ((times 3.0 0.1 0.7) (times 3.0 0.7 0.1))
(assign * flo-orig*)
(flm3 0.1 0.7) ; expect: (0.21000000000000002 0.20999999999999996)

; a move into an assigned local (LOADL_POPX) goes through the box a
; continuation's capture gave it: the frame re-entered sees it
(= flk-k nil)
(def flk-move (a)
  (let d 0
    (let once (ccc (fn (k) (= flk-k k) t))
      (if once (do (= d a) (flk-k nil)) d))))
(flk-move 7) ; expect: 7

; a sum or difference of two products of locals (MULLL_ADD, MULLL_SUB):
; floats in one step, each product rounded on its own (no fused
; multiply-add: x*x + y is 0.0 here, not 2^-60), fixnums and mixes as
; the opcodes one by one, a product past the word a heap Flonum
(def prod-sum (a b c d) (list (+ (* a b) (* c d)) (- (* a b) (* c d))))
(list (prod-sum 1.5 2.0 0.5 3.0) (prod-sum 2 3 4 5) (prod-sum 1.5 2 0.5 3.0) (prod-sum 1e38 1e38 1.0 1.0) (prod-sum 3e38 3e38 -3e38 3e38)) ; expect: ((4.5 1.5) (26 -14) (4.5 1.5) (9.999999999999999e+75 9.999999999999999e+75) (0.0 1.8000000000000001e+77))
(prod-sum 1.0000000009313226 1.0000000009313226 -1.0000000018626451 1.0) ; expect: (0.0 2.0000000037252903)
(prod-sum 1.5 'a 1.0 1.0) ; error: *: argument 2 is 'a; expected a number
; a redefined - is what the fused difference calls
(assign flo-orig- -)
(assign - (fn args (cons 'minus args)))
(prod-sum 1.5 2.0 0.5 3.0) ; expect: (4.5 (minus 3.0 1.5))
(assign - flo-orig-)
(prod-sum 1.5 2.0 0.5 3.0) ; expect: (4.5 1.5)

; / (DIV): a fixnum quotient only when exact, a rational otherwise; doubles
; when a flonum is either operand; the fixnum 0 as divisor the general
; case's error; the most negative fixnum over -1 past the fixnums
(def fld (a b) (/ a b))
(list (fld 6 3) (fld -6 3) (fld 7 2) (fld -7 2) (fld 0 5) (fld 6 -3)) ; expect: (2 -2 7/2 -7/2 0 -2)
(list (fld 7.0 2) (fld 7 2.0) (fld 1.5 0.5) (fld 1 0.0) (fld -1 0.0) (fld 0 2.5)) ; expect: (3.5 3.5 3.0 +inf.0 -inf.0 0.0)
(let n (fld 0.0 0.0) (is n n)) ; expect: t
(fld 1 0) ; error: /: division by zero
(fld 1.5 0) ; error: /: division by zero
(is (fld (- (expt 2 62)) -1) (expt 2 62)) ; expect: t
(is (fld (expt 2 70) (expt 2 68)) 4) ; expect: t
(fld 1e300 1e-300) ; expect: +inf.0
(fld 'a 2) ; error: /: argument 1 is 'a; expected a number
; - of more than two (SUBN): left to right, fixnums, past the fixnums,
; floats from the first float on
(def fls3 (a b c) (- a b c))
(list (fls3 10 3 2) (fls3 1.5 0.5 2) (fls3 10 2.5 1) (fls3 1 2 0.25) (fls3 0.3 0.2 0.1)) ; expect: (5 -1.0 6.5 -1.25 -2.7755575615628914e-17)
(is (fls3 (- (expt 2 62) 1) -1 -1) (+ (expt 2 62) 1)) ; expect: t
(is (fls3 (- (expt 2 62)) 1 1) (- (- (expt 2 62)) 2)) ; expect: t
(list (- 10 1 2 3) (- 1/2 1/4 1/4) (- (expt 2 70) 1 (expt 2 70))) ; expect: (4 0 -1)
(fls3 1 'b 2) ; error: -: argument 2 is 'b; expected a number
; n-ary comparisons of floats and fixnums beside them, in doubles; a heap
; flonum (a NaN), a fixnum past 2^53 beside a float, the general case
(def flc3 (a b c) (list (< a b c) (<= a b c) (> c b a) (>= c b a)))
(list (flc3 1 1.5 2) (flc3 1.5 1.5 2.5) (flc3 0.5 1 1) (flc3 2.5 1 3)) ; expect: ((t t t t) (nil t nil t) (nil t nil t) (nil nil nil nil))
(let nan (/ 0.0 0.0) (list (< 1 nan 2) (<= 1 nan 2) (> 2 nan 1) (>= 2 nan 1))) ; expect: (nil t nil t)
(list (< 1.0 (+ (expt 2 53) 1) 1e300) (< (expt 2 53) (+ (expt 2 53) 1) 9007199254740993.0)) ; expect: (t nil)
(let x 2.5 (if (< 1 x 3) 'in 'out)) ; expect: in
; / and - redefined are called by code compiled before
(assign fl-orig/ /)
(assign fl-orig- -)
(assign / (fn args (cons 'div args)))
(assign - (fn args (cons 'minus args)))
(list (fld 6 3) (fls3 1 2 3)) ; expect: ((div 6 3) (minus 1 2 3))
(assign / fl-orig/)
(assign - fl-orig-)
(list (fld 6 3) (fls3 1 2 3)) ; expect: (2 -4)
; trunc (TRUNC): a fixnum itself, a float in the word truncated toward zero
; when a fixnum holds it; (trunc (/ a b)) of fixnums (DIV_TRUNC) their
; quotient toward zero, with no rational made; the rest the general case
(def flt (x) (trunc x))
(list (flt 5) (flt -5) (flt 3.7) (flt -3.7) (flt -0.5) (flt 7/2) (flt -7/2) (flt 0.0)) ; expect: (5 -5 3 -3 0 3 -3 0)
(is (flt 1e300) (expt 10 300)) ; expect: nil
(is (flt 1e18) (expt 10 18)) ; expect: t
(is (flt 4.611686018427388e18) (expt 2 62)) ; expect: t
(is (flt (expt 2 70)) (expt 2 70)) ; expect: t
(flt "a") ; error: trunc
(def fldt (a b) (trunc (/ a b)))
(list (fldt 7 2) (fldt -7 2) (fldt 7 -2) (fldt -7 -2) (fldt 6 3) (fldt 0 5) (fldt 1 3)) ; expect: (3 -3 -3 3 2 0 0)
(list (fldt 7.5 2) (fldt 7 2.5) (fldt -7.5 2.0) (fldt 15/2 2)) ; expect: (3 2 -3 3)
(is (fldt (- (expt 2 62)) -1) (expt 2 62)) ; expect: t
(is (fldt (expt 2 70) 3) (trunc (/ (expt 2 70) 3))) ; expect: t
(fldt 1 0) ; error: /: division by zero
(fldt 'a 2) ; error: /: argument 1 is 'a; expected a number
; the value used for a test, and both globals redefined
(def fldt-even (n) (is n (* 2 (trunc (/ n 2)))))
(map fldt-even '(0 1 2 7 -4 -5)) ; expect: (t nil t nil t nil)
(assign fl-orig-trunc trunc)
(assign trunc (fn (x) (list 'tr x)))
(list (flt 3.5) (fldt 7 2)) ; expect: ((tr 3.5) (tr 7/2))
(assign trunc fl-orig-trunc)
(assign / (fn args (cons 'div args)))
(fldt 7 2) ; error: trunc
(assign / fl-orig/)
(list (flt 3.5) (fldt 7 2)) ; expect: (3 3)
