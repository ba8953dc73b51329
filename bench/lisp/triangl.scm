;; triangl: every solution of the 15-hole triangle peg solitaire by depth-
;; first search over the 36 possible jumps, board and moves in vectors;
;; the first solution found from jump 22 is
;; (22 34 31 15 7 1 20 17 25 6 5 13 32). Run ITERS times.
(define iters 1)

;; 1 where a hole has a peg; hole 5 starts empty
(define board (vector 1 1 1 1 1 0 1 1 1 1 1 1 1 1 1 1))
;; the jump made at each depth
(define seq (make-vector 14 0))
;; jump i moves the peg in hole (from i) over (over i) into (to i)
(define from (vector 1 2 4 3 5 6 1 3 6 2 5 4 11 12 13 7 8 4 4 7 11 8 12
                     13 6 10 15 9 14 13 13 14 15 9 10 6 6))
(define over (vector 2 4 7 5 8 9 3 6 10 5 9 8 12 13 14 8 9 5 2 4 7 5 8 9
                     3 6 10 5 9 8 12 13 14 8 9 5 5))
(define to   (vector 4 7 11 8 12 13 6 10 15 9 14 13 13 14 15 9 10 6 1 2 4
                     3 5 6 1 3 6 2 5 4 11 12 13 7 8 4 4))
(define answer '())

(define (attempt i depth)
  (cond ((= depth 14)
         (set! answer (cons (cdr (vector->list seq)) answer))
         #t)
        ((and (= 1 (vector-ref board (vector-ref from i)))
              (= 1 (vector-ref board (vector-ref over i)))
              (= 0 (vector-ref board (vector-ref to i))))
         (vector-set! board (vector-ref from i) 0)
         (vector-set! board (vector-ref over i) 0)
         (vector-set! board (vector-ref to i) 1)
         (vector-set! seq depth i)
         (let loop ((j 0))
           (unless (or (= j 36) (attempt j (+ depth 1)))
             (loop (+ j 1))))
         (vector-set! board (vector-ref from i) 1)
         (vector-set! board (vector-ref over i) 1)
         (vector-set! board (vector-ref to i) 0)
         #f)
        (else #f)))

(define (triangle i depth)
  (set! answer '())
  (attempt i depth)
  (car answer))

(define (bench n thunk)
  (let loop ((i n) (r #f))
    (if (= i 0) r (loop (- i 1) (thunk)))))
(define (verify got want)
  (write got) (newline)
  (unless (equal? got want)
    (display "triangl: wrong result, expected " (current-error-port))
    (write want (current-error-port)) (newline (current-error-port))
    (exit 1)))

(verify (bench iters (lambda () (triangle 22 1))) '(22 34 31 15 7 1 20 17 25 6 5 13 32))
