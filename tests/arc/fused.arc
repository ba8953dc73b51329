; The superinstructions (vm/opcodes.def, FUSED) and loops tested at their
; bottom (compiler/compile.cpp, LoopInfo::test_if): each case a fused
; sequence special-cases, with its slow path beside its fast one.

; --- counting loops: the box update (LOADB_ADDL), the step and test (ADDIL_GTL)
(def fu-sum (n) (let s 0 (for i 1 n (++ s i)) s))
(fu-sum 10) ; expect: 55
(fu-sum 0) ; expect: 0
(fu-sum 1) ; expect: 1
(def fu-inc (n) (let s 0 (for i 1 n (++ s)) s))
(fu-inc 1000) ; expect: 1000
(def fu-dec (n) (let s 0 (for i 1 n (-- s 2)) s))
(fu-dec 5) ; expect: -10
(def fu-sub (n) (let s 100 (for i 1 n (-- s i)) s))
(fu-sub 4) ; expect: 90
; the value of the update, used (no POP after STOREB)
(def fu-last (n) (let s 0 (for i 1 n (= s (+ s i))) (list s (++ s 5))))
(fu-last 3) ; expect: (6 11)
; down: the step down and the test below (SUBIL_LTL)
(def fu-down (n) (let acc nil (down i n 1 (push i acc)) acc))
(fu-down 4) ; expect: (1 2 3 4)
; a loop whose limit is a float, a start that is a float: the slow paths
(def fu-range (a b) (let acc nil (for i a b (push i acc)) (rev acc)))
(fu-range 1 3.5) ; expect: (1 2 3)
(fu-range 0.5 3) ; expect: (0.5 1.5 2.5)
(fu-range 3 1) ; expect: nil
; sums past the fixnums: the update overflows into a bignum and goes on
(def fu-big (start) (let s start (for i 1 10 (++ s i)) s))
(fu-big (- (expt 2 61) 20)) ; expect: 2305843009213693987
(is (fu-big (- (expt 2 62) 5)) (+ (expt 2 62) 50)) ; expect: t
(fu-big 1.5) ; expect: 56.5
(fu-big (- (expt 2 62))) ; expect: -4611686018427387849
; the counter itself past the fixnums
(def fu-count-big ()
  (let n 0 (for i (- (expt 2 62) 3) (+ (expt 2 62) 2) (++ n)) n))
(fu-count-big) ; expect: 6

; --- tests of two locals (LOADL_LTL, LOADL_GTL, LOADL_ISL), with and without a JUMPF
(def fu-lt (a b) (< a b))
(def fu-gt (a b) (> a b))
(def fu-is (a b) (is a b))
(def fu-if-lt (a b) (if (< a b) 'yes 'no))
(list (fu-lt 1 2) (fu-lt 2 1) (fu-gt 2 1) (fu-gt 1 2)) ; expect: (t nil t nil)
(list (fu-if-lt 1 2) (fu-if-lt 2 2) (fu-if-lt 1.5 2) (fu-if-lt "a" "b")) ; expect: (yes no yes yes)
(list (fu-is 1 1) (fu-is 'a 'a) (fu-is "x" "x") (fu-is 1 2) (fu-is nil nil)) ; expect: (t t t nil t)

; --- an assigned local observed by a continuation re-entered after the assignment:
; the re-entered frame sees the accumulator's value as it is now
(= fu-k nil)
(def fu-capture ()
  (let s 0
    (for i 1 5
      (++ s i)
      (when (is i 2) (ccc (fn (k) (= fu-k k)))))
    s))
(fu-capture) ; expect: 15
(= fu-runs 0)
(def fu-reenter ()
  (let r (fu-capture)
    (++ fu-runs)
    (when (< fu-runs 3) (fu-k nil))
    (list r fu-runs)))
; s is a box shared by every re-entry: 15, then 15 + 3 + 4 + 5 = 27, then
; 27 + 12 = 39 (as Racket's set! on a let variable); i, a fresh binding
; each iteration, is 2 again each time
(fu-reenter) ; expect: (39 3)
; the continuation re-entered after the loop had assigned s further: s
; goes on from its current value, as the box holds it
(= fu-k2 nil)
(= fu-out nil)
(def fu-observe ()
  (let s 0
    (for i 1 3
      (++ s 10)
      (when (is i 1) (ccc (fn (k) (= fu-k2 k)))))
    (push s fu-out)
    s))
(fu-observe) ; expect: 30
(when (< (len fu-out) 2) (fu-k2 nil)) ; expect: 50
fu-out ; expect: (50 30)

; --- a loop whose body captures: its own parameter (boxed: no bottom test)
; and the accumulator
(def fu-closures ()
  (let fs nil
    (for i 1 3 (push (fn () i) fs))
    (map [_] fs)))
(fu-closures) ; expect: (3 2 1)
(def fu-shared ()
  (let s 0
    (let get (fn () s)
      (for i 1 4 (++ s i))
      (get))))
(fu-shared) ; expect: 10

; --- redefined primitives: the fused heads run as written, calling the new
; definitions; restored, the fast paths again
(assign fu-orig+ +)
(assign fu-orig> >)
(assign fu-orig< <)
(assign fu-calls 0)
(assign > (fn (a b) (++ fu-calls) (fu-orig> a b)))
(fu-sum 4) ; expect: 10
fu-calls ; expect: 5
(fu-gt 3 2) ; expect: t
(assign > fu-orig>)
(assign fu-calls nil)
(assign + (fn args (assign fu-calls (cons args fu-calls)) (apply fu-orig+ args)))
(fu-sum 4) ; expect: 10
(assign + fu-orig+)
; each (++ s i) and each step of i, in order
(rev fu-calls) ; expect: ((0 1) (1 1) (1 2) (2 1) (3 3) (3 1) (6 4) (4 1))
(assign < (fn (a b) 'lt))
(fu-lt 1 2) ; expect: lt
(fu-down 2) ; expect: nil
(assign < fu-orig<)
(fu-down 2) ; expect: (1 2)
(fu-sum 100) ; expect: 5050

; --- a loop tested at its bottom is a safe point: a long loop in a thread
; lets the others run
(= fu-progress 0)
(def fu-spin () (for i 1 200000000 (= fu-progress i)))
(let th (thread (fu-spin))
  (let t0 (msec)
    (until (or (> fu-progress 0) (> (- (msec) t0) 60000)) (sleep 0.001)))
  (let seen fu-progress
    (kill-thread th)
    (and (> seen 0) (< seen 200000000)))) ; expect: t
