; stdlib/pprint.arc — the pretty-printer of docs/LANGUAGE.md 6.2 (Arc 3.1's
; pprint.arc): ppr lays code out with body operators indented by two and
; call arguments aligned under the first. prompt.arc uses it to show code.
;
; A form whose one-line text is shorter than oneline* is printed on one
; line; otherwise it is broken according to its operator. Quote forms print
; as 'x (and quasiquote, unquote and unquote-splicing as `x ,x ,@x), both in
; one-line text and when broken. The one-line text is measured as write
; writes it, (quote x) and all, as Arc 3.1's pprint.arc measures it, so that
; the lines break in the same places (docs/LANGUAGE.md 6.2).

; Operator -> how many of its arguments stay on the first line (the
; header); the rest form a body, one per line, indented by two. Counts
; follow each operator's parameter list in Arc 3.1 (docs/LANGUAGE.md 5).
(= bodops* (fill-table (table)
  '(def 2  mac 2  defmemo 2  defs 0  rfn 2  fn 1  afn 1
    let 2  with 1  withs 1  atlet 2  atwith 1  atwiths 1  w/uniq 1
    whenlet 2  when 1  unless 1  awhen 1  after 1  do 0  point 1
    catch 0  atomic 0  while 1  until 1  whilet 2  whiler 3  loop 3
    for 3  down 3  repeat 1  forlen 2  each 2  on 2  noisy-each 3
    accum 1  summing 1  w/table 1  tostring 0  fromstring 1
    w/infile 2  w/outfile 2  w/appendfile 2  w/instring 2  w/outstring 1
    w/socket 2  w/stdout 1  w/stdin 1  thread 0  defhook 1
    tag 1  whitepage 0  form 1  aform 1  aformh 1  w/link 1
    textarea 3  defop 2  defopr 2  defopl 2  defopa 2)))

; Forms whose one-line text is shorter than this stay on one line.
(= oneline* 35)

; The prefix a (quote x)-style form prints with, or nil for other forms.
(def %ppr-prefix (x)
  (and (acons x) (acons (cdr x)) (no (cddr x))
       (case (car x)
         quote            "'"
         quasiquote       "`"
         unquote          ","
         unquote-splicing ",@")))

; Writes x on one line as write would, except for the quote prefixes.
(def %ppr-flat (x)
  (if (atom x)
      (write x)
      (%ppr-prefix x)
      (do (disp (%ppr-prefix x))
          (%ppr-flat (cadr x)))
      (do (disp "(")
          (%ppr-flat (car x))
          ((afn (xs)
             (if (acons xs)
                 (do (disp " ") (%ppr-flat (car xs)) (self (cdr xs)))
                 xs
                 (do (disp " . ") (write xs))))
           (cdr x))
          (disp ")"))))

; (ppr expr (o col 0) (o noindent nil)): pretty-print expr as if starting
; at column col, indenting the first line there unless noindent (when the
; caller has already printed up to col). Prints no final newline. Returns t
; if expr was broken over several lines, else nil.
(def ppr (expr (o col 0) (o noindent nil))
  (unless noindent (sp col))
  (if (or (atom expr) (dotted expr))
      (do (%ppr-flat expr) nil)
      (%ppr-prefix expr)
      (let prefix (%ppr-prefix expr)
        (disp prefix)
        (ppr (cadr expr) (+ col (len prefix)) t))
      (no (%ppr-long expr))
      (do (%ppr-flat expr) nil)
      (%ppr-progn-form expr)
      (ppr-progn expr col noindent)
      (ppr-call expr col noindent)))

; t if x does not fit on one line as Arc 3.1 measures it: a list whose
; written text, with (quote x) for 'x, is at least oneline* long, or a
; quoted such list. This is what Arc 3.1's ppr returns, which decides
; whether the arguments after a call's first go on lines of their own.
(def %ppr-long (x)
  (and (acons x) (no (dotted x))
       (if (and (is (car x) 'quote) (%ppr-prefix x))
           (%ppr-long (cadr x))
           (>= (len (tostring (write x))) oneline*))))

; t if expr is a body operator's form with all its header arguments; one
; with fewer (say (let x)) is laid out as a call.
(def %ppr-progn-form (expr)
  (let n (bodops* (car expr))
    (and n (acons (nthcdr n expr)))))

; (ppr-progn expr col noindent): lay out a body operator's form starting
; at the current position, which is column col: the operator and its header
; arguments on the first line, then each body form on its own line at col
; plus two. Returns t: the form is broken (unless it has no body and its
; header fits).
(def ppr-progn (expr col noindent)
  (lpar)
  (withs (n     (bodops* (car expr))
          head  (tostring (%ppr-spaced (firstn n expr)))
          body  (nthcdr (+ n 1) expr)
          broke (do (unless (is n 0) (disp head) (sp))
                    ; The last header argument may itself need breaking.
                    (ppr (expr n) (+ col (len head) (if (is n 0) 1 2)) t)))
    (each e body
      (prn)
      (ppr e (+ col 2)))
    (rpar)
    (if body t broke)))

; (ppr-call expr col noindent): lay out a call starting at the current
; position (column col): the first argument after the operator, the others
; under it, one per line, unless all of them are atoms and the first
; argument fit on one line (%ppr-long: laid out without a break is not
; enough). Returns t if it broke a line.
(def ppr-call (expr col noindent)
  (lpar)
  (let op (tostring (%ppr-flat (car expr)))
    (disp op)
    (if (cdr expr)
        (let argcol (+ col (len op) 2)
          (sp)
          (let broke (ppr (cadr expr) argcol t)
            (or (pprest (cddr expr) argcol (no (%ppr-long (cadr expr)))) broke)))
        (do (rpar) nil))))

; t if x stays on its operator's line among the rest of a call's arguments:
; an atom or a quoted atom. Only quote, as in Arc 3.1, for which `x is the
; call (quasiquote x).
(def %ppr-atomic (x)
  (or (atom x) (and (is (car x) 'quote) (%ppr-prefix x) (atom (cadr x)))))

; (pprest exprs col (o oneline t)): print the remaining arguments of a call
; and its closing parenthesis: after a space each, if oneline and all of
; them are atoms; else each on a new line at column col. Returns t if it
; broke a line.
(def pprest (exprs col (o oneline t))
  (if (and oneline (all %ppr-atomic exprs))
      (do (each e exprs (sp) (%ppr-flat e))
          (rpar)
          nil)
      (do (each e exprs (prn) (ppr e col))
          (rpar)
          (if exprs t))))

; (write-spaced xs): write the elements of xs separated by single spaces.
(def write-spaced (xs)
  (when xs
    (write (car xs))
    (each x (cdr xs) (sp) (write x))))

; write-spaced for ppr's headers, with quote prefixes.
(def %ppr-spaced (xs)
  (when xs
    (%ppr-flat (car xs))
    (each x (cdr xs) (sp) (%ppr-flat x))))

; (sp (o n 1)): print n spaces.
(def sp ((o n 1))
  (if (> n 0) (disp (newstring n #\space))))

; (lpar), (rpar): print ( and ).
(def lpar () (disp "("))
(def rpar () (disp ")"))
