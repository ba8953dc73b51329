; The server of tests/web/test_fnid_workers.py, run with --workers=2:
; each worker says which it is (/w), and makes closures (/page) that say
; which worker made them and which one runs them, so a test can follow on
; one worker a link or form made on the other. (No self-ending timer: see
; workers.arc.)
;
; Run as: arcana --host=127.0.0.1 --workers=2 fnids.arc 0

(= header-timeout* 2 idle-timeout* 5 threadlife* 10)

(defop w req (pr (%srv-worker)))

; One closure of each kind, each on a line: a link (flink), a redirecting
; link (rflink, to /w with the maker's index), a form (fnform), and a form
; that redirects (arform). The forms' closures tell how much of the field
; text arrived and its digest (BLAKE2b-256 of its UTF-8, %digest).
(defop page req
  (let made (%srv-worker)
    (prn "link " (flink (fn (r)
                          (pr "link made on " made " followed on " (%srv-worker)
                              " a=" (arg r "a")))))
    (prn "rlink " (rflink (fn (r) (string "w?made=" made))))
    ; a link whose answer is slow (it sleeps first): requests for it are
    ; in its maker's hands a while (a worker killed then)
    (prn "slink " (flink (fn (r)
                           (sleep .1)
                           (pr "slow link made on " made " followed on " (%srv-worker)))))
    (fnform (fn (r)
              (let text (or (arg r "text") "")
                (prn)
                (pr "form made on " made " followed on " (%srv-worker)
                    " len " (len text) " digest " (%digest text))))
            (fn () (pr "<input name=text>")))
    (prn)
    (arform (fn (r) (string "w?made=" made "&len=" (len (arg r "text"))))
      (pr "<input name=text>"))))

; A closure made before serve, in the process the workers are forked
; from: every worker has it, and answers it itself.
(= shared-link* (flink (fn (r) (pr "shared link followed on " (%srv-worker)))))
(defop shared req (pr shared-link*))

(serve (int (car argv)))
