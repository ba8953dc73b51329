; stdlib/core.arc — the core of Arc's standard library (docs/LANGUAGE.md 5.1-5.8 and
; 5.11): definition forms, list functions, searching and mapping, sorting,
; numbers, characters and strings, binding and control macros, higher-order
; helpers. Written in Arc over the primitives of section 4; loaded after
; prelude.arc and before lib.arc.
;
; Conventions: loops are tail-recursive (the compiler does proper tail
; calls), usually with an accumulator reversed at the end. Helpers whose
; names start with % are internal; the public functions call them rather
; than other public names where it matters for speed. A macro can only be
; used by top-level forms after the one defining it, hence the order below.

; --- 5.1 Definition forms (bootstrapped with assign and annotate) ---

(assign do (annotate 'mac (fn body `((fn () ,@body)))))

(assign %warn-redef
  (fn (name)
    (disp "*** redefining " (stderr))
    (disp name (stderr))
    (disp #\newline (stderr))))

(assign safeset
  (annotate 'mac
    (fn (var val)
      `(do (if (bound ',var) (%warn-redef ',var))
           (assign ,var ,val)))))

(assign def
  (annotate 'mac
    (fn (name parms . body)
      `(do (sref sig ',parms ',name)
           (safeset ,name (fn ,parms ,@body))))))

(assign mac
  (annotate 'mac
    (fn (name parms . body)
      `(do (sref sig ',parms ',name)
           (safeset ,name (annotate 'mac (fn ,parms ,@body)))))))

(sref sig 'body 'do)
(sref sig '(var val) 'safeset)
(sref sig '(name parms . body) 'def)
(sref sig '(name parms . body) 'mac)

; (defs name1 params1 expr1 ...): the expander runs only when defs is used,
; by which time tuples (5.2) exists.
(mac defs args
  `(do ,@(map1 (fn (d) `(def ,(car d) ,(cadr d) ,(car (cddr d))))
               (tuples args 3))))

; --- 5.2 (first part): the list basics the macros below expand with ---

(def list args args)

(def idfn (x) x)

(def caar (x) (car (car x)))
(def cadr (x) (car (cdr x)))
(def cddr (x) (cdr (cdr x)))

; acons is a builtin with a compiler fast path: list loops test it per
; element (vm/builtins/list.cpp).
(def atom (x) (no (is (type x) 'cons)))
(def alist (x) (if (no x) t (is (type x) 'cons)))

; (%rev-onto xs acc), the final step of every accumulate-then-reverse loop
; here, is a builtin (vm/builtins/list.cpp).

; An error naming the function unless xs is a list, for the functions
; whose loops would otherwise fail in a helper with "Can't take car of".
; (Written with if: unless is not defined yet.)
(def %check-list (name xs)
  (if (alist xs) nil (err (+ name ": expected a list, got") xs)))

(def rev (xs)
  (if (alist xs) (%rev-onto xs nil) (err "rev: expected a list, got" xs)))

; The list helpers below loop with a local function (rfn) rather than
; calling themselves through their global: the compiler runs such a
; function as a loop in its caller's frame (compiler/compile.cpp,
; loop_form), with no global looked up and no call per element.
;
; map, keep, trues and range build their list forward: each new cell is
; put after the last one (scdr), so an element is allocated once, where
; accumulating and reversing allocated it twice. But a continuation
; captured while the loop runs (in f, or in a redefined +) would, if
; re-entered, go on putting cells after a tail the finished list already
; continues. So before it puts a cell at the end, the loop compares the
; count of captures (%captures, VM::captures) with the count when it
; began, n; once it moved, the loop leaves the cells it built as they are
; and finishes as its accumulating twin (%map1-acc and the like), from a
; reversed copy of them. Re-entry then finds its cells as they were, and a
; function that captures at every element (catch, point) costs one copy,
; not one per element. %map1 and its twin come before rfn, so they are
; written as rfn expands.
(def %map1-acc (f xs acc)
  (((fn (lp) (assign lp (fn (xs acc)
                          (if xs (lp (cdr xs) (cons (f (car xs)) acc)) (%rev-onto acc nil)))))
    nil)
   xs acc))

; (%forward-acc h c): what the loop with head cell h built, then c's value, reversed.
(def %forward-acc (h c) (cons (car c) (%rev-onto (cdr h) nil)))

(def %map1 (f xs)
  ((fn (h n)
     (((fn (lp) (assign lp (fn (xs tail)
                             (if xs
                                 ((fn (c ys)
                                    (if (is (%captures) n)
                                        (lp ys (scdr tail c))
                                        (%map1-acc f ys (%forward-acc h c))))
                                  (cons (f (car xs)) nil) (cdr xs))
                                 (cdr h)))))
       nil)
      xs h))
   (cons nil nil) (%captures)))

(def map1 (f xs)
  (if (alist xs) (%map1 f xs) (err "map1: expected a list, got" xs)))

; An odd last element is put alone in a list, without f (docs/LANGUAGE.md 7.11 #67).
(def %pair (xs f acc)
  (if (no xs) (%rev-onto acc nil)
      (no (cdr xs)) (%rev-onto acc (cons (cons (car xs) nil) nil))
      (%pair (cddr xs) f (cons (f (car xs) (cadr xs)) acc))))

(def pair (xs (o f list)) (%check-list "pair" xs) (%pair xs f nil))

; --- 5.8 (first part): the conditionals everything else is written with ---

(mac and args
  (if args
      (if (cdr args) `(if ,(car args) (and ,@(cdr args))) (car args))
      't))

(mac when (test . body) `(if ,test (do ,@body)))

(mac unless (test . body) `(if (no ,test) (do ,@body)))

; --- 5.7 Binding macros ---

(mac let (var val . body) `((fn (,var) ,@body) ,val))

; A missing last value binds nil: pair leaves (v) alone and (cadr '(v)) is nil.
(mac with (parms . body)
  (let ps (pair parms)
    `((fn ,(map1 car ps) ,@body) ,@(map1 cadr ps))))

(mac withs (parms . body)
  (if (no parms)
      `(do ,@body)
      `(let ,(car parms) ,(cadr parms) (withs ,(cddr parms) ,@body))))

(def %uniq-bindings (names acc)
  (if names
      (%uniq-bindings (cdr names) (cons '(uniq) (cons (car names) acc)))
      (%rev-onto acc nil)))

(mac w/uniq (names . body)
  (if (acons names)
      `(with ,(%uniq-bindings names nil) ,@body)
      `(let ,names (uniq) ,@body)))

(mac rfn (name parms . body)
  `(let ,name nil (assign ,name (fn ,parms ,@body))))

; (%forward c (lp args...) (twin targs...)): lp's next round with cell c
; put at the end of what the loop built, or the accumulating twin's call
; once a continuation was captured (%map1). h and n are the loop's head
; cell and count of captures, and tail its last parameter. The arguments
; are variables, evaluated before: the count is read after the round's
; last call, a redefined cdr or + included.
(mac %forward (c loop twin)
  `(if (is (%captures) n)
       (,@loop (scdr tail ,c))
       (,@twin (%forward-acc h ,c))))

(mac afn (parms . body)
  `(let self nil (assign self (fn ,parms ,@body))))

; The test value goes through a fresh variable so that var (which may be a
; destructuring pattern) is bound only in the then branch.
(mac iflet (var expr then . rest)
  (w/uniq gv
    `(let ,gv ,expr
       (if ,gv (let ,var ,gv ,then) ,@rest))))

(mac whenlet (var expr . body) `(iflet ,var ,expr (do ,@body)))

(mac aif (expr . body)
  `(let it ,expr
     (if it
         ,@(if (cddr body)
               `(,(car body) (aif ,@(cdr body)))
               body))))

(mac awhen (expr . body) `(let it ,expr (if it (do ,@body))))

(mac aand args
  (if (no args) 't
      (no (cdr args)) (car args)
      `(let it ,(car args) (and it (aand ,@(cdr args))))))

(mac atlet args `(atomic (let ,@args)))
(mac atwith args `(atomic (with ,@args)))
(mac atwiths args `(atomic (withs ,@args)))

(mac w/table (var . body) `(let ,var (table) ,@body ,var))

; --- 5.8 Control and conditionals ---

; Each value is evaluated once: (or a b) is (let g a (if g g b)).
(mac or args
  (if (no args) nil
      (no (cdr args)) (car args)
      (w/uniq g
        `(let ,g ,(car args) (if ,g ,g (or ,@(cdr args)))))))

(mac nor args `(no (or ,@args)))

(mac in (x . choices)
  (w/uniq g
    `(let ,g ,x (or ,@(map1 (fn (c) `(is ,g ,c)) choices)))))

; Keys are compared unevaluated, with is (docs/LANGUAGE.md 7.2 #11); an odd trailing
; form is the default.
(def %case-body (var clauses)
  (if (no clauses) nil
      (no (cdr clauses)) (car clauses)
      `(if (is ,var ',(car clauses))
           ,(cadr clauses)
           ,(%case-body var (cddr clauses)))))

(mac caselet (var expr . clauses)
  `(let ,var ,expr ,(%case-body var clauses)))

(mac case (expr . clauses)
  (w/uniq g `(caselet ,g ,expr ,@clauses)))

(mac check (x test (o alt))
  (w/uniq g
    `(let ,g ,x (if (,test ,g) ,g ,alt))))

(mac conswhen (f x y)
  (w/uniq (gf gx)
    `(with (,gf ,f ,gx ,x)
       (if (,gf ,gx) (cons ,gx ,y) ,y))))

(mac do1 (first . rest)
  (w/uniq g `(let ,g ,first ,@rest ,g)))

(mac after (x . cleanup)
  `(protect (fn () ,x) (fn () ,@cleanup)))

(mac point (name . body)
  (w/uniq (k v)
    `(ccc (fn (,k)
            (let ,name (fn ((o ,v)) (,k ,v))
              ,@body)))))

(mac catch body `(point throw ,@body))

(mac atomic body `(atomic-invoke (fn () ,@body)))

(def %numbered (xs i acc)
  (if xs
      (%numbered (cdr xs) (+ i 1) (cons (car xs) (cons i acc)))
      (%rev-onto acc nil)))

(mac rand-choice exprs
  (if exprs
      `(case (rand ,(len exprs)) ,@(%numbered exprs 0 nil))))

; --- 5.2 Basic list functions ---

; + on lists is the append primitive, and it copies every argument.
(def copylist (xs)
  (if (alist xs) (+ nil xs) (err "copylist: expected a list, got" xs)))

; As in Arc 3.1, any atom ends the list: (assoc k "") is nil.
(def assoc (key al)
  (if (atom al) nil
      (and (is (type (car al)) 'cons) (is (car (car al)) key)) (car al)
      (assoc key (cdr al))))

(def alref (al key) (cadr (assoc key al)))

(def isnt (x y) (no (is x y)))

; Conses structurally; everything else (tables, tagged objects) with is.
(def iso (x y)
  (if (is x y) t
      (and (is (type x) 'cons) (is (type y) 'cons) (iso (car x) (car y)))
        (iso (cdr x) (cdr y))
      nil))

(def caris (x val) (and (is (type x) 'cons) (is (car x) val)))

(def carif (x) (if (is (type x) 'cons) (car x) x))

(def last (xs) (if (cdr xs) (last (cdr xs)) (car xs)))

(def %firstn (n xs acc)
  (if (and xs (> n 0))
      (%firstn (- n 1) (cdr xs) (cons (car xs) acc))
      (%rev-onto acc nil)))

; Taking no elements (or dropping none) never looks at xs, in Arc 3.1 as
; here: (firstn 0 "") is nil and (nthcdr 0 "") is "".
(def firstn (n xs)
  (if (no n)    xs
      (<= n 0)  nil
      (do (%check-list "firstn" xs) (%firstn n xs nil))))

(def %nthcdr (n xs) (if (and xs (> n 0)) (%nthcdr (- n 1) (cdr xs)) xs))

(def nthcdr (n xs)
  (if (no n)    xs
      (<= n 0)  xs
      (do (%check-list "nthcdr" xs) (%nthcdr n xs))))

(def %tuples (xs n acc)
  (if xs
      (%tuples (%nthcdr n xs) n (cons (%firstn n xs nil) acc))
      (%rev-onto acc nil)))

; nil has no tuples whatever the size, as in Arc 3.1, which tests xs first.
(def tuples (xs (o n 2))
  (when xs
    (if (< n 1) (err "tuples: the size must be positive, got" n))
    (%check-list "tuples" xs)
    (%tuples xs n nil)))

; (%substring s start end), cut's string case, is a builtin (vm/builtins/string.cpp).

; A negative end counts from the end. Lists follow the formula
; (firstn (- end start) (nthcdr start seq)), so a negative start just takes
; a longer prefix (docs/LANGUAGE.md 7.11 #66); strings check their bounds.
(def cut (seq start (o end))
  (if (is (type seq) 'string)
      (withs (n (len seq)
              e (if (no end) n (< end 0) (+ n end) end))
        (if (< start 0) (err "cut: negative start" start)
            (> start n) (err (+ "cut: start beyond the string's length (" n "):") start)
            (> e n) (err (+ "cut: end beyond the string's length (" n "):") end)
            (< e start) (err "cut: end before start:" e start))
        (%substring seq start e))
      (alist seq)
      (let e (if (no end) (len seq) (< end 0) (+ (len seq) end) end)
        (%firstn (- e start) (nthcdr start seq) nil))
      (err "cut: expected a string or list, got" seq)))

(def split (seq pos) (list (cut seq 0 pos) (cut seq pos)))

(def %flat (x acc)
  (if (no x) acc
      (is (type x) 'cons) (%flat (cdr x) (%flat (car x) acc))
      (cons x acc)))

(def flat args (%rev-onto (%flat args nil) nil))

(def consif (x y) (if x (cons x y) y))

(def dotted (x)
  (if (is (type x) 'cons)
      (if (is (type (cdr x)) 'cons) (dotted (cdr x)) (if (cdr x) t))))

(def single (x) (and (is (type x) 'cons) (no (cdr x))))

(def %intersperse (x ys acc)
  (if ys
      (%intersperse x (cdr ys) (cons (car ys) (cons x acc)))
      (%rev-onto acc nil)))

(def intersperse (x ys)
  (if ys (%intersperse x (cdr ys) (cons (car ys) nil))))

(def %range-acc (i end acc)
  ((rfn lp (i acc) (if (> i end) (%rev-onto acc nil) (lp (+ i 1) (cons i acc)))) i acc))

(def %range (i end)
  (with (h (cons nil nil) n (%captures))
    ((rfn lp (i tail)
       (if (> i end)
           (cdr h)
           (with (c (cons i nil) j (+ i 1)) (%forward c (lp j) (%range-acc j end)))))
     i h)))

; Characters step through their codes, as inc does.
(def range (start end)
  (if (is (type start) 'char)
      (map1 (fn (i) (coerce i 'char))
            (%range (coerce start 'int) (coerce end 'int)))
      (%range start end)))

(mac n-of (n expr)
  (w/uniq (loop i acc)
    `((rfn ,loop (,i ,acc)
        (if (> ,i 0) (,loop (- ,i 1) (cons ,expr ,acc)) (%rev-onto ,acc nil)))
      ,n nil)))

; tree-subst and treewise loop along the cdrs, so a long list takes
; constant stack; only car nesting recurses.
(def %tree-subst (old new tree acc)
  (if (is tree old) (%rev-onto acc new)
      (is (type tree) 'cons)
        (%tree-subst old new (cdr tree) (cons (tree-subst old new (car tree)) acc))
      (%rev-onto acc tree)))

(def tree-subst (old new tree) (%tree-subst old new tree nil))

; The cars' results are collected (reversed), then combined with f from the
; right by %foldr (5.3): the calls come in the order of the plain recursion.
(def %treewise (f base tree rcars)
  (if (is (type tree) 'cons)
      (%treewise f base (cdr tree) (cons (treewise f base (car tree)) rcars))
      (%foldr f (base tree) rcars)))

(def treewise (f base tree) (%treewise f base tree nil))

(def ontree (f tree)
  (f tree)
  (when (is (type tree) 'cons)
    (ontree f (car tree))
    (ontree f (cdr tree))))

(def reclist (f xs) (and xs (or (f xs) (reclist f (cdr xs)))))

(def %recstring (test i n)
  (if (< i n) (or (test i) (%recstring test (+ i 1) n))))

(def recstring (test s (o start 0)) (%recstring test start (len s)))

; --- 5.3 Searching, filtering, mapping ---

; A plain value becomes a test with is, not iso (docs/LANGUAGE.md 7.2 #9).
(def testify (x) (if (is (type x) 'fn) x (fn (y) (is y x))))

(def %seq-err (name seq) (err (+ name ": expected a list or string, got") seq))

(def %some-list (f xs) (if xs (or (f (car xs)) (%some-list f (cdr xs)))))

(def %some-str (f s i n) (if (< i n) (or (f (s i)) (%some-str f s (+ i 1) n))))

(def some (test seq)
  (let f (testify test)
    (if (alist seq) (%some-list f seq)
        (is (type seq) 'string) (%some-str f seq 0 (len seq))
        (%seq-err "some" seq))))

(def %all-list (f xs) (if xs (if (f (car xs)) (%all-list f (cdr xs))) t))

(def %all-str (f s i n) (if (< i n) (if (f (s i)) (%all-str f s (+ i 1) n)) t))

(def all (test seq)
  (let f (testify test)
    (if (alist seq) (%all-list f seq)
        (is (type seq) 'string) (%all-str f seq 0 (len seq))
        (%seq-err "all" seq))))

(def %mem (f xs) (if xs (if (f (car xs)) xs (%mem f (cdr xs)))))

; (%mem-is x xs), a builtin (vm/builtins/list.cpp): %mem of [is _ x],
; without the closure or a call for each element.
(def mem (test xs)
  (if (alist xs)
      (if (isa test 'fn) (%mem test xs) (%mem-is test xs))
      (err "mem: expected a list, got" xs)))

(def %find-list (f xs)
  (if xs (if (f (car xs)) (car xs) (%find-list f (cdr xs)))))

(def %find-str (f s i n)
  (if (< i n) (if (f (s i)) (s i) (%find-str f s (+ i 1) n))))

(def find (test seq)
  (let f (testify test)
    (if (alist seq) (%find-list f seq)
        (is (type seq) 'string) (%find-str f seq 0 (len seq))
        (%seq-err "find" seq))))

(def %pos-list (f xs i)
  (if xs (if (f (car xs)) i (%pos-list f (cdr xs) (+ i 1)))))

(def %pos-str (f s i n)
  (if (< i n) (if (f (s i)) i (%pos-str f s (+ i 1) n))))

(def pos (test seq (o start 0))
  (let f (testify test)
    (if (alist seq) (%pos-list f (%nthcdr start seq) start)
        (is (type seq) 'string) (%pos-str f seq start (len seq))
        (%seq-err "pos" seq))))

(def %count-list (f xs n)
  (if xs (%count-list f (cdr xs) (if (f (car xs)) (+ n 1) n)) n))

(def %count-str (f s i len n)
  (if (< i len) (%count-str f s (+ i 1) len (if (f (s i)) (+ n 1) n)) n))

; Tables count their entries as (k v) lists, as each would bind them.
(def count (test seq)
  (let f (testify test)
    (if (alist seq) (%count-list f seq 0)
        (is (type seq) 'string) (%count-str f seq 0 (len seq) 0)
        (is (type seq) 'table)
          (let n 0
            (maptable (fn (k v) (if (f (list k v)) (assign n (+ n 1)))) seq)
            n)
        (err "count: expected a list, string or table, got" seq))))

; A list of characters as a new string: sref rejects anything else.
(def %list->string (cs)
  (let s (newstring (len cs))
    ((afn (cs i) (when cs (sref s (car cs) i) (self (cdr cs) (+ i 1)))) cs 0)
    s))

(def %keep-acc (f xs acc)
  ((rfn lp (xs acc)
     (if xs
         (lp (cdr xs) (if (f (car xs)) (cons (car xs) acc) acc))
         (%rev-onto acc nil)))
   xs acc))

(def %keep (f xs)
  (with (h (cons nil nil) n (%captures))
    ((rfn lp (xs tail)
       (if xs
           (if (f (car xs))
               (with (c (cons (car xs) nil) ys (cdr xs)) (%forward c (lp ys) (%keep-acc f ys)))
               (lp (cdr xs) tail))
           (cdr h)))
     xs h)))

(def keep (test seq)
  (let f (testify test)
    (if (alist seq) (%keep f seq)
        (is (type seq) 'string) (%list->string (%keep f (coerce seq 'cons)))
        (%seq-err "keep" seq))))

(def rem (test seq)
  (let f (testify test)
    (if (or (alist seq) (is (type seq) 'string))
        (keep (fn (x) (no (f x))) seq)
        (%seq-err "rem" seq))))

(def %trues-acc (f xs acc)
  ((rfn lp (xs acc)
     (if xs
         (lp (cdr xs) (let v (f (car xs)) (if v (cons v acc) acc)))
         (%rev-onto acc nil)))
   xs acc))

(def %trues (f xs)
  (with (h (cons nil nil) n (%captures))
    ((rfn lp (xs tail)
       (if xs
           (let v (f (car xs))
             (if v
                 (with (c (cons v nil) ys (cdr xs)) (%forward c (lp ys) (%trues-acc f ys)))
                 (lp (cdr xs) tail)))
           (cdr h)))
     xs h)))

(def trues (f xs) (%check-list "trues" xs) (%trues f xs))

(def %retrieve (n f xs acc)
  (if (and xs (> n 0))
      (if (f (car xs))
          (%retrieve (- n 1) f (cdr xs) (cons (car xs) acc))
          (%retrieve n f (cdr xs) acc))
      (%rev-onto acc nil)))

; Retrieving no elements looks at no xs, as in Arc 3.1: (retrieve 0 f "").
(def retrieve (n f xs)
  (if (no n)    (keep f xs)
      (<= n 0)  nil
      (do (%check-list "retrieve" xs) (%retrieve n (testify f) xs nil))))

(def %map-str1 (f s)
  (withs (n (len s) r (newstring n))
    ((afn (i) (when (< i n) (sref r (f (s i)) i) (self (+ i 1)))) 0)
    r))

(def %map2-acc (f xs ys acc)
  ((rfn lp (xs ys acc)
     (if (and xs ys)
         (lp (cdr xs) (cdr ys) (cons (f (car xs) (car ys)) acc))
         (%rev-onto acc nil)))
   xs ys acc))

(def %map2 (f xs ys)
  (with (h (cons nil nil) n (%captures))
    ((rfn lp (xs ys tail)
       (if (and xs ys)
           (withs (c (cons (f (car xs) (car ys)) nil) xs2 (cdr xs) ys2 (cdr ys))
             (%forward c (lp xs2 ys2) (%map2-acc f xs2 ys2)))
           (cdr h)))
     xs ys h)))

(def %some-nil (xs) (if xs (if (car xs) (%some-nil (cdr xs)) t)))

(def %mapn (f seqs acc)
  (if (%some-nil seqs)
      (%rev-onto acc nil)
      (%mapn f (%map1 cdr seqs) (cons (apply f (%map1 car seqs)) acc))))

(def %check-seqs (seqs)
  (when seqs
    (let s (car seqs)
      (unless (or (alist s) (is (type s) 'string))
        (%seq-err "map" s)))
    (%check-seqs (cdr seqs))))

; Strings give a string (of the shortest length): every result of f must
; be a character (docs/LANGUAGE.md 7.4 #20).
(def map (f . seqs)
  (if (no (cdr seqs))
      (let xs (car seqs)
        (if (alist xs) (%map1 f xs)
            (is (type xs) 'string) (%map-str1 f xs)
            (%seq-err "map" xs)))
      (do (%check-seqs seqs)
          (if (%some-list (fn (s) (is (type s) 'string)) seqs)
              (%list->string
                (%mapn f (%map1 (fn (s) (if (is (type s) 'string) (coerce s 'cons) s))
                                seqs)
                       nil))
              (cddr seqs) (%mapn f seqs nil)
              (%map2 f (car seqs) (cadr seqs))))))

; (%revcat ls acc): the elements of the lists ls, reversed onto acc. Not
; (apply join ...), which would pass each list as an argument on the stack.
(def %revcat (ls acc)
  (if (no ls) acc
      (alist (car ls)) (%revcat (cdr ls) (%rev-onto (car ls) acc))
      (err "mappend: expected f to give lists, got" (car ls))))

(def mappend (f . seqs)
  (%rev-onto (%revcat (apply map f seqs) nil) nil))

; Structural equality, as table keys (docs/LANGUAGE.md 7.2 #10).
(def %dedup (xs seen acc)
  (if xs
      (let x (car xs)
        (if (seen x)
            (%dedup (cdr xs) seen acc)
            (do (sref seen t x)
                (%dedup (cdr xs) seen (cons x acc)))))
      (%rev-onto acc nil)))

; dedup and adjoin take strings too, as Arc 3.1's do, which iterate with
; each and some: (dedup "abca") is (#\a #\b #\c), (adjoin nil "") (nil . "").
(def dedup (xs)
  (if (isa xs 'string)
      (%dedup (coerce xs 'cons) (table) nil)
      (do (%check-list "dedup" xs) (%dedup xs (table) nil))))

(def adjoin (x xs (o test iso))
  (unless (or (alist xs) (isa xs 'string)) (%seq-err "adjoin" xs))
  (if (some (fn (y) (test x y)) xs) xs (cons x xs)))

; With +, some and rem, as Arc 3.1's, so strings work: (union is "" nil) is
; "", (union is "ab" "bc") "abc".
(def union (f xs ys)
  (+ xs (rem (fn (y) (some (fn (x) (f x y)) xs)) ys)))

(def before (x y seq (o i 0))
  (let xp (pos x seq i)
    (and xp (let yp (pos y seq i) (or (no yp) (< xp yp))))))

(def %mismatch-list (xs ys i)
  (if xs
      (if (and ys (is (car xs) (car ys)))
          (%mismatch-list (cdr xs) (cdr ys) (+ i 1))
          i)))

(def %mismatch-str (s1 s2 i n1 n2)
  (if (< i n1)
      (if (and (< i n2) (is (s1 i) (s2 i)))
          (%mismatch-str s1 s2 (+ i 1) n1 n2)
          i)))

; Positions are those of s1; a shorter s2 differs where it ends.
(def mismatch (s1 s2)
  (if (and (is (type s1) 'string) (is (type s2) 'string))
      (%mismatch-str s1 s2 0 (len s1) (len s2))
      (%mismatch-list (if (is (type s1) 'string) (coerce s1 'cons) s1)
                      (if (is (type s2) 'string) (coerce s2 'cons) s2)
                      0)))

(def %counts (xs c)
  (if xs
      (do (sref c (+ (c (car xs) 0) 1) (car xs))
          (%counts (cdr xs) c))
      c))

(def counts (seq (o c (table))) (%check-list "counts" seq) (%counts seq c))

; Ties go to the element seen first in seq.
(def %commonest (xs c winner n)
  (if xs
      (let k (c (car xs))
        (if (> k n)
            (%commonest (cdr xs) c (car xs) k)
            (%commonest (cdr xs) c winner n)))
      (list winner n)))

(def commonest (seq)
  (%check-list "commonest" seq)
  (%commonest seq (counts seq) nil 0))

(def %foldl (f acc xs)
  ((rfn lp (acc xs) (if xs (lp (f acc (car xs)) (cdr xs)) acc)) acc xs))

; Lists of length 0-2 are just (apply f xs): (reduce + nil) is (+).
(def reduce (f xs)
  (if (cddr xs) (%foldl f (car xs) (cdr xs)) (apply f xs)))

(def %foldr (f acc rxs)
  ((rfn lp (acc rxs) (if rxs (lp (f (car rxs) acc) (cdr rxs)) acc)) acc rxs))

; Folds from the right, over the list reversed, so constant stack.
(def rreduce (f xs)
  (if (cddr xs)
      (let r (%rev-onto xs nil)
        (%foldr f (f (cadr r) (car r)) (cddr r)))
      (apply f xs)))

(def %sum (f xs n) ((rfn lp (xs n) (if xs (lp (cdr xs) (+ n (f (car xs)))) n)) xs n))

(def sum (f xs)
  (if (alist xs) (%sum f xs 0)
      (is (type xs) 'string) (%sum f (coerce xs 'cons) 0)
      (%seq-err "sum" xs)))

(def %best (f xs wins)
  ((rfn lp (xs wins) (if xs (lp (cdr xs) (if (f (car xs) wins) (car xs) wins)) wins)) xs wins))

(def best (f seq) (if seq (%best f (cdr seq) (car seq))))

(def %max (xs m) (if xs (%max (cdr xs) (if (> (car xs) m) (car xs) m)) m))
(def %min (xs m) (if xs (%min (cdr xs) (if (< (car xs) m) (car xs) m)) m))

(def max args (if args (%max (cdr args) (car args))))
(def min args (if args (%min (cdr args) (car args))))

(def %most (f xs wins top)
  (if xs
      (let score (f (car xs))
        (if (> score top)
            (%most f (cdr xs) (car xs) score)
            (%most f (cdr xs) wins top)))
      wins))

(def most (f seq) (if seq (%most f (cdr seq) (car seq) (f (car seq)))))

(def bestn (n f seq) (firstn n (sort f seq)))

; --- 5.4 Sorting ---

; Merging relinks the cells of x and y. %merge-x continues after tail, a
; cell of x whose cdr is still x; %merge-y after a cell of y. So a cdr is
; set only where the merged list switches from one list to the other.
(def %merge-x (less? tail x y)
  (if (no x) (scdr tail y)
      (no y) nil
      (less? (car y) (car x)) (do (scdr tail y) (%merge-y less? y x (cdr y)))
      (%merge-x less? x (cdr x) y)))

(def %merge-y (less? tail x y)
  (if (no y) (scdr tail x)
      (no x) nil
      (less? (car y) (car x)) (%merge-y less? y x (cdr y))
      (do (scdr tail x) (%merge-x less? x (cdr x) y))))

; Stable: on a tie (neither less) the element of x comes first.
(def merge (less? x y)
  (if (no x) y
      (no y) x
      (less? (car y) (car x)) (do (%merge-y less? y x (cdr y)) y)
      (do (%merge-x less? x (cdr x) y) x)))

; Sorts the n-element list xs: cuts it in two, sorts each half, merges.
(def %msort (less? xs n)
  (if (< n 2) xs
      (withs (h (trunc (/ n 2))
              mid (%nthcdr (- h 1) xs)
              right (cdr mid))
        (scdr mid nil)
        (merge less? (%msort less? xs h) (%msort less? right (- n h))))))

(def mergesort (less? lst) (%msort less? lst (len lst)))

(def sort (test seq)
  (if (alist seq) (%msort test (copylist seq) (len seq))
      (is (type seq) 'string) (%list->string (mergesort test (coerce seq 'cons)))
      (%seq-err "sort" seq)))

(def %insert-sorted (test elt xs acc)
  (if (or (no xs) (test elt (car xs)))
      (%rev-onto acc (cons elt xs))
      (%insert-sorted test elt (cdr xs) (cons (car xs) acc))))

(def insert-sorted (test elt seq)
  (%check-list "insert-sorted" seq)
  (%insert-sorted test elt seq nil))

(mac insort (test elt place)
  (w/uniq g `(zap (fn (,g) (insert-sorted ,test ,elt ,g)) ,place)))

(def reinsert-sorted (test elt seq)
  (%check-list "reinsert-sorted" seq)
  (%insert-sorted test elt (%keep (fn (x) (no (is x elt))) seq) nil))

(mac insortnew (test elt place)
  (w/uniq g `(zap (fn (,g) (reinsert-sorted ,test ,elt ,g)) ,place)))

(def compare (comparer scorer)
  (fn (x y) (comparer (scorer x) (scorer y))))

(def med (ns (o test >)) ((sort test ns) (round (/ (len ns) 2))))

(def median (ns) ((sort > ns) (trunc (/ (len ns) 2))))

; --- 5.5 Predicates and numbers ---

; (isa x y), (is (type x) y), is a builtin (vm/builtins/type.cpp).

(def empty (seq)
  (if (no seq) t
      (in (type seq) 'string 'table) (is (len seq) 0)
      nil))

(def number (n) (in (type n) 'int 'num))

(def positive (x) (and (number x) (> x 0)))

(def even (n) (is (mod n 2) 0))

(def odd (n) (no (is (mod n 2) 0)))

(def multiple (x y) (is (mod x y) 0))

; <= and >= are builtins (vm/builtins/list.cpp) with opcode fast paths,
; defined as Arc 3.1's arc.arc defines them: not greater, not less.

(def abs (n) (if (< n 0) (- n) n))

; Both round from the exact truncation: ties go to the even neighbour in
; round, away from zero in roundup (docs/LANGUAGE.md 7.3 #14).
(def round (n)
  (withs (base (trunc n)
          r (abs (- n base)))
    (if (or (> r 1/2) (and (no (< r 1/2)) (odd base)))
        (if (> n 0) (+ base 1) (- base 1))
        base)))

(def roundup (n)
  (withs (base (trunc n)
          r (abs (- n base)))
    (if (< r 1/2) base
        (> n 0) (+ base 1)
        (- base 1))))

(def nearest (n quantum) (* (roundup (/ n quantum)) quantum))

(def avg (ns) (%check-list "avg" ns) (/ (%sum idfn ns 0) (len ns)))

(def inc (x (o n 1))
  (if (is (type x) 'char)
      (coerce (+ (coerce x 'int) n) 'char)
      (+ x n)))

(def len< (x n) (< (len x) n))

(def len> (x n) (> (len x) n))

(def atend (i s) (> i (- (len s) 2)))

; --- 5.6 Characters, strings, symbols ---

; (string . args) is a builtin (vm/builtins/number.cpp): (+ "" . args).

(def sym (x) (coerce x 'sym))

(def int (x (o base 10)) (coerce x 'int base))

(def whitec (c) (in c #\space #\newline #\tab #\return))
; whitec as the library defined it: tokens's default, split by %tokens
; while whitec is still this (stdlib/strings.arc).
(assign %whitec whitec)

(def nonwhite (c) (no (whitec c)))

(def letter (c) (or (<= #\a c #\z) (<= #\A c #\Z)))

(def digit (c) (<= #\0 c #\9))

(def alphadig (c) (or (letter c) (digit c)))

(def punc (c) (in c #\. #\, #\; #\: #\! #\?))

; Case maps of ASCII and Latin-1 (docs/LANGUAGE.md 7.4 #23): A-Z and À-Þ (except ×)
; are the upper-case letters, 32 codes below their lower-case ones.
(def %downc (c)
  (let n (coerce c 'int)
    (if (or (< 64 n 91) (and (< 191 n 223) (no (is n 215))))
        (coerce (+ n 32) 'char)
        c)))

(def %upc (c)
  (let n (coerce c 'int)
    (if (or (< 96 n 123) (and (< 223 n 255) (no (is n 247))))
        (coerce (- n 32) 'char)
        c)))

(def %recase (name f x)
  (case (type x)
    string (%map-str1 f x)
    char (f x)
    ; nil is a symbol whose string is "", so it recases to (sym ""), as in
    ; Arc 3.1.
    sym (sym (%map-str1 f (coerce x 'string)))
    (err (+ name ": expected a string, character or symbol, got") x)))

(def downcase (x) (%recase "downcase" %downc x))

(def upcase (x) (%recase "upcase" %upc x))

(def ellipsize (str (o limit 80))
  (if (<= (len str) limit) str (+ (cut str 0 limit) "...")))

; rand-string is a builtin (io/crypto.cpp): characters drawn from
; the kernel's random source, as Arc 3.1's read /dev/urandom.

; --- 5.11 Higher-order helpers ---

; In operator position the compiler rewrites compose and complement itself;
; these macros give their meaning as values.
(def %compose-body (fs g)
  (if (cdr fs)
      (list (car fs) (%compose-body (cdr fs) g))
      `(apply ,(if fs (car fs) 'idfn) ,g)))

(mac compose fs
  (w/uniq g `(fn ,g ,(%compose-body fs g))))

(mac complement (f)
  (w/uniq g `(fn ,g (no (apply ,f ,g)))))

(def %orf (fns args)
  (and fns (or (apply (car fns) args) (%orf (cdr fns) args))))

(def orf fns (fn args (%orf fns args)))

(def %andf (fns args)
  (if (no fns) t
      (no (cdr fns)) (apply (car fns) args)
      (and (apply (car fns) args) (%andf (cdr fns) args))))

(def andf fns (fn args (%andf fns args)))

(def only (f) (fn args (if (car args) (apply f args))))

(def get (index) (fn (x) (x index)))

; Tables cannot hold nil, so a nil result is stored as a private marker.
(def memo (f)
  (withs (cache (table) nilv (list 'nil))
    (fn args
      (let v (cache args)
        (if (no v)
            (let r (apply f args)
              (sref cache (if r r nilv) args)
              r)
            (is v nilv) nil
            v)))))

(mac defmemo (name parms . body)
  `(do (sref sig ',parms ',name)
       (safeset ,name (memo (fn ,parms ,@body)))))

(def cache (timef valf)
  (with (val nil made nil)
    (fn ()
      ; As Arc 3.1's: a nil value is never kept, and a value as old as the
      ; limit is stale, so a limit of 0 recomputes at every call.
      (unless (and val (< (- (seconds) made) (timef)))
        (assign val (valf) made (seconds)))
      val)))

(mac defcache (name lasts . body)
  `(safeset ,name (cache (fn () ,lasts) (fn () ,@body))))
