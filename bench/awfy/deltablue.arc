; deltablue: the DeltaBlue incremental constraint solver (Freeman-Benson,
; Maloney and Borning), as the Are We Fast Yet suite has it: a chain of
; equality constraints and a projection of scale constraints, each solved
; for and re-planned as edit constraints come and go. Objects are tables
; with b!x fields and methods are functions taking the object; where the
; original dispatches on a constraint's class (Edit, Stay, Equality,
; Scale), the function dispatches on the constraint's kind field. Vector
; and IdentityDictionary are the suite's som library, written here.

(= db-iterations 5 db-n 2000)

; The som library's growable array: an integer-keyed table, 1-based, with
; a first and last index.
(def db-vector ((o size 50))
  (obj storage (table) capacity size first-idx 1 last-idx 1))

(def db-vector-with (elem)
  (let v (db-vector 1)
    (db-vec-append v elem)
    v))

(def db-vec-at (v idx)
  (if (> idx v!capacity)
      nil
      (v!storage idx)))

(def db-vec-append (v elem)
  (when (> v!last-idx v!capacity)
    (= v!capacity (* 2 v!capacity)))
  (= (v!storage v!last-idx) elem)
  (++ v!last-idx))

(def db-vec-empty (v)
  (is v!last-idx v!first-idx))

(def db-vec-size (v)
  (- v!last-idx v!first-idx))

(def db-vec-each (v f)
  (for i v!first-idx (- v!last-idx 1)
    (f (v!storage i))))

(def db-vec-remove-first (v)
  (unless (db-vec-empty v)
    (++ v!first-idx)
    (v!storage (- v!first-idx 1))))

(def db-vec-remove (v x)
  (with (new-storage (table) new-last 1 found nil)
    (db-vec-each v (fn (it)
                     (if (is it x)
                         (= found t)
                         (do (= (new-storage new-last) it)
                             (++ new-last)))))
    (= v!storage new-storage
       v!last-idx new-last
       v!first-idx 1)
    found))

; Sorts storage i..j by precedes, as the som library does: order the ends
; and the middle, then partition round the middle and recurse.
(def db-vec-sort-range (v i j precedes)
  (let n (- (+ j 1) i)
    (when (> n 1)
      (with (s v!storage di (v!storage i) dj (v!storage j))
        (unless (precedes di dj)
          (swap (s i) (s j))
          (swap di dj))
        (when (> n 2)
          (withs (ij (trunc (/ (+ i j) 2)) dij (s ij))
            (if (precedes di dij)
                (unless (precedes dij dj)
                  (swap (s j) (s ij))
                  (= dij dj))
                (do (swap (s i) (s ij))
                    (= dij di)))
            (when (> n 3)
              (with (k i l (- j 1) done nil)
                (until done
                  (while (and (<= k l) (precedes dij (s l)))
                    (-- l))
                  (++ k)
                  (while (and (<= k l) (precedes (s k) dij))
                    (++ k))
                  (if (> k l)
                      (= done t)
                      (swap (s k) (s l))))
                (db-vec-sort-range v i l precedes)
                (db-vec-sort-range v k j precedes)))))))))

(def db-vec-sort (v precedes)
  (when (> (db-vec-size v) 0)
    (db-vec-sort-range v v!first-idx (- v!last-idx 1) precedes)))

; The som library's hash table of chained entries, keyed by identity with
; the key's own hash. It never grows here: it holds eight strengths. The
; suite hashes h xor (h >> 16); Arc has no bitwise operators, and the
; hashes here are all below 2^16, where that is h itself.
(def db-dictionary ((o size 16))
  (obj buckets (table) capacity size size 0))

(def db-bucket-idx (d h)
  (+ (mod h d!capacity) 1))

(def db-dict-at (d key)
  (let h key!hash
    (let e (d!buckets (db-bucket-idx d h))
      (while (and e (no (and (is e!hash h) (is e!key key))))
        (= e e!next))
      (and e e!value))))

(def db-dict-at-put (d key value)
  (withs (h key!hash i (db-bucket-idx d h) current (d!buckets i))
    (if (no current)
        (do (= (d!buckets i) (obj hash h key key value value))
            (++ d!size))
        (let done nil
          (until done
            (if (and (is current!hash h) (is current!key key))
                (= current!value value done t)
                (no current!next)
                (do (++ d!size)
                    (= current!next (obj hash h key key value value)
                       done t))
                (= current current!next)))))))

