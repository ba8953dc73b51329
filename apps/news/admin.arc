; apps/news/admin.arc — the editors' and administrators' side of the news
; site (docs/LANGUAGE.md 6.9): the settings page (newsadmin), title rewrite rules
; (scrubrules), the analysis pages (editors, badsites, badips, badguys,
; badlogins, goodlogins, optimes, opstats), the editors' lists (flagged, killed),
; and the actions behind the moderation links the item and user pages
; print: kill and un-kill, blast (kill and ignore the author), nuke (blast
; and ban the site), ignore and un-ignore, ban a user.
;
; Loaded after model.arc and pages.arc: the data and its rules are the
; model's (kill, killallby, ignore, set-ip-ban, set-site-ban, the disk
; tables), the page frames and op macros are the pages' (shortpage, adop,
; edop, defopa, display-items, userlink).
;
; Who may do what. Everything here is for admins, except flagged and
; killed, which editors see too. An op checks its user through adop, edop
; or defopa: anyone else gets the login page. The links and forms these
; pages print are closures (fnids, srv.arc), unguessable and made for the
; admin who saw the page; each checks again when it runs that whoever
; follows it is an admin now (a fnid outlives a logout, and an admin can
; stop being one), and refuses anyone else.
;
; Everything printed that came from a user or a client is escaped: user
; names, sites, IPs, titles, rules, the names typed at the login page.

; --- Helpers -----------------------------------------------------------------

; "5 minutes ago" for a time in seconds.
(def adm-ago (secs)
  (if (no (number secs))
      ""
      (let s (max 0 (since secs))
        (+ (if (< s 120)    (plural (trunc s) "second")
               (< s 7200)   (plural (trunc (/ s 60)) "minute")
               (< s 172800) (plural (trunc (/ s 3600)) "hour")
                            (plural (trunc (/ s 86400)) "day"))
           " ago"))))

