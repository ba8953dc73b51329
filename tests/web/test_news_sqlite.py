"""The news site's SQLite store (apps/news/store-sqlite.arc) around its
edges: what the other news tests, run over it as web-sqlite/NAME, do not
reach.

- Conversion each way: the seeded data of servers/newsserver.arc (Arc
  3.1's files) read into a database (news.arc --store sqlite --import),
  written back out (--export), and every file that comes out is the one
  that went in, byte for byte; the site then serves from the database,
  with the accounts and sessions of the files (a seeded login cookie
  still logs in). Importing into a store that holds data, and exporting
  over a folder that exists, are refused.
- Errors at the start: a corrupt database file, and a database path
  that cannot be opened (a folder in its place), stop news.arc with
  status 1 and SQLite's reason on stderr, not a crash.
- Workers (arcana --workers 2): each worker, forked after the store
  opened the database, opens it again for itself (a connection is not
  used across a fork): an account made on a worker is stored, and the
  pages answer from both. (That the workers see each other's changes is
  test_news_workers.py's.)
- A backup of a running site on SQLite (--backup: VACUUM INTO under the
  lock) is a database that passes SQLite's integrity check and holds
  what the site had acknowledged.

usage: python3 tests/web/test_news_sqlite.py path/to/arcana
"""
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import webtest  # noqa: E402
import test_news_crash as crash  # noqa: E402

NEWS = crash.NEWS
SQLITE = ["--store", "sqlite"]


def layout_files(d):
    """{path: bytes} of the files of Arc 3.1's layout under d that hold the
    site's data (store.arc's %store-layout-entries): app.arc's at the top,
    news/ and its story, profile and vote folders, no FILE.tmp."""
    out = {}
    for name in ("hpw", "openids", "cooks", "sessions", "admins"):
        p = os.path.join(d, name)
        if os.path.isfile(p):
            with open(p, "rb") as f:
                out[name] = f.read()
    for sub in ("news", "news/story", "news/profile", "news/vote"):
        folder = os.path.join(d, sub)
        for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
            p = os.path.join(folder, name)
            if os.path.isfile(p) and not name.endswith(".tmp"):
                with open(p, "rb") as f:
                    out[sub + "/" + name] = f.read()
    return out


def webtest_stored_hpw(data):
    c = sqlite3.connect(os.path.join(data, "news.db"))
    try:
        row = c.execute("SELECT data FROM files WHERE path = 'hpw'").fetchone()
        return row[0] if row else ""
    finally:
        c.close()


