; stdlib/lib.arc — the rest of Arc 3.1's arc.arc, written in Arc over
; core.arc: places and assignment, iteration, printing, streams and files,
; tables, templates, queues, time, persistence and hooks (docs/LANGUAGE.md 5.9, 5.10,
; 5.12-5.19). Loaded after core.arc.
;
; `read` is a builtin and `load` is in prelude.arc.

; --- 5.9 Places and assignment ---------------------------------------------

; A place analyses into (bindings getter setter): bindings is a flat
; (var expr ...) list evaluating the place's subforms once, getter an
; expression reading the current value, setter a (fn (new) ...) form storing
; one. Place macros splice a setter in call position, so the compiler turns
; the call into a let rather than a closure.

(assign setter (table))

(mac defset (name parms . body)
  (w/uniq gexpr
    `(sref setter
           (fn (,gexpr) (let ,parms (cdr ,gexpr) ,@body))
           ',name)))

(defset car (x)
  (w/uniq g (list (list g x) `(car ,g) `(fn (val) (scar ,g val)))))

(defset cdr (x)
  (w/uniq g (list (list g x) `(cdr ,g) `(fn (val) (scdr ,g val)))))

(defset caar (x)
  (w/uniq g (list (list g x) `(caar ,g) `(fn (val) (scar (car ,g) val)))))

(defset cadr (x)
  (w/uniq g (list (list g x) `(cadr ,g) `(fn (val) (scar (cdr ,g) val)))))

(defset cddr (x)
  (w/uniq g (list (list g x) `(cddr ,g) `(fn (val) (scdr (cdr ,g) val)))))

(def metafn (x)
  (or (ssyntax x)
      (and (acons x) (in (car x) 'compose 'complement))))

; (compose f g h) applied to args becomes (f (g (h . args))); nested
; composes are flattened. A complement has no inverse.
(def expand-metafn-call (f args)
  (if (caris f 'compose)
       ((afn (fs)
          (if (caris (car fs) 'compose)
               (self (join (cdr (car fs)) (cdr fs)))
              (cdr fs)
               (list (car fs) (self (cdr fs)))
               (cons (car fs) args)))
        (cdr f))
      (caris f 'complement)
       (err "Can't invert" (cons f args))
       (cons f args)))

(def setforms (place)
  (let expr (macex place)
    (if (isa expr 'sym)
         (if (ssyntax expr)
             (setforms (ssexpand expr))
             (w/uniq (g h)
               (list (list g expr) g `(fn (,h) (assign ,expr ,h)))))
        (atom expr)
         (err "Can't set" place)
        (metafn (car expr))
         (setforms (expand-metafn-call (ssexpand (car expr)) (cdr expr)))
        (caris (car expr) 'get)
         ; ((get k) obj), what .k and !k give in head position: (obj k)
         (setforms (list (cadr expr) (cadr (car expr))))
        (is (car expr) 'no)
         (err "Can't invert" expr)
         (aif (and (isa (car expr) 'sym) (setter (car expr)))
              (it expr)
              (%index-place place expr)))))

; (obj key . rest): read with the whole form, so a default like (h k 0)
; counts when reading; store with (sref obj new key).
(def %index-place (place expr)
  (when (caris (car expr) 'fn)
    (warn "Inverting what looks like a function call" place expr))
  (w/uniq (g h)
    (let argsyms (map1 [uniq] (cdr expr))
      (list (join (list g (car expr)) (mappend list argsyms (cdr expr)))
            `(,g ,@argsyms)
            `(fn (,h) (sref ,g ,h ,(car argsyms)))))))

(def expand= (place val)
  (if (and (isa place 'sym) (no (ssyntax place)))
      `(assign ,place ,val)
      (let (binds getter setter) (setforms place)
        (w/uniq g
          `(atomic (withs (,@binds ,g ,val) (,setter ,g)))))))

(def expand=list (terms)
  (if (no (cddr terms))
      (expand= (car terms) (cadr terms))
      `(do ,@(map1 (fn ((p v)) (expand= p v)) (pair terms)))))

(mac = args (expand=list args))

; (%modify place f extra): the place set to (f getter), read and written in
; one atomic step after the place's subforms and then the extra bindings are
; evaluated.
(def %modify (place f (o extra))
  (let (binds getter setter) (setforms place)
    `(atomic (withs (,@binds ,@extra) (,setter ,(f getter))))))

(mac wipe args `(do ,@(map1 (fn (p) `(= ,p nil)) args)))

