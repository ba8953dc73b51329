; tests/arc/deep.arc — input nested a million deep, and lists a million
; long. Each walk over a value either loops (the reader, the printer, the
; table's equal and hash, copy) or counts its depth and raises an Arc error
; that says the input is nested too deeply (expansion, quasiquote, parameter
; lists, the compiler, coerce to a string); after the error the program goes
; on. The message is the expander's own ("form nested too deeply to compile")
; or, where a build's frames are big enough to reach the machine stack's end
; first (ASan), check_machine_stack's; both say "nested too deeply".
;
; The inputs are made by the reader from a string, or by coerce from one: a
; loop in C++, with no Arc call per level, so they are quick to make even
; under --gc-stress, where every call collects. The one deep list most
; tests share is dropped at the end, before the heap verifier runs.

(load "lib/base.arc")

(= deep-n 1000000)

; The text of a list nested n deep in its cars around inner: (((inner))).
(def nested-text (n inner) (+ (newstring n #\() inner (newstring n #\))))
(def nested (n inner) (read (nested-text n inner)))
; A million-long list of characters.
(def long-list () (coerce (newstring deep-n #\a) 'cons))
; ((( ... x ... ))), a million deep.
(= deep (nested deep-n "x"))

; --- The reader keeps open lists and quotes on its own stack ---
; (nested makes its lists; the printer's test below writes one.) A quote
; nested deep, (quote (quote ... x)): a list in the cdr's car.
(len (tostring (write (read (+ (newstring deep-n #\') "x"))))) ; expect: 8000001
(read (newstring deep-n #\()) ; error: unclosed '('
(+ 1 2) ; expect: 3

; --- The printer: write, disp, pr and prn loop, on the car as on the cdr ---
(map [len (tostring (_ deep))] (list write disp pr prn)) ; expect: (2000001 2000001 2000001 2000002)

; --- equal and the table's hash: a deep key is found by an equal one ---
(let h (table)
  (= (h deep) 'found)
  (list (h (nested deep-n "x")) (h (nested deep-n "y"))))
; expect: (found nil)
; iso is Arc code: it recurses on the VM stack, which holds a million
; levels. Not under --gc-stress, where the VM stack is small (an overflow,
; an Arc error) and each call's collection scans all of it.
(if %stress-mode t (iso deep (nested deep-n "x"))) ; expect: t

; --- copy is shallow: the deep car is shared ---
(is (car (copy deep)) (car deep)) ; expect: t

; --- Expansion and compilation count their depth ---
(eval deep) ; error: nested too deeply
(+ 1 2) ; expect: 3
; Quoted, the same list is data: no walk goes into it.
(is (eval (list 'quote deep)) deep) ; expect: t
(eval (read (+ "(fn " (nested-text deep-n "x") " 1)"))) ; error: nested too deeply
(eval (read (+ "(fn (a " (nested-text deep-n "(o b 1)") ") a)"))) ; error: nested too deeply
; (if a b c d ...) is a long list, but each clause is a level of the
; compiler's tree: far past the machine stack, an Arc error.
(eval (cons 'if (long-list))) ; error: nested too deeply
(+ 1 2) ; expect: 3

; --- Quasiquote ---
; Without an unquote a template is a constant, however deep: its value is
; the template itself. A million backquotes are one around the list of the
; other 999,999 around x.
(let x (read (+ (newstring deep-n #\`) "x")) (is (eval x) (cadr x))) ; expect: t
(is (eval (list 'quasiquote deep)) deep) ; expect: t
; An unquote down there needs code at every level: too deep, found by one
; walk of the template.
(eval (read (+ (newstring deep-n #\`) (newstring deep-n #\,) "x"))) ; error: form nested too deeply to compile
(eval (read (+ "`" (nested-text deep-n ",x")))) ; error: form nested too deeply to compile
(eval (read (+ "`" (nested-text deep-n ",@x")))) ; error: form nested too deeply to compile
(eval (read (+ "`(,(+ 1 2) " (nested-text deep-n ",x") ")"))) ; error: form nested too deeply to compile
(+ 1 2) ; expect: 3
; An unquote beside a deep constant: the constant is quoted whole.
(let v (eval (list 'quasiquote (list (list 'unquote '(+ 1 2)) deep)))
  (list (car v) (is (cadr v) deep))) ; expect: (3 t)
; Shallow templates still expand as before.
(let y 2 `(1 ,y ,@(list 3 4) (5 ,y))) ; expect: (1 2 3 4 (5 2))

; --- coerce to a string recurses on cars, counting ---
(string deep) ; error: nested too deeply
(coerce deep 'string) ; error: nested too deeply
(string (nested 100 "x")) ; expect: "x"
(+ 1 2) ; expect: 3

; --- A million-long list: print, read, iso, copy, hash, string ---
(len (tostring (write (long-list)))) ; expect: 4000001
(len (tostring (disp (long-list)))) ; expect: 2000001
(len (read (tostring (write (long-list))))) ; expect: 1000000
(len (copy (long-list))) ; expect: 1000000
(len (string (long-list))) ; expect: 1000000
(let h (table)
  (= (h (long-list)) 'found)
  (list (h (long-list)) (h (cdr (long-list))))) ; expect: (found nil)
; iso walks the list in Arc, a call or two an element: under --gc-stress,
; where each call collects, a shorter list (as lib_core.arc's).
(let n (if %stress-mode 2000 deep-n)
  (list (iso (coerce (newstring n #\a) 'cons) (coerce (newstring n #\a) 'cons))
        (iso (coerce (newstring n #\a) 'cons) (coerce (+ (newstring (- n 1) #\a) "b") 'cons))))
; expect: (t nil)

; --- On a thread's machine stack, which is small (vm/stack_pool.h) ---
; Well within the depth limits a walk can still reach the end of that
; stack: each level checks it, and the thread gets an Arc error.
(def in-thread (f)
  (with (r nil t0 (msec))
    (let th (thread (= r (on-err details f)))
      (until (or (dead th) (> (- (msec) t0) 60000)) (sleep 0.001)))
    r))
(let r (in-thread (fn () (string (nested 9000 "x"))))
  (if (begins r "stack overflow: C++ recursion too deep") 'overflow r)) ; expect: overflow
(let r (in-thread (fn () (eval (read (+ "(fn " (nested-text 3000 "x") " 1)")))))
  (if (begins r "stack overflow: C++ recursion too deep") 'overflow r)) ; expect: overflow
(in-thread (fn () (len (string (nested 10 "x"))))) ; expect: 1

(= deep nil)
