;; browse: Gabriel's "AI-like data base": 100 units with property lists
;; (association lists searched by hand), each unit holding patterns, which
;; are matched against three query patterns with ?x (one element) and *x
;; (any run) variables. Symbols become strings to see a variable's first
;; character. The result is the units' names as numbers, in the shuffled
;; order the database was built in. Run ITERS times.
(define iters 15)

(define (lookup key alist)
  (cond ((null? alist) #f)
        ((eq? (caar alist) key) (car alist))
        (else (lookup key (cdr alist)))))

(define properties '())

(define (prop-get k1 k2)
  (let ((x (lookup k1 properties)))
    (and x
         (let ((y (lookup k2 (cdr x))))
           (and y (cdr y))))))

(define (prop-put k1 k2 val)
  (let ((x (lookup k1 properties)))
    (if x
        (let ((y (lookup k2 (cdr x))))
          (if y
              (set-cdr! y val)
              (set-cdr! x (cons (cons k2 val) (cdr x)))))
        (set! properties (cons (list k1 (cons k2 val)) properties)))))

(define gensym-count 0)
(define (next-symbol)
  (set! gensym-count (+ gensym-count 1))
  (string->symbol (number->string gensym-count)))

(define (attach-tail x y)
  (if (null? x)
      y
      (let loop ((a x))
        (if (pair? (cdr a))
            (loop (cdr a))
            (begin (set-cdr! a y) x)))))

(define (tree-copy x)
  (if (pair? x) (cons (tree-copy (car x)) (tree-copy (cdr x))) x))

;; n units named by fresh symbols, each with up to m dummy properties and
;; npats patterns taken round the circle of ipats
(define (init n m npats ipats)
  (let ((ipats (tree-copy ipats)))
    (let loop ((p ipats))
      (if (pair? (cdr p)) (loop (cdr p)) (set-cdr! p ipats)))
    (let loop ((n n) (i m) (name (next-symbol)) (units '()))
      (if (= n 0)
          units
          (let ((units (cons name units)))
            (do ((k i (- k 1))) ((= k 0))
              (prop-put name (next-symbol) #f))
            (prop-put name 'pattern
                      (do ((k npats (- k 1)) (ps ipats (cdr ps)) (acc '() (cons (car ps) acc)))
                          ((= k 0) acc)))
            (do ((k (- m i) (- k 1))) ((= k 0))
              (prop-put name (next-symbol) #f))
            (loop (- n 1) (if (= i 0) m (- i 1)) (next-symbol) units))))))

(define rand 21)
(define (browse-random)
  (set! rand (remainder (* rand 17) 251))
  rand)

;; l's elements in a pseudo-random order, taken out of l destructively
(define (randomize l)
  (let loop ((l l) (a '()))
    (if (null? l)
        a
        (let ((n (remainder (browse-random) (length l))))
          (if (= n 0)
              (loop (cdr l) (cons (car l) a))
              (let walk ((x l) (k (- n 1)))
                (if (> k 0)
                    (walk (cdr x) (- k 1))
                    (let ((a (cons (cadr x) a)))
                      (set-cdr! x (cddr x))
                      (loop l a)))))))))

(define (my-match pat dat alist)
  (cond ((null? pat) (null? dat))
        ((null? dat) #f)
        ((or (eq? (car pat) '?) (eq? (car pat) (car dat)))
         (my-match (cdr pat) (cdr dat) alist))
        ((eq? (car pat) '*)
         (or (my-match (cdr pat) dat alist)
             (my-match (cdr pat) (cdr dat) alist)
             (my-match pat (cdr dat) alist)))
        ((pair? (car pat))
         (and (pair? (car dat))
              (my-match (car pat) (car dat) alist)
              (my-match (cdr pat) (cdr dat) alist)))
        (else
         (let ((c (string-ref (symbol->string (car pat)) 0)))
           (cond ((char=? c #\?)
                  (let ((it (assq (car pat) alist)))
                    (if it
                        (my-match (cons (cdr it) (cdr pat)) dat alist)
                        (my-match (cdr pat) (cdr dat)
                                  (cons (cons (car pat) (car dat)) alist)))))
                 ((char=? c #\*)
                  (let ((it (assq (car pat) alist)))
                    (if it
                        (my-match (append (cdr it) (cdr pat)) dat alist)
                        ;; bind the variable to ever longer prefixes of dat
                        (let loop ((l '()) (e (cons '() dat)) (d dat))
                          (cond ((null? e) #f)
                                ((my-match (cdr pat) d
                                           (cons (cons (car pat) l) alist))
                                 #t)
                                (else
                                 (loop (attach-tail l (list (if (null? d) '() (car d))))
                                       (cdr e)
                                       (if (null? d) '() (cdr d)))))))))
                 (else #f))))))

(define database
  (randomize (init 100 10 4 '((a a a b b b b a a a a a b b a a a)
                              (a a b b b b a a (a a) (b b))
                              (a a a b (b a) b a b a)))))

(define (investigate units pats)
  (for-each (lambda (u)
              (for-each (lambda (pat)
                          (for-each (lambda (p) (my-match pat p '()))
                                    (prop-get u 'pattern)))
                        pats))
            units))

(define (browse pats)
  (investigate database pats)
  (map (lambda (u) (string->number (symbol->string u))) database))

(define queries '((*a ?b *b ?b a *a a *b *a)
                  (*a *b *b *a (*a) (*b))
                  (? ? * (b a) * ? ?)))

;; the length, first element and sum of the 100 names
(define (summary xs) (list (length xs) (car xs) (apply + xs)))

(define (bench n thunk)
  (let loop ((i n) (r #f))
    (if (= i 0) r (loop (- i 1) (thunk)))))
(define (verify got want)
  (write got) (newline)
  (unless (equal? got want)
    (display "browse: wrong result, expected " (current-error-port))
    (write want (current-error-port)) (newline (current-error-port))
    (exit 1)))

(verify (summary (bench iters (lambda () (browse queries)))) '(100 837 54550))
