; nbody (AWFY, after the Computer Language Benchmarks Game): the Jovian
; planets and the sun orbiting, advanced in steps of 0.01 years, the
; system's energy checked at the end; bodies are objects with float fields,
; the system an object holding them in an integer-keyed table
(= solar-mass* (* 4.0 3.141592653589793 3.141592653589793)
   days-per-year* 365.24)

(def new-body (x y z vx vy vz mass)
  (obj x x y y z z
       vx (* vx days-per-year*)
       vy (* vy days-per-year*)
       vz (* vz days-per-year*)
       mass (* mass solar-mass*)))

(def offset-momentum (b px py pz)
  (= b!vx (- 0.0 (/ px solar-mass*))
     b!vy (- 0.0 (/ py solar-mass*))
     b!vz (- 0.0 (/ pz solar-mass*))))

(def jupiter ()
  (new-body 4.84143144246472090e+00 -1.16032004402742839e+00
            -1.03622044471123109e-01 1.66007664274403694e-03
            7.69901118419740425e-03 -6.90460016972063023e-05
            9.54791938424326609e-04))

(def saturn ()
  (new-body 8.34336671824457987e+00 4.12479856412430479e+00
            -4.03523417114321381e-01 -2.76742510726862411e-03
            4.99852801234917238e-03 2.30417297573763929e-05
            2.85885980666130812e-04))

(def uranus ()
  (new-body 1.28943695621391310e+01 -1.51111514016986312e+01
            -2.23307578892655734e-01 2.96460137564761618e-03
            2.37847173959480950e-03 -2.96589568540237556e-05
            4.36624404335156298e-05))

(def neptune ()
  (new-body 1.53796971148509165e+01 -2.59193146099879641e+01
            1.79258772950371181e-01 2.68067772490389322e-03
            1.62824170038242295e-03 -9.51592254519715870e-05
            5.15138902046611451e-05))

(def sun ()
  (new-body 0.0 0.0 0.0 0.0 0.0 0.0 1.0))

(def create-bodies ()
  (let bodies (table)
    (= (bodies 0) (sun)
       (bodies 1) (jupiter)
       (bodies 2) (saturn)
       (bodies 3) (uranus)
       (bodies 4) (neptune))
    (with (px 0.0 py 0.0 pz 0.0)
      (for i 0 (- (len bodies) 1)
        (let b (bodies i)
          (= px (+ px (* b!vx b!mass))
             py (+ py (* b!vy b!mass))
             pz (+ pz (* b!vz b!mass)))))
      (offset-momentum (bodies 0) px py pz))
    bodies))

(def new-nbody-system ()
  (obj bodies (create-bodies)))

(def advance (system dt)
  (withs (bodies system!bodies n (len bodies))
    (for i 0 (- n 1)
      (let ib (bodies i)
        (for j (+ i 1) (- n 1)
          (withs (jb (bodies j)
                  dx (- ib!x jb!x)
                  dy (- ib!y jb!y)
                  dz (- ib!z jb!z)
                  d2 (+ (* dx dx) (* dy dy) (* dz dz))
                  distance (sqrt d2)
                  mag (/ dt (* d2 distance)))
            (= ib!vx (- ib!vx (* dx jb!mass mag))
               ib!vy (- ib!vy (* dy jb!mass mag))
               ib!vz (- ib!vz (* dz jb!mass mag)))
            (= jb!vx (+ jb!vx (* dx ib!mass mag))
               jb!vy (+ jb!vy (* dy ib!mass mag))
               jb!vz (+ jb!vz (* dz ib!mass mag)))))))
    (for i 0 (- n 1)
      (let b (bodies i)
        (= b!x (+ b!x (* dt b!vx))
           b!y (+ b!y (* dt b!vy))
           b!z (+ b!z (* dt b!vz)))))))

(def energy (system)
  (withs (e 0.0 bodies system!bodies n (len bodies))
    (for i 0 (- n 1)
      (let ib (bodies i)
        (= e (+ e (* 0.5 ib!mass (+ (* ib!vx ib!vx)
                                    (* ib!vy ib!vy)
                                    (* ib!vz ib!vz)))))
        (for j (+ i 1) (- n 1)
          (withs (jb (bodies j)
                  dx (- ib!x jb!x)
                  dy (- ib!y jb!y)
                  dz (- ib!z jb!z)
                  distance (sqrt (+ (* dx dx) (* dy dy) (* dz dz))))
            (= e (- e (/ (* ib!mass jb!mass) distance)))))))
    e))

(def verify-result (result steps)
  (if (is steps 250000) (is result -0.1690859889909308)
      (is steps 1) (is result -0.16907495402506745)
      (err "nbody: no expected result for steps" steps result)))

(def run (steps)
  (let system (new-nbody-system)
    (repeat steps
      (advance system 0.01))
    (verify-result (energy system) steps)))

(unless (run 250000)
  (err "nbody: wrong result"))
(prn "nbody ok")
