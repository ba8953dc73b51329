; The server of tests/web/test_news_crash.py: the news site itself
; (apps/news/news.arc, with model, pages and admin), run with news.arc's
; own command line, with one change: the rate limits on submissions are
; lifted, since the test's four users send a hundred stories in seconds
; and what it checks is that they all survive a SIGKILL, not the limits.
; Run as: arcana --host=127.0.0.1 news_crash.arc NEWSHOME --port 0
;   --host 127.0.0.1 --data DIR --no-demo
; NEWSHOME is the folder of news.arc (ending in /). Loaded from here,
; news.arc only defines; news-main starts it as its command line would.

(= news-home* (car argv))
(load (+ news-home* "news.arc"))

(= story-limit*    1000000
   ip-story-limit* 1000000)

(news-main (cdr argv))
