"""The news site's pages beyond Arc 3.1 that people expect of HN (issue
42), for a visitor and for logged-in users:

- paging: every list page pages by ?p=N (news?p=2 shows items 31 to 60,
  numbered so), a stable URL with no closure; a bad p is page 1;
- from: the "(site)" beside a title links to from?site=SITE, which lists
  that site's stories only;
- ask and show: the stories whose titles begin "Ask HN:" and "Show HN:"
  (model.arc's ask-prefix* and show-prefix*), in the top bar with past;
- favorites: the "favorite" link on a story's page puts it on the user's
  public favorites?id= page, "un-favorite" takes it off; a link with
  someone else's token asks first; a visitor gets the login page;
- hide: the "hide" link on a story leaves it out of the list pages its
  user sees (only his), and the hidden page lists it with "un-hide";
- front?day=YYYY-MM-DD: the stories of that day (UTC) by score, with the
  days before and after; past goes to yesterday's; a bad day is a 404
  that says so;
- favorites and hidden stories are in the profile's file, and there after
  a restart.

Servers: servers/newsserver.arc (its seeded stories for these tests are
at its end, and it prints the day of two of them as "day past DAY"), and
apps/news/news.arc for the restart (test_news_crash.py's NewsServer).

usage: python3 tests/web/test_news_hn.py path/to/arcana
"""
import datetime
import os
import re
import shutil
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import test_news_crash as crash  # noqa: E402
import webtest  # noqa: E402
from webtest import NewsClient, Page, abs_path  # noqa: E402

ROLES = (None, "alice", "boss")


def numbers(p):
    """The item numbers of a list page ("31." -> 31), in order."""
    return [int(n[:-1]) for n in p.strings if re.match(r"^\d+\.$", n)]


def utc_day(days_from_today=0):
    d = datetime.datetime.now(datetime.timezone.utc).date()
    return (d + datetime.timedelta(days=days_from_today)).isoformat()


