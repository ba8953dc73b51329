; The server of tests/web/test_limits.py: at most two connections open at
; once (max-conns*); a third waits up to conn-wait* (1 s) for a place.
; Run as: arcana --host=127.0.0.1 conns.arc 0

(= max-conns* 2 conn-wait* 1)
(= header-timeout* 3 idle-timeout* 1 threadlife* 10)
(thread (sleep 120) (quit 3))  ; ends itself if its test never kills it

(defop hello req (pr "hello"))
(defop sleep req (sleep (read (arg req "s"))) (pr "slept " (arg req "s")))
(defop conns req (pr srv-conns*))

(serve (int (car argv)))
