; stdlib/code.arc — source statistics, docs/LANGUAGE.md 6.3 (Arc 3.1's code.arc):
; how long a program is by lines, atoms and tree nodes, and which tokens
; and operators it spends its text on. Stand-alone utilities for looking
; at Arc code; nothing else in the library depends on them.

; The expressions of the file at path. A fresh end marker, so that a nil
; written at the top level of the file does not end the list.
(def %code-exprs (path)
  (let eof (list 'eof)
    (w/infile in path (readall in eof))))

; (codelines path): the number of lines of path that have something on
; them other than whitespace and do not start (after whitespace) with ;.
(def codelines (path)
  (w/infile in path
    (summing count-line
      (whilet line (readline in)
        (count-line (aand (find nonwhite line) (isnt it #\;)))))))

; (codeflat path): the number of atoms in the expressions of path, nils
; not counted (they are what flat drops).
(def codeflat (path)
  (len (flat (%code-exprs path))))

; (codetree path): the number of nodes in the expressions of path, each
; seen as a tree of conses: every cons counts, and every atom in it,
; including the nil ending each list. (a b) has five nodes.
(def codetree (path)
  (sum %code-nodes (%code-exprs path)))

(def %code-nodes (x)
  (treewise (fn (a d) (+ a d 1)) (fn (x) 1) x))

; (code-density path): codetree / codelines, how much code a line holds.
(def code-density (path)
  (/ (codetree path) (codelines path)))

; (tokcount paths): a table of each token (atom) in the files at paths to
; the number of times it occurs in them.
(def tokcount (paths)
  (let counts (table)
    (each path paths
      (each token (flat (%code-exprs path))
        (++ (counts token 0))))
    counts))

; (nonop x): t for the symbols the reader makes of ' ` , and ,@, which
; count as tokens but were not written as names.
(def nonop (x)
  (in x 'quote 'unquote 'quasiquote 'unquote-splicing))

; (common-tokens paths): a (token count) list for each token of the files
; at paths, the most frequent first; quote and the unquotes left out.
(def common-tokens (paths)
  (%code-ranked (tokcount paths)
                (fn (k v) (unless (nonop k) (list k v)))
                cadr))

; The non-nil values of (f k v) over the table h, sorted by score, biggest
; first.
(def %code-ranked (h f score)
  (let xs nil
    (maptable (fn (k v) (awhen (f k v) (push it xs))) h)
    (sort (compare > score) xs)))

; (common-operators paths): common-tokens restricted to symbols with a
; global value, the names a program calls or refers to.
(def common-operators (paths)
  (keep [and (isa (car _) 'sym) (bound (car _))]
        (common-tokens paths)))

; (top40 xs): print the first 40 elements of xs, one per line.
(def top40 (xs)
  (each x (firstn 40 xs) (prn x))
  t)

; (space-eaters paths): for each bound symbol in the files at paths, a
; list (symbol count score), score being the length of its name times its
; count, biggest score first: the names that take up the most text.
(def space-eaters (paths)
  (%code-ranked (tokcount paths)
                (fn (k v)
                  (when (and (isa k 'sym) (bound k))
                    (list k v (* (len (string k)) v))))
                [_ 2]))

; (flatlen . forms): the number of atoms in the forms as written (they are
; not evaluated), nils not counted.
(mac flatlen args
  (len (flat args)))
