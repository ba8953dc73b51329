; apps/news/demo.arc — demo data for an empty news site: (news-demo).
;
; Fills the data directory through the site's own functions, as if people
; had used it for two days: accounts (create-acct, ensure-news-user),
; stories, a poll and comment threads (create-story, create-poll,
; create-comment), votes (vote-for), then the items' times moved back into
; the past (save-item) and the front page ranked again (gen-topstories).
; Nothing here writes a file itself: the model saves, and the admins file,
; which app.arc only reads, is written by the store (store-add-admin).
;
; Accounts: 15 users and an admin. Every password is rand-string's. The
; admin's is printed once, with its name; the users' are never shown (no
; one logs in as them), so they are hashed at pwhash-cost* min, still
; Argon2id: 20 random characters need no slow hash, and 15 interactive
; hashes would slow every demo start for nothing. The admin's uses the
; normal cost.
;
; The store makes every write durable before it returns (two fsyncs),
; and the seed makes thousands of writes. Nothing else runs while it is
; made, and a seed cut short by a crash is no use either way, so the seed
; runs in store-batch, which makes it all durable at its end at once.
;
; The "random" choices come from a fixed-seed generator, so every seeded
; site is the same one (only the times move with the clock).

; --- A repeatable random source --------------------------------------------

(= demo-seed* 20240601)

; A linear congruential generator (the constants of C's rand): plenty for
; choosing comment authors, and the same sequence on every run.
(def demo-rand (n)
  (= demo-seed* (mod (+ (* demo-seed* 1103515245) 12345) 2147483648))
  (mod (trunc (/ demo-seed* 65536)) n))

(def demo-pick (xs) (xs (demo-rand (len xs))))

; n distinct elements of xs (all of them if xs has fewer).
(def demo-sample (xs n)
  (let pool (copy xs)
    (accum a
      (repeat (min n (len pool))
        (let x (demo-pick pool)
          (a x)
          (zap [rem x _] pool))))))

; --- Who --------------------------------------------------------------------

; (name about): the demo's users.
(= demo-users*
   '(("mhartley"   "Backend engineer. Mostly Postgres, occasionally regret.")
     ("priya_k"    "Compilers and static analysis. Opinions are my cat's.")
     ("jtorres"    "")
     ("sokafor"    "Building sensors for small farms in Lagos.")
     ("lindqvist"  "Embedded Rust, old synthesizers, cross-country skiing.")
     ("dmitri_v"   "")
     ("ellenw"     "Data journalist. Spreadsheets are software too.")
     ("rcastillo"  "Ops person. If it pages at 3am I have probably met it.")
     ("knakamura"  "Type theory hobbyist, type error professional.")
     ("bfischer"   "")
     ("aisha_m"    "Security research; hardware and firmware mostly.")
     ("tomwalsh"   "Former game developer, now teaching high school CS.")
     ("grace_h"    "")
     ("opatel"     "Distributed systems at a payments company.")
     ("kwame_a"    "Lisp since the nineties. Yes, still.")))

(def demo-names () (map car demo-users*))

