; The server of tests/web/test_perip.py: at most three connections open at
; once per client IP (max-conns-per-ip*), counted by the forwarded IP
; behind the trusted proxy 127.0.0.50 (trusted-proxies*).
;
; Run as: arcana --host=127.0.0.1 perip.arc 0

(= max-conns-per-ip* 3 trusted-proxies* '("127.0.0.50"))
(= header-timeout* 20 idle-timeout* 20 threadlife* 20)
(thread (sleep 120) (quit 3))  ; ends itself if its test never kills it

(defop hello req (pr "hello"))
; /hold answers once /release has been asked for
(= released* nil)
(defop hold req (until released* (sleep .01)) (pr "released"))
(defop release req (set released*) (pr "ok"))
; the connections counted for an IP, nil for none
(defop count req (write (srv-conns/ip* (arg req "ip"))))

(serve (int (car argv)))
