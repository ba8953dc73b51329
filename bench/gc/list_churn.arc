; A long-lived list of 4 million conses, built and then churned: rounds over
; the list that replace every 8th element with a fresh object (old-to-young
; stores once the list is old), splice a freshly built run of 64 conses in
; place of the old run every 4096 elements (the old run becomes old-generation
; garbage), and allocate short-lived garbage at every step. The list keeps its
; length; its sum is checked at the end. Ends with the collector's statistics
; on one line.
(def lc-build (n acc) (if (is n 0) acc (lc-build (- n 1) (cons n acc))))

; A fresh run of k conses holding i, i+1, .., ending in tail.
(def lc-run (k i tail) (if (is k 0) tail (cons (+ i k -1) (lc-run (- k 1) i tail))))

; Garbage: a short list, dropped.
(def lc-garbage (k acc) (if (is k 0) (len acc) (lc-garbage (- k 1) (cons k acc))))

; One round: p is the cons at index i.
(def lc-round (p i r)
  (when p
    (if (is (mod i 4096) 0)
          (do (scdr p (lc-run 64 (+ i 1) (nthcdr 65 p)))
              (lc-round (nthcdr 65 p) (+ i 65) r))
        (is (mod i 8) 0)
          (do (scar p (list i r))  ; a fresh young object in an old cons
              (lc-garbage 4 nil)
              (lc-round (cdr p) (+ i 1) r))
          (lc-round (cdr p) (+ i 1) r))))

; The element's number, whichever form it has now.
(def lc-num (x) (if (acons x) (car x) x))

(def lc-sum (p acc) (if p (lc-sum (cdr p) (+ acc (lc-num (car p)))) acc))

(def list-churn (n rounds)
  (prn "building a list of " n " conses")
  (let lst (lc-build n nil)
    (for r 1 rounds
      (prn "churn round " r)
      (lc-round lst 1 r))
    (prn "length " (len lst) ", sum " (lc-sum lst 0)
         (if (is (lc-sum lst 0) (/ (* n (+ n 1)) 2)) " (correct)" " (WRONG)"))))

(def gc-report ()
  (let s (gc-stats)
    (pr "GCSTATS")
    (each k '(collector collections minor-collections major-collections gc-ms
              collector-thread-ms run-ms cpu-ms
              gc-share p50-pause-ms p99-pause-ms max-pause-ms p99-minor-pause-ms
              max-minor-pause-ms p99-major-pause-ms max-major-pause-ms allocated-bytes
              promoted-bytes live-bytes peak-heap-bytes peak-rss-bytes)
      (pr " " k "=" (s k)))
    (prn)))

(list-churn 4000000 (if argv (coerce (car argv) 'int) 4))
(gc-report)
