; apps/news/news.arc — the news forum of docs/LANGUAGE.md 6.9, the program a user runs:
;
;   build/arcana apps/news/news.arc [--port N] [--host ADDR] [--data DIR] ...
;
; (--help lists every option; README.md, "Running a site", says how to
; run it as a service.)
;
; It loads the site (store.arc, model.arc, pages.arc, admin.arc, then
; demo.arc, all beside this file), points the store at DIR (the equivalent of Arc
; 3.1's arc/ folder: DIR/news/story/ID, DIR/hpw, DIR/admins ...), seeds
; demo data into an empty DIR, and serves until Ctrl-C or SIGTERM (srv.arc
; lets the requests in flight finish, then exits 0). Loaded from another
; program (the REPL, a test) it only defines: nothing starts unless this
; file is the script arcana was given, and then `nsv' starts the server as
; in Arc 3.1.

; --- Where the site's files are --------------------------------------------

; The folder of this file. script* is the script's path as typed on the
; command line; when that is not this file (a test that loads us, or the
; REPL, where it is nil), the site is taken to be run from the repository's
; root. A program may set news-home* itself before loading this file.
(def news-script-dir ()
  (let s (and (bound 'script*) script*)
    (when (and (isa s 'string) (or (is s "news.arc") (endmatch "/news.arc" s)))
      (aif (last (positions #\/ s))
           (cut s 0 (+ it 1))
           ""))))

; The folder, if model.arc is there (a file of the site's code, not of
; its data: not the store's business).
(def news-this-script ()
  (let d (news-script-dir)
    (and d (file-exists (+ d "model.arc")) d)))

(unless (and (bound 'news-home*) news-home*)
  (= news-home* (or (news-this-script) "apps/news/")))

(each f '("store.arc" "store-sqlite.arc" "model.arc" "pages.arc" "admin.arc" "demo.arc"
          "operate.arc")
  (load (+ news-home* f)))

(= staticdir* (+ news-home* "static/"))

; --- Starting --------------------------------------------------------------

; Seed demo data when the data directory has no items (the command line
; turns this on; Arc 3.1's nsv never seeds, and neither does ours when it
; is called from a program that leaves this nil).
(= news-seed* nil)

; Arc 3.1's nsv: the directories and the data (news-load makes the one
; and reads the other), the background jobs, then asv (which loads the
; accounts and serves). The data directory has no items when news-load
; found none (maxid* 0).
(def nsv ((o port 8080))
  (news-load)
  (when (and news-seed* (is maxid* 0))
    (load-userinfo)
    (news-demo))
  (news-start-jobs)
  (news-announce)
  (asv port))

; Prints the site's address once serve is listening: only then is the
; port known (port 0 asks the kernel for a free one).
;
; With no admin yet, it says how to make one. It also writes the control
; file (operate.arc), which needs the port.
(def news-announce ()
  (thread
    (until currsock* (sleep .01))
    ; with arcana --workers each worker has a socket: none of them speaks
    (unless (%srv-worker)
      (let port (socket-port currsock*)
        (when news-control* (news-write-control port))
        (unless admins*
          (prn "No admin yet: stop the site and run it once with --admin NAME "
               "(README.md, \"Running a site\")."))
        (prn "Serving the news site on " (news-base-url port)))
      (flushout))))

; Whether the server writes the control file (news-main sets it: a
; program that loads this file and calls nsv has none).
(= news-control* nil)

(def news-base-url (port)
  (let h (or srv-host* "0.0.0.0")
    (+ "http://" (if (posmatch ":" h) (+ "[" h "]") h) ":" port "/")))

; --- The command line ------------------------------------------------------

(= news-usage* "usage: build/arcana apps/news/news.arc [options]
  --port N      the port to listen on (default 8080; 0 picks a free one)
  --host ADDR   the address to listen on (default 127.0.0.1; 0.0.0.0: all)
  --data DIR    the data directory, Arc 3.1's arc/ folder (default arc/):
                DIR/news/story/ID, DIR/news/profile/USER, DIR/hpw, DIR/admins
  --store KIND  where the data is kept: file (the default: Arc 3.1's files
                under DIR, one a record) or sqlite (one SQLite database,
                DIR/news.db; README.md, \"Running a site\", says when)
  --no-demo     do not seed demo data into an empty data directory
The site's identity (each also a key of the settings file DIR/site, a
table as ((name \"My News\") (url \"https://news.example.org/\")); the
options win):
  --name TEXT        the site's name (default Arcana News)
  --description TEXT the RSS feed's description
  --url URL          where the site is, for RSS links (http://news.example.com/)
  --parent-url URL   where the logo links to (http://www.example.com)
  --color HEX        the top bar's colour, six hex digits (ff6600)
  --logo URL         the logo image (arc.png, in static/)
  --favicon URL      the favicon (default: static/favicon.ico)
Commands that run and exit instead of serving:
  --admin NAME         make NAME an admin, and its account with a password
                       printed once if it has none (with the site stopped)
  --new-password NAME  a new password for NAME, printed once (site stopped)
  --backup DEST        ask the running server for a consistent copy of its
                       data, written to the new folder DEST
  --restore SRC        make the data directory the backup SRC, keeping what
                       it held in DIR/replaced-DATE/ (with the site stopped)
  --import SRC         read SRC, a data directory in Arc 3.1's layout, into
                       the store (--store), which must be empty: with
                       --store sqlite, files to a database (site stopped)
  --export DEST        write the store's data as Arc 3.1's layout into the
                       new folder DEST: with --store sqlite, a database to
                       files (site stopped)
  --help        print this and exit
An empty data directory is given demo users, stories and comments, and an
admin account whose password is printed once (--new-password admin gives
another).")

(def news-usage-error (msg)
  (w/stdout (stderr)
    (prn "news.arc: " msg)
    (prn "Try --help for the options."))
  (quit 2))

(def news-parse-port (s)
  (let n (and (isa s 'string) (> (len s) 0) (all digit s) (<= (len s) 5)
              (saferead s))
    (if (and (isa n 'int) (<= 0 n 65535))
        n
        (news-usage-error (+ "--port wants a number from 0 to 65535, not "
                             (tostring (write s)))))))

; argv → a table of options (port host data demo). "--opt value" and
; "--opt=value" both work.
(def news-parse-args (args)
  ; arcana's own --host (before the script's name) sets srv-host* first
  (let o (obj port 8080 host (or srv-host* "127.0.0.1") data "arc/" demo t
              store 'file site (table) command nil)
    (while args
      (with (a (pop args) val nil)
        (awhen (and (begins a "--") (pos #\= a))
          (= val (cut a (+ it 1))
             a   (cut a 0 it)))
        (let value (fn ()
                     (or val
                         (and args (no (begins (car args) "--")) (pop args))
                         (news-usage-error (+ a " wants a value"))))
          (case a
            "--help"    (do (prn news-usage*) (quit 0))
            "-h"        (do (prn news-usage*) (quit 0))
            "--port"    (= o!port (news-parse-port (value)))
            "--host"    (= o!host (let h (value)
                                    (if (is h "")
                                        (news-usage-error "--host wants an address")
                                        h)))
            "--data"    (= o!data (let d (value)
                                    (if (is d "")
                                        (news-usage-error "--data wants a directory")
                                        d)))
            "--store"   (= o!store (let k (value)
                                     (if (in k "file" "sqlite")
                                         (sym k)
                                         (news-usage-error (+ "--store is file or sqlite, not "
                                                              (tostring (write k)))))))
            "--no-demo" (wipe o!demo)
                        (let name (cut a 2)
                          (if (and (begins a "--") (mem name (site-setting-names)))
                               (= (o!site (sym name)) (value))
                              (mem name '("admin" "new-password" "backup" "restore" "import"
                                          "export"))
                               (do (when o!command
                                     (news-usage-error (+ "give one of --admin, --new-password, "
                                                          "--backup, --restore, --import, --export")))
                                   (= o!command (list (sym name) (value))))
                              (news-usage-error (+ "unknown option " a))))))))
    (unless (endmatch "/" o!data) (zap [+ _ "/"] o!data))
    o))

; The settings file, then the options over it; a bad one stops the start.
(def news-configure (o)
  (on-err (fn (e) (news-usage-error (details e)))
          (fn ()
            (awhen (store-site-settings) (site-configure it))
            (site-configure o!site))))

(def news-main (args)
  (let o (news-parse-args args)
    (when (is o!store 'sqlite) (store-use-sqlite))
    ; a store that cannot be opened (a corrupt or unwritable database)
    ; stops the start with the reason, and status 1
    (on-err (fn (e)
              (w/stdout (stderr) (prn "news.arc: " (details e)))
              (quit 1))
            (fn () (store-open o!data)))
    (= srv-host* o!host
       news-seed* o!demo)
    (news-configure o)
    (if o!command
        (news-command o)
        (do (site-describe)
            (= news-control* t)
            (on-shutdown (fn () (prn "news site stopped") (flushout)))
            (nsv o!port)))))

; --admin, --new-password, --backup, --restore: done, then exit (status 1
; and the reason on stderr if it failed).
(def news-command (o)
  (let (cmd arg) o!command
    (on-err (fn (e)
              (w/stdout (stderr) (prn "news.arc: " (details e)))
              (quit 1))
            (fn ()
              (when (in cmd 'admin 'new-password 'import 'export)
                (unless (or (in cmd 'import 'export) (goodname arg 2 15))
                  (err (+ "a user name is 2 to 15 letters, digits, - or _, not "
                          (tostring (write arg)))))
                (when (news-server-running)
                  (err (+ "a news server runs on " (store-dir) ": stop it first"))))
              (let login (+ (if (is site-url* "http://news.example.com/")
                                (news-base-url o!port)
                                site-url*)
                            "login")
                (case cmd
                  admin        (do (news-load) (news-make-admin arg login))
                  new-password (news-new-password arg login)
                  backup       (news-backup arg)
                  restore      (news-restore arg)
                  import       (prn "imported " (store-import arg) " files of " arg
                                    " into " (store-dir) " (" o!store ")")
                  export       (prn "exported " (store-export arg) " files of " (store-dir)
                                    " (" o!store ") to " arg)))))
    (flushout)
    (quit 0)))

; Only when arcana was asked to run this very file.
(when (news-this-script)
  (news-main argv))
