; list (AWFY): Takeuchi's function on linked lists, each list made of
; element objects linked through their next field
(def new-element (v)
  (obj val v next nil))

(def element-length (e)
  (if (no e!next)
      1
      (+ 1 (element-length e!next))))

(def make-list (length)
  (if (is length 0)
      nil
      (let e (new-element length)
        (= e!next (make-list (- length 1)))
        e)))

(def is-shorter-than (x y)
  (with (x-tail x y-tail y)
    (catch
      (while y-tail
        (unless x-tail
          (throw t))
        (= x-tail x-tail!next
           y-tail y-tail!next))
      nil)))

(def tail (x y z)
  (if (is-shorter-than y x)
      (tail (tail x!next y z)
            (tail y!next z x)
            (tail z!next x y))
      z))

(def benchmark ()
  (element-length (tail (make-list 15) (make-list 10) (make-list 6))))

(def verify-result (result)
  (is result 10))

(repeat 800
  (unless (verify-result (benchmark))
    (err "list: wrong result")))
(prn "list ok")
