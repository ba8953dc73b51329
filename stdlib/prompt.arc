; stdlib/prompt.arc — the admins' web REPL of docs/LANGUAGE.md 6.7 (Arc 3.1's
; prompt.arc): the op prompt, where each admin keeps programs ("apps") to
; edit, run and delete, and the op repl, which evaluates what is typed
; into it. Loaded after app.arc and pprint.arc.
;
; Both run any code an admin gives them, so beyond Arc 3.1 every way in
; checks that the user is an admin now (Arc 3.1's editor sent anyone who
; logged in from it to a prompt page, and so to run-app), the repl only
; evaluates a form it made itself (the token in its url), against requests
; another site makes a browser send, and what the pages show is escaped.

(= appdir* (+ arcdir* "apps/"))

; Prints x, a string or anything else, with the characters of HTML escaped.
(def %prompt-pr-esc (x)
  (pr (eschtml (if (isa x 'string) x (tostring (disp x))))))

; Runs body if user is an admin, else says no.
(mac %prompt-admin-only (user . body)
  `(if (admin ,user)
       (do ,@body)
       (pr "Sorry.")))

(defop prompt req
  (let user (get-user req)
    (%prompt-admin-only user (prompt-page user))))

(def prompt-page (user . msg)
  (ensure-dir appdir*)
  (ensure-dir (+ appdir* user))
  (whitepage
    (prbold "Prompt")
    (hspace 20)
    (%prompt-pr-esc user)
    (pr " | ")
    (link "logout")
    (when msg
      (hspace 10)
      (each m msg (%prompt-pr-esc m)))
    (br2)
    (tag (table border 0 cellspacing 10)
      (each app (sort < (dir (+ appdir* user)))
        (tr (td (%prompt-pr-esc app))
            (td (ulink user 'edit
                  (%prompt-admin-only user (edit-app user app))))
            (td (ulink user 'run
                  (%prompt-admin-only user (run-app user app))))
            (td (hspace 40)
                (ulink user 'delete
                  (%prompt-admin-only user (rem-app user app)))))))
    (br2)
    (aform (fn (req)
             (when-umatch user req
               (%prompt-admin-only user
                 (aif (goodname (arg req "app"))
                      (edit-app user it)
                      (prompt-page user "Bad name.")))))
      (tab (row "name:" (input "app") (submit "create app"))))))

; (app-path user app): where user's app is kept, or nil if either is
; missing or is a name that could reach outside the user's directory.
(def app-path (user app)
  (and (goodname user) (goodname app)
       (+ appdir* user "/" app)))

(def read-app (user app)
  (aand (app-path user app)
        (file-exists it)
        (readfile it)))

; One expression a line: Arc 3.1 wrote them with nothing between, so two
; symbols in a row read back as one.
(def write-app (user app exprs)
  (awhen (app-path user app)
    (ensure-dir (+ appdir* user))
    (let tmp (+ it ".tmp")
      (w/outfile o tmp
        (each e exprs (write e o) (writec #\newline o)))
      (mvfile tmp it))
    exprs))

(def rem-app (user app)
  (let file (app-path user app)
    (if (and file (file-exists file))
        (do (rmfile file)
            (prompt-page user "Program " app " deleted."))
        (prompt-page user "No such app."))))

(def edit-app (user app)
  (whitepage
    (pr "user: ") (%prompt-pr-esc user)
    (pr " app: ") (%prompt-pr-esc app)
    (br2)
    (aform (fn (req)
             (let u2 (get-user req)
               (if (and (is u2 user) (admin u2))
                   (if (is (arg req "cmd") "save")
                       (aif (errsafe (readall (or (arg req "exprs") "")))
                            (do (write-app user app it)
                                (prompt-page user))
                            (prompt-page user "Not saved: "
                                         "the program does not read."))
                       (prompt-page user))
                   (login-page 'both nil
                               (fn (u ip)
                                 (%prompt-admin-only u (prompt-page u)))))))
      (textarea "exprs" 10 82
        (pr (eschtml (tostring (pprcode (read-app user app))))))
      (br2)
      (buts 'cmd "save" "cancel"))))

(def pprcode (exprs)
  (each e exprs
    (ppr e)
    (pr "\n\n")))

(def view-app (user app)
  (whitepage
    (pr "user: ") (%prompt-pr-esc user)
    (pr " app: ") (%prompt-pr-esc app)
    (br2)
    (tag pre (pr (eschtml (tostring (pprcode (read-app user app))))))))

; The app's own output is its page and is not escaped; an error is.
(def run-app (user app)
  (let exprs (read-app user app)
    (if exprs
        (on-err (fn (c) (pr "Error: ") (%prompt-pr-esc (details c)))
                (fn () (map eval exprs)))
        (prompt-page user "Error: No application " app " for user " user))))

; Newest first: (expr value) or, for an error, (expr error t).
(wipe repl-history*)

(defop repl req
  (%prompt-admin-only (get-user req) (replpage req)))

; Each admin's repl form carries a random token in its url, and only a
; request with it is evaluated: a page elsewhere can send a browser to
; /repl?expr=..., with its cookie (SameSite=Lax lets a link through), but
; cannot know the token.
(= %prompt-tokens* (table))

(def %prompt-token (user)
  (or (%prompt-tokens* user)
      (= (%prompt-tokens* user) (rand-string 22))))

(def replpage (req)
  (withs (user (get-user req)
          tok  (%prompt-token user)
          text (and (is (arg req "tok") tok) (arg req "expr")))
    (whitepage
      (repl (%prompt-read text) (+ "repl?tok=" tok)))))

; The expressions of text. If some of it does not read, what read before
; it comes first, then an expression raising the reader's error, so that
; the history shows it in its place.
(def %prompt-read (text)
  (when text
    (let p (instring text)
      (accum a
        (catch
          (while t
            (let e (on-err (fn (c)
                             (a `(err ,(details c)))
                             (throw nil))
                           (fn () (read p p)))
              (if (is e p) (throw nil) (a e)))))))))

(def repl (exprs url)
  (each expr exprs
    (on-err (fn (c) (push (list expr c t) repl-history*))
            (fn ()
              (= that (eval expr) thatexpr expr)
              (push (list expr that) repl-history*))))
  (form url
    (textarea "expr" 8 60)
    (sp)
    (submit))
  (tag pre
    (each (expr val err) (firstn 20 repl-history*)
      (pr "&gt; ")
      (pr (eschtml (tostring (ppr expr))))
      (prn)
      (pr (eschtml (+ (if err "Error: " "")
                      (ellipsize (if err (details val) (tostring (write val)))
                                 800))))
      (prn))))
