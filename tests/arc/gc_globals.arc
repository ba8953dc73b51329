; Globals holding young objects across minor collections. A global's value
; lives in its symbol, an old object after the first collections, so under
; gen a young value stored there (STOREG, set_global) is reached at a minor
; collection only through the write barrier's remembered set (gc/gen.cpp,
; invariant 1), and the collection moves it and rewrites the symbol's cell.
; The garbage below runs many minor collections with a 64 KiB nursery and
; under --gc-stress (tests/CMakeLists.txt); the verifier runs after the file.
; This is binary-trees written over globals (bench/gc/binary_trees_plain.arc).
(def gg-make (d)
  (if (is d 0) (cons nil nil) (cons (gg-make (- d 1)) (gg-make (- d 1)))))
(def gg-check (tr)
  (if (car tr) (+ 1 (gg-check (car tr)) (gg-check (cdr tr))) 1))

; a young tree in a global outlives the garbage made after it
(= gg-long (gg-make 9))
(= gg-count 0)
(repeat 40 (++ gg-count (gg-check (gg-make 6))))
gg-count ; expect: 5080
(gg-check gg-long) ; expect: 1023

; the global replaced by a fresh tree every round, each one checked in the
; next round, after that round's garbage
(= gg-tree (gg-make 5))
(= gg-ok 0)
(repeat 30
  (gg-make 7)
  (when (is (gg-check gg-tree) 63) (++ gg-ok))
  (= gg-tree (gg-make 5)))
gg-ok ; expect: 30
(gg-check gg-tree) ; expect: 63

; a global list grown by push (each new cons young, the rest older)
(= gg-list nil)
(repeat 60
  (push (gg-make 3) gg-list)
  (gg-make 6))
(len gg-list) ; expect: 60
(reduce + (map gg-check gg-list)) ; expect: 900

; young values of other kinds: a string, a table, a closure over a fresh tree
(= gg-str (string "depth " 5))
(= gg-tab (obj tree (gg-make 4)))
(= gg-fn (let tr (gg-make 4) (fn () (gg-check tr))))
(repeat 20 (gg-make 7))
gg-str ; expect: "depth 5"
(gg-check (gg-tab 'tree)) ; expect: 31
(gg-fn) ; expect: 31

; a global set to a fixnum and back to a young object (the symbol is not
; remembered after the fixnum, and must be again after the tree)
(= gg-flip 0)
(repeat 10 (++ gg-flip))
(= gg-flip (gg-make 4))
(repeat 20 (gg-make 7))
(gg-check gg-flip) ; expect: 31
