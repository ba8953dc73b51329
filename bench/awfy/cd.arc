; cd: collision detection (AWFY's CD): aircraft flying for 200 frames,
; their motions drawn on a voxel map kept in a red-black tree, and the
; pairs sharing a voxel tested for intersection with float vector
; arithmetic. Objects are tables with fields read b!x and written
; (= b!x v); methods are functions taking the object. Where the original
; dispatches on class, a tree's keys comparing themselves (call signs or
; plane vectors), each tree holds its keys' comparison in its field cmp.
; AWFY's Vector is written below the same way, its storage an
; integer-keyed table.
;
; 100 aircraft, one of AWFY's verified counts (4,305 collisions).

(= cd-num-aircraft* 100
   cd-expected-collisions* 4305
   cd-min-x* 0.0 cd-min-y* 0.0 cd-max-x* 1000.0 cd-max-y* 1000.0
   cd-min-z* 0.0 cd-max-z* 10.0
   cd-proximity-radius* 1.0
   cd-voxel-size* 2.0)

; AWFY's growable Vector, only what CD uses.

(def cd-vec () (obj storage (table) cap 50 first 1 last 1))

(def cd-vec-at (v i)
  (unless (> i v!cap)
    (v!storage i)))

(def cd-vec-append (v x)
  (when (> v!last v!cap)
    (= v!cap (* 2 v!cap)))
  (= (v!storage v!last) x)
  (++ v!last))

(def cd-vec-size (v) (- v!last v!first))

(def cd-vec-each (v f)
  (let s v!storage
    (for i v!first (- v!last 1)
      (f (s i)))))

; Vectors in the plane and in space

(def cd-compare-numbers (a b)
  (if (is a b) 0
      (< a b) -1
      (> a b) 1
      (is a a) 1        ; NaN sorts below every number
      -1))

(def cd-v2 (x y) (obj x x y y))

(def cd-v2-plus (a b) (cd-v2 (+ a!x b!x) (+ a!y b!y)))

(def cd-v2-minus (a b) (cd-v2 (- a!x b!x) (- a!y b!y)))

(def cd-v2-cmp (a b)
  (let c (cd-compare-numbers a!x b!x)
    (if (is c 0)
        (cd-compare-numbers a!y b!y)
        c)))

(def cd-v3 (x y z) (obj x x y y z z))

(def cd-v3-plus (a b) (cd-v3 (+ a!x b!x) (+ a!y b!y) (+ a!z b!z)))

(def cd-v3-minus (a b) (cd-v3 (- a!x b!x) (- a!y b!y) (- a!z b!z)))

(def cd-v3-dot (a b) (+ (* a!x b!x) (* a!y b!y) (* a!z b!z)))

(def cd-v3-sqmag (a) (cd-v3-dot a a))

(def cd-v3-mag (a) (sqrt (cd-v3-sqmag a)))

(def cd-v3-times (a k) (cd-v3 (* a!x k) (* a!y k) (* a!z k)))

; The red-black tree (Cormen et al.), mapping keys to values

(def cd-rbt (cmp) (obj root nil cmp cmp))