class NewsHNTest(webtest.NewsServerTest):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        m = re.search(r"^day past (\S+)$", cls.srv.stdout(), re.M)
        cls.past_day = m.group(1) if m else None

    def view(self, user, path, status=200):
        p = self.page(user, path, status)
        self.assert_safe(p, "%s as %s" % (path, webtest.role(user)))
        return p

    def titles(self, p):
        """The texts of the links of a page, for "is this story listed"."""
        return [t for _, t in p.links]

    # ---- paging ----

    def test_news_pages_by_p(self):
        for u in ROLES:
            p = self.view(u, "/news")
            self.assertEqual(numbers(p), list(range(1, 31)))
            more = p.link("More")
            self.assertIsNotNone(more, "no More link on /news as %s" % webtest.role(u))
            self.assertEqual(more, "news?p=2")
            p2 = self.view(u, "/" + more)
            self.assertEqual(numbers(p2), list(range(31, 61)), "news?p=2 as %s" % webtest.role(u))
            self.assertEqual(p2.link("More"), "news?p=3")
            self.assertEqual(numbers(self.view(u, "/news?p=3"))[0], 61)
            # page 2 is the items after page 1's
            ids1 = {h for h in p.hrefs() if re.match(r"item\?id=\d+$", h)}
            ids2 = {h for h in p2.hrefs() if re.match(r"item\?id=\d+$", h)}
            self.assertTrue(ids2)
            self.assertFalse(ids1 & ids2, "page 2 repeats page 1")

    def test_other_lists_page_by_p(self):
        for path, more in (("/newest", "newest?p=2"), ("/best", "best?p=2"),
                           ("/submitted?id=bob", "submitted?id=bob&p=2")):
            p = self.view(None, path)
            self.assertEqual(p.link("More"), more, path)
            p2 = self.view("alice", "/" + more)
            self.assertEqual(numbers(p2)[:1], [31], more)
        # the front page of the list, 30 a page, numbered after the first
        self.assertIn("Filler story number", self.view(None, "/newest?p=2").text)

    def test_paging_stores_no_closure(self):
        def fnids():
            return int(self.client().get("/nt-fnids")[1].split()[0])
        n0 = fnids()
        for path in ("/news?p=2", "/newest?p=3", "/submitted?id=bob&p=2", "/ask", "/show",
                     "/from?site=othersite.org", "/front?day=%s" % self.past_day,
                     "/favorites?id=alice", "/hidden"):
            self.view(None, path)
        self.assertEqual(fnids(), n0)

    def test_bad_p_is_page_one(self):
        for u in (None, "alice"):
            for p in ("0", "-1", "abc", "", "1e3", "99999999999", "8", "%00", "2.5",
                      "%3Cscript%3E"):
                page = self.view(u, "/news?p=" + p)
                self.assertEqual(numbers(page)[:1], [1], "news?p=%s as %s" % (p, webtest.role(u)))
            self.assertEqual(numbers(self.view(u, "/newest?p=x"))[:1], [1])
        # the old start argument no longer pages
        self.assertEqual(numbers(self.view(None, "/news?start=30"))[:1], [1])

    # ---- from ----

    def test_site_links_to_its_page(self):
        sid = self.items["other1"]
        for u in ROLES:
            p = self.view(u, "/item?id=%d" % sid)
            self.assertIsNotNone(p.link("othersite.org", r"^from\?site=othersite\.org$"),
                                 "no (othersite.org) link as %s" % webtest.role(u))
            p = self.view(u, "/newest")
            self.assertIsNotNone(p.link("othersite.org", r"^from\?site=othersite\.org$"))
            self.assertIsNotNone(p.link("example.com", r"^from\?site=example\.com$"))

    def test_from_lists_that_site_only(self):
        for u in ROLES:
            p = self.view(u, "/from?site=othersite.org")
            ts = self.titles(p)
            # newest first, the two hosts of one site both
            self.assert_in_order(p.text, "Other site second story", "Other site first story")
            self.assertNotIn("Filler story number 1", p.text)
            self.assertFalse([t for t in ts if t.startswith("Filler")], ts)
            self.assertEqual(numbers(p), [1, 2])
            sites = [t for h, t in p.links if (h or "").startswith("from?")]
            self.assertEqual(sites, ["othersite.org"] * 2)
        p = self.view(None, "/from?site=OtherSite.org")
        self.assertIn("Other site first story", p.text)

    def test_from_other_sites_and_bad_ones(self):
        p = self.view(None, "/from?site=nosuch.example.org")
        self.assertEqual(numbers(p), [])
        self.assertNotIn("Other site", p.text)
        for path in ("/from", "/from?site=", "/from?site=" + "a" * 300):
            st, body, _ = self.client().get(path)
            self.assertEqual(st, 404, path)
            self.assertIn("No such site", body)
        p = self.view("alice", "/from?site=%3Cscript%3Ealert(1)%3C%2Fscript%3E")
        self.assertIn("<script>alert(1)</script>", p.text)  # shown as text
        self.assertEqual(numbers(p), [])

    def assert_in_order(self, text, *parts):
        at = [text.find(s) for s in parts]
        for s, i in zip(parts, at):
            self.assertGreaterEqual(i, 0, "%r not on the page" % s)
        self.assertEqual(at, sorted(at), "not in the order %r" % (parts,))

    # ---- ask and show ----

    def test_top_bar(self):
        for u in ROLES:
            p = self.view(u, "/news")
            for label, href in (("past", "past"), ("ask", "ask"), ("show", "show"),
                                ("new", "newest"), ("comments", "newcomments")):
                self.assertIsNotNone(p.link(label, "^%s$" % href),
                                     "no %r in the top bar as %s" % (label, webtest.role(u)))
            self.assert_in_order(p.text, "new", "past", "comments", "ask", "show", "submit")
        for op in ("ask", "show"):
            body = self.view(None, "/" + op).body
            self.assertRegex(body, r'<span class="topsel"><a href="%s">%s</a>' % (op, op),
                             "%s not selected on its page" % op)

    def test_ask(self):
        for u in ROLES:
            p = self.view(u, "/ask")
            for t in ("Ask HN: How do you test a VM?", "ask hn: the prefix in lower case"):
                self.assertIn(t, self.titles(p), "/ask as %s" % webtest.role(u))
            for t in ("Not Ask HN: only inside", "Show HN: A seeded bytecode VM",
                      "Filler story number 1"):
                self.assertNotIn(t, p.text, "/ask as %s" % webtest.role(u))
            self.assertEqual(numbers(p), [1, 2])

    def test_show(self):
        for u in ROLES:
            p = self.view(u, "/show")
            self.assertIn("Show HN: A seeded bytecode VM", self.titles(p))
            self.assertNotIn("Ask HN", p.text)
            self.assertNotIn("Filler story", p.text)
            self.assertEqual(numbers(p), [1])

    # ---- favorites ----

    def item_link(self, user, sid, text):
        p = self.view(user, "/item?id=%d" % sid)
        return p.link(text)

    def test_favorite_and_unfavorite(self):
        sid = self.items["fave"]
        c = self.client("bob")
        self.assertIsNone(self.item_link("bob", sid, "un-favorite"))
        fav = self.item_link("bob", sid, "favorite")
        self.assertIsNotNone(fav, "no favorite link on the story's page for bob")
        self.assertRegex(fav, r"^fave\?id=%d&by=bob&auth=[^&]+&whence=" % sid)
        self.assertNotIn("fnid", fav)
        st, body, final = c.get(abs_path(fav))
        self.assertEqual(st, 200, body[:500])
        self.assertEqual(final, "/item?id=%d" % sid, "not back on the story's page")
        self.assertIsNotNone(Page(body).link("un-favorite"))
        for u in (None, "alice", "bob"):
            p = self.view(u, "/favorites?id=bob")
            self.assertIn("Favorite target story", self.titles(p), "bob's favorites as %s" % webtest.role(u))
        self.assertIsNotNone(self.view(None, "/user?id=bob").link("favorites", r"^favorites\?id=bob$"))
        self.assertNotIn("Favorite target story", self.view(None, "/favorites?id=alice").text)
        # taken back
        st, body, _ = c.get(abs_path(self.item_link("bob", sid, "un-favorite")))
        self.assertEqual(st, 200)
        self.assertIsNotNone(Page(body).link("favorite"))
        self.assertNotIn("Favorite target story", self.view(None, "/favorites?id=bob").text)

    def test_favorite_link_of_someone_else_asks_first(self):
        sid = self.items["fave"]
        fav = self.item_link("alice", sid, "favorite")
        self.assertIn("by=alice", fav)
        # bob follows alice's link: a confirmation page, nothing changed
        st, body, _ = self.client("bob").get(abs_path(fav))
        self.assertEqual(st, 200)
        p = Page(body)
        self.assertIsNotNone(p.link("yes", r"by=bob&auth="), "no confirmation for bob")
        self.assertNotIn("Favorite target story", self.view(None, "/favorites?id=bob").text)
        self.assertNotIn("Favorite target story", self.view(None, "/favorites?id=alice").text)
        # the same without any auth, as another site could forge it
        st, body, _ = self.client("bob").get("/fave?id=%d&by=bob&whence=news" % sid)
        self.assertEqual(st, 200)
        self.assertNotIn("Favorite target story", self.view(None, "/favorites?id=bob").text)

    def test_visitor_favorite_gets_login(self):
        sid = self.items["fave"]
        fav = self.item_link(None, sid, "favorite")
        self.assertIsNotNone(fav, "no favorite link for a visitor")
        self.assertNotIn("auth=", fav)
        p = self.view(None, abs_path(fav))
        self.assertIsNotNone(p.form_with("u", "p"), "a visitor's favorite gives no login page")

    def test_favorites_bad_input(self):
        for path in ("/favorites?id=nobody", "/favorites", "/fave?id=abc", "/fave",
                     "/fave?id=99999999&by=bob&auth=x", "/hide?id=abc", "/hide"):
            for u in (None, "bob"):
                st, body, _ = self.client(u).get(path)
                self.assertEqual(st, 404, "%s as %s: %s" % (path, webtest.role(u), body[:300]))
        # a comment cannot be a favorite here
        st, _, _ = self.client("bob").get("/fave?id=%d" % self.items["talk-c1"])
        self.assertEqual(st, 404)

    # ---- hide ----

    def test_hide_and_unhide(self):
        sid = self.items["hide"]
        title = "Hide target story"
        c = self.client("carol")
        p = self.view("carol", "/newest")
        self.assertIn(title, p.text)
        hide = p.link(None, r"^hide\?id=%d&by=carol&auth=" % sid)
        self.assertIsNotNone(hide, "no hide link for carol on /newest")
        st, body, final = c.get(abs_path(hide))
        self.assertEqual(st, 200)
        self.assertEqual(final, "/newest", "not back on the list after hiding")
        for path in ("/newest", "/from?site=example.net", "/news", "/news?p=2", "/news?p=3"):
            self.assertNotIn(title, self.view("carol", path).text, "%s still shows it" % path)
        for u in (None, "alice"):
            self.assertIn(title, self.view(u, "/newest").text,
                          "carol's hiding hid it from %s" % webtest.role(u))
        # numbering goes on without it
        self.assertEqual(numbers(self.view("carol", "/newest"))[:3], [1, 2, 3])
        h = self.view("carol", "/hidden")
        self.assertIn(title, self.titles(h))
        self.assertNotIn("Filler story", h.text)
        unhide = h.link("un-hide")
        self.assertIsNotNone(unhide, "no un-hide link on /hidden")
        self.assertIsNone(self.view("alice", "/hidden").link(title))
        st, body, final = c.get(abs_path(unhide))
        self.assertEqual(st, 200)
        self.assertEqual(final, "/hidden")
        self.assertNotIn(title, Page(body).text)
        self.assertIn(title, self.view("carol", "/newest").text)

    def test_visitor_hide_and_hidden_get_login(self):
        p = self.view(None, "/newest")
        hide = p.link("hide")
        self.assertIsNotNone(hide, "no hide link for a visitor")
        self.assertIsNotNone(self.view(None, abs_path(hide)).form_with("u", "p"))
        self.assertIsNotNone(self.view(None, "/hidden").form_with("u", "p"))

    def test_hide_with_someone_elses_auth_asks_first(self):
        sid = self.items["hide"]
        hide = self.view("alice", "/newest").link(None, r"^hide\?id=%d&by=alice" % sid)
        st, body, _ = self.client("dave").get(abs_path(hide))
        self.assertEqual(st, 200)
        self.assertIsNotNone(Page(body).link("yes", r"by=dave&auth="))
        self.assertIn("Hide target story", self.view("dave", "/newest").text)
        self.assertIn("Hide target story", self.view("alice", "/newest").text)

    # ---- the front page of a day ----

    def test_front_of_a_day(self):
        self.assertIsNotNone(self.past_day, "the server printed no day")
        day = datetime.date.fromisoformat(self.past_day)
        for u in ROLES:
            p = self.view(u, "/front?day=" + self.past_day)
            self.assert_in_order(p.text, "Past day higher story", "Past day lower story")
            self.assertEqual(numbers(p), [1, 2])
            self.assertNotIn("Filler story", p.text)
            self.assertIn(self.past_day, p.text)
            prev = (day - datetime.timedelta(days=1)).isoformat()
            nxt = (day + datetime.timedelta(days=1)).isoformat()
            self.assertIsNotNone(p.link("previous day", r"^front\?day=%s$" % prev))
            self.assertIsNotNone(p.link("next day", r"^front\?day=%s$" % nxt))
        p = self.view(None, "/front?day=" + utc_day())
        self.assertIsNone(p.link("next day"), "a next day after today")
        self.assertNotIn("Past day higher story", p.text)

    def test_past_is_yesterday(self):
        st, body, final = self.client().get("/past")
        self.assertEqual(st, 200)
        self.assertIn(final, ("/front?day=" + utc_day(-1), "/front?day=" + utc_day(-2)))
        self.assertRegex(Page(body).text, r"Front page of \d{4}-\d\d-\d\d")

    def test_bad_days(self):
        for d in ("2026-13-01", "2023-02-29", "abc", "", "1969-12-31", "2026-1-1",
                  "%3Cscript%3Ealert(1)%3C%2Fscript%3E", "99999-01-01", "2026-02-30"):
            for u in (None, "alice"):
                st, body, _ = self.client(u).get("/front?day=" + d)
                self.assertEqual(st, 404, "front?day=%s: %d" % (d, st))
                self.assertIn("No such day", body)
                self.assertNotIn("<script>alert", body)
        st, body, _ = self.client().get("/front")
        self.assertEqual(st, 404)
        self.assertEqual(self.client().get("/front?day=2024-02-29")[0], 200)


