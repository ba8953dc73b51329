; word counts: a 300,000-word text drawn from a 5,000-word vocabulary by a
; Park-Miller sequence, split into words and counted in a table
(let seed 42
  (let text (tostring (repeat 300000
                        (= seed (mod (* seed 16807) 2147483647))
                        (pr "w" (mod seed 5000) " ")))
    (let counts (table)
      (each w (tokens text) (++ (counts w 0)))
      (prn (len counts) " " (counts "w1")))))
