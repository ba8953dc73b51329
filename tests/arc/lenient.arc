; The library given nil, "", an empty list or an empty table where it expects
; a string, a list or a table: where Arc 3.1's function returns a value,
; Arcana's returns the same one (docs/LANGUAGE.md 5 and 6.1-6.2). Arc 3.1
; programs rely on it: srv.arc urldecodes empty form fields, news.arc takes
; the keys of a missing table. Expected values are worked out from Arc 3.1's
; definitions, in which (car nil) is nil, (len nil) is 0, a loop over nil or
; "" runs no times and (coerce nil 'string) is "".

; --- strings.arc (6.1) ---

; urldecode and urlencode loop over the characters of their argument
(urldecode nil) ; expect: ""
(urlencode nil) ; expect: ""

; trim: nothing to trim in nil; an unknown where trims no end
(trim nil) ; expect: ""
(trim nil 'front) ; expect: ""
(trim nil 'end #\a) ; expect: ""
(trim " a " nil) ; expect: " a "
(trim "xax" 'neither #\x) ; expect: "xax"
(trim "   " nil) ; expect: ""

; lines and slices cut nil once, and a cut of nil is nil
(lines nil) ; expect: (nil)
(slices nil #\,) ; expect: (nil)
(slices nil whitec) ; expect: (nil)

; multisubst and subst print each character of an empty seq: none
(multisubst nil nil) ; expect: ""
(multisubst '(("a" "b")) nil) ; expect: ""
(multisubst 5 "") ; expect: ""
(subst "x" "a" nil) ; expect: ""
(subst "x" nil "") ; expect: ""

; posmatch: an empty pattern matches at the start; lists are sequences too
(posmatch nil "abc") ; expect: 0
(posmatch nil "") ; expect: 0
(posmatch nil nil) ; expect: 0
(posmatch nil "abc" 2) ; expect: 2
(posmatch '(2 3) '(1 2 3)) ; expect: 1

; an empty literal pattern matches anywhere
(litmatch nil "abc") ; expect: t
(endmatch nil "abc") ; expect: t

; --- arc.arc (5) ---

; assoc skips what is not a cons, and an atom ends the list
(assoc nil "") ; expect: nil
(assoc 'a 5) ; expect: nil
(assoc 'a (table)) ; expect: nil
(alref "" nil) ; expect: nil
(alref "" 'a) ; expect: nil

; adjoin tests the elements with some, which takes strings
(adjoin nil "") ; expect: (nil . "")
(adjoin #\a "abc") ; expect: "abc"
(adjoin #\z "abc") ; expect: (#\z . "abc")
(let x "" (pushnew 1 x) x) ; expect: (1 . "")

; dedup iterates with each, so a string gives its distinct characters
(dedup "") ; expect: nil
(dedup "abca") ; expect: (#\a #\b #\c)

; union is (+ xs (rem ... ys)), so it joins strings as + does
(union is "" nil) ; expect: ""
(union is "ab" "bc") ; expect: "abc"

; firstn of at most 0 elements is nil, nthcdr of 0 the sequence itself
(firstn 0 "") ; expect: nil
(firstn -1 5) ; expect: nil
(nthcdr 0 "") ; expect: ""
(tuples nil 0) ; expect: nil
(tuples nil nil) ; expect: nil
(retrieve 0 idfn "") ; expect: nil

; downcase and upcase of the symbol nil: (sym "")
(downcase nil) ; expect: ||
(upcase nil) ; expect: ||

; keys and vals iterate with (each (k v) h ...): nil, "" and association
; lists work
(keys nil) ; expect: nil
(vals nil) ; expect: nil
(keys "") ; expect: nil
(vals "") ; expect: nil
(keys '((a 1) (b 2))) ; expect: (a b)
(vals '((a 1) (b 2) (c))) ; expect: (1 2 nil)
(rand-key nil) ; expect: nil
(rand-key "") ; expect: nil
(rand-key '((a 1))) ; expect: a

; fill-table with no pairs stores nothing and returns its first argument
(fill-table nil nil) ; expect: nil
(listtab "") ; expect: #hash()

; queues: (qlist q) is (car q)
(qlist nil) ; expect: nil

; templates: "" names no template, so an instance has no fields
(inst "") ; expect: #hash()
(inst "" nil) ; expect: #hash()
(inst "" 'a 1) ; expect: #hash((a . 1))
(templatize "" nil) ; expect: #hash()
(templatize "" '((a 1))) ; expect: #hash()

; cache recomputes once the elapsed time reaches the limit (a limit of 0:
; every call), and whenever the cached value is nil
(let n 0 (let f (cache (fn () 0) (fn () (++ n))) (f) (f) (f))) ; expect: 3
(let n 0 (let f (cache (fn () 100) (fn () (++ n) nil)) (f) (f) (f) n)) ; expect: 3

; --- pprint.arc (6.2) ---

; a quoted form is measured as (quote x): this one is 31 characters as
; printed but does not fit on a line as Arc 3.1 measures it
(ppr '(f 'aaaa 'bbbb (g 'cccc 'dddd))) ; expect: t
; prints: (f 'aaaa\n   'bbbb\n   (g 'cccc 'dddd))
(ppr '(if (is x 'a) (f 'bbb) (g 'ccc))) ; expect: t
; prints: (if (is x 'a)\n    (f 'bbb)\n    (g 'ccc))
; a first argument too long for a line sends the rest to lines of their own,
; even when it was laid out without a break
(tostring (ppr '(f (g aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa b) c d)))
; expect: "(f (g aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa b)\n   c\n   d)"
; only quote makes an atom a word that stays on the operator's line
(tostring (ppr '(f aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa `b)))
; expect: "(f aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n   `b)"
