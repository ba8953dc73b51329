; Strings and characters: docs/LANGUAGE.md 1.5, 1.6, 2.4, 2.5, 3.7, 3.8, 4.3 (+), 4.4, 7.3, 7.4.
(assign caught (fn (thunk) (on-err (fn (e) 'caught) thunk)))
(assign code (fn (s i) (coerce (s i) 'int)))

; string escapes (2.4)
(len "a\\b") ; expect: 3
("a\\b" 1) ; expect: #\\
(len "a\"b") ; expect: 3
("a\"b" 1) ; expect: #\"
(code "\n" 0) ; expect: 10
(code "\t" 0) ; expect: 9
(code "\r" 0) ; expect: 13
(code "\a" 0) ; expect: 7
(code "\b" 0) ; expect: 8
(code "\v" 0) ; expect: 11
(code "\f" 0) ; expect: 12
(code "\e" 0) ; expect: 27
"\101\102" ; expect: "AB"
(code "\0" 0) ; expect: 0
"\x41\x62" ; expect: "Ab"
"\u03bb" ; expect: "λ"
(code "\u03bb" 0) ; expect: 955
"\U0001F600" ; expect: "😀"
(code "\U0001F600" 0) ; expect: 128512
"ab\
cd" ; expect: "abcd"
"two
lines" ; expect: "two\nlines"
(len "") ; expect: 0

; write escapes " \ and control characters; disp prints raw (1.6)
"say \"hi\"" ; expect: "say \"hi\""
"back\\slash" ; expect: "back\\slash"
"a\nb\tc\rd" ; expect: "a\nb\tc\rd"
"\x01" ; expect: "\u0001"
(newstring 2) ; expect: "\u0000\u0000"
(write "a\"b\\c") ; prints: "a\\"b\\\\c"
(disp "a\"b\\c") ; prints: a"b\\c
(disp "x\ny") ; prints: x\ny
(write "λ😀") ; prints: "λ😀"
(disp "λ😀") ; prints: λ😀

; characters: names, written and displayed forms (1.5, 2.5)
#\a ; expect: #\a
#\A ; expect: #\A
#\space ; expect: #\space
#\newline ; expect: #\newline
#\linefeed ; expect: #\newline
#\tab ; expect: #\tab
#\return ; expect: #\return
#\nul ; expect: #\nul
#\null ; expect: #\nul
#\backspace ; expect: #\backspace
#\rubout ; expect: #\rubout
#\delete ; expect: #\rubout
#\page ; expect: #\page
#\vtab ; expect: #\vtab
(coerce #\space 'int) ; expect: 32
(coerce #\newline 'int) ; expect: 10
(coerce #\tab 'int) ; expect: 9
(coerce #\return 'int) ; expect: 13
(coerce #\nul 'int) ; expect: 0
(coerce #\backspace 'int) ; expect: 8
(coerce #\rubout 'int) ; expect: 127
(coerce #\page 'int) ; expect: 12
(coerce #\vtab 'int) ; expect: 11
#\( ; expect: #\(
#\; ; expect: #\;
#\" ; expect: #\"
(coerce #\( 'int) ; expect: 40
(coerce #\; 'int) ; expect: 59
#\u03bb ; expect: #\λ
#\u41 ; expect: #\A
#\101 ; expect: #\A
#\λ ; expect: #\λ
(coerce #\😀 'int) ; expect: 128512
(type #\a) ; expect: char
(disp #\a) ; prints: a
(disp #\λ) ; prints: λ
(disp #\newline) ; prints: \n
(write #\a) ; prints: #\\a
(write #\space) ; prints: #\\space
(write '(#\a "b")) ; prints: (#\\a "b")
(disp '(#\a "b")) ; prints: (a b)
(if #\nul 1 2) ; expect: 1
(if "" 1 2) ; expect: 1

; newstring (4.4)
(newstring 3 #\a) ; expect: "aaa"
(newstring 0) ; expect: ""
(newstring 0 #\a) ; expect: ""
(len (newstring 5)) ; expect: 5
((newstring 2) 1) ; expect: #\nul
(newstring 2 #\λ) ; expect: "λλ"
(type (newstring 1)) ; expect: string

; indexing (3.7) and sref (3.8)
("abc" 0) ; expect: #\a
("abc" 2) ; expect: #\c
(caught (fn () ("abc" 3))) ; expect: caught
(caught (fn () ("abc" -1))) ; expect: caught
(caught (fn () ("" 0))) ; expect: caught
(assign s (newstring 3 #\a))
(sref s #\b 1) ; expect: #\b
s ; expect: "aba"
(sref s #\c 0) ; expect: #\c
(sref s #\d 2) ; expect: #\d
s ; expect: "cbd"
(caught (fn () (sref s #\x 3))) ; expect: caught
(caught (fn () (sref s 65 0))) ; expect: caught
s ; expect: "cbd"

; non-ASCII and emoji count as single characters
(len "λx") ; expect: 2
("λx" 0) ; expect: #\λ
("λx" 1) ; expect: #\x
(len "héllo") ; expect: 5
(len "😀") ; expect: 1
(len "a😀b") ; expect: 3
("a😀b" 1) ; expect: #\😀
("a😀b" 2) ; expect: #\b
(assign u (+ "abc" ""))
(sref u #\λ 0) ; expect: #\λ
(sref u #\😀 2) ; expect: #\😀
u ; expect: "λb😀"
(len u) ; expect: 3
(u 1) ; expect: #\b
(sref u #\z 0) ; expect: #\z
u ; expect: "zb😀"

; + concatenation, decided by the first argument (4.3, 7.3 #15)
(+ "a" "b") ; expect: "ab"
(+ "a") ; expect: "a"
(+ "" "") ; expect: ""
(+ "a" 1) ; expect: "a1"
(+ "a" 1 #\b 'c nil) ; expect: "a1bc"
(+ #\a "b") ; expect: "ab"
(+ #\a #\b) ; expect: "ab"
(+ #\a 1) ; expect: "a1"
(+ "x" 1.5) ; expect: "x1.5"
(+ "x" 1/2) ; expect: "x1/2"
(+ "x" (expt 2 70)) ; expect: "x1180591620717411303424"
(+ "x" '(1 "b" #\c)) ; expect: "x1bc"
(+ "n:" nil) ; expect: "n:"
(+ "λ" "😀" "a") ; expect: "λ😀a"
(len (+ "λ" "😀" "a")) ; expect: 3
(caught (fn () (+ 1 "a"))) ; expect: caught
(caught (fn () (+ 1 #\a))) ; expect: caught
; the result is a fresh string
(assign c1 "abc")
(assign c2 (+ c1 ""))
(sref c2 #\z 0) ; expect: #\z
c1 ; expect: "abc"
c2 ; expect: "zbc"

; strings are not lists
(caught (fn () (car "abc"))) ; expect: caught
(caught (fn () (cdr "abc"))) ; expect: caught

; more concatenation and newstring edge cases
(+ #\a) ; expect: "a"
(+ "a" '|a b|) ; expect: "aa b"
(+ "a" '(#\b (#\c "d"))) ; expect: "abcd"
(caught (fn () (newstring 2 "a"))) ; expect: caught
(caught (fn () (newstring -1))) ; expect: caught
(caught (fn () (scar "" #\a))) ; expect: caught
(caught (fn () (len 5))) ; expect: caught
(caught (fn () (len 'abc))) ; expect: caught
(caught (fn () (len #\a))) ; expect: caught

; --- copies share their characters until one of them is written (vm/string.cpp) ---
(let a (string "abc") (let b (copy a) (= (b 0) #\z) (list a b))) ; expect: ("abc" "zbc")
(let a (string "abc") (let b (copy a) (= (a 0) #\q) (list a b))) ; expect: ("qbc" "abc")
(let a (string "abc") (withs (b (copy a) c (copy b)) (= (b 1) #\y) (list a b c))) ; expect: ("abc" "ayc" "abc")
(let a (string "abc") (let b (copy a) (= (b 2) #\λ) (list a b (len b)))) ; expect: ("abc" "abλ" 3)
(let a (string "aλc") (let b (copy a) (= (b 0) #\x) (= (a 2) #\😀) (list a b))) ; expect: ("aλ😀" "xλc")
(let a (string "abc") (let b (copy a) (= (b 0) #\z) (= (b 1) #\y) (= (a 2) #\w) (list a b))) ; expect: ("abw" "zyc")
(let a (string "abc") (let b (copy a) (= (a 0) #\x) (list (is a b) (iso a b)))) ; expect: (nil nil)
(let h (table) (let k "key" (= (h k) 1) (= (h (copy k)) 2) (list (h "key") (len h)))) ; expect: (2 1)
(let xs (map (fn (_) "lit") '(1 2 3)) (= ((car xs) 0) #\L) xs) ; expect: ("Lit" "lit" "lit")
(do (def strcopy-lit () "q") (let s (strcopy-lit) (= (s 0) #\r) (list s (strcopy-lit)))) ; expect: ("r" "q")
(let a (string "") (let b (copy a) (list a b (len b)))) ; expect: ("" "" 0)
; past kStringInlineMax (128) characters a string's copy shares its Blob
(let a (newstring 200 #\a) (let b (copy a) (= (b 0) #\z) (list (a 0) (b 0) (len b)))) ; expect: (#\a #\z 200)
(let a (newstring 200 #\a) (let b (copy a) (= (a 199) #\λ) (list (a 199) (b 199) (a 0)))) ; expect: (#\λ #\a #\a)
(let a (newstring 129 #\q) (withs (b (copy a) c (copy b)) (= (b 128) #\r) (list (a 128) (b 128) (c 128)))) ; expect: (#\q #\r #\q)
(let a (newstring 128 #\q) (let b (copy a) (= (b 127) #\r) (list (a 127) (b 127)))) ; expect: (#\q #\r)
; short strings widened, kept across collections
(let xs (map (fn (i) (let s (string "x" i) (= (s 0) #\λ) s)) (range 1 3000)) (list (len xs) (car xs) (last xs))) ; expect: (3000 "λ1" "λ3000")
