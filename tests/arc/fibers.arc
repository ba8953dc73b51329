; Fibers and generators (issue 4): (fiber f), (resume fb (o x)), (yield (o x)),
; (fiber-done fb), (generator f).

; resume runs the fiber until it yields or returns, and gives that value
(= fb (fiber (fn (x) (yield (+ x 1)) (yield (+ x 2)) (+ x 3))))
(type fb) ; expect: fiber
(fiber-done fb) ; expect: nil
(resume fb 10) ; expect: 11
(resume fb) ; expect: 12
(fiber-done fb) ; expect: nil
(resume fb) ; expect: 13
(fiber-done fb) ; expect: t
(resume fb) ; error: resume: the fiber has finished

; the first resume's value is the function's argument; later ones are
; what yield returns
(= echo (fiber (fn (x) (let y (yield (list 'got x)) (list 'then y)))))
(resume echo 'a) ; expect: (got a)
(resume echo 'b) ; expect: (then b)
(= quiet (fiber (fn (x) (yield) x)))
(resume quiet) ; expect: nil
(resume quiet) ; expect: nil

; yield outside a fiber, and bad arguments
(yield 1) ; error: yield: not inside a fiber
(resume 5) ; error: resume: expected a fiber
(fiber-done 'x) ; error: fiber-done: expected a fiber

; an error inside a fiber ends it and is raised in its resumer
(= bad (fiber (fn (x) (yield 1) (car x))))
(resume bad 5) ; expect: 1
(on-err details (fn () (resume bad))) ; expect: "Can't take car of 5"
(fiber-done bad) ; expect: t

; a fiber's handlers and cleanups are its own
(= guarded (fiber (fn (_) (on-err (fn (e) (list 'inside (details e)))
                                  (fn () (yield 'waiting) (err "boom"))))))
(resume guarded) ; expect: waiting
(resume guarded) ; expect: (inside "boom")
(= cleaned nil)
(= prot (fiber (fn (_) (protect (fn () (yield 1) 2) (fn () (= cleaned t))))))
(list (resume prot) cleaned) ; expect: (1 nil)
(list (resume prot) cleaned) ; expect: (2 t)

; fibers resume fibers
(= outer (fiber (fn (_)
  (let inner (fiber (fn (_) (yield 'a) 'b))
    (yield (resume inner))
    (yield (resume inner))
    'done))))
(list (resume outer) (resume outer) (resume outer)) ; expect: (a b done)
(resume outer) ; error: resume: the fiber has finished

; a fiber cannot resume itself
(= self-fb nil)
(= self-fb (fiber (fn (_) (resume self-fb))))
(on-err details (fn () (resume self-fb))) ; expect: "resume: the fiber is running #<fiber>"

; generators
(= squares (generator (fn (yield) (for i 1 3 (yield (* i i))))))
(list (squares) (squares) (squares) (squares) (squares)) ; expect: (1 4 9 nil nil)
(= nat (generator (fn (yield) ((afn (i) (yield i) (self (+ i 1))) 0))))
(list (nat) (nat) (nat)) ; expect: (0 1 2)
(let g (generator (fn (yield) nil)) (g)) ; expect: nil

; many live fibers at once, each suspended with its own state
(= n-live (if (%gc-stress) 2000 100000))
(= live (map [fiber (fn (x) (yield (* x 2)) (+ x 1))] (range 1 n-live)))
; resumed with 1, each yields (* 1 2), then returns (+ 1 1)
(dedup (map [resume _ 1] live)) ; expect: (2)
(dedup (map [resume _] live)) ; expect: (2)
(all fiber-done live) ; expect: t

; a stack overflow inside a fiber is an Arc error in that fiber
(= deep (fiber (fn (_) ((afn (n) (if (is n 0) 0 (+ 1 (self (- n 1))))) 10000000))))
(on-err (fn (e) (if (begins (details e) "stack overflow") 'overflow (details e)))
        (fn () (resume deep))) ; expect: overflow
(fiber-done deep) ; expect: t
; and a deep recursion that fits works
(resume (fiber (fn (_) ((afn (n) (if (is n 0) 0 (+ 1 (self (- n 1))))) 1000)))) ; expect: 1000

; Fibers resumed from Arc code run in place, in the resumer's interpreter
; loop; one that calls a builtin running Arc code in a nested run (eval,
; macex) moves onto its own machine stack first, so a yield from inside
; that run works (vm/fiber.h).
(mac yielding-mac () (yield 'expanding) ''expanded)
(= mover (fiber (fn (_) (yield 'in-place) (let v (eval '(yielding-mac)) (yield v)) 'end)))
(resume mover) ; expect: in-place
(resume mover) ; expect: expanding
(resume mover) ; expect: expanded
(resume mover) ; expect: end
(fiber-done mover) ; expect: t
(= ev (fiber (fn (x) (eval `(yield ,x)) (macex '(yielding-mac)))))
(resume ev 7) ; expect: 7
(resume ev) ; expect: expanding
(resume ev) ; expect: (quote expanded)
; yields in tail position, and a resume in tail position
(= tails (fiber (fn (_) (yield 1) (yield 2))))
(let f (fn () (resume tails)) (list (f) (f) (f))) ; expect: (1 2 nil)
; resumed from C++ (a macro whose expander is resume itself) after it ran
; in place: it goes on on its own machine stack
(= twice (fiber (fn (_) (yield 10) (yield 20) 30)))
(resume twice) ; expect: 10
(= resume-mac (annotate 'mac resume))
(eval (list 'resume-mac twice)) ; expect: 20
(resume twice) ; expect: 30
; an error inside a fiber running in place runs its cleanups in the fiber,
; then reaches the resumer's handler; the resumer's state is intact
(= order nil)
(= failing (fiber (fn (_) (protect (fn () (yield 'ready) (err "inner"))
                                   (fn () (push 'fiber-cleanup order))))))
(resume failing) ; expect: ready
(let x 5 (list (on-err details (fn () (protect (fn () (resume failing))
                                               (fn () (push 'resumer-cleanup order)))))
               x order)) ; expect: ("inner" 5 (resumer-cleanup fiber-cleanup))
(fiber-done failing) ; expect: t
; nested fibers in place, the inner failing through the outer
(= nest (fiber (fn (_) (let inner (fiber (fn (_) (yield 'inner) (car 'x)))
                          (yield (resume inner))
                          (resume inner)))))
(resume nest) ; expect: inner
(on-err details (fn () (resume nest))) ; expect: "Can't take car of 'x"
; killing the thread a fiber runs in place in ends the fiber
(= sleeper (fiber (fn (_) (sleep 30) 'woke)))
(= th (thread (resume sleeper)))
(sleep 0.02)
(kill-thread th)
(sleep 0.01)
(list (dead th) (fiber-done sleeper)) ; expect: (t t)

; A continuation captured outside a fiber and invoked inside it leaves the
; fiber (and any between): their protect cleanups run, on-err does not
; catch it, they are finished, and the rest of the outer form runs once.
(= runs 0)
(let r (catch (let g (generator (fn (y) (y 1) (throw 'thrown)))
                (g) (g) 'fell-through))
  (++ runs)
  (list r runs)) ; expect: (thrown 1)
(= order nil)
(= outer-fb nil inner-fb nil)
(list (ccc (fn (k)
             (= outer-fb (fiber (fn (_)
                           (protect (fn ()
                                      (= inner-fb (fiber (fn (_)
                                                    (protect (fn () (on-err (fn (e) 'caught)
                                                                            (fn () (k 'escaped))))
                                                             (fn () (push 'inner order))))))
                                      (resume inner-fb))
                                    (fn () (push 'outer order))))))
             (resume outer-fb)
             'not-escaped))
      order (fiber-done outer-fb) (fiber-done inner-fb)) ; expect: (escaped (outer inner) t t)
; out of a fiber that moved onto its own machine stack
(ccc (fn (k) (resume (fiber (fn (_) (eval 1) (k 'from-moved)))) 'not-escaped)) ; expect: from-moved
