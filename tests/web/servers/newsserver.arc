; The server of tests/web/test_news*.py: the news site of apps/news (its
; store.arc, model.arc, pages.arc and admin.arc, loaded from this file's
; folder as ../../../apps/news/), with a data directory made here of
; known users, stories and comments whose times and scores are set so
; that the front page's order is known. Run as: arcana --host=127.0.0.1 newsserver.arc 0
; [--store sqlite] in a fresh directory (arc/ is made there); with
; --store sqlite the data is in arc/news.db (apps/news/store-sqlite.arc).
;
; Before "ready to serve port N" it prints, one a line:
;   cookie USER COOKIE   a login cookie (a session's) of each user (no
;                        password logins: Argon2id is slow; test_news logs
;                        in once for real)
;   item NAME ID         the id of each seeded item the tests use
;   password USER PW     the password of the account that logs in for real

(= header-timeout* 5 idle-timeout* 5 threadlife* 30)
(= req-limit* nil)  ; the tests make hundreds of requests from one address
; A proxy the tests speak through: its X-Forwarded-Proto gives the scheme.
(= trusted-proxies* '("127.0.0.90"))
(thread (sleep 150) (quit 3))  ; ends itself if its test never kills it

(= news-home*
   (+ (cut script* 0 (+ 1 (last (positions #\/ script*)))) "../../../apps/news/"))
(each f '("store.arc" "store-sqlite.arc" "model.arc" "pages.arc" "admin.arc")
  (load (+ news-home* f)))
(= staticdir* (+ news-home* "static/"))

; No page cache for visitors (caching* 0): a test sees at once what it
; changed, logged in or not.
(= caching* 0)

(when (iso (cdr argv) '("--store" "sqlite")) (store-use-sqlite))
(store-open "arc/")
(news-load)

; --- Users ---------------------------------------------------------------
; boss is the admin; alice has karma enough to flag, down-vote and make
; polls; bob a little; carol is new (a noob); dave is for noprocrast.

(= nt-users* '("boss" "alice" "bob" "carol" "dave"))

(store-add-admin "boss")
(create-acct "boss" "boss-pw-1")
; One Argon2id hash for all (each is slow by design: io/crypto.cpp).
(let h (hpasswords* "boss")
  (each u (cdr nt-users*)
    (set (dc-usernames* u))
    (= (hpasswords* u) h)))
(%app-save hpasswords* hpwfile*)
(load-userinfo)

(def nt-days-ago (d) (- (seconds) (* d 24 60 60)))
(def nt-hours-ago (h) (- (seconds) (trunc (* h 60 60))))

(each u nt-users*
  (ensure-news-user u)
  (= (uvar u created) (if (is u "carol") (- (seconds) 600) (nt-days-ago 30))))
(= (karma "alice") 300 (karma "bob") 50)
(each u nt-users* (save-prof u))

(each u nt-users*
  (prn "cookie " u " " (login-cookie u)))
(prn "password boss boss-pw-1")

; --- Items ---------------------------------------------------------------

(def nt-name (name i) (prn "item " name " " i!id) i)

; A story with its author's vote, then made older and given a score.
(def nt-story (name user url title text ip hours (o score 1))
  (let s (create-story url title text user ip)  ; submitted: the author's vote
    (= s!time (nt-hours-ago hours)
       s!score score)
    (save-item s)
    (nt-name name s)))

(def nt-comment (name user parent text ip hours)
  (let c (create-comment (md-from-form text) user parent ip)
    (= c!time (nt-hours-ago hours))
    (save-item c)
    (nt-name name c)))

; 65 stories of score 1 (rank 0), so that the front page has a third page.
(for n 1 65
  (nt-story (+ "filler" n) "bob" (+ "http://filler.example.com/" n)
            (+ "Filler story number " n) nil (+ "10.0.1." n) (+ 10 (/ n 4))))

; Ranking: with equal scores the newer is higher; a much higher score beats
; both though older.
(nt-story "rank-old" "bob" "http://rank.example.com/old" "Ranking older story"
          nil "10.0.2.1" 4 3)
(nt-story "rank-new" "bob" "http://rank.example.com/new" "Ranking newer story"
          nil "10.0.2.2" 2 3)
(nt-story "rank-hot" "bob" "http://rank.example.com/hot" "Ranking hot story"
          nil "10.0.2.3" 5 25)

; Voting, flagging, killing: each test its own story, from an address of
; its own (a vote from the author's address gives no karma).
(nt-story "vote" "bob" "http://vote.example.com/a" "Vote target story"
          nil "10.0.3.1" 1)
(nt-story "vote-auth" "bob" "http://vote.example.com/b" "Vote auth target story"
          nil "10.0.3.2" 1)
(nt-story "vote-anon" "bob" "http://vote.example.com/c" "Vote anonymous target story"
          nil "10.0.3.3" 1)
(nt-story "flag" "carol" "http://flag.example.com/" "Flag target story"
          nil "10.0.3.4" 1)
(nt-story "kill" "bob" "http://kill.example.com/" "Kill target story"
          nil "10.0.3.5" 1 6)
(nt-story "dup" "bob" "http://dup.example.com/page" "Duplicate target story"
          nil "10.0.3.6" 3)

; A discussion: a story, a comment, a reply.
(= nt-talk* (nt-story "talk" "alice" "http://talk.example.com/" "Discussion story"
                      nil "10.0.4.1" 3 2))
(let c (nt-comment "talk-c1" "bob" nt-talk* "First seeded comment" "10.0.4.2" 2)
  (nt-comment "talk-c2" "carol" c "Seeded reply to the first" "10.0.4.3" 1))
(nt-story "text" "alice" nil "Seeded text post" "Body of the seeded text post"
          "10.0.4.4" 2)

; A noob's story and comment.
(let s (nt-story "noob" "carol" "http://noob.example.com/" "Noob story by carol"
                 nil "10.0.5.1" 0)
  (nt-comment "noob-c" "carol" s "Noob comment by carol" "10.0.5.1" 0))

; Hostile text straight into the model (the pages must escape what is
; stored, whatever let it in): a title, a URL, a comment, a poll and its
; options.
(= nt-evil* "<script>alert(1)</script> \"dq\" 'sq' javascript:alert(1)")
(nt-story "evil" "bob" "http://evil.example.com/?q=\"><script>alert(1)</script>"
          (+ "Evil " nt-evil*) nil "10.0.6.1" 1)
(nt-story "evil-js" "bob" "javascript:void(alert(1))" "Evil javascript url story"
          nil "10.0.6.2" 1)
(nt-comment "evil-c" "bob" nt-talk* (+ "Evil comment " nt-evil*) "10.0.6.3" 1)
(let p (create-poll (+ "Evil poll " nt-evil*) nil
                    (list (+ "Evil option " nt-evil*) "Plain option")
                    "alice" "10.0.6.4")
  (nt-name "evil-poll" p)
  (on o (map item p!parts) (nt-name (+ "evil-opt" index) o)))

; For test_news_hn.py: stories of another site (two hosts, one site),
; Ask and Show stories and one that has the words only inside its title,
; a story to hide and one to favorite, and two stories of a day three
; days back (UTC), the later of them with the higher score.
(nt-story "other1" "alice" "http://www.othersite.org/first" "Other site first story"
          nil "10.0.7.1" 5)
(nt-story "other2" "alice" "http://blog.othersite.org/second" "Other site second story"
          nil "10.0.7.2" 6)
(nt-story "ask" "alice" nil "Ask HN: How do you test a VM?" "The seeded question."
          "10.0.7.3" 7)
(nt-story "ask-lower" "alice" nil "ask hn: the prefix in lower case" "Another question."
          "10.0.7.4" 7)
(nt-story "not-ask" "alice" "http://notask.example.net/" "Not Ask HN: only inside"
          nil "10.0.7.5" 7)
(nt-story "show" "alice" "http://show.example.net/vm" "Show HN: A seeded bytecode VM"
          nil "10.0.7.6" 8)
(nt-story "hide" "alice" "http://hide.example.net/" "Hide target story" nil "10.0.7.7" 1)
(nt-story "fave" "alice" "http://fave.example.net/" "Favorite target story"
          nil "10.0.7.8" 1)
(let t0 (- (seconds) (mod (seconds) 86400) (* 3 86400))
  (prn "day past " (datestring t0))
  (each (name title hour score) '(("day-low" "Past day lower story" 1 2)
                                  ("day-high" "Past day higher story" 2 5))
    (let s (nt-story name "alice" (+ "http://past.example.net/" name) title nil
                     "10.0.8.1" 0 score)
      (= s!time (+ t0 (* hour 3600)))
      (save-item s))))

(gen-topstories)
(save-topstories)
(flushout)

; The clock, for noprocrast: moves u's visit (firstview, lastview) min
; minutes into the past, as if that much time had gone by. Tests only.
(defop nt-warp req
  (with (u (arg req "u") m (saferead (arg req "min")))
    (if (and (profile u) (isa m 'int))
        (do (let p (profile u)
              (each k '(firstview lastview)
                (awhen (p k) (= (p k) (- it (* 60 m))))))
            (save-prof u)
            (pr "warped"))
        (pr "bad warp"))))

; The number of closures stored (srv.arc's fns*), then u's own if u is
; given. Tests only.
(defop nt-fnids req
  (pr (len fns*))
  (awhen (arg req "u")
    (pr " " (aif (%srv-user-fnids* it) (qlen it) 0))))

; Sets each user's budget of closures. Tests only.
(defop nt-budget req
  (let n (saferead (arg req "n"))
    (if (and (isa n 'int) (> n 0))
        (do (= fnids-per-user* n) (pr "ok"))
        (pr "bad budget"))))

; Sets the login limits, by IP and by account alike: free failures, the
; first delay and the longest (seconds). Tests only.
(defop nt-login-limits req
  (with (free (saferead (arg req "free"))
         delay (saferead (arg req "delay"))
         most (saferead (arg req "max")))
    (if (and (isa free 'int) (number delay) (number most))
        (do (= login-free-fails* free login-acct-free-fails* free
               login-fail-delay* delay login-acct-delay* delay
               login-max-delay* most login-acct-max-delay* most)
            (pr "ok"))
        (pr "bad limits"))))

; Sets how long a new session lasts, in seconds. Tests only.
(defop nt-session-life req
  (let n (saferead (arg req "n"))
    (if (and (isa n 'int) (> n 0))
        (do (= session-life* n) (pr "ok"))
        (pr "bad life"))))

(asv (coerce (car argv) 'int))
