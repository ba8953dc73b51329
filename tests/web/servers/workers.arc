; The server of tests/web/test_workers.py, run with --workers=2: each
; worker answers with its index. (No self-ending timer here: the parent of
; the workers runs no Arc code, and a worker that quit would be restarted;
; the test kills the process group, and the parent dies with the test.)
; Run as: arcana --host=127.0.0.1 --workers=2 workers.arc 0

(= header-timeout* 2 idle-timeout* 1 threadlife* 10)

(defop hello req (pr "hello"))
(defop w req (pr (%srv-worker)))
; Builds and drops a few thousand lists, then says which collector
; runs and how many major collections it has finished in this worker.
(defop gc req
  (repeat 20 (let l nil (repeat 50 (push (list 1 2) l)) (len l)))
  (let s (gc-stats)
    (pr (%srv-worker) " " (s 'collector) " " (s 'major-collections))))
(defop sleep req (sleep (read (arg req "s"))) (pr "slept in " (%srv-worker)))

(serve (int (car argv)))
