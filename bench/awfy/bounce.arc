; bounce (AWFY): 100 balls at pseudo-random places and speeds moving in a
; 500x500 box for 50 steps, counting their bounces off the walls; a ball
; is an object, its method a function taking it
(load "som.arc")

(def new-ball (random)
  (obj x (mod (random-next random) 500)
       y (mod (random-next random) 500)
       x-vel (- (mod (random-next random) 300) 150)
       y-vel (- (mod (random-next random) 300) 150)))

(def ball-bounce (ball)
  (with (x-limit 500 y-limit 500 bounced nil)
    (= ball!x (+ ball!x ball!x-vel))
    (= ball!y (+ ball!y ball!y-vel))
    (when (> ball!x x-limit)
      (= ball!x x-limit)
      (= ball!x-vel (- 0 (abs ball!x-vel)))
      (= bounced t))
    (when (< ball!x 0)
      (= ball!x 0)
      (= ball!x-vel (abs ball!x-vel))
      (= bounced t))
    (when (> ball!y y-limit)
      (= ball!y y-limit)
      (= ball!y-vel (- 0 (abs ball!y-vel)))
      (= bounced t))
    (when (< ball!y 0)
      (= ball!y 0)
      (= ball!y-vel (abs ball!y-vel))
      (= bounced t))
    bounced))

(def benchmark ()
  (with (random (new-random) ball-count 100 bounces 0 balls (table))
    (for i 0 (- ball-count 1)
      (= (balls i) (new-ball random)))
    (repeat 50
      (for i 0 (- ball-count 1)
        (when (ball-bounce (balls i))
          (++ bounces))))
    bounces))

(def verify-result (result)
  (is result 1331))

(repeat 800
  (unless (verify-result (benchmark))
    (err "bounce: wrong result")))
(prn "bounce ok")
