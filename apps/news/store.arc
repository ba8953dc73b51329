; apps/news/store.arc — the news site's persistence: every file the site
; reads or writes, where it lies under the data directory, what it holds
; and how it is written. model.arc keeps the data in memory and decides
; everything; it loads and saves through the functions below, and nothing
; else in the site touches a file, so that another layout, or another
; backend (one that several processes share), changes this file alone.
;
; The interface (a record is an item, a profile or a user's votes):
;   (store-open dir)          the data directory; its disk tables and vars
;                             read into their globals
;   (store-load-all)          at the start: the folders made, what a crash
;                             left removed, the disk tables and vars read;
;                             gives the ids of the items stored, newest first
;   (store-load-item id), (store-load-profile u), (store-load-votes u)
;                             one record as stored, or nil
;   (store-user-names)        the users who have a profile
;   (store-user-ok u)         whether u can name a profile here
;   (store-topstories)        the saved front page (item ids), or nil
;   (store-save-item i), (store-save-profile u p), (store-save-votes u v),
;   (store-save-topstories ids)
;                             durable writes: done when they return
;   (store-next-id n)         an id above n that no item has and that no
;                             other call (in any process) gives
;   (store-remove-item id)    an item's record gone (a failed creation's)
;   (store-admins), (store-add-admin u)
;                             app.arc's admins file, read and added to
;   (store-change records f (o undo))
;                             f's writes of records, kept together or undone
;   (store-update record f)   a read-modify-write of one record
;   (store-item-version id)   how many times item id has been saved
;   (store-batch f)           f's many writes made durable at its end
;   (store-job)               the background job model.arc runs every few
;                             seconds (writes left unsaved, other processes'
;                             changes)
;   store-on-change*          set by the model: (f kind key r), what another
;                             process sharing the store changed, for the
;                             model to apply to its tables in memory (kind
;                             item, profile or votes, r the record as stored
;                             now, nil if removed; or kind topstories)
;   (store-site-settings)     the operator's settings file, DIR/site
;   (store-save-control h), (store-control), (store-remove-control)
;                             the running server's address and key
;   (store-snapshot)          a consistent copy, made under the lock
;   (store-copy-dir src dest), (store-remove-dir d), (store-restore src)
;                             copies out; a backup made the data again
; The disk tables and vars (store-vars*) are saved with todisk
; (stdlib/lib.arc), through the saver store-open registers for each;
; (store-reset-vars) empties them.
;
; A record given to store-change and store-update is a list (kind key
; table (o keys)): kind is item, profile or votes, key the item's id or
; the user's name, table the record in memory. The names that begin with
; %store- are this file's own.
;
; This backend is Arc 3.1's arc/ folder, file for file, so that Arc 3.1's
; data directory reads here and ours there: news/story/ID (one item),
; news/profile/USER, news/vote/USER (item id -> vote), news/topstories,
; the disk tables beside them, app.arc's hpw, cooks, sessions and admins,
; and srv.arc's logs/. Each file is one s-expression (a table as its
; tablist, a template's record as temload reads it), but the admins
; file, which holds names one after another; each is written as writefile
; (stdlib/lib.arc) writes: FILE.tmp, fsync, rename, fsync of the folder,
; and FILE.tmp removed if that fails; so a crash leaves the old file or
; the new one, and a stale FILE.tmp, which store-load-all removes.
;
; Items and profiles are read with model.arc's templates (item, profile),
; so that a field a file lacks (Arc 3.1 leaves out nil fields) gets its
; default.
;
; One process owns these files: every write runs under `atomic', the
; process's one lock, so two writes never share a FILE.tmp, and what is
; in memory is what the files hold.
;
; The second backend, SQLite (store-sqlite.arc, chosen with
; (store-use-sqlite) before store-open), keeps the same records in one
; database file, DIR/news.db, each as the same text its file holds here,
; and puts every function of this interface but the operator's files
; (DIR/site, DIR/control) and the copying of folders in place of this
; file's; the internal functions it replaces are named there. Between
; the two, (store-entries) lists what a store holds as Arc 3.1's files
; would (each a list of path and text), (store-put-entries es) stores
; such a list, (store-export dest) writes the store out as Arc 3.1's
; layout and (store-import src) reads one in.

; --- Where the files are -----------------------------------------------------

; (store-open dir): dir (ending in "/" or not) becomes Arc 3.1's arc/
; folder, for app.arc's and srv.arc's files too; the disk tables and vars
; are (re)read from it.
(def store-open ((o dir "arc/"))
  (let dir (if (endmatch "/" dir) dir (+ dir "/"))
    (= arcdir*    dir
       logdir*    (+ dir "logs/")
       hpwfile*   (+ dir "hpw")
       oidfile*   (+ dir "openids")
       adminfile* (+ dir "admins")
       cookfile*  (+ dir "cooks")
       sessfile*  (+ dir "sessions")
       newsdir*   (+ dir "news/")
       storydir*  (+ dir "news/story/")
       profdir*   (+ dir "news/profile/")
       votedir*   (+ dir "news/vote/")
       topfile*   (+ dir "news/topstories"))
    (%store-connect)
    (%store-load-vars)
    dir))

; The files need no connection (the SQLite backend opens its database).
(def %store-connect () nil)

(def %store-dirs ()
  (list arcdir* logdir* newsdir* storydir* profdir* votedir*))

(def %store-item-file (id) (+ storydir* id))

; A user name is a file name here only if goodname (app.arc) says so:
; letters, digits, - and _, so never a path nor a FILE.tmp.
(def store-user-ok (u) (and (isa u 'string) (goodname u 1 64)))

; --- Starting ----------------------------------------------------------------

(def store-load-all ()
  (map ensure-dir (%store-dirs))
  (each d (list storydir* profdir* votedir*) (%store-clean-tmp d))
  (%store-load-vars)
  (%store-item-ids))

; Deletes the FILE.tmp files a crash left in folder d.
(def %store-clean-tmp (d)
  (each f (or (errsafe (dir d)) nil)
    (when (endmatch ".tmp" f)
      (errsafe (rmfile (+ d f))))))

; The ids of the story folder, newest first.
(def %store-item-ids ()
  (sort > (trues [and (<= 1 (len _) 15) (all digit _) (int _)]
                 (or (errsafe (dir storydir*)) nil))))

; --- The disk tables and vars ------------------------------------------------

; The disk tables and vars of docs/LANGUAGE.md 6.9: (variable kind
; file-name), the file in newsdir*.
(= store-vars* '((lightweights*  table "lightweights")
                 (big-spamsites* table "big-spamsites")
                 (banned-ips*    table "banned-ips")
                 (banned-sites*  table "banned-sites")
                 (scrubrules*    var   "scrubrules")
                 (comment-kill*  var   "comment-kill")
                 (comment-ignore* var  "comment-ignore")
                 (ignore-log*    var   "ignore-log")))

; Each variable empty, as for a data directory without its file.
(def store-reset-vars ()
  (each (var kind) store-vars*
    (%store-assign var (if (is kind 'table) (table) nil))))

; Reads each disk table and var from newsdir* (its default if the file is
; missing or unreadable) and registers its saver for todisk, as disktable
; and diskvar do (they act only once per variable, and store-open may
; move the data).
(def %store-load-vars ()
  (each (var kind name) store-vars*
    (withs (file    (+ newsdir* name)
            istable (is kind 'table))
      (= (savers* var)
         (if istable
             (fn (v) (atomic (ensure-dir newsdir*) (save-table v file)))
             (fn (v) (atomic (ensure-dir newsdir*) (writefile v file)))))
      (%store-assign var
                     (or (and (file-exists file)
                              (errsafe (if istable
                                           (let h (load-table file)
                                             (and (isa h 'table) h))
                                           (readfile1 file))))
                         (if istable (table) nil))))))

; Sets a global by name (store-vars* holds names).
(def %store-assign (var val)
  (eval `(assign ,var ',val)))

; --- Records -----------------------------------------------------------------

; Each read gives nil for a record that is missing or cannot be read
; (a file cut short by something other than writefile).
(def store-load-item (id)
  (when (and (isa id 'int) (> id 0))
    (let f (%store-item-file id)
      (and (file-exists f) (errsafe (temload 'item f))))))

(def store-load-profile (u)
  (when (store-user-ok u)
    (let f (+ profdir* u)
      (and (file-exists f) (errsafe (temload 'profile f))))))

(def store-load-votes (u)
  (when (store-user-ok u)
    (errsafe (load-table (+ votedir* u)))))

(def store-user-names ()
  (keep store-user-ok (or (errsafe (dir profdir*)) nil)))

; id -> how many times the item has been saved since the start. What the
; pages keep made from an item (pages.arc's shared rows) holds while its
; number has not moved: every change to an item is saved, since it must
; be durable, so every change moves it. Never reset, so that an id used
; again in a fresh data directory (tests do that) cannot meet an old
; number.
(= store-versions* (table))

(def store-item-version (id) (store-versions* id 0))

(def store-save-item (i)
  (atomic
    (ensure-dir storydir*)
    (save-table i (%store-item-file i!id))
    (++ (store-versions* i!id 0))))

(def store-save-profile (u p)
  (unless (store-user-ok u) (err "store-save-profile: bad user name" u))
  (atomic
    (ensure-dir profdir*)
    (save-table p (+ profdir* u))))

(def store-save-votes (u v)
  (unless (store-user-ok u) (err "store-save-votes: bad user name" u))
  (atomic
    (ensure-dir votedir*)
    (save-table v (+ votedir* u))))

; An id is taken once its file exists; the caller keeps n past what it
; was given (model.arc's maxid*), so that the next call gives another.
(def store-next-id (n)
  (let id (+ n 1)
    (while (file-exists (%store-item-file id)) (++ id))
    id))

(def store-remove-item (id)
  (rmfile (%store-item-file id)))

; --- The front page and the admins -------------------------------------------

(def store-topstories ()
  (and (file-exists topfile*) (errsafe (readfile1 topfile*))))

(def store-save-topstories (ids)
  (atomic
    (ensure-dir newsdir*)
    (writefile ids topfile*)))

; The admins file is app.arc's (load-userinfo reads it into admins*):
; names, one after another, as Arc 3.1's admins file holds them.
(def store-admins ()
  (map string (or (errsafe (readfile adminfile*)) nil)))

(def store-add-admin (u)
  (atomic
    (let names (store-admins)
      (unless (mem u names)
        (%writefile-with adminfile*
                         (fn (o)
                           (each n (join names (list u))
                             (write (sym n) o)
                             (writec #\newline o))))))))

; --- Changes kept together, or undone ------------------------------------------

; (store-change records f (o undo)): runs f, which changes the tables of
; records and saves them, all under the one lock (so that no other
; request sees the change before it holds, nor changes those tables
; meanwhile); keys, when a record has them, are the only keys f may
; change (a user's votes: one item's). If f fails (a save on a full disk,
; say), each table gets its contents back as they were, undo (if given)
; takes back what f made beyond them (a new item), and each table is
; written again as it was; the error goes on, so the request is answered
; 500 with nothing of it shown or kept, and a retry makes no duplicate.
; A table that cannot be written back either is left to the unsaved job
; (store-save-unsaved), which writes it once it can, so that a restart
; does not find half of the change. Changes nest: an inner one that
; fails is undone, then the outer.
(= store-unsaved* nil)

(def store-change (records f (o undo))
  (atomic
    (with (before (%store-remember records)
           done   nil)
      (after (do1 (f) (set done))
             (unless done
               (%store-put-back before)
               (when undo (errsafe (undo)))
               (each (kind key r) before
                 (%store-write-back (list kind key r))))))))

; What store-change keeps of each record to put back if f fails: its keys'
; values (all of them, or those of keys).
(def %store-remember (records)
  (map (fn ((kind key r ks))
         (list kind key r ks (if ks (map [list _ (r _)] ks) (tablist r))))
       (keep [_ 2] records)))

(def %store-put-back (before)
  (each (kind key r ks old) before
    (each k (or ks (keys r)) (wipe (r k)))
    (each (k v) old (= (r k) v))))

; (store-update record f): (f table) changes the record's table, which
; is then saved; f's value is the result. Nothing else changes the record
; between the read and the write, and a failure (of f or of the save)
; leaves it as it was, in memory and on disk (store-change). Here the
; record in memory is what its file holds, since this process alone
; writes the files, and atomic keeps every other writer out: so the read
; is the table itself, and the lock is enough. The SQLite backend, which
; several processes share, makes the record current in the same place,
; store-change: its transaction first applies what the others changed.
(def store-update (record f)
  (store-change (list record)
    (fn () (do1 (f (record 2)) (%store-write record)))))

(def %store-write ((kind key r))
  (case kind
    item    (store-save-item r)
    profile (store-save-profile key r)
    votes   (store-save-votes key r)
            (err "store: no such kind of record" kind)))

; Writes a record back; if that fails too, the unsaved job will.
(def %store-write-back (record)
  (on-err (fn (e)
            (atomic
              (unless (find [is (_ 2) (record 2)] store-unsaved*)
                (push record store-unsaved*)))
            (errsafe (srvlog 'err "news: not saved, will retry:" (details e))))
          (fn () (%store-write record))))

; The unsaved job: writes each record store-change could not write back.
(def store-save-unsaved ()
  (each record (atomic (do1 store-unsaved* (wipe store-unsaved*)))
    (%store-write-back record)))

; The store's background job (model.arc starts it).
(def store-job () (store-save-unsaved))

; This process alone writes the files: no other changes anything.
(= store-on-change* (fn (kind key r) nil))

; --- Many writes at once -----------------------------------------------------

; Runs f with writefile's renames atomic but not each synced
; (durable-writes*, stdlib/lib.arc), then syncs everything once: for a
; program that makes thousands of files while nothing else runs (the
; demo data), where a crash half way leaves nothing worth keeping anyway.
(def store-batch (f) (%store-files-batch f))

(def %store-files-batch (f)
  (let durable durable-writes*
    (= durable-writes* nil)
    (after (f)
           (= durable-writes* durable)
           (system "sync"))))

; --- The site's settings, the control file, backups ------------------------

; The operator's settings file, DIR/site: one table, as save-table writes
; it, of the site's name, url, parent-url, color, logo and favicon (what
; operate.arc's site-settings* names); nil when there is none. One that
; cannot be read is an error: a site should not start under the example
; names because of a typo.
(def store-site-settings ()
  (let f (+ arcdir* "site")
    (when (file-exists f)
      (let h (errsafe (load-table f))
        (if (isa h 'table)
            h
            (err (+ "cannot read " f ": it should hold one table, as "
                    "((name \"My News\") (url \"https://news.example.org/\"))")))))))

; The control file, DIR/control: where the running server listens and
; the key that lets the operator's commands ask it for a backup (a table:
; host port key). Readable by its owner only (app.arc's %app-save-file), so
; that whoever can read the data may ask, and no one else. Written at the
; start, removed at a clean stop; one a killed server left names an
; address nothing answers at.
(def store-save-control (h) (%app-save-file h (+ arcdir* "control")))

(def store-control ()
  (let f (+ arcdir* "control")
    (and (file-exists f) (errsafe (load-table f)))))

(def store-remove-control ()
  (atomic (errsafe (rmfile (+ arcdir* "control")))))

; A backup holds every entry of the data directory but the logs (appended
; to in place, and not the site's data), the backups themselves, what a
; restore moved aside, the control file and a FILE.tmp a crash left.
(def %store-data-entries (d)
  (rem [or (in _ "logs" "backups" "control") (endmatch ".tmp" _) (begins _ "replaced-")]
       (or (errsafe (dir d)) nil)))

; (store-snapshot): a consistent copy of the data, made by the running
; server: the folder DIR/backups/NAME/ holding, as hard links, every file
; as last written, taken under the lock that every write of the site
; holds (atomic), so that no change is half in it. Hard links are enough
; because no file of the data is ever changed in place: each write makes
; FILE.tmp and renames it over FILE, which leaves the snapshot's link on
; the old contents. So the snapshot is made in a moment and takes no room
; until the files change; store-copy-dir then copies it out without the
; lock. Gives the folder's path.
(def store-snapshot ()
  (atomic
    (withs (root  (+ arcdir* "backups/")
            name  (%store-new-name root)
            tmp   (+ root name ".tmp"))
      (ensure-dir tmp)
      (each e (%store-data-entries arcdir*)
        (%store-sh "cp -al " (%store-q (+ arcdir* e)) " " (%store-q (+ tmp "/"))))
      (mvfile tmp (+ root name))
      (store-snapshot-dir name))))

; A name for a backup: the date and time, and a number if taken.
(def %store-new-name (root)
  (withs (stamp (%store-sh "date -u +%Y%m%d-%H%M%S")
          base  (+ "backup-" (trim stamp))
          name  base
          n     1)
    (while (or (dir-exists (+ root name)) (dir-exists (+ root name ".tmp")))
      (= name (+ base "-" (++ n))))
    name))

; Copies folder src to dest, which must not exist yet, and syncs it.
(def store-copy-dir (src dest)
  (when (or (dir-exists dest) (file-exists dest))
    (err (+ dest " exists already; give a new folder")))
  (%store-sh "cp -a " (%store-q (%store-rtrim-slash src)) " " (%store-q (%store-rtrim-slash dest))
             " && sync"))

; The data directory, for messages; and a snapshot's folder by its name.
(def store-dir () arcdir*)

(def store-snapshot-dir (name) (+ arcdir* "backups/" name "/"))

(def store-remove-dir (d)
  (%store-sh "rm -rf " (%store-q (%store-rtrim-slash d))))

(def store-dir-exists (d) (dir-exists d))

; Whether folder d looks like a data directory or a backup of one: it has
; news/ or an hpw file.
(def store-looks-like-data (d)
  (let d (+ (%store-rtrim-slash d) "/")
    (or (dir-exists (+ d "news")) (file-exists (+ d "hpw")) (file-exists (+ d "news.db")))))

; (store-restore src): the data directory becomes the backup src (a folder
; store-copy-dir made); what it held is moved, not deleted, into
; DIR/replaced-NAME/. Only while no server runs on it (operate.arc checks).
; Gives that folder's path.
(def store-restore (src)
  (let src (%store-rtrim-slash src)
    (unless (store-looks-like-data src)
      (err (+ src " is not a backup of the news site's data (no news/ in it)")))
    (ensure-dir arcdir*)
    (withs (name  (%store-new-name arcdir*)
            aside (+ arcdir* "replaced-" (cut name 7) "/"))
      (ensure-dir aside)
      (each e (%store-data-entries arcdir*)
        (mvfile (+ arcdir* e) (+ aside e)))
      (%store-sh "cp -a " (%store-q (+ src "/.")) " " (%store-q arcdir*) " && sync")
      aside)))

; --- Arc 3.1's layout as entries: export, import -------------------------------

; The files of Arc 3.1's layout that hold the site's data, as entries
; (path text), path relative to the data directory: app.arc's files at the
; top (%store-app-files*), every file of news/ and of its story, profile
; and vote folders; not the logs, the operator's site and control files,
; backups, nor a FILE.tmp a crash left. text is the file's, as it is.
(= %store-app-files* '("hpw" "openids" "cooks" "sessions" "admins"))

(def %store-layout-entries (d)
  (let d (+ (%store-rtrim-slash d) "/")
    (join (trues [and (%store-plain-file (+ d _)) (list _ (filechars (+ d _)))]
                 %store-app-files*)
          (mappend (fn (sub)
                     (trues [let path (+ sub _)
                              (and (~endmatch ".tmp" _) (%store-plain-file (+ d path))
                                   (list path (filechars (+ d path))))]
                            (or (errsafe (dir (+ d sub))) nil)))
                   '("news/" "news/story/" "news/profile/" "news/vote/")))))

(def %store-plain-file (f) (and (file-exists f) (no (dir-exists f))))

; Writes entries as files under folder d, each as writefile writes, all
; synced once at the end; app.arc's files readable by their owner only.
(def %store-write-layout (d entries)
  (let d (+ (%store-rtrim-slash d) "/")
    (%store-files-batch
      (fn ()
        (each (path text) entries
          (withs (f     (+ d path)
                  slash (last (positions #\/ f)))
            (ensure-dir (cut f 0 slash))
            (when (mem path %store-app-files*)
              (w/outfile o (+ f ".tmp"))
              (%chmod (+ f ".tmp") 384))
            (%writefile-with f (fn (o) (disp text o)))))))))

(def store-entries () (%store-layout-entries arcdir*))

(def store-put-entries (entries) (%store-write-layout arcdir* entries))

; (store-export dest): the store's data written as Arc 3.1's layout into
; the new folder dest. With the files, a copy; from SQLite, the files
; Arc 3.1 (and this backend) reads.
(def store-export (dest)
  (when (or (dir-exists dest) (file-exists dest))
    (err (+ dest " exists already; give a new folder")))
  (let es (store-entries)
    (%store-write-layout dest es)
    (len es)))

; (store-import src): the data of src, a folder in Arc 3.1's layout,
; into this store, which must hold none yet (nothing is merged).
(def store-import (src)
  (unless (dir-exists (+ (%store-rtrim-slash src) "/news"))
    (err (+ src " is not a news site's data directory in Arc 3.1's layout (no news/ in it)")))
  (when (store-entries)
    (err (+ (store-dir) " holds data already: import into an empty data directory")))
  (let es (%store-layout-entries src)
    (store-put-entries es)
    (len es)))

(def %store-rtrim-slash (s)
  (if (and (> (len s) 1) (endmatch "/" s)) (%store-rtrim-slash (cut s 0 -1)) s))

; Runs a shell command made of args; gives its output, or raises an
; error with it if the command failed.
(def %store-sh args
  (withs (cmd (apply string args)
          out (tostring (system (+ "{ " cmd " ; } 2>&1; echo \"store-status $?\"")))
          ls  (lines (trim out 'end))
          said (apply string (intersperse "\n" (cut ls 0 (- (len ls) 1)))))
    (if (is (last ls) "store-status 0")
        said
        (err (+ "failed: " cmd ": " said)))))

; A shell word holding s as it is.
(def %store-q (s)
  (+ "'" (multisubst '(("'" "'\\''")) s) "'"))
