; havlak: Havlak's loop recognition (AWFY's Havlak) over a generated
; control-flow graph of 5,213 basic blocks. Objects are tables with fields
; read b!x and written (= b!x v); methods are functions taking the object
; (nothing here dispatches on class); AWFY's Vector, Set and
; IdentityDictionary are written below the same way, their storage
; integer-keyed tables.
;
; The inner iteration count (dummy loops found on the small graph) is 150,
; one of AWFY's verified counts; the repeated searches over the big graph
; are 2 rather than AWFY's 51, to fit the bench's time, which leaves the
; verified result unchanged (their loop structures are thrown away).

(= hav-inner-iterations* 150
   hav-find-loop-iterations* 1
   hav-unvisited* 2147483647
   hav-max-non-back* (* 32 1024))

; Vector: a growable array from index first to last - 1; cap is AWFY's
; capacity, doubled when an element goes past it.

(def hav-vec ((o cap 50))
  (obj storage (table) cap cap first 1 last 1))

(def hav-vec-at (v i)
  (unless (> i v!cap)
    (v!storage i)))

(def hav-vec-put (v i x)
  (when (> i v!cap)
    (let cap v!cap
      (while (> i cap)
        (= cap (* cap 2)))
      (= v!cap cap)))
  (= (v!storage i) x)
  (when (< v!last (+ i 1))
    (= v!last (+ i 1))))

(def hav-vec-append (v x)
  (when (> v!last v!cap)
    (= v!cap (* 2 v!cap)))
  (= (v!storage v!last) x)
  (++ v!last))

(def hav-vec-empty (v) (is v!last v!first))

(def hav-vec-size (v) (- v!last v!first))

(def hav-vec-each (v f)
  (let s v!storage
    (for i v!first (- v!last 1)
      (f (s i)))))

(def hav-vec-some (v f)
  (with (s v!storage i v!first found nil)
    (while (and (no found) (< i v!last))
      (if (f (s i))
          (= found t)
          (++ i)))
    found))

(def hav-vec-pop-first (v)
  (unless (hav-vec-empty v)
    (++ v!first)
    (v!storage (- v!first 1))))

(def hav-vec-clear (v)
  (= v!first 1 v!last 1 v!storage (table)))

; Set and IdentitySet: a vector searched for an identical element.

(def hav-set ((o cap 10)) (obj items (hav-vec cap)))

(def hav-set-size (s) (hav-vec-size s!items))

(def hav-set-each (s f) (hav-vec-each s!items f))

(def hav-set-has (s x) (hav-vec-some s!items [is _ x]))

(def hav-set-add (s x)
  (unless (hav-set-has s x)
    (hav-vec-append s!items x)))

; IdentityDictionary: chained buckets, doubled and split when the entries
; outnumber them. A key's hash is its custom hash, a block's name; AWFY
; also xors in the hash shifted right 16 bits, which Arc has no operator
; for, and which is 0 for names under 65,536, as all of these are.

(def hav-dict ((o n 16)) (obj buckets (table) nbuckets n size 0))

(def hav-hash (key) (if key key!name 0))

(def hav-dict-at (d key)
  (withs (h (hav-hash key)
          e (d!buckets (mod h d!nbuckets)))
    (while (and e (no (and (is e!hash h) (is e!key key))))
      (= e e!next))
    (and e e!value)))

(def hav-dict-put (d key val)
  (withs (h (hav-hash key)
          i (mod h d!nbuckets)
          e (d!buckets i))
    (if e
        (hav-dict-chain d key val h e)
        (do (= (d!buckets i) (obj hash h key key value val))
            (++ d!size)))
    (when (> d!size d!nbuckets)
      (hav-dict-resize d))))

; Sets key's value in the chain starting at e, or adds an entry at its end.
(def hav-dict-chain (d key val h e)
  (while e
    (if (and (is e!hash h) (is e!key key))
          (= e!value val e nil)
        (no e!next)
          (do (++ d!size)
              (= e!next (obj hash h key key value val) e nil))
          (= e e!next))))

