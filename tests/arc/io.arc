; Ports, printing, reading, files, system: docs/LANGUAGE.md 4.8, 4.9, 5.13 (read), 7.1 #3 #5, 7.10.
(assign list (fn args args))
(assign caught (fn (thunk) (on-err (fn (e) 'caught) thunk)))
; (drain-port p): the remaining characters of input port p, as a string.
(assign %drain-port-port (fn (p o) ((fn (c) (if c ((fn () (writec c o) (%drain-port-port p o))) (inside o))) (readc p))))
(assign drain-port (fn (p) (%drain-port-port p (outstring))))
; (capture thunk): what thunk writes to the current output port.
(assign capture (fn (thunk) ((fn (o) (call-w/stdout o thunk) (inside o)) (outstring))))

; string ports
(inside (outstring)) ; expect: ""
((fn (o) (writec #\a o) (writec #\λ o) (inside o)) (outstring)) ; expect: "aλ"
((fn (o) (disp "hi " o) (write "hi" o) (inside o)) (outstring)) ; expect: "hi \"hi\""
((fn (o) (disp 12 o) (disp 1.5 o) (write 1/2 o) (inside o)) (outstring)) ; expect: "121.51/2"
((fn (o) (writec #\a o)) (outstring)) ; expect: #\a
((fn (o) (writeb 65 o)) (outstring)) ; expect: 65
((fn (o) (writeb 65 o) (writeb 66 o) (inside o)) (outstring)) ; expect: "AB"
((fn (o) (writeb 206 o) (writeb 187 o) (inside o)) (outstring)) ; expect: "λ"
((fn (o) (write 'x o)) (outstring)) ; expect: nil
((fn (o) (disp 'x o)) (outstring)) ; expect: nil
(type (instring "")) ; expect: input

; printing goes straight into the port's buffer, UTF-8; inside decodes it
; only past ASCII: narrow (Latin-1) and wide characters, empty strings,
; symbols with and without bars, every kind of number
(tostring (pr "é" "ÿ" "a")) ; expect: "éÿa"
(len (tostring (pr "café crème, ÿ"))) ; expect: 13
(tostring (pr "😀" "東京" "é")) ; expect: "😀東京é"
(len (tostring (pr "a 😀 東京"))) ; expect: 6
(tostring (pr "" "" "")) ; expect: ""
(tostring (pr "" "x" "")) ; expect: "x"
(tostring (disp "")) ; expect: ""
(tostring (write "")) ; expect: "\"\""
(tostring (pr 'sym '|a b| 'café)) ; expect: "syma bcafé"
(tostring (write '|a b|) (write 'café) (write '東京)) ; expect: "|a b|café東京"
(tostring (write (sym "a|b"))) ; expect: "a\\|b"
; a name with a bar is written with backslashes, as Racket (Arc 3.1) writes it
(tostring (write (list (sym "a|b c") (sym "#a|b") (sym "1|2") (sym "|") (sym "a|\\b") (sym "a|(b)'")))) ; expect: "(a\\|b\\ c \\#a\\|b 1\\|2 \\| a\\|\\\\b a\\|\\(b\\)\\')"
(let s (sym "#a|b c\\") (is (read (tostring (write s))) s)) ; expect: t
(tostring (write (sym "12")) (write (sym "")) (write (sym "#x"))) ; expect: "|12||||#x|"
(tostring (pr 0 " " -7 " " 4611686018427387903 " " -4611686018427387904)) ; expect: "0 -7 4611686018427387903 -4611686018427387904"
(tostring (pr (expt 2 100) " " (- (expt 3 70)))) ; expect: "1267650600228229401496703205376 -2503155504993241601315571986085849"
(tostring (pr 1.5 " " -0.25 " " 1e21 " " -1/3)) ; expect: "1.5 -0.25 1e+21 -1/3"
(tostring (write -12) (disp -12)) ; expect: "-12-12"
(tostring (pr 1 "a" 'b #\c 2.5 nil t) (write "q\"x") (disp '(1 "s" #\d é))) ; expect: "1abc2.5nilt\"q\\\"x\"(1 s d é)"
(tostring (write "a\"b\\c\nd\te") (disp "a\"b\\c")) ; expect: "\"a\\\"b\\\\c\\nd\\te\"a\"b\\c"
(tostring (write "é😀") (write #\é) (disp #\😀)) ; expect: "\"é😀\"#\\é😀"
((fn (o) (disp "é" o) (write "é" o) (writec #\😀 o) (disp 12 o) (inside o)) (outstring)) ; expect: "é\"é\"😀12"
((fn (o) (disp "ab" o) (inside o) (disp "cd" o) (inside o)) (outstring)) ; expect: "abcd"
((fn (o) (writeb 255 o) (writeb 65 o) (inside o)) (outstring)) ; expect: "�A"
(let s (tostring (pr (newstring 1000000 #\a) "b")) (list (len s) (s 999999) (s 1000000))) ; expect: (1000001 #\a #\b)
(let s (tostring (pr (newstring 100000 #\é) (newstring 100000 #\😀) "x")) (list (len s) (s 99999) (s 100000) (s 200000))) ; expect: (200001 #\é #\😀 #\x)
(tostring (pr (tostring (pr "in" "ner é")) " outer")) ; expect: "inner é outer"

; readc / peekc / readb, including end of input (7.1 #5)
(readc (instring "")) ; expect: nil
(peekc (instring "")) ; expect: nil
(readb (instring "")) ; expect: nil
((fn (i) (list (readc i) (readc i) (readc i) (readc i))) (instring "ab")) ; expect: (#\a #\b nil nil)
((fn (i) (list (peekc i) (peekc i) (readc i) (peekc i) (readc i) (peekc i))) (instring "ab")) ; expect: (#\a #\a #\a #\b #\b nil)
((fn (i) (list (readc i) (readc i))) (instring "λ😀")) ; expect: (#\λ #\😀)
((fn (i) (list (readb i) (readb i) (readb i))) (instring "AB")) ; expect: (65 66 nil)
((fn (i) (list (readb i) (readb i) (readb i))) (instring "λ")) ; expect: (206 187 nil)
(drain-port (instring "hello\nworld")) ; expect: "hello\nworld"

; write vs disp, recursively (7.10 #57)
(write '("a" (#\b "c") sym 1.5 (1 . 2))) ; prints: ("a" (#\\b "c") sym 1.5 (1 . 2))
(disp '("a" (#\b "c") sym 1.5 (1 . 2))) ; prints: (a (b c) sym 1.5 (1 . 2))
(write "q\"uote") ; prints: "q\\"uote"
(disp "q\"uote") ; prints: q"uote
(write #\newline) ; prints: #\\newline
(disp #\newline) ; prints: \n
(write 42) ; prints: 42
(disp 42) ; prints: 42
(write 1/3) ; prints: 1/3
(disp 2.0) ; prints: 2.0
(write nil) ; prints: nil
(write ''a) ; prints: (quote a)
(write (annotate 'pt '("x"))) ; prints: #(tagged pt ("x" . nil))
(write "x") ; expect: nil
(disp "x") ; expect: nil
(write) ; prints:
(write) ; expect: nil

; call-w/stdout and call-w/stdin
((fn (o) (call-w/stdout o (fn () (disp "hi") 42))) (outstring)) ; expect: 42
((fn (o) (call-w/stdout o (fn () (disp "hi") 42))) (outstring)) ; prints:
((fn (o) (call-w/stdout o (fn () (disp "hi") (write "x"))) (inside o)) (outstring)) ; expect: "hi\"x\""
(capture (fn () (writec #\z) (writeb 33))) ; expect: "z!"
(capture (fn () (disp "a") (capture (fn () (disp "inner"))) (disp "b"))) ; expect: "ab"
((fn (o) (call-w/stdout o (fn () (is (stdout) o)))) (outstring)) ; expect: t
((fn (before) (capture (fn () (disp 1))) (is before (stdout))) (stdout)) ; expect: t
((fn (before) (on-err (fn (e) nil) (fn () (call-w/stdout (outstring) (fn () (err "boom"))))) (is before (stdout))) (stdout)) ; expect: t
(call-w/stdin (instring "abc") (fn () (readc) (readc))) ; expect: #\b
(call-w/stdin (instring "xy") (fn () (list (peekc) (readc) (readb) (readc)))) ; expect: (#\x #\x 121 nil)
(call-w/stdin (instring "(1 2)") (fn () (read))) ; expect: (1 2)

; read and sread (4.8, 5.13, 7.1 #3)
(read (instring "(a b) c")) ; expect: (a b)
(read "foo") ; expect: foo
(read "(1 \"s\" #\\c 1.5)") ; expect: (1 "s" #\c 1.5)
(read (instring "'a")) ; expect: (quote a)
(read (instring "")) ; expect: nil
(read (instring "") 'done) ; expect: done
(read (instring "   ") 'done) ; expect: done
(read "" 'done) ; expect: done
(sread (instring "x") 'eof) ; expect: x
(sread (instring "") 'eof) ; expect: eof
(sread (instring "; only a comment\n") 'eof) ; expect: eof
((fn (p) (list (sread p 'e) (sread p 'e) (sread p 'e) (sread p 'e))) (instring "1 (2 3) \"four\"")) ; expect: (1 (2 3) "four" e)
((fn (p) (list (read p) (readc p) (read p))) (instring "ab cd")) ; expect: (ab #\space cd)

; files in a temporary directory
(assign d (+ "/tmp/arcana-io-test-" (msec) "-" (rand 1000000)))
(capture (fn () (system (+ "rm -rf " d)) (system (+ "mkdir -p " d))))
(is (dir-exists d) d) ; expect: t
(dir d) ; expect: nil
(assign f (+ d "/a.txt"))
(file-exists f) ; expect: nil
(assign o (outfile f))
(type o) ; expect: output
(disp "hello" o) ; expect: nil
(writec #\newline o) ; expect: #\newline
(write '(1 "two") o)
(close o) ; expect: nil
(is (file-exists f) f) ; expect: t
(file-exists d) ; expect: nil
(dir-exists f) ; expect: nil
(dir d) ; expect: ("a.txt")
(assign i (infile f))
(type i) ; expect: input
(drain-port i) ; expect: "hello\n(1 \"two\")"
(close i) ; expect: nil
; append mode
(assign o (outfile f 'append))
(disp "+more" o)
(close o)
((fn (p) ((fn (s) (close p) s) (drain-port p))) (infile f)) ; expect: "hello\n(1 \"two\")+more"
; plain outfile truncates
(assign o (outfile f))
(disp "z" o)
(close o)
((fn (p) ((fn (s) (close p) s) (drain-port p))) (infile f)) ; expect: "z"
; read from a file port
(assign o (outfile f))
(write '(a "b" 3) o)
(disp " next" o)
(close o)
((fn (p) ((fn (v) (close p) v) (list (read p) (read p) (read p 'eof)))) (infile f)) ; expect: ((a "b" 3) next eof)
; bytes round-trip through a file
(assign o (outfile f))
(list (writeb 0 o) (writeb 255 o) (writeb 10 o)) ; expect: (0 255 10)
(close o)
((fn (p) ((fn (v) (close p) v) (list (readb p) (readb p) (readb p) (readb p)))) (infile f)) ; expect: (0 255 10 nil)
; mvfile and rmfile
(assign g (+ d "/b.txt"))
(mvfile f g) ; expect: nil
(file-exists f) ; expect: nil
(is (file-exists g) g) ; expect: t
(dir d) ; expect: ("b.txt")
(assign o (outfile f))
(disp "new" o)
(close o)
(len (dir d)) ; expect: 2
(mvfile f g) ; expect: nil
(dir d) ; expect: ("b.txt")
((fn (p) ((fn (s) (close p) s) (drain-port p))) (infile g)) ; expect: "new"
(rmfile g) ; expect: nil
(file-exists g) ; expect: nil
(dir d) ; expect: nil
(caught (fn () (infile (+ d "/missing.txt")))) ; expect: caught
(dir-exists (+ d "/nosuchdir")) ; expect: nil

; closing ports
(close) ; expect: nil
(close (instring "a") (outstring)) ; expect: nil
(caught (fn () (close 5))) ; expect: caught
(caught (fn () (close "str"))) ; expect: caught

; system copies the command's output to the current output port
(system "echo hello") ; prints: hello\n
(system "true") ; expect: nil
((fn (o) (call-w/stdout o (fn () (system "echo hello"))) (inside o)) (outstring)) ; expect: "hello\n"
(capture (fn () (system "printf 'a b'"))) ; expect: "a b"
; pipe-from returns an input port on the command's output
(assign p (pipe-from "echo abc"))
(type p) ; expect: input
(drain-port p) ; expect: "abc\n"
(close p) ; expect: nil
(drain-port (pipe-from "printf 'x\\ny'")) ; expect: "x\ny"
(drain-port (pipe-from "true")) ; expect: ""

(capture (fn () (system (+ "rm -rf " d)))) ; expect: ""
(dir-exists d) ; expect: nil

; bad arguments to writers
(caught (fn () (writec "a" (outstring)))) ; expect: caught
(caught (fn () (writec 97 (outstring)))) ; expect: caught
(caught (fn () (writeb 256 (outstring)))) ; expect: caught
(caught (fn () (writeb -1 (outstring)))) ; expect: caught
(caught (fn () (readc 5))) ; expect: caught
(caught (fn () (inside (instring "x")))) ; expect: caught
(caught (fn () (dir "/nonexistent-arcana-dir"))) ; expect: caught
(caught (fn () (outfile "/nonexistent-arcana-dir/x.txt"))) ; expect: caught
(read "1 2") ; expect: 1
(read "#\\a") ; expect: #\a
(read "|a b|") ; expect: |a b|
(read "\"s\\n\"") ; expect: "s\n"
(flushout) ; expect: t
(force-close (outstring)) ; expect: nil
(type (stderr)) ; expect: output

; Deep lists print whole; cyclic structure with Racket's labels (docs/LANGUAGE.md 1.3)
(let deep nil (repeat 20000 (= deep (list deep))) (len (tostring (write deep)))) ; expect: 40003
(let x (list 1 2 3) (scdr (cddr x) x) (tostring (write x))) ; expect: "#0=(1 2 3 . #0#)"
(let x (list 1 2 3) (scdr (cddr x) (cdr x)) (tostring (write x))) ; expect: "(1 . #0=(2 3 . #0#))"
(let x (list 1 2) (scar x x) (tostring (write x))) ; expect: "#0=(#0# 2)"
(let h (table) (= (h 'me) h) (tostring (write h))) ; expect: "#0=#hash((me . #0#))"
(let x (list "a") (tostring (write (list x x)))) ; expect: "((\"a\") (\"a\"))"
(let x (list 1) (scdr x x) (tostring (disp x))) ; expect: "#0=(1 . #0#)"
