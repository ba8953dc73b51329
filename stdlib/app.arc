; stdlib/app.arc — users and the application framework of docs/LANGUAGE.md 6.6 (Arc
; 3.1's app.arc): accounts, passwords and login cookies, login pages and
; the admin page, forms and links that check their user, typed form fields
; (vars-form), the markdown-like notation of comments, and parsing of times
; and dates. Loaded after srv.arc and html.arc; prompt.arc and the news
; site build on it.
;
; The names and what they do are Arc 3.1's, and so are the data files
; under arcdir* (hpw, admins, cooks, openids), so a site moves between the
; two. Where Arc 3.1 was unsafe this file is not, and the differences show:
; - passwords are stored only as Argon2id hashes (%pw-hash, checked with
;   %pw-verify), so Arc 3.1's SHA-1 hashes no longer log anyone in;
; - login cookies have 131 random bits and are sent HttpOnly, SameSite=Lax;
;   the files holding secrets (hpw, cooks, sessions) are mode 0600;
; - a site may choose sessions (app-sessions*): one for each login, with an
;   expiry, hashed on disk, and a token of their own for forms and links;
; - failed logins make later attempts from the IP, and at the account,
;   wait (good-login);
; - everything a page shows that came from a user is escaped.

; --- Users and their files -------------------------------------------------

(= hpwfile*   (+ arcdir* "hpw")
   oidfile*   (+ arcdir* "openids")
   adminfile* (+ arcdir* "admins")
   cookfile*  (+ arcdir* "cooks")
   sessfile*  (+ arcdir* "sessions"))

; Empty until load-userinfo, so that admin and get-user answer nil rather
; than fail in a program that never loads them.
(= hpasswords* (table) openids* (table) admins* nil
   cookie->user* (table) user->cookie* (table) logins* (table)
   dc-usernames* (table))

(def asv ((o port 8080))
  (load-userinfo)
  (serve port))

(def load-userinfo ()
  (each file (list hpwfile* oidfile* adminfile* cookfile* sessfile*)
    (app-file-changed file))
  t)

; Reads file (one of the files above) again into its tables: at the
; start, and when another process sharing them (a worker of --workers
; over the news site's SQLite store) changed it.
(def app-file-changed (file)
  (atomic
    (if (is file hpwfile*)
          (do (= hpasswords* (%app-load-table file) dc-usernames* (table))
              (maptable (fn (user hash) (set (dc-usernames* (downcase user)))) hpasswords*))
        (is file oidfile*)
          (= openids* (%app-load-table file))
        (is file adminfile*)
          (= admins* (map string (errsafe (%app-read-all file))))
        (is file cookfile*)
          (do (= cookie->user* (%app-load-table file) user->cookie* (table))
              (maptable (fn (cookie user) (= (user->cookie* user) cookie)) cookie->user*))
        (is file sessfile*)
          (= sessions* (%app-load-table file))
          (err "app-file-changed: not a file of app.arc" file))))

; Where the files above are kept: in the files, as Arc 3.1 keeps them,
; while app-files* is nil. A program that keeps them elsewhere (the news
; site's SQLite store, apps/news/store-sqlite.arc) sets it to a list of
; three functions, (read file), the text saved under file's path or nil,
; (write file text), which saves it durably (the text is what the file
; would hold), and (in f), which runs f, a read-modify-write of the
; tables and its saves, as one transaction that first brings the tables
; up to date (app-file-changed) with what other processes wrote.
(= app-files* nil)

; (%app-change body ...): body's change of the tables above and its
; saves, kept whole: under the lock, and in app-files*'s transaction.
(mac %app-change body
  `(%app-in (fn () ,@body)))

(def %app-in (f)
  (if app-files* ((app-files* 2) f) (atomic (f))))

(def %app-load-table (file)
  (if app-files*
      (or (errsafe (let text ((car app-files*) file)
                     (and text (read-table (instring text)))))
          (table))
      (safe-load-table file)))

(def %app-read-all (file)
  (if app-files*
      (readall (or ((car app-files*) file) "") (list 'eof))
      (readfile file)))

; Saves table h in file, making its directory first if need be (a program
; may create accounts before serve has made arcdir*).
;
; Atomic, so that two threads saving at once do not share the .tmp file.
; Every file saved here holds secrets (password hashes, login cookies,
; sessions), so it is readable by its owner only: the .tmp file that
; writefile fills and renames is made mode 0600 before anything is in it.
(def %app-save (h file)
  (if app-files*
      (atomic ((cadr app-files*) file (tostring (write (tablist h)))))
      (%app-save-file h file)))

; The file itself, whatever app-files* says (the news site's control file).
(def %app-save-file (h file)
  (atomic
    (let slash (last (positions #\/ file))
      (when slash (ensure-dir (cut file 0 slash))))
    (let tmp (+ file ".tmp")
      (w/outfile o tmp)
      (%chmod tmp 384))
    (save-table h file)))

; (get-user req): the user the request's user cookie names, or nil. The
; cookie is looked up as a symbol that exists already (%find-sym), never
; made one: anything else a client sends would be interned for good. The
; closures the request goes on to make are counted against that user's
; budget (fnid-owner, srv.arc).
;
; With app-sessions*, the cookie names a session instead (Sessions, below).
(def get-user (req)
  (let u (if app-sessions*
             (%app-session-user req)
             (let c (alref req!cooks "user")
               (and (isa c 'string) (cookie->user* (%find-sym c)))))
    (when u (= (logins* u) req!ip))
    (fnid-owner u)
    u))

(def admin (u) (and u (mem u admins*)))

(def user-exists (u) (and u (hpasswords* u) u))

; --- Cookies ---------------------------------------------------------------

(def cook-user (user)
  (%app-change
    (let id (new-user-cookie)
      (= (cookie->user* id) user
         (user->cookie* user) id)
      (%app-save cookie->user* cookfile*)
      id)))

; 22 characters of rand-string, from the kernel's random source: 131 bits
; (Arc 3.1 used an 8-character unique-id).
(def new-user-cookie ()
  (let id (sym (rand-string 22))
    (if (cookie->user* id) (new-user-cookie) id)))

; Nothing to forget, and no file to write, for nil: login-handler logs out
; whoever sent the form, usually no one.
;
; With sessions, every one of the user's sessions ends too.
(def logout-user (user)
  (when user
    (%app-change
      (wipe (logins* user))
      (awhen (user->cookie* user) (wipe (cookie->user* it)))
      (wipe (user->cookie* user))
      (%app-save cookie->user* cookfile*)
      (whenlet ss (user-sessions user)
        (each s ss (%app-drop-session (car s)))
        (%app-save sessions* sessfile*)))))

; The cookie is for the whole site and not for scripts (HttpOnly), nor
; sent with requests other sites start, except plain links (SameSite=Lax).
; A session's lasts as long as the session. secure: the request came over
; HTTPS (req!scheme, which a trusted proxy's X-Forwarded-Proto gives), so
; the browser is to send the cookie back over HTTPS only.
(def prcookie (cook (o secure))
  (prn "Set-Cookie: user=" cook "; Path=/"
       (if app-sessions*
           (+ "; Max-Age=" session-life*)
           "; expires=Sun, 17-Jan-2038 19:14:07 GMT")
       "; HttpOnly; SameSite=Lax"
       (if secure "; Secure" "")))

; The cookie a login sets: a new session's, or the user's one cookie of
; Arc 3.1, made if he has none.
(def login-cookie (user)
  (if app-sessions*
      (new-session user)
      (or (user->cookie* user) (cook-user user))))

; Ends the login the request came with: its session only, or (Arc 3.1)
; the user's login everywhere.
(def logout-req (req)
  (if app-sessions*
      (awhen (%app-session req) (end-session (car it)))
      (logout-user (get-user req))))

; --- Sessions --------------------------------------------------------------

; Arc 3.1 gives each user one login cookie (user->cookie*, cookie->user*,
; the cooks file), the same on every device and good until he logs out;
; a page that prints it (news.arc's vote links do) gives it away. A site
; that sets app-sessions* (the news site does) gets a session for each
; login instead: its cookie is SID.SECRET, both random, and sessions*
; (the sessions file) keeps for each SID the user, when it expires
; (session-life* seconds after the login), the digest of SECRET
; (%digest: SECRET is random, so a fast hash keeps it as safe as a slow
; one would, and checking a cookie costs microseconds, whoever sends how
; many), never SECRET itself, and the session's token for forms and links
; (session-token), which they carry in place of the cookie.
; logout-user ends all of a user's sessions; logout-req the request's.
(= app-sessions* nil session-life* (* 30 24 3600)
   sessions* (table))

; sid -> (user expires hash token). Expired sessions are dropped from the
; file as new ones go in.
(def new-session (user)
  (withs (sid    (rand-string 22)
          secret (rand-string 22)
          rec    (list user (+ (seconds) session-life*) (%digest secret)
                       (rand-string 22)))
    (%app-change
      (each (id r) (tablist sessions*)
        (unless (> (cadr r) (seconds)) (%app-drop-session id)))
      (= (sessions* sid) rec)
      (%app-save sessions* sessfile*))
    (+ sid "." secret)))

(def end-session (sid)
  (%app-change
    (when (sessions* sid)
      (%app-drop-session sid)
      (%app-save sessions* sessfile*))))

(def %app-drop-session (sid)
  (wipe (sessions* sid)))

; The user's sessions, as (sid (user expires hash token)) lists.
(def user-sessions (user)
  (keep [is (car (cadr _)) user] (tablist sessions*)))

; The live session sid names, as (sid user expires hash token); an
; expired one ends.
(def %app-live-session (sid)
  (let rec (sessions* sid)
    (if (and rec (> (cadr rec) (seconds)))
        (cons sid rec)
        (do (when rec (end-session sid)) nil))))

; The request's live session, or nil: its cookie's secret has the digest
; its session keeps.
(def %app-session (req)
  (let c (alref req!cooks "user")
    (when (and (isa c 'string) (< (len c) 100))
      (let (sid secret) (tokens c #\.)
        (whenlet s (and sid secret (%app-live-session sid))
          (when (is (%digest secret) (s 3))
            s))))))

; The session's user; the session's user and token are also noted on the
; request (srv.arc's note-request), (user . token), for session-token,
; which a page asks for each of its links.
(def %app-session-user (req)
  (let s (%app-session req)
    (note-request 'session (and s (cons (s 1) (s 4))))
    (and s (s 1))))

; (session-token user): the token for forms and links of the session the
; current request came with, if it is user's; else nil. A form or link
; that carries it was made for that session, not forged by another site.
(def session-token (user)
  (let s (and user (request-note 'session))
    (and s (is (car s) user) (cdr s))))

; --- Accounts and passwords ------------------------------------------------

; The name is taken before the slow hash, and again after set-pw, whose
; change may have read the password file again (app-file-changed).
(def create-acct (user pw)
  (set (dc-usernames* (downcase user)))
  (set-pw user pw)
  (set (dc-usernames* (downcase user))))

(def disable-acct (user)
  (set-pw user (rand-string 20))
  (logout-user user))

(def set-pw (user pw)
  (let h (and pw (shash pw))   ; the slow hash outside the change
    (%app-change
      (= (hpasswords* user) h)
      (%app-save hpasswords* hpwfile*))))

; An Argon2id hash with a salt of its own ("$argon2id$v=19$..."), never
; the SHA-1 of Arc 3.1; good-login checks with %pw-verify.
(def shash (str) (%pw-hash str))

(def username-taken (user)
  (when (empty dc-usernames*)
    (maptable (fn (u hash) (set (dc-usernames* (downcase u)))) hpasswords*))
  (dc-usernames* (downcase user)))

; The messages are Arc 3.1's word for word, with the line breaks and
; indentation of its string literals and its "a least", so that the page
; a program built on them prints is 3.1's.
(def bad-newacct (user pw)
  (if (no (goodname user 2 15))
       (+ "Usernames can only contain letters, digits, dashes and \n"
          "        underscores, and should be between 2 and 15 characters long.  \n"
          "        Please choose another.")
      (username-taken user)
       "That username is taken. Please choose another."
      (or (no pw) (< (len pw) 4))
       (+ "Passwords should be a least 4 characters long.  Please \n"
          "        choose another.")))

; (goodname str (o min 1) (o max)): str if it is a string of letters,
; digits, - and _, not starting with -, of min to max characters.
(def goodname (str (o min 1) (o max))
  (and (isa str 'string)
       (>= (len str) min)
       (or (no max) (<= (len str) max))
       (all [or (alphadig _) (in _ #\- #\_)] str)
       (or (is str "") (isnt (str 0) #\-))
       str))

; --- Logging in ------------------------------------------------------------

(= good-logins* (queue) bad-logins* (queue))

; Failed logins slow down later attempts, counted two ways. By IP: up to
; login-free-fails* (3) failures from one IP within the last
; login-fail-window* (900) seconds cost nothing; with n failures past that,
; each attempt from it waits login-fail-delay* * 2^(n - 3) seconds, at most
; login-max-delay*: .5, 1, 2, 4, then 5. By account, the same, with the
; login-acct- settings, so that guesses at one account spread over many
; IPs are slowed too. An attempt waits the longer of the two.
;
; The waits of one IP (or account) queue one after another, so parallel
; attempts gain nothing; one that would wait longer than its maximum fails
; at once without its password being looked at. An account that has
; logged in from an IP within login-known-window* seconds skips that IP's
; wait (not its account's): someone else failing at a shared address does
; not hold up the people who log in there. sleep parks only the
; requesting thread.
(= login-free-fails* 3 login-fail-window* 900
   login-fail-delay* .5 login-max-delay* 5
   login-acct-free-fails* 3 login-acct-delay* .5 login-acct-max-delay* 10
   login-known-window* (* 30 24 3600))

; ip -> (seconds) of its recent failures, newest first, at most 30 kept;
; ip -> the (msec) before which its next attempt is not checked. The
; same for accounts; and "ip user" -> (seconds) of its last good login.
(= %app-fails* (table) %app-login-next* (table)
   %app-acct-fails* (table) %app-acct-next* (table)
   %app-known* (table))

(def %app-recent-fails (fails key)
  (let cutoff (- (seconds) login-fail-window*)
    (= (fails key) (keep [> _ cutoff] (fails key)))))

; The msec an attempt waits for key (an IP or an account) before its
; check, or nil to fail it; the wait is booked in next.
(def %app-key-wait (fails next key free delay maxdelay now)
  (let n (len (%app-recent-fails fails key))
    (if (< n free)
        0
        (withs (wait (* 1000 (min maxdelay (* delay (expt 2 (- n free)))))
                done (+ (max now (or (next key) 0)) wait))
          (when (<= (- done now) (* 1000 maxdelay))
            (= (next key) done)
            (- done now))))))

; Account names are keys only if they are strings of a sane length: a
; client may send anything.
(def %app-acct-key (user)
  (and (isa user 'string) (< (len user) 100) user))

; The msec this attempt at user from ip waits before its check, or nil to
; fail it.
(def %app-login-wait (user ip)
  (atomic
    (withs (now  (msec)
            key  (%app-acct-key user)
            ipw  (if (%app-known user ip)
                     0
                     (%app-key-wait %app-fails* %app-login-next* ip
                                    login-free-fails* login-fail-delay*
                                    login-max-delay* now))
            accw (if key
                     (%app-key-wait %app-acct-fails* %app-acct-next* key
                                    login-acct-free-fails* login-acct-delay*
                                    login-acct-max-delay* now)
                     0))
      (and ipw accw (max ipw accw)))))

(def %app-known (user ip)
  (aand (%app-acct-key user)
        (%app-known* (+ ip " " it))
        (< (- (seconds) it) login-known-window*)))

(def %app-note-good (user ip)
  (atomic (= (%app-known* (+ ip " " user)) (seconds))))

(def %app-note-fail (user ip)
  (atomic
    (%app-push-fail %app-fails* ip)
    (awhen (%app-acct-key user) (%app-push-fail %app-acct-fails* it))
    (when (or (> (len %app-fails*) 10000) (> (len %app-acct-fails*) 10000))
      (%app-harvest-fails))))

(def %app-push-fail (fails key)
  (= (fails key) (firstn 30 (cons (seconds) (fails key)))))

; Forgets the IPs and accounts with no failure in the window (many may
; have failed), and the good logins older than login-known-window*.
(def %app-harvest-fails ()
  (let now (msec)
    (each (fails next) (list (list %app-fails* %app-login-next*)
                             (list %app-acct-fails* %app-acct-next*))
      (each k (keys fails)
        (unless (%app-recent-fails fails k) (wipe (fails k))))
      (each (k t1) (tablist next)
        (when (< t1 now) (wipe (next k)))))
    (each (k secs) (tablist %app-known*)
      (when (> (- (seconds) secs) login-known-window*)
        (wipe (%app-known* k))))))

; Checked for a user with no password, so that a name that does not exist
; takes as long to refuse as a wrong password does.
(= %app-dummy-hash* nil)

(def %app-pw-ok (user pw)
  (let hash (hpasswords* user)
    (if (isa hash 'string)
        (%pw-verify hash pw)
        (do (%pw-verify (or= %app-dummy-hash* (%pw-hash (rand-string 20))) pw)
            nil))))

; (good-login user pw ip): user if pw is its password, else nil. The
; attempt goes in good-logins* or bad-logins* as (seconds ip user).
(def good-login (user pw ip)
  (let record (list (seconds) ip user)
    (aif (%app-login-wait user ip)
         (do (when (> it 0) (sleep (/ it 1000.0)))
             (if (and (isa user 'string) (isa pw 'string) (%app-pw-ok user pw))
                 (do (unless (or app-sessions* (user->cookie* user))
                       (cook-user user))
                     (%app-note-good user ip)
                     (enq-limit record good-logins*)
                     user)
                 (do (%app-note-fail user ip)
                     (enq-limit record bad-logins*)
                     nil)))
         (do (enq-limit record bad-logins*)
             nil))))

; --- Forms and links for one user ------------------------------------------

(mac when-umatch (user req . body)
  `(if (is ,user (get-user ,req))
       (do ,@body)
       (mismatch-message)))

(mac when-umatch/r (user req . body)
  `(if (is ,user (get-user ,req))
       (do ,@body)
       "mismatch"))

(def mismatch-message ()
  (prn "Dead link: users don't match."))

(defop mismatch req (mismatch-message))

(mac uform (user req after . body)
  `(aform (fn (,req) (when-umatch ,user ,req ,after))
     ,@body))

(mac urform (user req after . body)
  `(arform (fn (,req) (when-umatch/r ,user ,req ,after))
     ,@body))

; A link made for user that does nothing for anyone else who follows it.
(mac ulink (user text . body)
  (w/uniq req
    `(linkf ,text (,req)
       (when-umatch ,user ,req ,@body))))

; --- Pages and ops ---------------------------------------------------------

; Prints x, a string or anything else, with the characters of HTML escaped.
(def %app-pr-esc (x)
  (pr (eschtml (if (isa x 'string) x (tostring (disp x))))))

(defop admin req (admin-gate (get-user req)))

(def admin-gate (u)
  (if (admin u)
      (admin-page u)
      (login-page 'login nil "admin")))

; The admin's account form checks a new name as the login page does
; (bad-newacct), where Arc 3.1 took any name.
(def admin-page (user . msg)
  (whitepage
    (prbold "Admin: ")
    (hspace 20)
    (%app-pr-esc user)
    (pr " | ")
    (w/link (do (logout-user user)
                (whitepage (pr "Bye ") (%app-pr-esc user) (pr ".")))
      (pr "logout"))
    (when msg
      (hspace 10)
      (each m msg (%app-pr-esc m)))
    (br2)
    (aform (fn (req)
             (when-umatch user req
               (with (u (arg req "u") p (arg req "p"))
                 (if (or (blank u) (blank p))
                      (pr "Bad data.")
                     (user-exists u)
                      (admin-page user "User already exists: " u)
                      (aif (bad-newacct u p)
                           (admin-page user it)
                           (do (create-acct u p)
                               (admin-page user)))))))
      (pwfields "create (server) account"))))

(def hello-page (user ip)
  (whitepage (pr "hello ") (%app-pr-esc user) (pr " at ") (%app-pr-esc ip)))

; The login op shows the login page, and its forms post back to it, so
; that a page anyone may load stores no closure (a client loading it in a
; loop would otherwise expire everyone's links, srv.arc's fnids). As in
; Arc 3.1 it shows the login form alone; beyond Arc 3.1, a switch argument
; (login, register or both) asks for the others, as an application's
; "login" link does where visitors may sign up. A form sends acct (login
; or create), the page's switch, and whence, the local path to go to
; afterwards; without whence, hello-page follows.
(defop-raw login (str req)
  (w/stdout str
    (let whence (aand (arg req "whence") (local-path it nil))
      (if (no (and (is req!type 'post) (arg req "acct")))
           (do (prn)
               (login-page (%app-switch req) nil (or whence hello-page)))
          (%app-same-origin req)
           (%app-login-post req (or whence hello-page))
           (do (%port-reset str)
               (respond-status str 403 "Login refused: the form came from another site."))))))

; Whether a request's Origin, if it has one, is this host: a form that
; another site makes posts with its own. Checked before logging anyone in,
; or another site could log its visitor in as a user of its choosing.
(def %app-same-origin (req)
  (let origin (alref req!headers "origin")
    (or (no origin)
        (aand (alref req!headers "host")
              (in origin (+ "http://" it) (+ "https://" it))))))

(def %app-login-post (req afterward)
  ((if (is (arg req "acct") "create") create-handler login-handler)
   req (%app-switch req) afterward))

; A login page's switch, from the request's switch argument: login unless
; it names another.
(def %app-switch (req)
  (case (arg req "switch") "register" 'register "both" 'both 'login))

; (login-page switch (o msg) (o afterward hello-page)): switch is login,
; register or both. afterward is a function of the user and the IP that
; prints the page after logging in, or a list (f url): call f on them,
; then send the browser to url. Beyond Arc 3.1 it may be a local path, to
; go to afterwards: such a page, like one with hello-page after it, posts
; to the login op and stores no closure.
(def login-page (switch (o msg nil) (o afterward hello-page))
  (whitepage
    (pagemessage msg)
    (when (in switch 'login 'both)
      (login-form "Login" switch login-handler afterward)
      (hook 'login-form afterward)
      (br2))
    (when (in switch 'register 'both)
      (login-form "Create Account" switch create-handler afterward))))

; A list afterward ends in a redirect, so its form posts to the op that
; may print header lines (the cookie) and returns the location.
(def login-form (label switch handler afterward)
  (prbold label)
  (br2)
  (if (or (isa afterward 'string) (is afterward hello-page))
      (tag (form method 'post action "login")
        (%app-hidden "acct" (if (is handler create-handler) "create" "login"))
        (%app-hidden "switch" switch)
        (when (isa afterward 'string) (%app-hidden "whence" afterward))
        (pwfields (downcase label)))
      (fnform (fn (req) (handler req switch afterward))
              (fn () (pwfields (downcase label)))
              (acons afterward))))

(def %app-hidden (name val)
  (gentag input type 'hidden name name value (%app-inval val)))

(def login-handler (req switch afterward)
  (logout-req req)
  (aif (good-login (arg req "u") (arg req "p") req!ip)
       (login it req!ip (login-cookie it) afterward (is req!scheme "https"))
       (failed-login switch "Bad login." afterward)))

(def create-handler (req switch afterward)
  (logout-req req)
  (with (user (arg req "u") pw (arg req "p"))
    (aif (bad-newacct user pw)
         (failed-login switch it afterward)
         (do (create-acct user pw)
             (login user req!ip (login-cookie user) afterward (is req!scheme "https"))))))

; Prints the cookie among the header lines (Secure if secure, prcookie),
; then either ends the header and prints the next page, or returns the url
; to redirect to, or (a string afterward) makes the answer a redirect
; there.
(def login (user ip cookie afterward (o secure))
  (= (logins* user) ip)
  (fnid-owner user)
  (when (isa afterward 'string)
    (%app-redirect-start afterward))
  (prcookie cookie secure)
  (if (acons afterward)
       (let (f url) afterward
         (f user ip)
         url)
      (isa afterward 'string)
       (prn)
       (do (prn)
           (afterward user ip))))

; (redirect-to url): an op that has printed its header, or more, answers
; instead with a redirect to url (a local path, or one checked already).
(def redirect-to (url)
  (%app-redirect-start url)
  (prn))

(def %app-redirect-start (url)
  (%port-reset (stdout))
  (prn rdheader*)
  (prn "Location: " (%srv-header-value url)))

; s if it names a page of this site: a relative or absolute path, with no
; scheme, not starting "//", and nothing that could end a header line or
; an attribute. Else default. Every whence a request brings is checked
; with it, once decoded, before anything redirects there. Only printable
; ASCII passes: a browser drops tabs, CRs and LFs anywhere in a location
; and control characters and spaces (U+00A0 and U+3000 among them) at its
; ends, and reads \ as /, so any of them could turn a path into "//host".
;
; The last string checked is remembered with its verdict (a copy of it: the
; string may change after), as a list page asks the same whence for each of
; its items' links.
(= %local-path-last* (list nil))

(def local-path (s (o default "news"))
  (if (isa s 'string)
      (let last %local-path-last*
        (if (is (car last) s)
            (if (cdr last) s default)
            (let ok (and (< 0 (len s) 2000)
                         (all [and (< 32 (int _) 127) (no (in _ #\\ #\" #\' #\< #\>))] s)
                         (no (begins s "//"))
                         (no (posmatch ":" (or (car (tokens s [in _ #\/ #\? #\#])) ""))))
              (= %local-path-last* (cons (copy s) ok))
              (if ok s default))))
      default))

(def failed-login (switch msg afterward)
  (if (acons afterward)
      (flink (fn ignore (login-page switch msg afterward)))
      (do (prn)
          (login-page switch msg afterward))))

(def pwfields ((o label "login"))
  (inputs u username 20 nil
          p password 20 nil)
  (br)
  (submit label))

(defop logout req
  (aif (get-user req)
       (do (logout-req req)
           (pr "Logged out."))
       (pr "You were not logged in.")))

(defop whoami req
  (aif (get-user req)
       (do (%app-pr-esc it) (pr " at ") (%app-pr-esc req!ip))
       (do (pr "You are not logged in. ")
           (link "Log in" "login")
           (pr "."))))

; (defopl name req . body): an op for logged-in users; anyone else gets a
; login page that comes back to the same op and arguments.
(mac defopl (name parm . body)
  `(defop ,name ,parm
     (if (get-user ,parm)
         (do ,@body)
         (login-page 'both
                     "You need to be logged in to do that."
                     (+ ,(string name) (%app-query ,parm))))))

; The request's arguments as a query string, like srv.arc's
; reassemble-args but encoded: the result goes into a Location header,
; where a decoded newline would start a header line of the client's.
(def %app-query (req)
  (if req!args
      (tostring
        (on a req!args
          (pr (if (is index 0) "?" "&") (%app-urlenc (car a)))
          (when (cdr a) (pr "=" (%app-urlenc (cadr a))))))
      ""))

; s with every ASCII character but letters, digits and -_.~ percent-encoded.
(def %app-urlenc (s)
  (tostring
    (each c s
      (if (or (alphadig c) (in c #\- #\_ #\. #\~) (> (coerce c 'int) 127))
          (writec c)
          (pr (urlencode (string c)))))))

; --- Typed form fields -----------------------------------------------------

(= formwid* 60 bigformwid* 80 numwid* 16 formatdoc-url* nil)

; A value no form field can produce: readvar's failure marker.
(= fail* (list 'fail*))

(def text-type (typ) (in typ 'string 'string1 'url 'text 'mdtext 'mdtext2))

; (text-rows text wid (o pad 3)): rows for text in a box wid wide.
(def text-rows (text wid (o pad 3))
  (+ (trunc (/ (len text) (* wid .8))) pad))

; (needrows text cols (o pad 0)): rows a textarea cols wide needs for text.
(def needrows (text cols (o pad 0))
  (+ pad (max (+ 1 (count #\newline text))
              (roundup (/ (len text) (- cols 5))))))

; (readvar typ str (o fail)): the text a form field sent, as a value of
; type typ, or fail if it is not one. Text types lose their tags so that
; no markup gets into a page that shows them; a choice must be one of the
; options offered (Arc 3.1 took anything).
(def readvar (typ str (o fail nil))
  (case (carif typ)
    string  (striptags str)
    string1 (if (blank str) fail (striptags str))
    url     (if (blank str) "" (valid-url str) (clean-url str) fail)
    num     (or (car (%app-readnum str)) fail)
    int     (or (cadr (%app-readnum str)) fail)
    posint  (let i (cadr (%app-readnum str))
              (if (and i (> i 0)) i fail))
    text    (striptags str)
    doc     (striptags str)
    mdtext  (md-from-form str)
    mdtext2 (md-from-form str t)
    sym     (aif (car (tokens str)) (sym it) fail)
    syms    (map sym (tokens str))
    sexpr   (errsafe (readall str))
    users   (keep goodname (tokens str))
    toks    (tokens str)
    bigtoks (tokens str)
    lines   (lines str)
    choice  (if (some [is (tostring (disp _)) str] (cddr typ))
                (readvar (cadr typ) str fail)
                fail)
    yesno   (is str "yes")
    hexcol  (if (hex>color str) str fail)
    time    (or (errsafe (parse-time str)) fail)
    date    (or (errsafe (parse-date str)) fail)
            (err "readvar: unknown type" typ)))

; The number str reads as and it rounded, as a list, or nil if str is not
; a number or one too big to round (1e400 reads as infinity).
(def %app-readnum (str)
  (let n (saferead str)
    (and (number n)
         (aif (errsafe (round n)) (list n it)))))

; (varcompare typ): an ordering of values of type typ, for sorting: longer
; lists first, dates and other values ascending with empty ones last.
(def varcompare (typ)
  (if (in typ 'syms 'sexpr 'users 'toks 'bigtoks 'lines 'hexcol)
       (fn (x y) (> (len x) (len y)))
      (is typ 'date)
       (fn (x y) (or (no y) (%app-date< x y)))
       (fn (x y) (or (empty y) (and (~empty x) (< x y))))))

; A field's value as an input's value attribute prints it: nil stays nil
; (no attribute), anything else becomes its printed form, which the
; attribute's printer escapes (it escapes only strings).
(def %app-inval (x)
  (if (or (no x) (isa x 'string)) x (tostring (disp x))))

; (varfield typ id val): the input for a field of type typ named id.
; Textarea contents are escaped: the text of a text type fully, the HTML
; of an mdtext type only its < and >, so that its entities still show as
; the characters they stand for and come back as they went.
(def varfield (typ id val)
  (if (in typ 'string 'string1 'url)
       (gentag input type 'text name id value (%app-inval val) size formwid*)
      (in typ 'num 'int 'posint 'sym)
       (gentag input type 'text name id value (%app-inval val) size numwid*)
      (in typ 'users 'toks)
       (gentag input type 'text name id value (tostring (apply prs val))
                     size formwid*)
      (is typ 'sexpr)
       (gentag input type 'text name id
                     value (tostring (each e val (write e) (pr " ")))
                     size formwid*)
      (in typ 'syms 'text 'doc 'mdtext 'mdtext2 'lines 'bigtoks)
       (let text (if (in typ 'syms 'bigtoks)
                      (tostring (apply prs val))
                     (is typ 'lines)
                      (tostring (apply pr (intersperse #\newline val)))
                     (in typ 'mdtext 'mdtext2)
                      (unmarkdown (or val ""))
                      (or (%app-inval val) ""))
         (tag (textarea cols (if (is typ 'doc) bigformwid* formwid*)
                        rows (needrows text formwid* 4)
                        wrap 'virtual
                        style (if (is typ 'doc) "font-size:8.5pt")
                        name id)
           ; A newline first, or browsers drop a newline the text begins with.
           (prn)
           (pr (if (in typ 'mdtext 'mdtext2)
                   (%app-esc-lt text)
                   (eschtml text))))
         (when (and formatdoc-url* (in typ 'mdtext 'mdtext2))
           (pr " ")
           (tag (font size -2)
             (link "help" formatdoc-url* (gray 175)))))
      (caris typ 'choice)
       (menu id (cddr typ) val)
      (is typ 'yesno)
       (menu id '("yes" "no") (if val "yes" "no"))
      (is typ 'hexcol)
       (gentag input type 'text name id value (%app-inval val))
      (is typ 'time)
       (gentag input type 'text name id value (if val (english-time val) ""))
      (is typ 'date)
       (gentag input type 'text name id value (if val (english-date val) ""))
       (err "varfield: unknown type" typ)))

(def %app-esc-lt (s)
  (tostring
    (each c s
      (case c #\< (pr "&#60;") #\> (pr "&#62;") (writec c)))))

; (varline typ id val (o liveurls)): a field's value, shown. mdtext is
; HTML that md-from-form made safe and is printed as it is. A string
; field may hold HTML the application made (Arc 3.1's news.arc shows its
; "reset password" and "saved" links as read-only string fields), which
; Arc 3.1 printed as it is: so is it here when its only markup is links
; and underlining (%app-link-markup). Text a user typed reaches a string
; field through readvar, which strips its tags, but not by every path (a
; poll option's title is typed elsewhere), and Arc 3.1 printed such text
; raw too: here it is escaped, as every other text type's value is
; (docs/LANGUAGE.md 6.4). A time or date shows as english-time or
; english-date does (Arc 3.1 showed the raw number or list).
(def varline (typ id val (o liveurls))
  (if (in typ 'users 'syms 'toks 'bigtoks)
       (on x val (if (> index 0) (pr " ")) (%app-pr-esc x))
      (is typ 'lines)
       (each x val (%app-pr-esc x) (prn))
      (is typ 'yesno)
       (pr (if val 'yes 'no))
      (caris typ 'choice)
       (varline (cadr typ) nil val)
      (is typ 'url)
       (if (and liveurls (valid-url val))
           (tag (a href (eschtml val)) (%app-pr-esc val))
           (%app-pr-esc (or val "")))
      (in typ 'mdtext 'mdtext2)
       (pr (or val ""))
      (and (is typ 'string) (%app-link-markup val))
       (pr val)
      (text-type typ)
       (%app-pr-esc (or val ""))
      (and (is typ 'time) val)
       (pr (english-time val))
      (and (is typ 'date) (valid-date val))
       (pr (english-date val))
       (%app-pr-esc val)))

; Whether s is a string with markup in it, and that markup only what an
; application's links are made of: <a href=...> to a page of this site or
; an http(s) URL, <u>, and their ends, with no other attribute and no
; stray < or >. Anything else (a script, a handler, a javascript: link,
; a tag a user could have typed to style a page) is not.
(def %app-link-markup (s)
  (and (isa s 'string)
       (posmatch "<" s)
       (catch
         (let i 0
           (while (< i (len s))
             (case (s i)
               #\< (let j (pos #\> s i)
                     (unless (and j (%app-link-tag (cut s (+ i 1) j))) (throw nil))
                     (= i (+ j 1)))
               #\> (throw nil)
                   (++ i))))
         t)))

(def %app-link-tag (text)
  (let parts (tokens text)
    (case (car parts)
      "u"  (no (cdr parts))
      "/u" (no (cdr parts))
      "/a" (no (cdr parts))
      "a"  (and (single (cdr parts))
                (%app-link-href (cadr parts))))))

(def %app-link-href (attr)
  (and (begins attr "href=")
       (let v (cut attr 5)
         (when (and (> (len v) 1) (is (v 0) #\") (is (v (- (len v) 1)) #\"))
           (= v (cut v 1 -1)))
         (and (no (find [in _ #\" #\' #\< #\>] v))
              (or (local-path v nil)
                  (and (or (begins v "http://") (begins v "https://"))
                       (valid-url v)))))))

; (vars-form user fields f done (o button "update") (o lasts)): a form of
; fields (type name value view? modify? [question]). When user submits it,
; (f name value) for each modifiable field whose text reads as its type,
; then (done). Its fnid expires after lasts seconds, if lasts.
; A form that changes nothing (nothing modifiable, as for a visitor) is
; only the table, with no closure behind it.
(def vars-form (user fields f done (o button "update") (o lasts))
  (%app-vars-form user fields f done button lasts nil))

; The same, redirecting (as arform does): done answers the url the
; browser goes to, so that the address bar shows that page and reloading
; it does not post the form again.
(def vars-rform (user fields f done (o button "update") (o lasts))
  (%app-vars-form user fields f done button lasts t))

(def %app-vars-form (user fields f done button lasts redir)
  (if (no (some [_ 4] fields))
      (tab (showvars fields))
      (let update (fn (req)
                    (each (k v) req!args
                      (awhen (and v (find [is (string (cadr _)) k] fields))
                        (let (typ id val view mod) it
                          (when mod
                            (let newval (readvar typ v fail*)
                              (unless (is newval fail*)
                                (f id newval))))))))
        (if redir
            (tarform lasts
                     (fn (req) (when-umatch/r user req (update req) (done)))
              (tab (showvars fields))
              (br)
              (submit button))
            (taform lasts
                    (fn (req) (when-umatch user req (update req) (done)))
              (tab (showvars fields))
              (br)
              (submit button))))))

(def showvars (fields (o liveurls))
  (each (typ id val view mod question) fields
    (when view
      (when question
        (tr (td (prn question))))
      (tr (unless question (tag (td valign 'top) (pr id ":")))
          (td (if mod
                  (varfield typ id val)
                  (varline typ id val liveurls))))
      (prn))))

; --- Text formatting: markdown and back ------------------------------------

; The notation news.arc stores comments in, a tiny subset of Markdown:
; a blank line starts a paragraph, a paragraph indented two or more spaces
; is code, *text* is italic, and http/https URLs become links. The HTML
; has the shape Arc 3.1 writes (<p>, <i>, <a href="..." rel="nofollow">,
; <pre><code>), so stored items move between the two, and unmarkdown
; turns it back into the source for editing.

; (indented-code s i (o newlines 0) (o spaces 0)): if the whitespace from i
; holds a blank line (newlines counted from the arguments on) and then
; indents its next line by two or more spaces, (j n): the index of that
; line's first nonblank character and the indentation. Otherwise nil.
(def indented-code (s i (o newlines 0) (o spaces 0))
  ((afn (j nl sp)
     (let c (s j)
       (if (nonwhite c)       (if (and (> nl 1) (> sp 1)) (list j sp))
           (atend j s)        nil
           (is c #\newline)   (self (+ j 1) (+ nl 1) 0)
                              (self (+ j 1) nl (+ sp 1)))))
   i newlines spaces))

; (parabreak s i (o newlines 0)): if i starts whitespace holding a blank
; line, the index where the next paragraph starts; else nil.
(def parabreak (s i (o newlines 0))
  ((afn (j nl)
     (let c (s j)
       (if (or (nonwhite c) (atend j s))
           (if (> nl 1) j)
           (self (+ j 1) (if (is c #\newline) (+ nl 1) nl)))))
   i newlines))

; (next-parabreak s i): (start end) of the first paragraph break at or
; after i, or nil.
(def next-parabreak (s i)
  ((afn (j)
     (unless (atend j s)
       (aif (parabreak s j) (list j it) (self (+ j 1)))))
   i))

; (paras s (o i 0)): the paragraphs of s from i, the last trimmed at its
; end. Unlike Arc 3.1 a last paragraph of one character is kept and an
; empty one dropped (news.arc splits poll choices with this).
(def paras (s (o i 0))
  ((afn (i acc)
     (if (>= i (len s))
         (rev acc)
         (iflet (end next) (next-parabreak s i)
                (self next (cons (cut s i end) acc))
                (let final (trim (cut s i) 'end)
                  (rev (if (is final "") acc (cons final acc)))))))
   i nil))

(def opendelim (c) (in c #\< #\( #\[ #\{))

(def closedelim (c) (in c #\> #\) #\] #\}))

; (urlend s i (o indelim)): the index just past the URL that starts at i.
; Trailing punctuation is not part of it; a bracket is when it opens a
; group that goes on, or closes one the URL opened (indelim: inside one).
(def urlend (s i (o indelim))
  ((afn (j indelim)
     (let c (s j)
       (if (atend j s)
           (if ((orf punc whitec opendelim) c) j
               (closedelim c)                  (if indelim (+ j 1) j)
                                               (+ j 1))
           (let next (s (+ j 1))
             (if (or (whitec c)
                     (and (punc c) (whitec next))
                     (and ((orf whitec punc) next)
                          (or (opendelim c)
                              (and (closedelim c) (no indelim)))))
                 j
                 (opendelim c)  (self (+ j 1) t)
                 (closedelim c) (self (+ j 1) nil)
                                (self (+ j 1) indelim))))))
   i indelim))

; (code-block s i): the text of a code block whose first line starts after
; index i, up to (not including) the newline before the first line that
; starts with a nonblank character, or the end of s. As in Arc 3.1, such a
; line is looked for only two characters or more before the end, so a last
; line of one character stays in the block.
(def code-block (s i)
  (let n (len s)
    ((afn (j)
       (let left (- n j 1)
         (if (or (<= left 0)
                 (and (> left 2)
                      (is (s (+ j 1)) #\newline)
                      (nonwhite (s (+ j 2)))))
             (cut s (+ i 1) (+ j 1))
             (self (+ j 1)))))
     i)))

; (markdown s (o maxurl) (o nolinks)): s as HTML. s is taken to be HTML
; already (md-from-form escapes a form's text first); link text is cut to
; maxurl characters. Departing from Arc 3.1, a lone * at the very end is
; left as it is rather than opening an <i> that never closes, and an <i>
; still open at the end (its closing * was in a code block) is closed.
(def markdown (s (o maxurl) (o nolinks))
  (let ital nil
    (tostring
      ((afn (i)
         (when (< i (len s))
           (self (%app-md-step s i maxurl nolinks ital
                               (fn () (pr (if ital "</i>" "<i>"))
                                      (assign ital (no ital)))))))
       0)
      (when ital (pr "</i>")))))

; Prints what markdown makes of the text at index i; returns the index to
; go on from. toggle flips italics.
(def %app-md-step (s i maxurl nolinks ital toggle)
  (iflet (start spaces) (indented-code s i (if (is i 0) 2 0))
    (withs (from (- start spaces 1)
            code (code-block s from))
      (pr "<p><pre><code>" code "</code></pre>")
      (+ from (len code) 1))
    (iflet next (parabreak s i (if (is i 0) 1 0))
      (do (unless (is i 0) (pr "<p>"))
          next)
      (and (is (s i) #\*)
           (or ital
               (and (< (+ i 1) (len s))
                    (nonwhite (s (+ i 1)))
                    (pos #\* s (+ i 1)))))
        (do (toggle) (+ i 1))
      (and (no nolinks)
           (or (litmatch "http://" s i) (litmatch "https://" s i)))
        (withs (end (urlend s i)
                url (clean-url (cut s i end)))
          (pr "<a href=\"" url "\" rel=\"nofollow\">"
              (if maxurl (ellipsize url maxurl) url)
              "</a>")
          end)
        (do (writec (s i)) (+ i 1)))))

; (md-from-form str (o nolinks)): the text of a form field as safe HTML:
; tags escaped, carriage returns dropped, the end trimmed, then markdown
; with link text of at most 60 characters.
(def md-from-form (str (o nolinks))
  (markdown (trim (rem #\return (esc-tags str)) 'end) 60 nolinks))

; (unmarkdown s): the source notation for HTML that markdown produced: <p>
; back to a blank line, <i> and </i> to *, a link to its URL, a code block
; to its text. Anything else is copied.
(def unmarkdown (s)
  (tostring
    ((afn (i)
       (when (< i (len s))
         (self
           (if (litmatch "<p>" s i)
                (do (unless (is i 0) (pr "\n\n")) (+ i 3))
               (litmatch "<i>" s i)
                (do (pr #\*) (+ i 3))
               (litmatch "</i>" s i)
                (do (pr #\*) (+ i 4))
               (litmatch "<a href=" s i)
                (%app-unmd-link s i)
               (litmatch "<pre><code>" s i)
                (iflet end (findsubseq "</code></pre>" s (+ i 11))
                  (do (pr (cut s (+ i 11) end)) (+ end 13))
                  (do (writec (s i)) (+ i 1)))
                (do (writec (s i)) (+ i 1))))))
     0)))

; A link <a href="URL" ...>text</a> at i: prints URL (the quotes around
; it dropped) and returns the index past </a>.
(def %app-unmd-link (s i)
  (iflet end (pos [in _ #\> #\space] s (+ i 9))
    (do (pr (cut s (+ i 9) (max (+ i 9) (- end 1))))
        (aif (findsubseq "</a>" s end) (+ it 4) (+ end 1)))
    (do (writec (s i)) (+ i 1))))

; --- Times and dates -------------------------------------------------------

; (english-time min): minutes since midnight as a 12-hour clock time.
(def english-time (min)
  (withs (n (mod min 720)
          h (trunc (/ n 60))
          m (mod n 60))
    (string (if (is h 0) 12 h)
            ":" (if (< m 10) "0") m
            (if (is min 0)   " midnight"
                (is min 720) " noon"
                (>= min 720) " pm"
                             " am"))))

; (parse-time s): "3:05 pm", "12 noon", "9am", "21:30" as minutes since
; midnight. As in Arc 3.1 an hour from 1 to 12 with no am or pm is taken
; to be after noon; 0 and hours over 12 are read as a 24-hour clock.
; Anything else, or an hour or minute out of range, is an error.
(def parse-time (s)
  (withs ((nums (o label "")) (halve s letter)
          (h (o m 0) . more)  (map int (tokens nums ~digit))
          label               (downcase (rem ~alphadig label))
          am                  (in label "am" "a" "midnight"))
    (unless (and h (no more) (<= 0 h 23) (<= 0 m 59)
                 (in label "" "am" "pm" "a" "p" "midnight" "noon")
                 (or (is h 12) (no (in label "midnight" "noon")))
                 (or (<= h 12) (in label "" "pm" "p"))
                 (or (> h 0) (in label "" "am" "a")))
      (err (+ "Bad time: " s)))
    (+ (* 60 (if (or (> h 12) (is h 0)) h
                 am                      (if (is h 12) 0 h)
                 (is h 12)               12
                                         (+ h 12)))
       m)))

(= months* '("January" "February" "March" "April" "May" "June" "July"
             "August" "September" "October" "November" "December"))

; Lower-case month names and their abbreviations -> month numbers.
(= month-names* (table))
(on name months*
  (let lc (downcase name)
    (= (month-names* lc) (+ index 1)
       (month-names* (cut lc 0 3)) (+ index 1))))
(= (month-names* "sept") 9)

(def monthnum (s) (month-names* (downcase s)))

; (english-date (y m d)): "5 March 2009".
(def english-date ((y m d))
  (string d " " (months* (- m 1)) " " y))

; (date-nums s): the (y m d) a date string names, or nil. Numbers alone
; are read as d, m d (or d m when the first is over 12), y m d when the
; first is over 31, else d m y; a month may be named before or after the
; day; a missing year or month is the current one.
(def date-nums (s)
  (withs ((ynow mnow dnow) (date)
          toks (tokens s ~alphadig)
          num  (fn (tok) (and tok (all digit tok) (int tok))))
    (if (no toks)
         nil
        (all [all digit _] toks)
         (let ns (map int toks)
           (case (len ns)
             1 (list ynow mnow (car ns))
             2 (let (a b) ns
                 (if (and (> a 12) (<= b 12)) (list ynow b a) (list ynow a b)))
               (if (> (car ns) 31)
                   (firstn 3 ns)
                   (rev (firstn 3 ns)))))
        (num (car toks))
         (aif (and (cadr toks) (monthnum (cadr toks)))
              (list (or (num (car:cddr toks)) ynow) it (num (car toks))))
        (monthnum (car toks))
         (aif (num (cadr toks))
              (list (or (num (car:cddr toks)) ynow)
                    (monthnum (car toks))
                    it)))))

; (valid-date (y m d)): t if that day exists (Arc 3.1 accepted any day up
; to 31 of any month).
(def valid-date (ymd)
  (let (y m d) (if (alist ymd) ymd)
    (and (isa y 'int) (isa m 'int) (isa d 'int)
         (<= 1 m 12)
         (<= 1 d (%app-month-days y m)))))

(def %app-month-days (y m)
  (if (is m 2)
      (if (and (multiple y 4) (or (~multiple y 100) (multiple y 400))) 29 28)
      (if (in m 4 6 9 11) 30 31)))

; (parse-date s): s as a (y m d) list; an error if it names no real date.
(def parse-date (s)
  (let ymd (date-nums s)
    (if (valid-date ymd)
        ymd
        (err (+ "Invalid date: " s)))))

; t if date a, a (y m d) list, is before date b.
(def %app-date< (a b)
  (and a b
       ((afn (xs ys)
          (and xs (or (< (car xs) (car ys))
                      (and (is (car xs) (car ys)) (self (cdr xs) (cdr ys))))))
        a b)))

