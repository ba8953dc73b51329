; apps/news/store.arc: the news site's persistence, through its interface,
; in a fresh data directory under /tmp, removed at the end. The model is
; loaded too: its templates are the records' shapes, and demo.arc's admin
; is made through it.

(load "../../apps/news/store.arc")
(load "../../apps/news/model.arc")
(load "../../apps/news/demo.arc")

(= nst* (string "/tmp/arcana-news-store-test-" (seconds) "-" (rand 1000000000) "/"))
(def nst (path) (+ nst* path))

; --- Opening and starting: the layout of Arc 3.1's arc/ folder ---
(is (store-open (cut nst* 0 (- (len nst*) 1))) nst*) ; expect: t
(is arcdir* nst*) ; expect: t
(map [cut _ (len nst*)] (list storydir* profdir* votedir* topfile* adminfile* hpwfile* logdir*))
; expect: ("news/story/" "news/profile/" "news/vote/" "news/topstories" "admins" "hpw" "logs/")
(store-load-all) ; expect: nil
(map [no (no (dir-exists (nst _)))] '("news/story/" "news/profile/" "news/vote/" "logs/"))
; expect: (t t t t)

; --- Items: written as Arc 3.1 writes them, read back with the template's defaults ---
(store-next-id 0) ; expect: 1
(store-save-item (inst 'item 'id 1 'by "ann" 'title "One" 'score 3))
(let al (readfile (nst "news/story/1"))
  (list (len al) (alref (car al) 'title) (alref (car al) 'score)))
; expect: (1 "One" 3)
(let i (store-load-item 1) (list i!id i!title i!type i!score i!sockvotes))
; expect: (1 "One" story 3 0)
; An item file as Arc 3.1 left it: fields missing get their defaults.
(w/outfile o (nst "news/story/2") (write '((id 2) (type comment) (by "pg") (parent 1)) o))
(let i (store-load-item 2) (list i!type i!by i!parent i!score i!dead i!kids))
; expect: (comment "pg" 1 0 nil nil)
(map store-load-item (list 3 0 -1 "1" "../x")) ; expect: (nil nil nil nil nil)
; A file cut short reads as no item.
(w/outfile o (nst "news/story/4") (disp "((id 4) (title \"cut" o))
(store-load-item 4) ; expect: nil
; The next id is past every file, the caller keeping its n.
(list (store-next-id 0) (store-next-id 1) (store-next-id 4) (store-next-id 10)) ; expect: (3 3 5 11)
(do (store-remove-item 4) (list (file-exists (nst "news/story/4")) (store-next-id 3))) ; expect: (nil 4)
(store-remove-item 4) ; error: rmfile
; Every save moves the item's version (the pages' shared rows follow it).
(let v (store-item-version 1)
  (store-save-item (store-load-item 1))
  (list (- (store-item-version 1) v) (store-item-version 999999)))
; expect: (1 0)

; --- Profiles and votes ---
(store-save-profile "ann" (inst 'profile 'id "ann" 'karma 7))
(store-save-votes "ann" (obj 1 '(100 "1.2.3.4" "ann" up 1)))
(let p (store-load-profile "ann") (list p!id p!karma p!maxvisit)) ; expect: ("ann" 7 20)
(tablist (store-load-votes "ann")) ; expect: ((1 (100 "1.2.3.4" "ann" up 1)))
(list (store-load-profile "bob") (store-load-votes "bob")) ; expect: (nil nil)
(list (store-load-profile "../ann") (store-load-profile 'ann) (store-load-votes "a/b")) ; expect: (nil nil nil)
(store-save-profile "../x" (table)) ; error: bad user name
(store-save-votes "a b" (table)) ; error: bad user name
(store-user-names) ; expect: ("ann")

; --- The front page ---
(store-topstories) ; expect: nil
(do (store-save-topstories '(2 1)) (list (store-topstories) (readfile (nst "news/topstories"))))
; expect: ((2 1) ((2 1)))

; --- A restart removes what a crash left, and finds the items ---
(each f '("news/story/9.tmp" "news/story/1.tmp" "news/profile/ann.tmp" "news/vote/ann.tmp")
  (w/outfile o (nst f) (disp "((id 9) (title \"torn" o)))
(store-load-all) ; expect: (2 1)
(keep [endmatch ".tmp" _] (join (dir storydir*) (dir profdir*) (dir votedir*))) ; expect: nil

; --- The disk tables and vars: read at the start, saved with todisk ---
(do (= (banned-sites* "spam.com") '(kill "boss" 1 nil))
    (todisk banned-sites*)
    (todisk scrubrules* '(("Foo" "Bar")))
    (store-reset-vars)
    (list (len banned-sites*) scrubrules*))
; expect: (0 nil)
(do (store-load-all) (list (car (banned-sites* "spam.com")) scrubrules*))
; expect: (kill (("Foo" "Bar")))
(readfile (nst "news/scrubrules")) ; expect: ((("Foo" "Bar")))

; --- The admins: app.arc's file, names one after another ---
(store-admins) ; expect: nil
(= pwhash-cost* 'min)  ; demo-admin's password needs no slow hash here
(= admins* nil)
; demo.arc's admin, on a site without one: named in the file through the
; store, and app.arc reads it back.
(posmatch "admin account: admin password: " (tostring (demo-admin))) ; expect: 0
(list (store-admins) (filechars adminfile*)) ; expect: (("admin") "admin\n")
(do (load-userinfo) (list admins* (no (no (admin "admin"))) (no (no (user-exists "admin")))))
; expect: (("admin") t t)
(do (store-add-admin "boss") (store-add-admin "boss") (filechars adminfile*))
; expect: "admin\nboss\n"
(do (load-userinfo) admins*) ; expect: ("admin" "boss")
; A site that has an admin keeps him: the demo adds nobody.
(do (tostring (demo-admin)) (store-admins)) ; expect: ("admin" "boss")

; --- store-update: a read-modify-write of one record ---
(= ri* (store-load-item 1))
(list (store-update (list 'item 1 ri*) [do (= _!title "Updated") 'r])
      ri*!title (alref (readfile1 (nst "news/story/1")) 'title))
; expect: (r "Updated" "Updated")
; f fails: the record as it was
(list (on-err details (fn () (store-update (list 'item 1 ri*) [do (= _!title "Never") (err "no")])))
      ri*!title (alref (readfile1 (nst "news/story/1")) 'title))
; expect: ("no" "Updated" "Updated")
; the save fails: the record as it was, in memory and in its file
(let saved store-save-item
  (= store-save-item (fn (i) (err "disk full")))
  (let e (on-err details (fn () (store-update (list 'item 1 ri*) [= _!title "Lost"])))
    (= store-save-item saved)
    (store-save-unsaved)
    (list e ri*!title (alref (readfile1 (nst "news/story/1")) 'title) store-unsaved*)))
; expect: ("disk full" "Updated" "Updated" nil)
; a profile
(let p (store-load-profile "ann")
  (store-update (list 'profile "ann" p) [++ _!karma])
  (list p!karma ((store-load-profile "ann") 'karma)))
; expect: (8 8)
; Two threads adding to one field: no update is lost between the read and
; the write.
(do (= ri*!score 0)
    (let ths (map (fn (n) (thread (repeat 20 (store-update (list 'item 1 ri*) [++ _!score]))))
                  '(1 2))
      (until (all dead ths) (sleep .001)))
    (list ri*!score (alref (readfile1 (nst "news/story/1")) 'score)))
; expect: (40 40)

; --- store-change: writes kept together, or undone ---
; A change that fails gives its records back as they were (with keys:
; only those), takes back what it made (undo), writes back what it had
; written, and the error goes on.
(with (i (store-load-item 1) v (store-load-votes "ann") undone nil)
  (list (on-err details
                (fn () (store-change (list (list 'item 1 i) (list 'votes "ann" v '(1)))
                         (fn () (= i!title "Half" i!url "http://x.example.com/")
                                (= (v 1) 'changed (v 7) 'kept)
                                (store-save-item i)
                                (err "disk full"))
                         (fn () (set undone)))))
        (list i!title i!url) (alref (readfile1 (nst "news/story/1")) 'title)
        (sort < (keys v)) (v 1) undone))
; expect: ("disk full" ("Updated" nil) "Updated" (1 7) (100 "1.2.3.4" "ann" up 1) t)
; One that holds keeps what it did, and gives f's value.
(let i (store-load-item 1)
  (list (store-change (list (list 'item 1 i)) (fn () (= i!title "Kept") (store-save-item i) 'done))
        i!title (alref (readfile1 (nst "news/story/1")) 'title)))
; expect: (done "Kept" "Kept")
; A record that cannot be written back waits for the unsaved job.
(with (full t writes 0 saved store-save-item i (store-load-item 1))
  (= store-unsaved* nil
     store-save-item (fn (x) (when full (err "disk full")) (++ writes) (saved x)))
  (errsafe (store-change (list (list 'item 1 i)) (fn () (err "disk full"))))
  (store-save-unsaved)
  (let waiting (len store-unsaved*)
    (wipe full)
    (store-save-unsaved)
    (= store-save-item saved)
    (list waiting writes (len store-unsaved*))))
; expect: (1 1 0)

; --- store-batch: the writes of f, synced once at its end ---
(list (store-batch (fn () (store-save-item (inst 'item 'id 5)) durable-writes*))
      durable-writes* (no (no (store-load-item 5))))
; expect: (nil t t)
(list (on-err details (fn () (store-batch (fn () (err "stopped"))))) durable-writes*)
; expect: ("stopped" t)

(system (string "rm -rf " nst*))
(dir-exists nst*) ; expect: nil
