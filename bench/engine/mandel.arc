; floats: the points of a 300x300 grid over [-1.5, 0.5] x [-1, 1] that stay
; within radius 2 for 50 steps of z := z^2 + c (the Mandelbrot set)
(def mandel-steps (cr ci)
  (with (zr 0.0 zi 0.0 i 0)
    (while (and (< i 50) (<= (+ (* zr zr) (* zi zi)) 4.0))
      (let tr (+ (- (* zr zr) (* zi zi)) cr)
        (= zi (+ (* 2.0 zr zi) ci)
           zr tr))
      (++ i))
    i))

(let n 300
  (let inside 0
    (for y 0 (- n 1)
      (for x 0 (- n 1)
        (when (is 50 (mandel-steps (- (/ (* 2.0 x) n) 1.5) (- (/ (* 2.0 y) n) 1.0)))
          (++ inside))))
    (prn inside)))
