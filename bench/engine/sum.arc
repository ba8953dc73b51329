; a 10,000,000-iteration for loop summing into a let local
(let s 0
  (for i 1 10000000 (++ s i))
  (prn s))
