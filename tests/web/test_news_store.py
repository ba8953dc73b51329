"""The news site's store (apps/news/store.arc) seen from outside: what
users do through the site's forms and links, and what the demo and an
admin set up, is in the data directory's files in Arc 3.1's formats, and
is all there again after the server is killed and started anew on the
same directory. The SIGKILL rounds of test_news_crash.py check stories
and votes under load; this checks every kind of record, one of each:

- two users (the login page's Create Account form) make a story, edit
  its title, comment on it, vote on it, and fill in a profile's about;
  after a restart the item page shows the title, the comment and the
  score, the profile the about and the karma, the voter no up arrow, the
  front page the story, the users are still logged in, and a new story
  gets a new id; the files hold the same;
- the demo on an empty directory makes its admin and names him in the
  admins file (store-add-admin); he logs in, sees the admin pages and
  saves a scrub rule (a disk var, through todisk); after a restart
  nothing is seeded again, and he is still the admin, with his rule.

The server is apps/news/news.arc as a user runs it (test_news_crash.py's
NewsServer).

usage: python3 tests/web/test_news_store.py path/to/arcana
"""
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

PASSWORD = "store-test-pw"


class NewsStoreTest(unittest.TestCase):

    def setUp(self):
        if not os.path.exists(crash.NEWS):
            self.skipTest("no apps/news/news.arc")
        self.work = tempfile.mkdtemp(prefix="arcana-news-store-")
        self.srv = crash.NewsServer(self.work)
        self.addCleanup(shutil.rmtree, self.work, True)
        self.addCleanup(self.srv.kill)

    def restart(self, **kw):
        self.srv.kill()
        self.srv.start(**kw)

    def data_file(self, *path):
        """The datum of a file of the data directory (a table as a dict)."""
        p = os.path.join(self.srv.data, *path)
        self.assertTrue(os.path.exists(p), "no file %s" % p)
        return crash.read_arc_file(p)

    def table_file(self, *path):
        p = os.path.join(self.srv.data, *path)
        return crash.as_table(self.data_file(*path), p)

    def page(self, client, path):
        st, body, final = client.get(path)
        self.assertEqual(st, 200, "%s: %s" % (path, body[:1000]))
        return Page(body), final

    def submit(self, client, path, fields, have):
        """Sends the form of the page at path that has the field have."""
        p, final = self.page(client, path)
        f = p.form_with(have)
        self.assertIsNotNone(f, "no form with %s at %s: %r" % (have, path, p.forms))
        st, body, _ = client.submit(f, fields, base=final)
        self.assertEqual(st, 200, "%s: %s" % (path, body[:1000]))
        return Page(body)

    def story_id(self, client, title):
        p, _ = self.page(client, "/newest")
        links = [(h or "", t) for h, t in p.links]
        for n, (h, t) in enumerate(links):
            if t == title:
                for h2, _ in links[n:]:
                    m = re.match(r"/?item\?id=(\d+)", h2)
                    if m:
                        return int(m.group(1))
        self.fail("no story %r on /newest" % title)

    def test_what_users_did_is_there_after_a_restart(self):
        srv = self.srv
        srv.start()
        site = crash.Site(srv)
        ann = NewsClient(srv, site.create_account("ann", PASSWORD), "127.0.0.21")
        bob = NewsClient(srv, site.create_account("bob", PASSWORD), "127.0.0.22")

        self.submit(ann, "/submit", {"t": "Stored story", "u": "http://example.com/stored"}, "t")
        sid = self.story_id(ann, "Stored story")
        self.submit(ann, "/edit?id=%d" % sid, {"title": "Stored story, edited"}, "title")
        self.submit(bob, "/item?id=%d" % sid, {"text": "Bob's stored comment"}, "text")
        p, _ = self.page(bob, "/newest")
        vote = p.link(href_re=r"vote\?.*for=%d\b.*dir=up|vote\?.*dir=up.*for=%d\b" % (sid, sid))
        self.assertIsNotNone(vote, "no up arrow for bob on story %d" % sid)
        st, body, _ = bob.get(abs_path(vote, "/newest"))
        self.assertEqual(st, 200, body[:500])
        self.submit(ann, "/user?id=ann", {"about": "Ann's stored about"}, "about")

        def check(when):
            p, _ = self.page(NewsClient(srv, None, "127.0.0.23"), "/item?id=%d" % sid)
            for s in ("Stored story, edited", "Bob's stored comment", "2 points"):
                self.assertIn(s, p.text, "%s: item %d" % (when, sid))
            p, _ = self.page(bob, "/user?id=ann")
            self.assertIn("Ann's stored about", p.text, when)
            self.assertRegex(p.text, r"karma:\s*2\b", when)
            p, _ = self.page(bob, "/newest")
            self.assertIsNotNone(p.link("bob"), "%s: bob is not logged in" % when)
            self.assertIsNone(p.link(href_re=r"vote\?.*for=%d\b" % sid),
                              "%s: an up arrow for bob on a story he voted on" % when)
            self.assertIn("Bob's stored comment", self.page(bob, "/threads?id=bob")[0].text, when)
            self.assertIn("Stored story, edited", self.page(ann, "/submitted?id=ann")[0].text, when)
            self.assertIn("Stored story, edited", self.page(bob, "/news")[0].text, when)

        check("before the restart")
        self.restart()
        check("after the restart")

        # The files, in Arc 3.1's formats.
        S = crash.Sym
        story = self.table_file("news", "story", str(sid))
        self.assertEqual((story[S("title")], story[S("by")], story[S("score")]),
                         ("Stored story, edited", "ann", 2))
        cid = story[S("kids")][0]
        comment = self.table_file("news", "story", str(cid))
        self.assertEqual((comment[S("type")], comment[S("by")], comment[S("parent")]),
                         (S("comment"), "bob", sid))
        prof = self.table_file("news", "profile", "ann")
        self.assertEqual((prof[S("about")], prof[S("karma")], prof[S("submitted")]),
                         ("Ann's stored about", 2, [sid]))
        self.assertIn(sid, self.table_file("news", "vote", "bob"))
        self.assertIn(sid, self.data_file("news", "topstories"))

        # New work goes on, with an id no item had.
        self.submit(ann, "/submit", {"t": "Story after the restart", "u": "http://example.com/after"},
                    "t")
        self.assertGreater(self.story_id(ann, "Story after the restart"), cid)

    def test_demo_admin_and_his_settings_after_a_restart(self):
        srv = self.srv
        srv.start(timeout=120, demo=True)
        out = srv.stdout()
        self.assertIn("seeded demo data", out)
        m = re.search(r"admin account: (\S+) password: (\S+)", out)
        self.assertIsNotNone(m, "no admin account printed: %s" % out[-2000:])
        name, pw = m.groups()
        self.assertEqual(self.data_file("admins"), crash.Sym(name))

        admin = NewsClient(srv, None, "127.0.0.24")
        p, final = self.page(admin, "/login")
        f = p.form_with("u", "p")
        self.assertIsNotNone(f, "no login form: %r" % p.forms)
        st, body, _ = admin.submit(f, {"u": name, "p": pw}, base=final)
        self.assertEqual(st, 200, body[:500])
        self.assertTrue(admin.cookie, "no cookie after the admin's login")
        p, _ = self.page(admin, "/newsadmin")
        self.assertIn("comment-kill", p.body, "the admin does not get the settings page")
        p = self.submit(admin, "/scrubrules",
                        {"from": "Stored rule from", "to": "Stored rule to"}, "from")
        self.assertIn("Changes saved.", p.text)

        self.restart(demo=True)
        self.assertNotIn("seeded demo data", srv.stdout(), "the demo seeded a site that has data")
        self.assertEqual(self.data_file("admins"), crash.Sym(name))
        self.assertEqual(self.data_file("news", "scrubrules"),
                         [["Stored rule from", "Stored rule to"]])
        p, _ = self.page(admin, "/scrubrules")
        self.assertIn("Stored rule from", p.body, "the rule is gone after the restart")
        self.assertIn("comment-kill", self.page(admin, "/newsadmin")[0].body,
                      "not the admin after the restart")


if __name__ == "__main__":
    webtest.main()