class NewsSqliteTest(unittest.TestCase):

    def setUp(self):
        self.work = tempfile.mkdtemp(prefix="arcana-news-sqlite-")
        self.addCleanup(shutil.rmtree, self.work, True)

    def command(self, data, *args):
        """news.arc --store sqlite --data data ARGS: (status, stdout, stderr)."""
        p = subprocess.run([webtest.ARCANA, NEWS] + SQLITE + ["--data", data] + list(args),
                           cwd=self.work, stdin=subprocess.DEVNULL, capture_output=True,
                           timeout=60, preexec_fn=webtest._child_setup)
        return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")

    def seeded_files(self):
        """servers/newsserver.arc's data directory (files), copied here once
        its server is gone; and its stdout (cookies, item ids)."""
        srv = webtest.Server("newsserver.arc").start(timeout=60)
        try:
            out = srv.stdout()
            files = os.path.join(self.work, "files")
            shutil.copytree(srv.path("arc"), files)
        finally:
            srv.stop()
        return files, out

    def test_round_trip_and_serving_from_the_database(self):
        files, out = self.seeded_files()
        before = layout_files(files)
        self.assertGreater(len([p for p in before if p.startswith("news/story/")]), 80)
        for name in ("hpw", "sessions", "admins", "news/topstories"):
            self.assertIn(name, before)
        db = os.path.join(self.work, "db")
        st, so, se = self.command(db, "--import", files)
        self.assertEqual(st, 0, so + se)
        self.assertIn("imported %d files" % len(before), so)
        self.assertTrue(os.path.isfile(os.path.join(db, "news.db")))
        self.assertEqual(os.stat(os.path.join(db, "news.db")).st_mode & 0o777, 0o600)
        # the rows are the files' texts
        c = sqlite3.connect(os.path.join(db, "news.db"))
        try:
            n_items = c.execute("SELECT count(*) FROM items").fetchone()[0]
            self.assertEqual(c.execute("PRAGMA journal_mode").fetchone()[0], "wal")
        finally:
            c.close()
        self.assertEqual(n_items, len([p for p in before if p.startswith("news/story/")]))
        # a second import into it is refused: nothing is merged
        st, so, se = self.command(db, "--import", files)
        self.assertEqual(st, 1, so + se)
        self.assertIn("holds data already", se)

        back = os.path.join(self.work, "back")
        st, so, se = self.command(db, "--export", back)
        self.assertEqual(st, 0, so + se)
        after = layout_files(back)
        self.assertEqual(sorted(after), sorted(before))
        diff = [p for p in before if before[p] != after[p]]
        self.assertEqual(diff, [], "files not the same after the round trip")
        for name in ("hpw", "sessions", "cooks"):
            if name in after:
                self.assertEqual(os.stat(os.path.join(back, name)).st_mode & 0o777, 0o600, name)
        st, so, se = self.command(db, "--export", back)
        self.assertEqual(st, 1, so + se)
        self.assertIn("exists already", se)

        # the site serves from the database: the seeded stories, and alice's
        # seeded session (a row of news.db now) still logs her in
        cookie = dict(re.findall(r"^cookie (\S+) (\S+)$", out, re.M))["alice"]
        srv = crash.NewsServer(self.work)
        srv.data = db
        try:
            srv.start(extra=SQLITE)
            status, _, body = srv.get("/news")
            self.assertEqual(status, 200)
            self.assertIn("Ranking hot story", crash.page_text(body))
            status, _, body = srv.get("/news", cookie=cookie)
            self.assertEqual(status, 200)
            self.assertIn("alice", crash.page_text(body))
            self.assertIn("logout", crash.page_text(body))
        finally:
            srv.kill()

    def test_corrupt_database_is_an_error_at_the_start(self):
        bad = os.path.join(self.work, "bad")
        os.mkdir(bad)
        with open(os.path.join(bad, "news.db"), "wb") as f:
            f.write(b"this is not a database, whatever its name says\n" * 100)
        st, so, se = self.command(bad, "--port", "0", "--no-demo")
        self.assertEqual(st, 1, so + se)
        self.assertIn("news.arc: cannot open the news database", se)
        self.assertIn("file is not a database", se)

    def test_unopenable_database_is_an_error_at_the_start(self):
        bad = os.path.join(self.work, "bad")
        os.makedirs(os.path.join(bad, "news.db"))  # a folder where the file goes
        st, so, se = self.command(bad, "--port", "0", "--no-demo")
        self.assertEqual(st, 1, so + se)
        self.assertIn("news.arc: cannot open the news database", se)
        self.assertIn("unable to open database file", se)

    def test_workers_open_the_database_each(self):
        data = os.path.join(self.work, "data")
        srv = crash.NewsServer(self.work)
        srv.data = data
        site = crash.Site(srv)
        # the parent prints srv.arc's ready line (the workers announce nothing)
        out_path = os.path.join(self.work, "workers.out")
        srv.err_path = os.path.join(self.work, "workers.err")
        cmd = [webtest.ARCANA, "--workers=2", "--host=127.0.0.1", NEWS, "--port", "0",
               "--host", "127.0.0.1", "--data", data, "--no-demo"] + SQLITE
        with open(out_path, "wb") as out, open(srv.err_path, "wb") as err:
            srv.proc = subprocess.Popen(cmd, cwd=self.work, stdin=subprocess.DEVNULL, stdout=out,
                                        stderr=err, preexec_fn=webtest._child_setup,
                                        start_new_session=True)
        try:
            deadline = time.time() + 30
            while not srv.port:
                with open(out_path) as f:
                    m = re.search(r"^ready to serve port (\d+)", f.read(), re.M)
                if m:
                    srv.port = int(m.group(1))
                elif srv.proc.poll() is not None or time.time() > deadline:
                    self.fail("the workers did not start: %s" % srv.stderr())
                else:
                    time.sleep(0.05)
            site.create_account("worker1", "workers-pw-1")
            for _ in range(8):
                status, _, body = srv.get("/news")
                self.assertEqual(status, 200, body[:300])
            logs = srv.logs()
        finally:
            srv.kill()
        self.assertIn('"worker1"', webtest_stored_hpw(data))
        self.assertNotIn("another process", logs)

    def test_backup_of_a_running_site(self):
        data = os.path.join(self.work, "data")
        srv = crash.NewsServer(self.work)
        srv.data = data
        site = crash.Site(srv)
        try:
            srv.start(extra=SQLITE)
            cookie = site.create_account("backer", "backup-pw-1")
            form, problem = site.submit_form(cookie)
            self.assertIsNotNone(form, problem)
            status, _, body = site.post_story(form, cookie, "Backed up story",
                                              "http://backup.example.com/")
            self.assertIn(status, (200, 302, 303), body[:500])
            dest = os.path.join(self.work, "copy")
            st, so, se = self.command(data, "--backup", dest)
            self.assertEqual(st, 0, so + se)
        finally:
            srv.kill()
        c = sqlite3.connect(os.path.join(dest, "news.db"))
        try:
            self.assertEqual(c.execute("PRAGMA integrity_check").fetchall(), [("ok",)])
            texts = [r[0] for r in c.execute("SELECT data FROM items")]
            self.assertTrue(any('(title "Backed up story")' in t for t in texts), texts[:3])
            self.assertIsNotNone(c.execute("SELECT data FROM files WHERE path = 'hpw'").fetchone())
        finally:
            c.close()


if __name__ == "__main__":
    webtest.main()
