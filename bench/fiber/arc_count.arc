; bench/fiber/arc_count.arc — fiber_count in Arc: make and resume 100,000
; fibers and keep them all alive. Prints "fiber_count LIVE SECONDS" and
; "rss_per_fiber BYTES" (the growth of VmRSS over the live count).
(def rss ()
  (let line (find [begins _ "VmRSS:"] (lines (filechars "/proc/self/status")))
    (* 1024 (int (car (tokens (cut line 6)))))))
(= n (if argv (int (car argv)) 100000))
(gc)
(= rss0 (rss))
(= t0 (%nsec))
(= fibers (accum keep (repeat n (let f (fiber (fn (_) (yield))) (resume f) (keep f)))))
(= secs (/ (- (%nsec) t0) 1e9))
(prn "fiber_count " (len fibers) " " secs)
(prn "rss_per_fiber " (trunc (/ (- (rss) rss0) (len fibers))))
