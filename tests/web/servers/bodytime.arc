; The server of tests/web/test_body_deadline.py: a request body's total
; deadline (body-deadline*) and minimum rate (body-min-rate* after
; body-rate-grace*), with body-timeout* longer than the gaps of the tests'
; trickles, so that only the new limits can close them. /set changes a
; setting for the requests after it.
;
; Run as: arcana --host=127.0.0.1 bodytime.arc 0

(= header-timeout* 5 idle-timeout* 5 body-timeout* 2 threadlife* 10)
(= body-deadline* 2 body-min-rate* nil body-rate-grace* nil)
(thread (sleep 120) (quit 3))  ; ends itself if its test never kills it

(defop hello req (pr "hello"))
(defop len req (pr (len (or (arg req "d") ""))))

; (/set?name=body-deadline*&value=3): a setting, read as Arc.
(defop set req
  (let (name value) (map [arg req _] '("name" "value"))
    (eval `(= ,(sym name) ',(read value)))
    (pr name " " value)))

(serve (int (car argv)))