class NewsHNStoreTest(unittest.TestCase):
    """Favorites and hidden stories in the profile's file, and after a
    restart of apps/news/news.arc on the same data."""

    def setUp(self):
        if not os.path.exists(crash.NEWS):
            self.skipTest("no apps/news/news.arc")
        self.work = tempfile.mkdtemp(prefix="arcana-news-hn-")
        self.srv = crash.NewsServer(self.work)
        self.addCleanup(shutil.rmtree, self.work, True)
        self.addCleanup(self.srv.kill)

    def page(self, client, path):
        st, body, final = client.get(path)
        self.assertEqual(st, 200, "%s: %s" % (path, body[:1000]))
        return Page(body)

    def story(self, client, title, url):
        p = self.page(client, "/submit")
        f = p.form_with("t")
        st, body, _ = client.submit(f, {"t": title, "u": url}, base="/submit")
        self.assertEqual(st, 200, body[:500])
        links = [(h or "", t) for h, t in Page(body).links]
        for n, (h, t) in enumerate(links):
            if t == title:
                for h2, _ in links[n:]:
                    m = re.match(r"/?item\?id=(\d+)$", h2)
                    if m:
                        return int(m.group(1))
        self.fail("no story %r after submitting" % title)

    def test_favorites_and_hidden_survive_a_restart(self):
        srv = self.srv
        srv.start()
        ann = NewsClient(srv, crash.Site(srv).create_account("ann", "hn-store-pw"), "127.0.0.31")
        kept = self.story(ann, "Story to keep", "http://keep.example.com/")
        hid = self.story(ann, "Story to hide", "http://hide.example.com/")
        fav = self.page(ann, "/item?id=%d" % kept).link("favorite")
        self.page(ann, abs_path(fav))
        hide = self.page(ann, "/item?id=%d" % hid).link("hide")
        self.page(ann, abs_path(hide))

        def check(when):
            self.assertIn("Story to keep", self.page(ann, "/favorites?id=ann").text, when)
            self.assertIn("Story to hide", self.page(ann, "/hidden").text, when)
            newest = self.page(ann, "/newest").text
            self.assertNotIn("Story to hide", newest, when)
            self.assertIn("Story to keep", newest, when)
            visitor = NewsClient(srv, None, "127.0.0.32")
            self.assertIn("Story to hide", self.page(visitor, "/newest").text, when)

        check("before the restart")
        srv.kill()
        srv.start()
        check("after the restart")
        p = "news/profile/ann"
        prof = crash.as_table(crash.read_arc(webtest.stored_text(srv.data, p)), p)
        self.assertEqual(prof[crash.Sym("favorites")], [kept])
        self.assertEqual(prof[crash.Sym("hidden")], [hid])


if __name__ == "__main__":
    webtest.main()
