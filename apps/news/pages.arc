; apps/news/pages.arc — everything a visitor or a user of the news site sees
; (docs/LANGUAGE.md 6.9): the op macros (newsop, defopt and its kin, adop, edop), the
; page frames, the top bar and the footer, the whole-page cache for
; visitors, stories, comments and polls as HTML, the vote arrows, the
; moderation links, the forms and what their submissions do, and the ops
; of the ops table that are not the admins'.
;
; Loaded after model.arc, which decides everything: who may see, vote,
; edit or delete what (cansee, canvote, canedit, candelete), what is wrong
; with a submission (story-problem, comment-problem), how items are made
; and votes cast (create-story, create-comment, vote-for ...). This file
; only asks and shows. admin.arc, loaded after it, uses the op macros and
; frames defined here, and defines the targets of the admins' links.
;
; Escaping. Everything a user typed is escaped where it is printed: titles,
; user names, profile fields, poll choices, page titles. A story's url goes
; into an href only if it is an http or https url (valid-url), escaped with
; esc-attr; any other url is not a link. Item text (stories, comments) is
; HTML that md-from-form made from the text typed, with the tags escaped,
; and is printed as it is.
;
; No string literal here holds an @: the model may turn atstrings on.
;
; Forms that change data are closures (fnids, srv.arc) made for the user
; who saw the page, and each checks that the one submitting is that user
; (uform, urform, when-umatch). Two are plain ops instead, since they are
; on pages viewed far more often than used, and a closure a view would
; pile up: the vote links (GETs) and the comment form (a POST to the
; comment op), each counted only with its user's auth in it.
;
; Speed. A list page keeps the parts of each story's row that are the
; same for every plain viewer (shared-row), and an item page the bodies of
; its comments (cached-comment-body), so that a page for a logged-in user
; makes afresh only what is that user's: vote arrows, counts of his own
; hidden comments, his edit and delete links.

; --- Settings ------------------------------------------------------------------
; The site's variables, these pages' included, are all set by model.arc,
; which loads first. app.arc leaves the formatting help's URL unset.

(= formatdoc-url* (or formatdoc-url* "formatdoc"))

; --- Small helpers ------------------------------------------------------------

