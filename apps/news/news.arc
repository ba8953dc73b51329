; apps/news/news.arc — the news forum of docs/LANGUAGE.md 6.9, the program a user runs:
;
;   build/arcana apps/news/news.arc [--port N] [--host ADDR] [--data DIR]
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

(each f '("store.arc" "model.arc" "pages.arc" "admin.arc" "demo.arc")
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
(def news-announce ()
  (thread
    (until currsock* (sleep .01))
    ; with arcana --workers each worker has a socket: none of them speaks
    (unless (%srv-worker)
      (prn "Serving the news site on " (news-base-url (socket-port currsock*)))
      (flushout))))

(def news-base-url (port)
  (let h (or srv-host* "0.0.0.0")
    (+ "http://" (if (posmatch ":" h) (+ "[" h "]") h) ":" port "/")))

; --- The command line ------------------------------------------------------

(= news-usage* "usage: build/arcana apps/news/news.arc [options]
  --port N      the port to listen on (default 8080; 0 picks a free one)
  --host ADDR   the address to listen on (default 127.0.0.1; 0.0.0.0: all)
  --data DIR    the data directory, Arc 3.1's arc/ folder (default arc/):
                DIR/news/story/ID, DIR/news/profile/USER, DIR/hpw, DIR/admins
  --no-demo     do not seed demo data into an empty data directory
  --help        print this and exit
An empty data directory is given demo users, stories and comments, and an
admin account whose password is printed once.")

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
  (let o (obj port 8080 host (or srv-host* "127.0.0.1") data "arc/" demo t)
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
            "--no-demo" (wipe o!demo)
                        (news-usage-error (+ "unknown option " a))))))
    (unless (endmatch "/" o!data) (zap [+ _ "/"] o!data))
    o))

(def news-main (args)
  (let o (news-parse-args args)
    (store-open o!data)
    (= srv-host* o!host
       news-seed* o!demo)
    (on-shutdown (fn () (prn "news site stopped") (flushout)))
    (nsv o!port)))

; Only when arcana was asked to run this very file.
(when (news-this-script)
  (news-main argv))