(def db-dict-keys (d)
  (let keys (db-vector d!size)
    (for i 1 d!capacity
      (let current (d!buckets i)
        (while current
          (db-vec-append keys current!key)
          (= current current!next))))
    keys))

; Strengths: symbols with a hash, mapped to their arithmetic values.
(= db-absolute-strongest (obj hash 0) db-required (obj hash 1)
   db-strong-preferred (obj hash 2) db-preferred (obj hash 3)
   db-strong-default (obj hash 4) db-default (obj hash 5)
   db-weak-default (obj hash 6) db-absolute-weakest (obj hash 7))

(= db-strength-table (db-dictionary))
(db-dict-at-put db-strength-table db-absolute-strongest -10000)
(db-dict-at-put db-strength-table db-required -800)
(db-dict-at-put db-strength-table db-strong-preferred -600)
(db-dict-at-put db-strength-table db-preferred -400)
(db-dict-at-put db-strength-table db-strong-default -200)
(db-dict-at-put db-strength-table db-default 0)
(db-dict-at-put db-strength-table db-weak-default 500)
(db-dict-at-put db-strength-table db-absolute-weakest 10000)

(= db-strength-constants (db-dictionary))
(db-vec-each (db-dict-keys db-strength-table)
             (fn (key)
               (db-dict-at-put db-strength-constants key
                 (obj symbolic-value key
                      arithmetic-value (db-dict-at db-strength-table key)))))

(def db-strength (s) (db-dict-at db-strength-constants s))

(= db-strength-required (db-strength db-required)
   db-strength-weakest (db-strength db-absolute-weakest))

(def db-same-as (s1 s2) (is s1!arithmetic-value s2!arithmetic-value))
(def db-stronger (s1 s2) (< s1!arithmetic-value s2!arithmetic-value))
(def db-weaker (s1 s2) (> s1!arithmetic-value s2!arithmetic-value))

(def db-weakest (s1 s2)
  (if (db-weaker s2 s1) s2 s1))

; Variables.
(def db-variable ((o value 0))
  (obj value value constraints (db-vector 2) determined-by nil
       walk-strength db-strength-weakest stay t mark 0))

(def db-var-add-constraint (v c)
  (db-vec-append v!constraints c))

(def db-var-remove-constraint (v c)
  (db-vec-remove v!constraints c)
  (when (is v!determined-by c)
    (= v!determined-by nil)))

; Constraints. kind is edit or stay (a unary constraint: its variable is
; out), or equality or scale (a binary one: v1 and v2, and direction,
; forward from v1 to v2, backward, or nil when unsatisfied).
(def db-unary? (c) (in c!kind 'edit 'stay))

