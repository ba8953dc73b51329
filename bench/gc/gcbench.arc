; GCBench after Hans Boehm's (John Ellis and Pete Kovac's, adapted): a
; long-lived binary tree of depth 16 and a long-lived pointer-free object
; (Boehm's array of 500,000 doubles: here a 4 MB string) are kept all
; along, while trees of depths 4, 6, .. 16 are built and dropped, as many of
; each as make twice the nodes of a depth-18 tree: once top-down (a node
; allocated, then its children stored into it: old-to-young stores when the
; parent has been promoted) and once bottom-up. A node is a cons of its
; subtrees. Ends with the collector's statistics on one line.
(def gcb-tree-size (d) (- (expt 2 (+ d 1)) 1))

(def gcb-iters (d stretch) (trunc (/ (* 2 (gcb-tree-size stretch)) (gcb-tree-size d))))

; Top-down: the node exists before its children are stored into it.
(def gcb-populate (d node)
  (when (> d 0)
    (scar node (cons nil nil))
    (scdr node (cons nil nil))
    (gcb-populate (- d 1) (car node))
    (gcb-populate (- d 1) (cdr node))))

; Bottom-up: the children exist before the node.
(def gcb-make (d)
  (if (<= d 0) (cons nil nil) (cons (gcb-make (- d 1)) (gcb-make (- d 1)))))

(def gcb-repeat (n f) (when (> n 0) (f) (gcb-repeat (- n 1) f)))

(def gcb-time-construction (d stretch)
  (let n (gcb-iters d stretch)
    (prn "creating " n " trees of depth " d)
    (gcb-repeat n (fn () (gcb-populate d (cons nil nil))))
    (gcb-repeat n (fn () (gcb-make d)))))

(def gcb-depths (d max-d stretch)
  (when (<= d max-d)
    (gcb-time-construction d stretch)
    (gcb-depths (+ d 2) max-d stretch)))

(def gcbench ((o stretch 18) (o long-lived-d 16) (o min-d 4) (o max-d 16))
  (prn "stretching memory with a binary tree of depth " stretch)
  (gcb-make stretch)
  (prn "creating a long-lived binary tree of depth " long-lived-d)
  (let long-lived (cons nil nil)
    (gcb-populate long-lived-d long-lived)
    (let array (newstring 4000000 #\x)
      (gcb-depths min-d max-d stretch)
      (if (or (no (car long-lived)) (isnt (array 1000) #\x))
          (prn "failed")
          (prn "long-lived tree and array intact")))))

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

(gcbench)
(gc-report)
