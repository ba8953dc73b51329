; binary-trees as an Arc programmer would first write it: the Benchmarks
; Game's program with its state in top-level globals, repeat and while loops
; and ++ on the globals (binary_trees.arc is the same work written with
; recursive functions and locals). Depth 18: a stretch tree, one long-lived
; tree, and many short-lived trees of depths 4, 6, .. 18, each built
; bottom-up and checked. A node is a cons of its subtrees; a leaf is
; (nil . nil). Prints the same lines as binary_trees.arc, and ends with the
; collector's statistics on one line.
(= min-depth 4)
(= max-depth (max 6 (if argv (coerce (car argv) 'int) 18)))
(= stretch-depth (+ max-depth 1))

(def make (d)
  (if (is d 0) (cons nil nil) (cons (make (- d 1)) (make (- d 1)))))

(def check-tree (tr)
  (if (car tr) (+ 1 (check-tree (car tr)) (check-tree (cdr tr))) 1))

(prn "stretch tree of depth " stretch-depth "\t check: " (check-tree (make stretch-depth)))

(= long-lived (make max-depth))

(= d min-depth)
(while (<= d max-depth)
  (= iters (expt 2 (+ (- max-depth d) min-depth)))
  (= check 0)
  (repeat iters
    (++ check (check-tree (make d))))
  (prn iters "\t trees of depth " d "\t check: " check)
  (++ d 2))

(prn "long lived tree of depth " max-depth "\t check: " (check-tree long-lived))

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

(gc-report)