(def db-input? (c) (is c!kind 'edit))

(def db-satisfied? (c)
  (if (db-unary? c) c!satisfied c!direction))

(def db-add-to-graph (c)
  (if (db-unary? c)
      (do (db-var-add-constraint c!out c)
          (= c!satisfied nil))
      (do (db-var-add-constraint c!v1 c)
          (db-var-add-constraint c!v2 c)
          (when (is c!kind 'scale)
            (db-var-add-constraint c!scale c)
            (db-var-add-constraint c!offset c))
          (= c!direction nil))))

(def db-remove-from-graph (c)
  (if (db-unary? c)
      (do (when c!out (db-var-remove-constraint c!out c))
          (= c!satisfied nil))
      (do (when c!v1 (db-var-remove-constraint c!v1 c))
          (when c!v2 (db-var-remove-constraint c!v2 c))
          (when (is c!kind 'scale)
            (when c!scale (db-var-remove-constraint c!scale c))
            (when c!offset (db-var-remove-constraint c!offset c)))
          (= c!direction nil))))

(def db-choose-method (c mark)
  (if (db-unary? c)
      (= c!satisfied (and (isnt c!out!mark mark)
                          (db-stronger c!strength c!out!walk-strength)))
      (with (v1 c!v1 v2 c!v2)
        (= c!direction
           (if (is v1!mark mark)
                 (and (isnt v2!mark mark)
                      (db-stronger c!strength v2!walk-strength)
                      'forward)
               (is v2!mark mark)
                 (and (isnt v1!mark mark)
                      (db-stronger c!strength v1!walk-strength)
                      'backward)
               ; neither variable is marked, so there is a choice
               (db-weaker v1!walk-strength v2!walk-strength)
                 (and (db-stronger c!strength v1!walk-strength) 'backward)
               (and (db-stronger c!strength v2!walk-strength) 'forward))))))

(def db-inputs-do (c f)
  (unless (db-unary? c)
    (f (if (is c!direction 'forward) c!v1 c!v2))
    (when (is c!kind 'scale)
      (f c!scale)
      (f c!offset))))

(def db-inputs-has-one (c f)
  (if (db-unary? c)
      nil
      (f (if (is c!direction 'forward) c!v1 c!v2))))

(def db-mark-unsatisfied (c)
  (if (db-unary? c)
      (= c!satisfied nil)
      (= c!direction nil)))

(def db-output (c)
  (if (db-unary? c) c!out
      (is c!direction 'forward) c!v2
      c!v1))

(def db-execute (c)
  (case c!kind
    equality (if (is c!direction 'forward)
                 (= c!v2!value c!v1!value)
                 (= c!v1!value c!v2!value))
    scale (if (is c!direction 'forward)
              (= c!v2!value (+ (* c!v1!value c!scale!value) c!offset!value))
              (= c!v1!value (/ (- c!v2!value c!offset!value) c!scale!value)))))

(def db-recalculate (c)
  (if (db-unary? c)
      (let output c!out
        (= output!walk-strength c!strength
           output!stay (no (db-input? c)))
        (when output!stay
          (db-execute c)))
      (with (ihn (if (is c!direction 'forward) c!v1 c!v2)
             output (if (is c!direction 'forward) c!v2 c!v1))
        (= output!walk-strength (db-weakest c!strength ihn!walk-strength)
           output!stay (and ihn!stay
                         (or (isnt c!kind 'scale)
                             (and c!scale!stay c!offset!stay))))
        (when output!stay
          (db-execute c)))))

(def db-add-constraint (c planner)
  (db-add-to-graph c)
  (db-incremental-add planner c))

(def db-destroy-constraint (c planner)
  (when (db-satisfied? c)
    (db-incremental-remove planner c))
  (db-remove-from-graph c))

(def db-inputs-known (c mark)
  (no (db-inputs-has-one c (fn (v)
                             (no (or (is v!mark mark) v!stay
                                     (no v!determined-by)))))))

(def db-satisfy (c mark planner)
  (db-choose-method c mark)
  (if (db-satisfied? c)
      (let output (db-output c)
        ; mark inputs to allow cycle detection in db-add-propagate
        (db-inputs-do c (fn (i) (= i!mark mark)))
        (let overridden output!determined-by
          (when overridden
            (db-mark-unsatisfied overridden))
          (= output!determined-by c)
          (unless (db-add-propagate planner c mark)
            (err "Cycle encountered adding: Constraint removed"))
          (= output!mark mark)
          overridden))
      (do (when (db-same-as c!strength db-strength-required)
            (err "Failed to satisfy a required constraint"))
          nil)))

(def db-unary (kind v strength planner)
  (let c (obj kind kind strength (db-strength strength) out v satisfied nil)
    (db-add-constraint c planner)
    c))

(def db-binary (kind v1 v2 strength planner (o scale) (o offset))
  (let c (obj kind kind strength (db-strength strength) v1 v1 v2 v2
              direction nil scale scale offset offset)
    (db-add-constraint c planner)
    c))

; The planner.
(def db-planner ()
  (obj current-mark 1))

(def db-new-mark (planner)
  (do1 planner!current-mark
       (++ planner!current-mark)))

(def db-incremental-add (planner c)
  (let mark (db-new-mark planner)
    (let overridden (db-satisfy c mark planner)
      (while overridden
        (= overridden (db-satisfy overridden mark planner))))))

(def db-incremental-remove (planner c)
  (let output (db-output c)
    (db-mark-unsatisfied c)
    (db-remove-from-graph c)
    (db-vec-each (db-remove-propagate-from planner output)
                 (fn (u) (db-incremental-add planner u)))))

(def db-add-constraints-consuming-to (v coll)
  (let determining v!determined-by
    (db-vec-each v!constraints
                 (fn (c)
                   (when (and (isnt c determining) (db-satisfied? c))
                     (db-vec-append coll c))))))

(def db-constraints-consuming (v f)
  (let determining v!determined-by
    (db-vec-each v!constraints
                 (fn (c)
                   (when (and (isnt c determining) (db-satisfied? c))
                     (f c))))))

(def db-make-plan (planner sources)
  (with (mark (db-new-mark planner) plan (db-vector 15) todo sources)
    (until (db-vec-empty todo)
      (withs (c (db-vec-remove-first todo) output (db-output c))
        (when (and (isnt output!mark mark) (db-inputs-known c mark))
          ; not in the plan already and eligible for it
          (db-vec-append plan c)
          (= output!mark mark)
          (db-add-constraints-consuming-to output todo))))
    plan))

(def db-extract-plan (planner constraints)
  (let sources (db-vector)
    (db-vec-each constraints
                 (fn (c)
                   (when (and (db-input? c) (db-satisfied? c))
                     (db-vec-append sources c))))
    (db-make-plan planner sources)))

(def db-add-propagate (planner c mark)
  (let todo (db-vector-with c)
    (point return
      (until (db-vec-empty todo)
        (withs (d (db-vec-remove-first todo) output (db-output d))
          (when (is output!mark mark)
            (db-incremental-remove planner c)
            (return nil))
          (db-recalculate d)
          (db-add-constraints-consuming-to output todo)))
      t)))

(def db-remove-propagate-from (planner output)
  (let unsatisfied (db-vector)
    (= output!determined-by nil
       output!walk-strength db-strength-weakest
       output!stay t)
    (let todo (db-vector-with output)
      (until (db-vec-empty todo)
        (let v (db-vec-remove-first todo)
          (db-vec-each v!constraints
                       (fn (c)
                         (unless (db-satisfied? c)
                           (db-vec-append unsatisfied c))))
          (db-constraints-consuming v (fn (c)
                                        (db-recalculate c)
                                        (db-vec-append todo (db-output c)))))))
    (db-vec-sort unsatisfied (fn (c1 c2) (db-stronger c1!strength c2!strength)))
    unsatisfied))

(def db-execute-plan (plan)
  (db-vec-each plan db-execute))

(def db-change-var (planner var val)
  (let edit (db-unary 'edit var db-preferred planner)
    (let plan (db-extract-plan planner (db-vector-with edit))
      (repeat 10
        (= var!value val)
        (db-execute-plan plan)))
    (db-destroy-constraint edit planner)))

; A chain of equality constraints with a stay at one end; an edit at the
; other end must propagate down the whole chain.
(def db-chain-test (n)
  (let (planner vars) (list (db-planner) (table))
    (for i 1 (+ n 1)
      (= (vars i) (db-variable)))
    (for i 1 n
      (db-binary 'equality (vars i) (vars (+ i 1)) db-required planner))
    (db-unary 'stay (vars (+ n 1)) db-strong-default planner)
    (let edit (db-unary 'edit (vars 1) db-preferred planner)
      (let plan (db-extract-plan planner (db-vector-with edit))
        (for v 1 100
          (= ((vars 1) 'value) v)
          (db-execute-plan plan)
          (unless (is ((vars (+ n 1)) 'value) v)
            (err "Chain test failed"))))
      (db-destroy-constraint edit planner))))

; Two sets of variables related by a scale and an offset; changes on
; either side and to the scale and offset propagate to the other.
(def db-projection-test (n)
  (with (planner (db-planner) dests (db-vector) scale (db-variable 10)
         offset (db-variable 1000) src nil dst nil)
    (for i 1 n
      (= src (db-variable i)
         dst (db-variable i))
      (db-vec-append dests dst)
      (db-unary 'stay src db-default planner)
      (db-binary 'scale src dst db-required planner scale offset))
    (db-change-var planner src 17)
    (unless (is dst!value 1170)
      (err "Projection 1 failed"))
    (db-change-var planner dst 1050)
    (unless (is src!value 5)
      (err "Projection 2 failed"))
    (db-change-var planner scale 5)
    (for i 1 (- n 1)
      (unless (is ((db-vec-at dests i) 'value) (+ (* i 5) 1000))
        (err "Projection 3 failed")))
    (db-change-var planner offset 2000)
    (for i 1 (- n 1)
      (unless (is ((db-vec-at dests i) 'value) (+ (* i 5) 2000))
        (err "Projection 4 failed")))))

(repeat db-iterations
  (db-chain-test db-n)
  (db-projection-test db-n))
(prn "deltablue ok")
