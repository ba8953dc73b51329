; som.arc: the collections and the random numbers the AWFY programs share
; (the suite's own "som" library), written under the suite's porting rules:
; an object is a table whose fields are read v!x and written (= v!x val), an
; array is an integer-keyed table, a method is a function taking the object
; first. The same shapes as som.lua. Indices are 0-based, as Arc's are.
; A program loads it with (load "som.arc") from the directory it runs in
; (run.sh runs every program from bench/awfy).

; Arc 3.1 has no bitwise operations: these work on non-negative integers a
; bit at a time.
(def bit-and (a b)
  (with (r 0 bit 1)
    (while (and (> a 0) (> b 0))
      (when (and (is (mod a 2) 1) (is (mod b 2) 1))
        (++ r bit))
      (= a (trunc (/ a 2)) b (trunc (/ b 2)) bit (* bit 2)))
    r))

(def bit-xor (a b)
  (with (r 0 bit 1)
    (while (or (> a 0) (> b 0))
      (unless (is (mod a 2) (mod b 2))
        (++ r bit))
      (= a (trunc (/ a 2)) b (trunc (/ b 2)) bit (* bit 2)))
    r))

; The suite's pseudo-random numbers: a 16-bit linear congruential generator
; (its mask by 65535 is a mod, the seed never being negative).
(def new-random ()
  (obj seed 74755))

(def random-next (r)
  (= r!seed (mod (+ (* r!seed 1309) 13849) 65536)))

; Vector: a growable array. Its elements are at first .. last-1 of storage,
; an integer-keyed table of capacity cap (nil until the first element).
(def new-vector ((o size 0))
  (if (> size 0)
      (obj first 0 last 0 storage (table) cap size)
      (obj first 0 last 0 cap 0)))

(def vector-with (x)
  (let v (new-vector 1)
    (vec-append v x)
    v))

(def vec-grow (v n)
  (let new (table)
    (for i 0 (- v!cap 1)
      (= (new i) (v!storage i)))
    (= v!storage new v!cap n)))

(def vec-at (v i)
  (if (and v!storage (< i v!cap))
      (v!storage i)))

(def vec-at-put (v i x)
  (if (no v!storage)
        (= v!storage (table) v!cap (max (+ i 1) 10))
      (>= i v!cap)
        (let n v!cap
          (while (>= i n) (= n (* n 2)))
          (vec-grow v n)))
  (= (v!storage i) x)
  (when (< v!last (+ i 1))
    (= v!last (+ i 1))))

(def vec-append (v x)
  (if (no v!storage)
        (= v!storage (table) v!cap 10)
      (>= v!last v!cap)
        (vec-grow v (* 2 v!cap)))
  (= (v!storage v!last) x)
  (++ v!last))

(def vec-empty (v)
  (is v!last v!first))

(def vec-size (v)
  (- v!last v!first))

(def vec-capacity (v)
  v!cap)

(def vec-each (v f)
  (for i v!first (- v!last 1)
    (f (v!storage i))))

(def vec-some (v f)
  (catch
    (for i v!first (- v!last 1)
      (if (f (v!storage i)) (throw t)))
    nil))

(def vec-get-one (v f)
  (catch
    (for i v!first (- v!last 1)
      (let x (v!storage i)
        (if (f x) (throw x))))
    nil))

(def vec-remove-first (v)
  (unless (vec-empty v)
    (++ v!first)
    (v!storage (- v!first 1))))

; Removes every element that is x; says whether there was one.
(def vec-remove (v x)
  (if (or (no v!storage) (vec-empty v))
      nil
      (with (fresh (table) last 0 found nil)
        (vec-each v (fn (y)
                      (if (is y x)
                          (= found t)
                          (do (= (fresh last) y)
                              (++ last)))))
        (= v!storage fresh v!first 0 v!last last)
        found)))

(def vec-remove-all (v)
  (= v!first 0 v!last 0)
  (when v!storage
    (= v!storage (table))))

; Sorts in place by (before a b): should a come before b. The same
; median-of-three quicksort as the suite's.
(def vec-sort (v before)
  (when (> (vec-size v) 0)
    (vec-sort-range v v!first (- v!last 1) before)))

(def vec-sort-range (v i j before)
  (let n (- (+ j 1) i)
    (when (> n 1)
      (withs (s v!storage di (s i) dj (s j))
        (unless (before di dj)
          (swap (s i) (s j))
          (swap di dj))
        (when (> n 2)
          (withs (ij (trunc (/ (+ i j) 2)) dij (s ij))
            (if (before di dij)
                (unless (before dij dj)
                  (swap (s j) (s ij))
                  (= dij dj))
                (do (swap (s i) (s ij))
                    (= dij di)))
            (when (> n 3)
              (with (k i l (- j 1))
                (catch
                  (while t
                    (while (and (<= k l) (before dij (s l)))
                      (-- l))
                    (++ k)
                    (while (and (<= k l) (before (s k) dij))
                      (++ k))
                    (when (> k l) (throw nil))
                    (swap (s k) (s l))))
                (vec-sort-range v i l before)
                (vec-sort-range v k j before)))))))))

; Set: a Vector without duplicates. Elements are compared with is, which
; is identity for tables: an identity set is the same thing.
(def new-set ((o size 10))
  (obj items (new-vector size)))

(def new-identity-set ((o size 10))
  (new-set size))

(def set-size (s) (vec-size s!items))
(def set-each (s f) (vec-each s!items f))
(def set-some (s f) (vec-some s!items f))
(def set-get-one (s f) (vec-get-one s!items f))
(def set-remove-all (s) (vec-remove-all s!items))

(def set-contains (s x)
  (set-some s (fn (y) (is y x))))

(def set-add (s x)
  (unless (set-contains s x)
    (vec-append s!items x)))

(def set-collect (s f)
  (let out (new-vector)
    (set-each s (fn (x) (vec-append out (f x))))
    out))

; Dictionary: a hash table of chained entries, its buckets an array of
; nbuckets (a power of two). A key is an object whose field custom-hash
; holds a function giving the key's hash, a non-negative integer (the
; suite's keys answer the custom_hash message). Keys are compared with is:
; an identity dictionary is the same thing.
(def new-dict ((o size 16))
  (obj buckets (table) nbuckets size size 0))

(def new-identity-dict ((o size 16))
  (new-dict size))

(def new-entry (hash key value next)
  (obj hash hash key key value value next next))

(def dict-hash (key)
  (if (no key)
      0
      (let h (key!custom-hash key)
        (bit-xor h (trunc (/ h 65536))))))

; The suite masks the hash by nbuckets-1: a mod, nbuckets being a power of 2.
(def dict-bucket-index (d hash)
  (mod hash d!nbuckets))

(def dict-empty (d)
  (is d!size 0))

(def dict-at (d key)
  (let hash (dict-hash key)
    (catch
      (let e (d!buckets (dict-bucket-index d hash))
        (while e
          (when (and (is e!hash hash) (is e!key key))
            (throw e!value))
          (= e e!next)))
      nil)))

(def dict-contains-key (d key)
  (let hash (dict-hash key)
    (catch
      (let e (d!buckets (dict-bucket-index d hash))
        (while e
          (when (and (is e!hash hash) (is e!key key))
            (throw t))
          (= e e!next)))
      nil)))

(def dict-at-put (d key value)
  (withs (hash (dict-hash key)
          i (dict-bucket-index d hash)
          e (d!buckets i))
    (if (no e)
        (do (= (d!buckets i) (new-entry hash key value nil))
            (++ d!size))
        (catch
          (while t
            (when (and (is e!hash hash) (is e!key key))
              (= e!value value)
              (throw nil))
            (unless e!next
              (= e!next (new-entry hash key value nil))
              (++ d!size)
              (throw nil))
            (= e e!next))))
    (when (> d!size d!nbuckets)
      (dict-resize d))))

(def dict-resize (d)
  (withs (old d!buckets n d!nbuckets new (table))
    (= d!buckets new d!nbuckets (* 2 n))
    (for i 0 (- n 1)
      (let e (old i)
        (when e
          (= (old i) nil)
          (if (no e!next)
              (= (new (mod e!hash (* 2 n))) e)
              ; split the chain by the hash bit that the doubled size adds
              (with (lo-head nil lo-tail nil hi-head nil hi-tail nil)
                (while e
                  (if (is (bit-and e!hash n) 0)
                      (do (if lo-tail (= lo-tail!next e) (= lo-head e))
                          (= lo-tail e))
                      (do (if hi-tail (= hi-tail!next e) (= hi-head e))
                          (= hi-tail e)))
                  (= e e!next))
                (when lo-tail
                  (= lo-tail!next nil)
                  (= (new i) lo-head))
                (when hi-tail
                  (= hi-tail!next nil)
                  (= (new (+ i n)) hi-head)))))))))

(def dict-remove-all (d)
  (= d!buckets (table) d!size 0))

(def dict-keys (d)
  (let out (new-vector d!size)
    (for i 0 (- d!nbuckets 1)
      (let e (d!buckets i)
        (while e
          (vec-append out e!key)
          (= e e!next))))
    out))

(def dict-values (d)
  (let out (new-vector d!size)
    (for i 0 (- d!nbuckets 1)
      (let e (d!buckets i)
        (while e
          (vec-append out e!value)
          (= e e!next))))
    out))