; Each user posts from an address of their own, so that votes between them
; count toward karma (a vote from the author's own IP does not).
(def demo-ip (u)
  (+ "10.0." (+ 1 (or (pos u (demo-names)) 99)) ".7"))

; --- What -------------------------------------------------------------------

; Stories: (title url text). url nil is a text post.
(= demo-stories*
   '(("Postgres 17 released with incremental backups"
      "https://www.postgresql.org/about/news/postgresql-17-released-2936/" nil)
     ("The hidden cost of microservices at a small company"
      "https://blog.pragmaticengineer.com/hidden-cost-microservices/" nil)
     ("A tour of the Lua 5.4 virtual machine"
      "https://www.lua.org/wshop18/Ierusalimschy.pdf" nil)
     ("Ask: How do you keep a side project going after the first month?"
      nil "I start something every winter and by March it is abandoned. Not for lack of interest: work gets busy and the project stops being the thing I think about in the shower.\n\nThose of you who have kept one alive for years, what actually worked? Schedules, public roadmaps, finding a co-maintainer?")
     ("Why the Voyager probes are still talking to us"
      "https://www.nasa.gov/mission/voyager/why-voyager-still-works/" nil)
     ("Show: I wrote a tiny Lisp that compiles to WebAssembly"
      "https://github.com/kwame-a/wasp-lisp" nil)
     ("The UK's new rules for smart-device security"
      "https://www.bbc.co.uk/news/technology-68912345" nil)
     ("SQLite as an application file format"
      "https://www.sqlite.org/appfileformat.html" nil)
     ("How we cut our CI time from 40 minutes to 6"
      "https://engineering.example-shop.com/ci-from-40-to-6-minutes" nil)
     ("Lessons from ten years of running a one-person SaaS"
      "https://www.indiehackers.com/post/ten-years-one-person-saas" nil)
     ("An illustrated guide to B-trees"
      "https://cstack.github.io/db_tutorial/parts/part7.html" nil)
     ("Rust in the Linux kernel: where things stand"
      "https://lwn.net/Articles/958072/" nil)
     ("The case for boring technology, revisited"
      "https://mcfunley.com/choose-boring-technology" nil)
     ("Tell: I got my first open-source pull request merged today"
      nil "It was a two-line fix to an error message in a build tool I use every day. The maintainer was kind, asked for a test, and merged it an hour later.\n\nIt is small, but I have been too nervous to try for years. If you are on the fence: do it.")
     ("Japan's bullet trains have run for 60 years without a passenger fatality"
      "https://www.japantimes.co.jp/news/2024/10/01/japan/shinkansen-60-years/" nil)
     ("Garbage collection in 30 lines: a mark-sweep explainer"
      "https://journal.stuffwithstuff.com/2013/12/08/babys-first-garbage-collector/" nil)
     ("What happens when you type a URL into your browser, in 2024"
      "https://github.com/alex/what-happens-when" nil)
     ("Researchers find a new way to grow graphene on silicon"
      "https://www.nature.com/articles/s41586-023-06811-0" nil)
     ("Poll: Which editor do you write Lisp in?" poll
      "Curious what people here actually use day to day, not what they think they should use.")
     ("The economics of open-source maintenance"
      "https://www.ft.com/content/open-source-maintainers-economics" nil)
     ("Ask: What is the best book you read on software design?"
      nil "Not necessarily the most famous one. The one that changed how you write code.")
     ("Designing a keyboard firmware from scratch"
      "https://zmk.dev/blog/2023/designing-firmware" nil)
     ("How the Apollo guidance computer handled overloads"
      "https://en.wikipedia.org/wiki/Apollo_Guidance_Computer" nil)
     ("A visual explanation of how HTTPS certificates are checked"
      "https://howhttps.works/certificates/" nil)
     ("Cities that removed highways and what happened next"
      "https://www.theguardian.com/cities/2024/mar/12/cities-removed-highways" nil)
     ("The surprising difficulty of measuring a second"
      "https://www.quantamagazine.org/the-surprising-difficulty-of-measuring-a-second-20240205/" nil)
     ("Ask: Is it still worth learning C in 2024?"
      nil "I teach an intro programming course and the department is debating dropping C from the second year. Arguments on both sides seem reasonable. What would you tell them?")
     ("Writing a text editor in under 1000 lines"
      "https://viewsourcecode.org/snaptoken/kilo/" nil)
     ("Inside the world's largest seed vault"
      "https://www.smithsonianmag.com/science-nature/inside-svalbard-seed-vault-180981234/" nil)
     ("The quiet death of the RSS reader, and its comeback"
      "https://arstechnica.com/gadgets/2024/02/rss-reader-comeback/" nil)))

