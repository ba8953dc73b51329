; The server of tests/web/test_memory.py: a burst of connections that each
; send part of a header and are closed by header-timeout*, after which the
; server's memory must follow the load down with no request to prompt it.
; Run as: arcana --host=127.0.0.1 burst.arc 0

(= header-timeout* 1 idle-timeout* 1 threadlife* 10)
; One client makes the whole burst: no cap on its connections.
(= max-conns-per-ip* nil)
(thread (sleep 120) (quit 3))  ; ends itself if its test never kills it

(defop hello req (pr "hello"))

(serve (int (car argv)))
