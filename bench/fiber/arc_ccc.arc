; bench/fiber/arc_ccc.arc — the cost of (ccc (fn (k) k)) with 10 and with
; 10,000 frames below it, in a loop at that depth. Prints
; "ccc_depth_D ITERATIONS SECONDS" for each depth.
(= n (if argv (int (car argv)) 1000000))
(def deep (d f) (if (is d 0) (f) (idfn (deep (- d 1) f))))
(each d '(10 10000)
  (deep d (fn ()
            (let t0 (%nsec)
              (repeat n (ccc (fn (k) k)))
              (prn "ccc_depth_" d " " n " " (/ (- (%nsec) t0) 1e9))))))
