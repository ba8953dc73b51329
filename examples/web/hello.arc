; examples/web/hello.arc — the smallest web server.
;
;   build/arcana examples/web/hello.arc          # http://localhost:8080/hello
;   build/arcana examples/web/hello.arc 9000     # another port (0: any free one)
;
; An op is a page: (defop name req body) answers /name, with what body
; prints as the page. (arg req "who") is a query or form argument.

(defop hello req
  (pr "hello")
  (awhen (arg req "who") (pr ", " it)))

; Only this machine can connect (127.0.0.1), as with the news site,
; unless arcana's --host says otherwise (--host=0.0.0.0: every interface).
(unless srv-host* (= srv-host* "127.0.0.1"))

(serve (int (or (car argv) "8080")))