(= demo-poll-options* '("Emacs" "Vim or Neovim" "VS Code" "Something else"))

; Comments that start a thread.
(= demo-comments*
   '("This matches my experience almost exactly. The first version was simple and fast; everything after that was us paying for decisions nobody remembered making."
     "I'd be curious to see the numbers before and after. The article claims a big improvement but never says what the baseline was."
     "We tried this at my last job. It worked well for about a year, until the one person who understood it left."
     "The part about testing is underrated. Most of the wins came from deleting tests that were slow and caught nothing."
     "Genuinely nice write-up. The diagrams alone are worth the click."
     "Somewhat off topic, but does anyone know what tool made the figures? They are very clear."
     "I think the title oversells it a bit. It is a good result, but it is one lab and one material."
     "Counterpoint: most teams don't have the problem this solves, and adopting it anyway costs a lot more than the article admits."
     "The history section was the best part for me. I had no idea it went back that far."
     "This is the kind of post I come here for. Thanks for sharing."
     "Having done this twice now: the technical part is the easy part. Getting everyone to agree on the migration plan took months."
     "I wish more projects documented their failures like this. You learn more from the dead ends than from the final design."
     "For anyone skimming: the key idea is in the third section, the rest is setup."
     "Worth noting that the benchmark runs on a machine with 64 cores. On a laptop the picture is quite different."
     "My small team switched last spring and I would not go back. The tooling is not perfect, but it is much better than people assume."
     "The comments on the original post are worth reading too, a couple of the authors answer questions there."
     "I've been bitten by exactly this bug. Took us three days to find, and the fix was one line."
     "Does anyone have a mirror? The site seems to be down for me."
     "Good explanation, but I think it glosses over what happens when the network partitions. That is where all the interesting failures are."
     "Ten years ago I would have disagreed with every word of this. Now I mostly agree, which probably says more about me than about the article."
     "The real lesson here is about incentives, not technology."
     "I love that this is just a long, careful essay with no product at the end of it."
     "The *why* is explained well, the *how* less so. I would have liked a worked example."
     "For comparison, here is the approach we took, which is simpler but slower:\n\n  for each batch:\n    sort by key\n    merge into the index\n\nIt has been running for four years without trouble."
     "Reading this from a train that is, of course, twenty minutes late."
     "There's a longer discussion of the same idea in the original paper, which is surprisingly readable: https://dl.acm.org/doi/10.1145/365230.365257"
     "Is anyone here running this in production? I'd like to hear how it holds up under real traffic."
     "I keep coming back to this. Simple ideas, carefully executed, beat clever ones almost every time."))

; Comments that answer another comment.
(= demo-replies*
   '("Agreed, although I think the second half of your point applies to almost any tool, not just this one."
     "I'm not sure that follows. The same numbers could be explained by the team simply getting better at it over time."
     "Same here. We ended up writing it all down in one long document, which helped more than any tool did."
     "Could you say more about what went wrong? I'm about to try the same thing."
     "That's fair. I was thinking of larger teams, where the trade-off looks different."
     "Ha, I had almost the exact same week."
     "The one-person problem is real. Documentation helps, but only if someone reads it before they need it."
     "I think you're both right, and the disagreement is about what counts as \"small\"."
     "Do you have a source for that? I've seen the opposite claimed."
     "Thanks, this is the most useful comment in the thread."
     "It depends a lot on the workload. For read-heavy systems I'd agree; for writes, much less so."
     "We measured this once: roughly a third of our build time was spent on something nobody needed."
     "Not quite: the original design did handle that case, it was removed later for performance."
     "That was my first reaction too, but the appendix addresses it."
     "This. The tools are rarely the bottleneck."
     "Interesting, I've never heard that. Do you remember where you read it?"
     "Good point. I'd add that the cost shows up much later, which is why it is so easy to ignore."
     "Respectfully, I think this is too pessimistic. Plenty of teams make it work."))

; Sometimes a comment goes on for a second paragraph.
(= demo-afterthoughts*
   '("Edit: fixed a typo, and to clarify, this was on a fairly old version."
     "That said, I'd happily be proven wrong."
     "(I work in this area, but not for any of the companies mentioned.)"
     "Either way, thanks to the author for writing it up."
     "Happy to share more details if anyone is interested."
     "I suspect a lot of people will have the same experience."))

(def demo-comment-text (reply)
  (let s (demo-pick (if reply demo-replies* demo-comments*))
    (if (is (demo-rand 5) 0)
        (+ s "\n\n" (demo-pick demo-afterthoughts*))
        s)))

; --- The plan: every item with its time, made before anything is created ---

; How busy each story is: (comments upvotes) per story, in the order of
; demo-stories*. About 150 comments in all.
(= demo-activity*
   '((14 12) (9 8) (4 5) (12 9) (6 7) (10 11) (3 3) (7 6) (5 4) (8 10)
     (2 3) (9 9) (6 5) (4 7) (3 4) (5 6) (1 2) (2 3) (6 6) (4 3)
     (7 5) (2 2) (3 3) (1 1) (5 4) (3 5) (8 6) (2 2) (0 1) (1 0)))

