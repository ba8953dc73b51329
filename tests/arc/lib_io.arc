; Printing, streams and files (docs/LANGUAGE.md 5.12, 5.13, 7.10, 7.11). Files go in
; a fresh directory under /tmp, removed at the end.

; --- pr, prt, prn, prs, prall: pr and prn return their first argument ---
(pr "a" 1 #\b '(c "d"))
; prints: a1b(c d)
(pr "a" 1) ; expect: "a"
(pr) ; expect: nil
(prn "x" 2)
; prints: x2\n
(prn 'y 2) ; expect: y
(prn) ; prints: \n
(prt nil "a" nil 1)
; prints: a1
(prt 'q nil) ; expect: q
(prs 1 "a" 'b)
; prints: 1 a b
(prall '(1 2 3))
; prints: 1, 2, 3
(prall '(1 2) "<" "|")
; prints: <1|2
(prall '(1 2)) ; expect: (1 2)
(prall nil "x")
; prints: 
(prall nil "x") ; expect: nil

; --- prf: #expr in the caller's scope; ~ takes the next argument and eats
; the character after it ---
(let x 3 (prf "x=#x"))
; prints: x=3
(prf "~a and ~b." 1 2)
; prints: 1 and 2.
(prf "#(+ 1 2)!")
; prints: 3!
(let (a b) '(4 5) (prf "#a,#b ~s" 'z))
; prints: 4,5 z
(prf "no directives\n")
; prints: no directives\n
(parse-format "a#x b") ; expect: ("a" x " b")
(parse-format "#(f y)") ; expect: ((f y))
(len (parse-format "a~sb")) ; expect: 3

; --- warn, ero, bar*, w/bars ---
(warn "bad thing" 1 "a")
; prints: Warning: bad thing. 1 "a" \n
(warn "plain")
; prints: Warning: plain. \n
(ero 'ero-test "to stderr") ; expect: ero-test
bar* ; expect: " | "
(w/bars (pr "a") (pr "") (pr "b") (pr 1))
; prints: a | b | 1
(w/bars (pr "") (pr "only"))
; prints: only

; --- out evaluates its argument at expansion time ---
(= out-n 0)
(def out-f () (out (do (++ out-n) (pr "x" out-n))))
out-n ; expect: 1
(tostring (out-f) (out-f)) ; expect: "x1x1"
out-n ; expect: 1

; --- time, jtime, time10 ---
(let s (tostring (time (+ 1 2))) (list (cut s 0 6) (cut s (- (len s) 7))))
; expect: ("time: " " msec.\n")
(let v nil (tostring (= v (time (+ 1 2)))) v) ; expect: 3
(let v nil (tostring (= v (jtime (+ 1 2)))) v) ; expect: ok
(let n 0 (tostring (time10 (++ n))) n) ; expect: 10

; --- string ports: w/outstring (not closed), w/instring (closed), tostring ---
(w/outstring o (disp "hi" o) (write "x" o) (inside o)) ; expect: "hi\"x\""
(let p (w/outstring o o) (disp "later" p) (inside p)) ; expect: "later"
(w/instring i "abc" (readc i) (readc i)) ; expect: #\b
(let p (w/instring i "abc" i) (on-err (fn (e) 'closed) (fn () (readc p)))) ; expect: closed
(tostring (pr 1 2)) ; expect: "12"
(tostring (prn "x")) ; expect: "x\n"
(tostring) ; expect: ""
(tostring (pr "a") (pr (tostring (pr "b") (pr "c"))) (pr "d")) ; expect: "abcd"
(tostring (catch (pr "a") (throw 1) (pr "b"))) ; expect: "a"
(tostring (tostring (pr "inner")) (pr "outer")) ; expect: "outer"
; the output port is restored after an error
(do (errsafe (tostring (pr "lost") (err "x"))) (pr "kept"))
; prints: kept

; --- w/stdout, w/stdin, fromstring ---
(let o (outstring) (w/stdout o (pr "x") (prn 1)) (inside o)) ; expect: "x1\n"
(w/stdin (instring "ab") (readc) (readc)) ; expect: #\b
(fromstring "hello" (readc) (readc)) ; expect: #\e
(fromstring "(1 2) x" (list (read) (read))) ; expect: ((1 2) x)
(fromstring "a" (fromstring "b" (readc))) ; expect: #\b
(fromstring "a" (fromstring "b" nil) (readc)) ; expect: #\a

; --- readstring1, readall ---
(readstring1 "(a b) c") ; expect: (a b)
(readstring1 "") ; expect: nil
(readstring1 "  " 'eof) ; expect: eof
(readstring1 5) ; error: readstring1
(readall "1 (2) x \"s\"") ; expect: (1 (2) x "s")
(readall (instring "a b")) ; expect: (a b)
(readall "") ; expect: nil
(readall "1 stop 2" 'stop) ; expect: (1)

; --- readline: strips \n, keeps \r, nil at end ---
(readline (instring "ab\ncd")) ; expect: "ab"
(readline (instring "ab\r\ncd")) ; expect: "ab\r"
(readline (instring "")) ; expect: nil
(readline (instring "\nx")) ; expect: ""
(let p (instring "a\n\nb\n") (list (readline p) (readline p) (readline p) (readline p)))
; expect: ("a" "" "b" nil)
(let p (instring "a\nb") (list (readline p) (readline p) (readline p))) ; expect: ("a" "b" nil)
(fromstring "xy\nz" (readline)) ; expect: "xy"
(readline "not a port") ; error: readline: expected an input port

; --- allchars ---
(allchars (instring "ab\ncd")) ; expect: "ab\ncd"
(let p (instring "abc") (readc p) (allchars p)) ; expect: "bc"
(allchars (instring "")) ; expect: ""
(allchars 'x) ; error: allchars

; --- files: w/outfile, w/appendfile, w/infile, writefile, readfile,
; readfile1, filechars ---
(= iodir* (string "/tmp/arcana-lib-io-" (seconds) "-" (rand 1000000000)))
(system (string "mkdir -p " iodir*))
(if (dir-exists iodir*) t) ; expect: t
(= iof* (string iodir* "/a.txt"))
(w/outfile o iof* (disp "line1\n" o) (write '(x "y") o)) ; expect: nil
(filechars iof*) ; expect: "line1\n(x \"y\")"
(w/infile i iof* (readline i)) ; expect: "line1"
(w/infile i iof* (readline i) (read i)) ; expect: (x "y")
(readfile iof*) ; expect: (line1 (x "y"))
(readfile1 iof*) ; expect: line1
; the port is closed afterwards, also when the body fails
(let p (w/infile i iof* i) (on-err (fn (e) 'closed) (fn () (readc p)))) ; expect: closed
(= iop* nil)
(errsafe (w/infile i iof* (= iop* i) (err "fail")))
(on-err (fn (e) 'closed) (fn () (readc iop*))) ; expect: closed
(w/appendfile o iof* (disp " more" o))
(filechars iof*) ; expect: "line1\n(x \"y\") more"
(w/outfile o iof* (disp "new" o))
(filechars iof*) ; expect: "new"
(readfile (string iodir* "/missing")) ; error: missing
; writefile: write to path.tmp, then rename; returns the value
(= iow* (string iodir* "/w.arc"))
(writefile '(1 "a" (b)) iow*) ; expect: (1 "a" (b))
(readfile iow*) ; expect: ((1 "a" (b)))
(file-exists (string iow* ".tmp")) ; expect: nil
(writefile 'second iow*) ; expect: second
(readfile1 iow*) ; expect: second
(writefile 1 5) ; error: writefile
; a write that fails (here the rename, over a directory that is not empty)
; raises its error and leaves neither a temporary file nor a changed path
(= iowd* (string iodir* "/d"))
(system (string "mkdir -p " iowd* "/inside"))
(writefile 'third iowd*) ; error: d
(list (file-exists (string iowd* ".tmp")) (no (no (dir-exists (string iowd* "/inside")))))
; expect: (nil t)
; a nil in a file doesn't end readfile
(do (w/outfile o iow* (disp "1 nil 2" o)) (readfile iow*)) ; expect: (1 nil 2)
(system (string "rm -rf " iodir*))
(dir-exists iodir*) ; expect: nil
