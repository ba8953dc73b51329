; The server of tests/web/test_srv.py: ops, the request table, redirects,
; raw ops, cookies, closures as links and forms (fnids), the request log.
; Run as: arcana --host=127.0.0.1 app.arc 0

(= header-timeout* 2 idle-timeout* 2 threadlife* 5)
(thread (sleep 120) (quit 3))  ; ends itself if its test never kills it

(defop hello req (pr "Hello, " (or (arg req "name") "world") "."))

; A field of the request table, written: /field?f=cooks
(defop field req (write (req (sym (arg req "f")))))
(defop args req (write req!args))
(defop arg req (write (arg req "k")))
; A header of the request by its lower-cased name: /header?h=x-test
(defop header req (write (alref req!headers (arg req "h"))))

; Redirectors: the value is the Location; header lines printed first.
(defopr go req (string "hello?name=" (arg req "to")))
(defopr login req
  (prn "Set-Cookie: user=alice; Path=/")
  "hello?name=alice")

; A raw op prints its own header lines and the blank line after them.
(defop-raw raw (str req)
  (w/stdout str
    (prn "X-Raw: yes")
    (prn "Set-Cookie: r=1")
    (prn)
    (pr "raw body for " req!type)))

(= (max-age* 'cached) 60)
(defop cached req (pr "cached"))

(defop slow req (sleep 1.2) (pr "slow"))

; A handler's error: answered 500.
(defop boom req (err "boom for the log"))

; --- closures ---

; The Arc tutorial's page: a form whose answer comes back through a link.
(defop said req
  (aform [onlink "click here" (pr "you said: " (arg _ "foo"))]
    (input "foo")
    (submit)))

(defop links req
  (w/link (pr "w/link followed") (pr "one"))
  (br)
  (onlink "two" (pr "onlink followed"))
  (br)
  (linkf "three" (r) (pr "linkf sees " (arg r "extra")))
  (br)
  (tag (a href (rflink (fn (r) (string "hello?name=" (arg r "who"))))) (pr "four"))
  (br)
  (w/rlink "hello?name=rlink" (pr "five")))

(defop forms req
  (aform (fn (r) (pr "aform got " (arg r "v") " and " (arg r "q")))
    (input "v") (submit))
  (arform (fn (r) (string "hello?name=" (arg r "v")))
    (input "v") (submit))
  (arformh (fn (r) (prn "Set-Cookie: h=" (arg r "v")) "hello?name=arformh")
    (input "v") (submit))
  (taform 1 (fn (r) (pr "taform ok"))
    (submit))
  (tarform 1 (fn (r) "hello?name=tarform")
    (submit)))

; aformh: the closure prints its own header lines and the blank line.
(defop hform req
  (aformh (fn (r) (prn "X-From-Closure: " (arg r "v")) (prn) (pr "aformh body"))
    (input "v") (submit)))

; A link to a closure that lasts a second (the closure of /x prints the
; blank line ending the header itself).
(defop tlink req
  (pr (url-for (timed-fnid 1 (fn (r) (prn) (pr "timed link ok"))))))

; /a runs a closure and drops what it prints.
(= a-hit* nil)
(defop alink req
  (pr (string jfnurl* "?fnid=" (fnid (fn (r) (= a-hit* (arg r "v")) (pr "dropped"))))))
(defop ahit req (write a-hit*))

; Whether a symbol of that name is interned (fnids dropped with their closures).
(defop interned req (write (no (no (%find-sym (arg req "s"))))))

; The collector's count of major collections (the idle collection test).
(defop gcmajors req (pr ((gc-stats) 'major-collections)))

; An op whose work is known (n conses, a sleep that lets the other
; requests' threads run in between), and opstats* as text.
(defop conses req
  (let n (int (arg req "n"))
    (sleep .05)
    (let acc nil (repeat n (= acc (cons n acc))))
    (pr "made " n)))
(defop opstats req
  (each s (opstats-per-request)
    (prn s!op " " s!requests " " s!allocations " " s!bytes " " (or s!dispatches "-"))))

(serve (int (car argv)))
