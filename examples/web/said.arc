; examples/web/said.arc — the Arc tutorial's "said" page: a form whose
; answer comes back through a closure.
;
;   build/arcana examples/web/said.arc           # http://localhost:8080/said
;
; aform's closure runs when the form is posted, with the request of that
; post; it prints a link whose own closure (onlink's body) still sees foo,
; the answer typed on the first page. No state is kept anywhere but in the
; closures, which the server stores under random ids (fnids) in the form's
; hidden field and the link's URL.

(defop said req
  (aform (fn (req)
           (let foo (arg req "foo")
             (onlink "click here"
               (pr "you said: " (eschtml foo)))))
    (input "foo")
    (submit)))

; Only this machine can connect (127.0.0.1), as with the news site,
; unless arcana's --host says otherwise (--host=0.0.0.0: every interface).
(unless srv-host* (= srv-host* "127.0.0.1"))

(serve (int (or (car argv) "8080")))