(def hav-dict-resize (d)
  (with (old d!buckets n d!nbuckets)
    (= d!buckets (table) d!nbuckets (* n 2))
    (for i 0 (- n 1)
      (whenlet e (old i)
        (if e!next
            (hav-dict-split d n i e)
            (= (d!buckets (mod e!hash d!nbuckets)) e))))))

; A chain of old bucket i goes to bucket i or i + n by the hash's next bit.
(def hav-dict-split (d n i e)
  (with (lo-head nil lo-tail nil hi-head nil hi-tail nil)
    (while e
      (if (even (trunc (/ e!hash n)))
          (do (if lo-tail (= lo-tail!next e) (= lo-head e))
              (= lo-tail e))
          (do (if hi-tail (= hi-tail!next e) (= hi-head e))
              (= hi-tail e)))
      (= e e!next))
    (when lo-tail
      (= lo-tail!next nil (d!buckets i) lo-head))
    (when hi-tail
      (= hi-tail!next nil (d!buckets (+ i n)) hi-head))))

(def hav-dict-clear (d)
  (= d!buckets (table) d!size 0))

; The graph

(def hav-bb (name)
  (obj name name in-edges (hav-vec 2) out-edges (hav-vec 2)))

(def hav-cfg () (obj start nil blocks (hav-vec) edges (hav-vec)))

(def hav-cfg-size (cfg) (hav-vec-size cfg!blocks))

(def hav-cfg-node (cfg name)
  (let node (or (hav-vec-at cfg!blocks name)
                (let bb (hav-bb name)
                  (hav-vec-put cfg!blocks name bb)
                  bb))
    (when (is (hav-cfg-size cfg) 1)
      (= cfg!start node))
    node))

(def hav-cfg-edge (cfg from-name to-name)
  (with (from (hav-cfg-node cfg from-name)
         to (hav-cfg-node cfg to-name))
    (hav-vec-append from!out-edges to)
    (hav-vec-append to!in-edges from)
    (hav-vec-append cfg!edges (obj from from to to))))

; The loop structure

(def hav-loop (bb reducible)
  (let l (obj header bb reducible reducible parent nil root nil
              nesting 0 depth 0 counter 0
              blocks (hav-set) children (hav-set))
    (when bb
      (hav-set-add l!blocks bb))
    l))

(def hav-loop-set-parent (l parent)
  (= l!parent parent)
  (hav-set-add parent!children l))

(def hav-loop-set-nesting (l level)
  (= l!nesting level)
  (when (is level 0)
    (= l!root t)))

(def hav-lsg ()
  (let root (hav-loop nil t)
    (hav-loop-set-nesting root 0)
    (= root!counter 0)
    (let lsg (obj counter 1 loops (hav-vec) root root)
      (hav-vec-append lsg!loops root)
      lsg)))

(def hav-lsg-new-loop (lsg bb reducible)
  (let l (hav-loop bb reducible)
    (= l!counter lsg!counter)
    (++ lsg!counter)
    (hav-vec-append lsg!loops l)
    l))

(def hav-lsg-nesting (lsg)
  (hav-vec-each lsg!loops
    (fn (l)
      (unless (or l!root l!parent)
        (hav-loop-set-parent l lsg!root))))
  (hav-lsg-nesting-rec lsg!root 0))

(def hav-lsg-nesting-rec (l depth)
  (= l!depth depth)
  (hav-set-each l!children
    (fn (child)
      (hav-lsg-nesting-rec child (+ depth 1))
      (hav-loop-set-nesting l (max l!nesting (+ 1 child!nesting))))))

(def hav-lsg-size (lsg) (hav-vec-size lsg!loops))

; Union-find over the DFS-numbered nodes

