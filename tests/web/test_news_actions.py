"""The news site's actions (docs/LANGUAGE.md 6.9) end to end, through its forms and
links as a browser uses them: logging in, submitting (a URL, a text post, a
duplicate URL, each refusal), commenting and replying, voting (score and
karma; twice; with a wrong auth), flagging, editing (own item, someone
else's), deleting, killing by the admin, ranking, noprocrast, and what
users type shown as text. Server: servers/newsserver.arc.

usage: python3 tests/web/test_news_actions.py path/to/arcana
"""
import os
import re
import sys
import time
import urllib.parse

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import webtest  # noqa: E402
from webtest import Page, abs_path  # noqa: E402

EVIL = "<script>alert(1)</script> \"dq\" 'sq' javascript:alert(1)"


class NewsActionsTest(webtest.NewsServerTest):

    # ---- helpers ----

    def view(self, user, path):
        p = self.page(user, path)
        self.assert_safe(p, "%s as %s" % (path, user))
        return p

    def score(self, iid, user=None):
        """The points the item page shows for item iid."""
        p = self.view(user, "/item?id=%d" % iid)
        m = re.search(r"(-?\d+) points?", p.text)
        self.assertIsNotNone(m, "no score on item %d: %s" % (iid, p.text[:500]))
        return int(m.group(1))

    def karma(self, name):
        p = self.view(None, "/user?id=" + name)
        m = re.search(r"karma:\s*(-?\d+)", p.text)
        self.assertIsNotNone(m, "no karma on %s's page: %s" % (name, p.text[:500]))
        return int(m.group(1))

    def submit_form(self, user):
        p = self.view(user, "/submit")
        for f in p.forms:
            if "t" in f.fields and "u" in f.fields:
                return f, {"title": "t", "url": "u", "text": "x"}
            if "title" in f.fields and "url" in f.fields:
                return f, {"title": "title", "url": "url", "text": "text"}
        self.fail("no submission form: %r" % p.forms)

    def submit(self, user, title="", url="", text=""):
        """Submits a story as user: (status, Page, final path)."""
        f, names = self.submit_form(user)
        st, body, path = self.client(user).submit(
            f, {names["title"]: title, names["url"]: url, names["text"]: text}, base="/submit")
        p = Page(body)
        self.assert_safe(p, "after submitting %r" % title)
        return st, p, path

    def story_id(self, title, user=None, path="/newest"):
        """The id of the story titled title on the page at path: its title's
        link if that is to its item page, else the next item link after it
        (its age or comments link)."""
        p = self.view(user, path)
        links = [(h or "", t) for h, t in p.links]
        for n, (h, t) in enumerate(links):
            if t == title:
                for h2, _ in links[n:]:
                    m = re.match(r"/?item\?id=(\d+)", h2)
                    if m:
                        return int(m.group(1))
        self.fail("no story %r on %s" % (title, path))

    def comment_form(self, p):
        fs = [f for f in p.forms if "text" in f.fields]
        self.assertTrue(fs, "no comment form: %r" % p.forms)
        return fs[0]

    def comment(self, user, path, text):
        """Writes text in the comment form of the page at path, as user."""
        p = self.view(user, path)
        st, body, final = self.client(user).submit(self.comment_form(p), {"text": text}, base=path)
        self.assertEqual(st, 200, body[:500])
        page = Page(body)
        self.assert_safe(page, "after commenting")
        return page, final

    def reply_id_after(self, p, text):
        """The id the first reply link after text on page p is for."""
        at = p.body.find(text)
        self.assertGreaterEqual(at, 0, "%r not on the page" % text)
        m = re.compile(r"reply\?id=(\d+)").search(p.body, at)
        self.assertIsNotNone(m, "no reply link after %r" % text)
        return int(m.group(1))

    def follow(self, user, href, base="/"):
        return self.client(user).get(abs_path(href, base))

    # ---- logging in ----

    def test_login_through_the_form(self):
        c = webtest.NewsClient(self.srv, None, "127.0.0.30")
        st, body, _ = c.get("/news")
        login = Page(body).link("login")
        self.assertIsNotNone(login, "no login link on the front page")
        st, body, path = c.get(abs_path(login))
        f = Page(body).form_with("u", "p")
        self.assertIsNotNone(f, "no login form at %s" % login)
        st, body, _ = c.submit(f, {"u": "boss", "p": "wrong password"}, base=path)
        self.assertRegex(body, r"(?i)bad login")
        self.assertIsNone(c.cookie)
        f = Page(body).form_with("u", "p")
        st, body, _ = c.submit(f, {"u": "boss", "p": self.passwords["boss"]}, base=path)
        self.assertEqual(st, 200)
        self.assertTrue(c.cookie, "no cookie after logging in")
        st, body, _ = c.get("/news")
        self.assertIsNotNone(Page(body).link("boss"), "not logged in as boss after the form")

    def test_create_account_through_the_form(self):
        c = webtest.NewsClient(self.srv, None, "127.0.0.31")
        st, body, path = c.get(abs_path(Page(c.get("/news")[1]).link("login")))
        forms = [f for f in Page(body).forms if "u" in f.fields and "p" in f.fields]
        self.assertEqual(len(forms), 2, "a login and a create-account form: %r" % forms)
        st, body, _ = c.submit(forms[1], {"u": "erin", "p": "erin-pw-123"}, base=path)
        self.assertEqual(st, 200)
        self.assertTrue(c.cookie, "no cookie for the new account")
        p = Page(c.get("/news")[1])
        self.assertIsNotNone(p.link("erin"), "the new account is not logged in")
        p = self.view(None, "/user?id=erin")
        self.assertRegex(p.text, r"karma:\s*1\b")
        # the name is taken now
        c2 = webtest.NewsClient(self.srv, None, "127.0.0.32")
        st, body, path = c2.get(abs_path(Page(c2.get("/news")[1]).link("login")))
        forms = [f for f in Page(body).forms if "u" in f.fields and "p" in f.fields]
        st, body, _ = c2.submit(forms[1], {"u": "Erin", "p": "other-pw-123"}, base=path)
        self.assertRegex(body, r"(?i)taken")
        self.assertIsNone(c2.cookie)

    # ---- submitting ----

    def test_submit_url_story(self):
        st, p, path = self.submit("alice", "Fresh url story", "http://fresh.example.com/a")
        self.assertEqual(st, 200)
        self.assertTrue(path.startswith("/newest"), "after submitting: %s" % path)
        self.assertIn("Fresh url story", p.text)
        self.assertIn("http://fresh.example.com/a", p.hrefs())
        sid = self.story_id("Fresh url story")
        self.assertEqual(self.score(sid), 1)  # the author's own vote
        # saved before the answer: arc/news/story/ID (or its row), one s-expression
        stored = webtest.stored_text(self.srv.path("arc"), "news/story/%d" % sid)
        self.assertIsNotNone(stored, "story %d is not stored" % sid)
        self.assertIn('(title "Fresh url story")', stored)
        self.assertIn('(by "alice")', stored)
        p = self.view(None, "/submitted?id=alice")
        self.assertIn("Fresh url story", p.text)
        self.assertIn("(example.com)", p.text)  # the site after the title

    def test_submit_text_post(self):
        st, p, path = self.submit("alice", "Fresh text post", "", "The body of *my* post")
        self.assertEqual(st, 200)
        self.assertIn("Fresh text post", p.text)
        sid = self.story_id("Fresh text post")
        p = self.view(None, "/item?id=%d" % sid)
        self.assertIn("The body of my post", p.text)
        self.assertIn("<i>my</i>", p.body)

    def test_submit_duplicate_url_goes_to_story(self):
        dup = self.items["dup"]
        before = self.score(dup)
        st, p, path = self.submit("boss", "Same url again", "http://dup.example.com/page")
        self.assertEqual(st, 200)
        self.assertRegex(path, r"item\?id=%d\b" % dup, "a duplicate URL should lead to its story")
        self.assertIn("Duplicate target story", p.text)
        self.assertNotIn("Same url again", self.view(None, "/newest").text)
        self.assertEqual(self.score(dup), before + 1, "the duplicate counts as an up-vote")

    def assert_refused(self, title, url, text, message_re, where):
        """Submitting these is refused: the form again, with a message (the
        page's text that the plain form lacks) matching message_re, and no
        story made."""
        plain = set(Page(self.client("bob").get("/submit")[1]).strings)
        st, p, path = self.submit("bob", title, url, text)
        self.assertEqual(st, 200, where)
        self.assertTrue([f for f in p.forms if "t" in f.fields or "title" in f.fields],
                        "%s: the form is not shown again (%s: %r)" % (where, path, p.text[:600]))
        message = " ".join(x for x in p.strings if x not in plain)
        self.assertRegex(message, message_re, "%s: no such message (%r)" % (where, p.text[:600]))
        newest = self.view(None, "/newest")
        if title.strip():
            self.assertNotIn(title, newest.text, "%s: the story was made" % where)
        if url:
            self.assertNotIn(url, newest.hrefs(), "%s: the story was made" % where)
        return message

    def test_submit_title_too_long(self):
        self.assert_refused("L" * 81, "http://long.example.com/", "", r"\b80\b",
                            "a title of 81 characters")
        # 80 is allowed
        st, p, path = self.submit("bob", "M" * 80, "http://long.example.com/80")
        self.assertIn("M" * 80, self.view(None, "/newest").text)

    def test_submit_blank_title(self):
        self.assert_refused("", "http://blanktitle.example.com/", "", r"(?i)title",
                            "a blank title")
        self.assert_refused("   ", "http://blanktitle2.example.com/", "", r"(?i)title",
                            "a title of spaces")

    def test_submit_both_blank(self):
        self.assert_refused("Nothing here at all", "", "", r"(?i)blank",
                            "both url and text blank")

    def test_submit_bad_schemes(self):
        for url in ("javascript:alert(1)", "ftp://files.example.com/x", "JavaScript:alert(1)",
                    "data:text/html,hi", "http//nocolon.example.com"):
            self.assert_refused("Bad scheme " + url[:6], url, "", r"(?i)url|http",
                                "url %r" % url)

    # ---- comments ----

    def test_comment_and_reply(self):
        talk = self.items["talk"]
        page, final = self.comment("alice", "/item?id=%d" % talk, "Alice comments here")
        p = self.view(None, "/item?id=%d" % talk)
        self.assertIn("Alice comments here", p.text)
        cid = self.reply_id_after(p, "Alice comments here")
        # bob replies through the reply page
        rp = self.view("bob", "/reply?id=%d" % cid)
        self.assertIn("Alice comments here", rp.text)
        st, body, _ = self.client("bob").submit(self.comment_form(rp),
                                                {"text": "Bob replies to alice"},
                                                base="/reply?id=%d" % cid)
        self.assertEqual(st, 200)
        p = self.view(None, "/item?id=%d" % talk)
        self.assert_order(p.text, "Discussion story", "Alice comments here", "Bob replies to alice")
        p = self.view(None, "/item?id=%d" % cid)
        self.assert_order(p.text, "Alice comments here", "Bob replies to alice")
        self.assertIn("Bob replies to alice", self.view(None, "/threads?id=bob").text)
        self.assertIn("Alice comments here", self.view(None, "/newcomments").text)
        # the reply is indented deeper than the comment (40 px a level)
        widths = [int(w) for w in re.findall(r"<img[^>]*s\.gif[^>]*width=\"?(\d+)",
                                               self.view(None, "/item?id=%d" % talk).body)]
        self.assertIn(40, widths, "no 40-pixel indentation for a reply: %r" % widths)

    def test_comment_form_takes_only_its_user(self):
        # The form posts to the comment op with its user and his auth (his
        # session's token, not his cookie): bob
        # sending boss's form, a form with a wrong auth or none (another
        # site's), and a visitor's form sent with a cookie add nothing; the
        # auth is not written to the news log. (boss: an admin, whom no
        # rate limit stops after the other tests' comments)
        talk = self.items["talk"]
        path = "/item?id=%d" % talk
        form = self.comment_form(self.view("boss", path))
        self.assertEqual(form.fields.get("by"), "boss")
        self.assertTrue(form.fields.get("auth"), "no auth in boss's form")
        self.assertNotEqual(form.fields.get("auth"), self.cookies["boss"])
        self.client("bob").submit(form, {"text": "Bob in boss's form"}, base=path)
        self.client("boss").submit(form, {"text": "Boss with a bad auth",
                                           "auth": "NotTheCookie"}, base=path)
        forged = dict(form.fields)
        forged.pop("auth")
        self.client("boss").post("/comment", dict(forged, text="Boss without auth"))
        visitor = self.comment_form(self.view(None, path))
        self.assertNotIn("auth", visitor.fields)
        self.client("dave").submit(visitor, {"text": "Dave in a visitor's form"}, base=path)
        t = self.view(None, path).text
        for text in ("Bob in boss's form", "Boss with a bad auth", "Boss without auth",
                     "Dave in a visitor's form"):
            self.assertNotIn(text, t)
        # a visitor sending his form is asked to log in
        st, body, _ = self.client(None).submit(visitor, {"text": "Anonymous words"}, base=path)
        self.assertRegex(body, r"(?i)logged in|login")
        self.assertNotIn("Anonymous words", self.view(None, path).text)
        # boss's own form, as made: the comment is there
        self.client("boss").submit(form, {"text": "Boss with her own form"}, base=path)
        self.assertIn("Boss with her own form", self.view(None, path).text)
        # (the request and news logs are written in batches, every
        # srv-log-flush* seconds: srv.arc)
        time.sleep(0.3)
        for name in os.listdir(self.srv.path("arc", "logs")):
            with open(self.srv.path("arc", "logs", name), errors="replace") as f:
                logged = f.read()
                self.assertNotIn(self.cookies["boss"], logged, "the cookie in " + name)
                self.assertNotIn(form.fields["auth"], logged, "the auth in " + name)

    def test_blank_comment_refused(self):
        talk = self.items["talk"]
        before = self.view(None, "/item?id=%d" % talk).text
        self.comment("dave", "/item?id=%d" % talk, "   ")
        self.assertEqual(self.view(None, "/item?id=%d" % talk).text.count("ago"),
                         before.count("ago"), "a blank comment was added")

    def assert_order(self, text, *parts):
        at = [text.find(s) for s in parts]
        for s, i in zip(parts, at):
            self.assertGreaterEqual(i, 0, "%r not on the page" % s)
        self.assertEqual(at, sorted(at), "not in the order %r" % (parts,))

    # ---- voting ----

    def vote_link(self, p, iid, direction="up"):
        for h in p.hrefs():
            if re.search(r"vote\?", h) and re.search(r"for=%d\b" % iid, h) \
                    and re.search(r"dir=%s" % direction, h):
                return h
        return None

    def test_vote_changes_score_and_karma(self):
        vid = self.items["vote"]
        score0, karma0 = self.score(vid), self.karma("bob")
        p = self.view("alice", "/item?id=%d" % vid)
        link = self.vote_link(p, vid)
        self.assertIsNotNone(link, "no up-vote link for alice")
        q = urllib.parse.parse_qs(urllib.parse.urlsplit(link).query)
        self.assertEqual(q.get("by"), ["alice"])
        self.assertTrue(q.get("auth"), "no auth in alice's vote link")
        self.assertNotEqual(q.get("auth"), [self.cookies["alice"]])
        st, body, _ = self.follow("alice", link)
        self.assertIn(st, (200, 204))
        self.assertEqual(self.score(vid), score0 + 1)
        self.assertEqual(self.karma("bob"), karma0 + 1, "the author's karma")
        self.assertRegex(webtest.stored_text(self.srv.path("arc"), "news/vote/alice") or "",
                         r"\(%d\b" % vid, "the vote is not in alice's votes")
        # voted: no arrow any more, and a second vote does nothing
        self.assertIsNone(self.vote_link(self.view("alice", "/item?id=%d" % vid), vid))
        self.follow("alice", link)
        self.assertEqual(self.score(vid), score0 + 1)
        self.assertEqual(self.karma("bob"), karma0 + 1)
        # shown in alice's saved stories
        self.assertIn("Vote target story", self.view("alice", "/saved?id=alice").text)

    def test_vote_with_wrong_auth_does_nothing(self):
        vid = self.items["vote-auth"]
        score0, karma0 = self.score(vid), self.karma("bob")
        good = self.vote_link(self.view("carol", "/item?id=%d" % vid), vid)
        self.assertIsNotNone(good)
        for bad in (re.sub(r"auth=[^&]*", "auth=NotTheRightCookie123", good),
                    re.sub(r"auth=[^&]*", "auth=", good),
                    re.sub(r"&?auth=[^&]*", "", good),
                    re.sub(r"by=[^&]*", "by=alice", good)):
            st, body, _ = self.follow("carol", bad)
            self.assertIn(st, (200, 404), bad)
            self.assertEqual(self.score(vid), score0, "a vote counted with %s" % bad)
        # alice's link followed with carol's cookie: by does not match
        alink = self.vote_link(self.view("alice", "/item?id=%d" % vid), vid)
        self.follow("carol", alink)
        self.assertEqual(self.score(vid), score0)
        self.assertEqual(self.karma("bob"), karma0)
        # a visitor with a made-up link
        self.follow(None, "/vote?for=%d&dir=up&by=carol&auth=%s&whence=news"
                    % (vid, self.cookies["carol"]))
        self.assertEqual(self.score(vid), score0, "a visitor's vote counted")

    def test_visitor_sees_no_vote_arrows_that_work(self):
        vid = self.items["vote-anon"]
        p = self.view(None, "/item?id=%d" % vid)
        s0 = self.score(vid)
        link = self.vote_link(p, vid)
        if link:
            self.follow(None, link)
        self.assertEqual(self.score(vid), s0)

    def test_downvote_comment(self):
        # Down-votes: on comments, by users with karma over 200 (alice), not
        # on replies to oneself (talk-c1 answers alice's story: no arrow).
        cid = self.items["talk-c2"]  # carol's reply to bob
        self.assertIsNone(self.vote_link(self.view("dave", "/item?id=%d" % cid), cid, "down"),
                          "a down arrow for dave (karma 1)")
        c1 = self.items["talk-c1"]
        self.assertIsNone(self.vote_link(self.view("alice", "/item?id=%d" % c1), c1, "down"),
                          "a down arrow for alice on a reply to her story")
        score0, karma0 = self.score(cid), self.karma("carol")
        down = self.vote_link(self.view("alice", "/item?id=%d" % cid), cid, "down")
        self.assertIsNotNone(down, "no down arrow for alice (karma 300) on a comment")
        self.follow("alice", down)
        self.assertEqual(self.score(cid), score0 - 1)
        self.assertEqual(self.karma("carol"), karma0 - 1, "the author's karma after a down-vote")
        self.follow("alice", down)
        self.assertEqual(self.score(cid), score0 - 1, "a second down-vote counted")

    def test_no_downvote_arrows_on_stories(self):
        p = self.view("alice", "/item?id=%d" % self.items["rank-old"])
        self.assertIsNone(self.vote_link(p, self.items["rank-old"], "down"))

    # ---- flagging ----

    def test_flag(self):
        fid = self.items["flag"]
        p = self.view("alice", "/item?id=%d" % fid)
        flag = p.link("flag")
        self.assertIsNotNone(flag, "no flag link for alice (karma 300)")
        self.assertIsNone(self.view("carol", "/item?id=%d" % fid).link("flag"),
                          "a flag link for carol (karma 1)")
        st, body, _ = self.follow("alice", flag, "/item?id=%d" % fid)
        self.assertEqual(st, 200)
        p = self.view("alice", "/item?id=%d" % fid)
        self.assertIsNotNone(p.link("unflag"), "no unflag link after flagging")
        self.assertIn("Flag target story", self.view("boss", "/flagged").text)
        # unflag
        self.follow("alice", p.link("unflag"), "/item?id=%d" % fid)
        self.assertIsNotNone(self.view("alice", "/item?id=%d" % fid).link("flag"))

    # ---- editing and deleting ----

    def test_edit_own_story(self):
        self.submit("alice", "Editable story", "http://edit.example.com/")
        sid = self.story_id("Editable story")
        p = self.view("alice", "/item?id=%d" % sid)
        self.assertIsNotNone(p.link("edit"), "no edit link for the author")
        self.assertIsNone(self.view("bob", "/item?id=%d" % sid).link("edit"),
                          "an edit link for bob on alice's story")
        ep = self.view("alice", "/edit?id=%d" % sid)
        forms = [f for f in ep.forms if "title" in f.fields]
        self.assertTrue(forms, "no edit form: %r" % ep.forms)
        form = forms[0]
        # bob may not use the page, nor alice's form
        bp = self.view("bob", "/edit?id=%d" % sid)
        self.assertFalse([f for f in bp.forms if "title" in f.fields], "bob gets an edit form")
        self.client("bob").submit(form, {"title": "Bob was here"}, base="/edit")
        self.assertNotIn("Bob was here", self.view(None, "/item?id=%d" % sid).text)
        st, body, _ = self.client("alice").submit(form, {"title": "Edited story title"},
                                                  base="/edit")
        self.assertEqual(st, 200)
        p = self.view(None, "/item?id=%d" % sid)
        self.assertIn("Edited story title", p.text)
        self.assertNotIn("Editable story", p.text)

    def test_edit_refused_after_window_and_for_others(self):
        # The seeded text post is alice's, two hours old: past user-changetime* (120)
        sid = self.items["talk"]  # alice's, three hours old
        p = self.view("alice", "/edit?id=%d" % sid)
        self.assertFalse([f for f in p.forms if "title" in f.fields],
                         "alice may edit a 3-hour-old story")
        p = self.view("bob", "/edit?id=%d" % self.items["talk-c1"])  # bob's, 2 h
        self.assertFalse([f for f in p.forms if "text" in f.fields],
                         "bob may edit a 2-hour-old comment")

    def test_edit_own_comment(self):
        page, _ = self.comment("dave", "/item?id=%d" % self.items["text"], "Dave wrote this")
        p = self.view(None, "/item?id=%d" % self.items["text"])
        cid = self.reply_id_after(p, "Dave wrote this")
        ep = self.view("dave", "/edit?id=%d" % cid)
        forms = [f for f in ep.forms if "text" in f.fields]
        self.assertTrue(forms, "no edit form for dave's comment")
        self.assertIn("Dave wrote this", forms[0].fields["text"])
        self.assertFalse([f for f in self.view("alice", "/edit?id=%d" % cid).forms
                          if "text" in f.fields], "alice may edit dave's comment")
        self.client("dave").submit(forms[0], {"text": "Dave rewrote this"}, base="/edit")
        self.assertIn("Dave rewrote this", self.view(None, "/item?id=%d" % cid).text)

    def test_delete_own_story(self):
        self.submit("bob", "Deletable story", "http://delete.example.com/")
        sid = self.story_id("Deletable story")
        self.assertIsNone(self.view("alice", "/item?id=%d" % sid).link("delete"),
                          "a delete link for alice on bob's story")
        p = self.view("bob", "/item?id=%d" % sid)
        dl = p.link("delete")
        self.assertIsNotNone(dl, "no delete link for the author")
        st, body, path = self.follow("bob", dl, "/item?id=%d" % sid)
        conf = Page(body)
        self.assertTrue(conf.forms, "no confirmation form: %s" % conf.text[:300])
        form = conf.forms[0]
        yes = [v for n, v in form.submits if v.lower().startswith("yes")]
        self.assertTrue(yes, "no Yes button: %r" % form.submits)
        self.client("bob").submit(form, button=yes[0], base=path)
        self.assertNotIn("Deletable story", self.view(None, "/newest").text)
        self.assertNotIn("Deletable story", self.view("alice", "/item?id=%d" % sid).text)
        self.assertNotIn("Deletable story", self.view(None, "/submitted?id=bob").text)

    # ---- killing ----

    def test_admin_kills_story(self):
        kid = self.items["kill"]
        self.assertIn("Kill target story", self.view(None, "/news").text)
        p = self.view("boss", "/item?id=%d" % kid)
        kill = p.link("kill")
        self.assertIsNotNone(kill, "no kill link for the admin")
        self.assertIsNone(self.view("alice", "/item?id=%d" % kid).link("kill"))
        # alice following the admin's link does nothing
        self.follow("alice", kill, "/item?id=%d" % kid)
        self.assertIn("Kill target story", self.view(None, "/news").text)
        self.follow("boss", kill, "/item?id=%d" % kid)
        # gone for others: front page, newest, its page
        for u in (None, "alice"):
            self.assertNotIn("Kill target story", self.view(u, "/news").text)
            self.assertNotIn("Kill target story", self.view(u, "/newest").text)
            self.assertNotIn("Kill target story", self.view(u, "/item?id=%d" % kid).text)
        # shown as [dead] to those who see dead: the admin, a user with
        # showdead on; its author still sees it (as Arc 3.1, unmarked)
        self.assertIn("Kill target story", self.view("bob", "/item?id=%d" % kid).text)
        f = self.view("carol", "/user?id=carol").form_with("showdead")
        self.client("carol").submit(f, {"showdead": "yes"}, base="/user?id=carol")
        for u in ("boss", "carol"):
            p = self.view(u, "/item?id=%d" % kid)
            self.assertIn("Kill target story", p.text, u)
            self.assertIn("[dead]", p.text, u)
        self.assertNotIn("Kill target story", self.view("alice", "/item?id=%d" % kid).text)
        self.assertIn("Kill target story", self.view("boss", "/killed").text)
        self.assertIsNotNone(self.view("boss", "/item?id=%d" % kid).link("un-kill"))

    # ---- list rows, kept for plain viewers (pages.arc's shared-row) ----

    def list_score(self, p, sid):
        m = re.search(r"<span id=score_%d>(-?\d+) points?</span>" % sid, p.body)
        return int(m.group(1)) if m else None

    def test_list_rows_follow_changes(self):
        # A list page keeps each story's title and byline for the viewers
        # who see it as a visitor does (bob: no showdead, not an editor); what
        # they see must follow each change, and what depends on the viewer
        # must stay the viewer's.
        self.submit("dave", "Shared row story", "http://shared-row.example.com/a")
        sid = self.story_id("Shared row story")
        for u in (None, "bob", "bob"):  # the second bob: from the kept row
            p = self.view(u, "/newest")
            self.assertIn("Shared row story", p.text, u)
            self.assertEqual(self.list_score(p, sid), 1, u)
            self.assertNotIn("edit?id=%d" % sid, p.body, "an edit link for %s" % u)
        p = self.view("dave", "/newest")
        self.assertIn("edit?id=%d" % sid, p.body, "no edit link for the author on a list")
        self.assertIsNotNone(p.link("delete"), "no delete link for the author on a list")
        self.assertNotIn('id=up_%d ' % sid, p.body, "an arrow for the author")
        # a vote: every viewer's row shows it, and the voter's arrow is gone
        link = self.vote_link(self.view("alice", "/newest"), sid)
        self.assertIsNotNone(link, "no arrow for alice on /newest")
        self.assertIn("by=alice", link)
        self.follow("alice", link)
        for u in (None, "bob", "alice"):
            self.assertEqual(self.list_score(self.view(u, "/newest"), sid), 2, u)
        self.assertIsNone(self.vote_link(self.view("alice", "/newest"), sid), "alice's arrow after voting")
        dl = self.vote_link(self.view("bob", "/newest"), sid)
        self.assertIsNotNone(dl, "bob lost his arrow to alice's vote")
        self.assertIn("by=bob", dl)
        self.assertNotIn("by=alice", dl)
        # an edit of the title
        ep = self.view("dave", "/edit?id=%d" % sid)
        form = [f for f in ep.forms if "title" in f.fields][0]
        self.client("dave").submit(form, {"title": "Shared row edited"}, base="/edit")
        for u in (None, "bob"):
            t = self.view(u, "/newest").text
            self.assertIn("Shared row edited", t, u)
            self.assertNotIn("Shared row story", t, u)
        # a kill: gone for plain viewers, [dead] for the admin on the same list
        kill = self.view("boss", "/item?id=%d" % sid).link("kill")
        self.follow("boss", kill, "/item?id=%d" % sid)
        for u in (None, "bob"):
            self.assertNotIn("Shared row edited", self.view(u, "/newest").text, u)
        t = self.view("boss", "/newest").text
        self.assertIn("Shared row edited", t)
        self.assertIn("[dead]", t)

    def test_comment_bodies_follow_changes(self):
        # A comment body in a tree is kept for visitors and plain viewers
        # (dave), but the author's; a vote shows on the next view.
        sid, cid = self.items["talk"], self.items["talk-c1"]
        path = "/item?id=%d" % sid
        for u in (None, "dave", "dave"):  # the second dave: the kept body
            self.assertIn("First seeded comment", self.view(u, path).text, u)
        s0 = self.list_score(self.view("dave", path), cid)
        self.assertIsNotNone(s0, "no score for the comment in dave's view")
        link = self.vote_link(self.view("alice", path), cid)
        self.assertIsNotNone(link, "no arrow for alice on the comment")
        self.follow("alice", link)
        for u in (None, "dave", "alice"):
            self.assertEqual(self.list_score(self.view(u, path), cid), s0 + 1, u)
        dl = self.vote_link(self.view("dave", path), cid)
        self.assertIsNotNone(dl, "dave lost his arrow on the comment")
        self.assertIn("by=dave", dl)

    # ---- ranking ----

    def test_ranking_order(self):
        for u in (None, "alice"):
            p = self.view(u, "/news")
            self.assert_order(p.text, "Ranking hot story", "Ranking newer story",
                              "Ranking older story", )
            # score-1 fillers rank 0: below every voted story
            self.assert_order(p.text, "Ranking older story", "Filler story number")

    # ---- noprocrast ----

    def test_noprocrast(self):
        p = self.view("dave", "/user?id=dave")
        f = p.form_with("noprocrast", "maxvisit", "minaway")
        self.assertIsNotNone(f, "no noprocrast fields on dave's profile")
        self.assertIn("Ranking hot story", self.view("dave", "/news").text)
        st, body, _ = self.client("dave").submit(
            f, {"noprocrast": "yes", "maxvisit": "1", "minaway": "180"}, base="/user?id=dave")
        self.assertEqual(st, 200)
        p = self.view("dave", "/user?id=dave")
        f = p.form_with("noprocrast", "maxvisit", "minaway")
        self.assertEqual((f.fields["noprocrast"], f.fields["maxvisit"], f.fields["minaway"]),
                         ("yes", "1", "180"))
        # the visit has just begun: the site is there
        self.assertIn("Ranking hot story", self.view("dave", "/news").text)
        # five minutes later (the server's test clock): past maxvisit
        self.assertEqual(self.client().get("/nt-warp?u=dave&min=5")[1], "warped")
        p = self.view("dave", "/news")
        self.assertRegex(p.text, r"(?i)procrastinat|get back to work")
        self.assertNotIn("Ranking hot story", p.text)
        self.assertIn("Ranking hot story", self.view("alice", "/news").text)
        self.assertIn("Ranking hot story", self.view(None, "/news").text)
        # after minaway (180 minutes) away, a new visit
        self.client().get("/nt-warp?u=dave&min=200")
        self.assertIn("Ranking hot story", self.view("dave", "/news").text)

    # ---- what users type, shown as text ----

    def test_escaped_submitted_title(self):
        title = "Sub " + EVIL
        st, p, path = self.submit("carol", title, "http://escsub.example.com/")
        for u in (None, "carol", "boss"):
            p = self.view(u, "/newest")
            self.assertIn(title, p.text, "the title is not shown as text")

    def test_escaped_submitted_url(self):
        url = "http://escurl.example.com/?a=\"'<script>alert(1)</script>"
        st, p, path = self.submit("carol", "Quoted url story", url)
        for u in (None, "boss"):
            p = self.view(u, "/newest")  # refused or shown: never markup
            if "Quoted url story" in p.text:
                self.assertIn(url, p.hrefs())

    def test_escaped_comment_form(self):
        talk = self.items["talk"]
        self.comment("carol", "/item?id=%d" % talk, "Carol says " + EVIL)
        for u in (None, "alice", "boss"):
            p = self.view(u, "/item?id=%d" % talk)
            self.assertIn("Carol says " + EVIL, p.text)

    def test_escaped_profile_about(self):
        p = self.view("carol", "/user?id=carol")
        f = p.form_with("about")
        self.assertIsNotNone(f, "no about field on carol's profile")
        self.client("carol").submit(f, {"about": "About " + EVIL}, base="/user?id=carol")
        for u in (None, "alice", "boss", "carol"):
            p = self.view(u, "/user?id=carol")
            self.assertIn("About " + EVIL, p.text, "about as %s" % u)
        # carol's own form gives the text back as it was typed
        f = self.view("carol", "/user?id=carol").form_with("about")
        self.assertEqual(f.fields["about"].strip(), "About " + EVIL)

    # ---- the profile form redirects ----

    def test_profile_update_redirects_to_the_profile(self):
        p = self.view("bob", "/user?id=bob")
        f = p.form_with("about")
        self.assertIsNotNone(f, "no about field on bob's profile")
        c = self.client("bob")
        st, _, _ = c.post(abs_path(f.action, "/user?id=bob"),
                          f.values({"about": "Bob writes redirects"}), follow=False)
        # a redirect to the profile, so the address bar shows it and a
        # reload does not post the form again
        self.assertIn(st, (302, 303))
        self.assertEqual(abs_path(c.last_headers.get("location", ""), "/r"), "/user?id=bob")
        p = self.view("bob", "/user?id=bob")
        self.assertEqual(p.form_with("about").fields["about"].strip(), "Bob writes redirects")
        self.assertIn("Bob writes redirects", self.view(None, "/user?id=bob").text)
        # someone else's cookie on bob's form changes nothing
        f = self.view("bob", "/user?id=bob").form_with("about")
        self.client("carol").post(abs_path(f.action, "/user?id=bob"),
                                  f.values({"about": "Carol was here"}))
        self.assertNotIn("Carol was here", self.view(None, "/user?id=bob").text)

    def test_escaped_poll_from_form(self):
        p = self.view("alice", "/newpoll")
        forms = [f for f in p.forms if len(f.fields) >= 2]
        self.assertTrue(forms, "no poll form")
        f = forms[0]
        names = list(f.fields)
        title = "t" if "t" in names else "title"
        opts = "o" if "o" in names else [n for n in names if "opt" in n or "choice" in n][0]
        ptitle = "Poll " + EVIL[:40]
        self.client("alice").submit(f, {title: ptitle,
                                        opts: "Option " + EVIL + "\n\nSecond option"},
                                    base="/newpoll")
        # found by the words that survive any stripping of tags
        newest = self.view(None, "/newest")
        links = [(h or "", t) for h, t in newest.links]
        at = [n for n, (h, t) in enumerate(links) if t.startswith("Poll ") and "dq" in t]
        self.assertTrue(at, "the poll is not on /newest")
        pid = next(int(re.match(r"/?item\?id=(\d+)", h).group(1)) for h, _ in links[at[0]:]
                   if re.match(r"/?item\?id=\d+", h))
        for u in (None, "alice", "boss"):
            pp = self.view(u, "/item?id=%d" % pid)
            self.assertIn("Second option", pp.text)
            shown = [x for x in pp.strings if "Poll " in x or "Option " in x]
            self.assertIn(ptitle, pp.text, "the poll's title is not shown as text: %r" % shown)
            self.assertIn("Option " + EVIL, pp.text,
                          "the poll's option is not shown as text: %r" % shown)


if __name__ == "__main__":
    webtest.main()
