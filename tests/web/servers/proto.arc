; The server of tests/web/test_http.py: HTTP/1.1 on the wire (keep-alive,
; HEAD, forms, multipart uploads, pipelining) and the answers to bad input,
; timeouts, failing and overlong handlers. The timeouts are short so the
; tests do not wait long.
;
; Run as: arcana --host=127.0.0.1 proto.arc 0

(= header-timeout* 1 idle-timeout* 1 body-timeout* 1 threadlife* 1)
(thread (sleep 120) (quit 3))  ; ends itself if its test never kills it

(defop hello req (pr "hello"))
(defop args req (write req!args))
(defop n req (pr "n=" (arg req "i")))
(defop version req (pr req!version))

; Closing its output closes the connection after this response.
; Header lines the server owns, printed wrong: the server writes its own.
(defop-raw liar (str req)
  (w/stdout str
    (prn "Content-Length: 9999")
    (prn "Transfer-Encoding: chunked")
    (prn "Date: yesterday")
    (prn "Connection: close")
    (prn "X-Kept: yes")
    (prn)
    (pr "truth")))

(defop-raw closeme (str req)
  (w/stdout str (prn) (pr "closing"))
  (close str))

(defop sleep req (sleep (read (arg req "s"))) (pr "slept"))

(defop boom req
  (pr "partial output of boom")
  (err "kaboom-message" 42))
(defopr boomr req (err "redirector-failed"))
(defop fboom req (pr (url-for (fnid (fn (r) (err "closure-failed"))))))
; Never waits: the thread is broken by its alarm, all the same.
(defop spin req (while t nil))

(defop big-response req (pr (newstring (int (arg req "n")) #\x)))
(defop worker req (write (%srv-worker)))

; Uploads: (name filename content-type size) of each file; the first
; file's bytes written back.
(defop files req
  (write (map [list (_ 0) (_ 1) (_ 2) (len (_ 3))] req!files)))
(defop upload req
  (each c ((car req!files) 3) (writeb (int c))))

; Body limits: 100 bytes for small, the default (1 MiB) for big.
(= (max-body* 'small) 100)
(defop small req (pr (len (or (arg req "d") ""))))
(defop big req (pr (len (or (arg req "d") ""))))

(serve (int (car argv)))