(mac set args `(do ,@(map1 (fn (p) `(= ,p t)) args)))

; A plain variable needs no temporaries; ++ and -- are the hot cases.
(mac ++ (place (o n 1))
  (if (and (isa place 'sym) (no (ssyntax place)))
      `(assign ,place (+ ,place ,n))
      (w/uniq gn (%modify place (fn (v) `(+ ,v ,gn)) (list gn n)))))

(mac -- (place (o n 1))
  (if (and (isa place 'sym) (no (ssyntax place)))
      `(assign ,place (- ,place ,n))
      (w/uniq gn (%modify place (fn (v) `(- ,v ,gn)) (list gn n)))))

; zap evaluates the place's subforms, then f, then the extra args.
(mac zap (f place . args)
  (let (binds getter setter) (setforms place)
    (w/uniq gf
      (let gargs (map1 [uniq] args)
        `(atomic (withs (,@binds ,gf ,f ,@(mappend list gargs args))
                   (,setter (,gf ,getter ,@gargs))))))))

(mac push (x place)
  (w/uniq gx
    `(let ,gx ,x ,(%modify place (fn (v) `(cons ,gx ,v))))))

(mac pop (place)
  (let (binds getter setter) (setforms place)
    (w/uniq g
      `(atomic (withs (,@binds ,g ,getter)
                 (,setter (cdr ,g))
                 (car ,g))))))

(mac pushnew (x place . args)
  (w/uniq gx
    `(let ,gx ,x ,(%modify place (fn (v) `(adjoin ,gx ,v ,@args))))))

(mac pull (test place)
  (w/uniq gt
    `(let ,gt ,test ,(%modify place (fn (v) `(rem ,gt ,v))))))

(mac togglemem (x place . args)
  (w/uniq (gx gv)
    `(let ,gx ,x
       ,(%modify place
                 (fn (v) `(let ,gv ,v
                            (if (mem ,gx ,gv) (rem ,gx ,gv) (adjoin ,gx ,gv ,@args))))))))

