#!/usr/bin/env arcana
; examples/letters.arc — count the letters of a text with a hash table.
;
;   arcana examples/letters.arc "some text"
;
; Shows tables (a table is a function of its keys, and (++ (h k 0)) a place
; with a default), each over a string, and sorting with a comparer.

(= text (if argv (car argv) "the quick brown fox jumps over the lazy dog"))

(= counts (table))
(each c text
  (unless (whitec c)
    (++ (counts c 0))))

(prn (tostring (write text)) " has " (len text) " characters")
(each (c n) (sort (compare > cadr) (tablist counts))
  (prn "  " c " " n))
