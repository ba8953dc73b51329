; The server of tests/web/test_static.py: static files from staticdir*
; (static/ under the working directory, which the test fills first).
; Run as: arcana --host=127.0.0.1 static.arc 0

(= header-timeout* 1 idle-timeout* 1 threadlife* 5)
(= static-max-age* 120)
(thread (sleep 120) (quit 3))  ; ends itself if its test never kills it

(defop hello req (pr "hello"))
; An op wins over a file of the same name.
(defop op.txt req (pr "the op"))

(serve (int (car argv)))
