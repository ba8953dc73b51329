"""The news site's pages (docs/LANGUAGE.md 6.9) end to end: each page renders for a
visitor, a logged-in user and an admin; admin pages are refused to others;
the RSS feed is XML; what users typed (titles, URLs, comments, polls) is
shown as text; bad input gives a page, never a 500. Server:
servers/newsserver.arc (apps/news over seeded data). The actions (submit,
vote, edit, kill ...) are in test_news_actions.py.

usage: python3 tests/web/test_news.py path/to/arcana
"""
import re
import sys
import xml.etree.ElementTree as ET

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import webtest  # noqa: E402

EVIL = "<script>alert(1)</script> \"dq\" 'sq' javascript:alert(1)"
ROLES = (None, "alice", "boss")  # a visitor, a user, the admin


class NewsPagesTest(webtest.NewsServerTest):

    def view(self, user, path, status=200):
        """The page as user sees it, checked for escaping on the way."""
        p = self.page(user, path, status)
        self.assert_safe(p, "%s as %s" % (path, webtest.role(user)))
        return p

    def assert_order(self, text, *parts):
        """parts appear in text in this order."""
        at = [text.find(s) for s in parts]
        for s, i in zip(parts, at):
            self.assertGreaterEqual(i, 0, "%r not on the page" % s)
        self.assertEqual(at, sorted(at), "not in the order %r" % (parts,))

    def assert_logged_in_as(self, p, user):
        self.assertIsNotNone(p.link(user, r"user\?id=" + user), "no link to %s's page" % user)
        self.assertTrue(p.link("logout") or p.link(text=None, href_re=r"logout"),
                        "no logout link")

    def assert_login_form(self, p, where):
        f = p.form_with("u", "p")
        self.assertIsNotNone(f, "%s: no login form" % where)

    # ---- the front page and list pages ----

    def test_front_page(self):
        for u in ROLES:
            for path in ("/news", "/"):
                p = self.view(u, path)
                self.assertIn("Ranking hot story", p.text)
                # 30 a page: numbered 1. to 30.
                nums = [n for n in p.strings if re.match(r"^\d+\.$", n)]
                self.assertEqual(nums, ["%d." % n for n in range(1, 31)])
                self.assertIsNotNone(p.link("More"), "%s: no More link" % path)
                for label in ("new", "comments", "leaders", "submit"):
                    self.assertIsNotNone(p.link(label), "%s: no %r in the top bar" % (path, label))
                if u:
                    self.assert_logged_in_as(p, u)
                else:
                    self.assertIsNotNone(p.link("login"), "no login link for a visitor")

    def test_front_page_karma_in_top_bar(self):
        p = self.view("alice", "/news")
        self.assertRegex(p.text, r"alice\s*\(\s*30\d\s*\)")

    def test_newest(self):
        for u in ROLES:
            p = self.view(u, "/newest")
            # newest first: the noob's story was made now, the discussion 3 hours ago
            # (by submission: the seeded stories were made in this order and then
            # given older times)
            self.assert_order(p.text, "Noob story by carol", "Discussion story", "Vote target story")

    def test_best(self):
        for u in ROLES:
            p = self.view(u, "/best")
            self.assert_order(p.text, "Ranking hot story", "Ranking older story")

    def test_active(self):
        for u in ROLES:
            p = self.view(u, "/active")
            self.assertIn("Discussion story", p.text)
            self.assertNotIn("Filler story number 3 ", p.text)

    def test_bestcomments_newcomments(self):
        for u in ROLES:
            p = self.view(u, "/bestcomments")
            self.assertIn("First seeded comment", p.text)
            p = self.view(u, "/newcomments")
            self.assert_order(p.text, "Noob comment by carol", "Seeded reply to the first",
                              "First seeded comment")

    def test_noob_pages(self):
        for u in ROLES:
            p = self.view(u, "/noobstories")
            self.assertIn("Noob story by carol", p.text)
            self.assertNotIn("Filler story", p.text)
            p = self.view(u, "/noobcomments")
            self.assertIn("Noob comment by carol", p.text)
            self.assertNotIn("First seeded comment", p.text)

    def test_leaders(self):
        for u in ROLES:
            p = self.view(u, "/leaders")
            self.assertIsNotNone(p.link("alice"), "alice (karma 300) not on the leaders page")
            self.assert_order(p.text, "alice", "bob")
            self.assertIn("300", p.text)

    def test_paging_more_link(self):
        for u in ROLES:
            p = self.view(u, "/news")
            first = set(p.hrefs())
            more = p.link("More")
            p2 = self.view(u, webtest.abs_path(more))
            nums = [int(n[:-1]) for n in p2.strings if re.match(r"^\d+\.$", n)]
            self.assertIn(31, nums, "the second page starts at 31: %r" % nums)
            self.assertIn(60, nums, nums)
            self.assertNotIn(30, nums)
            self.assertNotIn(61, nums)
            items1 = {h for h in first if re.match(r"item\?id=\d+$", h)}
            items2 = {h for h in p2.hrefs() if re.match(r"item\?id=\d+$", h)}
            self.assertTrue(items2, "no items on the second page")
            self.assertFalse(items1 & items2, "page 2 repeats items of page 1")
            # and a third page, 61 on
            p3 = self.view(u, webtest.abs_path(p2.link("More")))
            self.assertIn("61.", p3.strings)

    def test_newest_more_link(self):
        p = self.view(None, "/newest")
        p2 = self.view(None, webtest.abs_path(p.link("More")))
        self.assertIn("31.", p2.strings)
        self.assertIn("Filler story number", p2.text)

    # ---- items ----

    def test_item_page(self):
        talk = self.items["talk"]
        for u in ROLES:
            p = self.view(u, "/item?id=%d" % talk)
            self.assertIn("Discussion story", p.text)
            self.assert_order(p.text, "Discussion story", "First seeded comment",
                              "Seeded reply to the first")
            self.assertIsNotNone(p.link("Discussion story", r"^http://talk\.example\.com/"))
            self.assertIsNotNone(p.link("alice", r"user\?id=alice"))
            if u:
                f = [f for f in p.forms if "text" in f.fields]
                self.assertTrue(f, "%s: no comment form on the item page" % webtest.role(u))

    def test_item_text_post(self):
        p = self.view(None, "/item?id=%d" % self.items["text"])
        self.assertIn("Seeded text post", p.text)
        self.assertIn("Body of the seeded text post", p.text)

    def test_comment_item_page(self):
        c1 = self.items["talk-c1"]
        for u in ROLES:
            p = self.view(u, "/item?id=%d" % c1)
            self.assert_order(p.text, "First seeded comment", "Seeded reply to the first")
            self.assertIsNotNone(p.link("parent"), "no parent link on a comment's page")

    def test_reply_page(self):
        c1 = self.items["talk-c1"]
        for u in ("alice", "boss"):
            p = self.view(u, "/reply?id=%d" % c1)
            self.assertIn("First seeded comment", p.text)
            self.assertTrue([f for f in p.forms if "text" in f.fields], "no reply form")
        p = self.view(None, "/reply?id=%d" % c1)
        self.assert_login_form(p, "reply as a visitor")

    def test_poll_page(self):
        for u in ROLES:
            p = self.view(u, "/item?id=%d" % self.items["evil-poll"])
            self.assertIn("Plain option", p.text)

    # ---- users ----

    def test_user_page(self):
        for u in (None, "alice", "bob"):
            p = self.view(u, "/user?id=alice")
            self.assertIn("alice", p.text)
            self.assertRegex(p.text, r"karma:\s*300\b")
        own = self.view("alice", "/user?id=alice")
        f = own.form_with("about", "email")
        self.assertIsNotNone(f, "alice's own page has no form with about and email")
        for name in ("showdead", "noprocrast", "maxvisit", "minaway"):
            self.assertIn(name, f.fields, "no %s field on one's own profile" % name)
        other = self.view("bob", "/user?id=alice")
        self.assertIsNone(other.form_with("email"), "bob may edit alice's email")
        self.assertIsNone(self.view(None, "/user?id=alice").form_with("about"))
        adm = self.view("boss", "/user?id=alice")
        f = adm.form_with("karma", "auth")
        self.assertIsNotNone(f, "the admin cannot edit alice's karma/auth")
        self.assertEqual(f.fields["karma"], "300")

    def test_submitted_threads_saved(self):
        for u in ROLES:
            p = self.view(u, "/submitted?id=bob")
            self.assertIn("Filler story number", p.text)
            self.assertNotIn("Discussion story", p.text)  # alice's
            p = self.view(u, "/threads?id=bob")
            self.assertIn("First seeded comment", p.text)
            self.assertNotIn("Noob comment by carol", p.text)
        # saved: one's own up-voted stories, for oneself and admins only
        for u in ("alice", "boss"):
            p = self.view(u, "/saved?id=alice")
            self.assertIn("Discussion story", p.text, "saved?id=alice as %s" % u)
        for u in (None, "bob"):
            p = self.view(u, "/saved?id=alice")
            self.assertNotIn("Discussion story", p.text, "saved?id=alice shown to %s" % webtest.role(u))

    # ---- forms ----

    def test_submit_page(self):
        for u in ("alice", "boss"):
            p = self.view(u, "/submit")
            f = [f for f in p.forms if len({"t", "u"} & set(f.fields)) == 2
                 or len({"title", "url"} & set(f.fields)) == 2]
            self.assertTrue(f, "no submission form: %r" % p.forms)
        p = self.view(None, "/submit")
        self.assert_login_form(p, "submit as a visitor")

    def test_submitlink_prefilled(self):
        p = self.view("alice", "/submitlink?u=http%3A%2F%2Fpre.example.com%2F&t=Prefilled+title")
        vals = [v for f in p.forms for v in f.fields.values() if v]
        self.assertIn("http://pre.example.com/", vals)
        self.assertIn("Prefilled title", vals)

    def test_edit_page(self):
        # The admin may edit any item; a visitor or someone else may not.
        sid = self.items["text"]
        p = self.view("boss", "/edit?id=%d" % sid)
        f = [f for f in p.forms if "title" in f.fields]
        self.assertTrue(f, "no edit form with a title field for the admin: %r" % p.forms)
        self.assertEqual(f[0].fields["title"], "Seeded text post")
        for u in (None, "bob"):
            p = self.view(u, "/edit?id=%d" % sid)
            self.assertFalse([f for f in p.forms if "title" in f.fields],
                             "an edit form for %s" % webtest.role(u))

    def test_newpoll_resetpw_pages(self):
        p = self.view("alice", "/newpoll")
        self.assertTrue(p.forms, "no poll form for alice (karma 300)")
        p = self.view("alice", "/resetpw")
        self.assertTrue([f for f in p.forms if "p" in f.fields or
                         any(t == "password" for t in f.types.values())], "no password form")

    # ---- fixed pages ----

    def test_lists(self):
        for u in ROLES:
            p = self.view(u, "/lists")
            for op in ("newest", "best", "bestcomments", "active", "noobstories", "leaders"):
                self.assertIsNotNone(p.link(href_re=r"^/?%s\b" % op), "lists: no link to %s" % op)

    def test_formatdoc(self):
        for u in ROLES:
            p = self.view(u, "/formatdoc")
            self.assertRegex(p.text.lower(), r"paragraph|asterisk|italic")

    def test_welcome(self):
        for u in ROLES:
            p = self.view(u, "/welcome")
            self.assertRegex(p.text.lower(), r"welcome")

    def test_css(self):
        c = self.client()
        status, h, data = c.request("GET", "/news.css")
        self.assertEqual(status, 200)
        self.assertTrue(h.get("content-type", "").startswith("text/css"), h)
        self.assertIn("{", data.decode())
        self.assertIn("news.css", self.view(None, "/news").body)

    def test_favicon(self):
        status, h, _ = self.client().request("GET", "/favicon.ico")
        self.assertIn(status, (200, 302), h)

    def test_rss(self):
        status, h, data = self.client().request("GET", "/rss")
        self.assertEqual(status, 200)
        root = ET.fromstring(data)  # well-formed XML, or this raises
        self.assertEqual(root.tag, "rss")
        self.assertEqual(root.get("version"), "2.0")
        chan = root.find("channel")
        self.assertIsNotNone(chan)
        titles = [i.findtext("title") for i in chan.findall("item")]
        links = [i.findtext("link") for i in chan.findall("item")]
        self.assertIn("Ranking hot story", titles)
        self.assertTrue(all(l for l in links), links)
        for l in links:
            self.assertFalse(l.strip().lower().startswith("javascript:"), l)

    def test_rss_escapes_titles(self):
        # The evil story is not on the front page's first 30; submitted from
        # the model its title must still come out as text wherever printed.
        status, _, data = self.client().request("GET", "/rss")
        text = data.decode()
        self.assertNotIn("<script>", text)
        chan = ET.fromstring(data).find("channel")
        titles = [i.findtext("title") for i in chan.findall("item")]
        # the front page's hostile titles come back from the XML as text
        self.assertIn("Evil " + EVIL, titles)
        self.assertIn("Evil poll " + EVIL, titles)

    # ---- admin pages ----

    ADMIN_OPS = ("newsadmin", "scrubrules", "editors", "badsites", "badips", "badguys",
                 "badlogins", "goodlogins", "optimes", "opstats")
    EDITOR_OPS = ("flagged", "killed")

    def test_admin_pages_for_the_admin(self):
        for op in self.ADMIN_OPS + self.EDITOR_OPS:
            p = self.view("boss", "/" + op)
            self.assertIsNone(p.form_with("u", "p"), "/%s asks the admin to log in" % op)
            self.assertNotRegex(p.text, r"(?i)log ?in as an admin|only for admin|not allowed")
        p = self.view("boss", "/newsadmin")
        self.assertTrue(p.forms, "newsadmin has no forms")

    def opstats_rows(self):
        """The admin's opstats table: op -> its figures, as numbers (None
        for a column shown as "-")."""
        body = self.page("boss", "/opstats").body
        cols = ("requests", "ms", "dispatches", "allocations", "bytes", "gc-ms")
        rows = {}
        for tr in re.findall(r"<tr>(.*?)</tr>", body, re.S):
            cells = [re.sub(r"<[^>]*>", "", c).strip()
                     for c in re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S)]
            if len(cells) == 7 and cells[1].isdigit():
                rows[cells[0]] = {k: None if v == "-" else float(v.replace(",", ""))
                                  for k, v in zip(cols, cells[1:])}
        return rows

    def test_opstats_counts_each_ops_requests_and_their_work(self):
        item = "/item?id=%d" % self.items["rank-old"]
        self.page("alice", item)
        before = self.opstats_rows()
        for _ in range(4):
            self.page("alice", item)
        after = self.opstats_rows()
        self.assertEqual(after["item"]["requests"] - before["item"]["requests"], 4)
        self.assertIn("opstats", after)  # the page's own requests
        it = after["item"]
        # an item page with its comments makes hundreds of objects, each
        # of at least 16 bytes; this server does not count dispatches
        self.assertGreater(it["allocations"], 100, it)
        self.assertGreaterEqual(it["bytes"], 16 * it["allocations"], it)
        self.assertGreater(it["ms"], 0, it)
        self.assertIsNone(it["dispatches"], it)

    def test_admin_pages_refused_to_others(self):
        admin_bodies = {op: self.page("boss", "/" + op).body for op in ("newsadmin", "badlogins")}
        for u in (None, "alice"):
            for op in self.ADMIN_OPS:
                p = self.view(u, "/" + op)
                self.assert_login_form(p, "/%s as %s" % (op, webtest.role(u)))
                if op in admin_bodies:
                    self.assertNotEqual(p.body, admin_bodies[op])
            # badlogins lists login attempts (ips): never to others
            p = self.view(u, "/badlogins")
            self.assertNotIn("127.0.0.", p.text)
        for op in self.EDITOR_OPS:
            p = self.view("alice", "/" + op)
            self.assert_login_form(p, "/%s as alice" % op)

    def test_admin_sees_admin_links_on_items(self):
        p = self.view("boss", "/item?id=%d" % self.items["rank-old"])
        self.assertIsNotNone(p.link("kill"), "no kill link for the admin")
        p = self.view("alice", "/item?id=%d" % self.items["rank-old"])
        self.assertIsNone(p.link("kill"), "a kill link for alice")

    # ---- escaping: text stored by the model ----

    def assert_shown_as_text(self, p, what, where):
        self.assertIn(what, p.text, "%s: %r not shown as text" % (where, what))

    def test_escaped_story_title_and_url(self):
        sid = self.items["evil"]
        for u in ROLES:
            for path in ("/item?id=%d" % sid, "/newest", "/submitted?id=bob"):
                p = self.view(u, path)
                self.assert_shown_as_text(p, "Evil " + EVIL, path)
                # the story's link goes to its URL intact, or (a URL valid-url
                # refuses) there is no link to it at all
                hs = [h for h in p.hrefs() if "evil.example.com" in h]
                self.assertIn(hs, ([], ['http://evil.example.com/?q="><script>alert(1)</script>']),
                              path)

    def test_javascript_url_never_a_link(self):
        sid = self.items["evil-js"]
        for u in ROLES:
            for path in ("/item?id=%d" % sid, "/newest"):
                p = self.view(u, path)
                self.assertIn("Evil javascript url story", p.text, path)

    def test_escaped_comment(self):
        for u in ROLES:
            for path in ("/item?id=%d" % self.items["talk"], "/item?id=%d" % self.items["evil-c"],
                         "/newcomments", "/threads?id=bob"):
                p = self.view(u, path)
                self.assert_shown_as_text(p, "Evil comment " + EVIL, path)

    def test_escaped_poll(self):
        for u in ROLES:
            p = self.view(u, "/item?id=%d" % self.items["evil-poll"])
            self.assert_shown_as_text(p, "Evil poll " + EVIL, "the poll's title")
            self.assert_shown_as_text(p, "Evil option " + EVIL, "the poll's option")

    def test_escaped_lists(self):
        # Every list page, for everyone: the hostile items never run.
        for u in ROLES:
            for path in ("/news", "/best", "/active", "/bestcomments", "/noobstories",
                         "/leaders", "/saved?id=alice", "/submitted?id=alice"):
                self.view(u, path)

    # ---- bad input ----

    BAD = ("/item?id=abc", "/item?id=99999999", "/item", "/item?id=", "/item?id=-1",
           "/item?id=1e400", "/item?id=" + "9" * 300, "/item?id=%00", "/user?id=nobody",
           "/user", "/user?id=", "/user?id=%3Cscript%3Ealert(1)%3C%2Fscript%3E",
           "/submitted?id=nobody", "/threads?id=nobody", "/saved?id=nobody",
           "/vote", "/vote?for=abc&dir=up", "/vote?for=99999999&dir=up&by=x&auth=y",
           "/vote?for=1&dir=sideways", "/edit?id=abc", "/edit", "/reply?id=abc",
           "/reply", "/submitlink", "/x?fnid=bogus", "/x", "/r?fnid=bogus",
           "/news?x=%FF%FE", "/newest?n=abc", "/news?p=abc", "/news?p=-3", "/newest?p=99999",
           "/ask?p=x", "/show?p=0", "/from", "/from?site=%FF", "/front?day=2026-02-30",
           "/front?day=%00", "/favorites?id=nobody", "/fave?id=abc", "/hide?id=-1",
           "/fave?id=99999999&by=x&auth=y", "/hide?id=1&un=t&by=x&auth=y")

    def test_bad_input_never_500(self):
        for u in ROLES:
            c = self.client(u)
            for path in self.BAD:
                status, body, final = c.get(path)
                self.assertIn(status, (200, 404), "%s as %s: %d %s" % (path, webtest.role(u), status, body[:300]))
                self.assertTrue(body.strip(), "%s as %s: an empty page" % (path, webtest.role(u)))
                self.assertNotIn("<script>alert", body, path)
        self.assert_serving()

    def vote_auth(self, user):
        """The auth of user's vote links (his session's token)."""
        for h in self.view(user, "/newest").hrefs():
            m = re.search(r"^vote\?.*&auth=([^&]+)", h or "")
            if m:
                return m.group(1)
        self.fail("no vote link with an auth for %s" % user)

    def test_whence_never_leaves_the_site(self):
        # whence comes from the URL: a vote, a login link or a reply form
        # that sends the browser back must not send it to javascript: or
        # to another site.
        vid = self.items["filler1"]
        auth = self.vote_auth("bob")
        for whence in ("javascript:alert(1)", "http://evil.example.org/", "//evil.example.org/",
                       "%0d%0aSet-Cookie:%20x=1"):
            c = self.client("bob")
            status, h, _ = c.request("GET", "/vote?for=%d&dir=up&by=bob&auth=%s&whence=%s"
                                     % (vid, auth, whence))
            self.assertIn(status, (200, 302), whence)
            loc = h.get("location", "")
            self.assertFalse(re.match(r"(?i)\s*(javascript:|https?:|//)", loc),
                             "vote with whence %r goes to %r" % (whence, loc))
            self.assertNotIn("x=1", h.get("set-cookie", ""), "a header from whence")
            for path in ("/reply?id=%d&whence=%s" % (self.items["talk-c1"], whence),
                         "/item?id=%d&whence=%s" % (self.items["talk"], whence)):
                for u in (None, "bob"):
                    self.view(u, path)  # no javascript: link (assert_safe)
        self.assert_serving()

    def test_bad_item_pages_say_so(self):
        for path in ("/item?id=abc", "/item?id=99999999"):
            status, body, _ = self.client().get(path)
            self.assertRegex(body, r"(?i)no such item|unknown", path)
        status, body, _ = self.client().get("/user?id=nobody")
        self.assertRegex(body, r"(?i)no such user|unknown", "/user?id=nobody")

    def test_bad_votes_as_user(self):
        c = self.client("alice")
        auth = self.vote_auth("alice")
        for q in ("for=abc&dir=up", "for=99999999&dir=up", "for=%d&dir=sideways" % self.items["rank-old"],
                  "for=%d" % self.items["rank-old"], ""):
            status, body, _ = c.get("/vote?%s&by=alice&auth=%s&whence=news" % (q, auth))
            self.assertIn(status, (200, 404), (q, status, body[:300]))
        self.assert_serving()

    def test_bad_post_bodies(self):
        c = self.client("alice")
        for path in ("/x", "/r", "/vote", "/item"):
            status, _, data = c.request("POST", path, "fnid=%zz&&=&text=" + "a" * 5000,
                                        {"Content-Type": "application/x-www-form-urlencoded"})
            self.assertNotEqual(status, 500, path)
        self.assert_serving()


if __name__ == "__main__":
    webtest.main()
