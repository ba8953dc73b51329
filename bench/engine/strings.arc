; string building: 200,000 numbers and words printed into a string port
; (tostring with pr in a loop), ten times
(let n 0
  (repeat 10
    (++ n (len (tostring (for i 1 200000 (pr i " " 'x ","))))))
  (prn n))
