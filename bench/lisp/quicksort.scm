;; quicksort: sort 10,000 pseudo-random integers below 1,000,000 in a
;; vector, by Hoare partitioning around the last element with a comparison
;; function passed in, then check the order. The numbers come from Park and
;; Miller's minimal generator (the collection's uses a combined generator
;; on floats). Run ITERS times, fresh numbers each time.
(define iters 35)

(define seed 42)
(define (next-random n)
  (set! seed (modulo (* seed 16807) 2147483647))
  (modulo seed n))

(define (random-vector n limit)
  (let ((v (make-vector n 0)))
    (do ((i 0 (+ i 1))) ((= i n) v)
      (vector-set! v i (next-random limit)))))

;; the place of the pivot (v right) once v's part from left to right is
;; split around it
(define (partition v left right less?)
  (let ((mid (vector-ref v right)))
    (let loop ((i (- left 1)) (j right))
      (let* ((i (let up ((i (+ i 1)))
                  (if (and (< i right) (less? (vector-ref v i) mid)) (up (+ i 1)) i)))
             (j (let down ((j (- j 1)))
                  (if (and (> j left) (less? mid (vector-ref v j))) (down (- j 1)) j)))
             (tmp (vector-ref v i)))
        (vector-set! v i (vector-ref v j))
        (vector-set! v j tmp)
        (if (< i j)
            (loop i j)
            (begin (vector-set! v j (vector-ref v i))
                   (vector-set! v i (vector-ref v right))
                   (vector-set! v right tmp)
                   i))))))

;; the smaller part first, so the stack stays logarithmic
(define (quick-sort v n less?)
  (let helper ((left 0) (right (- n 1)))
    (when (< left right)
      (let ((median (partition v left right less?)))
        (if (< (- median left) (- right median))
            (begin (helper left (- median 1)) (helper (+ median 1) right))
            (begin (helper (+ median 1) right) (helper left (- median 1)))))))
  v)

(define (sorted v n)
  (let loop ((i 1))
    (or (>= i n)
        (and (<= (vector-ref v (- i 1)) (vector-ref v i)) (loop (+ i 1))))))

(define (sort-run)
  (sorted (quick-sort (random-vector 10000 1000000) 10000 <) 10000))

(define (bench n thunk)
  (let loop ((i n) (r #f))
    (if (= i 0) r (loop (- i 1) (thunk)))))
(define (verify got want)
  (write got) (newline)
  (unless (equal? got want)
    (display "quicksort: wrong result, expected " (current-error-port))
    (write want (current-error-port)) (newline (current-error-port))
    (exit 1)))

(verify (bench iters sort-run) #t)
