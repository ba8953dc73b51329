; tests/arc/fn_names.arc — functions are named as Arc 3.1 names them
; (docs/LANGUAGE.md 1.8): after the nearest binding their fn form sits in,
; fixed when the fn is compiled. Each expected text is what Arc 3.1 prints.

; A def'd function, and a fn it returns: both are named after the def,
; whatever global the returned closure is later assigned to.
(def mk () (fn (x) x))
mk ; expect: #<procedure: mk>
(mk) ; expect: #<procedure: mk>
(= a-made (mk))
a-made ; expect: #<procedure: mk>
(assign other-name mk)
other-name ; expect: #<procedure: mk>

; A fn assigned with = (assign) to a global, and to a lexical variable.
(= assigned (fn (x) x))
assigned ; expect: #<procedure: assigned>
(let z nil (= z (fn () 1)) z) ; expect: #<procedure: z>

; Anywhere inside an assigned value, not only directly.
(= in-list (list (fn () 1)))
(car in-list) ; expect: #<procedure: in-list>

; let, with and withs name their values' fns after the variables.
(let f (fn (x) x) f) ; expect: #<procedure: f>
(def in-let () (let g (fn (x) x) g))
(in-let) ; expect: #<procedure: g>
(with (p (fn (x) x) q 2) p) ; expect: #<procedure: p>
(withs (r1 (fn () 1) r2 r1) r2) ; expect: #<procedure: r1>

; A parameter of a literal fn names its argument, deep inside too.
((fn (x) x) (list (fn () 1))) ; expect: (#<procedure: x>)

; A fn inside another fn: named after the binding around both.
(def outer () (fn () (fn () 1)))
((outer)) ; expect: #<procedure: outer>
(def bracket-in-def () [+ _ 1])
(bracket-in-def) ; expect: #<procedure: bracket-in-def>
(def composed-in-def () car:cdr)
(composed-in-def) ; expect: #<procedure: composed-in-def>

; No binding around it: anonymous.
(fn (x) x) ; expect: #<procedure>
[+ _ 1] ; expect: #<procedure>
(idfn (fn (x) x)) ; expect: #<procedure>
(compose car cdr) ; expect: #<procedure>

; A macro's function is named after the macro.
(mac mm (x) x)
mm ; expect: #(tagged mac #<procedure: mm>)
(rep mm) ; expect: #<procedure: mm>

; memo's closures are named after memo, where their fn is.
(memo car) ; expect: #<procedure: memo>
(defmemo dm (x) x)
dm ; expect: #<procedure: memo>

; afn and rfn name theirs after the variable they assign, inside a def too.
(afn (x) x) ; expect: #<procedure: self>
(rfn foo (x) x) ; expect: #<procedure: foo>
(def afn-in-def () (afn (x) x))
(afn-in-def) ; expect: #<procedure: self>

; A loop's body is inside the assign of its rfn (here each's, whose name is
; a uniq symbol); a closure made in it is named after that, unless a nearer
; binding names it.
(let r nil (each x '(1) (= r (fn () x))) r) ; expect: #<procedure: r>
(let r nil (each x '(1) (push (fn () x) r)) (begins (tostring (write (car r))) "#<procedure: gs"))
; expect: t

; A fn with optionals or destructuring is named only when assigned
; directly: Arc 3.1 names it zz there (a temporary of its compiler), and
; Arcana after the variable (docs/LANGUAGE.md 1.8).
(def opt-params (x (o y)) x)
opt-params ; expect: #<procedure: opt-params>
(= destructuring (fn ((a b)) a))
destructuring ; expect: #<procedure: destructuring>
(def opt-inside () (fn ((o x)) x))
(opt-inside) ; expect: #<procedure>
(let f (fn ((o x)) x) f) ; expect: #<procedure>
(def rest-params args args)
rest-params ; expect: #<procedure: rest-params>

; The name is the one arity errors give.
(def two (a b) a)
(on-err details (fn () (two 1))) ; expect: "two: expects 2 arguments, got 1"
(on-err details (fn () ((mk)))) ; expect: "mk: expects 1 argument, got 0"
