; apps/news/operate.arc — what the operator of a site needs besides the
; pages: the site's identity (its name, address, colour, logo, favicon)
; from the settings file and the command line; the first admin and a lost
; password; the control file that lets the operator's commands find the
; running server; backups of a running site and their restore. news.arc's
; command line calls these. Nothing here touches a file: the store does.

; --- The site's identity ---------------------------------------------------

; Each setting: its key in DIR/site and on the command line (--KEY), the
; global it sets (model.arc's, Arc 3.1's names, so that Arc code setting
; those globals itself still works) and its kind: text (not blank), blank
; (text that may be empty), url (http: or https:), color (six hex digits).
(= site-settings* '((name       this-site*   text)
                    (description site-desc*  text)
                    (url        site-url*    url)
                    (parent-url parent-url*  url)
                    (color      site-color*  color)
                    (logo       logo-url*    text)
                    (favicon    favicon-url* blank)))

(def site-setting-names () (map [string (car _)] site-settings*))

; The value of a setting, checked; nil with a message (a string) if bad.
(def site-parse-setting (kind s)
  (if (~isa s 'string)
       (list nil "should be a string")
      (case kind
        text  (if (blank s) (list nil "should not be empty") (list s))
        blank (list s)
        url   (if (and (or (begins s "http://") (begins s "https://"))
                       (> (len s) 8)
                       (no (find [or (whitec _) (in _ #\" #\< #\> #\')] s)))
                  (list s)
                  (list nil "should be an http: or https: URL"))
        color (let h (if (begins s "#") (cut s 1) s)
                (if (and (is (len h) 6) (all [find (downcase _) "0123456789abcdef"] h))
                    (list (apply color (map [coerce (cut h _ (+ _ 2)) 'int 16]
                                            '(0 2 4))))
                    (list nil "should be six hex digits, as ff6600"))))))

; (site-configure settings): sets the globals of the settings given (a
; table, key -> string: DIR/site's, then the command line's over them).
; An unknown key or a bad value is an error naming it.
(def site-configure (settings)
  (each (k v) (tablist settings)
    (let s (assoc (sym k) site-settings*)
      (unless s
        (err (+ "unknown site setting " k "; the settings are: "
                (apply string (intersperse ", " (site-setting-names))))))
      (let (val msg) (site-parse-setting (s 2) v)
        (when msg (err (+ "site setting " k " " msg ", not " (tostring (write v)))))
        ; the site's URL is where item?id=N is appended
        (when (and (is (s 0) 'url) (~endmatch "/" val))
          (zap [+ _ "/"] val))
        (eval `(assign ,(s 1) ',val))))))

; What the site will call itself, printed at the start.
(def site-describe ()
  (prn "site: " this-site* " at " site-url* " (the logo links to " parent-url*
       "); colour #" (hexrep site-color*) ", logo " logo-url*
       ", favicon " (if (blank favicon-url*) "favicon.ico (static/)" favicon-url*)))

; --- Admins and passwords --------------------------------------------------

; (news-make-admin u): u becomes an admin (the admins file, through the
; store); an account is made for u, with a generated password printed
; once, if u has none. Run with the site stopped: a running server reads
; the accounts and the admins at its start, and would write the password
; file over with what it holds.
(def news-make-admin (u login-url)
  (load-userinfo)
  (unless (admin u)
    (store-add-admin u)
    (push u admins*))
  (if (user-exists u)
      (prn u " is an admin. Log in as " u " at " login-url
           " (a lost password: --new-password " u ").")
      (let pw (rand-string 16)
        (create-acct u pw)
        (prn "admin account: " u " password: " pw " — shown once")
        (prn "Log in at " login-url " and change it with \"change password\" "
             "on your profile page.")))
  (ensure-news-user u))

; (news-new-password u): a new generated password for u's account,
; printed once; every session of u's ends. For a lost password, the
; demo's admin's too.
(def news-new-password (u login-url)
  (load-userinfo)
  (unless (user-exists u)
    (err (+ "no account named " u)))
  (let pw (rand-string 16)
    (set-pw u pw)
    (logout-user u)
    (prn "new password for " u ": " pw " — shown once; log in at " login-url)))

; --- The control file ------------------------------------------------------

; The running server's key for the operator's commands (the backup op):
; new at each start, kept in the control file, which only the data's owner
; can read.
(= news-control-key* nil)

(def news-write-control (port)
  (= news-control-key* (rand-string 32))
  (store-save-control (obj host (or srv-host* "127.0.0.1") port port
                           key news-control-key*))
  (on-shutdown store-remove-control))

; The address to reach the server at: where it listens, or, when it
; listens on every address, the loopback.
(def news-control-host (c)
  (case c!host
    "0.0.0.0" "127.0.0.1"
    "::"      "::1"
              c!host))

; t if a server of this data directory answers at the control file's
; address (a killed server leaves the file, but nothing answers there).
(def news-server-running ()
  (let c (store-control)
    (and c c!port
         (aif (errsafe (connect-socket (news-control-host c) c!port))
              (do (apply close it) t)))))

; --- Backups ---------------------------------------------------------------

; Asked by news-backup (below) with the control file's key in the
; X-News-Key header, never in the URL, which the request log keeps:
; makes a snapshot (store-snapshot) and answers its folder's name.
(defop-raw news-backup (str req)
  (w/stdout str
    (if (and news-control-key*
             (is (alref req!headers "x-news-key") news-control-key*)
             (is req!type 'post))
        (let snap (store-snapshot)
          (prn "HTTP/1.1 200 OK")
          (prn "Content-Type: text/plain; charset=utf-8")
          (prn)
          (pr (last (tokens snap #\/))))
        (do (prn "HTTP/1.1 403 Forbidden")
            (prn "Content-Type: text/plain; charset=utf-8")
            (prn)
            (pr "Forbidden.")))))

; (news-backup dest): asks the running server of this data directory for
; a snapshot, copies it to the new folder dest, removes the snapshot.
(def news-backup (dest)
  (let c (store-control)
    (unless (news-server-running)
      (err (+ "no news server runs on " (store-dir) " (while the site is stopped, "
              "a plain copy of the folder is a consistent backup)")))
    (let (i o) (connect-socket (news-control-host c) c!port)
      (w/stdout o
        (pr "POST /news-backup HTTP/1.1\r\nHost: localhost\r\nX-News-Key: " c!key
            "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"))
      (flushout o)
      (withs (answer (allchars i)
              status (cadr (tokens (car (lines answer))))
              name   (trim (cut answer (+ 4 (or (posmatch "\r\n\r\n" answer) -4)))))
        (close i o)
        (unless (and (is status "200") (begins name "backup-"))
          (err (+ "the server refused the backup: " (car (lines answer)))))
        (let snap (store-snapshot-dir name)
          (after (store-copy-dir snap dest)
                 (store-remove-dir snap)))
        (prn "backed up " (store-dir) " to " dest)))))

; (news-restore src): the data directory becomes the backup src; what it
; held is kept aside. Only with the site stopped.
(def news-restore (src)
  (when (news-server-running)
    (err (+ "a news server runs on " (store-dir) ": stop it first")))
  (let aside (store-restore src)
    (prn "restored " src " into " (store-dir) "; what was there is in " aside)))
