; mandelbrot (AWFY, after the Computer Language Benchmarks Game): the
; Mandelbrot set over [-1.5, 0.5] x [-1, 1] on a size x size grid, 50 steps
; a point, its bitmap's bytes folded together by xor (bit-xor from som.arc:
; Arc 3.1 has no bitwise operations, so a shift left is a multiplication)
(load "som.arc")

(def mandelbrot (size)
  (with (sum 0 byte-acc 0 bit-num 0)
    (for y 0 (- size 1)
      (let ci (- (/ (* 2.0 y) size) 1.0)
        (for x 0 (- size 1)
          (with (zrzr 0.0 zizi 0.0 zi 0.0
                 cr (- (/ (* 2.0 x) size) 1.5)
                 z 0 not-done t escape 0)
            (while (and not-done (< z 50))
              (let zr (+ (- zrzr zizi) cr)
                (= zi (+ (* 2.0 zr zi) ci))
                ; kept for the next step rather than computed again
                (= zrzr (* zr zr)
                   zizi (* zi zi))
                (when (> (+ zrzr zizi) 4.0)
                  (= not-done nil
                     escape 1))
                (++ z)))
            (= byte-acc (+ (* byte-acc 2) escape))
            (++ bit-num)
            (if (is bit-num 8)
                  (= sum (bit-xor sum byte-acc)
                     byte-acc 0
                     bit-num 0)
                (is x (- size 1))
                  (= byte-acc (* byte-acc (expt 2 (- 8 bit-num)))
                     sum (bit-xor sum byte-acc)
                     byte-acc 0
                     bit-num 0))))))
    sum))

(def verify-result (result size)
  (if (is size 500) (is result 191)
      (is size 750) (is result 50)
      (is size 1) (is result 128)
      (err "mandelbrot: no expected result for size" size)))

(unless (verify-result (mandelbrot 750) 750)
  (err "mandelbrot: wrong result"))
(prn "mandelbrot ok")
