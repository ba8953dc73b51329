; The server of tests/web/test_shutdown.py: stopped by SIGTERM or SIGINT,
; it finishes the requests in flight, runs its on-shutdown hooks (which
; write files the test looks for) and exits 0.
;
; Run as: arcana --host=127.0.0.1 shutdown.arc 0

(= header-timeout* 5 idle-timeout* 30 threadlife* 10)
(thread (sleep 120) (quit 3))  ; ends itself if its test never kills it

(defop hello req (pr "hello"))
(defop sleep req (sleep (read (arg req "s"))) (pr "slept"))

(on-shutdown (fn () (w/outfile o "hook1.txt" (disp "first hook ran" o))))
(on-shutdown (fn () (err "a failing hook")))  ; logged; the others still run
(on-shutdown (fn ()
               (w/outfile o "hook2.txt"
                 (write (list 'after-first (file-exists "hook1.txt") 'conns srv-conns*) o))))

(serve (int (car argv)))
