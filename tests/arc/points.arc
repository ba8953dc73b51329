; Escape-only points (compiler/compile.cpp, build_point): a catch or point
; whose name the body only calls, in its own frame, with at most one
; argument, runs its body inline and each throw is a jump to its end (no
; continuation, no closure, no box); any other use builds it as the call to
; ccc it expands to. Each case here beside the one that falls back.

; values: the throw's, nil for none, the body's when no throw runs
(def pt-basic (x) (catch (if (is x 1) (throw 'one)) (if (is x 2) (throw)) 'none))
(map pt-basic '(1 2 3)) ; expect: (one nil none)
(catch 5) ; expect: 5
(catch) ; expect: nil
; out of the middle of an expression: what was pushed for it is dropped (SLIDE)
(def pt-mid (x) (catch (list 1 2 (if x (throw (+ 10 x)) 3) 4)))
(list (pt-mid nil) (pt-mid 5)) ; expect: ((1 2 3 4) 15)
(def pt-args (x) (+ 100 (catch (+ 1 (* 2 (if x (throw x) 3))))))
(list (pt-args nil) (pt-args 7)) ; expect: (107 107)
(list 'before (catch (cons 'a (throw 'b))) 'after) ; expect: (before b after)
; an early return from a loop over assigned locals (AWFY's list, dictionaries)
(def pt-shorter (x y)
  (with (xt x yt y)
    (catch
      (while yt
        (unless xt (throw t))
        (= xt (cdr xt) yt (cdr yt)))
      nil)))
(list (pt-shorter '(1) '(1 2)) (pt-shorter '(1 2) '(1 2)) (pt-shorter nil '(1)) (pt-shorter nil nil)) ; expect: (t nil t nil)
(def pt-find (xs want)
  (let i 0
    (catch
      (each x xs
        (when (is x want) (throw i))
        (++ i))
      'absent)))
(list (pt-find '(a b c) 'c) (pt-find '(a b c) 'z) (pt-find nil 'a)) ; expect: (2 absent absent)
; the locals the body assigned keep their values after the throw
(let i 0 (list (catch (while t (++ i) (if (is i 5) (throw 'done)))) i)) ; expect: (done 5)
; in tail position, and as a statement
(def pt-tail (xs) (catch (each x xs (when (odd x) (throw x))) 'even))
(list (pt-tail '(2 4 5 6)) (pt-tail '(2 4))) ; expect: (5 even)
(def pt-stmt (xs) (let n 0 (catch (each x xs (if (> x 2) (throw) (++ n)))) n))
(pt-stmt '(1 2 3 4)) ; expect: 2
; nested: the inner throw ends the inner catch; the outer's name thrown
; from inside the inner body ends both
(def pt-nest (x) (point outer (list 'a (point inner (if (is x 1) (inner 'i)) (if (is x 2) (outer 'o)) 'body) 'b)))
(map pt-nest '(1 2 3)) ; expect: ((a i b) o (a body b))
(catch (list (catch (throw 1)) (throw 2))) ; expect: 2
; from a test, a let's value, a loop's argument, an and, a statement
(catch (if (throw 1) 2 3)) ; expect: 1
(catch (let x (throw 5) (list x))) ; expect: 5
(catch ((rfn lp (i acc) (lp (+ i 1) (if (> i 3) (throw acc) (cons i acc)))) 0 nil)) ; expect: (3 2 1 0)
(catch ((rfn lp (i) (if (> i 3) (throw i) (lp (+ i 1)))) 0)) ; expect: 4
(catch (and 1 (throw 2) 3)) ; expect: 2
(catch (do (throw 'a) (err "not reached"))) ; expect: a
(def pt-sum (n) (catch (let s 0 (for i 1 n (++ s i) (if (> s 10) (throw (list i s)))) s)))
(list (pt-sum 3) (pt-sum 100)) ; expect: (6 (5 15))
; an atomic body's: its thunk is a closure, so the point falls back
(catch (atomic (throw 7))) ; expect: 7
(let h (table) (catch (= (h 'k) (throw 8)))) ; expect: 8
; many rounds of a loop that throws each time: nothing piles up
(def pt-many (n) (let s 0 (for i 1 n (++ s (catch (if (odd i) (throw i)) 0))) s))
(pt-many 100000) ; expect: 2500000000

; falling back: throw passed as a value, called from a closure, or thrown
; two values (the escape's fn takes one: the second is dropped)
(catch (map throw '(1 2))) ; expect: 1
(catch (map (fn (x) (if (> x 1) (throw x))) '(1 2 3))) ; expect: 2
(catch (apply throw '(9))) ; expect: 9
(catch (throw 1 2)) ; expect: 1
; from inside a %catch of the same frame: the handler must not be left
; pushed, so an error after it is not caught there
(list (catch (%catch (throw 1) (fn (e) 'h))) (on-err (fn (e) 'outer) (fn () (err "x")))) ; expect: (1 outer)
; a local named throw inside hides the point's
(catch (let throw (fn (x) (list 'mine x)) (throw 3))) ; expect: (mine 3)

; re-entering a continuation captured inside the inline body, after the
; point returned: the body goes on from the capture, and its throw ends
; the point again (the value goes where the point's did, the form it was
; captured in: docs/LANGUAGE.md 7.9)
(= pt-k nil)
(def pt-reenter ()
  (let n 0
    (let r (catch
             (ccc (fn (k) (= pt-k k)))
             (++ n)
             (if (> n 1) (throw (list 'thrown n)))
             'first)
      (list r n))))
(= pt-results nil)
(push (pt-reenter) pt-results)
(if (< (len pt-results) 3) (pt-k nil))
pt-results ; expect: (((thrown 2) 2) (first 1))

; ccc redefined: code compiled before calls what ccc holds now
(def pt-f (x) (catch (if x (throw 'yes)) 'no))
(assign pt-orig-ccc ccc)
(= pt-calls 0)
(assign ccc (fn (f) (++ pt-calls) (pt-orig-ccc f)))
(list (pt-f t) (pt-f nil) (pt-shorter '(1) '(1 2)) pt-calls) ; expect: (yes no t 3)
(assign ccc pt-orig-ccc)
(list (pt-f t) (pt-f nil) pt-calls) ; expect: (yes no 3)

; the inline body captures nothing (VM::captures counts every capture);
; the fallbacks do
(def pt-captures (thunk) (let c (%captures) (thunk) (- (%captures) c)))
(list (pt-captures (fn () (pt-shorter '(1) '(1 2)))) (pt-captures (fn () (pt-nest 2))) (pt-captures (fn () (pt-nest 1))) (pt-captures (fn () (pt-many 10)))) ; expect: (0 0 0 0)
; each's body is also a closure (its table and string case, %each): a
; throw in it is a closure's
(list (pt-captures (fn () (catch (map throw '(1 2))))) (pt-captures (fn () (catch (throw 1 2)))) (pt-captures (fn () (pt-find '(a b) 'b)))) ; expect: (1 1 1)
