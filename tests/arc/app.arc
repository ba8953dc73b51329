; stdlib/app.arc: docs/LANGUAGE.md 6.6 (and 6.4 for the HTML that widgets print).
; Expected values are derived from the spec, not from running the code.
; The user functions work in a fresh directory under /tmp, removed at the
; end; passwords are hashed only a handful of times (Argon2id is slow).

; --- markdown: paragraphs, italics, links, code -----------------------------
(markdown "hi *there*") ; expect: "hi <i>there</i>"
(markdown "a\n\nb") ; expect: "a<p>b"
(markdown "a\n\n\n\nb") ; expect: "a<p>b"
(markdown "one\ntwo") ; expect: "one\ntwo"
(markdown "2 * 3 = 6") ; expect: "2 * 3 = 6"
(markdown "a*b") ; expect: "a*b"
(markdown "*a* and *b*") ; expect: "<i>a</i> and <i>b</i>"
(markdown "x *") ; expect: "x *"
(markdown "see http://example.com/a_b.")
; expect: "see <a href=\"http://example.com/a_b\" rel=\"nofollow\">http://example.com/a_b</a>."
(markdown "https://x.org/p, then")
; expect: "<a href=\"https://x.org/p\" rel=\"nofollow\">https://x.org/p</a>, then"
(markdown "(http://x.com/f(1))")
; expect: "(<a href=\"http://x.com/f(1)\" rel=\"nofollow\">http://x.com/f(1)</a>)"
(markdown "http://example.com/abcdef" 10)
; expect: "<a href=\"http://example.com/abcdef\" rel=\"nofollow\">http://exa...</a>"
(markdown "go to http://x.com/y now" nil t) ; expect: "go to http://x.com/y now"
(markdown "a\n\n  x = 1\n\nbc") ; expect: "a<p><pre><code>  x = 1\n</code></pre>\nbc"
; A line of one character at the very end stays in the code block, as in
; Arc 3.1 (code-block looks for a line start at least two from the end)
(markdown "a\n\n  x = 1\n\nb") ; expect: "a<p><pre><code>  x = 1\n\nb</code></pre>"
(markdown "  code") ; expect: "<p><pre><code>  code</code></pre>"
(markdown "a\n  not code") ; expect: "a\n  not code"
(markdown "") ; expect: ""

