; quicksort: sort 10,000 pseudo-random integers below 1,000,000 in a table
; keyed by integers, by Hoare partitioning around the last element with a
; comparison function passed in, then check the order. The numbers come
; from Park and Miller's minimal generator (the collection's uses a
; combined generator on floats). Run ITERS times, fresh numbers each time.
(= iters 35)

(= seed* 42)
(def next-random (n)
  (= seed* (mod (* seed* 16807) 2147483647))
  (mod seed* n))

(def random-table (n limit)
  (let v (table)
    (for i 0 (- n 1) (= (v i) (next-random limit)))
    v))

; the place of the pivot (v right) once v's part from left to right is
; split around it
(def partition (v left right less)
  (let mid (v right)
    ((afn (i j)
       (++ i)
       (while (and (< i right) (less (v i) mid)) (++ i))
       (-- j)
       (while (and (> j left) (less mid (v j))) (-- j))
       (let tmp (v i)
         (= (v i) (v j) (v j) tmp)
         (if (< i j)
             (self i j)
             (do (= (v j) (v i)
                    (v i) (v right)
                    (v right) tmp)
                 i))))
     (- left 1) right)))

; the smaller part first, so the stack stays logarithmic
(def quick-sort (v n less)
  ((afn (left right)
     (when (< left right)
       (let median (partition v left right less)
         (if (< (- median left) (- right median))
             (do (self left (- median 1)) (self (+ median 1) right))
             (do (self (+ median 1) right) (self left (- median 1)))))))
   0 (- n 1))
  v)

(def sorted (v n)
  ((afn (i) (or (>= i n) (and (<= (v (- i 1)) (v i)) (self (+ i 1))))) 1))

(def sort-run ()
  (sorted (quick-sort (random-table 10000 1000000) 10000 <) 10000))

(def bench (n thunk)
  (let r nil (repeat n (= r (thunk))) r))
(def verify (got want)
  (prn got)
  (unless (iso got want) (err "quicksort: wrong result, expected" want)))

(verify (bench iters sort-run) t)
