"""Running a site (apps/news/operate.arc, news.arc's command line): the
first admin, a lost password, the site's identity.

- a site started with --no-demo on an empty data directory has no admin
  and says how to make one; `--admin NAME` makes NAME an admin and its
  account, printing the password once, and exits; that password logs in
  and the admin pages open; `--new-password NAME` gives another, and the
  old one no longer logs in; neither runs while a server runs on the
  data; a bad name is refused;
- the settings file DIR/site and the options (--name, --url ...) set the
  site's name, address, parent, colour, logo and favicon, printed at the
  start and seen in the pages and the RSS feed; the options win over the
  file; a bad value stops the start.

usage: python3 tests/web/test_news_operate.py path/to/arcana
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
from webtest import NewsClient, Page  # noqa: E402


class OperateTest(unittest.TestCase):

    def setUp(self):
        self.work = tempfile.mkdtemp(prefix="arcana-news-operate-")
        self.srv = crash.NewsServer(self.work)
        self.addCleanup(shutil.rmtree, self.work, True)
        self.addCleanup(self.srv.kill)

    def command(self, *args):
        return crash.news_command(self.srv.data, *args, cwd=self.work)

    def login(self, user, pw, src="127.0.0.31"):
        """A client logged in as user with pw, or None if refused."""
        c = NewsClient(self.srv, None, src)
        st, body, final = c.get("/login")
        f = Page(body).form_with("u", "p")
        self.assertIsNotNone(f, "no login form")
        st, body, _ = c.submit(f, {"u": user, "p": pw}, base=final)
        self.assertEqual(st, 200, body[:500])
        return c if c.cookie else None

    # ---- the first admin ----

    def test_first_admin(self):
        self.srv.start()
        self.assertIn("No admin yet", self.srv.stdout())
        self.assertIn("--admin NAME", self.srv.stdout())
        # not while a server runs on the data
        st, out, err = self.command("--admin", "boss")
        self.assertEqual(st, 1, out + err)
        self.assertIn("stop it first", err)
        self.assertFalse(os.path.exists(os.path.join(self.srv.data, "admins")))
        self.srv.kill()

        st, out, err = self.command("--admin", "boss")
        self.assertEqual(st, 0, out + err)
        m = re.search(r"admin account: boss password: (\S+) — shown once", out)
        self.assertIsNotNone(m, out)
        pw = m.group(1)
        self.assertIn("/login", out)
        self.assertEqual(crash.read_arc_file(os.path.join(self.srv.data, "admins")),
                         crash.Sym("boss"))
        # again: already an admin, no new password
        st, out, err = self.command("--admin", "boss")
        self.assertEqual(st, 0, out + err)
        self.assertIn("boss is an admin", out)
        self.assertNotIn("shown once", out)

        self.srv.start()
        self.assertNotIn("No admin yet", self.srv.stdout())
        boss = self.login("boss", pw)
        self.assertIsNotNone(boss, "the printed password does not log in")
        st, body, _ = boss.get("/newsadmin")
        self.assertEqual(st, 200)
        self.assertIn("comment-kill", body, "boss does not get the admin page")
        self.srv.kill()

        # a lost password: another, and the old one no longer works
        st, out, err = self.command("--new-password", "boss")
        self.assertEqual(st, 0, out + err)
        m = re.search(r"new password for boss: (\S+) — shown once", out)
        self.assertIsNotNone(m, out)
        self.srv.start()
        self.assertIsNone(self.login("boss", pw, "127.0.0.32"), "the old password still works")
        self.assertIsNotNone(self.login("boss", m.group(1), "127.0.0.33"))
        # boss's old session ended
        st, body, _ = boss.get("/newsadmin")
        self.assertNotIn("comment-kill", body)

    def test_bad_names_refused(self):
        for args in (["--admin", "a b"], ["--admin", "x"], ["--new-password", "nobody"],
                     ["--admin", "ok", "--backup", "x"]):
            st, out, err = self.command(*args)
            self.assertIn(st, (1, 2), (args, out, err))
            self.assertTrue(err.strip(), args)
        self.assertFalse(os.path.exists(os.path.join(self.srv.data, "admins")))

    # ---- the site's identity ----

    def test_identity_from_file_and_options(self):
        os.makedirs(self.srv.data)
        with open(os.path.join(self.srv.data, "site"), "w") as f:
            f.write('((name "Filed News") (url "https://news.filed.org") '
                    '(parent-url "https://filed.org") (color "#336699") '
                    '(description "Filed stories"))\n')
        self.srv.start(extra=["--name", "Optioned News", "--logo", "https://cdn.filed.org/l.png",
                              "--favicon", "https://cdn.filed.org/f.ico"])
        out = self.srv.stdout()
        line = re.search(r"^site: .*$", out, re.M)
        self.assertIsNotNone(line, out)
        for want in ("Optioned News", "https://news.filed.org/", "https://filed.org",
                     "#336699", "https://cdn.filed.org/l.png", "https://cdn.filed.org/f.ico"):
            self.assertIn(want, line.group(0))
        c = NewsClient(self.srv, None, "127.0.0.34")
        st, body, _ = c.get("/news")
        self.assertEqual(st, 200)
        p = Page(body)
        self.assertIn("Optioned News", p.text)
        self.assertNotIn("Filed News", p.text)
        self.assertIn("https://filed.org", p.hrefs())
        self.assertIn("336699", body)
        self.assertIn('src="https://cdn.filed.org/l.png"', body)
        st, body, _ = c.get("/rss")
        self.assertEqual(st, 200)
        self.assertIn("<link>https://news.filed.org/</link>", body)
        self.assertIn("<description>Filed stories</description>", body)
        st, headers, _ = c.request("GET", "/favicon.ico")
        self.assertEqual(headers.get("location"), "https://cdn.filed.org/f.ico")

    def test_defaults_printed(self):
        self.srv.start()
        self.assertRegex(self.srv.stdout(),
                         r"(?m)^site: Arcana News at http://news\.example\.com/ .*#ff6600")

    def test_bad_settings_stop_the_start(self):
        for args in (["--color", "orange"], ["--url", "ftp://x.org/"], ["--name", ""]):
            st, out, err = self.command(*args)
            self.assertEqual(st, 2, (args, out, err))
            self.assertNotIn("Serving", out)
        os.makedirs(self.srv.data, exist_ok=True)
        with open(os.path.join(self.srv.data, "site"), "w") as f:
            f.write('((colour "ff0000"))\n')
        st, out, err = self.command()
        self.assertEqual(st, 2, out + err)
        self.assertIn("unknown site setting colour", err)


if __name__ == "__main__":
    webtest.main()
