; Continuations whose segments are shared between captures (vm/continuation.cpp,
; VM::capture_continuation): each capture copies only the frames that ran
; since the previous one, so these check that what is shared is still what
; the stack held, and that re-entry rebuilds exactly the captured frames.

; non-tail recursion n deep, then f
(def deep (n f) (if (is n 0) (f) (idfn (deep (- n 1) f))))

; a loop whose frame re-stores its let-bound locals on every round: each
; continuation must see its own round's values
(= ks nil)
(def collect ()
  (each i '(1 2 3)
    (let j (* i 10)
      (let r (ccc (fn (k) (push k ks) nil))
        (when r (r (list i j))))))
  'collected)
(collect) ; expect: collected
(= ks (rev ks))
(ccc (fn (out) ((ks 0) out))) ; expect: (1 10)
(ccc (fn (out) ((ks 2) out))) ; expect: (3 30)
(ccc (fn (out) ((ks 1) out))) ; expect: (2 20)
(ccc (fn (out) ((ks 0) out))) ; expect: (1 10)

; the same 2,000 frames down: the deep frames are shared, the loop's are not
(= ks nil)
(deep 2000 collect) ; expect: collected
(= ks (rev ks))
(ccc (fn (out) ((ks 1) out))) ; expect: (2 20)
(ccc (fn (out) ((ks 2) out))) ; expect: (3 30)
(ccc (fn (out) ((ks 0) out))) ; expect: (1 10)

; re-entering a deep continuation returns through every frame below it
(= kd nil)
(def deep-capture ()
  (let v (ccc (fn (k) (= kd k) 1))
    (if (< v 3) (kd (+ v 1)) (list 'bottom v))))
(deep 1000 (fn () (deep-capture) 7)) ; expect: 7
(deep 1000 (fn () (list (deep-capture) (deep 10 deep-capture)))) ; expect: ((bottom 3) (bottom 3))

; captures in a loop at depth, then a frame below them returns and runs
; again with other values: later captures must not reuse the old frames
(= saved nil)
(def layer (tag)
  (let x (list tag)
    (repeat 3 (ccc (fn (k) (push (list tag k) saved))))
    x))
(def layers () (list (layer 'a) (layer 'b) (deep 50 (fn () (layer 'c)))))
(layers) ; expect: ((a) (b) (c))
(len saved) ; expect: 9
; the last b continuation: re-entering it finishes (layer 'b), then c again
; (the value is that of the form it was captured in: docs/LANGUAGE.md 7.9)
(= saved-b (cadr (find [is (car _) 'b] saved)))
(= saved nil)
(saved-b nil) ; expect: ((a) (b) (c))
(map car saved) ; expect: (c c c)

; escaping in a loop at depth leaves the frames below intact
(def escapes (n)
  (let total 0
    (repeat n (++ total (ccc (fn (k) (deep 30 (fn () (k 2)))))))
    total))
(deep 3000 (fn () (escapes 100))) ; expect: 200

; generators written with ccc, at depth, interleaved
(def make-gen (xs)
  (let (return resume) nil
    (fn ()
      (ccc (fn (r)
        (= return r)
        (if resume
            (resume nil)
            (do (each x xs (ccc (fn (k) (= resume k) (return x))))
                (return 'done))))))))
(= g1 (make-gen '(1 2 3)) g2 (make-gen '(a b)))
(deep 500 (fn () (list (g1) (g2) (g1) (g2) (g1) (g2) (g1)))) ; expect: (1 a 2 b 3 done done)

; a continuation captured in one fiber and invoked in another carries on
; there with the first fiber's frames
(= fk nil)
(resume (fiber (fn (_) (list 'result (+ 1 (ccc (fn (k) (= fk k) 0))))))) ; expect: (result 1)
(resume (fiber (fn (_) (fk 41) 'not-here))) ; expect: (result 42)

; map, keep, trues, two-list map and range build their lists forward
; (stdlib/core.arc, %map1): a continuation captured in the middle and
; re-entered after the list is done must find the cells it captured as they
; were, and the finished lists must stay as they are
(= k2 nil)
(def again (f) (let rs nil (push (f) rs) (if (no (cdr rs)) (k2 'b)) (rev rs)))
(def capture-at (v x) (if (is x v) (ccc (fn (k) (= k2 k) 'a)) x))
(again (fn () (map [capture-at 2 _] '(1 2 3 4)))) ; expect: ((1 a 3 4) (1 b 3 4))
(again (fn () (map [capture-at 1 _] '(1 2 3)))) ; expect: ((a 2 3) (b 2 3))
(again (fn () (map [capture-at 3 _] '(1 2 3)))) ; expect: ((1 2 a) (1 2 b))
(again (fn () (map (fn (x y) (capture-at 2 x)) '(1 2 3) '(x y z)))) ; expect: ((1 a 3) (1 b 3))
(again (fn () (keep [if (is _ 2) (ccc (fn (k) (= k2 k) nil)) (odd _)] '(1 2 3 4 5)))) ; expect: ((1 3 5) (1 2 3 5))
(again (fn () (keep [if (is _ 3) (ccc (fn (k) (= k2 k) t)) (odd _)] '(1 2 3 4 5)))) ; expect: ((1 3 5) (1 3 5))
(again (fn () (trues [capture-at 2 _] '(1 2 3)))) ; expect: ((1 a 3) (1 b 3))
; the first result's cells are not the second's
(let rs nil (push (map [capture-at 2 _] '(1 2 3 4)) rs) (if (no (cdr rs)) (k2 'b)) (is (nthcdr 2 (car rs)) (nthcdr 2 (cadr rs)))) ; expect: nil
; every element captures (a catch in f): one copy, the same list
(len (map (fn (x) (catch (if (< x 0) (throw 0)) x)) (range 1 20000))) ; expect: 20000
(map (fn (x) (catch (if (odd x) (throw 0)) x)) '(1 2 3 4)) ; expect: (0 2 0 4)
; captures in a nested map, then more captures in the outer one
(map (fn (x) (map [capture-at 0 _] (list x (* 10 x)))) '(1 2)) ; expect: ((1 10) (2 20))
(again (fn () (map (fn (x) (map [capture-at 20 _] (list x (* 10 x)))) '(1 2 3)))) ; expect: (((1 10) (2 a) (3 30)) ((1 10) (2 b) (3 30)))
; range with a redefined +, capturing in its step from 2: re-entry steps to 4
(= orig+ +)
(do (= + (fn (a b) (if (and (is a 2) (is b 1)) (ccc (fn (k) (= k2 k) (orig+ a b))) (orig+ a b))))
    (let rs nil
      (push (range 1 5) rs)
      (if (no (cdr rs)) (k2 4))
      (= + orig+)
      (rev rs))) ; expect: ((1 2 3 4 5) (1 2 4 5))
(+ 1 2) ; expect: 3

; ccc called in tail position in an if's branch: the continuation returns
; its value from the function, not running on into the other branch
(= kt nil)
(def tail-ccc (x) (if x (ccc (fn (k) (= kt k) 'first)) 'else))
(let rs nil (push (tail-ccc t) rs) (if (no (cdr rs)) (kt 'again)) rs) ; expect: (again first)
(def tail-apply-ccc (x) (if x (apply ccc (list (fn (k) (= kt k) 'first))) 'else))
(let rs nil (push (tail-apply-ccc t) rs) (if (no (cdr rs)) (kt 'again)) rs) ; expect: (again first)

; An assigned local no closure captures lives in its frame's slot until a
; capture boxes it (VM::box_shared_slots): the frame and the continuation's
; copy then share it, as they share any variable
; assigned after the capture, seen by the re-entered continuation
(= kx nil)
(def shared-after ()
  (let x 1
    (let r (ccc (fn (k) (= kx k) 'first))
      (= x (+ x 10))
      (if (is r 'first) (kx 'again) (list r x)))))
(shared-after) ; expect: (again 21)
; assigned in the re-entered run, seen by the next re-entry
(= runs 0)
(def shared-loop ()
  (let s 0
    (ccc (fn (k) (= kx k)))
    (++ s 5)
    (++ runs)
    (if (< runs 3) (kx nil) s)))
(shared-loop) ; expect: 15
; a loop whose body captures, its sum assigned: every round's capture
; shares the one variable, so re-entering the first round goes on from 6
(= again nil)
(def shared-counter ()
  (with (n 0 ks nil)
    (for i 1 3 (++ n i) (ccc (fn (k) (push k ks))))
    (if again n (do (= again t) ((last ks) nil)))))
(shared-counter) ; expect: 11
; a let entered again after a capture binds a new variable, not the boxed one
(def shared-fresh ()
  (let seen nil
    (each i '(1 2)
      (let v i
        (ccc (fn (k) nil))
        (= v (* v 100))
        (push v seen)))
    seen))
(shared-fresh) ; expect: (200 100)
; a (++ s i) fused update after the slot was boxed takes the box's path
(def shared-fused ()
  (let s 0
    (for i 1 10 (++ s i) (when (is i 5) (ccc (fn (k) nil))))
    s))
(shared-fused) ; expect: 55
; an escape with a loop's assigned local, 1,000 rounds deep in captures
(def shared-many ()
  (let total 0
    (repeat 1000 (++ total (ccc (fn (k) (k 2)))))
    total))
(shared-many) ; expect: 2000

; a let's copy of an assigned local (LOADX_POPL) reads through the box a
; capture gave the local's slot
(def lx-copy (n)
  (let k n
    (ccc (fn (c) nil))
    (= k (+ k 1))
    (let g k (= k 0) (list g k))))
(list (lx-copy 5) (lx-copy 1.5)) ; expect: ((6 0) (2.5 0))
