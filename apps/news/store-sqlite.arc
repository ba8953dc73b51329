; apps/news/store-sqlite.arc — the news site's second store backend: the
; interface of store.arc (read its header) over one SQLite database,
; DIR/news.db, through the builtins sql-open, sql-exec, sql-query and
; sql-close (io/sqlite.cpp). (store-use-sqlite), before store-open,
; chooses it; news.arc's --store sqlite calls it. The file backend stays
; the default.
;
; What is stored. The same records as the files, each as the same text
; its file holds in Arc 3.1's layout (an item's tablist as save-table
; writes it, and so on), one row for each:
;   items (id, data)       news/story/ID
;   profiles (name, data)  news/profile/USER
;   votes (name, data)     news/vote/USER
;   files (path, data)     every other file, by its path: news/topstories,
;                          the disk tables and vars (news/banned-ips ...),
;                          app.arc's hpw, cooks, sessions, openids, admins
; Why text and not a column for each field: the model keeps every record
; in memory and reads or writes a record whole, never a field alone, so
; columns would buy nothing yet, and would cost a decoding of each item's
; fields on both paths (printing and reading an s-expression is what the
; file backend does already); the same text also makes the conversion
; each way (store-export, store-import) a copy, byte for byte, and keeps
; an item's fields open, as a template's are. Columns would allow an SQL
; update of one field (a vote count, from several processes); workers
; sharing the database get the same atomicity from a transaction that
; re-reads what it changes (below), with the records still whole.
;
; Durability. The journal is SQLite's write-ahead log (WAL): a commit
; appends to DIR/news.db-wal, readers never wait for the writer. With
; synchronous=FULL each commit fsyncs the log before it returns, so a
; write is on the disk when the store's function returns, as the file
; backend's fsync'd rename is; NORMAL would fsync only at checkpoints, so
; a power loss could take back commits a request had acknowledged (a
; SIGKILL could not: the log is written before the commit returns). The
; cost is one fsync a commit, against two a file (the file and its folder).
;
; Transactions. Every write runs under `atomic', the process's one lock,
; as the files' do, and so does every transaction: one that store-change
; or store-batch opens ("BEGIN IMMEDIATE", which takes SQLite's write
; lock at once), or a SAVEPOINT inside one (a change inside a change). A
; write outside them is a transaction of its own. A change that fails is
; rolled back in the database, and its tables put back in memory, so
; nothing is left to write back (the file backend's unsaved job has
; nothing to do here).
;
; Several processes (the workers of --workers) share the database, each
; with its own connection and its own tables in memory, which are a cache
; of the store kept coherent by the change log: every write appends
; (id, kind, key, origin) to the table changes in the same transaction as
; the row (ids increase; origin names the connection), and each process
; remembers the last id it has applied. %sql-catch-up applies the entries
; of the other processes since then: each record they name is read again
; and handed to the model (store-on-change*), which changes its table in
; place; the app files (accounts, cookies, sessions) are read again by
; app.arc, the disk vars here. It runs before each request of a worker
; (srv.arc's before-request*), every few seconds from the store's job,
; and at the start of every transaction, after BEGIN IMMEDIATE: holding the write
; lock, the process then sees the latest of everything, so the
; read-modify-write that follows (a vote: the item's score and votes, the
; author's karma, the voter's votes; a comment: its parent's kids; an
; edit, a flag, a new session) cannot lose another process's update.
; store-update is store.arc's, a store-change of one record. Item ids are
; taken from a counter row inside a transaction, so no two processes hand
; out the same. The common case, nothing changed by anyone else, costs
; before a request a look at the workers' generation (%sql-before-request),
; and in a transaction one "PRAGMA data_version" (the number SQLite moves
; when another connection commits); the log is read only when it moved. A write outside a change
; (a single save) does not catch up first: it stores what this process
; holds, so of two processes writing the same row outside a change the
; last wins (the model's read-modify-writes all run in changes). The
; log keeps its last %sql-log-keep* entries; a process that finds it has
; missed some (a worker restarted long after its parent loaded) reads
; every record again.

; The functions of store.arc this file puts its own in place of are
; listed in store-use-sqlite; the rest (the operator's site and control
; files, the copying of folders, store-user-ok, the versions of items)
; are store.arc's for both.

(= %sql-db* nil %sql-depth* 0 %sql-seen* 0 %sql-version* nil %sql-origin* nil
   %sql-log-keep* 100000)

(def store-use-sqlite ()
  (= store-load-all        %sql-load-all
     store-load-item       %sql-load-item
     store-load-profile    %sql-load-profile
     store-load-votes      %sql-load-votes
     store-user-names      %sql-user-names
     store-topstories      %sql-topstories
     store-save-item       %sql-save-item
     store-save-profile    %sql-save-profile
     store-save-votes      %sql-save-votes
     store-save-topstories %sql-save-topstories
     store-next-id         %sql-next-id
     store-remove-item     %sql-remove-item
     store-admins          %sql-admins
     store-add-admin       %sql-add-admin
     store-change          %sql-change
     store-batch           %sql-in
     store-job             %sql-job
     store-snapshot        %sql-snapshot
     store-entries         %sql-entries
     store-put-entries     %sql-put-entries
     %store-connect        %sql-connect
     %store-load-vars      %sql-load-vars
     app-files*            (list %sql-read-app-file %sql-write-app-file %sql-in)
     before-request*       %sql-before-request)
  'sqlite)

; --- The database ------------------------------------------------------------

(def %sql-path () (+ arcdir* "news.db"))

; Opens DIR/news.db (made, with its tables, if missing), closing the one
; open before; an unreadable or corrupt file is an error that says so. In
; a worker, forked with its parent's connection and tables, the tables are
; first brought up to date as the parent's (whose own writes they hold
; already), then the worker takes an origin of its own.
(def %sql-connect ()
  (let inherited (and %sql-db* (isnt (%srv-worker) %sql-worker*))
    (when %sql-db* (sql-close %sql-db*) (wipe %sql-db*))
    (= %sql-depth* 0 %sql-worker* (%srv-worker) %sql-version* nil)
    (ensure-dir arcdir*)
    (let path (%sql-path)
      (let db (on-err (fn (e) (err (+ "cannot open the news database: " (details e))))
                      (fn ()
                        (let db (sql-open path)
                          (on-err (fn (e) (sql-close db) (err (details e)))
                                  (fn () (%sql-setup db) db)))))
        ; it holds password hashes and login cookies: its owner's only (the
        ; log and shared-memory files SQLite makes beside it take its mode)
        (%chmod path 384)
        (= %sql-db* db)))
    (if inherited
        (%sql-catch-up)
        (= %sql-seen* (or (%sql-one "SELECT max(id) FROM changes") 0)))
    (= %sql-origin* (rand-string 12))))

(def %sql-setup (db)
  (sql-exec db "PRAGMA journal_mode = WAL")
  (sql-exec db "PRAGMA synchronous = FULL")
  (sql-exec db "CREATE TABLE IF NOT EXISTS items (id INTEGER PRIMARY KEY, data TEXT NOT NULL);
                CREATE TABLE IF NOT EXISTS profiles (name TEXT PRIMARY KEY, data TEXT NOT NULL) WITHOUT ROWID;
                CREATE TABLE IF NOT EXISTS votes (name TEXT PRIMARY KEY, data TEXT NOT NULL) WITHOUT ROWID;
                CREATE TABLE IF NOT EXISTS files (path TEXT PRIMARY KEY, data TEXT NOT NULL) WITHOUT ROWID;
                CREATE TABLE IF NOT EXISTS changes (id INTEGER PRIMARY KEY AUTOINCREMENT,
                                                    kind TEXT NOT NULL, key NOT NULL,
                                                    origin TEXT NOT NULL);
                CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID")
  ; a file that is a database but not ours (or half of ours) says so now
  (let tables (map car (sql-query db "SELECT name FROM sqlite_master WHERE type = 'table'"))
    (each t1 '("items" "profiles" "votes" "files" "changes" "counters")
      (unless (mem t1 tables) (err "no table" t1)))))

; Each process its own connection: a worker of --workers, forked after
; store-open, opens the file again (io/sqlite.cpp: a connection is not
; used across a fork).
(= %sql-worker* nil)

(def %sql-db ()
  (unless (is (%srv-worker) %sql-worker*)
    (%sql-connect))
  %sql-db*)

(def %sql-exec (sql . params) (apply sql-exec (%sql-db) sql params))

(def %sql-query (sql . params) (apply sql-query (%sql-db) sql params))

; The one value of a query's first row, or nil.
(def %sql-one (sql . params) (car (car (apply %sql-query sql params))))

; A record's text, as its file holds it.
(def %sql-text (x) (tostring (write x)))

; (%sql-in f (o fresh t)): f inside one transaction, committed when f
; returns (so durable then); inside another, a savepoint of it. If f
; fails, what it wrote is rolled back and the error goes on. A
; transaction of its own first applies what the other processes changed
; (%sql-catch-up), unless fresh is nil (a single write, which reads
; nothing).
(def %sql-in (f (o fresh t))
  (atomic
    (with (depth %sql-depth* ok nil)
      (%sql-exec (if (is depth 0) "BEGIN IMMEDIATE" "SAVEPOINT change"))
      (= %sql-depth* (+ depth 1))
      (after (do1 (do (when (and fresh (is depth 0)) (%sql-catch-up))
                      (f))
                  (%sql-exec (if (is depth 0) "COMMIT" "RELEASE change"))
                  (when (is depth 0) (%srv-bump-generation))
                  (set ok))
             (= %sql-depth* depth)
             (unless ok
               (errsafe (if (is depth 0)
                            (%sql-exec "ROLLBACK")
                            (do (%sql-exec "ROLLBACK TO change")
                                (%sql-exec "RELEASE change")))))))))

; Runs sql with params, and logs the change of the record (kind key), in
; one transaction: the one open, or one of their own.
(def %sql-write (kind key sql . params)
  (let f (fn ()
           (apply %sql-exec sql params)
           (%sql-exec "INSERT INTO changes (kind, key, origin) VALUES (?, ?, ?)"
                      kind key %sql-origin*))
    (atomic (if (> %sql-depth* 0) (f) (%sql-in f nil)))))

; --- What the other processes changed ------------------------------------------

; Applies the log's entries of other origins since %sql-seen*, each
; record once, as it is stored now (so an entry applied late, or twice,
; does no harm). When data_version has not moved since the last look, no
; other connection has committed: nothing to read. It is read before the
; log, so that a commit between the two is found at the next look.
(def %sql-catch-up ()
  (atomic
    (%sql-db)
    (let v (%sql-one "PRAGMA data_version")
      (unless (is v %sql-version*)
        (let rows (%sql-query "SELECT id, kind, key, origin FROM changes WHERE id > ? ORDER BY id"
                              %sql-seen*)
          (when rows
            (if (> (car (car rows)) (+ %sql-seen* 1))
                (%sql-apply-all)    ; entries missed: the log was cut since
                (%sql-apply (dedup (trues (fn ((id kind key origin))
                                            (and (isnt origin %sql-origin*)
                                                 (list (sym kind) key)))
                                          rows))))
            (= %sql-seen* (car (last rows)))))
        (= %sql-version* v)))))

; Before a request: only a worker of --workers has others that write (a
; command that writes refuses to run beside a server), so a single
; process spares the check; and a worker that finds the workers'
; generation (io/server.cpp) where it was when it last caught up knows
; that no worker has committed since, for a load from shared memory where
; data_version costs a read transaction. A worker killed between its
; commit and the bump had not answered the request that wrote; the
; others find its commit at their next transaction or job.
(= %sql-generation* nil)

(def %sql-before-request ()
  (when (%srv-worker)
    (let g (%srv-generation)
      (unless (and g (is g %sql-generation*))
        (%sql-catch-up)
        (= %sql-generation* g)))))

; Applies changed records, given as (kind key): items first, so that the
; front page and what names them find them; app.arc's files, the disk
; vars and the front page after. One that cannot be applied is logged
; and left as it was here: failing the request, it would fail every
; request after it.
(def %sql-apply (changed)
  (each (kind key) (sort (compare < [if (is (car _) 'item) 0 (is (car _) 'file) 2 1]) changed)
    (on-err (fn (e)
              (errsafe (srvlog 'err "news: another worker's change not applied:" kind key
                               (details e))))
            (fn ()
              (case kind
                item    (do (++ (store-versions* key 0))
                            (store-on-change* 'item key (%sql-load-item key)))
                profile (store-on-change* 'profile key (%sql-load-profile key))
                votes   (store-on-change* 'votes key (%sql-load-votes key))
                file    (%sql-file-changed key))))))

(def %sql-file-changed (path)
  (iflet v (find [is (+ "news/" (_ 2)) path] store-vars*)
         (%sql-load-var v)
         (if (is path "news/topstories")
               (store-on-change* 'topstories nil nil)
             (mem path %store-app-files*)
               (app-file-changed (+ arcdir* path)))))

; Every record of the database, applied: for a process that missed
; entries of the log.
(def %sql-apply-all ()
  (%sql-apply (join (map [list 'item (car _)] (%sql-query "SELECT id FROM items ORDER BY id"))
                    (map [list 'profile (car _)] (%sql-query "SELECT name FROM profiles"))
                    (map [list 'votes (car _)] (%sql-query "SELECT name FROM votes"))
                    (map [list 'file (car _)] (%sql-query "SELECT path FROM files")))))

; The store's job (model.arc runs it every few seconds): a process that
; serves no request stays current all the same, and the log is cut to its
; last %sql-log-keep* entries.
(def %sql-job ()
  (%sql-catch-up)
  (atomic
    (let (lo hi) (car (%sql-query "SELECT min(id), max(id) FROM changes"))
      (when (and hi (> (- hi lo) %sql-log-keep*))
        (%sql-exec "DELETE FROM changes WHERE id <= ?" (- hi %sql-log-keep*))))))

; --- Starting ----------------------------------------------------------------

(def %sql-load-all ()
  (ensure-dir logdir*)
  (%sql-load-vars)
  (map car (%sql-query "SELECT id FROM items ORDER BY id DESC")))

; The disk tables and vars (store.arc's store-vars*), each a row of files
; under its path news/NAME; their savers write that row.
(def %sql-load-vars ()
  (each v store-vars*
    (let (var kind name) v
      (= (savers* var)
         (fn (x) (atomic (%sql-put-file (+ "news/" name)
                                        (%sql-text (if (is kind 'table) (tablist x) x))))))
      (%sql-load-var v))))

; Reads one of them again.
(def %sql-load-var ((var kind name))
  (let istable (is kind 'table)
    (%store-assign var
                   (or (errsafe
                         (let text (%sql-file (+ "news/" name))
                           (and text
                                (if istable
                                    (let h (read-table (instring text))
                                      (and (isa h 'table) h))
                                    (read text)))))
                       (if istable (table) nil)))))

; --- Records -----------------------------------------------------------------

(def %sql-file (path) (%sql-one "SELECT data FROM files WHERE path = ?" path))

(def %sql-put-file (path text)
  (%sql-write 'file path "INSERT OR REPLACE INTO files (path, data) VALUES (?, ?)" path text))

(def %sql-load-item (id)
  (when (and (isa id 'int) (> id 0))
    (errsafe (aand (%sql-one "SELECT data FROM items WHERE id = ?" id)
                   (temread 'item (instring it))))))

(def %sql-load-profile (u)
  (when (store-user-ok u)
    (errsafe (aand (%sql-one "SELECT data FROM profiles WHERE name = ?" u)
                   (temread 'profile (instring it))))))

(def %sql-load-votes (u)
  (when (store-user-ok u)
    (errsafe (aand (%sql-one "SELECT data FROM votes WHERE name = ?" u)
                   (read-table (instring it))))))

(def %sql-user-names ()
  (keep store-user-ok (map car (%sql-query "SELECT name FROM profiles ORDER BY name"))))

(def %sql-topstories ()
  (errsafe (aand (%sql-file "news/topstories") (read it))))

(def %sql-save-item (i)
  (atomic
    (%sql-write 'item i!id "INSERT OR REPLACE INTO items (id, data) VALUES (?, ?)"
                i!id (%sql-text (tablist i)))
    (++ (store-versions* i!id 0))))

(def %sql-save-profile (u p)
  (unless (store-user-ok u) (err "store-save-profile: bad user name" u))
  (atomic
    (%sql-write 'profile u "INSERT OR REPLACE INTO profiles (name, data) VALUES (?, ?)"
                u (%sql-text (tablist p)))))

(def %sql-save-votes (u v)
  (unless (store-user-ok u) (err "store-save-votes: bad user name" u))
  (atomic
    (%sql-write 'votes u "INSERT OR REPLACE INTO votes (name, data) VALUES (?, ?)"
                u (%sql-text (tablist v)))))

(def %sql-save-topstories (ids)
  (atomic (%sql-put-file "news/topstories" (%sql-text ids))))

; The next id: past n (the caller's maxid*), past every item stored and
; every id handed out (the counter row), taken in a transaction, so that
; two processes never hand out the same.
(def %sql-next-id (n)
  (%sql-in (fn ()
             (let id (+ 1 (max n
                               (or (%sql-one "SELECT max(id) FROM items") 0)
                               (or (%sql-one "SELECT n FROM counters WHERE name = 'item'") 0)))
               (%sql-exec "INSERT OR REPLACE INTO counters (name, n) VALUES ('item', ?)" id)
               id))
           nil))

(def %sql-remove-item (id)
  (atomic (%sql-write 'item id "DELETE FROM items WHERE id = ?" id)))

; The admins row holds what Arc 3.1's admins file does: names, one a line.
(def %sql-admins ()
  (map string (or (errsafe (readall (or (%sql-file "admins") "") (list 'eof))) nil)))

(def %sql-add-admin (u)
  (atomic
    (let names (%sql-admins)
      (unless (mem u names)
        (%sql-put-file "admins"
                       (tostring (each n (join names (list u))
                                   (write (sym n))
                                   (writec #\newline))))))))

; app.arc's files (app-files*), by their path under the data directory.
(def %sql-app-path (file)
  (if (begins file arcdir*)
      (cut file (len arcdir*))
      (err "store: not a file of the data directory" file)))

(def %sql-read-app-file (file) (%sql-file (%sql-app-path file)))

(def %sql-write-app-file (file text) (atomic (%sql-put-file (%sql-app-path file) text)))

; --- Changes kept together, or undone ------------------------------------------

; store.arc's store-change, with f's writes in one transaction: if f
; fails they are rolled back, and the tables in memory put back as the
; files' store-change puts them back. What is put back is remembered
; after the transaction's catch-up, so that it is what the database
; holds again once rolled back.
(def %sql-change (records f (o undo))
  (atomic
    (with (before nil done nil)
      (after (do1 (%sql-in (fn ()
                             (= before (%store-remember records))
                             (f)))
                  (set done))
             (unless done
               (%store-put-back before)
               (when undo (errsafe (undo))))))))

; --- Snapshots, export and import ----------------------------------------------

; (store-snapshot): the folder DIR/backups/NAME/ holding news.db, a
; consistent copy made by SQLite's VACUUM INTO under the lock (no
; transaction is open then: each runs under the same lock), and the
; operator's site file if there is one.
(def %sql-snapshot ()
  (atomic
    (withs (root (+ arcdir* "backups/")
            name (%store-new-name root)
            tmp  (+ root name ".tmp/"))
      (ensure-dir tmp)
      (%sql-exec "VACUUM INTO ?" (+ tmp "news.db"))
      (when (file-exists (+ arcdir* "site"))
        (%store-sh "cp -a " (%store-q (+ arcdir* "site")) " " (%store-q tmp)))
      (mvfile (cut tmp 0 -1) (+ root name))
      (store-snapshot-dir name))))

; Every row as the entry (path text) of its file in Arc 3.1's layout.
(def %sql-entries ()
  (join (map [list (+ "news/story/" (_ 0)) (_ 1)]
             (%sql-query "SELECT id, data FROM items ORDER BY id"))
        (map [list (+ "news/profile/" (_ 0)) (_ 1)]
             (%sql-query "SELECT name, data FROM profiles ORDER BY name"))
        (map [list (+ "news/vote/" (_ 0)) (_ 1)]
             (%sql-query "SELECT name, data FROM votes ORDER BY name"))
        (%sql-query "SELECT path, data FROM files ORDER BY path")))

; Stores entries (path text) in one transaction, each in its table by
; its path.
(def %sql-put-entries (entries)
  (%sql-in
    (fn ()
      (each (path text) entries
        (let (tbl key) (%sql-place path)
          (case tbl
            items    (%sql-write 'item key "INSERT OR REPLACE INTO items (id, data) VALUES (?, ?)" key text)
            profiles (%sql-write 'profile key "INSERT OR REPLACE INTO profiles (name, data) VALUES (?, ?)" key text)
            votes    (%sql-write 'votes key "INSERT OR REPLACE INTO votes (name, data) VALUES (?, ?)" key text)
                     (%sql-put-file key text)))))))

; The table and key of a path of Arc 3.1's layout.
(def %sql-place (path)
  (let rel (fn (pre) (and (begins path pre) (cut path (len pre))))
    (aif (rel "news/story/")   (if (and (< 0 (len it) 16) (all digit it))
                                   (list 'items (int it))
                                   (err "store-import: not an item's file" path))
         (rel "news/profile/") (list 'profiles it)
         (rel "news/vote/")    (list 'votes it)
                               (list 'files path))))
