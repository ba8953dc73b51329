; puzzle: Forest Baskett's packing puzzle, 18 pieces of four shapes into a
; 5x5x5 box, by backtracking over a 512-cell board (8 wide, so a piece's
; cells are offsets); the board and pieces are tables keyed by integers.
; The search tries 2005 placements. Run ITERS times.
(= iters 30)

(= size* 511 classmax* 3 typemax* 12 d* 8)
(= iii* 0 kount* 0)
(= piececount* (table) class* (table) piecemax* (table) puzzle* (table)
   p* (table))
(for i 0 typemax* (= (p* i) (table)))

; does piece i fit with its origin at cell j?
(def fit (i j)
  (with (end (piecemax* i) cells (p* i))
    ((afn (k)
       (if (> k end)
           t
           (and (cells k) (puzzle* (+ j k)))
           nil
           (self (+ k 1))))
     0)))

; put piece i at j; the first empty cell from j on, or 0 if none
(def place (i j)
  (with (end (piecemax* i) cells (p* i))
    (for k 0 end
      (when (cells k) (= (puzzle* (+ j k)) t)))
    (-- (piececount* (class* i)))
    ((afn (k)
       (if (> k size*) 0
           (no (puzzle* k)) k
           (self (+ k 1))))
     j)))

(def puzzle-remove (i j)
  (with (end (piecemax* i) cells (p* i))
    (for k 0 end
      (when (cells k) (= (puzzle* (+ j k)) nil)))
    (++ (piececount* (class* i)))))

(def trial (j)
  ((afn (i)
     (if (> i typemax*)
         (do (++ kount*) nil)
         (and (isnt 0 (piececount* (class* i))) (fit i j))
         (let k (place i j)
           (if (or (trial k) (is k 0))
               (do (++ kount*) t)
               (do (puzzle-remove i j)
                   (self (+ i 1)))))
         (self (+ i 1))))
   0))

(def define-piece (iclass ii jj kk)
  (let index 0
    (for i 0 ii
      (for j 0 jj
        (for k 0 kk
          (= index (+ i (* d* (+ j (* d* k)))))
          (= ((p* iii*) index) t))))
    (= (class* iii*) iclass
       (piecemax* iii*) index)
    (unless (is iii* typemax*) (++ iii*))))

(def start (size)
  (= kount* 0)
  (for m 0 size (= (puzzle* m) t))
  (for i 1 5
    (for j 1 5
      (for k 1 5
        (= (puzzle* (+ i (* d* (+ j (* d* k))))) nil))))
  (for i 0 typemax*
    (for m 0 size (= ((p* i) m) nil)))
  (= iii* 0)
  (define-piece 0 3 1 0)
  (define-piece 0 1 0 3)
  (define-piece 0 0 3 1)
  (define-piece 0 1 3 0)
  (define-piece 0 3 0 1)
  (define-piece 0 0 1 3)
  (define-piece 1 2 0 0)
  (define-piece 1 0 2 0)
  (define-piece 1 0 0 2)
  (define-piece 2 1 1 0)
  (define-piece 2 1 0 1)
  (define-piece 2 0 1 1)
  (define-piece 3 1 1 1)
  (= (piececount* 0) 13 (piececount* 1) 3 (piececount* 2) 1 (piececount* 3) 1)
  (with (m (+ (* d* (+ d* 1)) 1) n 0)
    (if (fit 0 m)
        (= n (place 0 m))
        (err "puzzle: the first piece does not fit"))
    (if (trial n) kount* nil)))

(def bench (n thunk)
  (let r nil (repeat n (= r (thunk))) r))
(def verify (got want)
  (prn got)
  (unless (iso got want) (err "puzzle: wrong result, expected" want)))

(verify (bench iters (fn () (start size*))) 2005)