; A planned item: a table with kind (story poll comment), time, by, and
; parent (a planned item) or content. Times are seconds; the stories span
; the last two days, each comment comes after what it answers.
(def demo-plan (now)
  (let plan nil
    (on s demo-stories*
      (with ((title url text) s
             (ncomments votes) (demo-activity* index))
        (let st (obj kind (if (is url 'poll) 'poll 'story)
                     title title url (and (isa url 'string) url) text text
                     by (demo-pick (demo-names))
                     time (- now 600 (* 60 (demo-rand 2820)))
                     votes votes)
          (push st plan)
          (let thread nil
            (repeat ncomments
              (let c (demo-plan-comment st thread now)
                (push c thread)
                (push c plan)))))))
    (sort (fn (a b) (< a!time b!time)) plan)))

; A comment of the thread under story st: answering the story itself, or
; one of its comments (most often the latest, so that threads grow deep).
(def demo-plan-comment (st thread now)
  (let parent (if (or (no thread) (is (demo-rand 3) 0))
                  st
                  (is (demo-rand 2) 0)
                  (car thread)
                  (demo-pick thread))
    (obj kind 'comment
         parent parent
         by (demo-pick (rem parent!by (demo-names)))
         text (demo-comment-text (isnt parent st))
         votes (demo-pick '(0 0 0 1 1 2 3 4 6))
         ; between the parent and now, mostly within a few hours
         time (let gap (min (* 60 (+ 3 (demo-rand 240)))
                            (trunc (* .7 (- now parent!time))))
                (+ parent!time (max 1 gap))))))

; --- Making it --------------------------------------------------------------

(def demo-create (p)
  (let ip (demo-ip p!by)
    (= p!item
       (case p!kind
         story   (create-story p!url p!title
                               (and p!text (md-from-form p!text)) p!by ip)
         poll    (create-poll p!title (md-from-form p!text)
                              demo-poll-options* p!by ip)
         comment (create-comment (md-from-form p!text) p!by p!parent!item ip)))
    (demo-set-time p!item p!time)))

; Moves an item (and a poll's options) back to when it was "posted".
(def demo-set-time (i secs)
  (= i!time secs)
  (save-item i)
  (each id i!parts
    (let o (item id)
      (= o!time secs)
      (save-item o))))

; Up-votes from n users other than the author, and a poll's votes spread
; over its options.
(def demo-votes (p)
  (let i p!item
    (each u (demo-sample (rem p!by (demo-names)) p!votes)
      (vote-for u i 'up))
    (when i!parts
      (each u (demo-names)
        (unless (is (demo-rand 3) 0)
          (vote-for u (item (demo-pick i!parts)) 'up))))))

; Demo users: random passwords at the cheapest Argon2id cost (see the top).
(def demo-accounts ()
  (let old (and (bound 'pwhash-cost*) pwhash-cost*)
    (= pwhash-cost* 'min)
    (after (each (u about) demo-users*
             ; an account that exists already (a data directory with
             ; accounts and no items) is left as it is
             (unless (user-exists u)
               (create-acct u (rand-string 20))
               (ensure-news-user u)
               (let p (profile u)
                 ; members for a while, so nobody shows as a new account
                 (= p!created (- (seconds) (* 86400 (+ 30 (demo-rand 900)))))
                 (unless (is about "") (= p!about about))
                 (save-prof u))))
           (= pwhash-cost* old))))

; The admin: the first name of the admins file (app.arc's admins*) if
; there is one, else "admin", added to it. Its account is made (and its
; password printed) only if it has none.
(def demo-admin ()
  (let u (or (car admins*) "admin")
    (unless admins*
      (store-add-admin u)
      (push u admins*))
    (unless (user-exists u)
      (let pw (rand-string 16)
        (create-acct u pw)
        (prn "admin account: " u " password: " pw " — shown once")))
    (ensure-news-user u)))

(def news-demo ()
  (let t0 (msec)
    (let plan (demo-plan (seconds))
      (store-batch
        (fn ()
          (demo-admin)
          (demo-accounts)
          (each p plan (demo-create p))
          (each p plan (demo-votes p))
          (gen-topstories)
          (save-topstories)))
      (prn "seeded demo data: " (len demo-users*) " users, "
           (count [isnt _!kind 'comment] plan) " stories, "
           (count [is _!kind 'comment] plan) " comments ("
           (- (msec) t0) " ms)")
      (flushout))))
