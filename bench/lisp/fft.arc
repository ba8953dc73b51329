; fft: an in-place radix-2 FFT (Numerical Recipes' four1) over 512 complex
; numbers held as 1,024 floats in a table keyed by integers: float
; arithmetic, sin, and table reads and writes. The data is all zeros, as
; in Gabriel's version, so element 0 comes out 0.0. Run ITERS times.
(= iters 200)

(def half (n) (trunc (/ n 2)))

(def four1 (data n)
  ; put the elements in bit-reversed order
  (with (i 0 j 0)
    (while (< i n)
      (when (< i j)
        (swap (data i) (data j))
        (swap (data (+ i 1)) (data (+ j 1))))
      (let m (half n)
        (while (and (>= m 2) (>= j m))
          (= j (- j m)
             m (half m)))
        (= j (+ j m)))
      (= i (+ i 2))))
  ; Danielson-Lanczos: combine transforms of length mmax/2 into mmax
  (let mmax 2
    (while (< mmax n)
      (withs (theta (/ 6.28318530717959 (* 1.0 mmax))
              s (sin (* 0.5 theta))
              wpr (* -2.0 (* s s))
              wpi (sin theta)
              wr 1.0
              wi 0.0
              m 0)
        (while (< m mmax)
          (let i m
            (while (< i n)
              (withs (j (+ i mmax)
                      tempr (- (* wr (data j)) (* wi (data (+ j 1))))
                      tempi (+ (* wr (data (+ j 1))) (* wi (data j))))
                (= (data j) (- (data i) tempr)
                   (data (+ j 1)) (- (data (+ i 1)) tempi)
                   (data i) (+ (data i) tempr)
                   (data (+ i 1)) (+ (data (+ i 1)) tempi)
                   i (+ j mmax)))))
          (let wr0 wr
            (= wr (+ (- (* wr wpr) (* wi wpi)) wr)
               wi (+ (+ (* wi wpr) (* wr0 wpi)) wi)))
          (= m (+ m 2))))
      (= mmax (* mmax 2)))))

(= data (table))
(for i 0 1023 (= (data i) 0.0))

(def run-fft ()
  (four1 data 1024)
  (data 0))

(def bench (n thunk)
  (let r nil (repeat n (= r (thunk))) r))
(def verify (got want)
  (prn got)
  (unless (iso got want) (err "fft: wrong result, expected" want)))

(verify (bench iters run-fft) 0.0)
