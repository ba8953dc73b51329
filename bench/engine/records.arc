; records: objects as tables whose fields are read b!x and written
; (= b!x v): 1,000 bodies of six fields each moving in a 1000x1000 box and
; bouncing off its walls, 3,000 steps, then a checksum over the fields
(def make-body (i)
  (obj x (mod (* i 37) 1000) y (mod (* i 91) 1000)
       vx (- (mod i 7) 3) vy (- (mod i 5) 2) mass (+ 1 (mod i 4)) hits 0))

(def step (bodies)
  (each b bodies
    (let x (+ b!x b!vx)
      (when (or (< x 0) (> x 999))
        (= b!vx (- b!vx))
        (++ b!hits)
        (= x (+ b!x b!vx)))
      (= b!x x))
    (let y (+ b!y b!vy)
      (when (or (< y 0) (> y 999))
        (= b!vy (- b!vy))
        (++ b!hits)
        (= y (+ b!y b!vy)))
      (= b!y y))))

(let bodies (map make-body (range 0 999))
  (repeat 3000 (step bodies))
  (let sum 0
    (each b bodies
      (= sum (+ sum (* b!mass b!x) b!y b!hits)))
    (prn sum)))
