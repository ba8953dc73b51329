; Macros (docs/LANGUAGE.md 3.9, 7.6, 4.14 macex/macex1/sig).
(load "lib/base.arc")

; --- a macro is a function tagged mac, stored in a global ---
(assign m-twice-list (annotate 'mac (fn (x) `(list ,x ,x))))
(m-twice-list 5) ; expect: (5 5)
(m-twice-list (+ 1 2)) ; expect: (3 3)
(type m-twice-list) ; expect: mac
(type (rep m-twice-list)) ; expect: fn
((rep m-twice-list) '(+ 1 2)) ; expect: (list (+ 1 2) (+ 1 2))
(mac twice (x) `(do ,x ,x))
(type twice) ; expect: mac
; the expander gets the argument forms unevaluated
(mac quote-it (x) `',x)
(quote-it (+ 1 2)) ; expect: (+ 1 2)
(quote-it undefined-thing) ; expect: undefined-thing
(mac my-list args `(list ,@args))
(my-list 1 2 3) ; expect: (1 2 3)
(my-list) ; expect: nil
(mac swap-args ((a b)) `(list ',b ',a))
(swap-args (x y)) ; expect: (y x)
(mac opt-m (a (o b 'dflt)) `',(list a b))
(opt-m 1) ; expect: (1 dflt)
(opt-m 1 2) ; expect: (1 2)
(assign cnt 0)
(twice (assign cnt (+ cnt 1))) ; expect: 2
cnt ; expect: 2
(def use-twice () (twice (assign cnt (+ cnt 10))))
(use-twice) ; expect: 22
; an error raised by an expander
(mac bad-m () (err "expander failed"))
(bad-m) ; error: expander failed

; --- macex, macex1 ---
; Arc 3.1 shows ((fn () (pr 1) (pr 1))): it prints the host's empty list as
; (); with the single nil object of 1.1 the empty parameter list writes nil.
(macex '(twice (pr 1))) ; expect: ((fn nil (pr 1) (pr 1)))
(macex1 '(twice (pr 1))) ; expect: (do (pr 1) (pr 1))
(mac m-a () '(m-b))
(mac m-b () ''done)
(macex1 '(m-a)) ; expect: (m-b)
(macex '(m-a)) ; expect: (quote done)
(m-a) ; expect: done
(macex 'x) ; expect: x
(macex 5) ; expect: 5
(macex '(car x)) ; expect: (car x)
(macex1 '(car x)) ; expect: (car x)
(macex '(if a b)) ; expect: (if a b)
(macex1 '(fn (x) (twice x))) ; expect: (fn (x) (twice x))
; only the outermost form is expanded
(macex '(car (twice 1))) ; expect: (car (twice 1))
; an expander called with the wrong number of forms errors
(on-err (fn (e) 'caught) (fn () (macex '(m-a (m-a))))) ; expect: caught
(macex '(my-list (m-a))) ; expect: (list (m-a))

; --- lexical variables do not shadow macros (3.9, 7.6 #32) ---
(let when 5 (when 1)) ; expect: nil
((fn (when) (when 1)) car) ; expect: nil
(mac always7 args 7)
(let always7 (fn () 'fn-called) (always7)) ; expect: 7
((fn (always7) (always7 1)) car) ; expect: 7
; but ordinary global functions are shadowed normally
(let car (fn (x) 'mine) (car 1)) ; expect: mine
(def gfun (x) 'global)
((fn (gfun) (gfun 1)) (fn (x) 'local)) ; expect: local
; no hygiene: the expansion sees the use site's variables
(mac capture-x (e) `(let x 10 ,e))
(let x 1 (capture-x x)) ; expect: 10

; --- a macro used as a value is just a tagged object ---
(type (car (list twice))) ; expect: mac
(let f twice (f 1)) ; error: Function call on inappropriate object
(apply twice '(1)) ; error: Function call on inappropriate object

; --- expansion happens when the top-level form is compiled (7.6 #33, #34) ---
(do (mac m1 () 1) (m1)) ; error: Function call on inappropriate object
(m1) ; expect: 1
(def uses-m4 () (m4 1))
(mac m4 (x) `(list ,x 'mac))
(uses-m4) ; error: Function call on inappropriate object
(def uses-m4b () (m4 1))
(uses-m4b) ; expect: (1 mac)
(mac m5 () ''old)
(def uses-m5 () (m5))
(mac m5 () ''new)
(uses-m5) ; expect: old
(m5) ; expect: new
; eval compiles at run time, so it sees a macro defined earlier in the form
(do (eval '(mac m6 () 6)) (eval '(m6))) ; expect: 6
; a macro that defines a macro
(mac defconst (name val) `(mac ,name () ',val))
(defconst k1 42)
(k1) ; expect: 42
(macex '(k1)) ; expect: 42
; an expansion may contain ssyntax and other macros
(mac second-of (x) `(car:cdr ,x))
(second-of '(1 2 3)) ; expect: 2
(mac twice-twice (x) `(twice (twice ,x)))
(assign cnt 0)
(twice-twice (assign cnt (+ cnt 1))) ; expect: 4

; --- sig (4.5) ---
(type sig) ; expect: table
(sig 'no-such-name-ever) ; expect: nil

; --- uniq (4.5) ---
(type (uniq)) ; expect: sym
(is (uniq) (uniq)) ; expect: nil
(mac swap-vals (a b)
  (let g (uniq) `(let ,g ,a (assign ,a ,b) (assign ,b ,g))))
(let p 1 (let q 2 (swap-vals p q) (list p q))) ; expect: (2 1)
; A macro that allocates enough to collect, then fails: the expander names
; the macro in the error's backtrace, and its name (a young symbol here)
; may have moved meanwhile.
(let name (sym (+ "young-mac-" (rand 1000000)))
  (eval `(mac ,name () (repeat 20000 (list 1 2 3)) (err "boom")))
  (on-err details (fn () (eval (list name)))))
; expect: "boom"
