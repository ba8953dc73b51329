; queens (AWFY): the eight queens problem solved ten times; the free rows
; and diagonals are integer-keyed tables of booleans held by an object
; passed to each function as its first argument
(def bool-array (n val)
  (let a (table)
    (for i 0 (- n 1)
      (= (a i) val))
    a))

(def get-row-column (self r c)
  (and (self!free-rows r)
       (self!free-maxs (+ c r))
       (self!free-mins (+ (- c r) 7))))

(def set-row-column (self r c v)
  (= (self!free-rows r) v)
  (= (self!free-maxs (+ c r)) v)
  (= (self!free-mins (+ (- c r) 7)) v))

(def place-queen (self c)
  (catch
    (for r 0 7
      (when (get-row-column self r c)
        (= (self!queen-rows r) c)
        (set-row-column self r c nil)
        (when (is c 7)
          (throw t))
        (when (place-queen self (+ c 1))
          (throw t))
        (set-row-column self r c t)))
    nil))

(def queens (self)
  (= self!free-rows (bool-array 8 t)
     self!free-maxs (bool-array 16 t)
     self!free-mins (bool-array 16 t)
     self!queen-rows (bool-array 8 -1))
  (place-queen self 0))

(def benchmark ()
  (with (self (table) result t)
    (repeat 10
      (= result (and result (queens self))))
    result))

(def verify-result (result)
  result)

(repeat 800
  (unless (verify-result (benchmark))
    (err "queens: wrong result")))
(prn "queens ok")
