; The server of tests/web/test_throttle.py: abusive-ip (docs/LANGUAGE.md 6.5 step 3),
; the bans it makes (ban-time*), and the client IP behind trusted proxies
; (trusted-proxies*). Each test makes its requests from an IP of its own
; (127.0.0.N, or forwarded ones) and sets the limits first through /set,
; from another IP. static/ has s.css (test_throttle.py makes it).
; Run as: arcana --host=127.0.0.1 throttle.arc 0

(= header-timeout* 2 idle-timeout* 2 threadlife* 5)
(thread (sleep 120) (quit 3))  ; ends itself if its test never kills it

(defop hello req (pr "hello"))

; /set?limit=30&window=10&dos=2&ban=300 (limit=nil: no throttling;
; ban=nil: bans for good)
(defop set req
  (= req-limit* (read (arg req "limit"))
     req-window* (read (arg req "window"))
     dos-window* (read (arg req "dos"))
     ban-time* (read (arg req "ban")))
  (pr "ok"))

(defop spurned-of req (write (spurned* (arg req "ip"))))
(defop ignored req (write (ignore-ips* (arg req "ip"))))
(defop banned req (write (%srv-banned (arg req "ip"))))
(defop requests-of req (write (requests/ip* (arg req "ip"))))
; an operator's ban, as an Arc 3.1 program makes it
(defop ban req (write (set (ignore-ips* (arg req "ip")))))

; The tests' proxies (127.0.0.51 is one farther off): their
; X-Forwarded-For names the client.
(= trusted-proxies* '("127.0.0.50" "127.0.0.51"))
(defop whoami req (pr req!ip " " req!scheme))

(serve (int (car argv)))
