; examples/web/notes.arc — a small app with users: accounts and logins
; (app.arc), and a note each user keeps, saved on disk.
;
;   build/arcana examples/web/notes.arc          # http://localhost:8080/notes
;
; /notes asks you to log in or create an account first (defopl), then
; shows your note with a form to change it. The form's closure knows who
; you are (user is captured), and uform runs it only for that same user.
; Accounts live in arc/hpw (Argon2id hashes), sessions in arc/cooks, notes
; in arc/notes: all under the folder you start it from.

(= notes* (or (errsafe (load-table "arc/notes")) (table)))

(defopl notes req
  (let user (get-user req)
    (whitepage
      (pr "Hello, " (eschtml user) ". ")
      (link "log out" "logout")
      (br2)
      (aif (notes* user)
           (do (pr "Your note: ") (prbold (eschtml it)))
           (pr "No note yet."))
      (br2)
      (uform user req
             (do (= (notes* user) (arg req "note"))
                 (save-table notes* "arc/notes")
                 (pr "Saved. ")
                 (link "back" "notes"))
        (input "note" (or (notes* user) "") 40)
        (submit "save")))))

(ensure-srvdirs)
; Only this machine can connect (127.0.0.1), as with the news site,
; unless arcana's --host says otherwise (--host=0.0.0.0: every interface).
(unless srv-host* (= srv-host* "127.0.0.1"))

(asv (int (or (car argv) "8080")))