(def hav-uf () (obj dfs 0 parent nil bb nil loop nil))

(def hav-uf-init (u bb dfs)
  (= u!parent u u!bb bb u!dfs dfs u!loop nil))

(def hav-uf-find (u)
  (with (path (hav-vec) node u)
    (while (isnt node node!parent)
      (when (isnt node!parent node!parent!parent)
        (hav-vec-append path node))
      (= node node!parent))
    ; Path compression: every node on the path now points at the root's child.
    (hav-vec-each path (fn (x) (= x!parent u!parent)))
    node))

; The loop finder

(def hav-finder (cfg lsg)
  (obj cfg cfg lsg lsg non-back (hav-vec) back (hav-vec) number (hav-dict)
       max-size 0 header nil type nil last nil nodes nil))

(def hav-ancestor (f w v)
  (and (<= w v) (<= v (f!last w))))

(def hav-dfs (f node current)
  (hav-uf-init (f!nodes current) node current)
  (hav-dict-put f!number node current)
  (let last-id current
    (hav-vec-each node!out-edges
      (fn (target)
        (when (is (hav-dict-at f!number target) hav-unvisited*)
          (= last-id (hav-dfs f target (+ last-id 1))))))
    (= (f!last current) last-id)
    last-id))

(def hav-init-nodes (f)
  (hav-vec-each f!cfg!blocks
    (fn (bb) (hav-dict-put f!number bb hav-unvisited*)))
  (hav-dfs f f!cfg!start 1))

