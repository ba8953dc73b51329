; (gc-stats): the collector's statistics, the same keys under every collector.
(assign list (fn args args))
(assign every-key (fn (tbl keys test)
  (if (no keys) t
      (test (tbl (car keys))) (every-key tbl (cdr keys) test)
      (car keys))))
(assign counts '(collections minor-collections major-collections allocated-bytes
                 allocated-objects promoted-bytes live-bytes peak-heap-bytes peak-rss-bytes
                 compactions compacted-bytes))
(assign times '(gc-ms collector-thread-ms run-ms cpu-ms p50-pause-ms p99-pause-ms max-pause-ms
                p50-minor-pause-ms p99-minor-pause-ms max-minor-pause-ms
                p50-major-pause-ms p99-major-pause-ms max-major-pause-ms))
(assign nonneg (fn (x) (if (acons x) nil (< -1 x))))
(assign count? (fn (x) (if (is (type x) 'int) (nonneg x))))
(assign float? (fn (x) (if (is (type x) 'num) (nonneg x))))

(type (gc-stats)) ; expect: table
(every-key (gc-stats) counts count?) ; expect: t
(every-key (gc-stats) times float?) ; expect: t
(float? ((gc-stats) 'gc-share)) ; expect: t
(float? ((gc-stats) 'fragmentation)) ; expect: t
(< ((gc-stats) 'fragmentation) 1.0001) ; expect: t
(< ((gc-stats) 'gc-share) 1.0001) ; expect: t
(type ((gc-stats) 'collector)) ; expect: sym
(< 0 ((gc-stats) 'run-ms)) ; expect: t
(< 0 ((gc-stats) 'peak-heap-bytes)) ; expect: t
; A collector's own thread's CPU (vcgc's, gen's marker) is part of gc-ms.
(no (< ((gc-stats) 'gc-ms) ((gc-stats) 'collector-thread-ms))) ; expect: t

; (gc) collects at once: the call is a safe point (vm/builtins/control.cpp)
(assign before (gc-stats))
(gc)
(assign after (gc-stats))
(< (before 'collections) (after 'collections)) ; expect: t
(- (after 'collections) (+ (after 'minor-collections) (after 'major-collections))) ; expect: 0
(< 0 (after 'collections)) ; expect: t
(no (< (after 'gc-ms) (before 'gc-ms))) ; expect: t
(no (< (after 'max-pause-ms) (after 'p99-pause-ms))) ; expect: t
(no (< (after 'p99-pause-ms) (after 'p50-pause-ms))) ; expect: t
(no (< (after 'peak-heap-bytes) (after 'live-bytes))) ; expect: t
; current-gc-milliseconds is the same clock, rounded
(< (abs (- (current-gc-milliseconds) ((gc-stats) 'gc-ms))) 1) ; expect: t

; allocating grows allocated-bytes
(assign a0 ((gc-stats) 'allocated-bytes))
(assign junk (fn (n acc) (if (< 0 n) (junk (- n 1) (cons n acc)) (len acc))))
(junk 10000 nil) ; expect: 10000
(< (+ a0 (* 10000 16)) ((gc-stats) 'allocated-bytes)) ; expect: t
