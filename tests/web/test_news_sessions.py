"""The news site's sessions (docs/LANGUAGE.md 6.6, apps/news/README.md): a
session for each login, with an expiry; its cookie shown in no page (vote
links and the comment form carry the session's own token); logging out
ends one session, "log out everywhere" all; the files holding secrets
readable by their owner only. Server: servers/newsserver.arc, with its
test-only op nt-session-life.

usage: python3 tests/web/test_news_sessions.py path/to/arcana
"""
import os
import re
import stat
import sys
import time
import urllib.parse

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import webtest  # noqa: E402
from webtest import Page, abs_path  # noqa: E402


class NewsSessionsTest(webtest.NewsServerTest):

    def login(self, user, ip):
        """Logs user in through the login form from ip: his NewsClient."""
        c = webtest.NewsClient(self.srv, None, ip)
        st, body, _ = c.post("/login", {"acct": "login", "switch": "both", "whence": "news",
                                        "u": user, "p": self.passwords["boss"]})
        self.assertEqual(st, 200, body[:500])
        self.assertIsNotNone(c.cookie, "no cookie after logging in as " + user)
        return c

    def logged_in_as(self, c):
        """The user c's front page shows as logged in, or None."""
        st, body, _ = c.get("/news")
        self.assertEqual(st, 200)
        p = Page(body)
        if p.link("logout") is None:
            return None
        m = re.search(r'href="user\?id=([^"]+)"', body[body.find("pagetop"):])
        return m.group(1) if m else "?"

    def vote_link(self, body, iid):
        for h in Page(body).hrefs():
            if h and h.startswith("vote?for=%d&dir=up" % iid):
                return h
        return None

    def score(self, iid):
        st, body, _ = self.client().get("/item?id=%d" % iid)
        return int(re.search(r"(-?\d+) points?", Page(body).text).group(1))

    def test_cookie_secure_over_https_behind_a_proxy(self):
        # A login over HTTPS, as a trusted proxy says, sets a Secure cookie;
        # over HTTP, or where anyone else says HTTPS, it does not.
        form = urllib.parse.urlencode({"acct": "login", "switch": "both", "whence": "news",
                                       "u": "boss", "p": self.passwords["boss"]})
        for src, proto, secure in (("127.0.0.90", "https", True), ("127.0.0.90", "http", False),
                                   ("127.0.3.9", "https", False)):
            c = webtest.NewsClient(self.srv, None, src)
            st, h, _ = c.request("POST", "/login", form,
                                 {"Content-Type": "application/x-www-form-urlencoded",
                                  "X-Forwarded-For": "198.51.100.7",
                                  "X-Forwarded-Proto": proto})
            cookie = h.get("set-cookie", "")
            self.assertIn("user=", cookie, (src, proto, st))
            self.assertIn("HttpOnly", cookie)
            self.assertEqual("; Secure" in cookie, secure, (src, proto, cookie))

    def test_no_session_cookie_in_any_page(self):
        c = self.login("boss", "127.0.3.1")
        secret_parts = [c.cookie] + c.cookie.split(".")
        for path in ("/news", "/newest", "/item?id=%d" % self.items["talk"],
                     "/user?id=boss", "/reply?id=%d&whence=news" % self.items["talk-c1"],
                     "/submit", "/threads?id=bob"):
            st, body, _ = c.get(path)
            self.assertEqual(st, 200, path)
            for s in secret_parts:
                self.assertNotIn(s, body, "the session cookie in " + path)
        # the comment form and the vote links carry a token, not the cookie
        st, body, _ = c.get("/item?id=%d" % self.items["vote-anon"])
        link = self.vote_link(body, self.items["vote-anon"])
        self.assertIsNotNone(link)
        auth = urllib.parse.parse_qs(urllib.parse.urlsplit(link).query)["auth"][0]
        self.assertNotIn(auth, secret_parts)

    def test_token_is_the_sessions_own(self):
        # alice, logged in twice: a vote link made for one session casts
        # nothing when followed with the other's cookie, or with a wrong or
        # no token; with its own session it votes.
        a1, a2 = self.login("alice", "127.0.3.2"), self.login("alice", "127.0.3.3")
        vid = self.items["dup"]
        score0 = self.score(vid)
        link = self.vote_link(a1.get("/item?id=%d" % vid)[1], vid)
        self.assertIsNotNone(link)
        for c, href in ((a2, link),
                        (a1, re.sub(r"auth=[^&]*", "auth=WrongToken", link)),
                        (a1, re.sub(r"&auth=[^&]*", "", link))):
            c.get(abs_path(href))
            self.assertEqual(self.score(vid), score0, "a vote with %s" % href)
        a1.get(abs_path(link))
        self.assertEqual(self.score(vid), score0 + 1)
        # a comment form works with its own session only
        path = "/item?id=%d" % self.items["text"]
        form = Page(a1.get(path)[1]).form_with("text", "auth")
        a2.submit(form, {"text": "Sent from the other session"}, base=path)
        a1.submit(form, {"text": "Sent with a wrong token", "auth": "WrongToken"}, base=path)
        a1.submit(form, {"text": "Sent from its own session"}, base=path)
        t = Page(self.client().get(path)[1]).text
        self.assertNotIn("Sent from the other session", t)
        self.assertNotIn("Sent with a wrong token", t)
        self.assertIn("Sent from its own session", t)

    def test_logout_one_session_then_everywhere(self):
        d1, d2 = self.login("dave", "127.0.3.4"), self.login("dave", "127.0.3.5")
        self.assertNotEqual(d1.cookie, d2.cookie, "two logins, one session")
        self.assertEqual(self.logged_in_as(d1), "dave")
        self.assertEqual(self.logged_in_as(d2), "dave")
        st, body, _ = d1.get("/news")
        d1.get(abs_path(Page(body).link("logout")))
        self.assertIsNone(self.logged_in_as(d1), "the session logged out still works")
        self.assertEqual(self.logged_in_as(d2), "dave", "logging out one ended the other")
        d3 = self.login("dave", "127.0.3.6")
        st, body, _ = d3.get("/user?id=dave")
        everywhere = Page(body).link("log out everywhere")
        self.assertIsNotNone(everywhere, "no 'log out everywhere' on dave's own page")
        d3.get(abs_path(everywhere))
        self.assertIsNone(self.logged_in_as(d2))
        self.assertIsNone(self.logged_in_as(d3))
        # and the link is on no one else's page
        st, body, _ = self.client("bob").get("/user?id=dave")
        self.assertIsNone(Page(body).link("log out everywhere"))

    def test_expired_session_is_refused(self):
        self.assertEqual(self.client().get("/nt-session-life?n=3")[1], "ok")
        try:
            c = self.login("carol", "127.0.3.7")
        finally:
            self.client().get("/nt-session-life?n=2592000")
        self.assertEqual(self.logged_in_as(c), "carol")
        time.sleep(3.5)
        self.assertIsNone(self.logged_in_as(c), "an expired session was accepted")

    def test_login_form_posted_by_another_site_is_refused(self):
        c = webtest.NewsClient(self.srv, None, "127.0.3.9")
        body = urllib.parse.urlencode({"acct": "login", "switch": "both", "whence": "news",
                                       "u": "bob", "p": self.passwords["boss"]})
        st, h, data = c.request("POST", "/login", body, {
            "Content-Type": "application/x-www-form-urlencoded",
            "Origin": "http://evil.example.org"})
        self.assertEqual(st, 403, data[:300])
        self.assertNotIn("set-cookie", h)
        # the site's own form, as a browser sends it, logs in
        st, h, data = c.request("POST", "/login", body, {
            "Content-Type": "application/x-www-form-urlencoded",
            "Origin": "http://127.0.0.1:%d" % self.srv.port})
        self.assertIn("set-cookie", h, data[:300])

    def test_login_page_forms(self):
        # Arc 3.1's /login shows the login form alone; the news site's
        # "login" link asks for the create-account form too (switch=both)
        c = webtest.NewsClient(self.srv, None, "127.0.3.9")

        def buttons(path):
            st, body, _ = c.get(path)
            self.assertEqual(st, 200, body[:300])
            return sorted(v for f in Page(body).forms for _, v in f.submits)

        self.assertEqual(buttons("/login"), ["login"])
        self.assertEqual(buttons("/login?whence=newest"), ["login"])
        self.assertEqual(buttons("/login?switch=register"), ["create account"])
        self.assertEqual(buttons("/login?switch=both"), ["create account", "login"])
        st, body, _ = c.get("/news")
        href = Page(body).link("login")
        self.assertIsNotNone(href, body[:500])
        self.assertEqual(buttons(abs_path(href)), ["create account", "login"])
        # an account made from it has a news profile: its pages answer
        st, body, path = c.post("/login", {"acct": "create", "switch": "both", "whence": "news",
                                           "u": "form_user", "p": "form-pw-1"})
        self.assertIsNotNone(c.cookie, body[:500])
        for page in ("/news", "/user?id=form_user", "/threads?id=form_user", "/submit"):
            st, body, _ = c.get(page)
            self.assertEqual(st, 200, "%s: %s" % (page, body[:300]))

    def test_secret_files_are_the_owners_only(self):
        # a login writes the sessions file; an account made writes hpw; a
        # log out everywhere writes cooks
        c = webtest.NewsClient(self.srv, None, "127.0.3.8")
        st, body, _ = c.post("/login", {"acct": "create", "switch": "both", "whence": "news",
                                        "u": "modes_user", "p": "modes-pw-1"})
        self.assertIsNotNone(c.cookie, body[:500])
        st, body, _ = c.get("/user?id=modes_user")
        c.get(abs_path(Page(body).link("log out everywhere")))
        # with the sqlite store, they are rows of news.db, which is the owner's only
        names = ("hpw", "sessions", "cooks") if webtest.NEWS_STORE == "file" else ("news.db",)
        if webtest.NEWS_STORE != "file":
            for name in ("hpw", "sessions", "cooks"):
                self.assertIsNotNone(webtest.stored_text(self.srv.path("arc"), name), name)
        for name in names:
            path = self.srv.path("arc", name)
            self.assertTrue(os.path.exists(path), name)
            mode = stat.S_IMODE(os.stat(path).st_mode)
            self.assertEqual(mode, 0o600, "%s is mode %o" % (name, mode))


if __name__ == "__main__":
    webtest.main()
