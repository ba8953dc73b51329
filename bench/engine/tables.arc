; hash tables with string keys: 200,000 inserts, then 200,000 lookups
(assign h (table))
(assign fill (fn (i) (if (is i 0) nil ((fn () (sref h i (coerce i 'string)) (fill (- i 1)))))))
(assign look (fn (i n) (if (is i 0) n (look (- i 1) (+ n (len (coerce (h (coerce i 'string)) 'string)))))))
(fill 200000)
(disp (look 200000 0)) (disp "\n")
