; bench/web/news-server.arc — the news site as bench/web/news.sh runs it:
;
;   build/arcana [--stats] bench/web/news-server.arc NEWSHOME DATADIR PORT [STORE]
;
; NEWSHOME is apps/news/ (ending in "/"), DATADIR a folder made by
; news-data.arc, PORT 0 for a free one (the "ready to serve port N" line
; names it), STORE file (the default) or sqlite (DATADIR then holds the
; data set converted by news.arc --import: DATADIR/news.db). The site is apps/news/news.arc's, unchanged, with two
; differences a benchmark needs:
;   - srv.arc's per-IP throttle is off (req-limit* nil), since one client
;     makes thousands of requests a second, and it listens on 127.0.0.1;
;   - benchmark-only ops: /bench-stats answers the process's counters as
;     one line of text, "name value" pairs:
;       dispatches  type dispatches so far ((type-dispatches)'s total;
;                   counted only when arcana runs with --stats)
;       objects     objects allocated ((gc-stats)'s allocated-objects)
;       bytes       bytes allocated (allocated-bytes)
;       gc-ms       time in the collector (gc-ms)
;       cpu-ms      the process's CPU time (cpu-ms)
;       run-ms      wall time since start (run-ms)
;       collections collections so far
;       major-collections, promoted-bytes, live-bytes, peak-heap-bytes
;                   the same of (gc-stats): where the heap's growth comes from
;     The shell script reads it before and after N requests and divides.
;     /bench-gc answers the same after a full collection; /bench-opstats
;     srv.arc's per-op figures (opstats*) since its last call;
;     /bench-fnid-shared and /bench-fnid the urls of two closures (below).

(= news-home* (car argv))
(load (+ news-home* "news.arc"))

(= req-limit* nil
   srv-host* "127.0.0.1")   ; the benchmark's client is on this machine

(def bench-stats-line ()
  (withs (d (type-dispatches) g (gc-stats))
    (prn "dispatches " (or d!total 0)
         " objects " g!allocated-objects
         " bytes " g!allocated-bytes
         " gc-ms " g!gc-ms
         " cpu-ms " g!cpu-ms
         " run-ms " g!run-ms
         " collections " g!collections
         " major-collections " g!major-collections
         " promoted-bytes " g!promoted-bytes
         " live-bytes " g!live-bytes
         " peak-heap-bytes " g!peak-heap-bytes)))

(defop bench-stats req (bench-stats-line))

; The same after a full collection ((gc)): live-bytes is then what the
; heap retains, so that a leak shows apart from garbage not yet collected.
(defop bench-gc req (gc) (bench-stats-line))

; /bench-opstats: srv.arc's opstats* since the last call, per request, a
; line per op: "op requests ms dispatches objects bytes gc-ms" (dispatches
; "-" when not counted); then opstats* starts again (its own request is
; the first entry of the next reading).
(defop bench-opstats req
  (each s (opstats-per-request)
    (prn s!op " " s!requests " " s!ms " " (or s!dispatches "-") " "
         s!allocations " " s!bytes " " s!gc-ms))
  (= opstats* (table)))

; /bench-fnid-shared and /bench-fnid: the url of a closure link whose
; answer is a word, one made here before serve (before --workers forks:
; every worker has it), one made by the worker answering, on its first
; call (its index in the fnid: a request for it that another worker reads
; is handed to it, srv.arc's %srv-route). news.sh's section 1c compares
; them.
(= bench-shared-link* (flink (fn (req) (pr "closure"))) bench-own-link* nil)
(defop bench-fnid-shared req (pr bench-shared-link*))
(defop bench-fnid req
  (pr (or bench-own-link* (= bench-own-link* (flink (fn (req) (pr "closure")))))))

(when (is (and (> (len argv) 3) (argv 3)) "sqlite") (store-use-sqlite))
(store-open (cadr argv))
(nsv (int (argv 2)))
