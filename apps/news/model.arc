; apps/news/model.arc — the news forum's data and its rules (docs/LANGUAGE.md 6.9),
; with no HTML: the configuration, the profile and item templates, the
; data in memory and its loading, ranking, who may see, vote on, edit or
; delete what, voting, making stories, comments and polls, the checks of
; what users submit, bans and kills, flags, the noprocrast feature, the
; list sources and the tree of an item's replies. pages.arc shows all this
; and admin.arc drives its moderation side.
;
; Storage is store.arc's, loaded first: the model reads and writes its
; records (items, profiles, votes) and the rest through the store's
; functions and never touches a file. Every change is saved inside the
; request that made it, so an answered request is on disk. A change that
; saves several records runs in store-change, and one that changes one
; record in store-update, so that a change that fails part way (a full
; disk) is undone in memory and on disk, and a request answered 500 shows
; and keeps nothing.
;
; Concurrency. Requests run in green threads. A read-modify-write of
; shared data (a table or a list, and the file it is saved in) runs inside
; `atomic', the one global lock, so that two requests do not interleave
; their changes nor share a FILE.tmp. Place macros (=, ++, push ...) are
; atomic on their own; a sequence of them that must hold together is
; wrapped as a whole.
;
; No string literal here holds an @ (pages.arc or a program may turn
; atstrings on).

; --- Site configuration ----------------------------------------------------

(= this-site*    "Arcana News"
   site-url*     "http://news.example.com/"
   parent-url*   "http://www.example.com"
   favicon-url*  ""
   site-desc*    "Stories and talk on Arcana News."   ; RSS
   site-color*   (color 255 102 0)
   border-color* (color 180 180 180)
   prefer-url*   t                            ; submit form: url first
   up-url*       "grayarrow.gif"
   down-url*     "graydown.gif"
   logo-url*     "arc.png")

; A session for each login, with its own token for forms and links
; (app.arc's Sessions), instead of Arc 3.1's one cookie per user printed
; into vote links.
(= app-sessions* t)

; Colors and labels of the pages (pages.arc uses them; set here with the
; rest of 6.9's variables so that one place holds them all).
(= sand          (color 246 246 239)
   textgray      (gray 130)
   noob-color*   (color 40 120 40)   ; new accounts' names on sand
   noob-bar-color* (color 0 48 0)    ; and on the top bar's site-color*
   pagefns*      nil
   toplabels*    '(nil "welcome" "new" "threads" "past" "comments" "ask" "show"
                   "leaders" "*")
   welcome-url*  "welcome"
   newsop-names* nil)

; --- The index of 6.9's variables, with their defaults -----------------------

(= initload*       15000     ; how many item files load-items reads
   initload-users* nil       ; whether news-load reads every profile
   stemmable-sites* (table)  ; site -> t: canonical urls drop the query
   gravity*        1.8
   timebase*       120
   front-threshold* 1
   nourl-factor*   .4
   lightweight-factor* .3
   max-delay*      10)

(= topcolor-threshold* 250
   caching*        1
   perpage*        30
   threads-perpage* 10
   maxend*         210
   follow-threshold* 5)

(= downvote-threshold* 200
   downvote-time*  1440
   lowest-score*   -4
   votewid*        14
   show-avg*       nil
   show-threadavg* nil)

(= user-changetime*   120
   editor-changetime* 1440
   everchange*        (table)   ; item types their authors may always edit
   noedit*            (table))  ; item types editors may not edit

(= flag-threshold*      30
   flag-kill-threshold* 7
   many-flags*          1)

(= legit-threshold*     0
   new-age-threshold*   0
   new-karma-threshold* 2
   downvote-ratio-limit* .65
   votewindow*          100)

(= title-limit*  80
   retry*        "Please try again."
   toolong*      (+ "Please make title < " title-limit* " characters.")
   bothblank*    "The url and text fields can't both be blank.  Please either supply a url, or if you're asking a question, put it in the text field."
   toofast*      "You're submitting too fast.  Please slow down.  Thanks."
   spammage*     "Stop spamming us.  You're wasting your time."
   submit-instructions*
     "Leave url blank to submit a question for discussion. If there is no url, the text (if any) will appear at the top of the comments page. If there is a url, the text will be ignored."
   enforce-oversubmit* nil)

; Messages of the checks that 6.9 leaves to "retry*" (told apart here).
(= notitle*      "Please supply a title."
   badurl*       "The url must be a web address beginning with http:// or https://."
   notloggedin*  "You have to be logged in to do that."
   notext*       "Please type a comment."
   closed*       "That item is not open for comments."
   text-limit*   20000
   toolongtext*  (+ "Please keep the text under " 20000 " characters."))

; Rate limits (not in 6.9 as numbers; chosen here). They hold for everyone
; but editors, counted over the items made in the last window, by the
; user and, separately, by the IP (a shared IP gets twice a user's room):
;   stories:  story-limit* (5) per user and ip-story-limit* (10) per IP
;             in story-window* (60) minutes;
;   comments: one per comment-wait* (10) seconds by a user, and
;             comment-limit* (30) per user and ip-comment-limit* (60)
;             per IP in comment-window* (60) minutes.
; With enforce-oversubmit* (6.9's switch, off by default) new accounts
; (noob, or karma under new-karma-threshold*) may also submit only
; noob-story-limit* (2) stories a day.
(= story-window*      60
   story-limit*       5
   ip-story-limit*    10
   comment-window*    60
   comment-limit*     30
   ip-comment-limit*  60
   comment-wait*      10
   noob-story-limit*  2)

; Ask and Show stories: those whose titles begin with these words (case
; aside), listed on the ask and show pages. A site that names them its own
; way sets these.
(= ask-prefix*  "Ask HN:"
   show-prefix* "Show HN:")

(= multi-tld-countries* '("uk" "jp" "au" "in" "ph" "tr" "za" "my" "nz" "br"
                          "mx" "th" "sg" "id" "pk" "eg" "il" "at" "pl" "kr"
                          "cn" "ar" "hk" "tw" "ua" "ve" "co" "ke" "ng" "vn")
   long-domains*  '("blogspot" "wordpress" "livejournal" "blogs" "typepad"
                    "weebly" "tumblr" "github" "substack" "medium"
                    "blog-city" "dreamhosters" "blogsome" "blog"))

(= ip-ban-threshold*    3
   poll-threshold*      20
   fewopts*             "A poll must have at least two options."
   baditemreqs*         (table)
   baditem-threshold*   1/100
   commentable-threshold* (* 60 24 45))

(= noob-comment-msg*  nil
   comment-threshold* -20
   reply-decay*       1.8
   nleaders*          20
   leader-threshold*  1
   update-avg-threshold* 0
   active-threshold*  1500)

; The pages' tables (filled by pages.arc), made here so that each exists.
(= displayfn*  (table)
   fieldfn*    (table)
   comment-cache* (table)
   comment-cache-timeout* (table)
   cc-window*  10000
   comments-printed* 0
   cc-hits*    0
   comment-caching* t)

; --- Templates ---------------------------------------------------------------

(deftem profile
  id         nil
  name       nil
  created    (seconds)
  auth       0
  member     nil
  submitted  nil
  votes      nil      ; recent votes: (time id by site dir), newest first
  karma      1
  avg        nil
  weight     .5
  ignore     nil
  email      nil
  about      nil
  showdead   nil
  noprocrast nil
  firstview  nil
  lastview   nil
  maxvisit   20
  minaway    180
  topcolor   nil
  keys       nil
  delay      0
  favorites  nil      ; item ids the user keeps, newest first (public)
  hidden     nil)     ; story ids left out of his list pages, newest first

(deftem item
  id         nil
  type       'story
  by         nil
  ip         nil
  time       (seconds)
  url        nil
  title      nil
  text       nil
  votes      nil      ; (time ip user dir score), newest first
  score      0
  sockvotes  0
  flags      nil
  dead       nil
  deleted    nil
  parts      nil
  parent     nil
  kids       nil
  keys       nil)

; --- The in-memory state -------------------------------------------------------

; The disk tables and vars of 6.9 (lightweights*, banned-ips* ... ignore-log*)
; are the store's store-vars*: read by store-open and store-load-all,
; saved with todisk.

; Empties every table and list of the model (tests start a fresh data
; directory in the same process with this and store-open).
(def news-reset ()
  (atomic
    (= items*  (table) profs* (table) votes* (table) url->story* (table)
       stories* nil comments* nil ranked-stories* nil
       maxid* 0 kill-log* nil recent-votes* nil
       baditemreqs* (table) users-loaded* nil)
    (store-reset-vars)
    t))

(news-reset)
(store-open "arc/")

; --- Logging -------------------------------------------------------------------

; A line in logdir*/news-DATE. Written as the request log is, in batches
; while serve runs (srv.arc's %srvlog-later, srv-log-flush*): written at
; once, each page view's line was a system call of its own, a large share
; of what a cached page costs. srvlog (srv.arc) never fails what logs: a
; log it cannot write is reported on stderr.
(def newslog args (apply %srvlog-later 'news args))

; --- Users ---------------------------------------------------------------------

; Every stored profile (and its votes when first asked for).
(def load-users ()
  (each u (store-user-names)
    (unless (profs* u) (profile u))))

; (profile u): u's profile, read from the store the first time; nil when u
; has none.
(def profile (u)
  (or (profs* u)
      (and (store-user-ok u)
           (atomic
             (or (profs* u)
                 (awhen (store-load-profile u)
                   (= (profs* u) it)))))))

; (votes u): u's table item id -> vote, read the first time; an empty one
; for a user with a profile and no votes stored yet.
(def votes (u)
  (or (votes* u)
      (and (profile u)
           (atomic
             (or (votes* u)
                 (= (votes* u) (or (store-load-votes u) (table))))))))

(def init-user (u)
  (unless (store-user-ok u) (err "init-user: bad user name" u))
  (atomic
    (= (votes* u) (table)
       (profs* u) (inst 'profile 'id u))
    (save-votes u)
    (save-prof u))
  u)

; The profile of a user who has an account but has not used the site yet
; is made here.
(def ensure-news-user (u)
  (if (profile u) u (init-user u)))

(def save-votes (u) (store-save-votes u (votes* u)))

(def save-prof (u) (store-save-profile u (profs* u)))

(mac uvar (u k) `((profile ,u) ',k))

(mac karma (u) `(uvar ,u karma))

(mac ignored (u) `(uvar ,u ignore))

; A field of u's profile, nil for a user with no profile (uvar fails).
(def ufield (u k) (aand (profile u) (it k)))

;(users (o f)): every user passing f. The pages that list users (leaders,
; editors, badguys, topcolors) must see all of them, not only those whose
; profiles a request has read since the start, so the first call reads
; every profile (Arc 3.1 listed only the loaded ones unless
; initload-users* was set).
(= users-loaded* nil)

(def users ((o f idfn))
  (unless users-loaded*
    (load-users)
    (= users-loaded* t))
  (keep f (keys profs*)))

(def check-key (u k) (and u (mem k (ufield u 'keys))))

; t or nil (admin gives the admins' list).
(def editor (u)
  (and u (or (no (no (admin u))) (> (or (ufield u 'auth) 0) 0))))

(def member (u)
  (and u (or (no (no (admin u))) (no (no (ufield u 'member))))))

; Minutes since u's profile was made (0 for no profile).
(def user-age (u)
  (aif (ufield u 'created) (minutes-since it) 0))

; An account less than a day old.
(def noob (u) (and u (< (user-age u) 1440)))

(def legit-user (u)
  (or (editor u)
      (> (or (ufield u 'karma) 0) legit-threshold*)
      (> (user-age u) new-age-threshold*)))

(def possible-sockpuppet (u)
  (or (ufield u 'ignore)
      (< (or (ufield u 'weight) .5) .5)
      (and (< (user-age u) new-age-threshold*)
           (< (or (ufield u 'karma) 0) new-karma-threshold*))))

; 6.9: ignored, or karma below comment-threshold*: such a user's comments
; are born dead.
(def bad-user (u)
  (or (ufield u 'ignore)
      (< (or (ufield u 'karma) 0) comment-threshold*)))

(def seesdead (u)
  (or (and u (ufield u 'showdead) (no (ufield u 'ignore)))
      (editor u)))

; A random loaded user passing test, or nil (tries a bounded number).
(def rand-user ((o test idfn))
  (let us (keys profs*)
    (when us
      ((afn (n)
         (when (> n 0)
           (let u (rand-elt us)
             (if (test u) u (self (- n 1))))))
       100))))

; --- Items: loading and saving ---------------------------------------------------

; An id that names an item: a positive integer up to maxid*.
(def ok-id (id)
  (and (isa id 'int) (<= 1 id maxid*) id))

; (load-item id): item id read from the store into items* (its url
; registered), or nil if none is stored. maxid* is raised to it: an item
; in memory is one ok-id lets through. (With workers sharing a store a
; process can meet an item before the change log brings it: the front
; page or a profile, read as stored now, names an item made since the log
; was read.)
(def load-item (id)
  (whenlet i (store-load-item id)
    (atomic
      (= (items* id) i maxid* (max maxid* id))
      (awhen (and (astory i) (live i) (nonblank i!url))
        (register-url i it)))
    i))

; (item id): the item, read from the store the first time; nil if there
; is none (or id is not an item id).
(def item (id)
  (or (items* id)
      (and (isa id 'int)
           (> id 0)
           (atomic (or (items* id) (load-item id))))))

; The pages keep what they made from an item (pages.arc's shared rows)
; while this number, moved by every save (store-item-version), is the same.
(def item-version (i) (store-item-version i!id))

(def save-item (i) (store-save-item i))

; The next free id, which maxid* then names.
(def new-item-id ()
  (atomic (= maxid* (store-next-id maxid*))))

; (safe-item s): the item a string of digits names, else nil.
(def safe-item (s)
  (and (isa s 'string)
       (<= 1 (len s) 15)
       (all digit s)
       (item (ok-id (int s)))))

(def arg->item (req key) (safe-item (arg req key)))

; Of ids, the items stored (newest first), reads the newest initload* and
; fills items*, stories* (stories and polls), comments*, url->story* and
; maxid*, then the front page.
(def load-items (ids)
  (atomic
    (= maxid* (or (car ids) 0))
    (with (ss nil cs nil)
      (each id (rev (firstn initload* ids))
        (awhen (load-item id)
          (case it!type
            story   (push it ss)
            poll    (push it ss)
            comment (push it cs))))
      (= stories* ss comments* cs)))
  (ensure-topstories)
  (len ids))

(mac each-loaded-item (var . body)
  (w/uniq g
    `(down ,g maxid* 1
       (whenlet ,var (items* ,g) ,@body))))

(def loaded-items (test)
  (accum a (each-loaded-item i (when (test i) (a i)))))

; --- Item types and simple properties --------------------------------------------

(def astory   (i) (and i (is i!type 'story)))
(def acomment (i) (and i (is i!type 'comment)))
(def apoll    (i) (and i (is i!type 'poll)))
(def metastory (i) (and i (in i!type 'story 'poll)))
(def news-type (i) (and i (isa i 'table) (in i!type 'story 'comment 'poll 'pollopt)))
(def commentable (i) (and i (in i!type 'story 'comment 'poll)))
(def editable-type (i) (news-type i))

(def live (i) (and i (nor i!dead i!deleted)))

(def author (u i) (and u i (is u i!by)))

(def realscore (i) (- i!score i!sockvotes))

(def item-age (i) (minutes-since i!time))

; --- URLs and sites ----------------------------------------------------------------

; The host of url ("news.bbc.co.uk"), lower case, without user, port or
; path; nil for anything but an http or https url.
(def url-host (url)
  (when (valid-url url)
    (withs (rest (cut url (+ (pos #\/ url) 2))
            host (car (tokens rest [in _ #\/ #\? #\#]))
            host (if (posmatch "@" host)
                     (cut host (+ 1 (last (positions #\@ host))))
                     host)
            host (car (tokens host #\:)))
      (and host (downcase host)))))

; The labels of url's host, last first: ("uk" "co" "bbc" "news").
(def parse-site (url)
  (aif (url-host url) (rev (tokens it #\.))))

(def ip-host (labels)
  (and (is (len labels) 4) (all [all digit _] labels)))

; The registered domain of url: the last two labels of the host, or three
; under a country's second level (bbc.co.uk) or a blog host
; (foo.blogspot.com); an IP address whole. nil for a url that is not one.
(def sitename (url)
  (let labels (parse-site url)
    (if (no labels)
         nil
        (ip-host labels)
         (url-host url)
        (let (t1 t2 t3) labels
          (if (and t3 (isnt t3 "www")
                   (or (mem t1 multi-tld-countries*) (mem t2 long-domains*)))
              (+ t3 "." t2 "." t1)
              t2
              (+ t2 "." t1)
              t1)))))

; Duplicate submissions are caught by url. On stemmable sites the query
; string does not count.
(def canonical-url (url)
  (if (and (isa url 'string) (stemmable-sites* (sitename url)))
      (cut url 0 (pos #\? url))
      url))

(def register-url (story url)
  (= (url->story* (canonical-url url)) story!id))

(def live-story-w/url (url)
  (and (nonblank url)
       (aand (url->story* (canonical-url url))
             (item it)
             (and (live it) it))))

; --- Ranking -----------------------------------------------------------------------

(def lightweight-url (url)
  (and (isa url 'string)
       (in (downcase (or (last (tokens url #\.)) "")) "png" "jpg" "jpeg")))

(def lightweight (s)
  (or s!dead
      (mem 'rally s!keys)
      (mem 'image s!keys)
      (and (nonblank s!url) (lightweights* (sitename s!url)))
      (lightweight-url s!url)))

; How many of the items of i's thread (i included) user can see.
(def visible-count (user i)
  (+ (if (cansee user i) 1 0)
     (sum [aif (item _) (visible-count user it) 0] i!kids)))

; A heated thread (more visible comments than votes) ranks lower.
(def contro-factor (s)
  (let n (visible-count nil s)
    (if (> n 20)
        (min 1 (expt (/ (realscore s) n) 2))
        1)))

; 6.9's formula: (score-1)^.8 / ((age + timebase) / 60)^gravity, times a
; factor for the kind of item.
(def frontpage-rank (s (o scorefn realscore) (o gravity gravity*))
  (withs (base (- (scorefn s) 1)
          num  (if (> base 0) (expt base .8) base))
    (* (/ num (expt (/ (+ (item-age s) timebase*) 60) gravity))
       (if (no (in s!type 'story 'poll)) .5
           (blank s!url)                 nourl-factor*
           (lightweight s)               (min lightweight-factor* (contro-factor s))
                                         (contro-factor s)))))

(def rank-stories (n consider scorefn)
  (let ranks (map [list (scorefn _) _] (latest-items metastory nil consider))
    (map cadr (firstn n (sort (compare > car) ranks)))))

(def gen-topstories ()
  (= ranked-stories* (rank-stories 180 1000 frontpage-rank)))

; The saved front page only spares a start the ranking (ensure-topstories
; ranks anew without it), so a save of it that fails is logged and fails
; nothing else.
(def save-topstories ()
  (on-err (fn (e) (errsafe (srvlog 'err "news: front page not saved:" (details e))))
          (fn ()
            (store-save-topstories (map [_ 'id] (firstn 180 ranked-stories*))))))

; The front page as saved, or ranked anew.
(def ensure-topstories ()
  (let ids (store-topstories)
    (if (and ids (alist ids))
        (= ranked-stories* (trues [and (isa _ 'int) (metastory (item _)) (item _)]
                                  ids))
        (gen-topstories))))

; Puts story s where its rank now places it (after a vote, an edit, a
; kill) and saves the front page. A change of the store, so that with
; several processes the list it changes is the one last saved.
(def adjust-rank (s (o scorefn frontpage-rank))
  (when (metastory s)
    (store-change nil
      (fn ()
        ; The others keep their places (the background job re-ranks them):
        ; s goes before the first that ranks lower, as insortnew puts it.
        (let r (scorefn s)
          (= ranked-stories*
             (firstn 180 (insert-sorted (fn (a b) (> r (scorefn b)))
                                        s
                                        (rem s ranked-stories*)))))
        (save-topstories)))))

; The background job: one of the top 50 re-ranked.
(def rerank-random ()
  (when ranked-stories*
    (adjust-rank (ranked-stories* (rand (min 50 (len ranked-stories*)))))))

(def topstories (user n (o threshold front-threshold*))
  (retrieve n [and (>= (realscore _) threshold) (cansee user _)]
            ranked-stories*))

; --- Scanning items ----------------------------------------------------------------

; Items from maxid* down that pass test, until one passes stop or n have
; been found.
(def latest-items (test (o stop) (o n))
  (accum a
    (catch
      (down id maxid* 1
        (let i (item id)
          (when (or (and n (<= n 0)) (and i stop (stop i)))
            (throw nil))
          (when (and i (test i))
            (a i)
            (when n (-- n))))))))

(def recent-items (test minutes)
  (let cutoff (- (seconds) (* 60 minutes))
    (latest-items test [< _!time cutoff])))

; --- Visibility and permissions ----------------------------------------------------

; A comment younger than its author's delay (at most max-delay* minutes)
; is shown to its author only.
(def delayed (i)
  (and (acomment i)
       (no (mem 'undelay i!keys))
       (< (item-age i) (min max-delay* (or (ufield i!by 'delay) 0)))))

(def cansee (user i)
  (if (no i)      nil
      i!deleted   (no (no (admin user)))
      i!dead      (or (author user i) (seesdead user))
      (delayed i) (author user i)
                  t))

(def visible (user xs) (keep [cansee user _] xs))

(def cansee-descendant (user c)
  (or (cansee user c)
      (some [aif (item _) (cansee-descendant user it)] c!kids)))

(def own-changeable-item (user i)
  (and (author user i)
       (no (mem 'locked i!keys))
       (no i!deleted)
       (or (everchange* i!type)
           (< (item-age i) user-changetime*))))

(def canedit (user i)
  (and user i
       (or (admin user)
           (and (no (noedit* i!type))
                (editor user)
                (< (item-age i) editor-changetime*))
           (own-changeable-item user i))))

(def candelete (user i)
  (and user i (or (admin user) (own-changeable-item user i))))

(def canvote (user i dir)
  (and user
       (news-type i)
       (live i)
       (in dir 'up 'down)
       (profile user)
       (no ((votes user) i!id))
       (or (is dir 'up)
           (and (acomment i)
                (> i!score lowest-score*)
                (> (or (ufield user 'karma) 0) downvote-threshold*)
                (no (aand i!parent (author user (item it))))))))

(def superparent (i)
  ((afn (i depth)
     (aif (and i!parent (< depth 10000) (item i!parent))
          (self it (+ depth 1))
          i))
   i 0))

; New comments close on an item older than commentable-threshold*
; (unless keyed commentable), and under a dead or deleted story.
(def comments-active (i)
  (and (commentable i)
       (live i)
       (live (superparent i))
       (or (< (item-age i) commentable-threshold*)
           (mem 'commentable i!keys))))

; The deeper a comment, the longer before it may be answered.
(def replyable (c indent)
  (or (< indent 2)
      (> (item-age c) (expt (- indent 1) reply-decay*))))

; --- Tree navigation -------------------------------------------------------------

(def kids (i) (trues item i!kids))

(def family (i) (cons i (mappend family (kids i))))

; i's parent, its parent's parent ... up to the story.
(def ancestors (i)
  (accum a
    ((afn (p n)
       (awhen (and p (< n 10000) (item p))
         (a it)
         (self it!parent (+ n 1))))
     i!parent 0)))

; A comment under one of its author's own comments.
(def subcomment (c)
  (some [and (acomment _) (is _!by c!by) (no _!deleted)] (ancestors c)))

; --- Voting ------------------------------------------------------------------------

(def biased-voter (i vote) nil)

(def logvote (ip user i)
  (newslog ip user 'vote i!id (list (or i!title ""))))

(def recent-votes-by (u)
  (keep [is (_ 3) u] recent-votes*))

; The share of down-votes among u's last sample votes on others' items.
(def downvote-ratio (u (o sample 20))
  (ratio [is (cadr (cddr (cadr _))) 'down]
         (firstn sample
                 (sort (compare > [car (cadr _)])
                       (keep [let i (item (car _))
                               (and i (no (author u i)) (no (ufield i!by 'ignore)))]
                             (tablist (votes u)))))))

; u's last n votes were all down-votes of victim's items.
(def just-downvoted (u victim (o n 3))
  (let prev (firstn n (recent-votes-by u))
    (and (is (len prev) n)
         (all (fn (v) (and (author victim (item (car v))) (is (v 4) 'down)))
              prev))))

; Whether u's vote changes the score (6.9's Voting).
(def vote-counts (u i dir ip)
  (nor (and (or (ufield u 'ignore) (check-key u 'novote))
            (no (author u i)))
       (and (is dir 'down)
            (no (editor u))
            (or (check-key u 'nodowns)
                (> (downvote-ratio u) downvote-ratio-limit*)
                (just-downvoted u i!by)))
       (and ip
            (no (legit-user u))
            (no (author u i))
            (find [is (cadr _) ip] i!votes))
       (and (isnt i!type 'pollopt)
            (biased-voter i (list u dir)))))

; A down-vote refused outright: only by a user canvote allows (karma over
; downvote-threshold*, on a comment not answering the voter), or an admin.
(def bad-downvote (u i)
  (and (no (admin u)) (no (canvote u i 'down))))

; (vote-for user i (o dir 'up)): user's vote on i, once. It is recorded in
; the item, the user's votes table and profile and recent-votes*, and
; counts toward the score unless 6.9's rules say otherwise; the author's
; karma moves with it unless the vote is the author's own, from the
; author's IP, or on a poll option. Saves the item, the votes, the
; profiles; re-ranks a story.
(def vote-for (user i (o dir 'up))
  (when (and user (news-type i) (in dir 'up 'down) (profile user)
             (no (and (is dir 'down) (bad-downvote user i))))
    (let changed nil
      (store-change (join (list (item-record i))
                          (and (isnt i!by user) (profile i!by)
                               (list (profile-record i!by)))
                          (user-records user i))
        (fn ()
      (atomic
        (unless (or ((votes user) i!id)
                    (and (no (live i)) (no (author user i))))
          (withs (ip   (logins* user)
                  now  (seconds)
                  vote (list now ip user dir i!score))
            (when (vote-counts user i dir ip)
              (++ i!score (if (is dir 'up) 1 -1))
              (when (and (is dir 'up) (possible-sockpuppet user))
                (++ i!sockvotes))
              (unless (or (author user i)
                          (and ip (is ip i!ip))
                          (is i!type 'pollopt)
                          (no (profile i!by)))
                (++ (karma i!by) (if (is dir 'up) 1 -1))
                (save-prof i!by))
              (wipe (comment-cache* i!id)))
            (when (admin user) (pushnew 'nokill i!keys))
            (push vote i!votes)
            (save-item i)
            (push (list now i!id i!by (sitename i!url) dir) (uvar user votes))
            (zap [firstn votewindow* _] (uvar user votes))
            (save-prof user)
            (= ((votes user) i!id) vote)
            (save-votes user)
            (= recent-votes* (firstn 1000 (cons (cons i!id vote) recent-votes*)))
            (= changed t))))))
      (when changed (logvote (logins* user) user i))
      (when (and changed (metastory i)) (adjust-rank i))
      changed)))

; --- Checks of submissions -------------------------------------------------------

; The items of xs (newest first) made in the last minutes that pass test.
(def count-recent (test xs minutes)
  (let cutoff (- (seconds) (* 60 minutes))
    ((afn (xs n)
       (if (or (no xs) (< ((car xs) 'time) cutoff))
           n
           (self (cdr xs) (if (test (car xs)) (+ n 1) n))))
     xs 0)))

; The seconds until fewer than limit of the items of xs (newest first)
; made in the last minutes pass test: until the limit-th newest of them
; is minutes old, rounded up. nil if fewer pass already; t for a limit
; under 1 (never).
(def recent-wait (test xs minutes limit)
  (if (< limit 1)
      t
      (let cutoff (- (seconds) (* 60 minutes))
        ((afn (xs n)
           (if (or (no xs) (<= ((car xs) 'time) cutoff))
                nil
               (no (test (car xs)))
                (self (cdr xs) n)
               (>= (+ n 1) limit)
                (let w (- ((car xs) 'time) cutoff)
                  (if (> w (trunc w)) (+ 1 (trunc w)) (trunc w)))
                (self (cdr xs) (+ n 1))))
         xs 0))))

; nil if user (and the IP) may make an item of kind ('story or 'comment)
; now, see the rate limits at the top; else the seconds until he may (the
; longest wait of the limits he is over), or t if there is no telling:
; a rebuffed user, or a limit under 1.
(def oversubmitting (user ip kind (o url))
  (and (no (editor user))
       (or (check-key user 'rebuff)
           (let waits
                (keep idfn
                      (if (is kind 'story)
                          (list (recent-wait [is _!by user] stories* story-window* story-limit*)
                                (and ip (recent-wait [is _!ip ip] stories* story-window*
                                                     ip-story-limit*))
                                (and enforce-oversubmit*
                                     (or (noob user)
                                         (< (or (ufield user 'karma) 0) new-karma-threshold*))
                                     (recent-wait [is _!by user] stories* 1440 noob-story-limit*)))
                          (list (and (> comment-wait* 0)
                                     (recent-wait [is _!by user] comments* (/ comment-wait* 60) 1))
                                (recent-wait [is _!by user] comments* comment-window* comment-limit*)
                                (and ip (recent-wait [is _!ip ip] comments* comment-window*
                                                     ip-comment-limit*)))))
             (if (mem t waits) t
                 waits         (apply max waits))))))

; The message for oversubmitting's answer, nil for nil: how long to wait,
; when known, so that a person who replied at once knows when to send it
; again.
(def toofast-message (wait)
  (if (no wait)
       nil
      (isa wait 'int)
       (+ "You're submitting too fast.  Please wait "
          (if (< wait 120)
              (plural wait "second")
              (plural (trunc (/ (+ wait 59) 60)) "minute"))
          " and try again.  Thanks.")
       toofast*))

; A site that is banned with ignore and has had stories in the last 12
; hours is spamming.
(def recent-spam (site)
  (and (caris (banned-sites* site) 'ignore)
       (> (count-recent [is (sitename _!url) site] stories* 720) 0)))

; (story-problem user url title text ip): nil if the story may be made,
; else the message to show.
(def story-problem (user url title text ip)
  (with (url   (if (isa url 'string) (trim url) url)
         title (if (isa title 'string) (trim title) title))
    (if (no user)
         notloggedin*
        (or (no (isa title 'string)) (blank title))
         notitle*
        (len> title title-limit*)
         toolong*
        (and (blank url) (blank text))
         bothblank*
        (and (nonblank url) (no (valid-url url)))
         badurl*
        (and (isa text 'string) (len> text text-limit*))
         toolongtext*
        (and (nonblank url)
             (let site (sitename url)
               (or (big-spamsites* site) (recent-spam site))))
         spammage*
        (toofast-message (oversubmitting user ip 'story url)))))

; (comment-problem user parent text ip): nil if the comment may be made,
; else the message.
(def comment-problem (user parent text ip)
  (if (no user)
       notloggedin*
      (no (comments-active parent))
       closed*
      (or (no (isa text 'string)) (blank text))
       notext*
      (len> text text-limit*)
       toolongtext*
      (toofast-message (oversubmitting user ip 'comment))))

; (poll-problem user title text opts ip): the same for a poll; opts is the
; list of its choices.
(def poll-problem (user title text opts ip)
  (if (no user)
       notloggedin*
      (<= (or (ufield user 'karma) 0) poll-threshold*)
       (+ "You need more than " poll-threshold* " karma to create a poll.")
      (or (no (isa title 'string)) (blank title))
       notitle*
      (len> title title-limit*)
       toolong*
      (len< (keep nonblank opts) 2)
       fewopts*
      (toofast-message (oversubmitting user ip 'story))))

; The title with scrubrules* applied, trimmed and capitalized.
(def process-title (s)
  (let s (trim (multisubst (keep [and (acons _) (isa (car _) 'string)
                                     (nonblank (car _))]
                                 scrubrules*)
                           s))
    (if (is s "")
        s
        (+ (upcase (cut s 0 1)) (cut s 1)))))

; --- Bans and kills --------------------------------------------------------------

(def log-ignore (user subject cause)
  (todisk ignore-log* (firstn 10000 (cons (list subject user cause) ignore-log*))))

(def ignore (user subject cause)
  (when (profile subject)
    (store-update (profile-record subject) [set _!ignore])
    (log-ignore user subject cause)))

(def set-ip-ban (user ip yesno (o info))
  (atomic
    (= (banned-ips* ip) (and yesno (list user (seconds) info)))
    (todisk banned-ips*)))

(def set-site-ban (user site ban (o info))
  (atomic
    (= (banned-sites* site) (and ban (list ban user (seconds) info)))
    (todisk banned-sites*)))

; The kind of ban (kill, ignore) on url's site, or nil.
(def site-ban-test (url)
  (car (banned-sites* (sitename url))))

(def ip-ban-test (ip) (and ip (banned-ips* ip)))

(def log-kill (i how)
  (= kill-log* (firstn 10000 (cons (list i!id how) kill-log*))))

(def kill (i how)
  (unless i!dead
    (atomic
      (log-kill i how)
      (wipe (comment-cache* i!id))
      (store-update (item-record i) [set _!dead]))))

; New stories from a banned site or IP are born dead; a site banned with
; ignore also ignores its submitter.
(def story-ban-test (user i ip url)
  (awhen (site-ban-test url)
    (when (is it 'ignore) (ignore nil user 'site-ban))
    (kill i 'site-ban))
  (when (ip-ban-test ip) (kill i 'banned-ip)))

(def text-match (pats s)
  (let s (downcase (if (isa s 'string) s ""))
    (some [and (isa _ 'string) (nonblank _) (posmatch (downcase _) s)] pats)))

(def comment-ban-test (user i ip string kill-list ignore-list)
  (when (text-match ignore-list string)
    (ignore nil user 'comment-ban))
  (when (or (ip-ban-test ip) (text-match kill-list string))
    (kill i 'comment-ban)))

; An IP whose dead stories (more than ip-ban-threshold*) come from more
; than one ignored user is banned.
(def maybe-ban-ip (s)
  (when (and s!dead s!ip (ufield s!by 'ignore))
    (let bads (keep [and _!dead (is _!ip s!ip)] stories*)
      (when (and (len> bads ip-ban-threshold*)
                 (some [and (ufield _!by 'ignore) (isnt _!by s!by)] bads))
        (set-ip-ban nil s!ip t)))))

(def note-baditem (user ip)
  (unless (admin user)
    (++ (baditemreqs* ip 0))))

; True when ip asks for missing items too often.
(def baditem-throttled (ip)
  (> (/ (baditemreqs* ip 0) (max 1 (requests/ip* ip 0)))
     baditem-threshold*))

(def killallby (user)
  (each i (submissions user) (when i (kill i 'all))))

(def kill-whole-thread (c)
  (kill c 'thread)
  (each k (kids c) (kill-whole-thread k)))

; (flag-item user i): user's flag on i, put or taken back; returns t if i
; is now flagged by user. Users with karma over flag-threshold* (or
; editors) may flag others' live items; flag-kill-threshold* flags kill an
; item not keyed nokill.
(def canflag (user i)
  (and user (news-type i) (live i) (no (author user i))
       (or (editor user)
           (> (or (ufield user 'karma) 0) flag-threshold*))))

(def flag-item (user i)
  (when (canflag user i)
    (let killed nil
      (store-update (item-record i)
        (fn (i)
          (togglemem user i!flags)
          (when (and (>= (len i!flags) flag-kill-threshold*)
                     (no (mem 'nokill i!keys)))
            (kill i 'flagged)
            (= killed t))))
      (when (and killed (metastory i)) (adjust-rank i))
      (and (mem user i!flags) t))))

; user deletes i (if candelete): it stays, marked deleted.
(def delete-item (user i)
  (when (candelete user i)
    (atomic
      (wipe (comment-cache* i!id))
      (store-update (item-record i) [set _!deleted]))
    (when (metastory i) (adjust-rank i))
    t))

; --- Records: what store-change and store-update save --------------------------

; (item-record i), (profile-record u), (votes-record u (o ids)): records as
; the store takes them (kind key table (o keys)); a votes record with ids
; may change only those items' votes.
(def item-record (i) (list 'item i!id i))

(def profile-record (u) (list 'profile u (profile u)))

(def votes-record (u (o ids)) (list 'votes u (votes u) ids))

; The records a change by user u touches: the profile and the votes (of
; item i alone, when given).
(def user-records (u (o i))
  (when (profile u)
    (list (profile-record u) (votes-record u (and i (list i!id))))))

; Takes a new item i out of memory and out of the store (store-change's
; undo of a creation): items*, the lists, its url, its record.
(def unmake-item (i)
  (forget-item i)
  (errsafe (store-remove-item i!id)))

(def forget-item (i)
  (atomic
    (wipe (items* i!id))
    (zap [rem i _] stories*)
    (zap [rem i _] comments*)
    (zap [rem i _] ranked-stories*)
    (when (and i!url (is (url->story* (canonical-url i!url)) i!id))
      (wipe (url->story* (canonical-url i!url))))))

; --- What other processes changed ----------------------------------------------

; The store calls this (store-on-change*) with each record that another
; process sharing it (a worker of --workers over the SQLite store) has
; changed since this one last looked, as it is stored now (nil: removed),
; and when the saved front page changed. Tables are filled again in
; place, since the lists, the front page and the records a change holds
; name them; an item goes into the lists as load-items puts it, if it is
; not there: new here, or loaded (load-item) from a record that named it
; before its own change came.
(def news-stored (kind key r)
  (atomic
    (case kind
      item       (news-stored-item key r)
      profile    (news-stored-table profs* key r)
      votes      (news-stored-table votes* key r)
      topstories (ensure-topstories))))

(= store-on-change* news-stored)

(def news-stored-table (tbl key r)
  (iflet old (tbl key)
         (if r (refill-table old r) (wipe (tbl key)))
         (when r (= (tbl key) r))))

; (listed-by-id i xs): xs, a list of items newest first (stories*,
; comments*), with item i in its place if it was not there. The walk stops
; at i's place, so a recent item (most changes are of one) costs little.
(def listed-by-id (i xs)
  (let tail xs
    (while (and tail (> ((car tail) 'id) i!id))
      (= tail (cdr tail)))
    (if (and tail (is ((car tail) 'id) i!id))
        xs
        (insert-sorted (fn (a b) (> a!id b!id)) i xs))))

(def refill-table (old new)
  (each k (keys old) (wipe (old k)))
  (each (k v) (tablist new) (= (old k) v)))

(def news-stored-item (id r)
  (let old (items* id)
    (if (no r)
          (when old (forget-item old))
        (let i (if old (do (refill-table old r) old) (= (items* id) r))
          (= maxid* (max maxid* id))
          (case i!type
            story   (= stories* (listed-by-id i stories*))
            poll    (= stories* (listed-by-id i stories*))
            comment (= comments* (listed-by-id i comments*)))))
    (awhen (and r (astory r) (live r) (nonblank r!url))
      (register-url (items* id) it))
    (wipe (comment-cache* id))
    (hook 'item-stored id)))

; --- Creating items ----------------------------------------------------------------

; Makes, saves and loads a new item.
(def new-item (type user ip . kvs)
  (let i (apply inst 'item 'id (new-item-id) 'type type 'by user 'ip ip kvs)
    (atomic
      (save-item i)
      (= (items* i!id) i))
    i))

; The author's side of a new story, poll or comment: in the lists, in the
; author's submitted, voted on by the author. Repeating it changes
; nothing.
(def submit-item (user i)
  (ensure-news-user user)
  (atomic
    (case i!type
      comment (unless (mem i comments*) (push i comments*))
              (unless (mem i stories*) (push i stories*)))
    (unless (mem i!id (uvar user submitted))
      (push i!id (uvar user submitted))
      (save-prof user)))
  (vote-for user i)
  (when (metastory i) (adjust-rank i))
  i)

; (create-story url title text user ip): a new story (title as given:
; process-title is the caller's), ban tests applied, submitted.
(def create-story (url title text user ip)
  (newslog ip user 'create url (list title))
  (ensure-news-user user)
  (let s nil
    (store-change (user-records user)
      (fn ()
        (= s (new-item 'story user ip 'url (nonblank url) 'title title 'text text))
        (unless (blank url) (register-url s url))
        (story-ban-test user s ip url)
        (submit-item user s))
      (fn () (when s (unmake-item s))))
    ; the story is stored: a ban that cannot be saved now is logged
    (on-err (fn (e) (errsafe (srvlog 'err "news: ip ban not saved:" (details e))))
            (fn () (maybe-ban-ip s)))
    s))

; (create-comment text user parent ip): text is HTML (md-from-form's).
; Born dead for a bad user or a banned IP, or text on the kill list.
(def create-comment (text user parent ip)
  (newslog ip user 'comment parent!id)
  (ensure-news-user user)
  (let c nil
    (store-change (cons (item-record parent) (user-records user))
      (fn ()
        (= c (new-item 'comment user ip 'text text 'parent parent!id))
        (push c!id parent!kids)
        (save-item parent)
        (comment-ban-test user c ip text comment-kill* comment-ignore*)
        (when (bad-user user) (kill c 'ignored))
        (submit-item user c))
      (fn () (when c (unmake-item c))))
    c))

; (create-pollopt p url title text user ip): a choice of poll p, added at
; the end of its parts. Its words are the title (text, escaped when
; shown) or text (HTML).
(def create-pollopt (p url title text user ip)
  (let o (new-item 'pollopt user ip 'url (nonblank url) 'title title
                   'text text 'parent p!id)
    (store-update (item-record p) [= _!parts (join _!parts (list o!id))])
    o))

; (create-poll title text opts user ip): opts are the choices' words.
(def create-poll (title text opts user ip)
  (newslog ip user 'create-poll title)
  (ensure-news-user user)
  (with (p nil made nil)
    (store-change (user-records user)
      (fn ()
        (= p (new-item 'poll user ip 'title title 'text text))
        (push p made)
        (each o opts
          (unless (blank o) (push (create-pollopt p nil o nil user ip) made)))
        (story-ban-test user p ip nil)
        (submit-item user p))
      (fn () (map unmake-item made)))
    p))

; --- Noprocrast ----------------------------------------------------------------------

; t when user may see pages now: a session lasts maxvisit minutes from
; firstview, and a new one starts after minaway minutes away (since
; lastview).
(def check-procrast (user)
  (or (no user)
      (no (ufield user 'noprocrast))
      (let now (seconds)
        (unless (uvar user firstview) (reset-procrast user))
        (or (when (< (/ (- now (uvar user firstview)) 60) (uvar user maxvisit))
              (store-update (profile-record user) [= _!lastview now])
              t)
            (when (> (/ (- now (or (uvar user lastview) 0)) 60) (uvar user minaway))
              (reset-procrast user)
              t)))))

(def reset-procrast (user)
  (let now (seconds)
    (store-update (profile-record user)
                  [= _!firstview now _!lastview now])))

; --- List sources ----------------------------------------------------------------

(def newstories (user n) (retrieve n [cansee user _] stories*))

(def beststories (user n)
  (bestn n (compare > realscore) (visible user stories*)))

(def bestcomments (user n)
  (bestn n (compare > realscore) (visible user comments*)))

; An item posted by an account less than two days old.
(def bynoob (i)
  (< (- (user-age i!by) (item-age i)) 2880))

(def noobs (user n items)
  (retrieve n [and (cansee user _) (bynoob _)] items))

(def active-rank (s)
  (sum [max 0 (- active-threshold* (item-age _))] (cdr (family s))))

(def actives (user (o n maxend*) (o consider 2000))
  (let ss (keep [and (metastory _) (cansee user _)]
                (dedup (map superparent (firstn consider comments*))))
    (bestn n (compare > active-rank) ss)))

(def submissions (user (o limit))
  (trues item (firstn limit (ufield user 'submitted))))

(def comments (user (o limit))
  (retrieve limit acomment (trues item (ufield user 'submitted))))

; The stories subject up-voted, as user may see them, newest first.
(def voted-stories (user subject)
  (keep [and (metastory _) (cansee user _)]
        (trues item
               (sort > (trues (fn ((id v)) (and (is (v 3) 'up) id))
                              (tablist (or (votes subject) (table))))))))

; Stories whose titles begin with prefix (ask-prefix*, show-prefix*), case
; aside, as user may see them, best first by the front page's rank.
(def prefixed-stories (user prefix (o n maxend*))
  (let pre (downcase prefix)
    (map cadr
         (firstn n (sort (compare > car)
                         (map [list (frontpage-rank _) _]
                              (keep [and (cansee user _) (title-begins _ pre)]
                                    stories*)))))))

(def title-begins (s pre)
  (let title s!title
    (and (isa title 'string)
         (>= (len title) (len pre))
         (is (downcase (cut title 0 (len pre))) pre))))

; The site a story's url is from (sitename), kept for each url: the from
; page asks it of every story.
(= story-sites* (table))

(def story-site (s)
  (let url s!url
    (when (isa url 'string)
      (let e (story-sites* url)
        (if e
            (car e)
            (car (= (story-sites* url) (list (errsafe (sitename url))))))))))

; The stories from site (as story-site names it), newest first.
(def site-stories (user site (o n maxend*))
  (retrieve n [and (cansee user _) (is (story-site _) site)] stories*))

; The stories submitted in the day (UTC) that starts at second t0, best
; first by score: what the front page of that day would have shown.
(def day-stories (user t0 (o n maxend*))
  (let t1 (+ t0 86400)
    (firstn n (sort (compare > realscore)
                    (keep [and (<= t0 (or _!time 0)) (< (or _!time 0) t1)
                               (cansee user _)]
                          stories*)))))

; The second at which the day (UTC) named by s, "YYYY-MM-DD", begins; nil
; when s names no day (a month 13, a February 30th ...).
(def day-start (s)
  (when (and (isa s 'string) (is (len s) 10)
             (is (s 4) #\-) (is (s 7) #\-)
             (all digit (+ (cut s 0 4) (cut s 5 7) (cut s 8 10))))
    (withs (y  (int (cut s 0 4))
            m  (int (cut s 5 7))
            d  (int (cut s 8 10))
            t0 (* 86400 (days-from-civil y m d)))
      (and (<= 1 m 12) (<= 1 d 31) (>= y 1970)
           (iso (date t0) (list y m d))
           t0))))

; Days from 1970-01-01 to the date y-m-d of the proleptic Gregorian
; calendar (Howard Hinnant's days_from_civil): years counted from March,
; so that February's length falls at the end of each.
(def days-from-civil (y m d)
  (withs (y   (if (<= m 2) (- y 1) y)
          era (trunc (/ y 400))
          yoe (- y (* era 400))
          doy (+ (trunc (/ (+ (* 153 (+ m (if (> m 2) -3 9))) 2) 5)) (- d 1))
          doe (+ (* 365 yoe) (trunc (/ yoe 4)) (- (trunc (/ yoe 100))) doy))
    (+ (* era 146097) doe -719468)))

(def leading-users ()
  (sort (compare > [ufield _ 'karma])
        (users [and (> (or (ufield _ 'karma) 0) leader-threshold*)
                    (no (admin _))])))

; --- Favorites and hidden stories ----------------------------------------------

; A user's favorites (items he keeps, shown to anyone on his favorites
; page) and his hidden stories (left out of the list pages he sees) are
; lists of item ids in his profile, newest first, saved with it through
; the store. Stories and polls only: comment bodies are kept as HTML for
; all their viewers (pages.arc), where a link of the viewer's own cannot
; go.

(def canfavorite (user i) (and user (metastory i) (cansee user i)))

(def canhide (user i) (and user (metastory i) (cansee user i)))

(def favorited (user i) (and user i (mem i!id (ufield user 'favorites)) t))

(def hidden-by (user i) (and user i (mem i!id (ufield user 'hidden)) t))

; (favorite-item user i (o yes t)), (hide-item user i (o yes t)): i put
; in (yes) or taken out of the user's favorites, his hidden stories; the
; profile saved. t if the item is now there.
(def favorite-item (user i (o yes t))
  (when (canfavorite user i) (set-id-in user 'favorites i!id yes)))

(def hide-item (user i (o yes t))
  (when (canhide user i) (set-id-in user 'hidden i!id yes)))

(def set-id-in (user field id yes)
  (store-update (profile-record user)
    (fn (p)
      (= (p field) (if yes
                       (cons id (rem id (p field)))
                       (rem id (p field))))
      (and (mem id (p field)) t))))

; The items of subject's favorites user may see, newest favorite first.
(def favorites (user subject)
  (keep [cansee user _] (trues item (ufield subject 'favorites))))

(def hidden-stories (user)
  (keep [cansee user _] (trues item (ufield user 'hidden))))

; items without the stories user has hidden. The ids are made a table
; once for each list of them (a hide or un-hide makes a new list).
(= hidden-sets* (table))

(def unhidden (user items)
  (let ids (and user (ufield user 'hidden))
    (if (no ids)
        items
        (let h (let e (hidden-sets* user)
                 (if (and e (is (car e) ids))
                     (cdr e)
                     (let h (table)
                       (each id ids (= (h id) t))
                       (= (hidden-sets* user) (cons ids h))
                       h)))
          (rem [h _!id] items)))))

; --- Ages as text ------------------------------------------------------------

; "3 hours ago" for an age in minutes.
(def text-age (a)
  (let a (max 0 (or a 0))
    (+ (if (>= a 1440) (plural (trunc (/ a 1440)) "day")
           (>= a 60)   (plural (trunc (/ a 60)) "hour")
                       (plural (trunc a) "minute"))
       " ago")))

; --- Karma averages ----------------------------------------------------------

; The average realscore of user's recent comments (leaving out the 5
; newest, still settling), nil with 10 or fewer to go on.
(def comment-score (user)
  (aif (check (nthcdr 5 (comments user 50)) [len> _ 10])
       (avg (map realscore it))
       nil))

; Recomputes user's avg, or a random eligible user's.
(def update-avg ((o user))
  (let u (or user
             (rand-user [and (len> (ufield _ 'submitted) update-avg-threshold*)
                             (no (admin _))]))
    (when (profile u)
      (store-update (profile-record u) [= _!avg (comment-score u)]))))

; --- Starting --------------------------------------------------------------------

; A background thread running f every sec seconds; an error in f is
; logged and the thread goes on.
(def news-job (id sec f)
  (new-bgthread id
                (fn () (on-err (fn (e) (errsafe (srvlog 'err "news job" id (details e))))
                               f))
                sec))

(def news-start-jobs ()
  (news-job 'rerank 30 rerank-random)
  (news-job 'store 5 (fn () (store-job)))
  (news-job 'update-avg 45 (fn () (unless (empty profs*) (update-avg)))))

; Loads everything of the data directory (store-load-all readies it).
(def news-load ()
  (load-items (store-load-all))
  (when initload-users* (load-users))
  t)
