; triangl: every solution of the 15-hole triangle peg solitaire by depth-
; first search over the 36 possible jumps, board and moves in tables keyed
; by integers (Arc has no vectors); the first solution found from jump 22
; is (22 34 31 15 7 1 20 17 25 6 5 13 32). Run ITERS times.
(= iters 1)

(def int-table (xs)
  (let tb (table)
    (on x xs (= (tb index) x))
    tb))

; 1 where a hole has a peg; hole 5 starts empty
(= board* (int-table '(1 1 1 1 1 0 1 1 1 1 1 1 1 1 1 1)))
; the jump made at each depth
(= seq* (int-table (n-of 14 0)))
; jump i moves the peg in hole (from* i) over (over* i) into (to* i)
(= from* (int-table '(1 2 4 3 5 6 1 3 6 2 5 4 11 12 13 7 8 4 4 7 11 8 12
                      13 6 10 15 9 14 13 13 14 15 9 10 6 6)))
(= over* (int-table '(2 4 7 5 8 9 3 6 10 5 9 8 12 13 14 8 9 5 2 4 7 5 8 9
                      3 6 10 5 9 8 12 13 14 8 9 5 5)))
(= to*   (int-table '(4 7 11 8 12 13 6 10 15 9 14 13 13 14 15 9 10 6 1 2 4
                      3 5 6 1 3 6 2 5 4 11 12 13 7 8 4 4)))
(= answer* nil)

(def attempt (i depth)
  (if (is depth 14)
      (do (push (map seq* (range 1 13)) answer*)
          t)
      (and (is 1 (board* (from* i)))
           (is 1 (board* (over* i)))
           (is 0 (board* (to* i))))
      (do (= (board* (from* i)) 0
             (board* (over* i)) 0
             (board* (to* i)) 1
             (seq* depth) i)
          (let j 0
            (until (or (is j 36) (attempt j (+ depth 1)))
              (++ j)))
          (= (board* (from* i)) 1
             (board* (over* i)) 1
             (board* (to* i)) 0)
          nil)))

(def triangle (i depth)
  (= answer* nil)
  (attempt i depth)
  (car answer*))

(def bench (n thunk)
  (let r nil (repeat n (= r (thunk))) r))
(def verify (got want)
  (prn got)
  (unless (iso got want) (err "triangl: wrong result, expected" want)))

(verify (bench iters (fn () (triangle 22 1))) '(22 34 31 15 7 1 20 17 25 6 5 13 32))
