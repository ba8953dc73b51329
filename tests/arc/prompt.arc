; stdlib/prompt.arc: docs/LANGUAGE.md 6.7. Expected values are derived from the
; spec, not from running the code. Apps are kept in a fresh directory under
; /tmp, removed at the end.

appdir* ; expect: "arc/apps/"
(app-path "bob" "hello") ; expect: "arc/apps/bob/hello"
(app-path "bob" "../x") ; expect: nil
(app-path "../x" "y") ; expect: nil
(app-path nil "x") ; expect: nil

(= prt* (string "/tmp/arcana-prompt-test-" (seconds) "-" (rand 1000000000) "/"))
(= appdir* prt*)
(let p (app-path "bob" "hello") (if (is p (+ prt* "bob/hello")) '(+ prt* "bob/hello") p))
; expect: (+ prt* "bob/hello")

; --- write-app, read-app: the expressions come back as they went ---
(write-app "bob" "hello" '((def f () 1) a b "s")) ; expect: ((def f nil 1) a b "s")
(read-app "bob" "hello") ; expect: ((def f nil 1) a b "s")
(read-app "bob" "nothing") ; expect: nil
(read-app "bob" "../../etc/passwd") ; expect: nil

; --- pprcode: each expression pretty-printed, then a blank line ---
(tostring (pprcode '((+ 1 2) x))) ; expect: "(+ 1 2)\n\nx\n\n"
(tostring (pprcode nil)) ; expect: ""

; --- view-app, run-app ---
(write-app "bob" "page" '((pr "<b>") (pr (+ 1 2))))
(if (posmatch "(pr &#34;&#60;b&#62;&#34;)" (tostring (view-app "bob" "page"))) t) ; expect: t
(posmatch "(pr \"<b>\")" (tostring (view-app "bob" "page"))) ; expect: nil
(tostring (run-app "bob" "page")) ; expect: "<b>3"
(write-app "bob" "bad" '((pr "a") (car 1) (pr "b")))
(let out (tostring (run-app "bob" "bad")) (list (begins out "aError: ") (posmatch "b" out 1)))
; expect: (t nil)
(if (posmatch "No application" (tostring (run-app "bob" "none"))) t) ; expect: t

; --- rem-app ---
(if (file-exists (app-path "bob" "bad")) t) ; expect: t
(if (posmatch "deleted" (tostring (rem-app "bob" "bad"))) t) ; expect: t
(file-exists (app-path "bob" "bad")) ; expect: nil
(if (posmatch "No such app" (tostring (rem-app "bob" "bad"))) t) ; expect: t

; --- prompt-page lists the apps, names escaped ---
(w/outfile o (+ prt* "bob/a&b") (disp "" o))
(let page (tostring (prompt-page "bob"))
  (list (if (posmatch "<td>hello</td>" page) t) (if (posmatch "a&#38;b" page) t)
        (posmatch "a&b" page)))
; expect: (t t nil)

; --- repl: evaluate, remember, show the last 20 ---
(wipe repl-history*)
(let out (tostring (repl '((+ 1 2) (car 1)) "repl"))
  (list (if (posmatch "<form method=post action=\"repl\">" out) t)
        (if (posmatch "&gt; (+ 1 2)\n3\n" out) t)
        (if (posmatch "Error: " out) t)))
; expect: (t t t)
(map car repl-history*) ; expect: ((car 1) (+ 1 2))
(cadr (cadr repl-history*)) ; expect: 3
(let (expr val err) (car repl-history*) err) ; expect: t
that ; expect: 3
thatexpr ; expect: (+ 1 2)
(let out (tostring (repl '("<b>") "repl"))
  (list (posmatch "\"<b>\"" out) (if (posmatch "&#34;&#60;b&#62;&#34;" out) t)))
; expect: (nil t)
(wipe repl-history*)
(tostring (repl (n-of 25 '(+ 1 1)) "repl"))
(len repl-history*) ; expect: 25
(def nsub (pat s)
  ((afn (i n) (aif (posmatch pat s i) (self (+ it 1) (+ n 1)) n)) 0 0))
(nsub "&gt; " (tostring (repl nil "repl"))) ; expect: 20

; --- what a repl form sends reads in order; a read error comes last ---
(%prompt-read "(+ 1 2) x") ; expect: ((+ 1 2) x)
(%prompt-read nil) ; expect: nil
(let es (%prompt-read "1 (+ 1") (list (car es) (caar (cdr es)))) ; expect: (1 err)

; --- the ops: admins only, and the repl evaluates only its own forms ---
(= admins* '("root"))
(= (cookie->user* 'rootcookie1) "root" (cookie->user* 'bobcookie1) "bob")
(def prq (op args cookie)
  (let o (outstring)
    ((srvops* op) o (inst 'request 'args args 'cooks (list (list "user" cookie)) 'ip "127.0.0.1"))
    (inside o)))
(prq 'repl '(("expr" "(= prompt-test-a* 1)")) "bobcookie1") ; expect: "\nSorry."
(prq 'prompt nil "bobcookie1") ; expect: "\nSorry."
(prq 'prompt nil "nocookie") ; expect: "\nSorry."
(prq 'repl '(("expr" "(= prompt-test-a* 1)")) "rootcookie1")
(bound 'prompt-test-a*) ; expect: nil
(prq 'repl (list '("expr" "(= prompt-test-a* 1)") (list "tok" "wrong")) "rootcookie1")
(bound 'prompt-test-a*) ; expect: nil
(let page (prq 'repl (list '("expr" "(= prompt-test-a* 1)") (list "tok" (%prompt-token "root"))) "rootcookie1")
  (if (posmatch (+ "action=\"repl?tok=" (%prompt-token "root") "\"") page) t))
; expect: t
prompt-test-a* ; expect: 1
(if (posmatch "<b>Prompt</b>" (prq 'prompt nil "rootcookie1")) t) ; expect: t

(system (string "rm -rf " prt*))
(dir-exists prt*) ; expect: nil
