; tests/arc/messages.arc — error messages that name the function at fault
; and say what was wrong (issue 14, "Errors: caught, whole, located").

; readline is Arc-defined over readc; a closed port is readline's error.
(let p (instring "x") (close p) (on-err details (fn () (readline p))))
; expect: "readline: port is closed #<input-port:string>"
(on-err details (fn () (readline 5))) ; expect: "readline: expected an input port, got 5"
(on-err details (fn () (allchars 'x))) ; expect: "allchars: expected an input port, got x"

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
; expect: "outfile: the mode is 'append, got bogus"
(file-exists "/tmp/arcana-messages-never.txt") ; expect: nil

; A macro's function is named after the macro: its arity error says so.
(mac %two-args (a b) `(+ ,a ,b))
(on-err details (fn () (eval '(%two-args 1)))) ; expect: "%two-args: expects 2 arguments, got 1"
