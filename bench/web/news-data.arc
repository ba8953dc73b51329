; bench/web/news-data.arc — the data set of bench/web/news.sh, made
; through the news site's own functions, as people using it would have:
;
;   build/arcana bench/web/news-data.arc NEWSHOME DATADIR
;
; NEWSHOME is apps/news/ (ending in "/"), DATADIR an empty folder that
; becomes the site's arc/ folder. Made there:
;   - 16 accounts (app.arc's create-acct, model.arc's ensure-news-user),
;     one of them, "reader", the logged-in user of the benchmark, with the
;     cookie a login gets (app.arc's login-cookie: a session's, as the
;     site keeps sessions);
;   - 30 stories (create-story, one of them a text post every fifth), all
;     on the front page;
;   - 138 comments (create-comment, text from md-from-form) in threads
;     that nest, 25 of them under one story (the /item page measured);
;   - votes (vote-for) on stories and comments, the reader's among them,
;     so that the front page shows both voted and unvoted arrows;
;   - the items' times moved back over the last two days (save-item), and
;     the front page ranked again (gen-topstories, save-topstories).
; Then it writes DATADIR/bench-info: "cookie C", "item N" (the story with
; the most comments), "stories S", "comments C", "users U", one a line.
; Every choice comes from a fixed-seed generator: the same data each run
; (only the times move with the clock).

(= news-home* (car argv))
(load (+ news-home* "news.arc"))

(= bench-dir* (let d (cadr argv) (if (endmatch "/" d) d (+ d "/"))))

; C's rand constants: plenty for choosing, repeatable.
(= bench-seed* 4711)
(def bench-rand (n)
  (= bench-seed* (mod (+ (* bench-seed* 1103515245) 12345) 2147483648))
  (mod (trunc (/ bench-seed* 65536)) n))
(def bench-pick (xs) (xs (bench-rand (len xs))))

; n distinct elements of xs, in a random order.
(def bench-sample (xs n)
  (let pool (copy xs)
    (accum a
      (repeat (min n (len pool))
        (let x (bench-pick pool)
          (a x)
          (zap [rem x _] pool))))))

; The reader first: the session the benchmark logs in with.
(= bench-users* '("reader" "mhartley" "priya_k" "jtorres" "sokafor"
                  "lindqvist" "dmitri_v" "ellenw" "rcastillo" "knakamura"
                  "bfischer" "aisha_m" "tomwalsh" "grace_h" "opatel"
                  "kwame_a"))

; Comments per story, front page order of creation: 138 in all, the most
; (25) under the first story.
(= bench-ncomments* '(25 14 11 9 8 7 7 6 6 5 5 4 4 4 3 3 3 3 2 2 2 2 1 1 1
                      0 0 0 0 0))

(= bench-words* '("the" "cache" "server" "latency" "we" "found" "that" "a"
                  "simple" "design" "beats" "clever" "one" "in" "practice"
                  "benchmark" "numbers" "were" "measured" "on" "two" "cores"
                  "and" "it" "depends" "workload" "garbage" "collector"
                  "pauses" "matter" "less" "than" "allocation" "rate" "for"
                  "this" "kind" "of" "page" "lisp" "macros" "compile" "away"))

; n words of filler, capitalized, with a period.
(def bench-sentence (n)
  (let s (string (intersperse " " (n-of n (bench-pick bench-words*))))
    (+ (upcase (cut s 0 1)) (cut s 1) ".")))

; One to three paragraphs of two to four sentences (md-from-form makes
; the HTML, as the comment form does); now and then a link or italics.
(def bench-text ()
  (string
    (intersperse "\n\n"
      (n-of (+ 1 (bench-rand 3))
        (string (intersperse " "
                  (n-of (+ 2 (bench-rand 3))
                    (case (bench-rand 12)
                      0 (+ "See https://example.com/notes/" (bench-rand 1000) " for more.")
                      1 (+ "It is *" (bench-pick bench-words*) "* that matters.")
                        (bench-sentence (+ 5 (bench-rand 12)))))))))))

(def bench-ip (u) (+ "10.1." (+ 1 (or (pos u bench-users*) 99)) ".9"))

(def bench-main ()
  (store-open bench-dir*)
  (news-load)
  (load-userinfo)
  (let old (and (bound 'pwhash-cost*) pwhash-cost*)
    (= pwhash-cost* 'min)   ; random passwords nobody types: the cheap hash
    (each u bench-users*
      (create-acct u (rand-string 20))
      (ensure-news-user u)
      (let p (profile u)
        ; members for months, so nobody shows as a new account
        (= p!created (- (seconds) (* 86400 (+ 60 (bench-rand 600)))))
        (save-prof u)))
    (= pwhash-cost* old))
  (let now (seconds)
    (withs (others (cdr bench-users*)
            stories nil
            ncomments 0)
      (on n bench-ncomments*
        (withs (by   (bench-pick others)
                text (is (mod index 5) 3)
                s    (create-story (if text nil (+ "https://example.com/" index "/a-story-about-" (bench-pick bench-words*)))
                                   (process-title (bench-sentence (+ 4 (bench-rand 6))))
                                   (and text (md-from-form (bench-text)))
                                   by (bench-ip by))
                t0   (- now 600 (* 60 (+ (* index 90) (bench-rand 60)))))
          (= s!time t0)
          (save-item s)
          (push s stories)
          ; The thread: each comment answers the story or, more often, one
          ; of the comments before it (the latest most of all), so that it
          ; nests several levels deep.
          (let thread nil
            (repeat n
              (withs (parent (if (or (no thread) (is (bench-rand 3) 0)) s
                                 (is (bench-rand 2) 0)                 (car thread)
                                                                       (bench-pick thread))
                      cby (bench-pick (rem parent!by others))
                      c   (create-comment (md-from-form (bench-text)) cby parent (bench-ip cby)))
                (= c!time (+ parent!time 60 (bench-rand (max 60 (trunc (* .5 (- now parent!time)))))))
                (save-item c)
                (push c thread)
                (++ ncomments))))))
      ; Votes: each story up-voted by a few users, some comments too, from
      ; their own IPs (logins*), so karma moves as on a real site.
      (each u bench-users*
        (= (logins* u) (bench-ip u)))
      (each s stories
        (each u (bench-sample (rem s!by bench-users*) (+ 1 (bench-rand 10)))
          (vote-for u s 'up))
        (each c (family s)
          (when (and (acomment c) (is (bench-rand 3) 0))
            (each u (bench-sample (rem c!by bench-users*) (+ 1 (bench-rand 4)))
              (vote-for u c 'up)))))
      (gen-topstories)
      (save-topstories)
      (let top (best (compare > [len (family _)]) stories)
        (w/outfile o (+ bench-dir* "bench-info")
          (w/stdout o
            (prn "cookie " (login-cookie "reader"))
            (prn "item " top!id)
            (prn "stories " (len stories))
            (prn "front " (len (topstories "reader" maxend*)))
            (prn "comments " ncomments)
            (prn "topcomments " (- (len (family top)) 1))
            (prn "users " (len (keys hpasswords*)))))))))

(bench-main)
