; The server of tests/web/test_workers.py, run with --workers=2: each
; worker answers with its index. (No self-ending timer here: the parent of
; the workers runs no Arc code, and a worker that quit would be restarted;
; the test kills the process group, and the parent dies with the test.)
; Run as: arcana --host=127.0.0.1 --workers=2 workers.arc 0

(= header-timeout* 2 idle-timeout* 1 threadlife* 10)

(defop hello req (pr "hello"))
(defop w req (pr (%srv-worker)))
(defop sleep req (sleep (read (arg req "s"))) (pr "slept in " (%srv-worker)))

(serve (int (car argv)))
