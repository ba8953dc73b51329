; Seeds a news site's SQLite store for tests/web/test_news_workers.py, then
; exits: the site of apps/news (loaded from this file's folder as
; ../../../apps/news/) on DATA/news.db, with the user author (a password
; and a story) and N voters v1 ... vN, each a month old with karma 10 (so
; that every vote of theirs counts), each logged in (a session). Run as:
;   arcana news_seed.arc DATA N
; It prints, one a line:
;   password author PW    the password of the account that logs in for real
;   item ID               the id of author's story
;   user NAME COOKIE AUTH a voter's login cookie and its session's token
;                         (the auth of the vote links made for it)

(= news-home*
   (+ (cut script* 0 (+ 1 (last (positions #\/ script*)))) "../../../apps/news/"))
(each f '("store.arc" "store-sqlite.arc" "model.arc" "pages.arc" "admin.arc")
  (load (+ news-home* f)))

(let (data n) argv
  (store-use-sqlite)
  (store-open data)
  (news-load)
  (with (n      (int n)
         voters nil)
    (for k 1 n (push (+ "v" k) voters))
    (= voters (rev voters))
    ; one Argon2id hash for all (each is slow by design: io/crypto.cpp)
    (create-acct "author" "author-pw-1")
    (prn "password author author-pw-1")
    ; everything else in one transaction: one fsync
    (store-batch
      (fn ()
        (let h (hpasswords* "author")
          (each u voters
            (set (dc-usernames* u))
            (= (hpasswords* u) h)))
        (%app-save hpasswords* hpwfile*)
        (each u (cons "author" voters)
          (ensure-news-user u)
          (= (uvar u created) (- (seconds) (* 30 24 3600))
             (karma u) 10)
          (save-prof u))
        (prn "item " ((create-story "http://example.com/workers/story" "The voted story" nil
                                    "author" "127.0.0.1")
                      'id))
        (each u voters
          (withs (cookie (login-cookie u)
                  sid    (car (tokens cookie #\.)))
            (prn "user " u " " cookie " " ((sessions* sid) 3))))))))
(flushout)
(quit 0)