; What was typed, as a message quotes it: at most 60 characters.
(def adm-echo (s)
  (if (isa s 'string) (ellipsize s 60) ""))

(def adm-median (ns)
  (when ns
    (let sorted (sort < ns)
      (sorted (trunc (/ (len sorted) 2))))))

; The page a closure shows when whoever follows it is not an admin.
(def adm-refuse (req)
  (msgpage (get-user req) "Sorry, only administrators can do that."))

; (adm-aform (req) handler . fields): a form whose submission runs
; handler, with req bound to the request, only for an admin.
(mac adm-aform (parms handler . fields)
  (w/uniq g
    `(aform (fn (,g)
              (let ,(car parms) ,g
                (if (admin (get-user ,g))
                    ,handler
                    (adm-refuse ,g))))
       ,@fields)))

; (adm-rlink dest action . body): a link (body prints its text) that, for
; an admin, does action and then redirects to dest; anyone else is sent
; to newsadmin, which asks for an administrator's login.
(mac adm-rlink (dest action . body)
  (w/uniq g
    `(tag (a href (rflink (fn (,g)
                            (if (admin (get-user ,g))
                                (do ,action ,dest)
                                "newsadmin"))))
       ,@body)))

; (adm-onlink text . body): a link showing text whose target page, made
; by body, is shown only to an admin.
(mac adm-onlink (text . body)
  (w/uniq g
    `(linkf ,text (,g)
       (if (admin (get-user ,g))
           (do ,@body)
           (adm-refuse ,g)))))

; The site of a url as the bans know it (sitename), or nil.
(def adm-sitename (url)
  (and (isa url 'string) (nonblank url) (errsafe (sitename url))))

; The IP address s names (trimmed), or nil: digits, hex letters, dots and
; colons, as IPv4 and IPv6 addresses are written.
(def adm-ip (s)
  (let s (and (isa s 'string) (trim s))
    (and s
         (<= 1 (len s) 45)
         (all [find _ "0123456789abcdefABCDEF.:"] s)
         s)))

; The site s names, as banned-sites* keys it: a url is reduced to its
; site, a bare name is lower-cased. nil if it cannot be a site.
(def adm-site (s)
  (let s (and (isa s 'string) (downcase (trim s)))
    (if (no s)
         nil
        (or (begins s "http://") (begins s "https://"))
         (adm-sitename s)
        (and (<= 1 (len s) 253)
             (all [or (alphadig _) (in _ #\- #\.)] s)
             (isnt (s 0) #\.))
         s)))

; The user name s names, if that user exists.
(def adm-user (s)
  (let s (and (isa s 'string) (trim s))
    (and (goodname s 1 30) (profile s) s)))

; All of items on one page: a list page's More link goes to its op
; (whence) with a start, and these lists have no op of their own.
(def adm-listpage (user items title whence)
  (longpage user (msec) nil nil title whence
    (display-items user items nil title whence 0 nil t)))

; A link to a user's page if u is a user, else u as text (the login
; queues hold whatever was typed).
(def adm-userlink (user u)
  (if (and (isa u 'string) (goodname u 1 30) (profile u))
      (userlink user u nil)
      (pr-esc u)))

; The admin pages, linked from the top of each.
(= admin-pages* '(newsadmin scrubrules editors badsites badips badguys
                  badlogins goodlogins optimes opstats flagged killed))

(def admin-menu ()
  (on op admin-pages*
    (unless (is index 0) (pr " | "))
    (link (string op) (string op)))
  (br2))

; --- Moderation: the actions behind the links -------------------------------
; The item pages' kill, blast and nuke links (pages.arc's killlink and
; blastlink, shown to admins) go to kill-url and blast-url; a user's page
; may show user-admin-links. Each link is a redirecting closure that acts
; only for an admin and goes back to where it was (local-path of whence).

; (toggle-kill i user): kills live item i, or brings killed item i back.
; An item brought back gets the key nokill, so flags do not kill it again;
; one killed loses it.
(def toggle-kill (i user)
  (store-change (list (item-record i))
    (fn ()
      (if i!dead
          (do (wipe i!dead)
              (pushnew 'nokill i!keys)
              (save-item i))
          (do (pull 'nokill i!keys)
              (kill i user)))))
  (when (astory i) (adjust-rank i)))

; (toggle-blast i user (o nuke)): blast kills i and ignores its author;
; nuke also bans i's site (stories from it are killed and their
; submitters ignored). On an item whose author is ignored already, the
; same link undoes it: the author is un-ignored, i comes back, and a nuke
; lifts the site's ban.
(def toggle-blast (i user (o nuke))
  (let site (and nuke (adm-sitename i!url))
    (store-change (list (item-record i))
      (fn ()
        (if (ignored i!by)
            (do (wipe i!dead)
                (unignore user i!by)
                (when site (set-site-ban user site nil)))
            (do (kill i user)
                (ignore user i!by (if nuke 'nuke 'blast))
                (when site (set-site-ban user site 'ignore))))
        (save-item i)))
    (when (astory i) (adjust-rank i))))

; (unignore user subject): user lifts subject's ignore.
(def unignore (user subject)
  (when (ignored subject)
    (store-update (profile-record subject) [wipe _!ignore])
    (log-ignore user subject 'unignore)))

(def toggle-ignore (user subject)
  (if (ignored subject)
      (unignore user subject)
      (ignore user subject 'admin)))

; (ban-user user subject): subject is ignored (what it submits from now on
; is born dead) and everything it submitted is killed. Un-banning is
; un-ignoring; the items stay dead until un-killed one by one.
(def ban-user (user subject)
  (ignore user subject 'ban)
  (killallby subject))

; URLs for the moderation links shown to user (an admin): each is a
; closure that does its action if whoever follows it is an admin (the
; action is logged as that admin's) and returns to whence.
(def kill-url (i user whence)
  (let back (local-path whence)
    (rflink (fn (req)
              (let u (get-user req) (when (admin u) (toggle-kill i u)))
              back))))

(def blast-url (i user whence (o nuke))
  (let back (local-path whence)
    (rflink (fn (req)
              (let u (get-user req) (when (admin u) (toggle-blast i u nuke)))
              back))))

(def ignore-url (subject user whence)
  (let back (local-path whence)
    (rflink (fn (req)
              (let u (get-user req) (when (admin u) (toggle-ignore u subject)))
              back))))

(def ban-user-url (subject user whence)
  (let back (local-path whence)
    (rflink (fn (req)
              (let u (get-user req)
                (when (admin u)
                  (if (ignored subject)
                      (unignore u subject)
                      (ban-user u subject))))
              back))))

; Links for a user's page, shown to admins: ignore/un-ignore, ban/un-ban
; (ban: ignore and kill everything; un-ban: un-ignore), and badips, where
; IPs are banned.
(def user-admin-links (user subject)
  (when (and (admin user) (profile subject))
    (let whence (+ "user?id=" subject)
      (tag (a href (ignore-url subject user whence))
        (pr (if (ignored subject) "un-ignore" "ignore")))
      (pr " | ")
      (tag (a href (ban-user-url subject user whence))
        (pr (if (ignored subject) "un-ban" "ban")))
      (pr " | ")
      (link "badips" "badips"))))

; --- newsadmin ---------------------------------------------------------------

(defopa newsadmin req (newsadmin-page (get-user req)))

; The settings vars-form edits: the cache multiplier, the strings that
; kill a comment or ignore its author, the lightweight sites.
(def nad-fields ()
  `((num     caching        ,caching*                      t t)
    (bigtoks comment-kill   ,comment-kill*                 t t)
    (bigtoks comment-ignore ,comment-ignore*               t t)
    (bigtoks lightweights   ,(sort < (keys lightweights*)) t t)))

(def nad-set (user name val)
  (when (admin user)
    (atomic
      (case name
        caching        (= caching* (max 0 val))
        comment-kill   (todisk comment-kill* (dedup val))
        comment-ignore (todisk comment-ignore* (dedup val))
        lightweights   (todisk lightweights*
                               (memtable (trues adm-site val)))))))

; msg is escaped here: it may hold what was typed.
(def newsadmin-page (user (o msg))
  (shortpage user nil "newsadmin" "newsadmin" "newsadmin"
    (admin-menu)
    (when msg (pr-esc msg) (br2))
    (vars-form user
               (nad-fields)
               (fn (name val) (nad-set user name val))
               (fn () (newsadmin-page user "Settings saved.")))
    (br2)
    (nad-forms user)))

; The action forms: kill everything by a user; ban or un-ban an IP, a site
; (kill its stories, or ignore their submitters), a user.
(def nad-forms (user)
  (adm-aform (req) (newsadmin-page user (nad-killall user (arg req "id")))
    (single-input "" 'id 20 "kill all by"))
  (br2)
  (adm-aform (req) (newsadmin-page user (nad-ip user (arg req "ip")
                                              (arg req "do")))
    (pr "IP: ")
    (input "ip" "" 20)
    (pr " ")
    (buts "do" "ban ip" "unban ip"))
  (br2)
  (adm-aform (req) (newsadmin-page user (nad-site user (arg req "site")
                                                (arg req "do")))
    (pr "Site: ")
    (input "site" "" 20)
    (pr " ")
    (buts "do" "kill site" "ignore site" "unban site"))
  (br2)
  (adm-aform (req) (newsadmin-page user (nad-user user (arg req "u")
                                                (arg req "do")))
    (pr "User: ")
    (input "u" "" 20)
    (pr " ")
    (buts "do" "ignore user" "unignore user" "ban user")))

; Each returns the message the page shows.
(def nad-killall (user name)
  (iflet subject (adm-user name)
    (do (killallby subject)
        (+ "Killed everything by " subject "."))
    (+ "No such user: " (adm-echo name) ".")))

(def nad-ip (user s action)
  (iflet ip (adm-ip s)
    (let ban (isnt action "unban ip")
      (set-ip-ban user ip ban)
      (+ (if ban "Banned " "Unbanned ") ip "."))
    (+ "Not an IP address: " (adm-echo s) ".")))

(def nad-site (user s action)
  (iflet site (adm-site s)
    (let ban (case action "kill site" 'kill "ignore site" 'ignore nil)
      (set-site-ban user site ban)
      (+ site (case ban kill ": stories killed." ignore ": submitters ignored."
                        ": ban lifted.")))
    (+ "Not a site: " (adm-echo s) ".")))

(def nad-user (user name action)
  (iflet subject (adm-user name)
    (case action
      "unignore user" (do (unignore user subject)
                          (+ subject " is no longer ignored."))
      "ban user"      (do (ban-user user subject)
                          (+ subject " is banned: ignored, and all killed."))
                      (do (ignore user subject 'admin)
                          (+ subject " is ignored.")))
    (+ "No such user: " (adm-echo name) ".")))

; --- scrubrules ----------------------------------------------------------------
; scrubrules* is a list of (from to): each title has every from replaced
; by its to (process-title). The page edits them as two columns of lines.

(defopa scrubrules req
  (let rules scrubrules*
    (scrub-page (get-user req) (map car rules) (map cadr rules))))

(= scrub-max-rules* 500 scrub-max-len* 200)

(def scrub-page (user froms tos (o msg))
  (shortpage user nil "scrubrules" "scrubrules" "scrubrules"
    (admin-menu)
    (when msg (pr-esc msg) (br2))
    (pr "Each line of From is replaced in new titles by the same line of To.")
    (br2)
    (adm-aform (req) (scrub-save user req)
      (let rows (+ (max (len froms) (len tos)) 3)
        (tab (row (prbold "From") (prbold "To"))
             (tr (td (scrub-area "from" rows froms))
                 (td (scrub-area "to" rows tos)))))
      (br)
      (submit "update"))))

(def scrub-area (name rows strs)
  (tag (textarea name name rows rows cols 40)
    ; a newline first: browsers drop the one a textarea's text begins with
    (prn)
    (each s strs (pr-esc s) (prn))))

(def drop-blank-head (ls)
  (if (and ls (blank (car ls))) (drop-blank-head (cdr ls)) ls))

(def scrub-save (user req)
  (with (froms (scrub-lines (arg req "from"))
         tos   (scrub-lines (arg req "to")))
    (if (no (and (arg req "from") (arg req "to")))
         (scrub-page user froms tos "The form sent no rules.")
        (isnt (len froms) (len tos))
         (scrub-page user froms tos
                     "From and To should have the same number of lines.")
        (some blank froms)
         (scrub-page user froms tos "A From line is blank.")
        (> (len froms) scrub-max-rules*)
         (scrub-page user froms tos "Too many rules.")
        (some [> (len _) scrub-max-len*] (join froms tos))
         (scrub-page user froms tos "A line is too long.")
         (do (todisk scrubrules* (map list froms tos))
             (scrub-page user froms tos "Changes saved.")))))

; The lines of a textarea's text, the blank lines at its end dropped (a
; To line may be blank: a rule may delete its From).
(def scrub-lines (s)
  (rev (drop-blank-head (rev (lines (or s ""))))))

; --- editors, badguys --------------------------------------------------------
; Both list the users loaded (profs*; all of them if initload-users*).

(adop editors ()
  (admin-menu)
  (tab
    (row (prbold "user") (prbold "karma") (prbold "role"))
    (each u (sort (compare > [karma _]) (users editor))
      (row (userlink user u nil)
           (pr (karma u))
           (pr (if (admin u) "admin" "editor"))))))

(adop badguys ()
  (admin-menu)
  (tab
    (row (prbold "user") (prbold "karma") (prbold "created")
         (prbold "ignored by") (prbold ""))
    (each u (sort (compare > [or (uvar _ created) 0]) (users [ignored _]))
      (let why (find [is (car _) u] ignore-log*)
        (row (userlink user u nil)
             (pr (karma u))
             (pr (adm-ago (uvar u created)))
             (do (pr-esc (cadr why)) (pr " ") (pr-esc (car:cddr why)))
             (tag (a href (ignore-url u user "badguys")) (pr "un-ignore")))))))

; --- badsites -----------------------------------------------------------------
; Sites with killed stories, most first, and the banned sites: how many
; dead, how recent, the ban (none, kill, ignore: a link sets each), and
; the users who submitted the dead stories.

; (site dead-items) lists, newest item first, most items first; computed
; at most every 5 minutes from the loaded items.
(defcache killedsites 300
  (let sites (table)
    (each (id i) items*
      (when (and i i!dead (no i!deleted))
        (awhen (adm-sitename i!url) (push i (sites it)))))
    (sort (compare > [len (cadr _)])
          (map (fn ((site is)) (list site (sort (compare > [_ 'id]) is)))
               (tablist sites)))))

; site -> the dead items of the banned sites.
(defcache banned-site-items 300
  (let h (table)
    (each (site items) (killedsites)
      (when (banned-sites* site) (= (h site) items)))
    h))

(= badsites-max* 500)

(adop badsites ()
  (admin-menu)
  (let rows (firstn badsites-max* (killedsites))
    (each site (sort < (keys banned-sites*))
      (unless (find [is (car _) site] rows)
        (push (list site ((banned-site-items) site)) rows)))
    (sptab
      (row (prbold "dead") (prbold "newest") (prbold "site") (prbold "ban")
           (prbold "users"))
      (each (site deads) rows
        (tr (tdr (when deads
                   (adm-onlink (len deads)
                     (adm-listpage user deads
                                   (+ "killed at " (eschtml site)) "badsites"))))
            (td (when deads (pr (adm-ago ((car deads) 'time)))))
            (td (pr-esc site))
            (td (badsite-bans user site))
            (td (each u (dedup (map [_ 'by] deads))
                  (adm-userlink user u)
                  (pr " "))))))))

; The three states of a site's ban, the current one in bold, the others
; links that set it.
(def badsite-bans (user site)
  (let ban (car (banned-sites* site))
    (on kind '(nil kill ignore)
      (unless (is index 0) (pr " "))
      (let label (if kind (string kind) "none")
        (if (is kind ban)
            (prbold label)
            (adm-rlink "badsites" (set-site-ban user site kind)
              (pr label)))))))

; --- badips ---------------------------------------------------------------------
; The IPs the loaded items came from, the worst first: their dead and
; live items, the dead items' authors, and whether the IP is banned.

; (bads goods): tables ip -> dead items / live items from it, newest first.
(defcache badips 300
  (with (bads (table) goods (table))
    (each (id i) items*
      (when (and i (isa i!ip 'string) (no i!deleted))
        (if i!dead
            (push i (bads i!ip))
            (push i (goods i!ip)))))
    (each h (list bads goods)
      (each ip (keys h) (zap [sort (compare > [_ 'id]) _] (h ip))))
    (list bads goods)))

; How bad the IP with bads dead and goods live items looks: its dead
; items, weighted by the share of its items that are dead.
(def badness (bads goods)
  (let nb (len bads)
    (if (is nb 0) 0 (/ (* nb nb) (+ nb (len goods))))))

; The IPs with dead items, worst first (badips-max* at most).
(= badips-max* 500)

(def sorted-badips ()
  (let (bads goods) (badips)
    (firstn badips-max*
            (sort (compare > [badness (bads _) (goods _)]) (keys bads)))))

(adop badips ()
  (admin-menu)
  (withs ((bads goods) (badips)
          ips (sorted-badips))
    (each ip (sort < (keys banned-ips*))
      (unless (mem ip ips) (= ips (join ips (list ip)))))
    (sptab
      (row (prbold "ip") (prbold "dead") (prbold "live") (prbold "badness")
           (prbold "ban") (prbold "users"))
      (each ip ips
        (with (dead (bads ip) live (goods ip))
          (tr (td (pr-esc ip))
              (tdr (when dead
                     (adm-onlink (len dead)
                       (adm-listpage user dead
                                     (+ "dead from " (eschtml ip)) "badips"))))
              (tdr (pr (len live)))
              (tdr (pr (num (badness dead live) 1)))
              (td (let banned (banned-ips* ip)
                    (adm-rlink "badips" (set-ip-ban user ip (no banned))
                      (pr (if banned "unban" "ban")))
                    (when banned (pr " (banned)"))))
              (td (each u (dedup (map [_ 'by] dead))
                    (adm-userlink user u)
                    (pr " ")))))))))

; --- badlogins, goodlogins -----------------------------------------------------
; app.arc's queues of recent login attempts, (seconds ip user), newest
; first. The user is whatever was typed, shown escaped.

(def logins-page (user q)
  (sptab
    (row (prbold "when") (prbold "ip") (prbold "user"))
    (each (secs ip name) (firstn 500 (rev (qlist q)))
      (row (pr (adm-ago secs))
           (pr-esc ip)
           (adm-userlink user name)))))

(adop badlogins ()
  (admin-menu)
  (logins-page user bad-logins*))

(adop goodlogins ()
  (admin-menu)
  (logins-page user good-logins*))

; --- optimes --------------------------------------------------------------------
; For each newsop: calls counted (opcounts*), and the median and mean of
; the last 1000 calls' times (optimes*), in milliseconds.

(adop optimes ()
  (admin-menu)
  (sptab
    (row (prbold "op") (prbold "count") (prbold "median ms") (prbold "mean ms"))
    (each name (sort < (map string (dedup newsop-names*)))
      (withs (op (sym name)
              ms (aif (optimes* op) (qlist it))
              n  (or (opcounts* op) 0))
        (tr (td (pr-esc (if (is name "") "||" name)))
            (tdr (pr n))
            (tdr (pr (if ms (num (adm-median ms) 1) "-")))
            (tdr (pr (if ms (num (avg ms) 1) "-"))))))))

; --- opstats --------------------------------------------------------------------
; For each op that has answered, most time first: requests, and per
; request the handler's mean time and the work its thread did (srv.arc's
; opstats*): type dispatches (counted only while arcana counts them),
; allocations, bytes and collection time.

(adop opstats ()
  (admin-menu)
  (sptab
    (row (prbold "op") (prbold "requests") (prbold "mean ms") (prbold "dispatches")
         (prbold "allocations") (prbold "bytes") (prbold "gc ms"))
    (each s (opstats-per-request)
      (tr (td (pr-esc (if (is s!op '||) "||" (string s!op))))
          (tdr (pr s!requests))
          (tdr (pr (num s!ms 3)))
          (tdr (pr (aif s!dispatches (num it 0) "-")))
          (tdr (pr (num s!allocations 0)))
          (tdr (pr (num s!bytes 0)))
          (tdr (pr (num s!gc-ms 3))))))
  (br)
  (pr "Per request. Type dispatches are counted when arcana runs with --stats."))

; --- flagged, killed (editors) ---------------------------------------------------

; An item the editors should look at: live, flagged by at least
; many-flags* users, and not marked nokill (an admin brought it back).
(def flagged (i)
  (and (live i)
       (no (mem 'nokill i!keys))
       (>= (len i!flags) many-flags*)))

; The stories and then the comments f picks from the loaded ones.
(def display-selected-items (user f whence)
  (let stories (f stories*)
    (pr "Stories:")
    (br)
    (if stories
        (display-items user stories nil nil whence 0 maxend*)
        (pr "none"))
    (br2))
  (let comments (f comments*)
    (pr "Comments:")
    (br)
    (if comments
        (display-items user comments nil nil whence 0 maxend*)
        (pr "none"))))

; The most flags first, the newest first among equals.
(edop flagged ()
  (display-selected-items
    user
    (fn (items)
      (firstn maxend*
              (sort (fn (a b)
                      (let (na nb) (list (len a!flags) (len b!flags))
                        (or (> na nb) (and (is na nb) (> a!id b!id)))))
                    (keep flagged items))))
    "flagged"))

(edop killed ()
  (display-selected-items
    user
    (fn (items) (retrieve maxend* [and _!dead (no _!deleted)] items))
    "killed"))
