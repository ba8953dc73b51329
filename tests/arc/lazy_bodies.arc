; Library functions whose bodies the image gives on their first run
; (compiler/image.cpp, "Lazily read bodies"): each is called here for the
; first time in this process, under each collector and under stress
; (tests/CMakeLists.txt). tests/unit/test_image.cpp checks the same cases
; on functions known to be unread.

; a continuation captured in a callback of a function read on that call,
; re-entered twice (each re-entry resumes the function's frame)
(= lazy-k nil lazy-n 0)
(let r (trues (fn (x) (ccc (fn (c) (unless lazy-k (= lazy-k c)) x))) '(1 2))
  (++ lazy-n)
  (when (< lazy-n 3) (lazy-k (+ lazy-n 10)))
  (list lazy-n r)) ; expect: (3 (12 2))

; the disassembler shows a body not read yet
(let text (tostring (disasm tree-subst))
  (list (no (posmatch "LAZY" text)) (no (no (posmatch "TAILCALL" text))))) ; expect: (t t)
(tree-subst 'a 'b '(a (c a) d)) ; expect: (b (c b) d)

; a body read by one of several threads that all call it at once
(= lazy-rs nil)
(let ths (map (fn (i) (thread (let r (dedup (list i i 2)) (atomic (push r lazy-rs)))))
              '(1 3 4))
  (each th ths (until (dead th) (sleep .001)))
  (sort < (map car lazy-rs))) ; expect: (1 3 4)

; an error inside a function read on that call
(ellipsize (quote x)) ; error: len: expected a string, table or list
