#!/usr/bin/env arcana
; examples/args.arc — a script and its command line.
;
;   arcana examples/args.arc one two three
;   chmod +x examples/args.arc && PATH=build:$PATH examples/args.arc a b
;
; The arguments after the script's name are strings in the global argv.

; Prints each argument with its position, counting from 1.
(assign show
  (fn (args i)
    (if args
        ((fn ()
           (disp (+ "" i ": " (car args) " (" (len (car args)) " characters)\n"))
           (show (cdr args) (+ i 1)))))))

(if argv
    (show argv 1)
    (disp "no arguments; try: arcana examples/args.arc one two three\n"))
(disp (+ "argv is " (len argv) " long: "))
(write argv)
(disp "\n")
