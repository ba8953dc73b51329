; The server of tests/web/test_emfile.py, run with a limit of 40 file
; descriptors it cannot raise: past it, accepting fails (EMFILE).
; Run as: arcana --host=127.0.0.1 emfile.arc 0

(= header-timeout* 3 idle-timeout* 1)
(thread (sleep 120) (quit 3))  ; ends itself if its test never kills it

(defop hello req (pr "hello"))

(serve (int (car argv)))
