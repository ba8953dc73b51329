; atomic, and = and ++ on places, which expand to it: the compiler runs
; (atomic-invoke (fn () body)) with the body inline in the caller while
; atomic-invoke is its builtin and one thread runs (the ATOMIC opcode,
; vm/opcodes.def); else it calls the global with the thunk. threads.arc
; has the lock with several threads.

(let h (table) (= (h 'a) 1) (++ (h 'a) 5) (push 'x (h 'l)) (list (h 'a) (h 'l))) ; expect: (6 (x))
(atomic) ; expect: nil
(atomic 1 2 3) ; expect: 3
(do (def atomic-t1 (x) (atomic (+ x 1))) (atomic-t1 4)) ; expect: 5
(do (def atomic-t2 (x) (if x (atomic (atomic-t2 nil)) 'bottom)) (atomic-t2 t)) ; expect: bottom
; locals assigned inside, and closures made inside
(let n 0 (atomic (= n (+ n 1))) (atomic (++ n)) n) ; expect: 2
(let fs nil (for i 1 3 (atomic (push (fn () i) fs))) (map [_] fs)) ; expect: (3 2 1)
(let n 0 (let f (fn () (atomic (++ n))) (f) (f) n)) ; expect: 2
; nested: the inner ones are calls in the inline copy, inline in the thunk
(atomic (atomic (atomic 3))) ; expect: 3
(let h (table) (= (h 1) (= (h 2) 5)) (list (h 1) (h 2))) ; expect: (5 5)
(let h (table) (= (h 1) (atomic (= (h 2) (atomic (++ (h 3 0)))))) (list (h 1) (h 2) (h 3))) ; expect: (1 1 1)
; leaving by a continuation or an error, then atomic again
(ccc (fn (k) (atomic (k 'out)) 'not)) ; expect: out
(on-err (fn (e) 'caught) (fn () (atomic (err "inside")))) ; expect: caught
(atomic 'ok) ; expect: ok
; a continuation captured inside and re-entered after the body went on: the
; table and the counter are the ones the first pass changed
(withs (h (table) k nil n 0)
  (= (h 'x) (ccc (fn (c) (= k c) 10)))
  (++ n)
  (if (< n 3) (k (+ (h 'x) 1)))
  (list (h 'x) n)) ; expect: (12 3)
; a redefined atomic-invoke is called, by code compiled before too, until
; the builtin is back
(def atomic-put (h) (= (h 'k) 'v))
(= atomic-saved atomic-invoke atomic-calls 0)
(= atomic-invoke (fn (f) (= atomic-calls (+ atomic-calls 1)) (f)))
(let h (table) (atomic-put h) (= (h 'j) 'w) (atomic 'a) (list atomic-calls (h 'k) (h 'j))) ; expect: (3 v w)
(= atomic-invoke atomic-saved)
(let h (table) (atomic-put h) (atomic 'b) (list atomic-calls (h 'k))) ; expect: (3 v)
(atomic-invoke (fn () 'called)) ; expect: called
(let f (fn () 'through-a-variable) (atomic-invoke f)) ; expect: through-a-variable
; a thread started inside, while it was the only one, then waited for
(let th nil (atomic (= th (thread 'done))) (until (dead th) (sleep 0)) (dead th)) ; expect: t
; an assigned local that only atomic bodies' thunks capture lives in its
; slot (no box), and the thunk, made when the body cannot run inline, is
; given a box put in the slot then (SHARE): the frame and the thunk see one
; variable. Through a redefined atomic-invoke that keeps the thunks and
; calls them later, each sees the variable's value when it runs
(= atomic-saved atomic-invoke atomic-kept nil)
(= atomic-invoke (fn (f) (= atomic-kept (cons f atomic-kept)) nil))
(let k 1
  (let h (table)
    (= (h 'a) k)
    (= k 2)
    ((car atomic-kept))
    (= k 3)
    (list (h 'a) k))) ; expect: (2 3)
(= atomic-invoke (fn (f) (f)))
; the thunk assigns it: the frame reads the box after
(let k 1 (atomic (= k (+ k 10))) (++ k) k) ; expect: 12
; a continuation captured in the thunk and re-entered after the frame
; assigned the variable sees its new value
(withs (k 1 saved nil out nil n 0)
  (atomic (push (ccc (fn (c) (= saved c) 'first)) out) (push k out))
  (= k 2)
  (++ n)
  (if (is n 1) (saved 'again))
  out) ; expect: (2 again 1 first)
(= atomic-invoke atomic-saved)
; the same forms with the builtin back, inline
(let k 1 (let h (table) (= (h 'a) k) (= k 2) (list (h 'a) k))) ; expect: (1 2)
(let k 1 (atomic (= k (+ k 10))) (++ k) k) ; expect: 12
