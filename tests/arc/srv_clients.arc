; stdlib/srv.arc's clients (docs/LANGUAGE.md 6.5): who a request's client
; is behind a trusted proxy (trusted-proxies*, X-Forwarded-For and
; X-Forwarded-Proto), bans that expire (ban-time*) beside an operator's
; for good, and the count of connections per IP (max-conns-per-ip*).
; No socket: the functions serve calls, on request tables made here.
; Expected values are derived from the spec, not from running the code.

; A request as %http-read makes it: from ip, with these header lines.
(def fake-req (ip . headers)
  (obj ip ip headers (map [list (downcase (car _)) (cadr _)] (pair headers))))

; --- addresses as the server writes them ------------------------------------------
(%ip-address "10.0.0.1") ; expect: "10.0.0.1"
(%ip-address "::FFFF:10.0.0.1") ; expect: "10.0.0.1"
(%ip-address "2001:DB8:0:0::1") ; expect: "2001:db8::1"
(%ip-address "unknown") ; expect: nil
(%ip-address "10.0.0.1:8080") ; expect: nil
(%ip-address "") ; expect: nil
(%ip-address 12) ; error: %ip-address

; --- the client of a request -----------------------------------------------------
(= trusted-proxies* '("127.0.0.50" "127.0.0.51"))

; from a trusted proxy: the right-most address that is not a trusted proxy
(let r (fake-req "127.0.0.50" "X-Forwarded-For" "10.0.0.1")
  (list (%srv-client r "127.0.0.50" t) r!ip r!scheme))
; expect: ("10.0.0.1" "10.0.0.1" "http")
(%srv-client (fake-req "127.0.0.50" "X-Forwarded-For" "6.6.6.6, 10.0.0.2") "127.0.0.50" t)
; expect: "10.0.0.2"
(%srv-client (fake-req "127.0.0.50" "X-Forwarded-For" "10.0.0.3, 127.0.0.51") "127.0.0.50" t)
; expect: "10.0.0.3"
; two header lines are one list, in order
(%srv-client (fake-req "127.0.0.50" "X-Forwarded-For" "10.0.0.4" "X-Forwarded-For" "127.0.0.51")
             "127.0.0.50" t)
; expect: "10.0.0.4"
; all of them trusted proxies: the farthest
(%srv-client (fake-req "127.0.0.50" "X-Forwarded-For" "127.0.0.51") "127.0.0.50" t)
; expect: "127.0.0.51"
; no header, or not an address where the client should be: the proxy
(%srv-client (fake-req "127.0.0.50") "127.0.0.50" t) ; expect: "127.0.0.50"
(%srv-client (fake-req "127.0.0.50" "X-Forwarded-For" "10.0.0.5, unknown") "127.0.0.50" t)
; expect: "127.0.0.50"
(%srv-client (fake-req "127.0.0.50" "X-Forwarded-For" "") "127.0.0.50" t) ; expect: "127.0.0.50"
; written as the server writes it
(%srv-client (fake-req "127.0.0.50" "X-Forwarded-For" "2001:DB8::7") "127.0.0.50" t)
; expect: "2001:db8::7"

; the scheme: the nearest proxy's word, https or http
(let r (fake-req "127.0.0.50" "X-Forwarded-For" "10.0.0.1" "X-Forwarded-Proto" "HTTPS")
  (%srv-client r "127.0.0.50" t)
  r!scheme)
; expect: "https"
(let r (fake-req "127.0.0.50" "X-Forwarded-Proto" "https, http")
  (%srv-client r "127.0.0.50" t)
  r!scheme)
; expect: "http"
(let r (fake-req "127.0.0.50" "X-Forwarded-Proto" "gopher")
  (%srv-client r "127.0.0.50" t)
  r!scheme)
; expect: "http"

; from anyone else, the headers change nothing
(let r (fake-req "127.0.0.60" "X-Forwarded-For" "10.0.0.1" "X-Forwarded-Proto" "https")
  (list (%srv-client r "127.0.0.60" nil) r!ip r!scheme))
; expect: ("127.0.0.60" "127.0.0.60" "http")
(%srv-trusted "127.0.0.60") ; expect: nil
(no (%srv-trusted "127.0.0.51")) ; expect: nil

; --- bans ----------------------------------------------------------------------
; abusive-ip's last ban-time* seconds, then go
(= ban-time* 100)
(%srv-ban "10.1.0.1")
(%srv-banned "10.1.0.1") ; expect: t
(<= 99 (- (ignore-ips* "10.1.0.1") (seconds)) 100) ; expect: t
(= (ignore-ips* "10.1.0.1") (- (seconds) 1))
(%srv-banned "10.1.0.1") ; expect: nil
(ignore-ips* "10.1.0.1") ; expect: nil
; an operator's, as in Arc 3.1, stay, and abusive-ip's do not shorten them
(set (ignore-ips* "10.1.0.2"))
(%srv-ban "10.1.0.2")
(ignore-ips* "10.1.0.2") ; expect: t
(%srv-banned "10.1.0.2") ; expect: t
; ban-time* nil: abusive-ip's are for good too
(= ban-time* nil)
(%srv-ban "10.1.0.3")
(ignore-ips* "10.1.0.3") ; expect: t
(%srv-banned "10.1.0.4") ; expect: nil

; --- connections per IP ----------------------------------------------------------
(= max-conns-per-ip* 2)
(%srv-take-ip "10.2.0.1") ; expect: t
(%srv-take-ip "10.2.0.1") ; expect: t
(%srv-take-ip "10.2.0.1") ; expect: nil
(srv-conns/ip* "10.2.0.1") ; expect: 2
(%srv-take-ip "10.2.0.2") ; expect: t
(%srv-take-ip "10.2.0.1" t) ; expect: t
(srv-conns/ip* "10.2.0.1") ; expect: 3
(%srv-drop-ip "10.2.0.1")
(%srv-take-ip "10.2.0.1") ; expect: nil
(%srv-drop-ip "10.2.0.1")
(%srv-take-ip "10.2.0.1") ; expect: t
(%srv-drop-ip "10.2.0.1")
(%srv-drop-ip "10.2.0.1")
(srv-conns/ip* "10.2.0.1") ; expect: nil
(= max-conns-per-ip* nil)
(%srv-take-ip "10.2.0.2") ; expect: t
(%srv-take-ip "10.2.0.2") ; expect: t
(%srv-take-ip "10.2.0.2") ; expect: t

; --- the settings, checked as serve starts -----------------------------------------
(= trusted-proxies* '("::FFFF:127.0.0.50" "::1"))
(%srv-check-settings)
trusted-proxies* ; expect: ("127.0.0.50" "::1")
(= trusted-proxies* "127.0.0.50")
(%srv-check-settings) ; error: trusted-proxies* should be a list of IP addresses
(= trusted-proxies* '("proxy.example.com"))
(%srv-check-settings) ; error: trusted-proxies* should be a list of IP addresses
(= trusted-proxies* nil max-conns-per-ip* 0)
(%srv-check-settings) ; error: max-conns-per-ip* should be a positive integer or nil
(= max-conns-per-ip* 100 ban-time* -1)
(%srv-check-settings) ; error: ban-time* should be a number of seconds or nil
(= ban-time* 300)
(%srv-check-settings) ; expect: nil
