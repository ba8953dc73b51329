; Green threads (issue 4, docs/LANGUAGE.md 4.12): thread, new-thread, current-thread,
; kill-thread, break-thread, sleep, dead, atomic-invoke. Waits are written
; as loops over (sleep ...) rather than fixed delays, so the file holds under
; --gc-stress, where every safe point collects.

; t once every thread of ths is dead; nil if that takes over a minute (a
; broken scheduler fails the expectation instead of hanging the suite)
(def wait-all (ths)
  (let t0 (msec)
    (until (or (all dead ths) (> (- (msec) t0) 60000)) (sleep 0.001))
    (all dead ths)))

; threads are values of their own type
(type (current-thread)) ; expect: thread
(is (current-thread) (current-thread)) ; expect: t
(dead (current-thread)) ; expect: nil
(let th (thread 1) (list (type th) (wait-all (list th)) (dead th))) ; expect: (thread t t)
(tostring (pr (current-thread))) ; expect: "#<thread>"
(new-thread 5) ; error: new-thread: expected a function
(dead 5) ; error: dead: expected a thread
(kill-thread 'x) ; error: kill-thread: expected a thread
(sleep 'soon) ; error: sleep: expected a number
(sleep -1) ; error: sleep: expected a non-negative number of seconds
(sleep 0) ; expect: nil
(sleep 1/1000) ; expect: nil

; a thread sees its creator's globals and its own current-thread
(= seen nil)
(let th (thread (= seen (current-thread)))
  (wait-all (list th))
  (list (is seen th) (isnt seen (current-thread)))) ; expect: (t t)

; interleaving: (sleep 0) lets the others run, round-robin
(= out nil)
(let ths (list (thread (repeat 3 (push 'a out) (sleep 0)))
               (thread (repeat 3 (push 'b out) (sleep 0))))
  (wait-all ths)
  (rev out)) ; expect: (a b a b a b)

; a time slice is counted in safe points, and a collection does not end it
; (under --gc-stress every safe point collects): two short busy threads run
; one after the other, one change of tag along the log
(= slog nil)
(def slog-spin (tag) (repeat 50 (= slog (cons (idfn tag) slog))))
(let ths (list (thread (slog-spin 'a)) (thread (slog-spin 'b)))
  (wait-all ths)
  (list (len slog) (count idfn (map isnt slog (cdr slog))))) ; expect: (100 1)

; sleepers wake in the order of their deadlines, not of their starts
(= woke nil)
(let ths (map (fn (d) (thread (sleep (/ d 10.0)) (push d woke))) '(3 1 2))
  (wait-all ths)
  (rev woke)) ; expect: (1 2 3)

; a busy loop is preempted: the thread that sets the flag gets to run
(= flag nil)
(let th (thread (sleep 0.001) (= flag t))
  (let n 0
    (until (or flag (> n 50000000)) (++ n))
    flag)) ; expect: t

; and a busy thread does not starve the main one, which wakes from sleep
(= spinning t)
(let th (thread (while spinning nil))
  (sleep 0.002)
  (sleep 0.002)
  (= spinning nil)
  (wait-all (list th))) ; expect: t

; a sleep of 100 us is not rounded up to milliseconds, even with a busy thread
(let th (thread (while t nil))
  (let worst 0
    (repeat 5
      (let t0 (%nsec)
        (sleep 0.0001)
        (= worst (max worst (- (%nsec) t0)))))
    (kill-thread th)
    (if (%gc-stress) t (< worst 50000000)))) ; expect: t

; kill-thread: dead at once, never runs again
(= after-kill nil)
(let th (thread (sleep 0.01) (= after-kill t))
  (sleep 0)
  (kill-thread th)
  (list (dead th) (wait-all (list th)) (do (sleep 0.02) after-kill))) ; expect: (t t nil)
; a thread that never ran
(let th (thread (= after-kill t)) (kill-thread th) (sleep 0.001) (list (dead th) after-kill)) ; expect: (t nil)
; a thread killing itself
(let th (thread (kill-thread (current-thread)) (= after-kill t))
  (wait-all (list th))
  after-kill) ; expect: nil
; killing a finished thread does nothing
(let th (thread 1) (wait-all (list th)) (kill-thread th) (dead th)) ; expect: t
(kill-thread (current-thread)) ; error: kill-thread: the main thread cannot be killed
; a sleep of centuries is cut short by a kill
(let th (thread (sleep 1e300)) (sleep 0.001) (kill-thread th) (dead th)) ; expect: t
; a killed busy thread
(let th (thread (while t nil)) (sleep 0.001) (kill-thread th) (dead th)) ; expect: t

; an error in a thread ends that thread; the others go on
(= ran-after nil)
(let th (w/stdout (outstring) (thread (car 5) (= ran-after t)))
  (wait-all (list th))
  (list (dead th) ran-after)) ; expect: (t nil)

; break-thread: raised where the thread is (a sleep is cut short), not caught
; by on-err, but protect cleanups run
(= caught nil cleaned nil)
(let th (thread (on-err (fn (e) (= caught t))
                        (fn () (protect (fn () (sleep 10)) (fn () (= cleaned t))))))
  (sleep 0.001)
  (break-thread th)
  (wait-all (list th))
  (list caught cleaned (dead th))) ; expect: (nil t t)
(on-err (fn (e) 'caught) (fn () (break-thread (current-thread)))) ; error: user break

; atomic: one global lock, re-entrant, released however the body ends
(atomic (atomic (+ 1 2))) ; expect: 3
(= cnt 0)
(let ths (map (fn (_) (thread (repeat 20 (atomic (let v cnt (sleep 0) (= cnt (+ v 1)))))))
              '(1 2 3 4))
  (wait-all ths)
  cnt) ; expect: 80
; without the lock the same increments are lost
(= cnt 0)
(let ths (map (fn (_) (thread (repeat 20 (let v cnt (sleep 0) (= cnt (+ v 1))))))
              '(1 2 3 4))
  (wait-all ths)
  (< cnt 80)) ; expect: t
; an error inside atomic releases the lock
(let th (thread (atomic (sleep 0.001) (err "inside")))
  (sleep 0)
  (wait-all (list th))
  (atomic 'free)) ; expect: free
; so does killing the holder
(let th (thread (atomic (sleep 10)))
  (sleep 0.001)
  (kill-thread th)
  (atomic 'free-again)) ; expect: free-again
; a waiter queues behind the holder
(= order nil)
(let ths (list (thread (atomic (push 1 order) (sleep 0.002) (push 2 order)))
               (thread (sleep 0) (atomic (push 3 order))))
  (wait-all ths)
  (rev order)) ; expect: (1 2 3)
; so does a store into a table place, which one thread alone makes with no
; call (the ATOMIC opcode's inline body, SREF): while the holder sleeps
; between its two stores, main's waits, and comes last
(= lockh (table))
(let th (thread (atomic (= (lockh 0) 'first) (sleep 0.05) (= (lockh 0) 'second)))
  (until (lockh 0) (sleep 0))
  (= (lockh 0) 'main)
  (wait-all (list th))
  (lockh 0)) ; expect: main

; threads and fibers: each thread runs its own generators
(= gens nil)
(let ths (map (fn (tag)
                (thread (let g (generator (fn (yield) (each x '(1 2 3) (yield x) (sleep 0))))
                          (push (list tag (g) (g) (g)) gens))))
              '(x y))
  (wait-all ths)
  (sort (fn (a b) (< (string (car a)) (string (car b)))) gens)) ; expect: ((x 1 2 3) (y 1 2 3))

; continuations: captured in one thread, invoked from another, which then
; carries on with the rest of the first thread's computation
(= k nil got nil)
(let th (thread (= got (+ 100 (ccc (fn (c) (= k c) 0)))))
  (wait-all (list th))
  got) ; expect: 100
(let th (thread (k 5))
  (wait-all (list th))
  got) ; expect: 105
; and an escape within a thread runs its protect cleanups
(= steps nil)
(let th (thread (ccc (fn (out) (protect (fn () (push 'in steps) (out 1) (push 'no steps))
                                         (fn () (push 'cleanup steps)))))
                (push 'after steps))
  (wait-all (list th))
  (rev steps)) ; expect: (in cleanup after)

; a continuation deeper than a thread's small stack: a stack overflow in
; that thread, not a write past its stack
(= kdeep nil)
(def deep-k (n) (if (is n 0) (ccc (fn (c) (= kdeep c) 0)) (+ 1 (deep-k (- n 1)))))
(deep-k 5000) ; expect: 5000
(let th (w/stdout (outstring) (thread (kdeep 1))) (wait-all (list th)) (dead th)) ; expect: t

; a break that comes as the lock is handed over: the lock is given back
(= mainth (current-thread))
(do (thread (atomic (sleep 0.3)) (break-thread mainth)) (sleep 0.01) (atomic 'got-lock)) ; error: user break
(= zz nil)
(let z (thread (atomic (= zz 'ran))) (wait-all (list z)) zz) ; expect: ran

; I/O waits park the thread: the main thread runs while a child runs
(= piped nil)
(let th (thread (= piped (tostring (system "sleep 0.05; echo done"))))
  (let n 0
    (until (dead th) (++ n) (sleep 0.001))
    (list piped (> n 5)))) ; expect: ("done\n" t)

; many threads
(= total 0)
(let ths (map (fn (i) (thread (sleep 0.001) (atomic (++ total i)))) (range 1 200))
  (wait-all ths)
  total) ; expect: 20100

; Each thread's work meter (%meter: dispatches objects bytes gc-ms) counts
; what it allocated itself, not what the threads that ran between its
; readings did: two threads interleaved (a sleep in every round) each see
; what they see alone. The work conses, with no atomic (push would take
; the lock's slower path once other threads exist).
(def meter-work (n) (let acc nil (repeat n (= acc (cons n acc))) (len acc)))
(= metered (table))
(def meter-job (name n)
  (thread (let m0 (%meter)
            (repeat 20 (meter-work n) (sleep 0))
            (= (metered name) (firstn 2 (map - (cdr (%meter)) (cdr m0)))))))
(do (wait-all (list (meter-job 'a 1000))) (wait-all (list (meter-job 'b 3000)))
    (list (metered 'a) (metered 'b))) ; expect: ((20007 480184) (60007 1440184))
(do (wait-all (list (meter-job 'a 1000) (meter-job 'b 3000)))
    (list (metered 'a) (metered 'b))) ; expect: ((20007 480184) (60007 1440184))
; 2,000 more conses a round in b, and 24 bytes each
(map - (metered 'b) (metered 'a)) ; expect: (40000 960000)
; dispatches are nil while they are not counted, a count while they are
(car (%meter)) ; expect: nil
(do (count-sites t)
    (let m0 (%meter)
      (meter-work 10)
      (let m1 (%meter)
        (count-sites nil)
        (list (type (car m1)) (>= (- (car m1) (car m0)) 10))))) ; expect: (int t)

; table stores under atomic from two threads, each switching threads inside
; the body while it holds the lock: no update is lost. k, assigned by the
; loop and captured only by the stores' thunks, lives in its slot until a
; thunk is made (SHARE boxes it then), and the main program's store ran
; inline (ATOMIC's fast path) before the threads started
(def slow-inc (v) (sleep 0) (+ v 1))
(= shared-h (table))
(let k 0 (= (shared-h k) 0) (++ k) k) ; expect: 1
(let ths (map (fn (_) (thread (let k 0 (while (< k 20) (= (shared-h k) (slow-inc (shared-h k 0))) (++ k)))))
              '(1 2))
  (wait-all ths)
  (list (len shared-h) (all [is _ 2] (vals shared-h)))) ; expect: (20 t)
