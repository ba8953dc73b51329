; stdlib/strings.arc: docs/LANGUAGE.md 6.1 (and 7.3 #14, 7.11 #64). Expected values
; are derived from the spec, not from running the code.

; tokens: non-empty runs of characters not matching sep (default whitec)
(tokens "a,b,,c" #\,) ; expect: ("a" "b" "c")
(tokens "  ab cd\t\nef  ") ; expect: ("ab" "cd" "ef")
(tokens "") ; expect: nil
(tokens "   ") ; expect: nil
(tokens "abc" #\,) ; expect: ("abc")
(tokens "a1b22c" [in _ #\1 #\2]) ; expect: ("a" "b" "c")
(tokens 'abc) ; error: tokens
; the one-pass cases (%tokens) against the character-by-character one
(tokens "\rx\ry\r") ; expect: ("x" "y")
(tokens "a b" #\space) ; expect: ("a" "b")
(tokens ",a,,b," #\,) ; expect: ("a" "b")
(tokens "é ü中 x😀y 😀") ; expect: ("é" "ü中" "x😀y" "😀")
(tokens "a😀b😀" #\😀) ; expect: ("a" "b")
(tokens "xaybz" #\y) ; expect: ("xa" "bz")
(len (tokens "a b\fc")) ; expect: 2
(let ts (tokens "ab cd") (scar (car ts) #\z) (list ts)) ; expect: (("zb" "cd"))
(is (tokens "a,b" #\,) (tokens "a,b" [is _ #\,])) ; expect: nil
(iso (tokens "a,b" #\,) (tokens "a,b" [is _ #\,])) ; expect: t
(iso (tokens " a  b c ") (tokens " a  b c " [in _ #\space #\newline #\tab #\return])) ; expect: t
(tokens "abc" 5) ; expect: ("abc")
; a whitec redefined is the separator tokens uses by default
(= saved-whitec whitec)
(= whitec [is _ #\a])
(tokens "banana split") ; expect: ("b" "n" "n" " split")
(= whitec saved-whitec)
(tokens "banana split") ; expect: ("banana" "split")
; cut of strings (%substring), narrow and wide
(cut "hello" 1 3) ; expect: "el"
(cut "héllo😀" 1) ; expect: "éllo😀"
(cut "héllo😀" 5 6) ; expect: "😀"
(cut "abc" 3) ; expect: ""
(cut "abc" 1 -1) ; expect: "b"
(let s "abc" (let c (cut s 0) (sref c #\z 0) (list s c))) ; expect: ("abc" "zbc")
(%substring "abc" 2 1) ; error: %substring: bad range
(%substring "abc" 0 4) ; error: %substring: bad range
(%tokens "abc" 'x) ; error: %tokens: expected a character

; halve: before the first separator, and the rest including it
(halve "ab cd ef") ; expect: ("ab" " cd ef")
(halve "abc") ; expect: ("abc")
(halve "a=b=c" #\=) ; expect: ("a" "=b=c")
(halve " x") ; expect: ("" " x")
(halve "k:v" [is _ #\:]) ; expect: ("k" ":v")
(halve nil) ; error: halve

; positions: indices whose element passes
(positions #\a "banana") ; expect: (1 3 5)
(positions odd '(1 2 3 5)) ; expect: (0 2 3)
(positions #\z "banana") ; expect: nil
(positions 'a nil) ; expect: nil
(positions #\a 5) ; error: positions

; lines: split at \n, \r removed
(lines "one\ntwo\nthree") ; expect: ("one" "two" "three")
(lines "a\r\nb\r\n") ; expect: ("a" "b" "")
(lines "") ; expect: ("")
(lines "x\n\ny") ; expect: ("x" "" "y")
(lines 5) ; error: lines

; slices: split at every separator, keeping empty pieces
(slices "a,,b" #\,) ; expect: ("a" "" "b")
(slices ",a," #\,) ; expect: ("" "a" "")
(slices "abc" #\,) ; expect: ("abc")
(slices "a b" whitec) ; expect: ("a" "b")
(slices 5 #\,) ; error: slices

; urldecode: + is a space, %XX a byte; UTF-8 byte sequences reassemble
(urldecode "a+b%20c") ; expect: "a b c"
(urldecode "%41%62%2F") ; expect: "Ab/"
(urldecode "%c3%a9t%C3%A9") ; expect: "été"
(urldecode "%e2%82%ac") ; expect: "€"
(urldecode "plain") ; expect: "plain"
(urldecode "") ; expect: ""
(urldecode "%zz") ; error: urldecode
(urldecode 12) ; error: urldecode

; urlencode: every character as %XX of its code, lower-case hex
(urlencode "a b") ; expect: "%61%20%62"
(urlencode "/?\n") ; expect: "%2f%3f%0a"
(urlencode "é") ; expect: "%e9"
(urlencode "€") ; expect: "%20ac"
(urlencode "") ; expect: ""
(urlencode 'abc) ; error: urlencode
(urldecode (urlencode "x=1&y=2 3")) ; expect: "x=1&y=2 3"

; litmatch (macro): literal pattern at start
(litmatch "ab" "abc") ; expect: t
(litmatch "bc" "abc") ; expect: nil
(litmatch "bc" "abc" 1) ; expect: t
(litmatch "abcd" "abc") ; expect: nil
(litmatch "c" "abc" 3) ; expect: nil
(let s "GET /x" (litmatch "GET " s)) ; expect: t
(litmatch "" "abc") ; expect: t
(litmatch (+ "a" "b") "abc") ; error: litmatch

; endmatch (macro): str ends with literal pat
(endmatch ".gif" "img.gif") ; expect: t
(endmatch ".gif" "img.jpg") ; expect: nil
(endmatch ".gif" "gif") ; expect: nil
(let s "a.arc" (endmatch ".arc" s)) ; expect: t

; posmatch: index of string pat at or after start, or first char passing a fn
(posmatch "an" "banana") ; expect: 1
(posmatch "an" "banana" 2) ; expect: 3
(posmatch "x" "banana") ; expect: nil
(posmatch "nana" "banana") ; expect: 2
(posmatch digit "ab3c4") ; expect: 2
(posmatch digit "ab3c4" 3) ; expect: 4
(posmatch whitec "abc") ; expect: nil
(posmatch 5 "abc") ; error: posmatch

; headmatch: seq has pat at position start
(headmatch "ba" "banana") ; expect: t
(headmatch "na" "banana") ; expect: nil
(headmatch "na" "banana" 2) ; expect: t
(headmatch "" "abc") ; expect: t

; begins: seq starts (at start) with pat; safe when pat is longer
(begins "banana" "ban") ; expect: t
(begins "banana" "nan") ; expect: nil
(begins "banana" "nan" 2) ; expect: t
(begins "ba" "banana") ; expect: nil
(begins "http://x.com" "http://") ; expect: t

; subst: (subst new old seq), new first (7.11 #64)
(subst "X" "an" "banana") ; expect: "bXXa"
(subst "" "a" "banana") ; expect: "bnn"
(subst "<br>" "\n" "a\nb") ; expect: "a<br>b"
(subst "y" "x" "abc") ; expect: "abc"
(subst "aa" "a" "aba") ; expect: "aabaa"
(subst "x" "abc" "ab") ; expect: "ab"
(subst "-" " " "") ; expect: ""
(subst "a" "b" 'abc) ; error: subst

; multisubst: list of (old new), tried in order at each position
(multisubst '(("&" "&amp;") ("<" "&lt;")) "a<b&c") ; expect: "a&lt;b&amp;c"
(multisubst '(("a" "1") ("an" "2")) "banana") ; expect: "b1n1n1"
(multisubst '(("an" "2") ("a" "1")) "banana") ; expect: "b221"
(multisubst nil "abc") ; expect: "abc"
(multisubst '(("ab" "ba") ("ba" "ab")) "abba") ; expect: "baab"
(multisubst '(("a" "b")) 'abc) ; error: multisubst
(multisubst '((1 "b")) "abc") ; error: multisubst
(multisubst 5 "abc") ; error: multisubst: expected a list of (old new) pairs

; findsubseq: first occurrence at or after start
(findsubseq "na" "banana") ; expect: 2
(findsubseq "na" "banana" 3) ; expect: 4
(findsubseq "nab" "banana") ; expect: nil
(findsubseq "banana!" "banana") ; expect: nil
(findsubseq "a" "banana" 6) ; expect: nil

; blank / nonblank
(blank "") ; expect: t
(blank " \t\n\r") ; expect: t
(blank " a ") ; expect: nil
(nonblank "x") ; expect: "x"
(nonblank "  ") ; expect: nil
(nonblank "") ; expect: nil

; trim: front, end or both; all-trimmed gives ""
(trim "  ab c  ") ; expect: "ab c"
(trim "  ab  " 'front) ; expect: "ab  "
(trim "  ab  " 'end) ; expect: "  ab"
(trim "  ab  " 'both) ; expect: "ab"
(trim "   ") ; expect: ""
(trim "   " 'front) ; expect: ""
(trim "   " 'end) ; expect: ""
(trim "") ; expect: ""
(trim "xxaxbxx" 'both #\x) ; expect: "axb"
(trim "007" 'front [is _ #\0]) ; expect: "7"
(trim "1.500" 'end #\0) ; expect: "1.5"
(trim "ab") ; expect: "ab"
(trim 'ab) ; error: trim

; num: commas, at most digits decimals rounded half up (7.3 #14)
(num 1234567) ; expect: "1,234,567"
(num 1234.5678) ; expect: "1,234.57"
(num .5) ; expect: ".5"
(num .5 2 nil t) ; expect: "0.5"
(num 0) ; expect: "0"
(num 12) ; expect: "12"
(num 123) ; expect: "123"
(num 1234) ; expect: "1,234"
(num 123456) ; expect: "123,456"
(num -1234567) ; expect: "-1,234,567"
(num -1234.5) ; expect: "-1,234.5"
(num 3 2 t) ; expect: "3.00"
(num 1.5 3 t) ; expect: "1.500"
(num 1.25 1) ; expect: "1.3"
(num 1.35 0) ; expect: "1"
(num 2.5 0) ; expect: "3"
(num 1/8 2) ; expect: ".13"
(num 1/3 3) ; expect: ".333"
(num 2/3 2 nil t) ; expect: "0.67"
(num 1.999) ; expect: "2"
(num 999.999) ; expect: "1,000"
(num 1000000.1) ; expect: "1,000,000.1"
(num 'a) ; error: num

; pluralize / plural
(pluralize 1 "dog") ; expect: "dog"
(pluralize 2 "dog") ; expect: "dogs"
(pluralize 0 "dog") ; expect: "dogs"
(pluralize '(x) "item") ; expect: "item"
(pluralize '(x y) "item") ; expect: "items"
(plural 3 "dog") ; expect: "3 dogs"
(plural 1 "point") ; expect: "1 point"
(plural 0 "comment") ; expect: "0 comments"
