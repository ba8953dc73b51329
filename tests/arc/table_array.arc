; Tables whose keys are small non-negative fixnums: they live in the
; table's array part (vm/table.cpp) while dense enough, in its hash part
; otherwise, and a key moves between the two as the table is rebuilt. None
; of that may show: docs/LANGUAGE.md 1.7, 3.7, 3.8. Iteration order is
; unspecified, so keys are sorted before they are compared.

(def sorted-keys (h) (sort < (keys h)))
(def sorted-tablist (h) (sort (fn (a b) (< (car a) (car b))) (tablist h)))
; the table's contents as a list of its values for keys lo..hi (nil where absent)
(def span (h lo hi) (accum a (for i lo hi (a (h i)))))

; --- filling 0..n-1 in order, then reading every key back ---
(= a (table))
(for i 0 999 (= (a i) (* i i)))
(len a) ; expect: 1000
(a 0) ; expect: 0
(a 999) ; expect: 998001
(a 1000) ; expect: nil
(a -1) ; expect: nil
(a 1000 'dflt) ; expect: dflt
(let ok t (for i 0 999 (unless (is (a i) (* i i)) (= ok i))) ok) ; expect: t
(len (keys a)) ; expect: 1000
(apply + (keys a)) ; expect: 499500
(apply + (vals a)) ; expect: 332833500

; --- filling downwards (the keys reach the array part only late) ---
(= d (table))
(down i 499 0 (= (d i) i))
(len d) ; expect: 500
(let ok t (for i 0 499 (unless (is (d i) i) (= ok i))) ok) ; expect: t
(apply + (keys d)) ; expect: 124750

; --- storing nil deletes, in the array part as in the hash part ---
(= (a 5) nil)
(a 5) ; expect: nil
(a 5 'gone) ; expect: gone
(len a) ; expect: 999
(mem 5 (keys a)) ; expect: nil
(= (a 5) nil)
(len a) ; expect: 999
(= (a 5) 'back)
(a 5) ; expect: back
(len a) ; expect: 1000
; delete most of them: the table stays right whether or not the array shrinks
(for i 0 999 (unless (is (mod i 100) 0) (= (a i) nil)))
(len a) ; expect: 10
(sorted-keys a) ; expect: (0 100 200 300 400 500 600 700 800 900)
(a 300) ; expect: 90000
(a 301) ; expect: nil
; new keys of other kinds make it rebuild, moving the sparse survivors
(for i 0 49 (= (a (string "s" i)) i))
(len a) ; expect: 60
(a "s49") ; expect: 49
(a 900) ; expect: 810000
(sort < (keep number (keys a))) ; expect: (0 100 200 300 400 500 600 700 800 900)
(for i 0 999 (= (a i) nil))
(len a) ; expect: 50
(a 0) ; expect: nil

; --- keys crossing the dense/sparse boundary ---
; a sparse start: squares stay in the hash part
(= sq (table))
(for i 0 99 (= (sq (* i i)) i))
(len sq) ; expect: 100
(sq 9801) ; expect: 99
(sq 50) ; expect: nil
; then filling the gaps below 200 makes those dense
(for i 0 199 (unless (sq i) (= (sq i) 'f)))
(len sq) ; expect: 285
(sq 196) ; expect: 14
(sq 197) ; expect: f
(sq 9801) ; expect: 99
(sq 9800) ; expect: nil
(count [is _ 'f] (vals sq)) ; expect: 185
; a key just past the array part, and one far past it
(= b (table))
(for i 0 15 (= (b i) i))
(= (b 16) 'next (b 1000000) 'far (b (expt 2 40)) 'huge)
(list (b 15) (b 16) (b 17) (b 1000000) (b (expt 2 40))) ; expect: (15 next nil far huge)
(len b) ; expect: 19

; --- keys that are not fixnums 0..n stay distinct ---
(= k (table))
(for i 0 9 (= (k i) 'int))
(= (k 1.0) 'float (k -1) 'neg (k (expt 2 70)) 'big (k 1/2) 'half (k #\1) 'char (k "1") 'str)
(list (k 1) (k 1.0) (k -1) (k (expt 2 70)) (k 1/2) (k #\1) (k "1")) ; expect: (int float neg big half char str)
(len k) ; expect: 16
(k 0.0) ; expect: nil
(k (- (expt 2 70) (expt 2 70) -1)) ; expect: int
(= (k 1) nil)
(list (k 1) (k 1.0)) ; expect: (nil float)
(= (k 1.0) nil)
(list (k 1) (k 1.0) (len k)) ; expect: (nil nil 14)
; as in Arc 3.1: 1 and 1.0 are different keys
(let h (table) (= (h 1) 'a) (h 1.0)) ; expect: nil
(let h (table) (= (h 1.0) 'a) (h 1)) ; expect: nil

; --- iteration while the table grows ---
; maptable walks the keys as they were when it started; the function may store
(= g (table))
(for i 0 9 (= (g i) i))
(maptable (fn (key v) (= (g (+ key 10)) v)) g)
(len g) ; expect: 20
(span g 0 19) ; expect: (0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9)
(each (key v) g (= (g (+ key 100)) 'x))
(len g) ; expect: 40
(g 119) ; expect: x
(g 120) ; expect: nil

; --- printing, writing, is and iso ---
(let h (table) (= (h 0) 'a) h) ; expect: #hash((0 . a))
(let h (table) (= (h 0) "s") (tostring (write h))) ; expect: "#hash((0 . \"s\"))"
(let h (table) (= (h 0) 'x (h 1) 'y) (len (tostring (pr h)))) ; expect: 22
(let h (table) (is h h)) ; expect: t
(is (table) (table)) ; expect: nil
(let (h1 h2) (list (table) (table)) (= (h1 0) 1 (h2 0) 1) (iso h1 h2)) ; expect: nil
(sorted-tablist (listtab '((1 b) (0 a) (2 c)))) ; expect: ((0 a) (1 b) (2 c))

; --- a table of integers stored to disk and read back ---
(= dir* (string "/tmp/arcana-table-array-" (seconds) "-" (rand 1000000000)))
(system (string "mkdir -p " dir*))
(= st (table))
(for i 0 299 (= (st i) (* 2 i)))
(= (st 1000) 'sparse (st 'name) "n")
(save-table st (string dir* "/t"))
(= back (load-table (string dir* "/t")))
(len back) ; expect: 302
(back 0) ; expect: 0
(back 299) ; expect: 598
(back 1000) ; expect: sparse
(back 'name) ; expect: "n"
(let ok t (for i 0 299 (unless (is (back i) (st i)) (= ok i))) ok) ; expect: t
(= (back 7) nil)
(len back) ; expect: 301
(system (string "rm -rf " dir*))

; --- sref and the call of a table as functions, and on other objects ---
(= s (table))
(sref s 'v 3) ; expect: v
(s 3) ; expect: v
(apply sref (list s 'w 4)) ; expect: w
(apply s '(4)) ; expect: w
(map s '(3 4 5)) ; expect: (v w nil)
(sref s nil 3) ; expect: nil
(len s) ; expect: 1
(let str (copy "abc") (sref str #\z 1) str) ; expect: "azc"
(let l (list 1 2 3) (sref l 'x 2) l) ; expect: (1 2 x)
(sref 'sym 1 2) ; error: Can't set reference
(sref s 1) ; error: sref
((table) 1 2 3) ; error: table

; --- (= (h k) v) of plain locals h and k (SREFLL): a table's store in
; place, the value kept when used, anything else to sref's general case
(def sr-fill (h n) (for i 0 n (= (h i) (* i i))) h)
(let h (sr-fill (table) 4) (list (h 0) (h 3) (h 4) (len h))) ; expect: (0 9 16 5)
(def sr-set (h k v) (= (h k) v))
(list (sr-set (table) 'a 1) (let s (copy "abc") (sr-set s 1 #\x) s) (let xs (list 1 2 3) (sr-set xs 1 'b) xs)) ; expect: (1 "axc" (1 b 3))
(let h (sr-fill (table) 3) (sr-set h 2 nil) (list (h 2) (len h) (keys h))) ; expect: (nil 3 (0 1 3))
(sr-set 'x 1 2) ; error: Can't set reference

; --- (= (h k) nil) and (= (h k) t) of locals h and k (NIL_SREFLL,
; TRUE_SREFLL): the constant's store in one dispatch, on any key, its
; value kept when used, anything but a table to sref's general case
(def sr-mark (h k) (= (h k) t))
(def sr-drop (h k) (= (h k) nil))
(def sr-marks (h ks) (each k ks (sr-mark h k)) h)
(let h (sr-marks (table) '(0 1 2 3)) (sr-drop h 2) (list (sorted-keys h) (len h) (h 2) (h 3))) ; expect: ((0 1 3) 3 nil t)
(let h (sr-marks (table) '(0 1 2 3)) (sr-drop h 2) (sr-mark h 2) (list (sorted-keys h) (len h) (h 2))) ; expect: ((0 1 2 3) 4 t)
(let h (sr-marks (table) (list 'a "b" 1.5 -1 (expt 2 40) (expt 2 70))) (list (len h) (h 'a) (h "b") (h 1.5) (h 1) (h -1) (h (expt 2 40)) (h (expt 2 70)))) ; expect: (6 t t t nil t t t)
(let h (sr-marks (table) (list 'a 1.5 (expt 2 40) 7)) (sr-drop h 'a) (sr-drop h 1.5) (sr-drop h (expt 2 40)) (sr-drop h 'absent) (keys h)) ; expect: (7)
(list (sr-mark (table) 1) (sr-drop (table) 1)) ; expect: (t nil)
(let xs (list 1 2 3) (sr-mark xs 0) (sr-drop xs 2) xs) ; expect: (t 2 nil)
(sr-mark 'x 1) ; error: Can't set reference
(def sr-sieve (n)
  (let flags (table)
    (for i 2 n (= (flags i) t))
    (for i 2 n
      (when (flags i)
        (let k (* i i)
          (while (<= k n) (= (flags k) nil) (= k (+ k i))))))
    (sorted-keys flags)))
(sr-sieve 30) ; expect: (2 3 5 7 11 13 17 19 23 29)

; --- (= (h k) v) with k an assigned local: the store's key is k's slot,
; not a copy (compiler/compile.cpp, alias_copies), unless k may change
; between the copy and its use: assigned by v, or after a call in v, which
; a re-entered continuation returns from with k changed; and a slot a
; thread's atomic thunk put in a box (SHARE) still gives k's value
(def al-count (h n) (let k 0 (while (< k n) (= (h k) t) (= k (+ k 1)))) h)
(sorted-keys (al-count (table) 5)) ; expect: (0 1 2 3 4)
; a redefined atomic-invoke is what the store's atomic calls (ATOMIC_JUMPT's general case)
(= saved-ai atomic-invoke al-calls 0)
(assign atomic-invoke (fn (f) (assign al-calls (+ al-calls 1)) (saved-ai f)))
(list (sorted-keys (al-count (table) 3)) al-calls) ; expect: ((0 1 2) 3)
(assign atomic-invoke saved-ai)
(list (sorted-keys (al-count (table) 2)) al-calls) ; expect: ((0 1) 3)
(let k 1 (let h (table) (= (h k) (do (= k 2) 'x)) (list k (sorted-tablist h)))) ; expect: (2 ((1 x)))
(= saved-plus + al-k nil)
(def al-store (h x y)
  (let k 1
    (= (h k) (+ x y))
    (when (is k 1) (= k 2) (al-k 'again))
    h))
(assign + (fn args (if (is (car args) 'cc) (ccc (fn (c) (= al-k c) 'first)) (apply saved-plus args))))
(sorted-tablist (al-store (table) 'cc 0)) ; expect: ((1 again))
(assign + saved-plus)
(def al-threaded (n)
  (let h (table)
    (let k 0
      (let th nil
        (while (< k n)
          (when (is k 3) (= th (new-thread (fn () (sleep 0.01)))))
          (= (h k) t)
          (= (h (+ k 100)) nil)
          (when (is k 6) (until (dead th) (sleep 0.005)))
          (= k (+ k 1)))))
    (sorted-keys h)))
(al-threaded 10) ; expect: (0 1 2 3 4 5 6 7 8 9)

; --- (t k) of locals t and k (LOADL_LOOKUP): a table's lookup in one
; dispatch, tested by an if or kept as a value; anything but a table called
(def lk-get (t k) (t k))
(def lk-if (t k) (if (t k) 'yes 'no))
(def lk-count (t n) (let c 0 (for i -2 n (when (t i) (++ c))) c))
(let h (obj a 1) (= (h 0) 'z (h 3) nil (h 2.0) 'f (h (expt 2 40)) 'big (h (expt 2 70)) 'bigger) (list (lk-get h 'a) (lk-get h 0) (lk-get h 1) (lk-get h 2.0) (lk-get h 2) (lk-get h -1) (lk-get h (expt 2 40)) (lk-get h (expt 2 70)) (lk-get h "a"))) ; expect: (1 z nil f nil nil big bigger nil)
(let h (sr-marks (table) '(0 2 4 -1)) (list (lk-if h 2) (lk-if h 3) (lk-if h -1) (lk-count h 10))) ; expect: (yes no yes 4)
(list (lk-get '(a b c) 1) (lk-get "abc" 2) (lk-get [+ _ 1] 41) (lk-if '(nil t) 0) (lk-if '(nil t) 1)) ; expect: (b #\c 42 no yes)
(lk-get 'x 1) ; error: Function call on inappropriate object
(let h (sr-marks (table) '(0 1 2)) (list (lk-count h 5) (do (sr-drop h 1) (lk-count h 5)) (do (sr-mark h 1) (sr-mark h 100) (lk-count h 5)))) ; expect: (3 2 3)

; --- many tables with array parts surviving collections ---
(= many (accum a (for i 0 199 (let h (table) (for j 0 (mod i 40) (= (h j) (list i j))) (a h)))))
(repeat 3 (accum a (for i 0 2000 (a (list i i i)))))
(let ok t
  (on h many (for j 0 (mod index 40) (unless (iso (h j) (list index j)) (= ok (list index j)))))
  ok) ; expect: t
(apply + (map len many)) ; expect: 4100

; --- a redefined sref is what (sref ...) and (= (h k) v) call ---
(= saved-sref sref)
(assign sref (fn (o v k) (saved-sref o (list 'wrapped v) k)))
(let h (table) (sref h 1 'a) (h 'a)) ; expect: (wrapped 1)
(let h (table) (= (h 0) 2) (h 0)) ; expect: (wrapped 2)
(let h (table) (sr-set h 0 3) (h 0)) ; expect: (wrapped 3)
(let h (table) (sr-mark h 0) (h 0)) ; expect: (wrapped t)
(let h (sr-marks (table) '(0 1)) (sr-drop h 1) (h 1)) ; expect: (wrapped nil)
(assign sref saved-sref)
(let h (table) (sref h 1 'a) (= (h 0) 2) (list (h 'a) (h 0))) ; expect: (1 2)
