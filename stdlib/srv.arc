; stdlib/srv.arc — the HTTP server of docs/LANGUAGE.md 6.5 (Arc 3.1's srv.arc): ops,
; the request object, closures as links and forms (fnids), logging,
; throttling and background threads. Loaded after html.arc; app.arc and the
; news site build on it.
;
; The API and its behaviour are Arc 3.1's, so its programs run unchanged:
; a handler prints its header lines and its page with pr to the standard
; output it is given. What is underneath is not: the bytes and the
; operating system are C++ (io/socket.cpp, io/http.cpp). One green thread
; serves one connection, parked on the scheduler's epoll whenever it waits,
; and keeps it open between requests (HTTP/1.1 keep-alive). %http-read
; reads and parses a whole request (libhttp-parser) into the request table;
; the handler writes into a response port, a buffer; %http-send completes
; the handler's header as HTTP/1.1 needs (status line, Content-Length,
; Date, Connection) and sends header and body in one writev. So header*
; still says "Connection: close", as Arc 3.1's does, and the connection
; stays open all the same when the client asks for that.
;
; Differences a client can see, all for HTTP's sake: an unknown op is a 404
; (Arc 3.1 answers 200), static files carry their real content types and
; are answered 304 when unchanged, a throttled client gets 429 before the
; connection closes (static files do not count, and its ban ends), a
; handler that fails gives 500 (its message and backtrace go to the error
; log, none of it to the client), and one that runs past threadlife*
; gives 503. serve does not call (setuid 2) (set srv-setuid* to a uid to
; drop privileges after binding), and the request log names the cookies a
; request carried but not their values, which are session keys.

; --- Configuration (docs/LANGUAGE.md 6.5) --------------------------------------------

(= arcdir* "arc/" logdir* "arc/logs/" staticdir* "static/")

(= quitsrv* nil breaksrv* nil srv-noisy* nil)

; Seconds a request may run before its thread is broken (503).
(= threadlife* 30)

(= requests* 0 requests/ip* (table) throttle-ips* (table) ignore-ips* (table)
   spurned* (table))

(= req-times* (table) req-limit* 30 req-window* 10 dos-window* 2)

; Beyond Arc 3.1, the limits a connection lives by. Seconds: the whole
; header of a request must arrive within header-timeout* of its first byte
; (of the connection, for the first request); an open connection between
; requests is closed after idle-timeout*; a body that makes no progress
; for body-timeout*, or a client that reads none of its response for as
; long, is dropped. A body must also arrive whole within body-deadline*
; of the end of its head, and, once body-rate-grace* has passed, at a
; mean of body-min-rate* bytes a second or more, or it is answered 408 and
; the connection closed: a byte every few seconds would otherwise hold it
; for ever (nil turns each off; raise body-deadline* for large uploads).
; Bytes: a body over the op's limit in max-body* (default
; max-body-default*) is answered 413. Connections: past max-conns* open
; at once, a new one waits up to conn-wait* seconds for a free place, then
; is answered 503 (and so does one to be handed to another worker whose
; channel stays full: %srv-route). srv-grace* is how long a stopping server (SIGTERM) lets
; the requests in flight finish.
(= header-timeout* 10 idle-timeout* 5 body-timeout* 10)
(= body-deadline* 120 body-min-rate* 500 body-rate-grace* 10)
(= max-body* (table) max-body-default* (* 1024 1024))
(= max-conns* 10000 conn-wait* 1 srv-grace* 10)

; The address serve binds: nil listens on all interfaces, as Arc 3.1 does;
; arcana's --host sets it.
(= srv-host* nil)
(= srv-setuid* nil)

; Beyond Arc 3.1, who a client is and how much of the server it may take
; (the section "Clients" below). A ban abusive-ip makes lasts ban-time*
; seconds (nil: for good, as in Arc 3.1). One client IP may have
; max-conns-per-ip* connections open at once (nil: any number; with
; --workers, in each worker); past it a new one is answered 503.
; trusted-proxies* lists the addresses of the reverse proxies whose
; X-Forwarded-For and X-Forwarded-Proto are believed, as strings
; ("10.0.0.1" "::1"); arcana's --trusted-proxies sets it.
(= ban-time* 300 max-conns-per-ip* 100 trusted-proxies* nil)

; Open connections (in all, and by client IP: srv-conns/ip*), and the
; listening socket of the running server.
(= srv-conns* 0 srv-conns/ip* (table) currsock* nil)

; The application's shutdown hooks: (on-shutdown f) adds one; a server
; stopped by SIGTERM (or SIGINT, when not at the REPL) runs them in order
; after the last request, then exits 0.
(= shutdown-hooks* nil)
(def on-shutdown (f) (= shutdown-hooks* (join shutdown-hooks* (list f))))