; --- the helpers ---
(paras "ab\n\ncd") ; expect: ("ab" "cd")
(paras "one\n\n\n two \n\nthree\n") ; expect: ("one" "two" "three")
(paras "ab\n\nc") ; expect: ("ab" "c")
(paras "") ; expect: nil
(parabreak "a\n\nb" 1) ; expect: 3
(parabreak "a\nb" 1) ; expect: nil
(next-parabreak "ab\n\ncd" 0) ; expect: (2 4)
(next-parabreak "abc" 0) ; expect: nil
(indented-code "a\n\n  x" 1) ; expect: (5 2)
(indented-code "a\n\n x" 1) ; expect: nil
(urlend "http://a.com/x, y" 0) ; expect: 14
(urlend "http://a.com/x" 0) ; expect: 14
(urlend "http://a.com/(x) y" 0) ; expect: 16
(list (opendelim #\() (opendelim #\)) (closedelim #\]) (closedelim #\a))
; expect: (t nil t nil)
(code-block "\n  a\n  b\ncd" 0) ; expect: "  a\n  b"
(code-block "\n  a\n  b\nc" 0) ; expect: "  a\n  b\nc"
(code-block "\n  a\nb" 0) ; expect: "  a\nb"
(code-block "\n  a" 0) ; expect: "  a"

; --- md-from-form: tags escaped, \r dropped, the end trimmed ---
(md-from-form "<script>alert('x')</script>")
; expect: "&#60;script&#62;alert('x')&#60;/script&#62;"
(md-from-form "<a href=\"javascript:alert(1)\">x</a>")
; expect: "&#60;a href=\"javascript:alert(1)\"&#62;x&#60;/a&#62;"
(md-from-form "javascript:alert(1)") ; expect: "javascript:alert(1)"
(md-from-form "[x](javascript:alert(1))") ; expect: "[x](javascript:alert(1))"
(md-from-form "a & b") ; expect: "a &#38; b"
(md-from-form "line\r\n\r\nnext  \n ") ; expect: "line<p>next"
(md-from-form "http://a.com/\"><script>")
; expect: "<a href=\"http://a.com/&#62;&#60;script&#62\" rel=\"nofollow\">http://a.com/&#62;&#60;script&#62</a>;"
(md-from-form "http://x.com/y" t) ; expect: "http://x.com/y"
(md-from-form "http://example.com/a-very-long-path/that-goes-on-and-on/and-on-some-more")
; expect: "<a href=\"http://example.com/a-very-long-path/that-goes-on-and-on/and-on-some-more\" rel=\"nofollow\">http://example.com/a-very-long-path/that-goes-on-and-on/and-...</a>"

; --- unmarkdown: back to the source notation ---
(unmarkdown "hi <i>there</i>") ; expect: "hi *there*"
(unmarkdown "a<p>b") ; expect: "a\n\nb"
(unmarkdown "<a href=\"http://x.com/\" rel=\"nofollow\">http://x.com/</a>.") ; expect: "http://x.com/."
(unmarkdown (markdown "http://example.com/abcdefghij" 10)) ; expect: "http://example.com/abcdefghij"
(unmarkdown "a<p><pre><code>  x = 1\n</code></pre>\nb") ; expect: "a\n\n  x = 1\n\nb"
(unmarkdown "plain &#60;b&#62;") ; expect: "plain &#60;b&#62;"
(unmarkdown (markdown "one *two*\n\nsee http://ex.com/p.\n\n  code\n  more\n\nend"))
; expect: "one *two*\n\nsee http://ex.com/p.\n\n  code\n  more\n\nend"
(unmarkdown (md-from-form "<b>x</b> *y*\n\nhttp://a.com/(b)"))
; expect: "&#60;b&#62;x&#60;/b&#62; *y*\n\nhttp://a.com/(b)"

; --- english-time, parse-time ---
(english-time 0) ; expect: "12:00 midnight"
(english-time 720) ; expect: "12:00 noon"
(english-time 905) ; expect: "3:05 pm"
(english-time 30) ; expect: "12:30 am"
(english-time 60) ; expect: "1:00 am"
(english-time 1439) ; expect: "11:59 pm"
(parse-time "3:05 pm") ; expect: 905
(parse-time "12:00 midnight") ; expect: 0
(parse-time "12:00 noon") ; expect: 720
(parse-time "12:30 am") ; expect: 30
(parse-time "9 am") ; expect: 540
(parse-time "9:15am") ; expect: 555
(parse-time "9:15") ; expect: 1275
(parse-time "21:30") ; expect: 1290
(parse-time "0:30") ; expect: 30
(parse-time "12:30") ; expect: 750
(map [parse-time (english-time _)] '(0 1 59 719 720 905 1439)) ; expect: (0 1 59 719 720 905 1439)
(parse-time "25:00") ; error: time
(parse-time "3:75 pm") ; error: time
(parse-time "") ; error: time
(parse-time "noon") ; error: time
(parse-time "3 noon") ; error: time
(parse-time "0:30 pm") ; error: time
(parse-time "13:00 am") ; error: time

; --- months and dates ---
(len months*) ; expect: 12
(months* 2) ; expect: "March"
(map monthnum '("January" "jan" "Sept" "sep" "MAY" "dec")) ; expect: (1 1 9 9 5 12)
(monthnum "foo") ; expect: nil
(month-names* "october") ; expect: 10
(english-date '(2009 3 5)) ; expect: "5 March 2009"
(date-nums "5 March 2009") ; expect: (2009 3 5)
(date-nums "March 5, 2009") ; expect: (2009 3 5)
(date-nums "mar 5 2009") ; expect: (2009 3 5)
(date-nums "2009-03-05") ; expect: (2009 3 5)
(date-nums "5/3/2009") ; expect: (2009 3 5)
(let (y m d) (date-nums "5 mar") (list (is y (car (date))) m d)) ; expect: (t 3 5)
(let (y m d) (date-nums "17") (list (is y (car (date))) (is m (cadr (date))) d)) ; expect: (t t 17)
(cdr (date-nums "3 20")) ; expect: (3 20)
(cdr (date-nums "20 3")) ; expect: (3 20)
(date-nums "nonsense") ; expect: nil
(date-nums "") ; expect: nil
(parse-date "5 March 2009") ; expect: (2009 3 5)
(parse-date (english-date '(2012 12 31))) ; expect: (2012 12 31)
(parse-date "29 February 2008") ; expect: (2008 2 29)
(parse-date "29 February 2009") ; error: Invalid date
(parse-date "32 January 2009") ; error: Invalid date
(parse-date "garbage") ; error: Invalid date
(valid-date '(2009 12 31)) ; expect: t
(valid-date '(2009 13 1)) ; expect: nil
(valid-date '(2009 4 31)) ; expect: nil
(valid-date '(2009 0 1)) ; expect: nil
(valid-date nil) ; expect: nil

; --- goodname ---
(goodname "abc") ; expect: "abc"
(goodname "a-b_c9") ; expect: "a-b_c9"
(goodname "-ab") ; expect: nil
(goodname "a b") ; expect: nil
(goodname "a<b") ; expect: nil
(goodname "") ; expect: nil
(goodname "ab" 3) ; expect: nil
(goodname "abcdef" 1 5) ; expect: nil
(goodname "abcde" 1 5) ; expect: "abcde"
(goodname 'abc) ; expect: nil
(goodname nil) ; expect: nil
(goodname "été") ; expect: nil

; --- bad-newacct: Arc 3.1's messages word for word, line breaks, spaces
; and its "a least" too, so the create-account page is 3.1's ---
(bad-newacct "a b" "secret")
; expect: "Usernames can only contain letters, digits, dashes and \n        underscores, and should be between 2 and 15 characters long.  \n        Please choose another."
(bad-newacct "fresh-name" "abc")
; expect: "Passwords should be a least 4 characters long.  Please \n        choose another."
(bad-newacct "fresh-name" nil)
; expect: "Passwords should be a least 4 characters long.  Please \n        choose another."
(bad-newacct "fresh-name" "abcd") ; expect: nil

; --- readvar, every type ---
(readvar 'string "a <b>bold</b> c") ; expect: "a bold c"
(readvar 'string1 "  ") ; expect: nil
(readvar 'string1 " " 'bad) ; expect: bad
(readvar 'string1 "x<i>") ; expect: "x"
(readvar 'url "") ; expect: ""
(readvar 'url "http://example.com/") ; expect: "http://example.com/"
(readvar 'url "javascript:alert(1)" 'bad) ; expect: bad
(readvar 'url "ftp://example.com/" 'bad) ; expect: bad
(readvar 'url "http://x.com/\"><b>" 'bad) ; expect: bad
(readvar 'num "3.5") ; expect: 3.5
(readvar 'num "abc") ; expect: nil
(readvar 'num "" 'bad) ; expect: bad
(readvar 'num "(1 2)" 'bad) ; expect: bad
(readvar 'int "3.7") ; expect: 4
(readvar 'int "x" 'bad) ; expect: bad
(readvar 'int "1e400" 'bad) ; expect: bad
(readvar 'num "1e400" 'bad) ; expect: bad
(readvar 'posint "5") ; expect: 5
(readvar 'posint "0" 'bad) ; expect: bad
(readvar 'posint "-3" 'bad) ; expect: bad
(readvar 'text "a<b>c") ; expect: "ac"
(readvar 'doc "a<script>x</script>b") ; expect: "axb"
(readvar 'mdtext "hi *x*\n\n<b>") ; expect: "hi <i>x</i><p>&#60;b&#62;"
(readvar 'mdtext2 "see http://x.com/a") ; expect: "see http://x.com/a"
(readvar 'sym "foo bar") ; expect: foo
(readvar 'sym "  " 'bad) ; expect: bad
(readvar 'syms "a b  c") ; expect: (a b c)
(readvar 'sexpr "(a 1) \"s\"") ; expect: ((a 1) "s")
(readvar 'sexpr "(a") ; expect: nil
(readvar 'users "bob -x al!ce good_one") ; expect: ("bob" "good_one")
(readvar 'toks " a  b ") ; expect: ("a" "b")
(readvar 'bigtoks "x\ny") ; expect: ("x" "y")
(readvar 'lines "a\r\nb") ; expect: ("a" "b")
(readvar '(choice sym a b) "a") ; expect: a
(readvar '(choice int 1 2) "2") ; expect: 2
(readvar '(choice sym a b) "c" 'bad) ; expect: bad
(readvar 'yesno "yes") ; expect: t
(readvar 'yesno "no") ; expect: nil
(readvar 'hexcol "ff6600") ; expect: "ff6600"
(readvar 'hexcol "red" 'bad) ; expect: bad
(readvar 'time "3:05 pm") ; expect: 905
(readvar 'time "xyz" 'bad) ; expect: bad
(readvar 'date "5 March 2009") ; expect: (2009 3 5)
(readvar 'date "30 February 2009" 'bad) ; expect: bad
(readvar 'frob "x") ; error: readvar
(is (readvar 'num "x" fail*) fail*) ; expect: t
(is (readvar 'sym "fail*" fail*) fail*) ; expect: nil

; --- varcompare, text-type, text-rows, needrows ---
((varcompare 'toks) '(a b) '(a)) ; expect: t
((varcompare 'toks) '(a) '(a b)) ; expect: nil
((varcompare 'num) 1 2) ; expect: t
((varcompare 'num) 2 1) ; expect: nil
((varcompare 'num) 1 nil) ; expect: t
(sort (varcompare 'int) '(3 1 2)) ; expect: (1 2 3)
(sort (varcompare 'string) '("b" "" "a")) ; expect: ("a" "b" "")
((varcompare 'date) '(2009 1 2) '(2009 1 3)) ; expect: t
((varcompare 'date) '(2009 1 3) '(2009 1 2)) ; expect: nil
((varcompare 'date) '(2009 1 2) nil) ; expect: t
(map text-type '(string string1 url text mdtext mdtext2 num doc sym))
; expect: (t t t t t t nil nil nil)
(text-rows "" 60) ; expect: 3
(text-rows (newstring 96 #\a) 60) ; expect: 5
(text-rows (newstring 96 #\a) 60 0) ; expect: 2
(needrows "" 60) ; expect: 1
(needrows "a\nb\nc" 60) ; expect: 3
(needrows (newstring 110 #\a) 60 4) ; expect: 6
(needrows (newstring 83 #\a) 60) ; expect: 2
(needrows (newstring 82 #\a) 60) ; expect: 1
(list formwid* bigformwid* numwid* formatdoc-url*) ; expect: (60 80 16 nil)

; --- varfield: the input for each type, values escaped ---
(tostring (varfield 'string 'title "a\"<b>"))
; expect: "<input type=text name=\"title\" value=\"a&#34;&#60;b&#62;\" size=60>"
(tostring (varfield 'url 'url nil)) ; expect: "<input type=text name=\"url\" size=60>"
(tostring (varfield 'num 'n 5)) ; expect: "<input type=text name=\"n\" value=\"5\" size=16>"
(tostring (varfield 'sym 's (sym "a\"b")))
; expect: "<input type=text name=\"s\" value=\"a&#34;b\" size=16>"
(tostring (varfield 'toks 't '("a" "b"))) ; expect: "<input type=text name=\"t\" value=\"a b\" size=60>"
(tostring (varfield 'sexpr 'e '((a 1) "s")))
; expect: "<input type=text name=\"e\" value=\"(a 1) &#34;s&#34; \" size=60>"
(tostring (varfield 'text 'about "x</textarea><b>"))
; expect: "<textarea cols=60 rows=5 wrap=virtual name=\"about\">\nx&#60;/textarea&#62;&#60;b&#62;</textarea>"
(tostring (varfield 'doc 'd "hi"))
; expect: "<textarea cols=80 rows=5 wrap=virtual style=\"font-size:8.5pt\" name=\"d\">\nhi</textarea>"
(tostring (varfield 'mdtext 'about "a<p>b &#60;x&#62;"))
; expect: "<textarea cols=60 rows=7 wrap=virtual name=\"about\">\na\n\nb &#60;x&#62;</textarea>"
(tostring (varfield 'lines 'l '("a" "b")))
; expect: "<textarea cols=60 rows=6 wrap=virtual name=\"l\">\na\nb</textarea>"
(tostring (varfield 'syms 'ss '(x y)))
; expect: "<textarea cols=60 rows=5 wrap=virtual name=\"ss\">\nx y</textarea>"
(tostring (varfield 'yesno 'show t))
; expect: "<select name=\"show\"><option selected>yes</option><option>no</option></select>"
(tostring (varfield '(choice sym a b) 'c 'b))
; expect: "<select name=\"c\"><option>a</option><option selected>b</option></select>"
(tostring (varfield 'hexcol 'c "ff6600")) ; expect: "<input type=text name=\"c\" value=\"ff6600\">"
(tostring (varfield 'time 'at 905)) ; expect: "<input type=text name=\"at\" value=\"3:05 pm\">"
(tostring (varfield 'time 'at nil)) ; expect: "<input type=text name=\"at\" value=\"\">"
(tostring (varfield 'date 'd '(2009 3 5))) ; expect: "<input type=text name=\"d\" value=\"5 March 2009\">"
(tostring (varfield 'string1 's "x")) ; expect: "<input type=text name=\"s\" value=\"x\" size=60>"
(tostring (varfield 'int 'i -2)) ; expect: "<input type=text name=\"i\" value=\"-2\" size=16>"
(tostring (varfield 'posint 'i nil)) ; expect: "<input type=text name=\"i\" size=16>"
(tostring (varfield 'users 'u '("bob" "al"))) ; expect: "<input type=text name=\"u\" value=\"bob al\" size=60>"
(tostring (varfield 'bigtoks 'b '("<x>" "y")))
; expect: "<textarea cols=60 rows=5 wrap=virtual name=\"b\">\n&#60;x&#62; y</textarea>"
(= formatdoc-url* "formatdoc")
(tostring (varfield 'mdtext2 'text nil))
; expect: "<textarea cols=60 rows=5 wrap=virtual name=\"text\">\n</textarea> <font size=-2><a href=\"formatdoc\"><font color=#afafaf>help</font></a></font>"
(= formatdoc-url* nil)
(varfield 'frob 'x 1) ; error: varfield

; --- varline: values shown, escaped (mdtext is markdown's HTML) ---
(tostring (varline 'string 'x "<b>hi</b>")) ; expect: "&#60;b&#62;hi&#60;/b&#62;"
; a string field holding the application's own links prints them, as Arc
; 3.1 does (the reset-password and saved links of Arc 3.1's news.arc)...
(tostring (varline 'string 'password (tostring (underlink "reset password" "resetpw"))))
; expect: "<a href=\"resetpw\"><u>reset password</u></a>"
(tostring (varline 'string 'saved (tostring (underlink 3 "saved?id=bob&x=1"))))
; expect: "<a href=\"saved?id=bob&x=1\"><u>3</u></a>"
(tostring (varline 'string 'x "<u>a</u> and <a href=\"http://example.com/\">b</a>"))
; expect: "<u>a</u> and <a href=\"http://example.com/\">b</a>"
; ...and escapes any other markup, and every other text type's
(tostring (varline 'string 'x "<script>alert(1)</script>"))
; expect: "&#60;script&#62;alert(1)&#60;/script&#62;"
(tostring (varline 'string 'x "<a href=\"javascript:alert(1)\">x</a>"))
; expect: "&#60;a href=&#34;javascript:alert(1)&#34;&#62;x&#60;/a&#62;"
(tostring (varline 'string 'x "<a href=\"//evil.example\">x</a>"))
; expect: "&#60;a href=&#34;//evil.example&#34;&#62;x&#60;/a&#62;"
(tostring (varline 'string 'x "<a href=\"x\" onclick=\"alert(1)\">x</a>"))
; expect: "&#60;a href=&#34;x&#34; onclick=&#34;alert(1)&#34;&#62;x&#60;/a&#62;"
(tostring (varline 'string 'x "<u>a</u> > b")) ; expect: "&#60;u&#62;a&#60;/u&#62; &#62; b"
(tostring (varline 'string 'x "<u>a")) ; expect: "<u>a"
(tostring (varline 'string 'x "a <u")) ; expect: "a &#60;u"
(tostring (varline 'string1 'title (tostring (underlink "x" "y"))))
; expect: "&#60;a href=&#34;y&#34;&#62;&#60;u&#62;x&#60;/u&#62;&#60;/a&#62;"
(tostring (varline 'string 'x nil)) ; expect: ""
(tostring (varline 'toks 'x '("a<" "b"))) ; expect: "a&#60; b"
(tostring (varline 'lines 'x '("a" "b"))) ; expect: "a\nb\n"
(tostring (varline 'yesno 'x t)) ; expect: "yes"
(tostring (varline 'yesno 'x nil)) ; expect: "no"
(tostring (varline 'url 'x "http://example.com/" t))
; expect: "<a href=\"http://example.com/\">http://example.com/</a>"
(tostring (varline 'url 'x "http://example.com/")) ; expect: "http://example.com/"
(tostring (varline 'url 'x "javascript:alert(1)" t)) ; expect: "javascript:alert(1)"
(tostring (varline 'mdtext 'x "a<p>b")) ; expect: "a<p>b"
(tostring (varline 'num 'x 5)) ; expect: "5"
(tostring (varline 'sexpr 'x '("<i>"))) ; expect: "(&#60;i&#62;)"
(tostring (varline '(choice sym a b) 'x 'a)) ; expect: "a"
(tostring (varline 'time 'x 905)) ; expect: "3:05 pm"
(tostring (varline 'users 'x '("a" "b"))) ; expect: "a b"
(tostring (varline 'syms 'x '(a b))) ; expect: "a b"
(tostring (varline 'text 'x "a&b")) ; expect: "a&#38;b"
(tostring (varline 'string1 'x "\"q\"")) ; expect: "&#34;q&#34;"
(tostring (varline 'doc 'x "<p>")) ; expect: "&#60;p&#62;"
(tostring (varline 'mdtext2 'x "<i>a</i>")) ; expect: "<i>a</i>"
(tostring (varline 'hexcol 'x "ff0000")) ; expect: "ff0000"
(tostring (varline 'sym 'x 'a)) ; expect: "a"
(tostring (varline 'int 'x 5)) ; expect: "5"
(tostring (varline 'date 'x '(2009 3 5))) ; expect: "5 March 2009"

; --- showvars, vars-form ---
(tostring (showvars '((string name "bob" t nil) (string hidden "x" nil t))))
; expect: "<tr><td valign=top>name:</td><td>bob</td></tr>\n"
(tostring (showvars '((int n 3 t t "How many?"))))
; expect: "<tr><td>How many?\n</td></tr><tr><td><input type=text name=\"n\" value=\"3\" size=16></td></tr>\n"
(= vf-changes* nil)
(= vf-page* (tostring (vars-form nil '((string name "bob" t t) (int age 3 t t) (string id "x" t nil))
                                 (fn (k v) (push (list k v) vf-changes*))
                                 (fn () (push 'done vf-changes*)))))
(= vf-fnid* (let i (+ (findsubseq "name=\"fnid\" value=\"" vf-page*) 19)
              (sym (cut vf-page* i (pos #\" vf-page* i)))))
(if (posmatch "value=\"update\"" vf-page*) t) ; expect: t
(tostring ((fns* vf-fnid*) (inst 'request 'args '(("name" "<b>al</b>") ("age" "x") ("id" "zz") ("other" "1")))))
; expect: "\n"
vf-changes* ; expect: (done (name "al"))
; vars-rform posts to the redirecting op, and its closure answers where
; done says to go
(= vf-changes* nil)
(= vf-page* (tostring (vars-rform nil '((string name "bob" t t))
                                  (fn (k v) (push (list k v) vf-changes*))
                                  (fn () (push 'done vf-changes*) "user?id=al"))))
(if (posmatch "action=\"/r\"" vf-page*) t) ; expect: t
(= vf-fnid* (let i (+ (findsubseq "name=\"fnid\" value=\"" vf-page*) 19)
              (sym (cut vf-page* i (pos #\" vf-page* i)))))
((fns* vf-fnid*) (inst 'request 'args '(("name" "al")))) ; expect: "user?id=al"
vf-changes* ; expect: (done (name "al"))
(tostring (vars-rform nil '((string name "bob" t nil)) nil nil))
; expect: "<table border=0><tr><td valign=top>name:</td><td>bob</td></tr>\n</table>"

; --- fnids: each user's closures are bounded apart from everyone else's ---
(= fo-budget* fnids-per-user* fnids-per-user* 3)
(fnid-owner "fo-alice")
(= fo-a* (fnid (fn (req) 'a)))
(fnid-owner "fo-bob")
; bob makes five: his two oldest go, and only his
(= fo-bs* (map [fnid (fn (req) _)] '(1 2 3 4 5)))
(map [if (fns* _) t] fo-bs*) ; expect: (nil nil t t t)
(if (fns* fo-a*) t) ; expect: t
((fns* (last fo-bs*)) nil) ; expect: 5
; a timed one counts too, and pushes out bob's oldest
(= fo-tb* (timed-fnid 60 (fn (req) 'timed)))
(map [if (fns* _) t] fo-bs*) ; expect: (nil nil nil t t)
; harvest-fnids forgets the owner: what follows is nobody's, and a harvest
; of the shared pool leaves the users' closures alone
(harvest-fnids)
(= fo-anon* (map [fnid (fn (req) _)] (range 1 30)))
(let n (len fnids*) (harvest-fnids 20) (- n (len fnids*))) ; expect: 2
(list (if (fns* fo-a*) t) (if (fns* fo-tb*) t) (if (fns* (last fo-bs*)) t))
; expect: (t t t)
(if (fns* (last fo-anon*)) t) ; expect: t
(= fnids-per-user* fo-budget*)

; --- users: accounts, passwords, cookies, in a fresh directory ---
(= appt* (string "/tmp/arcana-app-test-" (seconds) "-" (rand 1000000000) "/"))
(= arcdir* appt* hpwfile* (+ appt* "hpw") oidfile* (+ appt* "openids")
   adminfile* (+ appt* "admins") cookfile* (+ appt* "cooks")
   sessfile* (+ appt* "sessions"))
(ensure-dir appt*)
(w/outfile o adminfile* (disp "alice\ncarol\n" o))
(load-userinfo) ; expect: t
admins* ; expect: ("alice" "carol")
(if (admin "alice") t) ; expect: t
(admin "bob") ; expect: nil
(admin nil) ; expect: nil
(user-exists "alice") ; expect: nil
(username-taken "alice") ; expect: nil
(bad-newacct "alice" "hunter22") ; expect: nil
; the message says which rule failed: its first word is enough
(cut (bad-newacct "a" "hunter22") 0 9) ; expect: "Usernames"
(cut (bad-newacct "sixteen-chars-xx" "hunter22") 0 9) ; expect: "Usernames"
(bad-newacct "fifteen-chars-x" "hunter22") ; expect: nil
(cut (bad-newacct "-alice" "hunter22") 0 9) ; expect: "Usernames"
(cut (bad-newacct "al<i>" "hunter22") 0 9) ; expect: "Usernames"
(cut (bad-newacct "alice" "abc") 0 9) ; expect: "Passwords"
(cut (bad-newacct "alice" nil) 0 9) ; expect: "Passwords"
(create-acct "alice" "hunter22")
(user-exists "alice") ; expect: "alice"
(begins (hpasswords* "alice") "$argon2id$") ; expect: t
(is ((load-table hpwfile*) "alice") (hpasswords* "alice")) ; expect: t
(username-taken "ALICE") ; expect: t
(bad-newacct "Alice" "whatever") ; expect: "That username is taken. Please choose another."
(user->cookie* "alice") ; expect: nil
(good-login "alice" "hunter22" "10.0.0.1") ; expect: "alice"
(isa (user->cookie* "alice") 'sym) ; expect: t
(>= (len (string (user->cookie* "alice"))) 22) ; expect: t
(cookie->user* (user->cookie* "alice")) ; expect: "alice"
(let (secs ip user) (car (qlist good-logins*)) user) ; expect: "alice"
(cadr (car (qlist good-logins*))) ; expect: "10.0.0.1"
(good-login "alice" "wrong" "10.0.0.2") ; expect: nil
(good-login "nobody" "hunter22" "10.0.0.2") ; expect: nil
(good-login "alice" nil "10.0.0.2") ; expect: nil
(map cdr (qlist bad-logins*)) ; expect: (("10.0.0.2" "alice") ("10.0.0.2" "nobody") ("10.0.0.2" "alice"))
; Arc 3.1's SHA-1 hashes verify no more.
(= (hpasswords* "old") "a94a8fe5ccb19ba61c4c0873d391e987982fbbd3")
(good-login "old" "test" "10.0.0.3") ; expect: nil

; get-user: the cookie names the user; the IP is recorded
(get-user (inst 'request 'cooks (list (list "user" (string (user->cookie* "alice")))) 'ip "1.1.1.1"))
; expect: "alice"
(logins* "alice") ; expect: "1.1.1.1"
(get-user (inst 'request 'cooks '(("user" "nosuchcookie")) 'ip "1.1.1.1")) ; expect: nil
(get-user (inst 'request 'cooks '(("user" "../x y")) 'ip "1.1.1.1")) ; expect: nil
(get-user (inst 'request 'ip "1.1.1.1")) ; expect: nil
(when-umatch "alice" (inst 'request) (pr "ran"))
; prints: Dead link: users don't match.\n
(when-umatch nil (inst 'request) 'ran) ; expect: ran
(when-umatch/r "alice" (inst 'request) "elsewhere") ; expect: "mismatch"
(tostring (mismatch-message)) ; expect: "Dead link: users don't match.\n"

; cook-user, new-user-cookie, prcookie, logout-user
(len (string (new-user-cookie))) ; expect: 22
(let c (cook-user "bob") (list (cookie->user* c) (is (user->cookie* "bob") c) ((load-table cookfile*) c)))
; expect: ("bob" t "bob")
(tostring (prcookie 'Abc123))
; expect: "Set-Cookie: user=Abc123; Path=/; expires=Sun, 17-Jan-2038 19:14:07 GMT; HttpOnly; SameSite=Lax\n"
(let c (user->cookie* "alice")
  (= (logins* "alice") "1.1.1.1")
  (logout-user "alice")
  (list (user->cookie* "alice") (cookie->user* c) (logins* "alice") ((load-table cookfile*) c)))
; expect: (nil nil nil nil)
(logout-user nil) ; expect: nil
; the files holding secrets are their owner's only (Arc 3.1's were 0644)
(tostring (system (+ "stat -c %a " hpwfile* " " cookfile*))) ; expect: "600\n600\n"

; --- sessions (app-sessions*): one for each login, hashed on disk ---
(= app-sessions* t)
(def ss-req (c) (inst 'request 'cooks (list (list "user" c)) 'ip "1.1.1.2"))
(= ss-c1* (login-cookie "sam") ss-c2* (login-cookie "sam"))
(is ss-c1* ss-c2*) ; expect: nil
(get-user (ss-req ss-c1*)) ; expect: "sam"
(user->cookie* "sam") ; expect: nil
; the file holds each session's id but never its secret
(let (sid secret) (tokens ss-c1* #\.)
  (let text (filechars sessfile*)
    (list (if (posmatch sid text) t) (posmatch secret text))))
; expect: (t nil)
(tostring (system (+ "stat -c %a " sessfile*))) ; expect: "600\n"
(let d (%digest "abc")
  (list (len d) (is d (%digest "abc")) (is d (%digest "abd")) (all [in _ #\0 #\1 #\2 #\3 #\4 #\5 #\6 #\7 #\8 #\9 #\a #\b #\c #\d #\e #\f] d)))
; expect: (64 t nil t)
(%digest 'abc) ; error: %digest
(%chmod (+ sessfile* "-none") 384) ; error: cannot change the mode
(%chmod sessfile* 4096) ; error: %chmod
; a cookie is checked against the digest
(get-user (ss-req ss-c2*)) ; expect: "sam"
(get-user (ss-req (+ (car (tokens ss-c2* #\.)) ".wrong"))) ; expect: nil
(get-user (ss-req (string (new-user-cookie)))) ; expect: nil
; session-token: the current request's session's, for its user only
(get-user (ss-req ss-c1*))
(len (session-token "sam")) ; expect: 22
(session-token "alice") ; expect: nil
(get-user (ss-req ss-c2*))
(is (session-token "sam") (cadr (cddr (sessions* (car (tokens ss-c2* #\.))))))
; expect: t
; the session is a note on the request: harvest-fnids, after each
; request, forgets it with the request's other notes
(list (car (request-note 'session)) (request-note 'fnid-owner)) ; expect: ("sam" "sam")
(harvest-fnids)
(list (request-note 'session) (request-note 'fnid-owner) (session-token "sam"))
; expect: (nil nil nil)
; an anonymous request's nil notes make no table
(do (fnid-owner nil) (note-request 'session nil) (%srv-request-notes* (current-thread))) ; expect: nil
; a thread's notes go with its request, and the threads are not kept
(let ths (map [thread (get-user (ss-req ss-c2*)) (len (session-token "sam")) (harvest-fnids)]
              (range 1 5))
  (each th ths (until (dead th) (sleep 0)))
  (list (all dead ths) (some [%srv-request-notes* _] ths)))
; expect: (t nil)
; logout-req ends the request's session only
(logout-req (ss-req ss-c1*))
(get-user (ss-req ss-c1*)) ; expect: nil
(get-user (ss-req ss-c2*)) ; expect: "sam"
; an expired session is refused
(let sid (car (tokens ss-c2* #\.))
  (= (sessions* sid) (cons "sam" (cons (- (seconds) 1) (cddr (sessions* sid))))))
(get-user (ss-req ss-c2*)) ; expect: nil
; logout-user ends them all
(= ss-c3* (login-cookie "sam") ss-c4* (login-cookie "sam"))
(logout-user "sam")
(map [get-user (ss-req _)] (list ss-c3* ss-c4*)) ; expect: (nil nil)
(= app-sessions* nil)

; load-userinfo reads back what the files hold
(= hpasswords* (table) cookie->user* (table) user->cookie* (table) dc-usernames* (table))
(load-userinfo) ; expect: t
(user-exists "alice") ; expect: "alice"
(cookie->user* (user->cookie* "bob")) ; expect: "bob"
(username-taken "Alice") ; expect: t

; set-pw: the new password works
(set-pw "alice" "newpass1")
(good-login "alice" "newpass1" "10.0.0.4") ; expect: "alice"

; --- failed logins from one IP slow it down ---
(list login-free-fails* login-fail-window* login-fail-delay* login-max-delay*)
; expect: (3 900 0.5 5)
(= login-fail-delay* .2)
; 10.0.0.2 has failed three times: the next attempt waits .2 seconds.
(let t0 (msec) (good-login "bob" nil "10.0.0.2") (>= (- (msec) t0) 190)) ; expect: t
; Another IP need not wait.
(%app-login-wait "nobody" "10.0.0.9") ; expect: 0
; An attempt that would wait past login-max-delay* fails at once, even
; with the right password.
(= (%app-login-next* "10.0.0.2") (+ (msec) 60000))
(good-login "alice" "newpass1" "10.0.0.2") ; expect: nil
(= login-fail-delay* .5)

; --- and so do failed logins at one account, from any IP ---
(list login-acct-free-fails* login-acct-delay* login-acct-max-delay*)
; expect: (3 0.5 10)
(= login-acct-delay* 2)
(each ip '("10.1.0.1" "10.1.0.2" "10.1.0.3") (%app-note-fail "acct-x" ip))
; a fourth IP waits for the account (2 s), and the next after it waits
; for that one too (nobody sleeps here: the waits are only booked)
(%app-login-wait "acct-x" "10.1.0.4") ; expect: 2000
(< 3000 (%app-login-wait "acct-x" "10.1.0.5") 4001) ; expect: t
; past the account's maximum, an attempt fails at once
(= (%app-acct-next* "acct-x") (+ (msec) 60000))
(%app-login-wait "acct-x" "10.1.0.6") ; expect: nil
; another account at the same IPs need not wait
(%app-login-wait "acct-y" "10.1.0.4") ; expect: 0
; alice logged in from 10.0.0.4: others failing there do not hold her up,
; but they do hold up an account that has not logged in from it
(each u '("p" "q" "r" "s") (%app-note-fail u "10.0.0.4"))
(%app-login-wait "alice" "10.0.0.4") ; expect: 0
(> (%app-login-wait "bob" "10.0.0.4") 0) ; expect: t
(= login-acct-delay* .5)

; disable-acct: a new random password, and logged out
(let old (hpasswords* "alice")
  (disable-acct "alice")
  (list (user->cookie* "alice") (is old (hpasswords* "alice"))
        (begins (hpasswords* "alice") "$argon2id$")))
; expect: (nil nil t)
(user-exists "alice") ; expect: "alice"

(system (string "rm -rf " appt*))
(dir-exists appt*) ; expect: nil
