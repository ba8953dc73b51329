; towers (AWFY): the towers of Hanoi with 13 disks, each pile a linked list
; of disk objects; the object holding the piles and the count of moves is
; passed to each function as its first argument
(def create-disk (size)
  (obj size size next nil))

(def push-disk (self disk pile)
  (let top (self!piles pile)
    (when (and top (>= disk!size top!size))
      (err "Cannot put a big disk on a smaller one"))
    (= disk!next top)
    (= (self!piles pile) disk)))

(def pop-disk-from (self pile)
  (let top (self!piles pile)
    (unless top
      (err "Attempting to remove a disk from an empty pile"))
    (= (self!piles pile) top!next)
    (= top!next nil)
    top))

(def move-top-disk (self from-pile to-pile)
  (push-disk self (pop-disk-from self from-pile) to-pile)
  (++ self!moves-done))

(def build-tower-at (self pile disks)
  (down i disks 1
    (push-disk self (create-disk i) pile)))

(def move-disks (self disks from-pile to-pile)
  (if (is disks 1)
      (move-top-disk self from-pile to-pile)
      (let other-pile (- 3 from-pile to-pile)
        (move-disks self (- disks 1) from-pile other-pile)
        (move-top-disk self from-pile to-pile)
        (move-disks self (- disks 1) other-pile to-pile))))

(def benchmark ()
  (let self (obj piles (table) moves-done 0)
    (build-tower-at self 0 13)
    (move-disks self 13 0 1)
    self!moves-done))

(def verify-result (result)
  (is result 8191))

(repeat 300
  (unless (verify-result (benchmark))
    (err "towers: wrong result")))
(prn "towers ok")
