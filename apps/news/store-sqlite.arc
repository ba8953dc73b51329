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
; an item's fields open, as a template's are. Columns are what an SQL
; update of one field (a vote count, from several processes) would need:
; that is for when workers share the database.
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
; as the files' do, and so does every transaction: one that store-change,
; store-update or store-batch opens ("BEGIN IMMEDIATE", which takes
; SQLite's write lock at once), or a SAVEPOINT inside one (a change inside
; a change). A write outside them is a transaction of its own. A change
; that fails is rolled back in the database, and its tables put back in
; memory, so nothing is left to write back (the file backend's unsaved
; job has nothing to do here).
;
; The functions of store.arc this file puts its own in place of are
; listed in store-use-sqlite; the rest (the operator's site and control
; files, the copying of folders, store-user-ok, the versions of items)
; are store.arc's for both.

(= %sql-db* nil %sql-depth* 0)

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
     store-update          %sql-update
     store-batch           %sql-in
     store-snapshot        %sql-snapshot
     store-entries         %sql-entries
     store-put-entries     %sql-put-entries
     %store-connect        %sql-connect
     %store-load-vars      %sql-load-vars
     app-files*            (list %sql-read-app-file %sql-write-app-file))
  'sqlite)

; --- The database ------------------------------------------------------------

(def %sql-path () (+ arcdir* "news.db"))

; Opens DIR/news.db (made, with its tables, if missing), closing the one
; open before; an unreadable or corrupt file is an error that says so.
(def %sql-connect ()
  (when %sql-db* (sql-close %sql-db*) (wipe %sql-db*))
  (= %sql-depth* 0 %sql-worker* (%srv-worker))
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
      (= %sql-db* db))))

