; stdlib/code.arc: docs/LANGUAGE.md 6.3. Expected values are derived from the spec
; and counted by hand from the fixtures lib/code_sample.arc and
; lib/code_sample2.arc, not from running the code.
;
; lib/code_sample.arc holds two expressions, on lines 4-6 and 10:
;   (def f (x) (+ x x))   atoms def f x + x x; 8 conses, 9 atoms with nils
;   (car '(a))            atoms car quote a; 5 conses, 6 atoms with nils
; lib/code_sample2.arc holds four, one a line after its first:
;   (+ x 1)               3 conses, 4 atoms with the nil
;   nil                   one atom, no cons
;   (+ x 2 x)             4 conses, 5 atoms
;   (car (+ x 3))         5 conses, 6 atoms

(= %sample "lib/code_sample.arc" %sample2 "lib/code_sample2.arc")

; codelines: lines with code, not blank, not (after whitespace) a ; comment
(codelines %sample) ; expect: 3
(codelines %sample2) ; expect: 4

; codeflat: atoms of the expressions (the nils flat drops not counted)
(codeflat %sample) ; expect: 9
(codeflat %sample2) ; expect: 11

; codetree: conses + atoms; 8+9 + 5+6 and 3+4 + 1 + 4+5 + 5+6
(codetree %sample) ; expect: 28
(codetree %sample2) ; expect: 28

; code-density: codetree / codelines, an exact ratio
(code-density %sample) ; expect: 28/3
(code-density %sample2) ; expect: 7

; tokcount: token -> occurrences across all the files
(let h (tokcount (list %sample %sample2)) (list (h 'x) (h '+) (h 'car) (h 'def) (h 'quote) (h 1) (h 'nil))) ; expect: (7 4 2 1 1 1 nil)
(let h (tokcount (list %sample)) (list (h 'x) (h '+) (h 'car))) ; expect: (3 1 1)
(len (tokcount nil)) ; expect: 0
(type (tokcount nil)) ; expect: table

; common-tokens: (token count), most frequent first, quote left out
(firstn 3 (common-tokens (list %sample %sample2))) ; expect: ((x 7) (+ 4) (car 2))
(len (common-tokens (list %sample %sample2))) ; expect: 9
(some [is (car _) 'quote] (common-tokens (list %sample %sample2))) ; expect: nil
(common-tokens nil) ; expect: nil

; nonop: the symbols the reader makes of ' ` , ,@
(nonop 'quote) ; expect: t
(nonop 'unquote) ; expect: t
(nonop 'quasiquote) ; expect: t
(nonop 'unquote-splicing) ; expect: t
(nonop 'car) ; expect: nil
(nonop "quote") ; expect: nil

; common-operators: common-tokens of bound symbols only (x, f, a are not)
(common-operators (list %sample %sample2)) ; expect: ((+ 4) (car 2) (def 1))
(sort < (map car (common-operators (list %sample)))) ; expect: (+ car def)

; space-eaters: (symbol count length*count) of bound symbols, biggest first
(space-eaters (list %sample %sample2)) ; expect: ((car 2 6) (+ 4 4) (def 1 3))

; top40: the first 40 elements, one per line
(top40 '(a "b" 3 (c d))) ; prints: a\nb\n3\n(c d)\n
(tostring (top40 nil)) ; expect: ""
(len (lines (tostring (top40 (range 1 45))))) ; expect: 41
(last (lines (tostring (top40 (range 1 45))))) ; expect: ""
(car (lines (tostring (top40 (range 1 45))))) ; expect: "1"
((lines (tostring (top40 (range 1 45)))) 39) ; expect: "40"

; flatlen: atoms of the forms as written, not evaluated
(flatlen a (b nil c) "d") ; expect: 4
(flatlen) ; expect: 0
(flatlen (undefined-function 1 2)) ; expect: 3
(flatlen 'x) ; expect: 2

; a file that is not there is an error
(codelines "lib/no-such-file.arc") ; error: no-such-file
