#!/usr/bin/env arcana
; examples/letters.arc — count the letters of a text with a hash table.
;
;   arcana examples/letters.arc "some text"
;
; Shows tables (a table is a function of its keys), strings as lists of
; characters, and a loop written as a tail-recursive function.

(assign text (if argv (car argv) "the quick brown fox jumps over the lazy dog"))

(assign counts (table))

; Adds one to the count of each character of chars except spaces.
(assign tally
  (fn (chars)
    (if chars
        ((fn (c)
           (if (no (is c #\space))
               (sref counts (+ 1 (if (counts c) (counts c) 0)) c))
           (tally (cdr chars)))
         (car chars)))))

(tally (coerce text 'cons))

(disp (+ "\"" text "\" has " (len text) " characters\n"))
(maptable (fn (c n) (disp (+ "  " c " " n "\n"))) counts)
