; browse: Gabriel's "AI-like data base": 100 units with property lists
; (association lists searched by hand), each unit holding patterns, which
; are matched against three query patterns with ?x (one element) and *x
; (any run) variables. Symbols become strings to see a variable's first
; character. The result is the units' names as numbers, in the shuffled
; order the database was built in. Run ITERS times.
(= iters 15)

(def lookup (key alist)
  (if (no alist)
      nil
      (is (caar alist) key)
      (car alist)
      (lookup key (cdr alist))))

(= properties* nil)

(def prop-get (k1 k2)
  (aif (lookup k1 properties*)
       (cdr (lookup k2 (cdr it)))))

(def prop-put (k1 k2 val)
  (aif (lookup k1 properties*)
       (let y (lookup k2 (cdr it))
         (if y
             (scdr y val)
             (scdr it (cons (cons k2 val) (cdr it)))))
       (push (list k1 (cons k2 val)) properties*)))

(= gensym* 0)
(def next-symbol () (sym (string (++ gensym*))))

(def attach-tail (x y)
  (if (no x)
      y
      (let a x
        (while (cdr a) (= a (cdr a)))
        (scdr a y)
        x)))

(def tree-copy (x)
  (if (atom x) x (cons (tree-copy (car x)) (tree-copy (cdr x)))))

; n units named by fresh symbols, each with up to m dummy properties and
; npats patterns taken round the circle of ipats
(def init (n m npats ipats)
  (let ipats (tree-copy ipats)
    (let p ipats
      (while (cdr p) (= p (cdr p)))
      (scdr p ipats))
    (with (i m name (next-symbol) units nil)
      (while (> n 0)
        (push name units)
        (repeat i (prop-put name (next-symbol) nil))
        (prop-put name 'pattern
                  (with (ps ipats acc nil)
                    (repeat npats (push (car ps) acc) (= ps (cdr ps)))
                    acc))
        (repeat (- m i) (prop-put name (next-symbol) nil))
        (= n (- n 1)
           i (if (is i 0) m (- i 1))
           name (next-symbol)))
      units)))

(= rand* 21)
(def browse-random () (= rand* (mod (* rand* 17) 251)))

; l's elements in a pseudo-random order, taken out of l destructively
(def randomize (l)
  (let a nil
    (while l
      (let n (mod (browse-random) (len l))
        (if (is n 0)
            (do (push (car l) a)
                (= l (cdr l)))
            (let x l
              (repeat (- n 1) (= x (cdr x)))
              (push (cadr x) a)
              (scdr x (cddr x))))))
    a))

(def my-match (pat dat alist)
  (if (no pat)
      (no dat)
      (no dat)
      nil
      (or (is (car pat) '?) (is (car pat) (car dat)))
      (my-match (cdr pat) (cdr dat) alist)
      (is (car pat) '*)
      (or (my-match (cdr pat) dat alist)
          (my-match (cdr pat) (cdr dat) alist)
          (my-match pat (cdr dat) alist))
      (acons (car pat))
      (and (acons (car dat))
           (my-match (car pat) (car dat) alist)
           (my-match (cdr pat) (cdr dat) alist))
      (let c ((string (car pat)) 0)
        (if (is c #\?)
            (aif (assoc (car pat) alist)
                 (my-match (cons (cdr it) (cdr pat)) dat alist)
                 (my-match (cdr pat) (cdr dat)
                           (cons (cons (car pat) (car dat)) alist)))
            (is c #\*)
            (aif (assoc (car pat) alist)
                 (my-match (join (cdr it) (cdr pat)) dat alist)
                 ; bind the variable to ever longer prefixes of dat
                 (with (l nil e (cons nil dat) d dat)
                   (until (or (no e)
                              (my-match (cdr pat) d
                                        (cons (cons (car pat) l) alist)))
                     (= l (attach-tail l (list (car d)))
                        e (cdr e)
                        d (cdr d)))
                   (if e t nil)))
            nil))))

(= database
   (randomize (init 100 10 4 '((a a a b b b b a a a a a b b a a a)
                               (a a b b b b a a (a a) (b b))
                               (a a a b (b a) b a b a)))))

(def investigate (units pats)
  (each u units
    (each pat pats
      (each p (prop-get u 'pattern)
        (my-match pat p nil)))))

(def browse (pats)
  (investigate database pats)
  (map [int (string _)] database))

(= queries '((*a ?b *b ?b a *a a *b *a)
             (*a *b *b *a (*a) (*b))
             (? ? * (b a) * ? ?)))

; the length, first element and sum of the 100 names
(def summary (xs) (list (len xs) (car xs) (apply + xs)))

(def bench (n thunk)
  (let r nil (repeat n (= r (thunk))) r))
(def verify (got want)
  (prn got)
  (unless (iso got want) (err "browse: wrong result, expected" want)))

(verify (summary (bench iters (fn () (browse queries)))) '(100 837 54550))
