; The server of tests/web/test_throttle.py: abusive-ip (docs/LANGUAGE.md 6.5 step 3).
; Each test makes its requests from an IP of its own (127.0.0.N) and sets
; the limits first through /set, from another IP.
; Run as: arcana --host=127.0.0.1 throttle.arc 0

(= header-timeout* 2 idle-timeout* 2 threadlife* 5)
(thread (sleep 120) (quit 3))  ; ends itself if its test never kills it

(defop hello req (pr "hello"))

; /set?limit=30&window=10&dos=2 (limit=nil: no throttling)
(defop set req
  (= req-limit* (read (arg req "limit"))
     req-window* (read (arg req "window"))
     dos-window* (read (arg req "dos")))
  (pr "ok"))

(defop spurned-of req (write (spurned* (arg req "ip"))))
(defop ignored req (write (ignore-ips* (arg req "ip"))))
(defop requests-of req (write (requests/ip* (arg req "ip"))))

(serve (int (car argv)))