; Prints x escaped: a string as it is, anything else as disp prints it.
(def pr-esc (x)
  (when x
    (pr (eschtml (if (isa x 'string) x (tostring (disp x)))))))

; s percent-encoded but for letters, digits and -_.~/ (a whence in a URL).
; The last string encoded is remembered (a copy of it: the string may
; change after): a page encodes the same whence for each of its items.
(= pages-lastenc* (list nil))

(def url-enc (s)
  (let last pages-lastenc*
    (if (is (car last) s)
        (cdr last)
        (let enc (tostring
                   (each c s
                     (if (or (alphadig c) (in c #\- #\_ #\. #\~ #\/))
                         (writec c)
                         (pr (urlencode (string c))))))
          (= pages-lastenc* (cons (copy s) enc))
          enc))))

; Replaces what the op has printed, its standard header included, by a
; header with another status (and type): for pages of missing things
; (404) and for the stylesheet and the feed, which are not HTML. stdout
; inside a defop is the response port.
(def news-header (code (o ctype "text/html; charset=utf-8") (o maxage))
  (%port-reset (stdout))
  (prn "HTTP/1.1 " code " " (%http-reason code))
  (prn "Content-Type: " ctype)
  (when maxage (prn "Cache-Control: max-age=" maxage))
  (prn))

; A page saying msg (a constant, or escaped by the caller) with status 404.
(def news-notfound (user msg)
  (news-header 404)
  (msgpage user msg))

; --- Op definition macros -----------------------------------------------------

; (opexpand definer name parms . body): an op made with definer (defop,
; defopr, defopa ...) whose body sees user (from the login cookie), ip,
; and each parameter bound to the string value of the query argument of
; that name (nil if absent). The request is logged with its parameters.
(mac opexpand (definer name parms . body)
  (w/uniq gr
    `(,definer ,name ,gr
       (with (user (news-user ,gr) ip (,gr 'ip))
         (with ,(and parms (mappend [list _ `(arg ,gr ,(string _))] parms))
           (newslog ip user ',name ,@(rem [mem _ unlogged-args*] parms))
           ,@body)))))

; What the news log leaves out of an op's arguments: a login cookie (the
; auth of vote links and comment forms) is a secret, and a comment's text
; is kept in its item.
(= unlogged-args* '(auth text))

; The logged-in user of req, with a news profile: an account made outside
; the site's pages (app.arc's /login or /admin, or an old hpw file) gets
; its profile at its first request, so every page may use uvar and karma.
(def news-user (req)
  (aif (get-user req) (ensure-news-user it)))

; (newsop name (parms ...) . body): a page of the site. Its name is
; recorded for the optimes page.
(mac newsop (name parms . body)
  `(do (pushnew ',name newsop-names*)
       (opexpand defop ,name ,parms ,@body)))

; (newsopr name (parms ...) . body): a newsop whose value is the location
; it redirects to.
(mac newsopr (name parms . body)
  `(do (pushnew ',name newsop-names*)
       (opexpand defopr ,name ,parms ,@body)))

; (defopt name req test msg . body): an op for the users passing test;
; anyone else gets a login page ("Please log in" msg) that comes back to
; the same op and arguments.
(mac defopt (name parm test msg . body)
  `(defop ,name ,parm
     (if (,test (news-user ,parm))
         (do ,@body)
         (login-page 'both (+ "Please log in" ,msg ".")
                     (+ ,(string name) (%app-query ,parm))))))

(mac defopg (name parm . body)
  `(defopt ,name ,parm idfn "" ,@body))

(mac defope (name parm . body)
  `(defopt ,name ,parm editor " as an editor" ,@body))

(mac defopa (name parm . body)
  `(defopt ,name ,parm admin " as an administrator" ,@body))

; (adop name (parms ...) . body), (edop ...): admin and editor pages, a
; shortpage labelled with the op's name around body, which sees user, ip
; and the parameters as in newsop.
(mac adop (name parms . body)
  (let label (string name)
    `(do (pushnew ',name newsop-names*)
         (opexpand defopa ,name ,parms
           (shortpage user nil ,label ,label ,label ,@body)))))

(mac edop (name parms . body)
  (let label (string name)
    `(do (pushnew ',name newsop-names*)
         (opexpand defope ,name ,parms
           (shortpage user nil ,label ,label ,label ,@body)))))

; --- Page frames ----------------------------------------------------------------

; The vote links call vote(this): the arrows of the item are hidden, its
; score adjusted, and the link's URL fetched as an image, so the page
; stays where it is. Without scripts the link is followed and the vote op
; redirects back.
(= votejs* "
function byId(id) { return document.getElementById(id); }
function hide(id) { var e = byId(id); if (e) e.style.visibility = 'hidden'; }
function vote(node) {
  var v = node.id.split(/_/);
  var item = v[1];
  var score = byId('score_' + item);
  if (score) {
    var n = parseInt(score.innerHTML) + (v[0] == 'up' ? 1 : -1);
    if (!isNaN(n)) score.innerHTML = n + (n == 1 ? ' point' : ' points');
  }
  hide('up_' + item);
  hide('down_' + item);
  var ping = new Image();
  ping.src = node.href + '&js=t';
  return false;
}
")

(def gen-css-url ()
  (prn "<link rel=\"stylesheet\" type=\"text/css\" href=\"news.css\">"))

; (npage title . body): the html page: head with the stylesheet, the
; icon, the vote script and the title (escaped: it may be an item's), and
; a body whose content is rows of a centered table 85% wide.
(mac npage (title . body)
  `(tag html
     (tag head
       (prn "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1.0\">")
       (gen-css-url)
       (prn "<link rel=\"icon\" href=\""
            (if (blank favicon-url*) "favicon.ico" (esc-attr favicon-url*))
            "\">")
       (tag script (pr votejs*))
       (tag title (pr-esc ,title)))
     (tag body
       (center
         (tag (table border 0 cellpadding 0 cellspacing 0 width "85%"
                     bgcolor sand)
           ,@body)))))

; (fulltop user lid label title whence . body): a page with the whole top
; bar, then body; or, for a user whose noprocrast time is up, the message
; saying so.
(mac fulltop (user lid label title whence . body)
  (w/uniq (gu gi gl gt gw)
    `(with (,gu ,user ,gi ,lid ,gl ,label ,gt ,title ,gw ,whence)
       (npage (+ this-site* (if ,gt (+ bar* ,gt) ""))
         (if (check-procrast ,gu)
             (do (pagetop 'full ,gi ,gl ,gt ,gu ,gw)
                 (hook 'page ,gu ,gl)
                 ,@body)
             (row (procrast-msg ,gu ,gw)))))))

; (longpage user t1 lid label title whence . body): a fulltop page with the
; footer: links, and for admins the figures of admin-bar (t1 is the msec
; the request started at).
(mac longpage (user t1 lid label title whence . body)
  (w/uniq (gu gt)
    `(with (,gu ,user ,gt ,t1)
       (fulltop ,gu ,lid ,label ,title ,whence
         (trtd ,@body)
         (trtd (vspace 10)
               (color-stripe (main-color ,gu))
               (br)
               (center
                 (tag (span class "yclinks")
                   (link "Welcome" welcome-url*)
                   (pr bar*)
                   (link "Lists" "lists")
                   (pr bar*)
                   (link "RSS" "rss")
                   (pr bar*)
                   (link "Formatting" "formatdoc"))
                 (br2)
                 (hook 'longfoot)
                 (admin-bar ,gu (- (msec) ,gt) ,whence)))))))

; (shortpage user lid label title whence . body): a fulltop page, no footer.
(mac shortpage (user lid label title whence . body)
  `(fulltop ,user ,lid ,label ,title ,whence
     (trtd ,@body)))

; (minipage label . body): a page with a small top bar showing label.
(mac minipage (label . body)
  `(npage (+ this-site* bar* ,label)
     (pagetop nil nil ,label)
     (trtd ,@body)))

; (msgpage user msg (o title)): a page saying msg, which is printed as it
; is (callers escape what came from users).
(def msgpage (user msg (o title))
  (minipage (or title "Message")
    (spanclass admin
      (center (if (len> msg 80)
                  (widtable 500 (pr msg))
                  (pr msg))))
    (br2)))

; --- The top bar ----------------------------------------------------------------

; The top bar's color: the user's own topcolor if set (and readable), else
; site-color*.
(def main-color (user)
  (or (and user (aand (uvar user topcolor) (hex>color it)))
      site-color*))

(def color-stripe (c)
  (tag (table width "100%" cellspacing 0 cellpadding 1)
    (tr (tdcolor c))))

(def gen-logo ()
  (tag (td style "width:18px;padding-right:4px")
    (tag (a href parent-url*)
      (gentag img src logo-url* width 18 height 18
                  style (+ "border:1px #" (hexrep border-color*) " solid;")))))

; (pagetop switch lid label (o title) (o user) (o whence)): switch full
; gives the site name, the links and the user's corner; anything else the
; label alone.
(def pagetop (switch lid label (o title) (o user) (o whence))
  (tr (tdcolor (main-color user)
        (tag (table border 0 cellpadding 0 cellspacing 0 width "100%"
                    style "padding:2px")
          (tr (gen-logo)
              (if (is switch 'full)
                  (do (tag (td style "line-height:12pt; height:10px;")
                        (spanclass pagetop
                          (tag b (link this-site* "news"))
                          (hspace 10)
                          (toprow user label)))
                      (tag (td style "text-align:right;padding-right:4px;")
                        (spanclass pagetop (topright user whence))))
                  (tag (td style "line-height:12pt; height:10px;")
                    (spanclass pagetop (tag b (pr-esc label)))))))))
  (each f pagefns* (f user))
  (spacerow 10))

; The links of the top bar, HN's (new, threads, past, comments, ask,
; show, submit) and Arc 3.1's leaders; the one of the page shown (label)
; is selected, and a label that is none of them is shown after them.
(def toprow (user label)
  (when (noob user)
    (toplink "welcome" welcome-url* label)
    (pr bar*))
  (toplink "new" "newest" label)
  (when user
    (pr bar*)
    (toplink "threads" (threads-url user) label))
  (pr bar*)
  (toplink "past" "past" label)
  (pr bar*)
  (toplink "comments" "newcomments" label)
  (pr bar*)
  (toplink "ask" "ask" label)
  (pr bar*)
  (toplink "show" "show" label)
  (pr bar*)
  (toplink "leaders" "leaders" label)
  (hook 'toprow user label)
  (pr bar*)
  (link "submit")
  (unless (mem label toplabels*)
    (pr bar*)
    (fontcolor white (pr-esc label))))

(def toplink (name dest label)
  (tag-if (is name label) (span class "topsel")
    (link name dest)))

; The user's name, karma and a logout link; or a login link that comes
; back to whence.
(def topright (user whence (o showkarma t))
  (if user
      (do (userlink user user nil)
          (when showkarma (pr "&nbsp;(" (karma user) ")"))
          (pr "&nbsp;|&nbsp;")
          (tag (a href (logout-url user whence)) (pr "logout")))
      (tag (a href (login-url whence)) (pr "login"))))

; The logout link of a user is one closure, made once and kept while it
; lives (a logged-in page would otherwise make one at each view); where
; to go afterwards comes with it, as the whence argument. It ends the
; session it is followed from (logout-req); the profile page has a link
; that ends all of them.
(= logout-fnids* (table))

(def logout-url (user whence)
  (let id (logout-fnids* user)
    (unless (and id (fns* id))
      (= id (fnid (fn (req)
                    (when-umatch/r user req
                      (logout-req req)
                      (local-path (arg req "whence")))))
         (logout-fnids* user) id))
    (+ rfnurl* "?fnid=" id "&whence=" (url-enc (or whence "news")))))

; The login page (app.arc's login op) with its create-account form, as
; Arc 3.1's news top bar shows it, then back to whence.
(def login-url (whence)
  (+ "login?switch=both&whence=" (url-enc (local-path whence))))

; For admins, under each long page: the items in memory, the memory used
; and the time the page took.
(def admin-bar (user elapsed whence)
  (when (admin user)
    (br2)
    (tag (span class "admin")
      (pr (len items*) "/" maxid* " loaded")
      (pr bar* (round (/ (memory) 1000000)) " mb")
      (pr bar* elapsed " msec")
      (pr bar*)
      (link "settings" "newsadmin")
      (hook 'admin-bar user whence))))

; --- The whole-page cache -------------------------------------------------------

; (newscache name user time . body): defines (name user), printing the
; page body makes for user. For a visitor (user nil) the page is made at
; most once every time * caching* seconds and the same text served to
; all; a logged-in user's page is always made afresh. caching* 0 turns the
; cache off. A list page is (newscache name (user start) time . body):
; (name user (o start 0)), whose body also sees start, the index of its
; first item; only its first page is cached.
(mac newscache (name parms time . body)
  (let (user start) (if (acons parms) parms (list parms))
    (w/uniq gc
      `(let ,gc (cache (fn () (* caching* ,time))
                       (fn () (tostring (with (,user nil ,@(if start `(,start 0)))
                                          ,@body))))
         (def ,name (,user ,@(if start `((o ,start 0))))
           (if (or ,user (<= caching* 0) ,@(if start `((> ,start 0))))
               (do ,@body)
               (pr (,gc))))))))

; --- Lists of items ---------------------------------------------------------------

(def item-url (id) (+ "item?id=" id))

; (listpage user t1 items label title (o url label) (o number t) (o start
; 0) (o showhidden)): a long page of perpage* of items from start, with a
; More link to url (the list's own op) for the next page. The stories
; user has hidden are left out, but where showhidden (his hidden page).
(def listpage (user t1 items label title (o url label) (o number t) (o start 0)
               (o showhidden))
  (hook 'listpage user)
  (longpage user t1 nil label title url
    (display-items user (if showhidden items (unhidden user items))
                   label title url start (+ start perpage*) number)))

; The page a list's p argument asks for: a whole number from 1 to the
; last page that maxend* items make, per a page; 1 for anything else (p
; absent, not a number, 0, past the last). A link typed wrong shows a
; page, never an error.
(def list-pageno (p (o per perpage*))
  (let n (and (isa p 'string) (< 0 (len p) 7) (all digit p) (int p))
    (if (and n (<= 1 n (trunc (/ (+ maxend* per -1) per))))
        n
        1)))

; The index of the first item of page p (the argument as given).
(def list-start (p (o per perpage*))
  (* per (- (list-pageno p per) 1)))

; (display-items user items label title whence (o start 0) (o end
; perpage*) (o number)): items start to end (numbered from start+1 if
; number), and a More link to the next perpage* if there are more and
; they are within maxend*.
(def display-items (user items label title whence
                    (o start 0) (o end perpage*) (o number))
  (zerotable
    (with (n start plain (plain-viewer user))
      (each i (cut items start end)
        (display-item (and number (++ n)) i user whence t plain)
        (spacerow (if (acomment i) 15 5))))
    (when end
      (let newend (+ end perpage*)
        (when (and (<= newend maxend*) (< end (len items)))
          (spacerow 10)
          (tr (tag (td colspan (if number 2 1)))
              (tag (td class "title")
                (morelink whence end))))))))

; (morelink whence start (o per perpage*)): a More link to the page of
; the list whence that starts at item start, as HN's: news?p=2. Arc
; 3.1's was a closure for each view of a list page, which anyone could
; pile up (srv.arc's fnids); this one is the list's own op, a URL that
; stays the same.
(def morelink (whence start (o per perpage*))
  (tag (a href (+ whence (if (posmatch "?" whence) "&" "?")
                  "p=" (+ 1 (trunc (/ start per))))
          rel "nofollow")
    (pr "More")))

; (display-item n i user here (o inlist) (o plain)): item i as its type
; shows it (plain as display-story takes it).
(def display-item (n i user here (o inlist) (o plain (plain-viewer user)))
  (aif (displayfn* i!type)
       (it n i user here inlist)
       (display-story n i user here plain)))

(def display-item-number (n)
  (when n
    (tag (td align 'right valign 'top class "title")
      (pr n "."))))

; A story or poll: number, arrows and title; under them the line of
; points, author, age, comments and the links its viewer may use. plain:
; whether user is a plain viewer (see shared-row), which a list page works
; out once for all its stories.
(def display-story (n s user whence (o plain (plain-viewer user)))
  (when (or (cansee user s) s!kids)
    ; sr: the shared parts of the row, when user is a plain viewer of s;
    ; such a viewer is neither editor nor admin, and may change only his
    ; own items (canedit, candelete, addoptlink), so no one else's row
    ; asks.
    (withs (sr   (and plain (shared-row s))
            mine (or (no sr) (author user s)))
      (tr (display-item-number n)
          (tag (td valign 'top) (votelinks s user whence))
          (if sr (pr sr!title) (titleline s s!url user whence)))
      (tr (when n (td))
          (td)
          (tag (td class "subtext")
            (hook 'itemline s user)
            (if sr (pr sr!line) (itemline s user))
            (when (in s!type 'story 'poll)
              (hidelink s user whence)
              (unless n (favlink s user whence))
              (if sr (shared-commentlink sr s user) (commentlink s user)))
            (when mine (editlink s user))
            (when (and mine (apoll s)) (addoptlink s user))
            (unless n (flaglink s user whence))
            (when (and (no sr) (admin user))
              (killlink s user whence)
              (blastlink s user whence)
              (blastlink s user whence t))
            (when mine (deletelink s user whence)))))))

; --- A story's row, shared by its plain viewers ----------------------------------
;
; A list page draws 30 title lines and the score and byline under each;
; made afresh for a logged-in user they were nine tenths of the page's
; time. What they print is the same for every plain viewer (one who does
; not see dead items, which leaves out editors and admins, as visitors
; and most users are) of a story a visitor can see (neither dead nor
; deleted: a story is never delayed): nothing in them depends on who
; looks but the marks and colours those others get. So they are kept as
; text for each story, made as a visitor sees them, until the story
; changes (model.arc's item-version: an edit, a vote, a kill) or its age
; reads differently (age-text-expires). The comment link is kept
; too, for the count a visitor sees; a viewer whose own hidden comments
; add to it gets his made afresh, as he does the rest of what depends on
; the viewer (vote arrows, edit and delete links). A hook on itemscore
; may print per viewer, so nothing is kept while one is set.
(= shared-rows* (table))

(def plain-viewer (user) (no (seesdead user)))

; (version expires . row) for story s, where row is a table of the title
; and line texts, made anew when s has changed or expires (a time in
; seconds) has come; row is nil, and so is the answer, when the story's
; row is not shared (not a story or poll, not visible to a visitor, or an
; itemscore hook set). The entry is a list, whose parts car and cdr take
; without a lookup: this runs for every story of every list page.
(def shared-row (s)
  (when (and (in s!type 'story 'poll) (no (hooks* 'itemscore)))
    (let e (shared-rows* s!id)
      (if (and e (is (car e) (item-version s)) (< (seconds) (cadr e)))
          (cddr e)
          ; the version first: a change saved while the text is made
          ; leaves the entry older than the story, and so made again
          (withs (v   (item-version s)
                  row (and (cansee nil s)
                           (obj title (tostring (titleline s s!url nil nil))
                                line  (tostring (itemline s nil)))))
            (= (shared-rows* s!id)
               (cons v (cons (if row (age-text-expires s!time) (+ (seconds) 60))
                             row)))
            row)))))

; The second at which text-age of something made at t0 next reads
; differently: its age's next whole minute under an hour, hour under a
; day, day after.
(def age-text-expires (t0)
  (let a (max 0 (- (seconds) t0))
    (let unit (if (>= a 86400) 86400 (>= a 3600) 3600 60)
      (+ t0 (* unit (+ 1 (trunc (/ a unit))))))))

; The comment link of a shared row for user: a visitor's, kept in the
; entry with the count it shows, unless the thread hides items user may
; see (his own dead comments).
(def shared-commentlink (e s user)
  (withs (counts (thread-count s)
          n      (car counts))
    (if (cadr counts)   ; hidden items
        (commentlink s user)
        (pr (if (is e!comments n)
                e!comments-text
                (do (= e!comments n)
                    (= e!comments-text (tostring (commentlink s nil)))))))))

(def titleline (s url user whence)
  (tag (td class "title")
    (if (cansee user s)
        (do (deadmark s user)
            (titlelink s url user)
            (pdflink url)
            (awhen (url-site url)
              (spanclass comhead
                (pr " (<a href=\"" (url-from url) "\">" it "</a>) "))))
        (pr (pseudo-text s)))))

; What a page needs of a url, worked out once per url (a front page
; shows the same thirty at every view; sitename alone costs more than the
; rest of a title line): (href site pdf from), href the url escaped for
; an attribute if it may be a link at all (http or https, valid-url),
; site its sitename escaped, pdf whether it names a pdf, from the link
; to the site's page (from?site=), encoded. nil for other urls.
(= url-info* (table))

(def url-info (url)
  (and (isa url 'string)
       (or (url-info* url)
           (= (url-info* url)
              (if (and (nonblank url) (valid-url url))
                  (let site (errsafe (sitename url))
                    (list (esc-attr url)
                          (and site (eschtml site))
                          (endmatch ".pdf" (downcase url))
                          (and site (from-url site))))
                  (list nil))))
       (url-info* url)))

; url if it may be an href: http or https, without quotes or brackets.
(def linkable-url (url)
  (and (car (url-info url)) url))

(def url-site (url) (cadr (url-info url)))

(def url-from (url) (cadr (cddr (url-info url))))

; The page of the stories from site; the name percent-encoded (url-enc
; leaves nothing an attribute needs escaped).
(def from-url (site) (+ "from?site=" (url-enc site)))

; The title, a link to the url (rel=nofollow below follow-threshold*), or
; to the item itself when it has no url to link to.
(def titlelink (s url user)
  (let href (car (url-info url))
    (tag (a href (or href (item-url s!id))
            rel  (and href (<= (realscore s) follow-threshold*) "nofollow"))
      (pr (esc-title s)))))

; i's title escaped, kept with the title it was made from (an edit makes
; it anew).
(= title-cache* (table))

(def esc-title (i)
  (let c (title-cache* i!id)
    (if (and c (is (car c) i!title))
        (cdr c)
        (let e (eschtml i!title)
          (= (title-cache* i!id) (cons i!title e))
          e))))

; A pdf is marked as one.
(def pdflink (url)
  (when (car:cddr (url-info url))
    (pr " [pdf]")))

; What a viewer who cannot see an item sees in its place.
(def pseudo-text (i)
  (if i!deleted "[deleted]" "[dead]"))

; Marks for those who see dead and deleted items.
(def deadmark (i user)
  (when (and i!dead (seesdead user))
    (pr " [dead] "))
  (when (and i!deleted (admin user))
    (pr " [deleted] ")))

; The line under a title: points and byline.
(def itemline (i user)
  (when (cansee user i)
    (when (news-type i) (itemscore i user))
    (byline i user)))

(def itemscore (i (o user))
  (tag (span id (+ "score_" i!id))
    (pr (plural (if (is i!type 'pollopt) (realscore i) i!score) "point")))
  (hook 'itemscore i user))

(def byline (i user)
  (pr " by ")
  (userlink user i!by)
  (pr " " (text-ago (item-age i)) " "))

; "3 hours ago" for an age in minutes, whether the model's text-age says
; the "ago" or not.
(def text-ago (minutes)
  (let s (text-age minutes)
    (if (endmatch " ago" s) s (+ s " ago"))))

(def user-url (subject) (+ "user?id=" subject))

; A link to subject's profile, the name colored for editors when subject
; is ignored or new; an admin sees the karma average if show-avg*.
(def userlink (user subject (o show-avg t))
  (let name (esc-user subject)
    (pr "<a href=\"user?id=" name "\">")
    (user-name user subject name)
    (pr "</a>"))
  (awhen (and show-avg* show-avg (admin user) (uvar subject avg))
    (pr " (" (num it 1 t t) ")")))

(def user-name (user subject (o name (esc-user subject)))
  (if (no (editor user))              (pr name)
      (ignored subject)               (fontcolor darkred (pr name))
      (< (user-age subject) 1440)     (spanclass noob (pr name))
                                      (pr name)))

; A user name escaped (names are checked by goodname, but a name read
; from old data might not be); kept, as names come back on every page.
(= esc-users* (table))

(def esc-user (u)
  (if (isa u 'string)
      (or (esc-users* u) (= (esc-users* u) (eschtml u)))
      (eschtml (tostring (disp u)))))

; The number of items of i's thread (i itself included) user can see.
; Counting walks the whole thread, the dearest part of a front page, so
; what a visitor can see of a thread is kept (thread-count); a user sees
; that plus the hidden items (dead, delayed) that are the user's own.
; Admins and those who see dead items get the count made afresh.
(def visible-family (user i)
  (if (or (admin user) (seesdead user))
      (visible-count user i)
      (let (n hidden) (thread-count i)
        (if hidden
            (+ n (count [cansee user _] hidden))
            n))))

; id -> (maxid kill-log version expires n hidden): n the items of the
; thread a visitor can see, hidden the others but the deleted ones. An
; entry holds while no item has been made (maxid*) or killed (kill-log*)
; nor deleted or edited here (pages-version*) since, for at most a
; minute (an un-kill leaves no other trace), and not past the moment a
; delayed comment in it shows.
(= thread-counts* (table) pages-version* 0)

; An item another worker changed (model.arc's news-stored) may change a
; thread's count.
(defhook item-stored (id) (++ pages-version*))

(def thread-count (i)
  (let e (thread-counts* i!id)   ; taken apart by car and cdr: no lookups
    (if (and e
             (is (car e) maxid*)
             (is (cadr e) kill-log*)
             (is (car:cddr e) pages-version*)
             (> (cadr:cddr e) (seconds)))
        (cddr:cddr e)
        (with (n 0 hidden nil expires (+ (seconds) 60))
          ((afn (x)
             (if (cansee nil x)
                 (++ n)
                 (unless x!deleted
                   (push x hidden)
                   (when (and (live x) (delayed x))
                     (= expires (min expires
                                     (+ (or x!time 0)
                                        (* 60 (min max-delay*
                                                   (or (ufield x!by 'delay) 0)))))))))
             (each k x!kids
               (awhen (item k) (self it))))
           i)
          (= (thread-counts* i!id)
             (list maxid* kill-log* pages-version* expires n hidden))
          (list n hidden)))))

(def commentlink (i user)
  (when (cansee user i)
    (pr bar*)
    (tag (a href (item-url i!id))
      (let n (- (visible-family user i) 1)
        (if (> n 0)
            (do (pr (plural n "comment"))
                (awhen (and show-threadavg* (admin user) (threadavg i))
                  (pr " (" (num it 1 t t) ")")))
            (pr "discuss"))))))

; The average karma of the authors of a thread's comments.
(def threadavg (i)
  (only.avg (map [or (uvar _ avg) 1]
                 (rem admin (dedup (map [_ 'by] (keep live (family i))))))))

; A comment's link to itself.
(def permalink (c user)
  (when (cansee user c)
    (pr bar*)
    (link "link" (item-url c!id))))

; --- Votes ------------------------------------------------------------------------

; The arrows for item i: up (and down, if downtoo and the user may) when
; the user may vote on it, a star on the user's own items, else a spacer.
(def votelinks (i user whence (o downtoo))
  (center
    (if (no (cansee user i))
         (hspace votewid*)
        (and user (author user i))
         (do (fontcolor orange (pr "*"))
             (br)
             (hspace votewid*))
        (or (no user) (canvote user i 'up))
         (do (votelink i user whence 'up)
             (if (and downtoo
                      user
                      (or (admin user) (< (item-age i) downvote-time*))
                      (canvote user i 'down))
                 (do (br)
                     (votelink i user whence 'down))
                 (pr "<span id=down_" i!id "></span>")))
         (hspace votewid*))))

; A visitor's arrow has no id (an id attribute is always printed) and no
; script: following it leads to the login page. Printed piece by piece,
; as a front page has up to 30 of them (dir, a symbol, and the id, a
; number, need no escaping).
(def votelink (i user whence dir)
  (if user
      (pr "<a id=" dir "_" i!id " onclick=\"return vote(this)\" href=\"")
      (pr "<a href=\""))
  (pr-vote-url user i dir whence)
  (pr "\">")
  (vote-arrow dir)
  (pr "</a>"))

(def vote-arrow (dir)
  (if (is dir 'up)
      (gentag img src up-url* border 0 vspace 3 hspace 2)
      (gentag img src down-url* border 0 vspace 3 hspace 2)))

; The vote link carries the voter and his session's token (auth,
; app.arc's session-token): a link made for someone else, or a request
; forged by another site without it, casts no vote.
(def pr-vote-url (user i dir whence)
  (pr "vote?for=" i!id
      "&dir=" dir
      (vote-auth user)
      "&whence=" (url-enc (or whence "news"))))

(def vote-url (user i dir whence)
  (tostring (pr-vote-url user i dir whence)))

; Whether by and auth, from a vote link or a comment form, name user and
; the token of the session the request came with: what makes a link or
; form made for someone else, or forged by another site, count for
; nothing. The token is not the login cookie, which no page shows.
(def user-auth (user by auth)
  (and user auth (is by user) (is auth (session-token user))))

; "&by=USER&auth=TOKEN" for user, "" for a visitor: kept for each user
; with the token it was made from, as a page has one in every arrow.
(= vote-auths* (table))

(def vote-auth (user)
  (aif (session-token user)
       (let e (vote-auths* user)
         (if (and e (is (car e) it))
             (cdr e)
             (cdr (= (vote-auths* user)
                     (cons it (+ "&by=" user "&auth=" it))))))
       ""))

; by and auth must name the user of the cookie; a vote from a page seen
; logged out asks for a login, then for a confirmation (the link it comes
; back to has no auth). With js (the script's ping) the answer is the
; spacer image; else a redirect back to whence. A refusal is a page of
; its own, not a closure: a visitor may follow vote links in a loop.
(newsop vote (by for dir auth whence js)
  (with (i    (safe-item for)
         dir  (and (in dir "up" "down") (sym dir))
         back (local-path whence))
    (if (no i)
         (news-notfound user "No such item.")
        (no dir)
         (msgpage user "Can't make that vote.")
        (no user)
         (login-page 'both "You have to be logged in to vote."
                     (+ "vote?for=" i!id "&dir=" dir "&whence=" (url-enc back)))
        (no (user-auth user by auth))
         (vote-confirm-page user i dir back)
        (canvote user i dir)
         (do (vote-for user i dir)
             (redirect-to (if js (blank-url) back)))
        js
         (redirect-to (blank-url))
         (msgpage user "Can't make that vote."))))

; A vote link without the right auth (made for someone else, or on a
; page seen logged out) is not followed blindly: this page asks first,
; with a link that carries the user's own.
(def vote-confirm-page (user i dir whence)
  (minipage "Vote"
    (if (and user (canvote user i dir))
        (do (pr (if (is dir 'up) "Vote for " "Vote against "))
            (if (metastory i)
                (pr-esc i!title)
                (pr "this item"))
            (pr "? ")
            (link "yes" (vote-url user i dir whence))
            (pr " / ")
            (link "no" whence))
        (pr "Can't make that vote."))
    (br2)))

; --- Favorites and hiding ---------------------------------------------------
;
; A story's "hide" link (on lists and its page) and "favorite" link (on its
; page) are GET links to the hide and fave ops, made as the vote links
; are: they carry the user and his session's token (vote-auth), so that
; one made for someone else, or forged by another site, changes nothing
; but asks first; a visitor's leads to the login page. Their un- forms
; (un=t) take the story out again.

(def hidelink (s user whence)
  (when (or (no user) (canhide user s))
    (pr bar*)
    (toggle-link "hide" s user whence (hidden-by user s))))

(def favlink (s user whence)
  (when (or (no user) (canfavorite user s))
    (pr bar*)
    (toggle-link "fave" s user whence (favorited user s))))

(def toggle-link (op s user whence un)
  (tag (a href (toggle-url op s user whence un))
    (pr (toggle-verb op un))))

(def toggle-url (op s user whence un)
  (+ op "?id=" s!id (if un "&un=t" "") (vote-auth user)
     "&whence=" (url-enc (local-path (or whence "news")))))

(def toggle-verb (op un)
  (if (is op "fave")
      (if un "un-favorite" "favorite")
      (if un "un-hide" "hide")))

(newsop fave (id un by auth whence)
  (toggle-op user (safe-item id) "fave" (is un "t") by auth whence
             canfavorite favorite-item))

(newsop hide (id un by auth whence)
  (toggle-op user (safe-item id) "hide" (is un "t") by auth whence
             canhide hide-item))

; What the fave and hide ops answer, as the vote op does: a refusal or a
; login page printed here (no closure: anyone may follow these links in a
; loop), a confirmation asked when the auth is not the user's, else the
; change made (f, if can allows it) and a redirect back to whence.
(def toggle-op (user i op un by auth whence can f)
  (let back (local-path whence)
    (if (no (and i (metastory i) (cansee user i)))
         (news-notfound user "No such item.")
        (no user)
         (login-page 'both (+ "You have to be logged in to "
                              (toggle-verb op un) " a story.")
                     (toggle-url op i nil back un))
        (no (user-auth user by auth))
         (toggle-confirm-page user i op un back)
        (can user i)
         (do (f user i (no un))
             (redirect-to back))
         (msgpage user "Can't do that."))))

(def toggle-confirm-page (user i op un whence)
  (minipage (toggle-verb op un)
    (pr (upcase (cut (toggle-verb op un) 0 1)) (cut (toggle-verb op un) 1) " ")
    (pr-esc i!title)
    (pr "? ")
    (link "yes" (toggle-url op i user whence un))
    (pr " / ")
    (link "no" whence)
    (br2)))

; --- Item links: edit, flag, kill, blast, delete -------------------------------

(def edit-url (i) (+ "edit?id=" i!id))

(def editlink (i user)
  (when (canedit user i)
    (pr bar*)
    (link "edit" (edit-url i))))

; Flag or un-flag, for users the model lets flag (canflag: karma over
; flag-threshold*, or editors); admins also see how many flags an item
; has (many-flags* or more) and who flagged it.
(def flaglink (i user whence)
  (when (canflag user i)
    (pr bar*)
    (let back (local-path whence)
      (rlinkf (if (mem user i!flags) "unflag" "flag") (req)
        (when-umatch/r user req
          (flag-item user i)
          back)))
    (when (and (admin user) (>= (len i!flags) many-flags*)
               (> many-flags* 0))
      (pr bar* (plural (len i!flags) "flag") " ")
      (w/link (list-flags user i) (pr "details")))))

(def list-flags (user i)
  (minipage "Flags"
    (tab
      (each u i!flags
        (row (userlink user u nil)
             (pr (karma u)))))))

; Kill and blast are the admins' (admin.arc does them: kill-url,
; blast-url); nuke is a blast that also bans the story's site.
(def killlink (i user whence)
  (when (admin user)
    (pr bar*)
    (tag (a href (kill-url i user whence))
      (pr (if i!dead "un-kill" "kill")))))

(def blastlink (i user whence (o nuke))
  (when (and (admin user)
             (or (no nuke) (linkable-url i!url)))
    (pr bar*)
    (tag (a href (blast-url i user whence nuke))
      (pr (if (ignored i!by) "un-" "") (if nuke "nuke" "blast")))))

(def deletelink (i user whence)
  (when (candelete user i)
    (pr bar*)
    (linkf (if i!deleted "undelete" "delete") (req)
      (let u (get-user req)
        (if (candelete u i)
            (del-confirm-page u i whence)
            (msgpage u "You can't delete that."))))))

; Asks whether the item should be (or stay) deleted; the answer is kept
; only for a user who may still delete it.
(def del-confirm-page (user i whence)
  (let back (local-path whence)
    (minipage "Confirm"
      (tab
        (display-item nil i user back)
        (spacerow 20)
        (tr (td)
            (td (urform user req
                        (do (when (candelete user i)
                              (set-deleted user i (is (arg req "b") "Yes")))
                            back)
                  (pr "Do you want this to " (if i!deleted "stay" "be")
                      " deleted?")
                  (br2)
                  (but "Yes" "b") (sp) (but "No" "b"))))))))

; Marks i deleted (or not): the model's delete-item deletes; undoing it
; is wiping the mark.
(def set-deleted (user i yes)
  (if yes
      (unless i!deleted (delete-item user i))
      (when i!deleted
        (store-update (item-record i) [wipe _!deleted])))
  (wipe (comment-cache* i!id))
  (++ pages-version*)
  (when (metastory i) (adjust-rank i)))

; --- Comments -----------------------------------------------------------------

; (display-comment-tree c user whence (o indent 0) (o initialpar)): c and
; the replies under it, each level indented 40 px more; subtrees with
; nothing user can see are left out.
(def display-comment-tree (c user whence (o indent 0) (o initialpar))
  (when (cansee-descendant user c)
    (display-1comment c user whence indent initialpar)
    (display-subcomments c user whence (+ indent 1))))

(def display-1comment (c user whence indent showpar)
  (row (tab (display-comment nil c user whence t indent showpar showpar))))

; The replies to c, best first (by frontpage-rank, computed once each).
(def display-subcomments (c user whence (o indent 0))
  (each k (ranked-kids c)
    (display-comment-tree k user whence indent)))

(def ranked-kids (c)
  (let ks (trues item c!kids)
    (if (cdr ks)
        (map car (sort (compare > cadr)
                       (map [list _ (frontpage-rank _)] ks)))
        ks)))

; (display-comment n c user whence (o astree) (o indent 0) (o showpar)
; (o showon)): one comment as a row: number, indentation, arrows, body.
(def display-comment (n c user whence (o astree) (o indent 0)
                                      (o showpar) (o showon))
  (tr (display-item-number n)
      (when astree (td (hspace (* indent 40))))
      (tag (td valign 'top) (votelinks c user whence t))
      (display-comment-body c user whence astree indent showpar showon)))

; A visitor's view of an old enough comment in a tree is kept
; (cached-comment-body): it is the same for every visitor, and for every
; plain viewer (shared-row) but its author: what else a body shows a user
; (edit, delete, kill links, dead marks, the text of his own dead
; comment) is for authors, editors and admins only.
(def display-comment-body (c user whence astree indent showpar showon)
  (++ comments-printed*)
  (if (and comment-caching*
           (or (no user) (and (no (author user c)) (plain-viewer user)))
           astree (no showpar) (no showon)
           (live c)
           (< (- maxid* c!id) cc-window*)
           (> (- (seconds) (or c!time 0)) 60))
      (pr (cached-comment-body c whence indent))
      (gen-comment-body c user whence astree indent showpar showon)))

; The cache holds, for each comment, the page and depth it was made for
; and the HTML; an entry lasts less while the comment is young and its
; score moves, and never past the moment its age reads differently. A
; change to the comment (a vote, an edit, a kill) wipes it.
(def cached-comment-body (c whence indent)
  (let e (comment-cache* c!id)
    (if (and e
             (> (or (comment-cache-timeout* c!id) 0) (seconds))
             (is (car e) whence)
             (is (cadr e) indent))
        (do (++ cc-hits*) (car:cddr e))
        (let html (tostring (gen-comment-body c nil whence t indent nil nil))
          (= (comment-cache-timeout* c!id) (min (cc-timeout c!time)
                                                (age-text-expires (or c!time 0)))
             (comment-cache* c!id) (list whence indent html))
          html))))

(def cc-timeout (t0)
  (let age (- (seconds) (or t0 0))
    (+ (seconds) (if (< age 3600)  60
                     (< age 86400) 300
                                   3600))))

(def gen-comment-body (c user whence astree indent showpar showon)
  (tag (td class "default")
    (let parent (and (or (no astree) showpar) c!parent)
      (tag (div style "margin-top:2px; margin-bottom:-10px; ")
        (spanclass comhead
          (itemline c user)
          (permalink c user)
          (when parent
            (when (cansee user c) (pr bar*))
            (link "parent" (item-url parent)))
          (editlink c user)
          (killlink c user whence)
          (blastlink c user whence)
          (deletelink c user whence)
          ; no flag links in trees, nor in the list of new comments
          (unless (or astree (is whence "newcomments"))
            (flaglink c user whence))
          (deadmark c user)
          (when showon
            (awhen (superparent c)
              (when (isnt it c)
                (pr " | on: ")
                (link (eschtml (ellipsize (or it!title "") 50))
                      (item-url it!id)))))))
      (when (or parent (cansee user c))
        (br))
      (spanclass comment
        (if (no (cansee user c))
             (pr (pseudo-text c))
            (nor (live c) (author user c))
             (spanclass dead (pr c!text))
             (fontcolor (comment-color c)
               (pr c!text))))
      (when (and astree (cansee user c) (live c))
        (para)
        (tag (font size 1)
          (if (and (no (mem 'neutered c!keys))
                   (replyable c indent)
                   (comments-active c))
              (underline (replylink c whence))
              (fontcolor sand (pr "-----"))))))))

; Comments with a score below 1 fade to gray, the more the lower.
(def comment-color (c)
  (if (> (or c!score 0) 0) black (grayrange c!score)))

(defmemo grayrange (s)
  (gray (min 230 (+ 100 (* 30 (abs (or s 0)))))))

(def replylink (i whence (o title "reply"))
  (link title (+ "reply?id=" i!id "&whence=" (url-enc (local-path whence)))))

(newsop reply (id whence)
  (withs (i    (safe-item id)
          back (local-path whence))
    (if (no (and i (comments-active i) (cansee user i)))
         (news-notfound user "No such item.")
        user
         (addcomment-page i user back)
         (login-page 'both "You have to be logged in to comment."
                     (+ "reply?id=" i!id "&whence=" (url-enc back))))))

(def addcomment-page (parent user whence (o text) (o msg))
  (minipage "Add Comment"
    (pagemessage msg)
    (tab
      (display-item nil parent user whence)
      (spacerow 10)
      (row "" (comment-form parent user whence text)))))

; The comment form posts to the comment op, not to a closure of its own:
; a page of comments is viewed far more often than answered, and a
; closure for each view (Arc 3.1's) kept up to 50,000 of them alive (as
; many as srv.arc keeps), old objects that every major collection traces.
; The form carries the parent, where to go back to, and the user it was
; made for with his auth (his session's token, as vote links carry it):
; the op takes a comment only from that user (a visitor's form asks for a
; login), and a form another site makes, which cannot know the token,
; posts nothing.
(def comment-form (parent user whence (o text))
  (tag (form method 'post action "comment")
    (hidden-field "parent" parent!id)
    (hidden-field "whence" whence)
    (when user
      (hidden-field "by" user)
      (hidden-field "auth" (session-token user)))
    (textarea "text" 6 60
      (when text (prn) (pr (esc-tags text))))
    (when (and noob-comment-msg* (noob user))
      (br2)
      (spanclass subtext (pr noob-comment-msg*)))
    (br2)
    (submit (if (acomment parent) "reply" "add comment"))))

(def hidden-field (name val)
  (gentag input type 'hidden name name value (esc-attr val)))

; What a refusal shows is printed here, not left to a closure: anyone may
; post to this op. A visitor's comment gets the login page, which comes
; back to the reply form (the text typed is not kept).
(newsop comment (parent whence by auth text)
  (let p (safe-item parent)
    (if (no p)
         (news-notfound user "No such item.")
        (if user (no (user-auth user by auth)) (nonblank by))
         (redirect-to "mismatch")
         (process-comment user p text ip (local-path whence)))))

; Prints the page after a comment: a redirect back to whence once it is
; made, or a page with the problem and the text as typed.
(def process-comment (user parent text ip whence)
  (let text (or text "")
    (if (no user)
         (login-page 'both "You have to be logged in to comment."
                     (+ "reply?id=" parent!id "&whence=" (url-enc whence)))
        (aif (comment-problem user parent text ip)
             (addcomment-page parent user whence text it)
             (do (create-comment (md-from-form text) user parent ip)
                 (redirect-to whence))))))

; --- Item pages -----------------------------------------------------------------

(newsop item (id)
  (let i (safe-item id)
    (if (news-type i)
        (do (when i!deleted (note-baditem user ip))
            (item-page user i))
        (do (note-baditem user ip)
            (news-notfound user "No such item.")))))

; An item, its text, a poll's choices, the comment form and the comments.
(def item-page (user i)
  (with (title (and (cansee user i)
                    (or i!title (aand i!text (ellipsize (striptags it) 50))))
         here  (item-url i!id))
    (longpage user (msec) nil nil title here
      (tab (display-item nil i user here)
           (display-item-text i user)
           (when (apoll i)
             (spacerow 10)
             (tr (td)
                 (td (tab (display-pollopts i user here)))))
           (when (and (cansee user i) (comments-active i))
             (spacerow 10)
             (row "" (comment-form i user here))))
      (br2)
      (when i!kids
        (tab (display-subcomments i user here))
        (br2)))))

; A story's or poll's own text, under its title.
(def display-item-text (s user)
  (when (and (cansee user s)
             (in s!type 'story 'poll)
             (blank s!url)
             (nonblank s!text))
    (spacerow 2)
    (row "" s!text)))

; --- Polls ----------------------------------------------------------------------

(def display-pollopts (p user whence)
  (each o (visible user (trues item p!parts))
    (display-pollopt nil p o user whence)
    (spacerow 7)))

(def display-pollopt (n p o user whence)
  (tr (display-item-number n)
      (tag (td valign 'top)
        (votelinks o user whence))
      (tag (td class "comment")
        (tag (div style "margin-top:1px;margin-bottom:0px")
          (if (no (cansee user o)) (pr (pseudo-text o))
              (no (live o))        (spanclass dead (pollopt-text o))
                                   (pollopt-text o)))))
  (tr (when n (td))
      (td)
      (tag (td class "default")
        (spanclass comhead
          (itemscore o)
          (editlink o user)
          (killlink o user whence)
          (deletelink o user whence)
          (deadmark o user)))))

; A choice's text: its title, escaped; or, for a choice made with text
; (HTML from md-from-form), that.
(def pollopt-text (o)
  (if (nonblank o!title) (pr-esc o!title) (pr o!text)))

(def addoptlink (p user)
  (when (or (admin user) (author user p))
    (pr bar*)
    (onlink "add choice" (add-pollopt-page p user))))

(def add-pollopt-page (p user)
  (minipage "Add Poll Choice"
    (urform user req
            (do (add-pollopt user p (arg req "x") req!ip)
                (item-url p!id))
      (tab
        (row "text" (textarea "x" 4 50))
        (row ""     (submit))))))

(def add-pollopt (user p text ip)
  (when (and (nonblank text) (or (admin user) (author user p)))
    (create-pollopt p nil (trim text) nil user ip)))

(newsop newpoll ()
  (if (and user (> (karma user) poll-threshold*))
      (newpoll-page user)
      (msgpage user (+ "Sorry, you need " poll-threshold*
                       " karma to create a poll."))))

(def newpoll-page (user (o title "Poll: ") (o text "") (o opts "") (o msg))
  (minipage "New Poll"
    (pagemessage msg)
    (urform user req
            (process-poll (get-user req)
                          (or (arg req "t") "")
                          (or (arg req "x") "")
                          (or (arg req "o") "")
                          req!ip)
      (tab
        (row "title"   (input "t" title 50))
        (row "text"    (textarea "x" 4 50 (pr (esc-tags text))))
        (row ""        "Use blank lines to separate choices:")
        (row "choices" (textarea "o" 7 50 (pr (esc-tags opts))))
        (row ""        (submit))))))

; The choices are the blank-line separated paragraphs of opts.
(def process-poll (user title text opts ip)
  (let choices (keep nonblank (map trim (paras opts)))
    (aif (poll-problem user title text choices ip)
         (flink (fn (req) (newpoll-page user title text opts it)))
         (do (create-poll (process-title title) (md-from-form text t)
                          choices user ip)
             "newest"))))

; --- Submitting stories -----------------------------------------------------------

(newsop submit ()
  (if user
      (submit-page user "" "" t)
      (submit-login-warning "" "" t)))

; The bookmarklet's form: url and title given.
(newsop submitlink (u t)
  (if user
      (submit-page user u t)
      (submit-login-warning u t)))

; The login page, back to the form with url and title (the bookmarklet's)
; kept.
(def submit-login-warning ((o url) (o title) (o showtext) (o text))
  (login-page 'both "You have to be logged in to submit."
              (if (or (nonblank url) (nonblank title))
                  (local-path (+ "submitlink?u=" (url-enc (or url ""))
                                 "&t=" (url-enc (or title "")))
                              "submit")
                  "submit")))

; The form, with what the user typed kept (inputs escape their values,
; the textarea its text) and the problem found, if any.
(def submit-page (user (o url "") (o title "") (o showtext) (o text "") (o msg))
  (minipage "Submit"
    (pagemessage msg)
    (urform user req
            (process-story (get-user req)
                           (trim (or (arg req "u") ""))
                           (trim (or (arg req "t") ""))
                           showtext
                           (and showtext (or (arg req "x") ""))
                           req!ip)
      (tab
        (row "title" (input "t" (or title "") 50))
        (if prefer-url*
            (do (row "url" (input "u" (or url "") 50))
                (when showtext
                  (row "" "<b>or</b>")
                  (row "text" (textarea "x" 4 50 (pr (esc-tags (or text "")))))))
            (do (when showtext
                  (row "text" (textarea "x" 4 50 (pr (esc-tags (or text "")))))
                  (row "" "<b>or</b>"))
                (row "url" (input "u" (or url "") 50))))
        (row "" (submit))
        (spacerow 20)
        (row "" submit-instructions*)))))

; Returns where to go: an existing live story with the same url (voted
; for), a page with the problem, or newest once the story is made.
(def process-story (user url title showtext text ip)
  (aif (and user (nonblank url) (check (live-story-w/url url) [isa _ 'table]))
       (do (when (canvote user it 'up) (vote-for user it 'up))
           (item-url it!id))
       (no user)
        (flink (fn (req) (submit-login-warning url title showtext text)))
       (aif (story-problem user url title text ip)
            (flink (fn (req) (submit-page user url title showtext text it)))
            (let s (create-story url (process-title title)
                                 (if (blank text) nil (md-from-form text t))
                                 user ip)
              ; an ignored user's stories are born dead (6.9)
              (when (ignored user) (kill s 'ignored))
              "newest"))))

; --- Editing -----------------------------------------------------------------------

(newsop edit (id)
  (let i (safe-item id)
    (if (and i
             (cansee user i)
             (editable-type i)
             (or (news-type i) (admin user) (author user i)))
        (edit-page user i)
        (news-notfound user "No such item."))))

; The fields each type shows and which of them user may change, as
; vars-form takes them: (type name value view? modify?).
(= (fieldfn* 'story)
   (fn (user s)
     (with (a (admin user) e (editor user) x (canedit user s))
       `((string1 title ,s!title t ,x)
         (url     url   ,s!url   t ,e)
         (mdtext2 text  ,s!text  t ,x)
         ,@(standard-item-fields s a e x)))))

(= (fieldfn* 'comment)
   (fn (user c)
     (with (a (admin user) e (editor user) x (canedit user c))
       `((mdtext text ,c!text t ,x)
         ,@(standard-item-fields c a e x)))))

(= (fieldfn* 'poll)
   (fn (user p)
     (with (a (admin user) e (editor user) x (canedit user p))
       `((string1 title ,p!title t ,x)
         (mdtext2 text  ,p!text  t ,x)
         ,@(standard-item-fields p a e x)))))

(= (fieldfn* 'pollopt)
   (fn (user p)
     (with (a (admin user) e (editor user) x (canedit user p))
       `((string  title ,p!title t ,x)
         (url     url   ,p!url   t ,x)
         (mdtext2 text  ,p!text  t ,x)
         ,@(standard-item-fields p a e x)))))

(def standard-item-fields (i a e x)
  `((int   votes     ,(len i!votes) ,a nil)
    (int   score     ,i!score       t  ,a)
    (int   sockvotes ,i!sockvotes   ,a ,a)
    (yesno dead      ,i!dead        ,e ,e)
    (yesno deleted   ,i!deleted     ,a ,a)
    (sexpr flags     ,i!flags       ,a nil)
    (sexpr keys      ,i!keys        ,a ,a)
    (string ip       ,i!ip          ,e nil)))

; A change refused: a title too long or blank, and un-killing a nokill
; item unless by an admin.
(def ignore-edit (user i name val)
  (case name
    title (or (blank val) (len> val title-limit*))
    dead  (and (mem 'nokill i!keys) (no (admin user)))
    keys  (no (alist val))
    flags (no (alist val))))

(def edit-page (user i)
  (let here (edit-url i)
    (shortpage user nil nil "Edit" here
      (tab (display-item nil i user here))
      (br2)
      ; the fields sent are applied in one store-update, to the item as
      ; stored then (another worker may have changed it since)
      (let edits nil
        (vars-form user
                   ((fieldfn* i!type) user i)
                   (fn (name val) (push (list name val) edits))
                   (fn ()
                     (let es (rev edits)
                       (wipe edits)
                       (when (canedit user i)
                         (store-update (item-record i)
                           (fn (i)
                             (each (name val) es
                               (unless (ignore-edit user i name val)
                                 (when (and (is name 'dead) val (no i!dead))
                                   (log-kill i user))
                                 (= (i name) val)))
                             (when (admin user) (pushnew 'locked i!keys))))
                         (wipe (comment-cache* i!id))
                         (++ pages-version*)
                         (when (metastory i) (adjust-rank i))))
                     (edit-page user i))))
      (hook 'edit user i))))

; --- Profiles -----------------------------------------------------------------------

(newsop user (id)
  (if (and id (goodname id) (profile id))
      (user-page user id)
      (news-notfound user "No such user.")))

(def user-page (user subject)
  (let here (user-url subject)
    (shortpage user nil nil (+ "Profile: " subject) here
      (profile-form user subject)
      (br2)
      (when (or (is user subject) (admin user))
        (underlink "change password" "resetpw")
        (sp)
        (underlink "saved" (saved-url subject))
        (sp))
      (when (is user subject)
        (logout-everywhere-link user)
        (sp))
      (when (some [astory (item _)] (uvar subject submitted))
        (underlink "submissions" (submitted-url subject))
        (sp))
      (when (uvar subject favorites)
        (underlink "favorites" (favorites-url subject))
        (sp))
      (when (is user subject)
        (underlink "hidden" "hidden")
        (sp))
      (when (some [acomment (item _)] (uvar subject submitted))
        (underlink "comments" (threads-url subject)))
      (when (admin user)
        (br2)
        (user-admin-links user subject))
      (hook 'user user subject))))

; Ends every session of the user (logout-user), this one too: for a
; password typed on someone else's computer, or a cookie stolen.
(def logout-everywhere-link (user)
  (tag (a href (rflink (fn (req)
                         (when-umatch/r user req
                           (logout-user user)
                           "news"))))
    (tag u (pr "log out everywhere"))))

; The fields as vars-rform shows them; a viewer who may change none sees
; a plain table (no form, no closure). An update answers a redirect to
; the profile, so a reload shows it again instead of posting again.
; The fields sent are applied in one store-update, to the profile as
; stored then (another worker may have changed its karma since).
(def profile-form (user subject)
  (let edits nil
    (vars-rform user
                (user-fields user subject)
                (fn (name val) (push (list name val) edits))
                (fn ()
                  (let es (rev edits)
                    (wipe edits)
                    (when (profile subject)
                      (store-update (profile-record subject)
                        (fn (p)
                          (each (name val) es (set-profile-field user subject name val))))))
                  (user-url subject)))))

; Each field the form sent back, kept if user may still change it.
(def set-profile-field (user subject name val)
  (when (find [and (is (cadr _) name) (_ 4)] (user-fields user subject))
    (when (and (is name 'ignore) val (no (uvar subject ignore)))
      (log-ignore user subject 'profile))
    (when (and (is name 'noprocrast) val (no (uvar subject noprocrast)))
      (reset-procrast subject))
    (= ((profile subject) name)
       (case name
         delay (max 0 (min max-delay* val))
         email (trim val)
               val))))

; (type name value view? modify?) for each field: the user sees and sets
; their own settings, an editor sees more, an admin sets auth, member,
; karma, ignore, weight and keys.
(def user-fields (user subject)
  (withs (e (editor user)
          a (admin user)
          w (is user subject)
          k (and w (> (karma user) topcolor-threshold*))
          u (or a w)
          m (or a (and (member user) w))
          p (profile subject))
    `((string  user       ,subject                                  t  nil)
      (string  name       ,p!name                                   ,m ,m)
      (string  created    ,(text-ago (user-age subject))            t  nil)
      (int     auth       ,p!auth                                   ,e ,a)
      (yesno   member     ,p!member                                 ,a ,a)
      (int     karma      ,p!karma                                  t  ,a)
      (num     avg        ,p!avg                                    ,a nil)
      (yesno   ignore     ,p!ignore                                 ,e ,e)
      (num     weight     ,p!weight                                 ,a ,a)
      (mdtext2 about      ,p!about                                  t  ,u)
      (string  email      ,p!email                                  ,u ,u)
      (yesno   showdead   ,p!showdead                               ,u ,u)
      (yesno   noprocrast ,p!noprocrast                             ,u ,u)
      (posint  maxvisit   ,p!maxvisit                               ,u ,u)
      (posint  minaway    ,p!minaway                                ,u ,u)
      (sexpr   keys       ,p!keys                                   ,a ,a)
      (hexcol  topcolor   ,(or p!topcolor (hexrep site-color*))     ,k ,k)
      (int     delay      ,p!delay                                  ,u ,u))))

(def saved-url (subject) (+ "saved?id=" subject))
(def submitted-url (subject) (+ "submitted?id=" subject))
(def threads-url (subject) (+ "threads?id=" subject))

; --- A user's lists ---------------------------------------------------------------

(newsop submitted (id p)
  (if (and id (goodname id) (profile id))
      (submitted-page user id (list-start p))
      (news-notfound user "No such user.")))

(def submitted-page (user subject (o start 0))
  (listpage user (msec)
            (keep [and (metastory _) (cansee user _)] (submissions subject))
            "submitted"
            (+ subject "'s submissions")
            (submitted-url subject)
            t start))

; Stories the user voted for: for the user and admins only.
(newsop saved (id p)
  (if (and id (goodname id) (profile id))
      (savedpage user id (list-start p))
      (news-notfound user "No such user.")))

(def savedpage (user subject (o start 0))
  (if (or (is user subject) (admin user))
      (listpage user (msec)
                (sort (compare < item-age) (voted-stories user subject))
                "saved" "Saved Links" (saved-url subject) t start)
      (msgpage user "Can't display that.")))

(newsop threads (id p)
  (if (and id (goodname id) (profile id))
      (threads-page user id (list-start p threads-perpage*))
      (news-notfound user "No such user.")))

; A user's comments, each with the replies under it; comments that answer
; the same user's own comment show inside that one's thread.
(def threads-page (user subject (o start 0))
  (withs (title (+ subject "'s comments")
          label (if (is user subject) "threads" title)
          here  (threads-url subject))
    (longpage user (msec) nil label title here
      (awhen (keep [and (cansee user _) (no (subcomment _))]
                   (comments subject maxend*))
        (display-threads user it label title here start
                         (+ start threads-perpage*))))))

(def display-threads (user comments label title whence
                      (o start 0) (o end threads-perpage*))
  (tab
    (each c (cut comments start end)
      (display-comment-tree c user whence 0 t))
    (when end
      (let newend (+ end threads-perpage*)
        (when (and (<= newend maxend*) (< end (len comments)))
          (spacerow 10)
          (row (tab (tr (td (hspace 0))
                        (td (hspace votewid*))
                        (tag (td class "title")
                          (morelink whence end threads-perpage*))))))))))

; --- The site's lists -------------------------------------------------------------

(newsop news (p) (newspage user (list-start p)))

(newsop || (p) (newspage user (list-start p)))

(newscache newspage (user start) 90
  (listpage user (msec) (topstories user maxend*) nil nil "news" t start))

(newsop newest (p) (newestpage user (list-start p)))

(newscache newestpage (user start) 40
  (listpage user (msec) (newstories user maxend*) "new" "New Links" "newest"
            t start))

(newsop best (p) (bestpage user (list-start p)))

(newscache bestpage (user start) 1000
  (listpage user (msec) (beststories user maxend*) "best" "Top Links" "best"
            t start))

(newsop bestcomments (p) (bestcpage user (list-start p)))

(newscache bestcpage (user start) 1000
  (listpage user (msec) (bestcomments user maxend*)
            "best comments" "Best Comments" "bestcomments" nil start))

(newsop active (p) (active-page user (list-start p)))

(newscache active-page (user start) 30
  (listpage user (msec) (actives user) "active" "Active Threads" "active"
            t start))

(newsop newcomments (p) (newcomments-page user (list-start p)))

(newscache newcomments-page (user start) 60
  (listpage user (msec) (visible user (firstn maxend* comments*))
            "comments" "New Comments" "newcomments" nil start))

(newsop noobstories (p)
  (noobspage user stories* "noobstories" (list-start p)))

(newsop noobcomments (p)
  (noobspage user comments* "noobcomments" (list-start p)))

(def noobspage (user source url start)
  (listpage user (msec) (noobs user maxend* source) "noobs" "New Accounts"
            url t start))

; Ask and Show: the stories whose titles begin with ask-prefix* and
; show-prefix* (model.arc), ranked as the front page is.
(newsop ask (p) (askpage user (list-start p)))

(newscache askpage (user start) 90
  (listpage user (msec) (prefixed-stories user ask-prefix*) "ask" "Ask"
            "ask" t start))

(newsop show (p) (showpage user (list-start p)))

(newscache showpage (user start) 90
  (listpage user (msec) (prefixed-stories user show-prefix*) "show" "Show"
            "show" t start))

; The stories from a site, newest first: where the "(site)" beside a
; title links. Any site name is a page (an empty one for a site with no
; stories); none at all is not.
(newsop from (site p)
  (let site (and site (downcase (trim site)))
    (if (and site (< 0 (len site) 256))
        (listpage user (msec) (site-stories user site) site site
                  (from-url site) t (list-start p))
        (news-notfound user "No such site."))))

; The front page of a day (UTC), HN's past: the stories submitted that
; day, best first by score, with links to the day before and after
; (none past today). A string that names no day is a 404 that says so.
(newsop front (day p)
  (aif (day-start day)
       (frontpage-of user it (list-start p))
       (news-notfound user "No such day: give it as YYYY-MM-DD.")))

; Yesterday's front page.
(newsopr past ()
  (+ "front?day=" (datestring (- (seconds) 86400))))

(def frontpage-of (user t0 start)
  (withs (day   (datestring t0)
          here  (+ "front?day=" day)
          title (+ "Front page of " day))
    (longpage user (msec) nil "past" title here
      (tab (tr (td)
               (tag (td class "title")
                 (link "previous day" (+ "front?day=" (datestring (- t0 86400))))
                 (when (< (+ t0 86400) (seconds))
                   (pr bar*)
                   (link "next day" (+ "front?day=" (datestring (+ t0 86400))))))))
      (spacerow 10)
      (display-items user (unhidden user (day-stories user t0)) "past" title
                     here start (+ start perpage*) t))))

; A user's favorites, public as on HN, newest favorite first.
(newsop favorites (id p)
  (if (and id (goodname id) (profile id))
      (listpage user (msec) (favorites user id) "favorites"
                (+ id "'s favorites") (favorites-url id) t (list-start p))
      (news-notfound user "No such user.")))

(def favorites-url (subject) (+ "favorites?id=" subject))

; The stories the user has hidden, each with its un-hide link.
(newsop hidden (p)
  (if user
      (listpage user (msec) (hidden-stories user) "hidden" "Hidden"
                "hidden" t (list-start p) t)
      (login-page 'both "Please log in to see your hidden stories." "hidden")))

(newsop lists ()
  (longpage user (msec) nil "lists" "Lists" "lists"
    (sptab
      (row (link "best")         "Highest voted recent links.")
      (row (link "active")       "Most active current discussions.")
      (row (link "bestcomments") "Highest voted recent comments.")
      (row (link "noobstories")  "Submissions from new accounts.")
      (row (link "noobcomments") "Comments from new accounts.")
      (when (admin user)
        (each op '("newsadmin" "optimes" "opstats" "topips" "flagged" "killed"
                   "badguys" "badsites" "badips" "badlogins" "goodlogins"
                   "editors" "scrubrules")
          (row (link op) "")))
      (hook 'listspage user))))

(newsop leaders () (leaderspage user))

(newscache leaderspage user 1000
  (longpage user (msec) nil "leaders" "Leaders" "leaders"
    (sptab
      (let n 0
        (each u (firstn nleaders* (leading-users))
          (tr (tdr (pr (++ n) "."))
              (td (userlink user u nil))
              (tdr (pr (karma u)))
              (when (admin user)
                (tdr (pr (aif (uvar u avg) (num it 2 t t) "")))))
          (when (is n 10) (spacerow 30)))))))

; --- RSS ------------------------------------------------------------------------------

; The front page's live stories as RSS 2.0; every text escaped for XML.
(newsop rss ()
  (news-header 200 "application/rss+xml; charset=utf-8")
  (rsspage nil))

(newscache rsspage user 90
  (rss-stories (retrieve perpage* live ranked-stories*)))

(def rss-stories (stories)
  (prn "<?xml version=\"1.0\" encoding=\"utf-8\"?>")
  (tag (rss version "2.0")
    (tag channel
      (tag title (pr-esc this-site*))
      (tag link (pr-esc site-url*))
      (tag description (pr-esc site-desc*))
      (each s stories
        (prn)
        (tag item
          (let comurl (+ site-url* (item-url s!id))
            (tag title    (pr-esc s!title))
            (tag link     (pr-esc (or (linkable-url s!url) comurl)))
            (tag comments (pr-esc comurl))
            (tag description
              (pr-esc (+ "<a href=\"" comurl "\">Comments</a>")))))))))

; --- Small pages ------------------------------------------------------------------------

(newsop welcome ()
  (msgpage user
           (+ "Welcome to " (eschtml this-site*)
              (if user (+ ", " (eschtml user)) "")
              "! The stories on the front page are the ones readers voted up."
              " Vote for what you would like to see more of, and be civil"
              " in the comments.")
           "Welcome"))

(= formatdoc*
  "Blank lines separate paragraphs.<p>A paragraph whose lines are indented by two or more spaces is shown as it is typed, in a fixed-width font (for code).<p>Text between asterisks is shown in italics, when the character after the first asterisk is not a space.<p>Urls become links, except in the text of a submission.<br><br>")

(newsop formatdoc ()
  (msgpage user formatdoc* "Formatting Options"))

; Users' custom top-bar colors, the most used first.
(newsop topcolors ()
  (minipage "Custom Top Bar Colors"
    (tab
      (let counts (table)
        (each u (users [uvar _ topcolor])
          (++ (counts (uvar u topcolor) 0)))
        (each c (sort (compare > counts) (keys counts))
          (tr (td (pr-esc c) (pr " (" (counts c) ")"))
              (tdcolor (hex>color c) (hspace 30))))))))

; The stylesheet, cached a day by browsers.
(newsop news.css ()
  (news-header 200 "text/css; charset=utf-8" 86400)
  (pr news-css*))

; favicon-url* if the site names one, else static/favicon.ico (the op
; hides the static file of its name, so it serves it).
(defop-raw favicon.ico (str req)
  (%port-reset str)
  (if (nonblank favicon-url*)
      (w/stdout str
        (prn "HTTP/1.1 302 Found")
        (prn "Location: " (%srv-header-value favicon-url*))
        (prn))
      (unless (%http-file str req staticdir* "favicon.ico" (type-header* 'ico)
                          86400)
        (respond-status str 404 unknown-msg*))))

; The site's look: small gray Verdana, links black, the top bar's links
; dark, the selected one white; dead and faded text light gray. New
; accounts' names (as editors see them) are green, HN's mark, in greens
; that keep WCAG AA's 4.5:1 against the page and the top bar
; (tests/web/test_news_look.py computes it).
(= news-css* (+ "body, td { font-family: Verdana, Geneva, sans-serif; font-size: 10pt; color: #828282; }
body { margin: 8px 0; }
input, textarea { font-family: monospace; font-size: 10pt; color: #000000; }
input[type=submit] { font-family: Verdana, Geneva, sans-serif; }
a:link { color: #000000; text-decoration: none; }
a:visited { color: #828282; text-decoration: none; }
.default { font-size: 10pt; color: #828282; }
.admin { font-size: 8.5pt; color: #000000; }
.title { font-size: 10pt; color: #828282; }
.subtext { font-size: 7pt; color: #828282; }
.yclinks { font-size: 8pt; color: #828282; }
.pagetop { font-size: 10pt; color: #222222; }
.comhead { font-size: 8pt; color: #828282; }
.comment { font-size: 9pt; }
.dead { font-size: 9pt; color: #dddddd; }
.comment a:link, .comment a:visited { text-decoration: underline; }
.dead a:link, .dead a:visited { color: #dddddd; }
.pagetop a:link, .pagetop a:visited { color: #000000; }
.topsel a:link, .topsel a:visited { color: #ffffff; }
.subtext a:link, .subtext a:visited, .comhead a:link, .comhead a:visited { color: #828282; }
.subtext a:hover, .comhead a:hover { text-decoration: underline; }
.default p { margin-top: 8px; margin-bottom: 0px; }
pre { overflow: auto; padding: 2px; max-width: 600px; }
"
  ".noob { color: #" (hexrep noob-color*) "; }\n"
  ".pagetop .noob { color: #" (hexrep noob-bar-color*) "; }\n"))



; --- Password change ---------------------------------------------------------------------

(newsop resetpw ()
  (if user
      (resetpw-page user)
      (login-page 'both "Please log in to change your password." "resetpw")))

; The current password is asked for: a session left open is not enough
; to take the account.
(def resetpw-page (user (o msg))
  (minipage "Change Password"
    (if msg
         (pr msg)
        (blank (uvar user email))
         (do (pr "Before you do this, please add your email address to your ")
             (underlink "profile" (user-url user))
             (pr ". Otherwise you could lose your account if you mistype your new password.")))
    (br2)
    (uform user req (try-resetpw user (arg req "o") (arg req "p") req!ip)
      (tab
        (tr (td (pr "Current password:"))
            (td (gentag input type 'password name "o" size 20)))
        (tr (td (pr "New password:"))
            (td (gentag input type 'password name "p" size 20))))
      (br)
      (submit "change"))))

(def try-resetpw (user oldpw newpw ip)
  (if (no (good-login user oldpw ip))
       (resetpw-page user "Wrong current password.")
      (or (no newpw) (len< newpw 4))
       (resetpw-page user "Passwords should be at least 4 characters long. Please choose another.")
       (do (set-pw user newpw)
           (msgpage user "Your password has been changed."))))

; --- Noprocrast ---------------------------------------------------------------------

; Shown instead of a page when user's noprocrast time is up: how long until
; the site opens again.
(def procrast-msg (user whence)
  (let m (max 1 (+ 1 (trunc (- (or (uvar user minaway) 0)
                               (minutes-since (or (uvar user lastview)
                                                  (seconds)))))))
    (pr "<b>Get back to work!</b>")
    (para "Sorry, you can't see this page. Based on the anti-procrastination settings in your profile, you'll be able to use the site again in "
          (plural m "minute") ".")
    (para "(If you got this message after submitting something, don't worry, the submission was processed.)")
    (para "To change your anti-procrastination settings, go to your profile by clicking on your username. If <tt>noprocrast</tt> is set to <tt>yes</tt>, you'll be limited to sessions of <tt>maxvisit</tt> minutes, with <tt>minaway</tt> minutes between them.")
    (para)
    (link "retry" (local-path whence))
    (br2)))

; --- Item types' displays -----------------------------------------------------------------

(= (displayfn* 'story)   (fn (n i user here inlist)
                           (display-story n i user here))
   (displayfn* 'poll)    (fn (n i user here inlist)
                           (display-story n i user here))
   (displayfn* 'comment) (fn (n i user here inlist)
                           (display-comment n i user here nil 0 nil inlist))
   (displayfn* 'pollopt) (fn (n i user here inlist)
                           (display-pollopt n (superparent i) i user here)))
