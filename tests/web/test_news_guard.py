"""The news site against two attacks by volume (docs/LANGUAGE.md 6.5, 6.6):
closures (srv.arc's fnids) made by loading pages, which could expire
other users' forms, and login guessing, slowed by account as well as by
IP. Server: servers/newsserver.arc, with its test-only ops nt-fnids,
nt-budget and nt-login-limits.

usage: python3 tests/web/test_news_guard.py path/to/arcana
"""
import sys
import threading
import urllib.parse

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import webtest  # noqa: E402
from webtest import Page, abs_path  # noqa: E402


class NewsGuardTest(webtest.NewsServerTest):

    def fnids(self, user=None):
        """(closures stored, user's own) from nt-fnids."""
        st, body, _ = self.client().get("/nt-fnids" + ("?u=" + user if user else ""))
        self.assertEqual(st, 200, body)
        nums = [int(n) for n in body.split()]
        return nums if user else nums[0]

    def visitor_pages(self):
        """Every page a visitor can load that used to store a closure (the
        login page, its link and its failures, More, a visitor's edit page,
        the vote and comment refusals, the login pages of ops that need
        one), and the other pages a visitor sees, HN's (ask, show, past,
        front, from, favorites, hidden, and the fave and hide links) among
        them."""
        i = self.items
        return [
            ("GET", "/login", None), ("GET", "/login?whence=newest", None),
            ("GET", "/news", None), ("GET", "/", None), ("GET", "/news?p=2", None),
            ("GET", "/newest", None), ("GET", "/newest?p=2", None),
            ("GET", "/best", None), ("GET", "/active", None), ("GET", "/newcomments", None),
            ("GET", "/bestcomments", None), ("GET", "/noobstories", None),
            ("GET", "/noobcomments", None), ("GET", "/submitted?id=bob", None),
            ("GET", "/submitted?id=bob&p=2", None), ("GET", "/threads?id=bob", None),
            ("GET", "/saved?id=bob", None), ("GET", "/user?id=alice", None),
            ("GET", "/ask", None), ("GET", "/show", None), ("GET", "/past", None),
            ("GET", "/front?day=2024-02-29", None), ("GET", "/front?day=bad", None),
            ("GET", "/from?site=example.com", None), ("GET", "/from?site=", None),
            ("GET", "/favorites?id=alice", None), ("GET", "/hidden", None),
            ("GET", "/fave?id=%d&whence=news" % i["talk"], None),
            ("GET", "/hide?id=%d&whence=news" % i["talk"], None),
            ("GET", "/hide?id=%d&un=t&by=bob&auth=x" % i["talk"], None),
            ("GET", "/item?id=%d" % i["talk"], None),
            ("GET", "/item?id=%d" % i["evil-poll"], None),
            ("GET", "/edit?id=%d" % i["talk"], None),
            ("GET", "/reply?id=%d&whence=news" % i["talk-c1"], None),
            ("GET", "/submit", None), ("GET", "/submitlink?u=http://x.example.com/&t=T", None),
            ("GET", "/resetpw", None), ("GET", "/whoami", None), ("GET", "/admin", None),
            ("GET", "/newsadmin", None),
            ("GET", "/vote?for=%d&dir=up&whence=news" % i["vote"], None),
            ("GET", "/vote?for=999999&dir=up&whence=news", None),
            ("GET", "/vote?for=%d&dir=sideways" % i["vote"], None),
            ("POST", "/comment", {"parent": i["talk"], "whence": "news", "text": "hi"}),
            ("POST", "/comment", {"parent": "999999", "text": "hi"}),
            ("POST", "/login", {"acct": "create", "switch": "both", "u": "x", "p": "p"}),
        ]

    def profile_form(self, user):
        p = self.page(user, "/user?id=" + user)
        f = p.form_with("about")
        self.assertIsNotNone(f, "no profile form for %s: %r" % (user, p.forms))
        return f

    def send_profile(self, user, form, about):
        st, body, _ = self.client(user).submit(form, {"about": about}, base="/user")
        return st, body

    # ---- closures ----

    def test_visitor_pages_store_no_closure(self):
        c = self.client()
        for method, path, fields in self.visitor_pages():
            n0 = self.fnids()
            if method == "GET":
                st, body, _ = c.get(path)
            else:
                st, body, _ = c.post(path, fields)
            self.assertLess(st, 500, "%s %s: %s" % (method, path, body[:500]))
            self.assertEqual(self.fnids(), n0, "%s %s stored a closure" % (method, path))

    def test_more_links_page_through_without_closures(self):
        p = self.page(None, "/submitted?id=bob")
        more = p.link("More")
        self.assertIsNotNone(more, "no More link on bob's 65+ submissions")
        self.assertNotIn("fnid", more)
        p2 = self.page(None, abs_path(more))
        self.assertIn("31.", p2.strings)
        self.assertNotIn("30.", p2.strings)

    def request(self, conn, method, path, fields):
        """One request on conn, a raw keep-alive connection: the response,
        and conn or, if the server closed it, a new one."""
        body = urllib.parse.urlencode(fields) if fields is not None else ""
        hs = [("Content-Type", "application/x-www-form-urlencoded")] if body else []
        conn.send(webtest.request_bytes(method, path, hs, body))
        r = conn.response()
        if (r.header("connection") or "").lower() == "close":
            conn.close()
            conn = self.srv.conn("127.0.0.40")
        return r, conn

    def test_flood_leaves_a_users_form(self):
        form = self.profile_form("alice")
        pages = self.visitor_pages()
        n0 = self.fnids()
        # 30,000 anonymous requests on one keep-alive connection: the login
        # page in pipelined batches of 100, and every 50th batch each of
        # the other pages a visitor can load.
        conn = self.srv.conn("127.0.0.40")
        login = webtest.request_bytes("GET", "/login")
        sent = 0
        try:
            for batch in range(300):
                if batch % 50 == 0:
                    for method, path, fields in pages:
                        r, conn = self.request(conn, method, path, fields)
                        self.assertLess(r.status, 500, "%s %s" % (method, path))
                        sent += 1
                k = min(100, 30000 - sent)
                conn.send(login * k)
                for _ in range(k):
                    self.assertEqual(conn.response().status, 200)
                sent += k
                if sent >= 30000:
                    break
        finally:
            conn.close()
        self.assertEqual(sent, 30000)
        self.assertEqual(self.fnids(), n0, "anonymous requests stored closures")
        st, body = self.send_profile("alice", form, "after the flood")
        self.assertNotIn("Unknown or expired", body)
        self.assertIn("after the flood", self.page(None, "/user?id=alice").text)

    def test_a_user_over_budget_loses_only_his_oldest(self):
        alice_form = self.profile_form("alice")
        st, body, _ = self.client().get("/nt-budget?n=5")
        self.assertEqual(body, "ok")
        try:
            forms = [self.profile_form("bob") for _ in range(8)]
            self.assertEqual(self.fnids("bob")[1], 5, "bob keeps his budget")
            st, body = self.send_profile("bob", forms[0], "from the oldest form")
            self.assertIn("Unknown or expired", body)
            st, body = self.send_profile("bob", forms[-1], "from the newest form")
            self.assertNotIn("Unknown or expired", body)
            self.assertIn("from the newest form", self.page(None, "/user?id=bob").text)
            st, body = self.send_profile("alice", alice_form, "alice kept hers")
            self.assertNotIn("Unknown or expired", body)
            self.assertIn("alice kept hers", self.page(None, "/user?id=alice").text)
        finally:
            self.client().get("/nt-budget?n=1000")

    # ---- login guessing ----

    def login(self, ip, user, pw):
        """Posts the login form from ip: True if it logged in."""
        c = webtest.NewsClient(self.srv, None, ip)
        st, body, _ = c.post("/login", {"acct": "login", "switch": "both", "whence": "news",
                                        "u": user, "p": pw})
        self.assertLess(st, 500, body[:500])
        return c.cookie is not None and "Bad login" not in body

    def at_once(self, *attempts):
        """The attempts, (ip, user, pw) each, sent all at once: whether each
        logged in."""
        out = [None] * len(attempts)

        def run(k):
            out[k] = self.login(*attempts[k])
        ts = [threading.Thread(target=run, args=(k,)) for k in range(len(attempts))]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        return out

    # With 2 free failures, a delay and a most of 2 s: the first attempt
    # past them waits 2 s, and any other meanwhile would wait longer than
    # the most, so it is refused without its password looked at. Attempts
    # are sent at once and counted, so the tests do not depend on which
    # one the server takes first.

    def test_guesses_at_one_account_from_many_ips_are_slowed(self):
        self.assertEqual(self.client().get("/nt-login-limits?free=2&delay=2&max=2")[1], "ok")
        try:
            pw = self.passwords["boss"]  # every seeded user has boss's password
            self.assertFalse(self.login("127.0.1.1", "carol", "wrong-1"))
            self.assertFalse(self.login("127.0.1.2", "carol", "wrong-2"))
            # two more at carol, right password, each from an IP of its own:
            # only one gets through
            got = self.at_once(("127.0.1.3", "carol", pw), ("127.0.1.4", "carol", pw))
            self.assertEqual(sorted(got), [False, True], "carol's failures slowed nothing")
            # another account is not slowed by carol's failures
            self.assertTrue(self.login("127.0.1.5", "dave", pw))
        finally:
            self.client().get("/nt-login-limits?free=3&delay=0.5&max=5")

    def test_others_failures_at_an_ip_do_not_hold_up_its_users(self):
        self.assertEqual(self.client().get("/nt-login-limits?free=2&delay=2&max=2")[1], "ok")
        try:
            pw = self.passwords["boss"]
            shared = "127.0.2.1"
            self.assertTrue(self.login(shared, "bob", pw))
            # someone at the same address guesses at other accounts
            self.assertFalse(self.login(shared, "nobody1", "guess"))
            self.assertFalse(self.login(shared, "nobody2", "guess"))
            # bob, who has logged in from there, is not held up; of two
            # accounts new to the address only one gets through, so guessing
            # from it stays slow
            bob, alice, dave = self.at_once((shared, "bob", pw), (shared, "alice", pw),
                                            (shared, "dave", pw))
            self.assertTrue(bob, "bob was held up by others' failures at his address")
            self.assertEqual(sorted([alice, dave]), [False, True])
        finally:
            self.client().get("/nt-login-limits?free=3&delay=0.5&max=5")


if __name__ == "__main__":
    webtest.main()
