; local-path (stdlib/app.arc): a whence a request brings redirects only
; within the site.

; The site's own whences, relative and absolute, pass as they are.
(map local-path '("news" "item?id=12" "newcomments" "/news" "x?fnid=abc&y=1" "user?id=a%20b"))
; expect: ("news" "item?id=12" "newcomments" "/news" "x?fnid=abc&y=1" "user?id=a%20b")
; Another host or a scheme, as written or as a browser normalises it: it
; drops C0 controls and spaces at the ends and tabs, CRs and LFs anywhere,
; and reads \ as /. Each gives the default.
(let bad (list "//evil.example/" "http://evil.example/" "javascript:alert(1)"
               (+ (string #\u0001) "//evil.example/") (+ "\t" "//evil.example/")
               "/\t/evil.example/" "\r\n//evil.example/" "/\n/evil.example/"
               "\\\\evil.example/" "/\\evil.example/" " //evil.example/"
               (+ (string #\u00a0) "//evil.example/") (+ (string #\u3000) "//evil.example/")
               "java\tscript:alert(1)" (+ "news" (string #\u007f)) "a b" "a\"b" "<x>" "")
  (list (len bad) (count [is (local-path _) "news"] bad) (local-path (car bad) "front")))
; expect: (19 19 "front")
(map local-path (list nil 'news 12 (newstring 2000 #\a)))
; expect: ("news" "news" "news" "news")
; The last string checked is remembered: asked again, the same verdict,
; with the default given this time; a string changed after its check is
; checked again, not taken for the one it was.
(list (local-path "//x" "a") (local-path "//x" "b") (local-path "news" "a") (local-path "news" "b"))
; expect: ("a" "b" "news" "news")
(let s (copy "news/x")
  (let first (local-path s)
    (= (s 0) #\/ (s 1) #\/)
    (list first (local-path s) (local-path s "front") s)))
; expect: ("//ws/x" "news" "front" "//ws/x")
