; bench/html/render.arc — a news-like front page rendered into a string with
; html.arc's macros: a header bar of links, 30 stories (a row of rank, vote
; arrow, escaped title and site, a row of score, author, age and comment
; link), a footer with a form; about 20 KB of output, mostly ASCII, with
; Latin-1 (é, ü, ñ) and wider characters (CJK, an arrow, an emoji) in the
; titles, and & < > " in them escaped by eschtml. Run by bench/html/run.sh.
;
;   arcana render.arc [PAGES]      PAGES pages (default 1000) with tostring
;
; The first page is checked against its known length and checksum (and a
; few of its parts), and every page against the first's length, so that a
; printer that went wrong or printed nothing cannot pass for a fast one.
; Printed: PAGE (what was checked), then RESULT pages=N with cpu-us and
; wall-us (microseconds), objects and bytes, each per page; the allocations are the
; collector's (gc-stats) figures over the loop.

(= titles* '("Show HN: A bytecode VM for Arc in C++20"
             "Why <script> tags & \"quotes\" need escaping"
             "Café culture and the économie of small things"
             "Über-fast JSON parsing with SIMD"
             "The year of Linux on the desktop (again)"
             "東京の小さな図書館 — a library in Tokyo"
             "Rust vs. C++: 10 years later"
             "Ask HN: What's your favourite <blink> tag?"
             "Piñata: fuzzing with random trees"
             "A → B: notes on rewriting systems"
             "How we cut our AWS bill by 40% & kept our sanity"
             "Lisp in 100 lines of Python"
             "The naïve approach to garbage collection 🚀"
             "Paul Graham: The roots of Lisp"
             "SQLite is not a toy database"))

(= sites* '("github.com" "example.org" "lemonde.fr" "heise.de" "lwn.net"
            "nikkei.co.jp" "blog.rust-lang.org" "news.ycombinator.com"
            "arxiv.org" "paulgraham.com"))

(= users* '("pg" "rtm" "tlb" "jl" "sctb" "dang" "josé" "müller"))

; 30 stories: tables of id title url site by score age comments.
(= stories*
   (let n 0
     (map (fn (i)
            (let site (sites* (mod i (len sites*)))
              (obj id (+ 4000000 (* i 37))
                   title (titles* (mod i (len titles*)))
                   url (+ "https://" site "/a/" i "?ref=hn&x=" (* i i))
                   site site
                   by (users* (mod (* i 3) (len users*)))
                   score (- 500 (* i 13))
                   age (+ 1 (* i 2))
                   comments (* (mod i 7) 23))))
          (range 0 29))))

(def page-header ()
  (tr (tdcolor orange
        (tag (table border 0 cellpadding 0 cellspacing 0 width "100%" style "padding:2px")
          (tr (tag (td style "width:18px;padding-right:4px")
                (tag (a href "news")
                  (gentag img src "y18.gif" width 18 height 18 border 0)))
              (tag (td style "line-height:12pt; height:10px;")
                (spanclass pagetop
                  (tag b (link "Hacker News" "news"))
                  (hspace 10)
                  (link "new" "newest") (pr bar*)
                  (link "comments" "newcomments") (pr bar*)
                  (link "ask" "ask") (pr bar*)
                  (link "show" "show") (pr bar*)
                  (link "submit" "submit")))
              (tag (td style "text-align:right;padding-right:4px;")
                (spanclass pagetop (link "login" "login?goto=news")))))))
  (spacerow 10))

(def story-rows (rank s)
  (tr (tag (td align 'right valign 'top class "title") (pr rank "."))
      (tag (td valign 'top)
        (center
          (tag (a id (+ "up_" s!id) href (+ "vote?for=" s!id "&dir=up&goto=news"))
            (gentag img src "grayarrow.gif" border 0 vspace 3 hspace 2))))
      (tag (td class "title")
        (tag (a href (esc-attr s!url) class "storylink") (pr (eschtml s!title)))
        (spanclass comhead (pr " (" (eschtml s!site) ") "))))
  (tr (td)
      (td)
      (tag (td class "subtext")
        (tag (span id (+ "score_" s!id)) (pr s!score " points"))
        (pr " by ")
        (link s!by (+ "user?id=" s!by))
        (pr " " s!age " hours ago")
        (pr bar*)
        (underlink (string s!comments " comments") (+ "item?id=" s!id))))
  (spacerow 5))

(def page-footer ()
  (tr (tag (td colspan 3)
        (gentag img src "s.gif" height 10 width 0)
        (tag (table width "100%" cellspacing 0 cellpadding 1)
          (tr (tag (td bgcolor orange))))
        (br)
        (center
          (spanclass yclinks
            (each (text dest) '(("Guidelines" "newsguidelines.html")
                                ("FAQ" "newsfaq.html")
                                ("Lists" "lists")
                                ("API" "https://github.com/HackerNews/API")
                                ("Security" "security.html")
                                ("Legal" "legal.html"))
              (link text dest)
              (pr bar*))
            (link "Contact" "mailto:hn@example.com"))
          (br2)
          (form "search"
            (pr "Search: ")
            (gentag input type 'text name "q" value "" size 17))))))

(def front-page ()
  (prn "<!DOCTYPE html>")
  (whitepage
    (center
      (tag (table border 0 cellpadding 0 cellspacing 0 width "85%" bgcolor (gray 246))
        (page-header)
        (tr (td (zerotable
                  (let rank 0
                    (each s stories*
                      (story-rows (++ rank) s))))))
        (page-footer)))))

; A checksum of s: every character's code, weighted by its position mod
; 251, summed mod 2^31.
(def checksum (s)
  (let sum 0
    (forlen i s
      (= sum (mod (+ sum (* (int (s i)) (+ 1 (mod i 251)))) 2147483648)))
    sum))

(def page-check (what ok)
  (unless ok
    (prn "render.arc: the page is wrong: " what)
    (quit 1)))

(let page (tostring (front-page))
  (page-check "length" (is (len page) 19706))
  (page-check "checksum" (is (checksum page) 270452313))
  (page-check "escaped title" (posmatch "Why &#60;script&#62; tags &#38; &#34;quotes&#34; need" page))
  (page-check "Latin-1 title" (posmatch "Café culture and the économie" page))
  (page-check "wide title" (posmatch "東京の小さな図書館 — a library" page))
  (page-check "emoji" (posmatch "collection 🚀</a>" page))
  (page-check "escaped url" (posmatch "href=\"https://lemonde.fr/a/2?ref=hn&#38;x=4\"" page))
  (page-check "end" (endmatch "</table></center></body></html>" page))
  (prn "PAGE chars=" (len page) " checksum=" (checksum page)))

(let pages (if argv (int (car argv)) 1000)
  (let expected (len (tostring (front-page)))
    (gc)
    (withs (s0 (gc-stats) t0 (msec) total 0)
      (repeat pages
        (let page (tostring (front-page))
          (page-check "a page's length" (is (len page) expected))
          (++ total (len page))))
      (withs (t1 (msec) s1 (gc-stats)
              per (fn (key) (/ (- (s1 key) (s0 key)) (max pages 1))))
        (page-check "the total" (is total (* pages expected)))
        (prn "RESULT pages=" pages
             " cpu-us=" (round (* 1000 (per 'cpu-ms)))
             " wall-us=" (round (/ (* 1000 (- t1 t0)) (max pages 1)))
             " objects=" (round (per 'allocated-objects))
             " bytes=" (round (per 'allocated-bytes)))))))
