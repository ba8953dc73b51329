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

; --- comparisons of more than two (LTN, GTN, LEN, GEN): each pair in turn,
; every argument evaluated first, as the builtins do; fixnums in the
; instruction, anything else through the global's function
(def fu-lt3 (a b c) (< a b c))
(def fu-le4 (a b c d) (<= a b c d))
(def fu-gt3 (a b c) (> a b c))
(def fu-ge3 (a b c) (>= a b c))
(list (fu-lt3 1 2 3) (fu-lt3 1 3 2) (fu-lt3 3 1 2) (fu-lt3 1 1 2) (fu-lt3 -5 0 5)) ; expect: (t nil nil nil t)
(list (fu-le4 1 1 2 2) (fu-le4 1 2 2 1) (fu-le4 0 0 0 0)) ; expect: (t nil t)
(list (fu-gt3 3 2 1) (fu-gt3 3 3 1) (fu-ge3 3 3 1) (fu-ge3 1 3 3)) ; expect: (t nil t nil)
; in a test (the JUMPF taken with it), and for its value
(def fu-in (c) (if (< 32 (int c) 127) 'printable 'not))
(map fu-in (list #\a #\space #\~ #\newline)) ; expect: (printable not printable not)
; floats, mixes, bignums, strings and characters: the general case
(list (fu-lt3 1 2.5 3) (fu-lt3 1.5 1.5 3) (fu-le4 1 1.0 1 2) (fu-gt3 (expt 2 70) 5 1)) ; expect: (t nil t t)
(list (fu-lt3 "a" "b" "c") (fu-lt3 "a" "c" "b") (fu-lt3 #\a #\b #\c)) ; expect: (t nil t)
; every argument evaluated, even after a pair that fails
(let n 0 (list (< 3 1 (do (++ n) 5)) n)) ; expect: (nil 1)
(fu-lt3 1 'x 3) ; error: <
; redefined, the compiled site calls the new definition with every argument
(assign fu-orig< <)
(assign < (fn args (cons 'lt args)))
(fu-lt3 1 2 3) ; expect: (lt 1 2 3)
(assign < fu-orig<)
(fu-lt3 1 2 3) ; expect: t

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

; --- loops continuing in their then branch: the test at the bottom, JUMPT
(def fu-while (n) (let i 0 (while (< i n) (++ i)) i))
(list (fu-while 0) (fu-while 1) (fu-while 7)) ; expect: (0 1 7)
(def fu-upto (n) ((afn (i acc) (if (< i n) (self (+ i 1) (cons i acc)) acc)) 0 nil))
(fu-upto 4) ; expect: (3 2 1 0)
(fu-upto 0) ; expect: nil
(def fu-walk (xs) (let n 0 (each x xs (++ n x)) n))
(fu-walk '(1 2 3 4)) ; expect: 10
(fu-walk nil) ; expect: 0
(def fu-upto-float (n) ((afn (i acc) (if (< i n) (self (+ i 1) (cons i acc)) acc)) 0.5 nil))
(fu-upto-float 3) ; expect: (2.5 1.5 0.5)

; --- * and mod: their fast paths and the general cases
(def fu-mul (a b) (* a b))
(def fu-mul7 (a) (* a 7))
(def fu-mod (a b) (mod a b))
(def fu-mod3 (a) (mod a 3))
(list (fu-mul 6 7) (fu-mul -6 7) (fu-mul 0 5) (fu-mul 1.5 2) (fu-mul7 6)) ; expect: (42 -42 0 3.0 42)
(fu-mul (expt 2 40) (expt 2 40)) ; expect: 1208925819614629174706176
(fu-mul7 (expt 2 61)) ; expect: 16140901064495857664
(list (fu-mod 7 3) (fu-mod -7 3) (fu-mod 7 -3) (fu-mod -7 -3) (fu-mod 6 3)) ; expect: (1 2 -2 -1 0)
(list (fu-mod3 -7) (fu-mod3 8) (fu-mod 7.0 2) (fu-mod (expt 2 70) 7)) ; expect: (2 2 1.0 2)
(fu-mod 7 0) ; error: mod: division by zero
(fu-mod 7 'a) ; error: mod: argument 2 is 'a; expected an integer
(assign fu-orig* *)
(assign fu-orig-mod mod)
(assign * (fn args (list 'times args)))
(assign mod (fn (a b) (list 'modulo a b)))
(list (fu-mul 2 3) (fu-mul7 2) (fu-mod 7 3) (fu-mod3 7)) ; expect: ((times (2 3)) (times (2 7)) (modulo 7 3) (modulo 7 3))
(assign * fu-orig*)
(assign mod fu-orig-mod)
(list (fu-mul 2 3) (fu-mul7 2) (fu-mod 7 3) (fu-mod3 7)) ; expect: (6 14 1 1)

; --- %rev-onto, the builtin every accumulating loop ends with
(%rev-onto '(1 2 3) '(4 5)) ; expect: (3 2 1 4 5)
(%rev-onto nil '(4)) ; expect: (4)
(%rev-onto '(1 . 2) nil) ; error: %rev-onto: expected a list
(map [* _ 2] (range 1 5)) ; expect: (2 4 6 8 10)

; --- a while loop's step by a local and its test at the bottom (ADDLL_LELL,
; ADDLL_LTLL): fixnums in one dispatch, anything else step by step
(def fu-steps (k step m) (let n 0 (while (<= k m) (++ n) (= k (+ k step))) (list n k)))
(def fu-steps-lt (k step m) (let n 0 (while (< k m) (++ n) (= k (+ k step))) (list n k)))
(list (fu-steps 0 3 10) (fu-steps 5 1 4) (fu-steps -3 2 3) (fu-steps-lt 0 3 9) (fu-steps-lt 0 3 10)) ; expect: ((4 12) (0 5) (4 5) (3 9) (4 12))
; past the fixnums, floats as the step, the start or the limit
(fu-steps (- (expt 2 61) 2) (expt 2 60) (expt 2 62)) ; expect: (3 5764607523034234878)
(def fu-steps-max (k step m) (let n 0 (while (<= k m) (++ n) (when (> n 5) (= m -1)) (= k (+ k step))) (list n k)))
(fu-steps-max (- (expt 2 62) 10) (expt 2 61) (- (expt 2 62) 1)) ; expect: (1 6917529027641081846)
(list (fu-steps 0 1.5 4) (fu-steps 0.5 1 3) (fu-steps 0 1 2.5) (fu-steps-lt 0 1 2.5)) ; expect: ((3 4.5) (3 3.5) (3 3) (3 3))
; a continuation captured in the loop puts k in a box: the rest is step by step
(def fu-steps-cc (m)
  (let k 0 (let seen nil (while (<= k m) (push (ccc (fn (c) k)) seen) (= k (+ k 2))) (list k (rev seen)))))
(fu-steps-cc 6) ; expect: (8 (0 2 4 6))
; a redefined + or <= is what the loop calls
(assign fu-orig+ +)
(assign + (fn args (apply fu-orig+ 1 args)))
(fu-steps 0 3 10) ; expect: (6 12)
(assign + fu-orig+)
(fu-steps 0 3 10) ; expect: (4 12)
(assign fu-orig<= <=)
(assign <= (fn (a b) (fu-orig<= a (- b 1))))
(fu-steps 0 1 5) ; expect: (5 5)
(assign <= fu-orig<=)
(fu-steps 0 1 5) ; expect: (6 6)
; preempted at its back jump: the thread that stops it gets to run
(= fu-stop nil)
(let th (thread (sleep 0.001) (= fu-stop t))
  (let k 0 (let m 100000000 (let step 1
    (while (<= k m) (when fu-stop (= m -1)) (= k (+ k step))))))
  fu-stop) ; expect: t

; --- an assigned local's store of a sum of two locals (ADDLL_POPX), a
; sum's step: fixnums in one dispatch, into another local or its own;
; past the fixnums, floats, and a box a capture made step by step
(def fu-acc (n) (let s 0 (for i 1 n (++ s i)) s))
(list (fu-acc 0) (fu-acc 1) (fu-acc 100)) ; expect: (0 1 5050)
(def fu-into (a b) (let d 0 (= d (+ a b)) (= a d) (list a d)))
(list (fu-into 2 3) (fu-into 1.5 2) (fu-into (- (expt 2 62) 1) 1) (fu-into "a" "b")) ; expect: ((5 5) (3.5 3.5) (4611686018427387904 4611686018427387904) ("ab" "ab"))
(def fu-acc-big (s n) (for i 1 n (++ s i)) s)
(list (fu-acc-big (- (expt 2 62) 5) 3) (fu-acc-big 0.5 3)) ; expect: (4611686018427387905 6.5)
(def fu-acc-cc (n)
  (let s 0 (let ks nil (for i 1 n (push (ccc (fn (c) s)) ks) (++ s i)) (list s (rev ks)))))
(fu-acc-cc 4) ; expect: (10 (0 1 3 6))
(= fu-acc-k nil)
(def fu-acc-again ()
  (with (s 0 n 0)
    (ccc (fn (k) (= fu-acc-k k)))
    (++ n)
    (++ s n)
    (if (< n 4) (fu-acc-k nil) s)))
(fu-acc-again) ; expect: 10
; the sum goes into d's box, which the re-entered frame reads
(= fu-into-k nil)
(def fu-into-again (a b)
  (let d 0
    (let first (ccc (fn (k) (= fu-into-k k) t))
      (if first (do (= d (+ a b)) (fu-into-k nil)) d))))
(fu-into-again 2 3) ; expect: 5
(assign fu-orig+ +)
(assign + (fn args (apply fu-orig+ 100 args)))
(fu-acc 3) ; expect: 101
(assign + fu-orig+)
(fu-acc 3) ; expect: 6

; --- a list loop's bottom: the self call's last parameter stored and the
; loop's local tested in one dispatch (POPL_JUMPT), or the test alone
; (LOADL_JUMPT): the walk ends at the list's end, of any length
(def fu-lwalk (xs) ((afn (ys n) (if ys (self (cdr ys) (+ n 1)) n)) xs 0))
(list (fu-lwalk nil) (fu-lwalk '(a)) (fu-lwalk '(a b c)) (fu-lwalk (range 1 1000))) ; expect: (0 1 3 1000)
(def fu-lwalk1 (xs) ((afn (ys) (if ys (self (cdr ys)) 'end)) xs))
(list (fu-lwalk1 nil) (fu-lwalk1 '(1 2))) ; expect: (end end)
; the tested local is false but not nil's word: a value that is not nil jumps back
(def fu-lwalk-t (n) ((afn (i acc) (if acc (self (+ i 1) (if (< i n) (cons i acc))) i)) 0 '(start)))
(fu-lwalk-t 5) ; expect: 6
; preempted at its back jump: the thread that stops it gets to run
(= fu-stop2 nil)
(let th (thread (sleep 0.001) (= fu-stop2 t))
  (let xs (list 1 2 3)
    (scdr (cddr xs) xs)  ; a circular list: only the thread ends the walk
    ((afn (ys) (if ys (self (if fu-stop2 nil (cdr ys))) 'stopped)) xs))) ; expect: stopped

; --- (cons x nil) in one dispatch (NIL_CONS): a fresh cell each time, a
; redefined cons seen at once
(def fu-one (x) (cons x nil))
(list (fu-one 1) (fu-one '(a)) (is (fu-one 1) (fu-one 1))) ; expect: ((1) ((a)) nil)
(let c (fu-one 3) (scdr c '(4)) (list c (fu-one 3))) ; expect: ((3 4) (3))
(assign fu-orig-cons cons)
(assign cons (fn (a b) (list 'c a b)))
(fu-one 1) ; expect: (c 1 nil)
(assign cons fu-orig-cons)
(fu-one 2) ; expect: (2)
