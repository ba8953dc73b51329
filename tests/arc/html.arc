; stdlib/html.arc: docs/LANGUAGE.md 6.4 (and 7.6 #37 on expansion-time comments).
; Expected values are derived from the spec, not from running the code.

; --- colors ---------------------------------------------------------------

(let c (color 10 20 30) (list c!r c!g c!b)) ; expect: (10 20 30)
(let c (color 300 -5 255) (list c!r c!g c!b)) ; expect: (255 0 255)
(type (color 0 0 0)) ; expect: table
(dehex "ff") ; expect: 255
(dehex "10") ; expect: 16
(dehex "zz") ; expect: nil
(let c (hex>color "ff8000") (list c!r c!g c!b)) ; expect: (255 128 0)
(let c (hex>color "0A0b0C") (list c!r c!g c!b)) ; expect: (10 11 12)
(hex>color "fff") ; expect: nil
(hex>color "gg0000") ; expect: nil
(hex>color "ff00000") ; expect: nil
(hex>color "-fffff") ; expect: nil
(hex>color "+f0000") ; expect: nil
(hex>color nil) ; expect: nil
; memoized: the same string gives the very same table
(let c (hex>color "123456") (list (is c (hex>color "123456")) c!r c!g c!b)) ; expect: (t 18 52 86)
(is (color 1 2 3) (color 1 2 3)) ; expect: nil
(let c (gray 7) (list c!r c!g c!b)) ; expect: (7 7 7)
(let c (gray 99) (list (is c (gray 99)) c!r c!g c!b)) ; expect: (t 99 99 99)
(hexreps 0) ; expect: "00"
(hexreps 10) ; expect: "0a"
(hexreps 171) ; expect: "ab"
(hexreps 255) ; expect: "ff"
(hexreps 256) ; expect: nil
(hexrep (color 1 2 255)) ; expect: "0102ff"
(hexrep (gray 7)) ; expect: "070707"
(hexrep white) ; expect: "ffffff"
(hexrep black) ; expect: "000000"
(hexrep linkblue) ; expect: "0000be"
(hexrep orange) ; expect: "ff6600"
(hexrep darkred) ; expect: "b40000"
(hexrep darkblue) ; expect: "000078"

; --- the registry ---------------------------------------------------------

(is (opmeth 'a 'href) opstring) ; expect: t
(is (opmeths* '(input value)) opesc) ; expect: t
(opmeth 'a 'zork) ; expect: nil
; every attribute 6.4 lists, with its printer
(keep [no (is (opmeth (_ 0) (_ 1)) (_ 2))]
  (list (list 'a 'href opstring) (list 'a 'rel opstring)
        (list 'a 'class opstring) (list 'a 'id opsym)
        (list 'a 'onclick opstring)
        (list 'body 'alink opcolor) (list 'body 'bgcolor opcolor)
        (list 'body 'leftmargin opnum) (list 'body 'link opcolor)
        (list 'body 'marginheight opnum) (list 'body 'marginwidth opnum)
        (list 'body 'topmargin opnum) (list 'body 'vlink opcolor)
        (list 'font 'color opcolor) (list 'font 'face opstring)
        (list 'font 'size opnum)
        (list 'form 'action opstring) (list 'form 'method opsym)
        (list 'img 'align opsym) (list 'img 'border opnum)
        (list 'img 'height opnum) (list 'img 'width opnum)
        (list 'img 'vspace opnum) (list 'img 'hspace opnum)
        (list 'img 'src opstring)
        (list 'input 'name opstring) (list 'input 'size opnum)
        (list 'input 'type opsym) (list 'input 'value opesc)
        (list 'input 'checked opcheck)
        (list 'select 'name opstring) (list 'option 'selected opsel)
        (list 'table 'bgcolor opcolor) (list 'table 'border opnum)
        (list 'table 'cellpadding opnum) (list 'table 'cellspacing opnum)
        (list 'table 'width opstring)
        (list 'textarea 'cols opnum) (list 'textarea 'name opstring)
        (list 'textarea 'rows opnum) (list 'textarea 'wrap opsym)
        (list 'td 'align opsym) (list 'td 'bgcolor opcolor)
        (list 'td 'colspan opnum) (list 'td 'width opnum)
        (list 'td 'valign opsym) (list 'td 'class opstring)
        (list 'tr 'bgcolor opcolor) (list 'hr 'color opcolor)
        (list 'span 'class opstring) (list 'span 'align opstring)
        (list 'span 'id opsym) (list 'rss 'version opstring))) ; expect: nil
; style is allowed everywhere without being registered
(opmeth 'div 'style) ; expect: nil
(tostring (tag (div style "color:red") (pr 1))) ; expect: "<div style=\"color:red\">1</div>"
(tostring (tag (td style "x" align 'left))) ; expect: "<td style=\"x\" align=left></td>"

; attribute registers a printer for code compiled afterwards
(attribute div title opstring)
(tostring (tag (div title "x") (pr 1))) ; expect: "<div title=\"x\">1</div>"

; --- the printers -----------------------------------------------------------

; they return code; eval runs it
(tostring (eval (opcolor 'color 'darkred))) ; expect: " color=#b40000"
(tostring (eval (opcolor 'color nil))) ; expect: ""
(tostring (eval (opstring 'href "a<b"))) ; expect: " href=\"a<b\""
(tostring (eval (opstring 'href nil))) ; expect: ""
(tostring (eval (opnum 'size 3))) ; expect: " size=3"
(tostring (eval (opnum 'size nil))) ; expect: ""
(tostring (eval (opsym 'type ''text))) ; expect: " type=text"
(tostring (eval (opsym 'type nil))) ; expect: " type=nil"
(tostring (eval (opsel 'selected t))) ; expect: " selected"
(tostring (eval (opsel 'selected nil))) ; expect: ""
(tostring (eval (opcheck 'checked t))) ; expect: " checked"
(tostring (eval (opcheck 'checked nil))) ; expect: ""
(tostring (eval (opesc 'value "<a href=\"x\">&"))) ; expect: " value=\"&#60;a href=&#34;x&#34;&#62;&#38;\""
(tostring (eval (opesc 'value 12))) ; expect: " value=\"12\""
(tostring (eval (opesc 'value nil))) ; expect: ""

; the same through tag, with values known only at run time
(let c orange (tostring (tag (font color c) (pr "x")))) ; expect: "<font color=#ff6600>x</font>"
(let c nil (tostring (tag (font color c) (pr "x")))) ; expect: "<font>x</font>"
(let u "a<b" (tostring (tag (a href u) (pr "x")))) ; expect: "<a href=\"a<b\">x</a>"
(let u nil (tostring (tag (a href u) (pr "x")))) ; expect: "<a>x</a>"
(let w 10 (tostring (tag (td width w)))) ; expect: "<td width=10></td>"
(let w nil (tostring (tag (td width w)))) ; expect: "<td></td>"
(let v 'right (tostring (tag (td align v)))) ; expect: "<td align=right></td>"
(let v nil (tostring (gentag input type v))) ; expect: "<input type=nil>"
(let s t (tostring (tag (option selected s) (pr "a")))) ; expect: "<option selected>a</option>"
(let s nil (tostring (tag (option selected s) (pr "a")))) ; expect: "<option>a</option>"
(let c t (tostring (gentag input type 'checkbox checked c))) ; expect: "<input type=checkbox checked>"
(let c nil (tostring (gentag input type 'checkbox checked c))) ; expect: "<input type=checkbox>"
(let v "\"><script>alert('x')</script>" (tostring (gentag input value v))) ; expect: "<input value=\"&#34;&#62;&#60;script&#62;alert('x')&#60;/script&#62;\">"
(let v 'ab (tostring (gentag input value v))) ; expect: "<input value=\"ab\">"
(let v nil (tostring (gentag input value v))) ; expect: "<input>"
(tostring (gentag input value "<x>")) ; expect: "<input value=\"&#60;x&#62;\">"
(let r 2 (tostring (tag (textarea rows r cols 3 wrap 'virtual)))) ; expect: "<textarea rows=2 cols=3 wrap=virtual></textarea>"

; pr-escaped: < > " & as numeric entities, ' left alone
(tostring (pr-escaped "<a href=\"x\">&'")) ; expect: "&#60;a href=&#34;x&#34;&#62;&#38;'"
(tostring (pr-escaped "plain")) ; expect: "plain"
(tostring (pr-escaped "")) ; expect: ""

; --- tag, gentag, start-tag, end-tag ---------------------------------------

(tostring (tag (a href "x" id 'y) (pr "t"))) ; expect: "<a href=\"x\" id=y>t</a>"
(tostring (tag (td align 'right) (pr 1))) ; expect: "<td align=right>1</td>"
(tostring (tag br)) ; expect: "<br></br>"
(tostring (tag b (pr "x") (pr "y"))) ; expect: "<b>xy</b>"
(tostring (tag (b) (pr "x"))) ; expect: "<b>x</b>"
(tostring (tag (table border 0 cellpadding 1 cellspacing 2 width "50%" bgcolor white))) ; expect: "<table border=0 cellpadding=1 cellspacing=2 width=\"50%\" bgcolor=#ffffff></table>"
(tostring (tag (body alink orange bgcolor black leftmargin 1 link white marginheight 2 marginwidth 3 topmargin 4 vlink linkblue))) ; expect: "<body alink=#ff6600 bgcolor=#000000 leftmargin=1 link=#ffffff marginheight=2 marginwidth=3 topmargin=4 vlink=#0000be></body>"
(tostring (tag (a rel "nofollow" class "c" onclick "f()" href "u") (pr "t"))) ; expect: "<a rel=\"nofollow\" class=\"c\" onclick=\"f()\" href=\"u\">t</a>"
(tostring (tag (font color darkblue face "arial" size 2) (pr "x"))) ; expect: "<font color=#000078 face=\"arial\" size=2>x</font>"
(tostring (gentag img align 'left border 0 height 1 width 2 vspace 3 hspace 4 src "i.gif")) ; expect: "<img align=left border=0 height=1 width=2 vspace=3 hspace=4 src=\"i.gif\">"
(tostring (tag (td bgcolor orange colspan 2 width 3 valign 'top class "k"))) ; expect: "<td bgcolor=#ff6600 colspan=2 width=3 valign=top class=\"k\"></td>"
(tostring (tag (tr bgcolor white))) ; expect: "<tr bgcolor=#ffffff></tr>"
(tostring (gentag hr color black)) ; expect: "<hr color=#000000>"
(tostring (tag (span class "c" align "center" id 's1) (pr "x"))) ; expect: "<span class=\"c\" align=\"center\" id=s1>x</span>"
(tostring (tag (rss version "2.0"))) ; expect: "<rss version=\"2.0\"></rss>"
(tostring (tag (select name "s"))) ; expect: "<select name=\"s\"></select>"
(tostring (gentag input name "n" size 4 type 'text)) ; expect: "<input name=\"n\" size=4 type=text>"
(tostring (tag (form action "f" method 'get))) ; expect: "<form action=\"f\" method=get></form>"

; gentag prints only the start tag
(tostring (gentag p)) ; expect: "<p>"
(tostring (gentag img src "s.gif" height 1 width 5)) ; expect: "<img src=\"s.gif\" height=1 width=5>"

; tag-if
(tostring (tag-if t b (pr "x"))) ; expect: "<b>x</b>"
(tostring (tag-if nil b (pr "x"))) ; expect: "x"
(tostring (tag-if 1 (a href "u") (pr "x"))) ; expect: "<a href=\"u\">x</a>"

; the start tag's constant parts are one string, made at expansion time
(start-tag 'b) ; expect: (pr "<b>")
(start-tag '(b)) ; expect: (pr "<b>")
(start-tag '(a href "x" id 'y)) ; expect: (pr "<a href=\"x\" id=y>")
(macex1 '(gentag input type 'text size 10)) ; expect: (pr "<input type=text size=10>")
(macex1 '(gentag img src "s.gif" height 1 width 5)) ; expect: (pr "<img src=\"s.gif\" height=1 width=5>")
(end-tag 'b) ; expect: (pr "</b>")
(end-tag '(a href "x")) ; expect: (pr "</a>")
; a value known only at run time stays code
(let x (start-tag '(a href u)) (and (caris x 'pr) (isa (cadr x) 'string) (no (cddr x)))) ; expect: nil
(= %test-u "v")
(eval `(tostring ,(start-tag '(a href %test-u)))) ; expect: "<a href=\"v\">"

; literal and precomputable-tagopt
(literal 5) ; expect: t
(literal "s") ; expect: t
(literal #\a) ; expect: t
(literal nil) ; expect: t
(literal t) ; expect: t
(literal 'x) ; expect: nil
(literal ''x) ; expect: t
(literal '(f x)) ; expect: nil
(precomputable-tagopt "ab") ; expect: t
(precomputable-tagopt 3) ; expect: t
(precomputable-tagopt ''sym) ; expect: t
(precomputable-tagopt "a@b") ; expect: nil
(precomputable-tagopt 'x) ; expect: nil
(precomputable-tagopt '(f)) ; expect: nil

; tag-options: a string per attribute printed now, code for the others
(tag-options 'a '((href "x") (id 'y))) ; expect: (" href=\"x\"" " id=y")
(tag-options 'a nil) ; expect: nil
(all [isa _ 'string] (tag-options 'a '((href "x@y")))) ; expect: nil
(acons (car (tag-options 'a '((href u))))) ; expect: t
(tostring (eval (car (tag-options 'a '((href %test-u)))))) ; expect: " href=\"v\""
; an attribute whose value form is nil is dropped, silently
(tag-options 'a '((href nil) (id 'y))) ; expect: (" id=y")
(start-tag '(a href nil id 'y)) ; expect: (pr "<a id=y>")
(tostring (tag (a href nil) (pr "x"))) ; expect: "<a>x</a>"
(tostring (gentag input type 'text value nil)) ; expect: "<input type=text>"
; an unregistered attribute is dropped, with a comment printed at expansion
(tag-options 'a '((zork 1) (id 'y))) ; expect: (" id=y")
; prints: <!-- ignoring zork for a-->
(start-tag '(b zork 1)) ; expect: (pr "<b>")
; prints: <!-- ignoring zork for b-->
(tostring (tag (foo bar 1 baz 2) (pr "x"))) ; expect: "<foo>x</foo>"
; prints: <!-- ignoring bar for foo--><!-- ignoring baz for foo-->
; ... when the tag is compiled, not when it runs (7.6 #37)
(def %test-ignoring () (tag (b zork 1) (pr "x")))
; prints: <!-- ignoring zork for b-->
(%test-ignoring) ; prints: <b>x</b>
(tostring (%test-ignoring)) ; expect: "<b>x</b>"
; the comment goes into whatever output the compilation has
(tostring (eval '(tag (i zork 1) (pr "x")))) ; expect: "<!-- ignoring zork for i--><i>x</i>"
(tostring (eval '(tag (i zork nil)))) ; expect: "<!-- ignoring zork for i--><i></i>"

; strings with @ are left to the compiler, which interpolates them under
; atstrings (3.11)
(tostring (tag (a href "x@y") (pr "t"))) ; expect: "<a href=\"x@y\">t</a>"
(declare 'atstrings t)
(let y 5 (tostring (tag (a href "x@y") (pr "t")))) ; expect: "<a href=\"x5\">t</a>"
(declare 'atstrings nil)

; --- layout -----------------------------------------------------------------

(tostring (br)) ; expect: "<br>\n"
(tostring (br 3)) ; expect: "<br><br><br>\n"
(tostring (br2)) ; expect: "<br><br>\n"
(tostring (center (pr "x"))) ; expect: "<center>x</center>"
(tostring (underline (pr "x"))) ; expect: "<u>x</u>"
(tostring (tab (pr "x"))) ; expect: "<table border=0>x</table>"
(tostring (tr (pr "x"))) ; expect: "<tr>x</tr>"

; td and its kin print a body that has any non-call in it
(tostring (td (pr "a"))) ; expect: "<td>a</td>"
(tostring (td "a")) ; expect: "<td>a</td>"
(tostring (td "a" 1)) ; expect: "<td>a1</td>"
(let x 5 (tostring (td x))) ; expect: "<td>5</td>"
(tostring (td 'sym)) ; expect: "<td>sym</td>"
(tostring (td)) ; expect: "<td></td>"
(tostring (td (pr 1) (pr 2))) ; expect: "<td>12</td>"
; (pr (pr 1) "x"): the call runs as an argument of pr, printing 1 twice
(tostring (td (pr 1) "x")) ; expect: "<td>11x</td>"
(tostring (trtd "a")) ; expect: "<tr><td>a</td></tr>"
(tostring (trtd (pr "b"))) ; expect: "<tr><td>b</td></tr>"
(tostring (trtd)) ; expect: "<tr><td></td></tr>"
(tostring (tdr 5)) ; expect: "<td align=right>5</td>"
(tostring (tdr (pr 5))) ; expect: "<td align=right>5</td>"
(tostring (tdcolor orange "x")) ; expect: "<td bgcolor=#ff6600>x</td>"
(let c white (tostring (tdcolor c (pr "x")))) ; expect: "<td bgcolor=#ffffff>x</td>"
(tostring (tdcolor nil "x")) ; expect: "<td>x</td>"

(tostring (row "a" 1 (pr "b"))) ; expect: "<tr><td>a</td><td>1</td><td>b</td></tr>"
(tostring (row)) ; expect: "<tr></tr>"
(tostring (prrow 1 "a" 2.5)) ; expect: "<tr><td align=right>1</td><td>a</td><td align=right>2.5</td></tr>"
(let x nil (tostring (prrow x))) ; expect: "<tr><td>nil</td></tr>"
(tostring (prbold "a" 1)) ; expect: "<b>a1</b>"
(tostring (para "a" "b")) ; expect: "<p>ab"
(tostring (para)) ; expect: "<p>"

(tostring (whitepage (pr "hi"))) ; expect: "<html><body bgcolor=#ffffff alink=#0000be>hi</body></html>"
(tostring (whitepage)) ; expect: "<html><body bgcolor=#ffffff alink=#0000be></body></html>"
(tostring (errpage "bad " 1)) ; expect: "<html><body bgcolor=#ffffff alink=#0000be>bad 1\n</body></html>"

(blank-url) ; expect: "s.gif"
(tostring (hspace 5)) ; expect: "<img src=\"s.gif\" height=1 width=5>"
(tostring (vspace 5)) ; expect: "<img src=\"s.gif\" height=5 width=0>"
(tostring (vhspace 3 4)) ; expect: "<img src=\"s.gif\" height=3 width=4>"
(tostring (new-hspace 5)) ; expect: "<span style=\"padding-left:5px\" />"
(let n 7 (tostring (new-hspace n))) ; expect: "<span style=\"padding-left:7px\" />"
(macex1 '(new-hspace 5)) ; expect: (pr "<span style=\"padding-left:5px\" />")
(tostring (spacerow 4)) ; expect: "<tr style=\"height:4px\"></tr>"
(tostring (zerotable (pr "x"))) ; expect: "<table border=0 cellpadding=0 cellspacing=0>x</table>"
(tostring (sptab (pr "x"))) ; expect: "<table style=\"border-spacing: 7px 0px;\">x</table>"
(tostring (widtable "100%" "x")) ; expect: "<table width=\"100%\"><tr><td>x</td></tr></table>"
(tostring (widtable 300 (pr "x"))) ; expect: "<table width=\"300\"><tr><td>x</td></tr></table>"
(tostring (cellpr nil)) ; expect: "&nbsp;"
(tostring (cellpr "a")) ; expect: "a"
(tostring (cellpr 0)) ; expect: "0"
(tostring (spanrow 3 (pr "x"))) ; expect: "<tr><td colspan=3>x</td></tr>"
(tostring (spanclass comhead (pr "x"))) ; expect: "<span class=\"comhead\">x</span>"
(tostring (fontcolor orange (pr "x"))) ; expect: "<font color=#ff6600>x</font>"
(tostring (fontcolor nil (pr "x"))) ; expect: "x"
(tostring (pagemessage "hi")) ; expect: "hi\n<br><br>\n"
(tostring (pagemessage nil)) ; expect: ""
(tostring (nbsp)) ; expect: "&nbsp;"
(tostring (cdata (pr "<x>") (pr "&"))) ; expect: "<![CDATA[<x>&]]>"

; --- forms ------------------------------------------------------------------

(tostring (menu "m" '("a" "b") "b")) ; expect: "<select name=\"m\"><option>a</option><option selected>b</option></select>"
(tostring (menu "m" '(1 2))) ; expect: "<select name=\"m\"><option>1</option><option>2</option></select>"
(tostring (menu "m" nil)) ; expect: "<select name=\"m\"></select>"
(tostring (but)) ; expect: "<input type=submit value=\"submit\">"
(tostring (but "Go" "act")) ; expect: "<input type=submit name=\"act\" value=\"Go\">"
(tostring (but "a\"b")) ; expect: "<input type=submit value=\"a&#34;b\">"
(tostring (submit)) ; expect: "<input type=submit value=\"submit\">"
(tostring (submit "ok")) ; expect: "<input type=submit value=\"ok\">"
(tostring (buts "n" "a" "b")) ; expect: "<input type=submit name=\"n\" value=\"a\"> <input type=submit name=\"n\" value=\"b\">"
(tostring (buts "n")) ; expect: "<input type=submit value=\"submit\">"
(tostring (form "act" (pr "x"))) ; expect: "<form method=post action=\"act\">x</form>"
(let a "/x?fnid=1" (tostring (form a))) ; expect: "<form method=post action=\"/x?fnid=1\"></form>"
(tostring (textarea "t" 4 50 (pr "hi"))) ; expect: "<textarea name=\"t\" rows=4 cols=50>hi</textarea>"
(with (r 2 c 3) (tostring (textarea "t" r c))) ; expect: "<textarea name=\"t\" rows=2 cols=3></textarea>"
(tostring (input "q")) ; expect: "<input type=text name=\"q\" value=\"\" size=10>"
(tostring (input "q" "v" 20)) ; expect: "<input type=text name=\"q\" value=\"v\" size=20>"
(tostring (input "q" "\"><script>x</script>")) ; expect: "<input type=text name=\"q\" value=\"&#34;&#62;&#60;script&#62;x&#60;/script&#62;\" size=10>"
(tostring (input "q" nil)) ; expect: "<input type=text name=\"q\" size=10>"
(tostring (single-input "Name: " "n" 20 "go")) ; expect: "Name: <input type=text name=\"n\" size=20> <input type=submit value=\"go\">"
(tostring (single-input "P" "p" 8 "ok" t)) ; expect: "P<input type=password name=\"p\" size=8> <input type=submit value=\"ok\">"

; inputs: four forms per field; name and label are not evaluated
(tostring (inputs u username 20 nil)) ; expect: "<table border=0><tr><td>username:</td><td><input type=text name=\"u\" size=20></td></tr></table>"
(tostring (inputs u username 20 nil p password 20 nil)) ; expect: "<table border=0><tr><td>username:</td><td><input type=text name=\"u\" size=20></td></tr><tr><td>password:</td><td><input type=password name=\"p\" size=20></td></tr></table>"
(let v "a\"<b" (tostring (inputs t title 50 v))) ; expect: "<table border=0><tr><td>title:</td><td><input type=text name=\"t\" size=50 value=\"a&#34;&#60;b\"></td></tr></table>"
(tostring (inputs x text '(4 50) "hi")) ; expect: "<table border=0><tr><td>text:</td><td><textarea name=\"x\" rows=4 cols=50>hi</textarea></td></tr></table>"
; a user's text cannot close the textarea
(let v "</textarea><script>x&y" (tostring (inputs x text '(4 50) v))) ; expect: "<table border=0><tr><td>text:</td><td><textarea name=\"x\" rows=4 cols=50>&#60;/textarea&#62;&#60;script&#62;x&#38;y</textarea></td></tr></table>"
(tostring (inputs x text '(4 50) nil)) ; expect: "<table border=0><tr><td>text:</td><td><textarea name=\"x\" rows=4 cols=50></textarea></td></tr></table>"
; a len known only at run time: a list gives a textarea, else an input
(let n '(2 3) (tostring (inputs x text n "hi"))) ; expect: "<table border=0><tr><td>text:</td><td><textarea name=\"x\" rows=2 cols=3>hi</textarea></td></tr></table>"
(let n 5 (tostring (inputs x text n "hi"))) ; expect: "<table border=0><tr><td>text:</td><td><input type=text name=\"x\" size=5 value=\"hi\"></td></tr></table>"
(tostring (inputs)) ; expect: "<table border=0></table>"

; --- escaping ---------------------------------------------------------------

(eschtml "<script>alert(\"x\" & 'y')</script>") ; expect: "&#60;script&#62;alert(&#34;x&#34; &#38; &#39;y&#39;)&#60;/script&#62;"
(eschtml "plain text") ; expect: "plain text"
(eschtml "") ; expect: ""
(eschtml "&lt;") ; expect: "&#38;lt;"
(eschtml "\" onmouseover=\"alert(1)") ; expect: "&#34; onmouseover=&#34;alert(1)"
(eschtml "é€") ; expect: "é€"
(eschtml 5) ; error: eschtml
(esc-tags "<b>\"x\" & 'y'</b>") ; expect: "&#60;b&#62;\"x\" &#38; 'y'&#60;/b&#62;"
(esc-tags "<script>") ; expect: "&#60;script&#62;"
(esc-tags "plain") ; expect: "plain"
(esc-tags 'x) ; error: esc-tags
; esc-attr: nil stays nil (opstring then omits the attribute), the rest
; is escaped as eschtml does
(esc-attr nil) ; expect: nil
(esc-attr "a\"b'<&") ; expect: "a&#34;b&#39;&#60;&#38;"
(esc-attr 42) ; expect: "42"
(let u "x\" onclick=\"evil()" (tostring (tag (a href (esc-attr u)) (pr "t")))) ; expect: "<a href=\"x&#34; onclick=&#34;evil()\">t</a>"
(let u nil (tostring (tag (a href (esc-attr u)) (pr "t")))) ; expect: "<a>t</a>"

(striptags "<b>bold</b> and <i>it</i>") ; expect: "bold and it"
(striptags "<script>alert(1)</script>x") ; expect: "alert(1)x"
(striptags "a > b") ; expect: "a  b"
(striptags "no tags") ; expect: "no tags"
(striptags "a <unclosed") ; expect: "a "
(clean-url "http://x.com/\"><script>") ; expect: "http://x.com/script"
(clean-url "http://x.com/a'b") ; expect: "http://x.com/ab"
; clean-url only removes characters; it does not judge the scheme
(clean-url "javascript:alert('x')") ; expect: "javascript:alert(x)"

(valid-url "http://example.com") ; expect: t
(valid-url "https://ab.cd") ; expect: t
(valid-url "http://a.bc") ; expect: t
(valid-url "http://a.b") ; expect: nil
(valid-url "ftp://example.com") ; expect: nil
(valid-url "javascript:alert(1)//http://x.com") ; expect: nil
(valid-url "JAVASCRIPT:http://example.com") ; expect: nil
(valid-url "http://x.com/\"onclick") ; expect: nil
(valid-url "http://x.com/<script>") ; expect: nil
(valid-url "http://x.com/'a") ; expect: nil
(valid-url "http://x.com/>") ; expect: nil
(valid-url "www.example.com") ; expect: nil
(valid-url nil) ; expect: nil

; --- links and text -----------------------------------------------------------

(tostring (link "t")) ; expect: "<a href=\"t\">t</a>"
(tostring (link "t" "u")) ; expect: "<a href=\"u\">t</a>"
(tostring (link "t" "u" orange)) ; expect: "<a href=\"u\"><font color=#ff6600>t</font></a>"
(tostring (underlink "t")) ; expect: "<a href=\"t\"><u>t</u></a>"
(tostring (underlink "t" "u")) ; expect: "<a href=\"u\"><u>t</u></a>"
(tostring (shortlink "http://ab.com/x")) ; expect: "<a href=\"http://ab.com/x\">ab.com/x</a>"
(tostring (shortlink "http:/")) ; expect: ""
(tostring (shortlink nil)) ; expect: ""
(parafy "a\n\nb") ; expect: "a\n\n<p>b"
(parafy "a\nb") ; expect: "a\nb"
(parafy "a\n  \nb") ; expect: "a\n  \n<p>b"
(parafy "\nx") ; expect: "\n<p>x"
(parafy "one\n\ntwo\n\nthree") ; expect: "one\n\n<p>two\n\n<p>three"
(parafy "") ; expect: ""
