#!/usr/bin/env arcana
; examples/args.arc — a script and its command line.
;
;   arcana examples/args.arc one two three
;   chmod +x examples/args.arc && PATH=build:$PATH examples/args.arc a b
;
; The arguments after the script's name are strings in the global argv.

(if argv
    (on arg argv
      (prn (+ index 1) ": " arg " (" (plural (len arg) "character") ")"))
    (prn "no arguments; try: arcana examples/args.arc one two three"))
(pr "argv is " (len argv) " long: ")
(write argv)
(prn)