(mac swap (place1 place2)
  (let ((b1 get1 set1) (b2 get2 set2)) (list (setforms place1) (setforms place2))
    (w/uniq (g1 g2)
      `(atomic (withs (,@b1 ,@b2 ,g1 ,get1 ,g2 ,get2)
                 (,set1 ,g2)
                 (,set2 ,g1))))))

; Every value is read before any is stored.
(mac rotate places
  (let forms (map1 setforms places)
    (let gs (map1 [uniq] places)
      `(atomic (withs (,@(mappend car forms) ,@(mappend list gs (map1 cadr forms)))
                 ,@(map (fn (f g) `(,(f 2) ,g))
                        forms
                        (join (cdr gs) (list (car gs)))))))))

(mac or= (place expr)
  (let (binds getter setter) (setforms place)
    `(atomic (withs ,binds (or ,getter (,setter ,expr))))))

; --- 5.10 Iteration ---------------------------------------------------------

; Every loop is a tail-recursive local function, so it runs in constant stack.

(mac while (test . body)
  (w/uniq gf
    `((rfn ,gf () (when ,test ,@body (,gf))))))

(mac until (test . body)
  `(while (no ,test) ,@body))

(mac whilet (var test . body)
  (w/uniq (gf gv)
    `((rfn ,gf (,gv)
        (when ,gv
          (let ,var ,gv ,@body)
          (,gf ,test)))
      ,test)))

(mac whiler (var expr end . body)
  (w/uniq gend
    `(withs (,var nil ,gend (testify ,end))
       (while (no (,gend (assign ,var ,expr)))
         ,@body))))

(mac loop (start test update . body)
  (w/uniq gf
    `(do ,start
         ((rfn ,gf ()
            (when ,test ,@body ,update (,gf)))))))

; The loop variable is a parameter, fresh each round; the next round starts
; from its value after the body, so assigning it in the body still steers.
; (The test is (if (> v max) nil ...) rather than (when (no (> v max)) ...):
; the same, one instruction shorter.)
(mac for (v init max . body)
  (w/uniq (gf gi gm)
    `(with (,gi ,init ,gm ,max)
       ((rfn ,gf (,v)
          (if (> ,v ,gm) nil (do ,@body (,gf (+ ,v 1)))))
        ,gi))))

(mac down (v init min . body)
  (w/uniq (gf gi gm)
    `(with (,gi ,init ,gm ,min)
       ((rfn ,gf (,v)
          (if (< ,v ,gm) nil (do ,@body (,gf (- ,v 1)))))
        ,gi))))

(mac repeat (n . body)
  (w/uniq i `(for ,i 1 ,n ,@body)))

(mac forlen (var seq . body)
  `(for ,var 0 (- (len ,seq) 1) ,@body))

; Lists are walked inline (the hot case). The expansion tests with acons,
; not type or alist, which are likelier names for a caller's locals (it sees
; them). Tables and strings go through
; %each with the body as a one-parameter function, so a table entry arrives
; as the list (k v), destructured by a (k v) pattern.
(mac each (var seq . body)
  (w/uniq (gs gf gv)
    `(let ,gs ,seq
       (if (or (no ,gs) (acons ,gs))
           ((rfn ,gf (,gv)
              (when (acons ,gv)
                (let ,var (car ,gv) ,@body)
                (,gf (cdr ,gv))))
            ,gs)
           (%each ,gs (fn (,var) ,@body))))))

(def %each (seq f)
  (if (isa seq 'table)
       (maptable (fn (k v) (f (list k v))) seq)
      (isa seq 'string)
       (let n (len seq)
         ((afn (i) (when (< i n) (f (seq i)) (self (+ i 1)))) 0))
       (err "each: can't iterate over" seq)))

(mac on (var seq . body)
  (if (is var 'index)
      (err "on: can't use index as the loop variable")
      (w/uniq (gs gf gv)
        `(let ,gs ,seq
           (if (or (no ,gs) (acons ,gs))
               ((rfn ,gf (,gv index)
                  (when (acons ,gv)
                    (let ,var (car ,gv) ,@body)
                    (,gf (cdr ,gv) (+ index 1))))
                ,gs 0)
               (forlen index ,gs (let ,var (,gs index) ,@body)))))))

(mac drain (expr (o eof nil))
  (w/uniq (geof gf gacc gv)
    `(let ,geof ,eof
       ((rfn ,gf (,gacc)
          (let ,gv ,expr
            (if (is ,gv ,geof) (rev ,gacc) (,gf (cons ,gv ,gacc)))))
        nil))))

(mac evtil (expr test)
  (w/uniq (gt gf gv)
    `(let ,gt ,test
       ((rfn ,gf ()
          (let ,gv ,expr
            (if (,gt ,gv) ,gv (,gf))))))))

(mac noisy-each (n var seq . body)
  (w/uniq (gn gc)
    `(with (,gn ,n ,gc 0)
       (each ,var ,seq
         (when (multiple (assign ,gc (+ ,gc 1)) ,gn)
           (pr ".")
           (flushout))
         ,@body)
       (prn)
       (flushout)
       nil)))

(mac trav (x . fs)
  (w/uniq g
    `((afn (,g)
        (when ,g ,@(map1 (fn (f) `(,f ,g)) fs)))
      ,x)))

(mac accum (name . body)
  (w/uniq (gacc gx)
    `(let ,gacc nil
       (let ,name (fn (,gx) (assign ,gacc (cons ,gx ,gacc)))
         ,@body)
       (rev ,gacc))))

(mac summing (name . body)
  (w/uniq (gc gx)
    `(let ,gc 0
       (let ,name (fn (,gx) (if ,gx (assign ,gc (+ ,gc 1))) ,gx)
         ,@body)
       ,gc)))

; --- 5.12 Printing ----------------------------------------------------------

; pr and prn are builtins (vm/builtins/io.cpp): disp of each argument, in
; one call.

(def prt args
  (each x args (if x (disp x)))
  (car args))

(def prs args
  (prall args "" " "))

(def prall (elts (o init "") (o sep ", "))
  (when elts
    (disp init)
    (disp (car elts))
    (each e (cdr elts) (disp sep) (disp e))
    elts))

; The format is parsed when prf expands: literal text, #expr inlined so it
; runs in the caller's scope, and ~ (plus the character after it) replaced
; by the next of prf's arguments, kept in the variable %prf-args.
(def parse-format (str)
  (let p (instring str)
    (with (parts nil chars nil)
      (let flush (fn ()
                   (when chars
                     (assign parts (cons (coerce (rev chars) 'string) parts)
                             chars nil)))
        (whilet c (readc p)
          (if (and (is c #\#) (peekc p))
               (do (flush) (assign parts (cons (read p) parts)))
              (is c #\~)
               (do (flush) (readc p) (assign parts (cons '(pop %prf-args) parts)))
               (assign chars (cons c chars))))
        (flush)
        (rev parts)))))

(mac prf (str . args)
  `(let %prf-args (list ,@args)
     (pr ,@(parse-format str))))

(def warn (msg . args)
  (disp (+ "Warning: " msg ". "))
  (each x args (write x) (disp " "))
  (disp #\newline))

(def ero args
  (let e (stderr)
    (each x args (write x e) (writec #\space e))
    (writec #\newline e))
  (car args))

(assign bar* " | ")

(mac w/bars exprs
  (w/uniq (gout gsep)
    `(let ,gsep nil
       ,@(map1 (fn (e)
                 `(let ,gout (tostring ,e)
                    (unless (is ,gout "")
                      (if ,gsep (pr bar*) (assign ,gsep t))
                      (pr ,gout))))
               exprs)
       nil)))

; tostring is defined below (5.13), so out captures by hand.
(mac out (expr)
  (let o (outstring)
    (call-w/stdout o (fn () (eval expr)))
    `(pr ,(inside o))))

(mac time (expr)
  (w/uniq gt
    `(let ,gt (msec)
       (do1 ,expr
            (prn "time: " (- (msec) ,gt) " msec.")))))

(mac jtime (expr)
  `(do (time ,expr) 'ok))

(mac time10 (expr)
  `(time (repeat 10 ,expr)))

; --- 5.13 Streams and files -------------------------------------------------

(mac w/infile (var path . body)
  `(let ,var (infile ,path) (after (do ,@body) (close ,var))))

(mac w/outfile (var path . body)
  `(let ,var (outfile ,path) (after (do ,@body) (close ,var))))

(mac w/appendfile (var path . body)
  `(let ,var (outfile ,path 'append) (after (do ,@body) (close ,var))))

; (w/socket var port . body): var a socket listening on port while body runs.
(mac w/socket (var port . body)
  `(let ,var (open-socket ,port) (after (do ,@body) (close ,var))))

(mac w/instring (var str . body)
  `(let ,var (instring ,str) (after (do ,@body) (close ,var))))

; Not closed: the caller may still want (inside var).
(mac w/outstring (var . body)
  `(let ,var (outstring) ,@body))

(mac w/stdout (port . body)
  `(call-w/stdout ,port (fn () ,@body)))

(mac w/stdin (port . body)
  `(call-w/stdin ,port (fn () ,@body)))

(mac tostring body
  (w/uniq g
    `(let ,g (outstring)
       (call-w/stdout ,g (fn () ,@body))
       (inside ,g))))

(mac fromstring (str . body)
  (w/uniq g
    `(w/instring ,g ,str (call-w/stdin ,g (fn () ,@body)))))

(def readstring1 (s (o eof nil))
  (unless (isa s 'string) (err "readstring1: expected a string, got" s))
  (read s eof))

(def readall (src (o eof nil))
  (let p (if (isa src 'string) (instring src) src)
    (drain (read p eof) eof)))

; A fresh cons is the end marker, so a nil in the file doesn't end the list.
(def readfile (path)
  (let eof (list 'eof)
    (w/infile p path (readall p eof))))

(def readfile1 (path)
  (w/infile p path (read p)))

(def %check-input (who port) (%check-input-open who port))

(def readline ((o port (stdin)))
  (%check-input "readline" port)
  (let c (readc port)
    (when c
      (let o (outstring)
        ((afn (c)
           (when (and c (isnt c #\newline))
             (writec c o)
             (self (readc port))))
         c)
        (inside o)))))

(def allchars (port)
  (%check-input "allchars" port)
  (let o (outstring)
    (whilet c (readc port) (writec c o))
    (inside o)))

(def filechars (path)
  (w/infile p path (allchars p)))

; Atomic and durable: the value goes to path.tmp, which reaches the disk
; before it is renamed over path, and the rename before writefile returns
; (%durable-mvfile). A crash leaves the old file or the new one, never a
; torn one; a stale path.tmp is all a crash can leave behind. A write
; that fails (a full disk) raises its error with path as it was, and
; removes the temporary file. A program making
; thousands of files at once (the news site's demo data) may set
; durable-writes* to nil for the while, keeping the atomic rename, and
; sync once at the end.
(= durable-writes* t)

(def writefile (val path)
  (unless (isa path 'string) (err "writefile: expected a path string, got" path))
  (%writefile-with path (fn (o) (write val o)))
  val)

; writefile's write of whatever (f port) prints, for a file of several
; values (the news site's admins file: one name after another).
(def %writefile-with (path f)
  (unless (isa path 'string) (err "%writefile-with: expected a path string, got" path))
  (with (tmp (+ path ".tmp") done nil)
    (after (do (w/outfile o tmp (f o))
               (if durable-writes* (%durable-mvfile tmp path) (mvfile tmp path))
               (set done))
           (unless done (errsafe (rmfile tmp))))))

; --- 5.14 Tables ------------------------------------------------------------

(mac obj args
  (w/uniq g
    `(let ,g (table)
       ,@(map1 (fn ((k v)) `(sref ,g ,v ',k)) (pair args))
       ,g)))

(def %check-table (who h)
  (unless (isa h 'table) (err (+ who ": expected a table, got") h)))

; "" too, which Arc 3.1's maps over without a call, is an empty alist.
(def listtab (al)
  (unless (or (alist al) (is al "")) (err "listtab: expected a list, got" al))
  (let h (table)
    (each (k v) al (sref h v k))
    h))

(def tablist (h)
  (%check-table "tablist" h)
  (let r nil
    (maptable (fn (k v) (assign r (cons (list k v) r))) h)
    r))

; With nothing to store, h comes back unexamined, as from Arc 3.1's:
; (fill-table nil nil) is nil.
(def fill-table (h kvs)
  (if kvs (%check-table "fill-table" h))
  (each (k v) (pair kvs) (sref h v k))
  h)

; The keys (f car) or values (f cadr) of what Arc 3.1's keys and vals,
; which loop with (each (k v) h ...), take besides a table: nil and "", which
; have none (news.arc takes the keys of a missing vote table), and a list
; of (key value) lists.
(def %kv-parts (who h f)
  (if (or (no h) (is h "")) nil
      (and (acons h) (all alist h)) (map1 f h)
      (err (+ who ": expected a table or a list of (key value) lists, got") h)))

(def keys (h)
  (if (isa h 'table)
      (let r nil
        (maptable (fn (k v) (assign r (cons k r))) h)
        r)
      (%kv-parts "keys" h car)))

(def vals (h)
  (if (isa h 'table)
      (let r nil
        (maptable (fn (k v) (assign r (cons v r))) h)
        r)
      (%kv-parts "vals" h cadr)))

(def memtable (ks)
  (let h (table)
    (each k ks (sref h t k))
    h))

(def copy (x . kvs)
  (let new (case (type x)
             sym    x
             cons   (copylist x)
             string (+ "" x)
             table  (let h (table) (maptable (fn (k v) (sref h v k)) x) h)
                    (err "copy: can't copy" x))
    (each (k v) (pair kvs) (sref new v k))
    new))

(def rand-key (h)
  (let ks (if (isa h 'table) (keys h) (%kv-parts "rand-key" h car))
    (if ks (ks (rand (len ks))))))

; eof comes back as is even when it is a list; a nil eof reads as an empty
; alist, so an empty file gives an empty table.
(def read-table ((o port (stdin)) (o eof))
  (let e (read port eof)
    (if (and eof (is e eof)) e
        (alist e)            (listtab e)
                             e)))

(def load-table (path (o eof))
  (w/infile p path (read-table p eof)))

(def load-tables (path)
  (let eof (list 'eof)
    (w/infile p path (drain (read-table p eof) eof))))

(def write-table (h (o port (stdout)))
  (write (tablist h) port))

(def save-table (h path)
  (writefile (tablist h) path))

(def safe-load-table (path)
  (or (errsafe (load-table path)) (table)))

; --- 5.15 Templates ---------------------------------------------------------

; templates*: name -> list of (field default-thunk), included fields first.
(assign templates* (table))

; Later entries for a field replace earlier ones (own fields override
; included ones); each field keeps one entry, in the position of its last.
(def %tem-merge (fields)
  (let seen (table)
    (rev (keep (fn ((k d)) (unless (seen k) (sref seen t k)))
               (rev fields)))))

; "" names no template, so its instances have no fields, as in Arc 3.1,
; where any tem that is not a list is looked up in templates*. A symbol
; naming none, likelier a misspelling, is an error (docs/LANGUAGE.md 5.15).
(def %tem-fields (who tem)
  (if (is tem "") nil
      (and tem (isa tem 'sym))
      (or (templates* tem) (err (+ who ": no template named") tem))
      (alist tem) tem
      (err (+ who ": expected a template name or field list, got") tem)))

(def %tem-thunks (fields)
  (map1 (fn ((k v)) `(list ',k (fn () ,v))) (pair fields)))

(mac deftem (tem . fields)
  (let (name . includes) (if (acons tem) tem (list tem))
    `(sref templates*
           (%tem-merge (join ,@(map1 (fn (i) `(%tem-fields "deftem" ',i)) includes)
                             (list ,@(%tem-thunks fields))))
           ',name)))

(mac addtem (name . fields)
  `(sref templates*
         (%tem-merge (join (%tem-fields "addtem" ',name)
                           (list ,@(%tem-thunks fields))))
         ',name))

; A default that comes out nil leaves its key absent (tables can't hold nil).
(def inst (tem . kvs)
  (let h (table)
    (each (k f) (%tem-fields "inst" tem) (sref h (f) k))
    (each (k v) (pair kvs) (sref h v k))
    h))

(def templatize (tem al)
  (let fields (%tem-fields "templatize" tem)
    (let h (inst fields)
      (each (k v) al
        (when (assoc k fields) (sref h v k)))
      h)))

(def temread (tem (o port (stdin)))
  (templatize tem (read port)))

(def temload (tem path)
  (w/infile p path (temread tem p)))

(def temloadall (tem path)
  (map1 (fn (al) (templatize tem al)) (readfile path)))

; --- 5.16 Queues: (head-list last-cons count) -------------------------------

(def queue () (list nil nil 0))

(def %check-queue (who q)
  (unless (and (acons q) (acons (cddr q)))
    (err (+ who ": expected a queue, got") q)))

(def enq (x q)
  (%check-queue "enq" q)
  (atomic
    (let cell (list x)
      (if (car q) (scdr (cadr q) cell) (scar q cell))
      (scar (cdr q) cell)
      (scar (cddr q) (+ (car (cddr q)) 1))
      (car q))))

(def deq (q)
  (%check-queue "deq" q)
  (atomic
    (let head (car q)
      (when head
        (scar q (cdr head))
        (unless (cdr head) (scar (cdr q) nil))
        (scar (cddr q) (- (car (cddr q)) 1))
        (car head)))))

(def qlen (q) (%check-queue "qlen" q) (car (cddr q)))

; A copy: enq-limit reuses the cell it drops (below), so a list shared
; with the queue could change under its holder.
; (qlist nil) is nil, Arc 3.1's (car nil): news.arc asks for the times of
; an op never timed.
(def qlist (q) (when q (%check-queue "qlist" q) (copylist (car q))))

; A full queue's oldest cell becomes its newest: a queue at its limit
; (the server's optimes*, a value per request) allocates nothing, so it
; leaves no cells for the old generation to collect, where each one,
; living through a thousand requests, would otherwise end.
(def enq-limit (x q (o limit 1000))
  (%check-queue "enq-limit" q)
  (atomic
    (let head (car q)
      (if (or (< (qlen q) limit) (no head))
          (enq x q)
          (if (no (cdr head))
              (do (scar head x) (car q))
              (do (deq q)
                  (scar head x)
                  (scdr head nil)
                  (scdr (cadr q) head)
                  (scar (cdr q) head)
                  (scar (cddr q) (+ (car (cddr q)) 1))
                  (car q)))))))

; --- 5.17 Time and dates ----------------------------------------------------

(def since (t1) (- (seconds) t1))

(def minutes-since (t1) (/ (since t1) 60))

(def hours-since (t1) (/ (since t1) 3600))

(def days-since (t1) (/ (since t1) 86400))

(def date ((o secs (seconds)))
  (let (s m h day month year) (timedate secs)
    (list year month day)))

(def datestring ((o secs (seconds)))
  (let (y m d) (date secs)
    (string y "-" (if (< m 10) "0") m "-" (if (< d 10) "0") d)))

; --- 5.18 Persistence helpers -----------------------------------------------

(def saferead (src) (errsafe (read src)))

; Single-quoted for the shell, so spaces and quotes in the path are safe.
(def %shell-quote (s)
  (string "'" (mappend (fn (c) (if (is c #\') (list "'\\''") (list c)))
                       (coerce s 'cons))
          "'"))

(def ensure-dir (path)
  (unless (dir-exists path)
    (system (string "mkdir -p " (%shell-quote path)))))

(assign savers* (table))

(mac fromdisk (var file init load save)
  (w/uniq (gf gv)
    `(unless (bound ',var)
       (let ,gf ,file
         (sref savers* (fn (,gv) (,save ,gv ,gf)) ',var)
         (assign ,var (if (file-exists ,gf) (,load ,gf) ,init))))))

(mac diskvar (var file)
  `(fromdisk ,var ,file nil readfile1 writefile))

(mac disktable (var file)
  `(fromdisk ,var ,file (table) load-table save-table))

(mac todisk (var (o expr var))
  `(%todisk ',var ,(if (is expr var) var `(assign ,var ,expr))))

(def %todisk (name val)
  (aif (savers* name)
       (it val)
       (err "todisk: no saver registered for" name)))

; --- 5.19 Hooks and misc ----------------------------------------------------

(assign hooks* (table))

(def hook (name . args)
  (aif (hooks* name) (apply it args)))

(mac defhook (name . rest)
  `(sref hooks* (fn ,@rest) ',name))

(mac thread body
  `(new-thread (fn () ,@body)))

(def ratio (test xs)
  (if (empty xs)
      0
      (/ (count test xs) (len xs))))

(def rand-elt (seq)
  (unless (empty seq) (seq (rand (len seq)))))

; --- Arcana: generators, over fibers (vm/fiber.cpp) ---

; (generator f): a function; each call resumes f, which receives a yield
; function, and gives the next value f yields, or nil once f has returned.
(def generator (f)
  (let fb (fiber (fn (_) (f yield) nil))
    (fn () (if (fiber-done fb) nil (resume fb)))))

; --- Arcana: the sampling profiler (measure/profiler.h, docs/LANGUAGE.md 8.4) ---

; (w/profile file body...): body's value. The profiler samples body as it
; runs, and what it took is written to file in pprof's format (go tool
; pprof reads it), also when body raises an error.
(mac w/profile (file . body)
  (w/uniq g
    `(let ,g ,file
       (%profile-start)
       (after (do ,@body)
         (%profile-stop)
         (%profile-write ,g)))))

; (profile-top expr): expr's value, after printing the top 20 functions
; of its profile by self time, as pprof -top would. (Not `prof': a macro
; added to Arc 3.1's takes its name from every program, docs/LANGUAGE.md
; 3.9, and news.arc has a local prof.)
(mac profile-top (expr)
  `(do (%profile-start)
       (after ,expr
         (%profile-stop)
         (pr (%profile-top 20)))))
