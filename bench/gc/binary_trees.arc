; binary-trees (the Computer Language Benchmarks Game), depth 18: a stretch
; tree, one long-lived tree, and many short-lived trees of depths 4, 6, ..
; 18, each built bottom-up and checked. A node is a cons of its subtrees; a
; leaf is (nil . nil). Ends with the collector's statistics on one line.
(def bt-make (d)
  (if (is d 0) (cons nil nil) (cons (bt-make (- d 1)) (bt-make (- d 1)))))

(def bt-check (tr)
  (if (car tr) (+ 1 (bt-check (car tr)) (bt-check (cdr tr))) 1))

(def bt-sum (iters d acc)
  (if (is iters 0) acc (bt-sum (- iters 1) d (+ acc (bt-check (bt-make d))))))

(def bt-depths (d max-d min-d)
  (when (<= d max-d)
    (let iters (expt 2 (+ (- max-d d) min-d))
      (prn iters "\t trees of depth " d "\t check: " (bt-sum iters d 0)))
    (bt-depths (+ d 2) max-d min-d)))

(def binary-trees (n)
  (with (min-d 4 max-d (max 6 n))
    (prn "stretch tree of depth " (+ max-d 1) "\t check: " (bt-check (bt-make (+ max-d 1))))
    (let long-lived (bt-make max-d)
      (bt-depths min-d max-d min-d)
      (prn "long lived tree of depth " max-d "\t check: " (bt-check long-lived)))))

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

(binary-trees (if argv (coerce (car argv) 'int) 18))
(gc-report)
