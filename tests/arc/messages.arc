; tests/arc/messages.arc — error messages that name the function at fault
; and say what was wrong (issue 14, "Errors: caught, whole, located").

; readline is Arc-defined over readc; a closed port is readline's error.
(let p (instring "x") (close p) (on-err details (fn () (readline p))))
; expect: "readline: port is closed #<input-port:string>"
(on-err details (fn () (readline 5))) ; expect: "readline: expected an input port, got 5"
(on-err details (fn () (allchars 'x))) ; expect: "allchars: expected an input port, got 'x"

; cut says which bound is out of range, and the length it is out of.
(on-err details (fn () (cut "abc" 5))) ; expect: "cut: start beyond the string's length (3): 5"
(on-err details (fn () (cut "abc" 1 9))) ; expect: "cut: end beyond the string's length (3): 9"
(on-err details (fn () (cut "abc" 2 1))) ; expect: "cut: end before start: 1 2"
(cut "abc" 3) ; expect: ""

; rem is written over keep; a bad sequence is rem's error.
(on-err details (fn () (rem -7 3))) ; expect: "rem: expected a list or string, got 3"
(rem odd '(1 2 3)) ; expect: (2)
(rem #\a "abca") ; expect: "bc"

; One argument is "1 argument".
(on-err details (fn () ((fn (x) x)))) ; expect: "fn: expects 1 argument, got 0"
(on-err details (fn () ((fn (x . y) x)))) ; expect: "fn: expects at least 1 argument, got 0"
(on-err details (fn () ((fn (x y) x)))) ; expect: "fn: expects 2 arguments, got 0"

; outfile's mode is 'append or nothing.
(on-err details (fn () (outfile "/tmp/arcana-messages-never.txt" 'bogus)))
; expect: "outfile: the mode is 'append, got 'bogus"
(file-exists "/tmp/arcana-messages-never.txt") ; expect: nil

; A macro's function is named after the macro: its arity error says so.
(mac %two-args (a b) `(+ ,a ,b))
(on-err details (fn () (eval '(%two-args 1)))) ; expect: "%two-args: expects 2 arguments, got 1"

; Errors show the values they name as Arc 3.1 shows them (docs/LANGUAGE.md
; 4.13): written, quoted if a symbol, nil, t, a list, a table or a tagged
; object, lists with their nil terminator. Each text is Arc 3.1's.
(on-err details (fn () (3 4))) ; expect: "Function call on inappropriate object 3 '(4)"
(on-err details (fn () (3))) ; expect: "Function call on inappropriate object 3 '()"
(on-err details (fn () (3 '(1 2) "s"))) ; expect: "Function call on inappropriate object 3 '((1 2 . nil) \"s\")"
(on-err details (fn () ('a))) ; expect: "Function call on inappropriate object 'a '()"
(on-err details (fn () (nil 1))) ; expect: "Function call on inappropriate object 'nil '(1)"
(on-err details (fn () (apply 3 4 '(5)))) ; expect: "Function call on inappropriate object 3 '(4 5)"
(on-err details (fn () ((annotate 'x 1) 2))) ; expect: "Function call on inappropriate object '#(tagged x 1) '(2)"
(on-err details (fn () (err "msg"))) ; expect: "msg"
(on-err details (fn () (err "msg:" '(a "b") 2))) ; expect: "msg: '(a \"b\" . nil) 2"
(on-err details (fn () (err "msg" "str" #\c 1.5 nil t))) ; expect: "msg \"str\" #\\c 1.5 'nil 't"
(on-err details (fn () (err "nested" '(1 (2 "x" #\y) . 3)))) ; expect: "nested '(1 (2 \"x\" #\\y . nil) . 3)"
(on-err details (fn () (err "x" (list nil t) (list (list))))) ; expect: "x '(nil t . nil) '(nil . nil)"
(on-err details (fn () (err "x" (table) (obj b '(1 2))))) ; expect: "x '#hash() '#hash((b . (1 2 . nil)))"
(on-err details (fn () (err "x" (annotate 'foo '(1 2))))) ; expect: "x '#(tagged foo (1 2 . nil))"
(on-err details (fn () (err "x" (list 1 car) car (fn () 1)))) ; expect: "x '(1 #<procedure:car> . nil) #<procedure:car> #<procedure>"
(on-err details (fn () (err "x" 1/2 -0.5 (expt 2 100) (sym "a b")))) ; expect: "x 1/2 -0.5 1267650600228229401496703205376 '|a b|"
(on-err details (fn () (err "a\"b" "c\"d" "e\nf"))) ; expect: "a\"b \"c\\\"d\" \"e\\nf\""
(on-err details (fn () (err "x ~a" 1))) ; expect: "x ~a 1"
(on-err details (fn () (err ""))) ; expect: ""

; A value shown longer than 256 characters is cut to 253 and "...".
(let m (on-err details (fn () (err "x" (range 1 200)))) (list (len m) (cut m (- (len m) 10))))
; expect: (258 "5 86 87...")
(let m (on-err details (fn () (err "x" (newstring 300 #\a)))) (list (len m) (cut m 0 5) (cut m (- (len m) 4))))
; expect: (258 "x \"aa" "a...")
(let m (on-err details (fn () (err "x" (newstring 254 #\a)))) (list (len m) (cut m (- (len m) 2))))
; expect: (258 "a\"")

; Arc 3.1's own messages, with their irritants shown so.
(on-err details (fn () (car 5))) ; expect: "Can't take car of 5"
(on-err details (fn () (car "abc"))) ; expect: "Can't take car of \"abc\""
(on-err details (fn () (cdr 'a))) ; expect: "Can't take cdr of 'a"
(on-err details (fn () (car (table)))) ; expect: "Can't take car of '#hash()"
(on-err details (fn () (coerce 'a 'table))) ; expect: "Can't coerce 'a 'table"
(on-err details (fn () (coerce "a" 'int))) ; expect: "Can't coerce \"a\" 'int"
(on-err details (fn () (sref 5 1 2))) ; expect: "Can't set reference  5 2 1"

; Where Arc 3.1's text is Racket's, Arcana's stays (docs/LANGUAGE.md 4.13),
; its values shown the same way.
(on-err details (fn () (err 'sym 1))) ; expect: "sym 1"
(on-err details (fn () (+ 1 'a))) ; expect: "+: argument 2 is 'a but argument 1 is 1; + adds numbers, joins strings or appends lists, as its first argument chooses"

; The arithmetic builtins name the argument at fault by its position and
; show it: a nil from a missing table key is the culprit, not the 1 after it.
(let tbl (table) (on-err details (fn () (+ (tbl 'missing) 1))))
; expect: "+: argument 2 is 1 but argument 1 is 'nil; + adds numbers, joins strings or appends lists, as its first argument chooses"
(let tbl (table) (on-err details (fn () (+ 1 2 (tbl 'missing)))))
; expect: "+: argument 3 is 'nil but argument 1 is 1; + adds numbers, joins strings or appends lists, as its first argument chooses"
(on-err details (fn () (+ '(1) "a"))) ; expect: "+: argument 2 is \"a\" but argument 1 is '(1 . nil); + adds numbers, joins strings or appends lists, as its first argument chooses"
(on-err details (fn () (+ 'a 1))) ; expect: "+: argument 1 is 'a; expected a number, string or list"
(on-err details (fn () (+ (table)))) ; expect: "+: argument 1 is '#hash(); expected a number, string or list"
(on-err details (fn () (+ '(1 . 2) '(3)))) ; expect: "+: argument 1 is '(1 . 2); expected a proper list (only the last may end in a dotted tail)"
(+ '(1) '(2 . 3)) ; expect: (1 2 . 3)
(let x nil (on-err details (fn () (- 5 x)))) ; expect: "-: argument 2 is 'nil; expected a number"
(let x nil (on-err details (fn () (- x)))) ; expect: "-: argument 1 is 'nil; expected a number"
(let x "2" (on-err details (fn () (* 1 2 x)))) ; expect: "*: argument 3 is \"2\"; expected a number"
(let x 'q (on-err details (fn () (/ 6 x)))) ; expect: "/: argument 2 is 'q; expected a number"
(on-err details (fn () (mod nil 3))) ; expect: "mod: argument 1 is 'nil; expected an integer"
(on-err details (fn () (mod 7 1.5))) ; expect: "mod: argument 2 is 1.5; expected an integer"
(on-err details (fn () (expt 2 'x))) ; expect: "expt: argument 2 is 'x; expected a number"
(on-err details (fn () undefined-var)) ; expect: "reference to undefined identifier: _undefined-var"
(on-err details (fn () ('(1 2) 5))) ; expect: "list index out of range: 5 '(1 2 . nil)"