(= header* "HTTP/1.1 200 OK
Content-Type: text/html; charset=utf-8
Connection: close")

(= rdheader* "HTTP/1.0 302 Moved")

(def gen-type-header (ctype)
  (+ "HTTP/1.0 200 OK
Content-Type: "
     ctype
     "
Connection: close"))

; Arc 3.1's four types, and the others a site serves: each static-filetype
; names one (text/html stays the key Arc 3.1 programs use).
(= type-header* (table))
(each (k v) (pair '(gif "image/gif" jpg "image/jpeg" png "image/png"
              text/html "text/html; charset=utf-8" css "text/css; charset=utf-8"
              js "text/javascript; charset=utf-8" txt "text/plain; charset=utf-8"
              ico "image/x-icon" svg "image/svg+xml" json "application/json"
              pdf "application/pdf" woff2 "font/woff2" webp "image/webp"))
  (= (type-header* k) (gen-type-header v)))

(= srvops* (table) redirector* (table) optimes* (table) opcounts* (table))

(= unknown-msg* "Unknown." max-age* (table) static-max-age* nil)

; --- Starting and stopping -------------------------------------------------

(def ensure-srvdirs ()
  (map ensure-dir (list arcdir* logdir* staticdir*)))

; (serve (o port 8080)): listen on port (0: any free one; the line printed
; names it), start the background threads, serve until quitsrv* is set or
; the process is told to stop. With arcana --workers N, %srv-open forks N
; worker processes that each come back here with a socket of their own on
; the same port; the parent supervises them and never returns.
(def serve ((o port 8080))
  (wipe quitsrv*)
  (%srv-check-settings)
  (ensure-srvdirs)
  (let s (%srv-open port srv-host*)
    (= currsock* s)
    (each job pending-bgthreads* (apply new-bgthread job))
    (%srv-start-log-flusher)
    ; The error log is opened before the first connection: when descriptors
    ; run out, the accept error that says so must not need one to be logged.
    (errsafe (%srv-logport 'err))
    (%srv-signals)
    (when srv-setuid* (setuid srv-setuid*))
    (unless (%srv-worker)
      (prn "ready to serve port " (socket-port s))
      (flushout))
    (let handed (new-thread %srv-take-handed)
      (after (do (protect (fn ()
                            (until (or quitsrv* (%srv-stopping))
                              (handle-request s breaksrv*)))
                          (fn () (close s) (wipe currsock*)))
                 (%srv-finish))
             (kill-thread handed)))))

; After the accept loop: let the connections in flight finish (idle ones
; close at once), then, if the process was told to stop, run the shutdown
; hooks and exit.
(def %srv-finish ()
  (let until (+ (msec) (* 1000 srv-grace*))
    (while (and (> srv-conns* 0) (< (msec) until))
      (sleep .01)))
  (%srv-stop-log-flusher)
  (if (%srv-stopping)
      (do (each f shutdown-hooks*
            (on-err (fn (e) (ero "shutdown hook:" (details e))) f))
          (quit 0))
      (prn "quit server")))

; (serve1 (o port 8080)): handle exactly one request, in this thread, with
; its errors raised here (breaksrv).
(def serve1 ((o port 8080))
  (let s (open-socket port srv-host*)
    (after (let (i o ip) (socket-accept s)
             (++ srv-conns*)
             (unless (%srv-trusted ip) (%srv-take-ip ip t))
             (%srv-connection i o ip t t))
           (close s))))

(def handle-request (s breaksrv)
  (if breaksrv
      (handle-request-1 s)
      (on-err (fn (e)
                ; accept failed (out of descriptors, say): log it, and
                ; give the connections in flight a moment to end.
                (errsafe (srvlog 'err "accept" (details e)))
                (sleep .05))
              (fn () (handle-request-1 s)))))

; Accepts one connection and starts the thread that serves it. Banned IPs
; are closed on at once. Past max-conns* new connections wait (in the
; kernel's queue) up to conn-wait* seconds for a place; one accepted while
; the server is still full is refused with 503, and so is one from an IP
; that has max-conns-per-ip* open already (a trusted proxy's are counted
; by their requests instead: %srv-take-ip).
(def handle-request-1 (s)
  (%srv-wait-place)
  (awhen (%srv-accept s)
    (apply %srv-take it)))

; A connection this worker takes, accepted or handed to it by another
; (%srv-take-handed): the thread that serves it is started, unless the
; limits above refuse it.
(def %srv-take (i o ip)
  (if (%srv-banned ip)
      (do (++ (spurned* ip 0))
          (force-close i o))
      (>= srv-conns* max-conns*)
      (%srv-refuse i o ip "over max-conns*" max-conns*)
      (no (or (%srv-trusted ip) (%srv-take-ip ip)))
      (%srv-refuse i o ip "over max-conns-per-ip*" max-conns-per-ip*)
      (do (++ srv-conns*)
          (when (> srv-conns* %srv-conns-peak*) (= %srv-conns-peak* srv-conns*))
          (new-thread (fn () (handle-request-thread i o ip))))))

; Under arcana --workers, the connections other workers hand to this one
; (%srv-route), each taken as if accepted here; it runs for the server's
; life (serve kills it at the end), also while a stopping server finishes,
; so that what was handed before the stop is answered. Outside the
; workers (%srv-handed nil) it ends at once.
(def %srv-take-handed ()
  (let go t
    (while go
      (on-err (fn (e)
                (errsafe (srvlog 'err "handed connection" (details e)))
                (sleep .05))
              (fn ()
                (aif (%srv-handed)
                     (apply %srv-take it)
                     (wipe go)))))))

; A connection refused with 503 as it is accepted, answered by a thread of
; its own: the answer's lingering close would hold up the accept loop.
(def %srv-refuse (i o ip why limit)
  (new-thread (fn ()
                (errsafe (srvlog 'err ip 503 why limit))
                (%http-error o i 503 "Too many connections")
                (close i o))))

; t when a connection may be taken: there is a free place now, or one
; frees within conn-wait* seconds.
(def %srv-wait-place ()
  (or (< srv-conns* max-conns*)
      (let until (+ (msec) (* 1000 conn-wait*))
        (while (and (>= srv-conns* max-conns*) (< (msec) until)
                    (no (%srv-stopping)))
          (sleep .005))
        (< srv-conns* max-conns*))))

(def handle-request-thread (i o ip)
  (%srv-connection i o ip nil breaksrv*))

; Serves the requests of one connection from peer until it closes: the
; client's wish, a handler's (closing its output), a bad request, a
; timeout, or a stopping server. busy is set while a request is being
; answered, so that a thread broken then (threadlife*) answers 503 as it
; unwinds. counted is the IP the connection is counted for in
; srv-conns/ip*: the peer's from accept to close, or for a trusted
; proxy's connection the forwarded client's, while its request is served.
(def %srv-connection (i o peer once breaksrv)
  (withs (str (%response-port) busy nil proxy (%srv-trusted peer)
          counted (unless proxy peer))
    (protect
      (fn ()
        (while (let r (%http-read i peer max-body* max-body-default*)
                 (if (no r)
                      nil
                     (acons r)
                      (do (%srv-bad-request i o peer (car r) (cdr r)) nil)
                     (%srv-route i o peer r)
                      nil
                     (let ip (%srv-client r peer proxy)
                       (if (%srv-banned ip)
                            (do (++ (spurned* ip 0))
                                (%srv-bad-request i o ip 403 "banned")
                                nil)
                           (and proxy (no (%srv-take-ip ip)))
                            (do (%srv-bad-request i o ip 503
                                                  (string "over max-conns-per-ip* "
                                                          max-conns-per-ip*))
                                nil)
                           (do (when proxy (= counted ip))
                               (set busy)
                               (do1 (and (%srv-request r i o str ip breaksrv) (no once))
                                    (wipe busy)
                                    (when proxy
                                      (%srv-drop-ip ip)
                                      (wipe counted))))))))))
      (fn ()
        (%alarm nil)
        (when busy
          (errsafe (srvlog 'err (or counted peer) 503 "request broken: over threadlife*"
                           threadlife*))
          (errsafe (%http-error o i 503 "Request took too long")))
        (-- srv-conns*)
        (when counted (%srv-drop-ip counted))
        (close i o)))))

; Under arcana --workers, a request whose fnid another worker made (its
; closure lives there, and nowhere else) goes to that worker: the
; connection is handed over with the bytes read of it (%srv-hand-over,
; io/server.h), and this worker is done with it once that worker has
; written to it. t if so, or if it could not be handed over, or that
; worker ended before writing a byte of an answer (then answered 503
; here: a connection is never dropped unanswered); nil when the request is
; this worker's to answer: no fnid, one of its own, one made before the
; workers started (every worker has it), one naming no worker (expired:
; answered here as an unknown one), or a request handed here already.
(def %srv-route (i o peer req)
  (whenlet w (and (%srv-worker) (%srv-fnid-worker (arg req "fnid")))
    (let r (%srv-hand-over i w conn-wait*)
      (if (acons r)
          (do (%srv-bad-request i o peer (car r) (cdr r)) t)
          r))))

(def %srv-bad-request (i o ip status msg)
  (errsafe (srvlog 'err ip status msg))
  (%http-error o i status msg))

; One request: count it, throttle it, answer it. t if the connection stays
; open for the next. ip is the client's (%srv-client).
(def %srv-request (req i o str ip breaksrv)
  (++ requests*)
  (if (%srv-throttled req ip)
      (do (++ (spurned* ip 0))
          (errsafe (srvlog 'err ip 429 "throttled"))
          (%http-error o i 429 "Too many requests")
          nil)
      (let t1 (msec)
        (when srv-noisy* (write (tablist req)) (prn))
        (%alarm threadlife*)
        (if breaksrv
            (%srv-respond str req ip)
            (on-err (fn (e) (%srv-failed str req ip e))
                    (fn () (%srv-respond str req ip))))
        (%alarm nil)
        (do1 (%http-send o str i)
             (log-request req!type req!op req!args req!cooks ip req!start t1
                          (%http-status i))
             (harvest-fnids)))))

; before-request*, when not nil, is run before each request is answered,
; in its thread and inside its error handler (so that its failure is the
; request's 500): the news site's SQLite store applies there what the
; other workers changed.
(= before-request* nil)

(def %srv-respond (str req ip)
  (when before-request* (before-request*))
  (respond str req!op req!args req!cooks ip req))

; A handler's error: the client gets a plain 500 (whatever the handler had
; printed is dropped); the message and the Arc backtrace go to the log, on
; one line (the backtrace's lines joined by " | ").
(def %srv-failed (str req ip e)
  (errsafe (srvlog 'err ip 500 req!op
                   (let report (keep ~blank (lines (%describe-error e)))
                     (apply string (intersperse " | " (map [trim _] report))))))
  (%port-reset str)
  (respond-status str 500 "Internal server error."))

; --- Abuse (docs/LANGUAGE.md 6.5, step 3) ----------------------------------------------

; A request counts toward its IP's throttle (requests/ip*, abusive-ip)
; unless it is for a static file: a page's images and stylesheets, and the
; 304s that answer a browser revalidating them (the only 304s the server
; makes), would otherwise throttle a reader for reading. t if the request
; is to be refused.
(def %srv-throttled (req ip)
  (unless (and (no (srvops* req!op)) (static-filetype req!op))
    (++ (requests/ip* ip 0))
    (abusive-ip ip)))

; An IP is only looked at past 250 requests (and not at all while
; req-limit* is nil: a benchmark's client makes thousands a second). Its queue keeps the times of
; its last req-limit* requests (1 when throttled): the oldest leaving it is
; dos-window* old or less, the IP is banned (%srv-ban); req-window* old
; or less, this request is abusive.
(def abusive-ip (ip)
  (and req-limit*
       (> (or (requests/ip* ip) 0) 250)
       (let now (seconds)
         (do1 (aif (req-times* ip)
                   (and (>= (qlen it) (if (throttle-ips* ip) 1 req-limit*))
                        (let dt (- now (deq it))
                          (when (< dt dos-window*) (%srv-ban ip))
                          (< dt req-window*)))
                   (do (= (req-times* ip) (queue)) nil))
              (enq now (req-times* ip))))))

; Bans. The connections of an IP in ignore-ips* are closed unanswered as
; they are accepted (its requests on a connection already open, or through
; a trusted proxy, are answered 403): for good if its value there is t, as
; Arc 3.1's are and as an operator's (set (ignore-ips* ip)) still makes
; them; until the time (seconds) it holds if a number, as abusive-ip's
; are, ban-time* long, so that a client throttled once is served again.
; An expired ban goes when next looked at.
(def %srv-ban (ip)
  (unless (is (ignore-ips* ip) t)
    (= (ignore-ips* ip) (if ban-time* (+ (seconds) ban-time*) t))))

(def %srv-banned (ip)
  (awhen (ignore-ips* ip)
    (or (no (number it))
        (< (seconds) it)
        (wipe (ignore-ips* ip)))))

; --- Clients: trusted proxies, connections per IP ---------------------------

; Behind a reverse proxy every connection comes from the proxy, so the
; client's address and scheme come from the proxy's X-Forwarded-For and
; X-Forwarded-Proto; those of anyone else are ignored, since a client can
; send them too. Each proxy on the way adds the address it heard from at
; the right of X-Forwarded-For, so the client is the right-most address
; that is not a trusted proxy's: anything left of it was written by the
; client. That address (the peer's when there is none, or it is not an
; address) becomes the request's ip, which the throttle, the bans, the
; per-IP cap, the logs and the handler see; its scheme ("https" or
; "http", the nearest proxy's word) is req!scheme. Returns the ip.
(def %srv-client (req peer proxy)
  (if proxy
      (= req!ip (or (%srv-forwarded-ip (rev (%srv-header-list req "x-forwarded-for")))
                    peer)
         req!scheme (if (is (downcase (or (last (%srv-header-list req "x-forwarded-proto"))
                                          ""))
                            "https")
                        "https"
                        "http"))
      (= req!scheme "http"))
  req!ip)

; The client of X-Forwarded-For's addresses, right-most first: the first
; that is not a trusted proxy (the last if all are); nil if that one is not
; an address.
(def %srv-forwarded-ip (hops)
  (when hops
    (let ip (%ip-address (car hops))
      (if (and ip (%srv-trusted ip) (cdr hops))
          (%srv-forwarded-ip (cdr hops))
          ip))))

(def %srv-trusted (ip) (and trusted-proxies* (mem ip trusted-proxies*)))

; The values of the request's header name (lower case), each split at its
; commas, in order.
(def %srv-header-list (req name)
  (mappend [tokens (cadr _) [in _ #\, #\space #\tab]]
           (keep [is (car _) name] req!headers)))

; The per-IP cap counts, in srv-conns/ip*, a connection by its peer from
; accept to close, so one IP's slow connections cannot fill max-conns*.
; Not a trusted proxy's: it carries many clients' requests, and who they
; are is known only once a request's header is read. Such a connection
; counts instead for the client its request was forwarded for, from then
; until the answer is sent, and for no one while idle between requests;
; past the cap the request is answered 503 and the connection closed.
; %srv-take-ip counts a connection for ip and is t, or nil (counting
; nothing) if ip has max-conns-per-ip* already; force counts it all the
; same.
(def %srv-take-ip (ip (o force))
  (atomic
    (let n (srv-conns/ip* ip 0)
      (when (or force (no max-conns-per-ip*) (< n max-conns-per-ip*))
        (= (srv-conns/ip* ip) (+ n 1))
        t))))

(def %srv-drop-ip (ip)
  (atomic
    (let n (- (srv-conns/ip* ip 0) 1)
      (= (srv-conns/ip* ip) (if (> n 0) n)))))

; The settings of this section, checked as serve starts; trusted-proxies*'s
; addresses are written as the server writes a peer's (::FFFF:10.0.0.1 is
; 10.0.0.1), so that they compare equal.
(def %srv-check-settings ()
  (unless (and (alist trusted-proxies*)
               (all [and (isa _ 'string) (%ip-address _)] trusted-proxies*))
    (err "trusted-proxies* should be a list of IP addresses (strings), not" trusted-proxies*))
  (= trusted-proxies* (map %ip-address trusted-proxies*))
  (unless (or (no max-conns-per-ip*) (and (isa max-conns-per-ip* 'int) (> max-conns-per-ip* 0)))
    (err "max-conns-per-ip* should be a positive integer or nil, not" max-conns-per-ip*))
  (unless (or (no ban-time*) (and (number ban-time*) (>= ban-time* 0)))
    (err "ban-time* should be a number of seconds or nil, not" ban-time*)))

; --- Requests as Arc 3.1 parses them (6.5, steps 4-9) ----------------------
; The server itself parses in C++ (%http-read); these are kept for programs
; that call them, with the same results.

(def parseheader (lines)
  (let (type op args) (parseurl (car lines))
    (list type
          op
          args
          (and (is type 'post)
               (some (fn (s)
                       (and (begins s "Content-Length:")
                            (errsafe (coerce (cadr (tokens s)) 'int))))
                     (cdr lines)))
          (some (fn (s)
                  (and (begins s "Cookie:")
                       (parsecookies s)))
                (cdr lines)))))

(def parseurl (s)
  (let (type url) (tokens s)
    (let (base args) (tokens url #\?)
      (list (sym (downcase type))
            (sym (cut base 1))
            (if args (parseargs args) nil)))))

(def parseargs (s)
  (map (fn ((k v)) (list k (urldecode (or v ""))))
       (map [tokens _ #\=] (tokens s #\&))))

(def parsecookies (s)
  (map [tokens _ #\=]
       (cdr (tokens s [or (whitec _) (is _ #\;)]))))

; Arc 3.1's POST path, for programs that call it on ports of their own:
; reads n characters of form data and responds.
(def handle-post (i o op args n cooks ip)
  (if (no n)
      (respond-err o "Post request without Content-Length.")
      (let line nil
        (whilet c (and (> n 0) (readc i))
          (-- n)
          (push c line))
        (respond o op (+ (parseargs (string (rev line))) args) cooks ip))))

; --- Responding (6.5, step 10) --------------------------------------------

(deftem request
  args  nil
  cooks nil
  ip    nil)

(def arg (req key) (alref req!args key))

(def reassemble-args (req)
  (aif req!args
       (apply string "?" (intersperse "&" (map [string (car _) "=" (cadr _)] it)))
       ""))

; Writes the answer to op into str: the op's handler, a static file under
; staticdir*, or a 404. req is the request %http-read made; without it (a
; program calling respond itself) one is made from args, cooks and ip.
(def respond (str op args cooks ip (o req))
  (w/stdout str
    (iflet f (srvops* op)
           (let req (or req (inst 'request 'args args 'cooks cooks 'ip ip))
             (if (redirector* op)
                 (do (prn rdheader*)
                     (prn "Location: " (%srv-header-value (f str req)))
                     (prn))
                 (do (prn header*)
                     (awhen (max-age* op)
                       (prn "Cache-Control: max-age=" it))
                     (f str req))))
           (let filetype (static-filetype op)
             (unless (and filetype
                          (%http-file str req staticdir* (string op)
                                      (type-header* filetype) static-max-age*))
               (respond-status str 404 unknown-msg*))))))

; A value printed into a header line, without the line ends that would
; let a redirect built from a request's arguments add header lines of its
; own (Arc 3.1 prints it as it is).
(def %srv-header-value (x)
  (let s (string x)
    (if (or (posmatch "\n" s) (posmatch "\r" s))
        (rem [in _ #\return #\newline] s)
        s)))

; The type of a static file by its extension, as a key of type-header*.
; Arc 3.1 knows gif, jpg and png, and serves css, txt, htm, html and arc as
; text/html; here each has its own type. Names may have folders
; (%http-file keeps them inside staticdir*).
(def static-filetype (sym)
  (let fname (coerce sym 'string)
    (and (posmatch "." fname)
         (case (downcase (last (tokens fname #\.)))
           "gif"  'gif
           "jpg"  'jpg
           "jpeg" 'jpg
           "png"  'png
           "css"  'css
           "js"   'js
           "txt"  'txt
           "htm"  'text/html
           "html" 'text/html
           "arc"  'txt
           "ico"  'ico
           "svg"  'svg
           "json" 'json
           "pdf"  'pdf
           "woff2" 'woff2
           "webp" 'webp))))

(def respond-err (str msg . args)
  (w/stdout str
    (prn header*)
    (prn)
    (apply pr msg args)))

; A page with another status than 200: (respond-status str 404 "Unknown.").
(def respond-status (str code msg)
  (w/stdout str
    (prn "HTTP/1.1 " code " " (%http-reason code))
    (prn "Content-Type: text/html; charset=utf-8")
    (prn)
    (pr msg)))

; --- Defining operations ------------------------------------------------------

; Each op's handler is timed for optimes* (Arc 3.1's) and metered for
; opstats* (below).
(mac defop-raw (name parms . body)
  (w/uniq (t1 n1 m1)
    `(= (srvops* ',name)
        (fn ,parms
          (with (,t1 (msec) ,n1 (%nsec) ,m1 (%meter))
            (do1 (do ,@body)
                 (save-opstats ',name (- (%nsec) ,n1) ,m1)
                 (save-optime ',name (- (msec) ,t1))))))))

(mac defopr-raw (name parms . body)
  `(do (set (redirector* ',name))
       (defop-raw ,name ,parms ,@body)))

(mac defop (name parm . body)
  (w/uniq gs
    `(do (wipe (redirector* ',name))
         (defop-raw ,name (,gs ,parm)
           (w/stdout ,gs (prn) ,@body)))))

(mac defopr (name parm . body)
  (w/uniq gs
    `(do (set (redirector* ',name))
         (defop-raw ,name (,gs ,parm)
           ,@body))))

(def save-optime (name ms)
  (unless (optimes* name) (= (optimes* name) (queue)))
  (enq-limit ms (optimes* name) 1000)
  (++ (opcounts* name 0)))

; What each op's requests cost, beside optimes*: opstats* maps an op's name
; to a table of totals over its requests (docs/LANGUAGE.md 6.5): requests;
; ms, the handler's wall time (to the microsecond, where optimes* has whole
; milliseconds); and the work its thread did meanwhile (%meter, which
; leaves out what other requests' threads did): allocations, bytes,
; gc-ms, and dispatches over counted, the requests whose type dispatches
; were counted (only while arcana counts them: --stats, (count-sites t)).
; A handler that fails is left out, as from optimes*. The sums are made in
; C++ (%opstats-add), for the cost of every request.
(= opstats* (table))

(def save-opstats (name ns m0)
  (%opstats-add (or (opstats* name) (= (opstats* name) (table))) ns m0))

; The figures of opstats* per request, one table per op, most time first:
; op, requests, and the means ms, dispatches (nil: none counted),
; allocations, bytes and gc-ms.
(def opstats-per-request ()
  (sort (compare > [* _!ms _!requests])
        (accum a
          (each (op s) opstats*
            (let n s!requests
              (a (obj op op requests n ms (/ s!ms n)
                      dispatches (aif s!counted (/ s!dispatches it 1.0))
                      allocations (/ s!allocations n 1.0) bytes (/ s!bytes n 1.0)
                      gc-ms (/ s!gc-ms n))))))))

; One line in the srv log per request: the status sent (0: none, the
; connection was reset), times to parse and to respond (*** past a
; second), the method, the op, its first argument (unless a fnid), and the
; names of its cookies. A program calling it as Arc 3.1 did, without a
; status, logs 200.
(def log-request (type op args cooks ip t0 t1 (o status 200))
  (with (parsetime (- t1 t0) respondtime (- (msec) t1))
    (%srvlog-later 'srv ip
            status
            parsetime
            respondtime
            (if (> (+ parsetime respondtime) 1000) "***" "")
            type
            op
            (let arg1 (car args)
              (if (caris arg1 "fnid") "" arg1))
            (map car cooks))))

; --- Closures as links and forms (fnids) -------------------------------------

(= fns* (table) fnids* nil timed-fnids* nil)

; The deadline (seconds) of each timed fnid, so an expired one is dead at
; once rather than when harvest-fnids next runs.
(= %srv-fnid-deadlines* (table))

; Whose closures are whose. A closure made while a logged-in user's
; request runs is that user's, and each user keeps at most
; fnids-per-user* of them, his oldest dropped first, apart from everyone
; else's: so no client, however many pages he loads, can expire another
; user's forms. The rest (made for no user, or by a program's own code)
; share the pool that harvest-fnids keeps to 50,000; %srv-nfnids* counts
; them. The owner is a note on the request (below): app.arc's get-user
; names it (fnid-owner).
(= fnids-per-user* 1000
   %srv-user-fnids* (table) %srv-nfnids* 0)

; Notes on the request a thread is answering, a table of them for each
; thread (a thread answers one request at a time), forgotten once the
; request is answered (harvest-fnids, which the server calls after each):
; whose closures it makes, and app.arc's note of its session. Kept by
; thread, a note left after its request would keep the finished thread
; alive with it.
(= %srv-request-notes* (table))

(def request-note (key)
  (aand (%srv-request-notes* (current-thread)) (it key)))

(def note-request (key val)
  (atomic
    (let notes (%srv-request-notes* (current-thread))
      (when (and (no notes) val)  ; (an anonymous request's nil makes none)
        (= notes (table) (%srv-request-notes* (current-thread)) notes))
      (when notes (= (notes key) val)))))

(def fnid-owner (user) (note-request 'fnid-owner user))

; 22 characters from the kernel's random source: 131 bits, not guessable.
; In a worker of arcana --workers, they follow the worker's index and an
; _ (3_ for worker 3): the closure lives in that process only, and a
; request naming it is served there (%srv-route).
(def new-fnid ()
  (check (sym (aif (%srv-worker)
                   (string it "_" (rand-string 22))
                   (rand-string 22)))
         ~fns*
         (new-fnid)))

; The index of the worker whose fnid id (a string or symbol) is: the
; number before its _, nil for none.
(def %srv-fnid-worker (id)
  (when id
    (let s (string id)
      (awhen (pos #\_ s)
        (and (< 0 it 6)
             (all digit (cut s 0 it))
             (int (cut s 0 it)))))))

; Counts key among its owner's closures, dropping his oldest past his
; budget, or else in the shared pool: t if it went to an owner.
(def %srv-keep-fnid (key)
  (aif (request-note 'fnid-owner)
       (let q (or= (%srv-user-fnids* it) (queue))
         (enq key q)
         (while (> (qlen q) fnids-per-user*)
           (%srv-drop-fnid (deq q)))
         t)
       (do (++ %srv-nfnids*)
           nil)))

(def fnid (f)
  (atlet key (new-fnid)
    (= (fns* key) f)
    (unless (%srv-keep-fnid key)
      (push key fnids*))
    key))

(def timed-fnid (lasts f)
  (atlet key (new-fnid)
    (= (fns* key) f)
    (= (%srv-fnid-deadlines* key) (+ (seconds) lasts))
    (unless (%srv-keep-fnid key)
      (push (list key (seconds) lasts) timed-fnids*))
    key))

(mac afnid (f)
  `(atlet it (new-fnid)
     (= (fns* it) ,f)
     (unless (%srv-keep-fnid it)
       (push it fnids*))
     it))

; The closure a request's fnid argument names, nil if unknown or expired.
(def %srv-fn-of (req)
  (let id (aif (arg req "fnid") (%find-sym it))
    (awhen (and id (fns* id))
      (let deadline (%srv-fnid-deadlines* id)
        (if (and deadline (> (seconds) deadline))
            (do (%srv-drop-fnid id) nil)
            it)))))

; Called after each request: the request's notes are forgotten (those of
; threads that ended without, past a thousand threads), and past n
; closures in the shared pool the expired timed ones go, then the oldest
; tenth of the untimed ones. Users' closures are bounded as they are made.
(def harvest-fnids ((o n 50000))
  (atomic
    (wipe (%srv-request-notes* (current-thread)))
    (when (len> %srv-request-notes* 1000)
      (each th (keys %srv-request-notes*)
        (when (dead th) (wipe (%srv-request-notes* th))))))
  (when (> %srv-nfnids* n)
    (pull (fn ((id created lasts))
            (when (> (since created) lasts)
              (%srv-drop-fnid id)
              t))
          timed-fnids*)
    (atlet nharvest (trunc (/ n 10))
      (let (kill keep) (split (rev fnids*) nharvest)
        (= fnids* (rev keep))
        (each id kill
          (%srv-drop-fnid id))))
    (= %srv-nfnids* (+ (len fnids*) (len timed-fnids*)))))

; A fnid's closure goes, and so does its name: a fnid is a symbol (as in
; Arc 3.1), and a server makes them by the thousand, so each leaves the
; intern table with its closure (%unintern) instead of staying for good.
(def %srv-drop-fnid (id)
  (wipe (fns* id) (%srv-fnid-deadlines* id))
  (%unintern id))

(= fnurl* "/x" rfnurl* "/r" rfnurl2* "/y" jfnurl* "/a")

(= dead-msg* "\nUnknown or expired link.")

(defop-raw x (str req)
  (w/stdout str
    (aif (%srv-fn-of req)
         (it req)
         (pr dead-msg*))))

(defopr-raw y (str req)
  (aif (%srv-fn-of req)
       (w/stdout str (it req))
       "deadlink"))

(defop-raw a (str req)
  (aif (%srv-fn-of req)
       (tostring (it req))))

(defopr r req
  (aif (%srv-fn-of req)
       (it req)
       "deadlink"))

(defop deadlink req
  (pr dead-msg*))

(def url-for (fnid)
  (string fnurl* "?fnid=" fnid))

(def flink (f)
  (string fnurl* "?fnid=" (fnid (fn (req) (prn) (f req)))))

(def rflink (f)
  (string rfnurl* "?fnid=" (fnid f)))

(mac w/link (expr . body)
  `(tag (a href (flink (fn (,(uniq)) ,expr)))
     ,@body))

(mac w/rlink (expr . body)
  `(tag (a href (rflink (fn (,(uniq)) ,expr)))
     ,@body))

(mac onlink (text . body)
  `(w/link (do ,@body) (pr ,text)))

(mac onrlink (text . body)
  `(w/rlink (do ,@body) (pr ,text)))

(mac linkf (text parms . body)
  `(tag (a href (flink (fn ,parms ,@body)))
     (pr ,text)))

(mac rlinkf (text parms . body)
  `(tag (a href (rflink (fn ,parms ,@body)))
     (pr ,text)))

(mac w/link-if (test expr . body)
  `(tag-if ,test (a href (flink (fn (,(uniq)) ,expr)))
     ,@body))

(def fnid-field (id)
  (gentag input type 'hidden name 'fnid value id))

(def fnform (f bodyfn (o redir))
  (tag (form method 'post action (if redir rfnurl2* fnurl*))
    (fnid-field (fnid f))
    (bodyfn)))

(mac aform (f . body)
  (w/uniq ga
    `(tag (form method 'post action fnurl*)
       (fnid-field (fnid (fn (,ga)
                           (prn)
                           (,f ,ga))))
       ,@body)))

(mac taform (lasts f . body)
  (w/uniq (gl gf gi ga)
    `(withs (,gl ,lasts
             ,gf (fn (,ga) (prn) (,f ,ga)))
       (tag (form method 'post action fnurl*)
         (fnid-field (if ,gl (timed-fnid ,gl ,gf) (fnid ,gf)))
         ,@body))))

(mac arform (f . body)
  `(tag (form method 'post action rfnurl*)
     (fnid-field (fnid ,f))
     ,@body))

(mac tarform (lasts f . body)
  (w/uniq (gl gf)
    `(withs (,gl ,lasts ,gf ,f)
       (tag (form method 'post action rfnurl*)
         (fnid-field (if ,gl (timed-fnid ,gl ,gf) (fnid ,gf)))
         ,@body))))

(mac aformh (f . body)
  `(tag (form method 'post action fnurl*)
     (fnid-field (fnid ,f))
     ,@body))

(mac arformh (f . body)
  `(tag (form method 'post action rfnurl2*)
     (fnid-field (fnid ,f))
     ,@body))

; --- Logging, ids, misc ops ---------------------------------------------------

(= unique-ids* (table))

(def unique-id ((o len 8))
  (let id (sym (rand-string (max 5 len)))
    (if (unique-ids* id)
        (unique-id len)
        (= (unique-ids* id) id))))

; The log files stay open (one per type, reopened when the date changes),
; and each line is written whole, by one write (%log-line): a request
; costs one system call, not an open, a write and a close.
(= %srv-logports* (table))

(def %srv-logport (type)
  (withs (date (memodate) entry (%srv-logports* type))
    (if (and entry (is (car entry) date))
        (cadr entry)
        (do (when entry (errsafe (close (cadr entry))))
            (let p (outfile (logfile-name type) 'append)
              (= (%srv-logports* type) (list date p))
              p)))))

(def srvlog (type . args)
  (let line (cons (seconds) args)
    (on-err (fn (e) (%srv-log-lost type e line))
            (fn () (atomic (%log-line (%srv-logport type) line))
                   (%srv-log-written type)))))

; A log that cannot be written (its disk full, say) must not fail what
; logs, nor go unnoticed: the operator reads why on stderr, once until the
; log can be written again, and each line that was lost, if any (the
; request log's lines, flushed in batches, are not repeated there).
(= %srv-logs-failing* (table))

(def %srv-log-lost (type e (o line))
  (errsafe
    (let err (stderr)
      (unless (%srv-logs-failing* type)
        (set (%srv-logs-failing* type))
        (%log-line err (list "srv: cannot write the" type "log:" (details e))))
      (when line (%log-line err (cons type line))))))

(def %srv-log-written (type) (wipe (%srv-logs-failing* type)))

; The request log is the one written on every request, and its write cost
; a fifth of a small request's time. While serve runs, its lines wait in
; the port and a background thread writes them out every srv-log-flush*
; seconds (and serve at its end), so a crash of the process (not a stop)
; can lose that much of it. The error log is written at once, always.
(= srv-log-flush* .05 %srv-log-flusher* nil)

(def %srvlog-later (type . args)
  (if %srv-log-flusher*
      (atomic (%log-line (%srv-logport type) (cons (seconds) args) nil))
      (apply srvlog type args)))

(def %srv-flush-logs ()
  (each (type (date port)) (tablist %srv-logports*)
    (on-err (fn (e) (%srv-log-lost type e))
            (fn () (flushout port) (%srv-log-written type)))))

; The same thread gives back what a burst of connections used (their
; threads' stacks, the C++ heap's free pages: %trim-memory) once the
; connections open have fallen to half their peak, so the memory follows
; the load down as well as up. The 16 stacks used last are kept.
;
; And once the server is idle, having done srv-idle-requests* units of
; work since it last was (a request, or a connection that ended, served
; or not) and then none for srv-idle-after* seconds (no request, no
; connection opened or ended), it makes a full collection and gives back
; all it kept for growth: the collector's spare pages, every vacant stack
; (%trim-memory 0 t). The collection is what frees a burst's garbage and
; the C++ side of its ports (their finalizers), which an idle server would
; otherwise keep, allocating nothing that would start one: connections
; that all end by timeout leave as much behind as requests do. What an
; idle server holds is then what it needs, whatever the burst before (as
; a JVM's periodic collection of an idle heap does). A few milliseconds
; once per pause in the traffic, never while requests keep coming; nil
; turns it off.
(= %srv-conns-peak* 0
   srv-idle-after* .1 srv-idle-requests* 100
   %srv-idle-mark* 0 %srv-seen-work* 0 %srv-busy-ms* 0
   %srv-conns-seen* 0 %srv-conns-ended* 0)

(def %srv-memory-follows-load ()
  (when (and (> %srv-conns-peak* 16)
             (<= srv-conns* (/ %srv-conns-peak* 2)))
    (%trim-memory 16)
    (= %srv-conns-peak* srv-conns*))
  ; Connections ended since the last look: at least the fall of the count.
  (when (< srv-conns* %srv-conns-seen*)
    (++ %srv-conns-ended* (- %srv-conns-seen* srv-conns*)))
  (let work (+ requests* %srv-conns-ended*)
    (if (or (isnt work %srv-seen-work*) (isnt srv-conns* %srv-conns-seen*))
        (= %srv-seen-work* work %srv-busy-ms* (msec))
        (when (and srv-idle-after*
                   (>= (- work %srv-idle-mark*) srv-idle-requests*)
                   (>= (- (msec) %srv-busy-ms*) (* 1000 srv-idle-after*)))
          (%trim-memory 0 t)
          (= %srv-idle-mark* work))))
  (= %srv-conns-seen* srv-conns*))

(def %srv-start-log-flusher ()
  (unless %srv-log-flusher*
    (= %srv-log-flusher*
       (new-thread (fn ()
                     (while t
                       (sleep srv-log-flush*)
                       (%srv-flush-logs)
                       (%srv-memory-follows-load)))))))

(def %srv-stop-log-flusher ()
  (when %srv-log-flusher*
    (kill-thread %srv-log-flusher*)
    (wipe %srv-log-flusher*))
  (%srv-flush-logs))

(def logfile-name (type)
  (string logdir* type "-" (memodate)))

(with (lastasked nil lastval nil)
  (def memodate ()
    (let now (seconds)
      (if (or (no lastasked) (> (- now lastasked) 60))
          (= lastasked now lastval (datestring))
          lastval))))

(defop || req (pr "It's alive."))

(defop topips req
  (when (admin (get-user req))
    (whitepage
      (sptab
        (each ip (let leaders nil
                   (maptable (fn (ip n)
                               (when (> n 100)
                                 (insort (compare > requests/ip*) ip leaders)))
                             requests/ip*)
                   leaders)
          (let n (requests/ip* ip)
            (row ip n (pr (num (* 100 (/ n requests*)) 1)))))))))

(defop spurned req
  (when (admin (get-user req))
    (whitepage
      (sptab
        (map (fn ((ip n)) (row ip n))
             (sortable spurned*))))))

(def sortable (ht (o f >))
  (let res nil
    (maptable (fn kv (insort (compare f cadr) kv res))
              ht)
    res))

; --- Background threads ---------------------------------------------------------

(= bgthreads* (table) pending-bgthreads* nil)

(def new-bgthread (id f sec)
  (aif (bgthreads* id) (break-thread it))
  (= (bgthreads* id) (new-thread (fn ()
                                   (while t
                                     (sleep sec)
                                     (f))))))

(mac defbg (id sec . body)
  `(do (pull [caris _ ',id] pending-bgthreads*)
       (push (list ',id (fn () ,@body) ,sec)
             pending-bgthreads*)))
