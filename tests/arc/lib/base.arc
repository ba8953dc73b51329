; tests/arc/lib/base.arc — the few arc.arc helpers the core tests need,
; written with the primitives only (docs/LANGUAGE.md 3.1: the only special forms are
; quote, quasiquote, if, fn, assign). Each definition is skipped when the
; name is already bound, so a later arc.arc keeps its own (fuller) versions.

(if (bound 'list) nil (assign list (fn args args)))

(if (bound 'mac) nil
  (assign mac
    (annotate 'mac
      (fn (name parms . body)
        `(assign ,name (annotate 'mac (fn ,parms ,@body)))))))

(if (bound 'do) nil (mac do body `((fn () ,@body))))

(if (bound 'let) nil (mac let (var val . body) `((fn (,var) ,@body) ,val)))

(if (bound 'def) nil (mac def (name parms . body) `(assign ,name (fn ,parms ,@body))))

(if (bound 'when) nil (mac when (test . body) `(if ,test (do ,@body))))

(if (bound 'and) nil
  (mac and args
    (if args
        (if (cdr args) `(if ,(car args) (and ,@(cdr args))) (car args))
        't)))

(if (bound 'idfn) nil (def idfn (x) x))

(if (bound 'cadr) nil (def cadr (x) (car (cdr x))))

; arc.arc's (get index) is [_ index]: the function ssyntax .a and !a use.
(if (bound 'get) nil (def get (index) (fn (x) (x index))))

; One-list map, enough for these tests.
(if (bound 'map1) nil
  (def map1 (f xs) (if xs (cons (f (car xs)) (map1 f (cdr xs))) nil)))
(if (bound 'map) nil (def map (f xs) (map1 f xs)))

; compose and complement as value-position macros, andf as a function,
; following arc.arc.
(if (bound '%compose-body) nil
  (def %compose-body (fs g)
    (if (cdr fs)
        (list (car fs) (%compose-body (cdr fs) g))
        `(apply ,(if (car fs) (car fs) 'idfn) ,g))))

(if (bound 'compose) nil
  (mac compose args
    (let g (uniq) `(fn ,g ,(%compose-body args g)))))

(if (bound 'complement) nil
  (mac complement (f)
    (let g (uniq) `(fn ,g (no (apply ,f ,g))))))

(if (bound '%andf-all) nil
  (def %andf-all (fns args)
    (if (no fns) t
        (no (cdr fns)) (apply (car fns) args)
        (apply (car fns) args) (%andf-all (cdr fns) args)
        nil)))

(if (bound 'andf) nil (def andf fns (fn args (%andf-all fns args))))

; Under arc_test --gc-stress every call collects, so loops of a million calls
; would take hours there: (%scale n) is then 10000 instead of n. The stress
; runs also get a 1 MiB stack (tests/CMakeLists.txt), so recursion reaches
; the stack limit quickly in both modes.
(if (bound '%stress-mode) nil (assign %stress-mode (%gc-stress)))
(if (bound '%scale) nil (def %scale (n) (if %stress-mode 10000 n)))