(def %sql-setup (db)
  (sql-exec db "PRAGMA journal_mode = WAL")
  (sql-exec db "PRAGMA synchronous = FULL")
  (sql-exec db "CREATE TABLE IF NOT EXISTS items (id INTEGER PRIMARY KEY, data TEXT NOT NULL);
                CREATE TABLE IF NOT EXISTS profiles (name TEXT PRIMARY KEY, data TEXT NOT NULL) WITHOUT ROWID;
                CREATE TABLE IF NOT EXISTS votes (name TEXT PRIMARY KEY, data TEXT NOT NULL) WITHOUT ROWID;
                CREATE TABLE IF NOT EXISTS files (path TEXT PRIMARY KEY, data TEXT NOT NULL) WITHOUT ROWID")
  ; a file that is a database but not ours (or half of ours) says so now
  (let tables (map car (sql-query db "SELECT name FROM sqlite_master WHERE type = 'table'"))
    (each t1 '("items" "profiles" "votes" "files")
      (unless (mem t1 tables) (err "no table" t1)))))

; Each process its own connection: a worker of --workers, forked after
; store-open, opens the file again (io/sqlite.cpp: a connection is not
; used across a fork). The workers do not yet see each other's changes
; (each keeps its own tables in memory): that is issue 43's next step.
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

; (%sql-in f): f inside one transaction, committed when f returns (so
; durable then); inside another, a savepoint of it. If f fails, what it
; wrote is rolled back and the error goes on.
(def %sql-in (f)
  (atomic
    (with (depth %sql-depth* ok nil)
      (%sql-exec (if (is depth 0) "BEGIN IMMEDIATE" "SAVEPOINT change"))
      (= %sql-depth* (+ depth 1))
      (after (do1 (f)
                  (%sql-exec (if (is depth 0) "COMMIT" "RELEASE change"))
                  (set ok))
             (= %sql-depth* depth)
             (unless ok
               (errsafe (if (is depth 0)
                            (%sql-exec "ROLLBACK")
                            (do (%sql-exec "ROLLBACK TO change")
                                (%sql-exec "RELEASE change")))))))))

; --- Starting ----------------------------------------------------------------

(def %sql-load-all ()
  (ensure-dir logdir*)
  (%sql-load-vars)
  (map car (%sql-query "SELECT id FROM items ORDER BY id DESC")))

; The disk tables and vars (store.arc's store-vars*), each a row of files
; under its path news/NAME; their savers write that row.
(def %sql-load-vars ()
  (each (var kind name) store-vars*
    (withs (path    (+ "news/" name)
            istable (is kind 'table))
      (= (savers* var)
         (fn (v) (atomic (%sql-put-file path (%sql-text (if istable (tablist v) v))))))
      (%store-assign var
                     (or (errsafe
                           (let text (%sql-file path)
                             (and text
                                  (if istable
                                      (let h (read-table (instring text))
                                        (and (isa h 'table) h))
                                      (read text)))))
                         (if istable (table) nil))))))

; --- Records -----------------------------------------------------------------

(def %sql-file (path) (%sql-one "SELECT data FROM files WHERE path = ?" path))

(def %sql-put-file (path text)
  (%sql-exec "INSERT OR REPLACE INTO files (path, data) VALUES (?, ?)" path text))

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
    (%sql-exec "INSERT OR REPLACE INTO items (id, data) VALUES (?, ?)" i!id (%sql-text (tablist i)))
    (++ (store-versions* i!id 0))))

(def %sql-save-profile (u p)
  (unless (store-user-ok u) (err "store-save-profile: bad user name" u))
  (atomic
    (%sql-exec "INSERT OR REPLACE INTO profiles (name, data) VALUES (?, ?)" u (%sql-text (tablist p)))))

(def %sql-save-votes (u v)
  (unless (store-user-ok u) (err "store-save-votes: bad user name" u))
  (atomic
    (%sql-exec "INSERT OR REPLACE INTO votes (name, data) VALUES (?, ?)" u (%sql-text (tablist v)))))

(def %sql-save-topstories (ids)
  (atomic (%sql-put-file "news/topstories" (%sql-text ids))))

(def %sql-next-id (n)
  (let id (+ n 1)
    (while (%sql-one "SELECT 1 FROM items WHERE id = ?" id) (++ id))
    id))

(def %sql-remove-item (id)
  (atomic (%sql-exec "DELETE FROM items WHERE id = ?" id)))

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
; files' store-change puts them back.
(def %sql-change (records f (o undo))
  (atomic
    (with (before (%store-remember records)
           done   nil)
      (after (do1 (%sql-in f) (set done))
             (unless done
               (%store-put-back before)
               (when undo (errsafe (undo))))))))

; store.arc's store-update, its read-modify-write in one transaction that
; holds SQLite's write lock from the read on: the record is read again,
; and if what is stored is not what memory holds (another process wrote
; it), the table takes the stored record before f sees it.
(def %sql-update (record f)
  (%sql-in
    (fn ()
      (%sql-reread record)
      (store-change (list record)
        (fn () (do1 (f (record 2)) (%store-write record)))))))

(def %sql-reread ((kind key r))
  (let text (case kind
              item    (%sql-one "SELECT data FROM items WHERE id = ?" key)
              profile (%sql-one "SELECT data FROM profiles WHERE name = ?" key)
              votes   (%sql-one "SELECT data FROM votes WHERE name = ?" key))
    (when (and text (isnt text (%sql-text (tablist r))))
      (let stored (case kind
                    item    (temread 'item (instring text))
                    profile (temread 'profile (instring text))
                            (read-table (instring text)))
        (each k (keys r) (wipe (r k)))
        (each (k v) (tablist stored) (= (r k) v))))))

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
            items    (%sql-exec "INSERT OR REPLACE INTO items (id, data) VALUES (?, ?)" key text)
            profiles (%sql-exec "INSERT OR REPLACE INTO profiles (name, data) VALUES (?, ?)" key text)
            votes    (%sql-exec "INSERT OR REPLACE INTO votes (name, data) VALUES (?, ?)" key text)
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