(def hav-identify-edges (f size)
  (for w 1 size
    (= (f!header w) 1 (f!type w) 'nonheader)
    (iflet node-w ((f!nodes w) 'bb)
      (hav-process-edges f node-w w)
      (= (f!type w) 'dead))))

(def hav-process-edges (f node-w w)
  (let number f!number
    (when (> (hav-vec-size node-w!in-edges) 0)
      (hav-vec-each node-w!in-edges
        (fn (node-v)
          (let v (hav-dict-at number node-v)
            (unless (is v hav-unvisited*)
              (if (hav-ancestor f w v)
                  (hav-vec-append (hav-vec-at f!back w) v)
                  (hav-set-add (hav-vec-at f!non-back w) v)))))))))

(def hav-find-loops (f)
  (when f!cfg!start
    (let size (hav-cfg-size f!cfg)
      (hav-vec-clear f!non-back)
      (hav-vec-clear f!back)
      (hav-dict-clear f!number)
      (when (> size f!max-size)
        (= f!header (table) f!type (table) f!last (table) f!nodes (table)
           f!max-size size))
      (for i 1 size
        (hav-vec-append f!non-back (hav-set))
        (hav-vec-append f!back (hav-vec))
        (= (f!nodes i) (hav-uf)))
      (hav-init-nodes f)
      (hav-identify-edges f size)
      (= (f!header 0) 0)
      ; In reverse DFS preorder, so inner loop headers come before outer ones.
      (catch
        (down w size 1
          (withs (pool (hav-vec) node-w ((f!nodes w) 'bb))
            (when node-w
              (hav-step-d f w pool)
              (let work (hav-vec)
                (hav-vec-each pool (fn (x) (hav-vec-append work x)))
                (unless (is (hav-vec-size pool) 0)
                  (= (f!type w) 'reducible))
                (until (hav-vec-empty work)
                  (let x (hav-vec-pop-first work)
                    (when (> (hav-set-size (hav-vec-at f!non-back x!dfs))
                             hav-max-non-back*)
                      (throw nil))
                    (hav-step-e f w pool work x)))))
            (when (or (> (hav-vec-size pool) 0) (is (f!type w) 'self))
              (hav-set-loop-attrs f w pool
                (hav-lsg-new-loop f!lsg node-w
                                  (isnt (f!type w) 'irreducible))))))))))

(def hav-step-d (f w pool)
  (hav-vec-each (hav-vec-at f!back w)
    (fn (v)
      (if (isnt v w)
          (hav-vec-append pool (hav-uf-find (f!nodes v)))
          (= (f!type w) 'self)))))

(def hav-step-e (f w pool work x)
  (hav-set-each (hav-vec-at f!non-back x!dfs)
    (fn (i)
      (let ydash (hav-uf-find (f!nodes i))
        (if (no (hav-ancestor f w ydash!dfs))
              (do (= (f!type w) 'irreducible)
                  (hav-set-add (hav-vec-at f!non-back w) ydash!dfs))
            (isnt ydash!dfs w)
              (do (hav-vec-append work ydash)
                  (hav-vec-append pool ydash)))))))

(def hav-set-loop-attrs (f w pool l)
  (let head (f!nodes w)
    (= head!loop l)
    (hav-vec-each pool
      (fn (node)
        (= (f!header node!dfs) w
           node!parent head)
        (if node!loop
            (hav-loop-set-parent node!loop l)
            (hav-set-add l!blocks node!bb))))))

; The test application: builds the graph and runs the finder on it

(def hav-app ()
  (let app (obj cfg (hav-cfg) lsg (hav-lsg))
    (hav-cfg-node app!cfg 1)
    app))

(def hav-connect (app from to) (hav-cfg-edge app!cfg from to))

(def hav-diamond (app start)
  (hav-connect app start (+ start 1))
  (hav-connect app start (+ start 2))
  (hav-connect app (+ start 1) (+ start 3))
  (hav-connect app (+ start 2) (+ start 3))
  (+ start 3))

(def hav-straight (app start n)
  (for i 1 n
    (hav-connect app (+ start i -1) (+ start i)))
  (+ start n))

(def hav-base-loop (app from)
  (withs (header (hav-straight app from 1)
          diamond1 (hav-diamond app header)
          d11 (hav-straight app diamond1 1)
          diamond2 (hav-diamond app d11)
          footer (hav-straight app diamond2 1))
    (hav-connect app diamond2 d11)
    (hav-connect app diamond1 header)
    (hav-connect app footer from)
    (hav-straight app footer 1)))

(def hav-simple-cfg (app)
  (hav-cfg-node app!cfg 1)
  (hav-base-loop app 1)
  (hav-cfg-node app!cfg 2)
  (hav-connect app 1 3))

(def hav-build-cfg (app par-loops ppar-loops pppar-loops)
  (let n 3
    (repeat par-loops
      (hav-cfg-node app!cfg (+ n 1))
      (hav-connect app 3 (+ n 1))
      (++ n)
      (repeat ppar-loops
        (let top n
          (= n (hav-straight app n 1))
          (repeat pppar-loops
            (= n (hav-base-loop app n)))
          (let bottom (hav-straight app n 1)
            (hav-connect app n top)
            (= n bottom))))
      (hav-connect app n 1))))

(def hav-app-find-loops (app lsg)
  (hav-find-loops (hav-finder app!cfg lsg)))

(def hav-main (app dummy-loops find-loop-iterations par-loops ppar-loops pppar-loops)
  (hav-simple-cfg app)
  (repeat dummy-loops
    (hav-app-find-loops app app!lsg))
  (hav-build-cfg app par-loops ppar-loops pppar-loops)
  (hav-app-find-loops app app!lsg)
  (repeat (+ find-loop-iterations 1)
    (hav-app-find-loops app (hav-lsg)))
  (hav-lsg-nesting app!lsg)
  (list (hav-lsg-size app!lsg) (hav-cfg-size app!cfg)))

(let (loops nodes) (hav-main (hav-app) hav-inner-iterations*
                             hav-find-loop-iterations* 10 10 5)
  (unless (and (is loops 2052) (is nodes 5213))
    (err (string "havlak: got " loops " loops and " nodes
                 " nodes, expected 2052 and 5213")))
  (prn "havlak ok"))