(def cd-node (key val) (obj key key value val color 'red))

(def cd-tree-min (x)
  (while x!left
    (= x x!left))
  x)

(def cd-successor (x)
  (if x!right
      (cd-tree-min x!right)
      (let y x!parent
        (while (and y (is x y!right))
          (= x y y y!parent))
        y)))

(def cd-black (node) (or (no node) (is node!color 'black)))

; Returns the key's previous value, or nil if the key is new.
(def cd-rbt-put (tree key val)
  (let ins (cd-rbt-insert tree key val)
    (if (no ins!new)
        ins!old
        (let x ins!node
          (while (and (isnt x tree!root) (is x!parent!color 'red))
            (withs (p x!parent g p!parent)
              (if (is p g!left)
                  (let y g!right
                    (if (and y (is y!color 'red))
                        (= p!color 'black y!color 'black g!color 'red x g)
                        (do (when (is x p!right)
                              (= x p)
                              (cd-left-rotate tree x))
                            (= x!parent!color 'black x!parent!parent!color 'red)
                            (cd-right-rotate tree x!parent!parent))))
                  (let y g!left
                    (if (and y (is y!color 'red))
                        (= p!color 'black y!color 'black g!color 'red x g)
                        (do (when (is x p!left)
                              (= x p)
                              (cd-right-rotate tree x))
                            (= x!parent!color 'black x!parent!parent!color 'red)
                            (cd-left-rotate tree x!parent!parent)))))))
          (= tree!root!color 'black)
          nil))))

(def cd-rbt-remove (tree key)
  (whenlet z (cd-rbt-find tree key)
    ; y is the node unlinked from the tree, x the child that takes its place.
    (withs (y (if (or (no z!left) (no z!right)) z (cd-successor z))
            x (or y!left y!right)
            x-parent y!parent)
      (when x
        (= x!parent y!parent))
      (if (no y!parent)
            (= tree!root x)
          (is y y!parent!left)
            (= y!parent!left x)
            (= y!parent!right x))
      (if (isnt y z)
            (do (when (is y!color 'black)
                  (cd-remove-fixup tree x x-parent))
                (= y!parent z!parent y!color z!color y!left z!left y!right z!right)
                (when z!left (= z!left!parent y))
                (when z!right (= z!right!parent y))
                (if (no z!parent)
                      (= tree!root y)
                    (is z!parent!left z)
                      (= z!parent!left y)
                      (= z!parent!right y)))
          (is y!color 'black)
            (cd-remove-fixup tree x x-parent))
      z!value)))

(def cd-rbt-get (tree key)
  (aif (cd-rbt-find tree key) it!value))

(def cd-rbt-each (tree f)
  (when tree!root
    (let current (cd-tree-min tree!root)
      (while current
        (f (obj key current!key value current!value))
        (= current (cd-successor current))))))

(def cd-rbt-find (tree key)
  (with (current tree!root found nil)
    (while (and current (no found))
      (let c (tree!cmp key current!key)
        (if (is c 0) (= found current)
            (< c 0)  (= current current!left)
                     (= current current!right))))
    found))

; Returns (obj new t node z) for a new node z, or (obj old v) when the key
; was there with value v.
(def cd-rbt-insert (tree key val)
  (with (y nil x tree!root result nil)
    (while (and x (no result))
      (= y x)
      (let c (tree!cmp key x!key)
        (if (< c 0) (= x x!left)
            (> c 0) (= x x!right)
            (let old x!value
              (= x!value val)
              (= result (obj new nil old old))))))
    (or result
        (let z (cd-node key val)
          (= z!parent y)
          (if (no y)
                (= tree!root z)
              (< (tree!cmp key y!key) 0)
                (= y!left z)
                (= y!right z))
          (obj new t node z)))))

(def cd-left-rotate (tree x)
  (let y x!right
    (= x!right y!left)
    (when y!left
      (= y!left!parent x))
    (= y!parent x!parent)
    (if (no x!parent)
          (= tree!root y)
        (is x x!parent!left)
          (= x!parent!left y)
          (= x!parent!right y))
    (= y!left x x!parent y)
    y))

(def cd-right-rotate (tree y)
  (let x y!left
    (= y!left x!right)
    (when x!right
      (= x!right!parent y))
    (= x!parent y!parent)
    (if (no y!parent)
          (= tree!root x)
        (is y y!parent!left)
          (= y!parent!left x)
          (= y!parent!right x))
    (= x!right y y!parent x)
    x))

(def cd-remove-fixup (tree x x-parent)
  (while (and (isnt x tree!root) (cd-black x))
    (if (is x x-parent!left)
        (let w x-parent!right
          (when (is w!color 'red)
            (= w!color 'black x-parent!color 'red)
            (cd-left-rotate tree x-parent)
            (= w x-parent!right))
          (if (and (cd-black w!left) (cd-black w!right))
              (= w!color 'red x x-parent x-parent x!parent)
              (do (when (cd-black w!right)
                    (= w!left!color 'black w!color 'red)
                    (cd-right-rotate tree w)
                    (= w x-parent!right))
                  (= w!color x-parent!color x-parent!color 'black)
                  (when w!right
                    (= w!right!color 'black))
                  (cd-left-rotate tree x-parent)
                  (= x tree!root x-parent x!parent))))
        (let w x-parent!left
          (when (is w!color 'red)
            (= w!color 'black x-parent!color 'red)
            (cd-right-rotate tree x-parent)
            (= w x-parent!left))
          (if (and (cd-black w!right) (cd-black w!left))
              (= w!color 'red x x-parent x-parent x!parent)
              (do (when (cd-black w!left)
                    (= w!right!color 'black w!color 'red)
                    (cd-left-rotate tree w)
                    (= w x-parent!left))
                  (= w!color x-parent!color x-parent!color 'black)
                  (when w!left
                    (= w!left!color 'black))
                  (cd-right-rotate tree x-parent)
                  (= x tree!root x-parent x!parent))))))
  (when x
    (= x!color 'black)))

; Aircraft and their motions

(def cd-callsign (i) (obj value i))

(def cd-callsign-cmp (a b)
  (if (is a!value b!value) 0
      (< a!value b!value) -1
      1))

(def cd-motion (callsign pos-one pos-two)
  (obj callsign callsign pos-one pos-one pos-two pos-two))

(def cd-motion-delta (m) (cd-v3-minus m!pos-two m!pos-one))

; Where the two aircraft, each moving at constant speed along its segment
; during the frame, come within the proximity radius of each other: the
; roots v of |(I1 + v V1) - (I2 + v V2)|^2 = r^2, a quadratic in v.
(def cd-find-intersection (m other)
  (withs (init1 m!pos-one
          init2 other!pos-one
          vec1 (cd-motion-delta m)
          vec2 (cd-motion-delta other)
          radius cd-proximity-radius*
          a (cd-v3-sqmag (cd-v3-minus vec2 vec1)))
    (if (isnt a 0.0)
        (withs (b (* 2.0 (cd-v3-dot (cd-v3-minus init1 init2) (cd-v3-minus vec1 vec2)))
                c (+ (- (* radius radius)) (cd-v3-sqmag (cd-v3-minus init2 init1)))
                discr (- (* b b) (* 4.0 a c)))
          (unless (< discr 0.0)
            (with (v1 (/ (- (- b) (sqrt discr)) (* 2.0 a))
                   v2 (/ (+ (- b) (sqrt discr)) (* 2.0 a)))
              (when (and (<= v1 v2)
                         (or (<= v1 1.0 v2)
                             (<= v1 0.0 v2)
                             (and (<= 0.0 v1) (<= v2 1.0))))
                ; Report the collision at its start, or at the frame's if earlier.
                (withs (v (if (<= v1 0.0) 0.0 v1)
                        result1 (cd-v3-plus init1 (cd-v3-times vec1 v))
                        result2 (cd-v3-plus init2 (cd-v3-times vec2 v))
                        result (cd-v3-times (cd-v3-plus result1 result2) 0.5))
                  (when (and (<= cd-min-x* result!x cd-max-x*)
                             (<= cd-min-y* result!y cd-max-y*)
                             (<= cd-min-z* result!z cd-max-z*))
                    result))))))
        ; Parallel at the same speed: the distance never changes.
        (when (<= (cd-v3-mag (cd-v3-minus init2 init1)) radius)
          (cd-v3-times (cd-v3-plus init1 init2) 0.5)))))

; The collision detector

(= cd-horizontal* (cd-v2 cd-voxel-size* 0.0)
   cd-vertical* (cd-v2 0.0 cd-voxel-size*))

(def cd-detector () (obj state (cd-rbt cd-callsign-cmp)))

(def cd-handle-frame (d frame)
  (with (motions (cd-vec) seen (cd-rbt cd-callsign-cmp))
    (cd-vec-each frame
      (fn (aircraft)
        (let old-position (cd-rbt-put d!state aircraft!callsign aircraft!position)
          (cd-rbt-put seen aircraft!callsign t)
          ; A new aircraft counts as standing still.
          (cd-vec-append motions
                         (cd-motion aircraft!callsign
                                    (or old-position aircraft!position)
                                    aircraft!position)))))
    (let to-remove (cd-vec)
      (cd-rbt-each d!state
        (fn (e)
          (unless (cd-rbt-get seen e!key)
            (cd-vec-append to-remove e!key))))
      (cd-vec-each to-remove (fn (key) (cd-rbt-remove d!state key))))
    (let collisions (cd-vec)
      (cd-vec-each (cd-reduce-collision-set d motions)
        (fn (reduced)
          (for i 1 (cd-vec-size reduced)
            (let motion1 (cd-vec-at reduced i)
              (for j (+ i 1) (cd-vec-size reduced)
                (let motion2 (cd-vec-at reduced j)
                  (whenlet collision (cd-find-intersection motion1 motion2)
                    (cd-vec-append collisions
                                   (obj aircraft-a motion1!callsign
                                        aircraft-b motion2!callsign
                                        position collision)))))))))
      collisions)))

(def cd-in-voxel (d voxel motion)
  (unless (or (> voxel!x cd-max-x*) (< voxel!x cd-min-x*)
              (> voxel!y cd-max-y*) (< voxel!y cd-min-y*))
    (withs (init motion!pos-one
            fin motion!pos-two
            v-s cd-voxel-size*
            r (/ cd-proximity-radius* 2.0)
            v-x voxel!x
            x0 init!x
            xv (- fin!x init!x)
            v-y voxel!y
            y0 init!y
            yv (- fin!y init!y)
            low-x (/ (- v-x r x0) xv)
            high-x (/ (- (+ v-x v-s r) x0) xv)
            low-y (/ (- v-y r y0) yv)
            high-y (/ (- (+ v-y v-s r) y0) yv))
      (when (< xv 0.0)
        (swap low-x high-x))
      (when (< yv 0.0)
        (swap low-y high-y))
      (and (or (and (is xv 0.0) (<= v-x (+ x0 r)) (<= (- x0 r) (+ v-x v-s)))
               (<= low-x 1.0 high-x)
               (<= low-x 0.0 high-x)
               (and (<= 0.0 low-x) (<= high-x 1.0)))
           (or (and (is yv 0.0) (<= v-y (+ y0 r)) (<= (- y0 r) (+ v-y v-s)))
               (<= low-y 1.0 high-y)
               (<= low-y 0.0 high-y)
               (and (<= 0.0 low-y) (<= high-y 1.0)))
           (or (is xv 0.0)
               (is yv 0.0)
               (<= low-y high-x high-y)
               (<= low-y low-x high-y)
               (and (<= low-x low-y) (<= high-y high-x)))))))

(def cd-put-into-map (d voxel-map voxel motion)
  (let array (cd-rbt-get voxel-map voxel)
    (unless array
      (= array (cd-vec))
      (cd-rbt-put voxel-map voxel array))
    (cd-vec-append array motion)))

; Flood-fills the voxels the motion passes through, from the one it
; starts in, to the eight neighbours of each.
(def cd-recurse (d voxel-map seen voxel motion)
  (when (and (cd-in-voxel d voxel motion)
             (no (cd-rbt-put seen voxel t)))
    (cd-put-into-map d voxel-map voxel motion)
    (with (h cd-horizontal* v cd-vertical*)
      (cd-recurse d voxel-map seen (cd-v2-minus voxel h) motion)
      (cd-recurse d voxel-map seen (cd-v2-plus voxel h) motion)
      (cd-recurse d voxel-map seen (cd-v2-minus voxel v) motion)
      (cd-recurse d voxel-map seen (cd-v2-plus voxel v) motion)
      (cd-recurse d voxel-map seen (cd-v2-minus (cd-v2-minus voxel h) v) motion)
      (cd-recurse d voxel-map seen (cd-v2-plus (cd-v2-minus voxel h) v) motion)
      (cd-recurse d voxel-map seen (cd-v2-minus (cd-v2-plus voxel h) v) motion)
      (cd-recurse d voxel-map seen (cd-v2-plus (cd-v2-plus voxel h) v) motion))))

(def cd-reduce-collision-set (d motions)
  (let voxel-map (cd-rbt cd-v2-cmp)
    (cd-vec-each motions
      (fn (motion) (cd-draw-motion d voxel-map motion)))
    (let result (cd-vec)
      (cd-rbt-each voxel-map
        (fn (e)
          (when (> (cd-vec-size e!value) 1)
            (cd-vec-append result e!value))))
      result)))

; The greatest integer not above x, as a float: Arc has only trunc, which
; rounds towards zero and gives an exact integer (and on Racket an exact 0
; times a float is an exact 0, which would not compare equal to 0.0).
(def cd-floor (x)
  (let n (trunc x)
    (+ 0.0 (if (> n x) (- n 1) n))))

(def cd-voxel-hash (d position)
  (with (x (* cd-voxel-size* (cd-floor (/ position!x cd-voxel-size*)))
         y (* cd-voxel-size* (cd-floor (/ position!y cd-voxel-size*))))
    (when (< position!x 0)
      (= x (- x cd-voxel-size*)))
    (when (< position!y 0)
      (= y (- y cd-voxel-size*)))
    (cd-v2 x y)))

(def cd-draw-motion (d voxel-map motion)
  (cd-recurse d voxel-map (cd-rbt cd-v2-cmp) (cd-voxel-hash d motion!pos-one) motion))

; The simulator: pairs of aircraft 3 apart, one on a cosine, one on a sine.

(def cd-simulator (num-aircraft)
  (let aircraft (cd-vec)
    (for i 1 num-aircraft
      (cd-vec-append aircraft (cd-callsign i)))
    aircraft))

(def cd-simulate (aircraft time)
  (with (frame (cd-vec) i 1)
    (while (< i (cd-vec-size aircraft))
      (cd-vec-append frame
        (obj callsign (cd-vec-at aircraft i)
             position (cd-v3 time (+ (* (cos time) 2) (* (- i 1) 3)) 10.0)))
      (cd-vec-append frame
        (obj callsign (cd-vec-at aircraft (+ i 1))
             position (cd-v3 time (+ (* (sin time) 2) (* (- i 1) 3)) 10.0)))
      (++ i 2))
    frame))

(def cd-benchmark (num-aircraft)
  (with (aircraft (cd-simulator num-aircraft)
         detector (cd-detector)
         total 0)
    (for i 0 199
      (++ total (cd-vec-size (cd-handle-frame detector
                                              (cd-simulate aircraft (/ i 10.0))))))
    total))

(let collisions (cd-benchmark cd-num-aircraft*)
  (unless (is collisions cd-expected-collisions*)
    (err (string "cd: got " collisions " collisions, expected "
                 cd-expected-collisions*)))
  (prn "cd ok"))
