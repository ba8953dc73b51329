; Tables, templates, queues, time, persistence, hooks and misc (docs/LANGUAGE.md
; 5.14-5.19, 7.11). Files go in a fresh directory under /tmp, removed at
; the end. Table order is unspecified, so results are sorted.

(= dd* (string "/tmp/arcana-lib-data-" (seconds) "-" (rand 1000000000)))
(def dpath (name) (string dd* "/" name))
(def sorted-tablist (h) (sort (fn (a b) (< (car a) (car b))) (tablist h)))

; --- 5.14 obj: keys are literal symbols, values are evaluated ---
(sorted-tablist (obj a 1 b (+ 1 1))) ; expect: ((a 1) (b 2))
(obj) ; expect: #hash()
(let a 'zz ((obj a 1) 'a)) ; expect: 1
(len (obj a 1 b nil)) ; expect: 1

; --- listtab, tablist, fill-table, keys, vals, memtable ---
((listtab '((a 1) (b 2))) 'b) ; expect: 2
((listtab '(("k" (1 2)))) "k") ; expect: (1 2)
(listtab nil) ; expect: #hash()
(listtab 5) ; error: listtab: expected a list
(tablist (obj a '(1 2))) ; expect: ((a (1 2)))
(tablist (table)) ; expect: nil
(let h (table) (list (is (fill-table h '(a 1 b 2)) h) (sorted-tablist h))) ; expect: (t ((a 1) (b 2)))
(sort < (keys (obj a 1 b 2 c 3))) ; expect: (a b c)
(sort < (vals (obj a 1 b 2 c 3))) ; expect: (1 2 3)
(keys (table)) ; expect: nil
(keys '(a b)) ; error: keys
(let h (memtable '(a b "c")) (list (h 'a) (h "c") (h 'z) (len h))) ; expect: (t t nil 3)

; --- copy: shallow; then store the k v pairs ---
(copy 'a) ; expect: a
(copy nil) ; expect: nil
(let x (list 1 (list 2)) (let y (copy x) (list y (is x y) (is (cadr x) (cadr y)))))
; expect: ((1 (2)) nil t)
(let s "abc" (let c (copy s) (= (c 0) #\z) (list s c))) ; expect: ("abc" "zbc")
(let h (obj a 1) (let c (copy h 'b 2) (= c!a 5) (list h!a (sorted-tablist c))))
; expect: (1 ((a 5) (b 2)))
(copy (list 1 2) 0 'z) ; expect: (z 2)
(copy 5) ; error: copy
(copy car) ; error: copy

; --- rand-key ---
(rand-key (obj a 1)) ; expect: a
(rand-key (table)) ; expect: nil
(let h (obj a 1 b 2 c 3) (if (h (rand-key h)) t)) ; expect: t

; --- read-table, write-table ---
((read-table (instring "((a 1) (b 2))")) 'b) ; expect: 2
(read-table (instring "") 'eof) ; expect: eof
(read-table (instring "foo")) ; expect: foo
(fromstring "((x 9))" ((read-table) 'x)) ; expect: 9
(tostring (write-table (obj a 1))) ; expect: "((a 1))"
(let o (outstring) (write-table (obj k "v") o) (inside o)) ; expect: "((k \"v\"))"

; --- save-table, load-table, load-tables, safe-load-table ---
(system (string "mkdir -p " dd*))
(save-table (obj a 1 b "x") (dpath "t1"))
(sorted-tablist (load-table (dpath "t1"))) ; expect: ((a 1) (b "x"))
(file-exists (dpath "t1.tmp")) ; expect: nil
(w/outfile o (dpath "t2") (write-table (obj a 1) o) (write-table (obj b 2) o))
(map sorted-tablist (load-tables (dpath "t2"))) ; expect: (((a 1)) ((b 2)))
(load-tables (dpath "t1.tmp")) ; error: t1.tmp
(safe-load-table (dpath "missing")) ; expect: #hash()
((safe-load-table (dpath "t1")) 'a) ; expect: 1

; --- 5.15 templates ---
(isa templates* 'table) ; expect: t
(deftem pt x 0 y (+ 1 1) label nil)
(map car (templates* 'pt)) ; expect: (x y label)
(let p (inst 'pt) (list p!x p!y (len p))) ; expect: (0 2 2)
(let p (inst 'pt 'x 5 'label "a") (list p!x p!y p!label)) ; expect: (5 2 "a")
; defaults are re-evaluated for each instance
(= tem-n 0)
(deftem ctr id (++ tem-n))
(list ((inst 'ctr) 'id) ((inst 'ctr) 'id)) ; expect: (1 2)
; included fields come first; own fields override them
(deftem (pt3 pt) z 9 y 7)
(let p (inst 'pt3) (list p!x p!y p!z)) ; expect: (0 7 9)
(car (map car (templates* 'pt3))) ; expect: x
(deftem (pt4 pt) y nil)
((inst 'pt4) 'y) ; expect: nil
(addtem pt label "none" w 1)
(let p (inst 'pt) (list p!x p!label p!w)) ; expect: (0 "none" 1)
((inst (templates* 'pt) 'x 1) 'x) ; expect: 1
(inst 'no-such-template) ; error: no-such-template
(inst 5) ; error: inst: expected a template name or field list
; templatize keeps declared fields only, over the defaults
(let p (templatize 'pt '((x 5) (bogus 1))) (list p!x p!y p!bogus)) ; expect: (5 2 nil)
; a nil field is not stored, so it comes back as its default (7.11)
(let p (inst 'pt) (= p!label nil) ((templatize 'pt (tablist p)) 'label)) ; expect: "none"
((temread 'pt (instring "((x 3) (y 4))")) 'y) ; expect: 4
(fromstring "((x 8))" ((temread 'pt) 'x)) ; expect: 8
(w/outfile o (dpath "tem") (write '((x 1)) o) (write '((x 2) (y 3)) o))
((temload 'pt (dpath "tem")) 'x) ; expect: 1
(map [list _!x _!y] (temloadall 'pt (dpath "tem"))) ; expect: ((1 2) (2 3))

; --- 5.16 queues: (head-list last-cons count) ---
(= q (queue))
q ; expect: (nil nil 0)
(enq 1 q) ; expect: (1)
(enq 2 q) ; expect: (1 2)
(qlen q) ; expect: 2
(qlist q) ; expect: (1 2)
(deq q) ; expect: 1
(deq q) ; expect: 2
(deq q) ; expect: nil
(qlen q) ; expect: 0
(enq 3 q) ; expect: (3)
(list (qlist q) (qlen q)) ; expect: ((3) 1)
(enq 1 '(a)) ; error: enq: expected a queue
(qlen 5) ; error: qlen: expected a queue
(qlist 5) ; error: qlist: expected a queue
(enq-limit 1 5) ; error: enq-limit: expected a queue
(deq nil) ; error: deq: expected a queue
(let q (queue) (for i 1 5 (enq-limit i q 3)) (list (qlist q) (qlen q))) ; expect: ((3 4 5) 3)
(let q (queue) (for i 1 1005 (enq-limit i q)) (list (qlen q) (car (qlist q)))) ; expect: (1000 6)

; --- 5.17 time and dates ---
(let s (since (- (seconds) 100)) (list (no (< s 100)) (< s 103))) ; expect: (t t)
(minutes-since (- (seconds) 90)) ; expect: 3/2
(hours-since (- (seconds) 5400)) ; expect: 3/2
(days-since (- (seconds) 43200)) ; expect: 1/2
(date 0) ; expect: (1970 1 1)
(date 86400) ; expect: (1970 1 2)
(date 1000000000) ; expect: (2001 9 9)
(len (date)) ; expect: 3
(datestring 0) ; expect: "1970-01-01"
(datestring 1000000000) ; expect: "2001-09-09"
(datestring 1700000000) ; expect: "2023-11-14"
(len (datestring)) ; expect: 10

; --- 5.18 persistence ---
(saferead "(a b) c") ; expect: (a b)
(saferead (instring "x y")) ; expect: x
(saferead "(a b") ; expect: nil
(ensure-dir (dpath "e/f g"))
(if (dir-exists (dpath "e/f g")) t) ; expect: t
(ensure-dir (dpath "e/f g"))
(if (dir-exists (dpath "e/f g")) t) ; expect: t
(isa savers* 'table) ; expect: t
(diskvar dv1 (dpath "dv"))
dv1 ; expect: nil
(isa (savers* 'dv1) 'fn) ; expect: t
(todisk dv1 '(1 2))
dv1 ; expect: (1 2)
(readfile1 (dpath "dv")) ; expect: (1 2)
(diskvar dv2 (dpath "dv"))
dv2 ; expect: (1 2)
; already bound: fromdisk does nothing
(diskvar dv2 (dpath "elsewhere"))
dv2 ; expect: (1 2)
(= dv1 'changed)
(todisk dv1)
(readfile1 (dpath "dv")) ; expect: changed
(disktable dt1 (dpath "dt"))
dt1 ; expect: #hash()
(= dt1!a 1)
(todisk dt1)
(disktable dt2 (dpath "dt"))
(dt2 'a) ; expect: 1
(fromdisk fd1 (dpath "fd") 'init readfile1 writefile)
fd1 ; expect: init
(todisk no-saver-var 1) ; error: todisk

; --- 5.19 hooks and misc ---
(isa hooks* 'table) ; expect: t
(hook 'no-such-hook 1) ; expect: nil
(defhook greet (x) (+ "hi " x))
(hook 'greet "bob") ; expect: "hi bob"
(defhook none () 'ran)
(hook 'none) ; expect: ran
(ratio odd '(1 2 3 4)) ; expect: 1/2
(ratio odd nil) ; expect: 0
(ratio 1 '(1 1 2)) ; expect: 2/3
(rand-elt '(7)) ; expect: 7
(rand-elt "x") ; expect: #\x
(if (mem (rand-elt '(a b c)) '(a b c)) t) ; expect: t
(rand-elt nil) ; expect: nil

(system (string "rm -rf " dd*))
(dir-exists dd*) ; expect: nil
