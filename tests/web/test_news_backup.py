"""Backups of a running news site (news.arc --backup, --restore;
store.arc's store-snapshot), under write load:

- three users submit stories as fast as they can while
  `news.arc --data DIR --backup DEST` runs; every story acknowledged
  before the backup began is in DEST, every file of DEST reads whole, and
  each story's author has his profile and votes there;
- --restore refuses while the server runs; with it stopped, the data
  directory becomes the backup (what it held moved aside into
  replaced-DATE/, stories acknowledged after the backup with it), and the
  site started on it serves every story of the backup;
- --backup with no server running, or into a folder that exists, fails
  and says why.

The server is servers/news_crash.arc (news.arc with the rate limits on
submissions lifted).

usage: python3 tests/web/test_news_backup.py path/to/arcana
"""
import glob
import os
import re
import shutil
import sys
import tempfile
import threading
import time
import unittest

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import test_news_crash as crash  # noqa: E402
import webtest  # noqa: E402

USERS = ["ann", "bob", "cat"]


def stories_in(data):
    """title -> story table, of every story file under data; fails on a
    file that does not read whole."""
    out = {}
    for p in glob.glob(os.path.join(data, "news", "story", "*")):
        t = crash.as_table(crash.read_arc_file(p), p)
        if t.get("type") == crash.Sym("story"):
            out[t.get("title")] = t
    return out


class BackupTest(unittest.TestCase):

    def setUp(self):
        self.work = tempfile.mkdtemp(prefix="arcana-news-backup-")
        self.srv = crash.NewsServer(self.work)
        self.addCleanup(shutil.rmtree, self.work, True)
        self.addCleanup(self.srv.kill)

    def command(self, *args):
        return crash.news_command(self.srv.data, *args, cwd=self.work)

    def writer(self, site, user, cookie, acked, stop, errors):
        n = 0
        while not stop.is_set():
            n += 1
            title = "Backup load %s %d" % (user, n)
            try:
                form, why = site.submit_form(cookie)
                if form is None:
                    errors.append(why)
                    return
                st, headers, _ = site.post_story(form, cookie, title,
                                                 "http://example.com/backup/%s/%d" % (user, n))
            except OSError as e:
                errors.append("%s: %s" % (title, e))
                return
            loc = headers.get("location", "")
            if 300 <= st < 400 and re.search(r"item\?id=\d+|(^|/)newest$", loc):
                acked.append((title, time.time()))
            else:
                errors.append("%s: %d %s" % (title, st, loc))
                return

    def test_backup_under_load_and_restore(self):
        srv = self.srv
        srv.start(script=crash.CRASH_SCRIPT)
        site = crash.Site(srv)
        cookies = {u: site.create_account(u, "backup-pw-" + u) for u in USERS}
        acked, errors, stop = [], [], threading.Event()
        threads = [threading.Thread(target=self.writer,
                                    args=(site, u, cookies[u], acked, stop, errors))
                   for u in USERS]
        for t in threads:
            t.start()
        try:
            # some load first: 20 stories (however slow the machine)
            deadline = time.time() + 30
            while len(acked) < 20 and not errors and time.time() < deadline:
                time.sleep(0.05)
            began = time.time()
            dest = os.path.join(self.work, "backup-1")
            st, out, err = self.command("--backup", dest)
            ended = time.time()
            # until some stories were acknowledged after it (or a writer failed)
            deadline = ended + 10
            while (time.time() < deadline and not errors
                   and not any(when > ended for _, when in acked)):
                time.sleep(0.05)
        finally:
            stop.set()
            for t in threads:
                t.join(30)
        self.assertEqual(errors, [])
        self.assertEqual(st, 0, out + err)
        self.assertIn("backed up", out)
        before = [t for t, when in acked if when < began]
        after = [t for t, when in acked if when > ended]
        self.assertGreater(len(before), 10, "too little load before the backup")
        self.assertTrue(after, "no story acknowledged after the backup: no load during it")

        saved = stories_in(dest)  # every file reads whole
        missing = [t for t in before if t not in saved]
        self.assertEqual(missing, [], "acknowledged before the backup, not in it")
        for p in glob.glob(os.path.join(dest, "news", "*", "*")):
            crash.read_arc_file(p)
        for u in USERS:
            prof = crash.as_table(crash.read_arc_file(os.path.join(dest, "news", "profile", u)), u)
            self.assertEqual(prof.get("id"), u)
            crash.read_arc_file(os.path.join(dest, "news", "vote", u))
        # the secrets' files are copied with their mode; nothing of the
        # server's own (logs, control file, snapshots) is
        self.assertEqual(os.stat(os.path.join(dest, "hpw")).st_mode & 0o777, 0o600)
        for name in ("logs", "control", "backups"):
            self.assertFalse(os.path.exists(os.path.join(dest, name)), name)
        self.assertEqual(os.listdir(os.path.join(srv.data, "backups")), [],
                         "the snapshot was left behind")

        # not into a folder that exists
        st, out, err = self.command("--backup", dest)
        self.assertEqual(st, 1, out + err)
        self.assertIn("exists already", err)
        # no restore while the server runs
        st, out, err = self.command("--restore", dest)
        self.assertEqual(st, 1, out + err)
        self.assertIn("stop it first", err)

        srv.kill()
        st, out, err = self.command("--backup", os.path.join(self.work, "backup-2"))
        self.assertEqual(st, 1, out + err)
        self.assertIn("no news server runs", err)

        st, out, err = self.command("--restore", dest)
        self.assertEqual(st, 0, out + err)
        now = stories_in(srv.data)
        self.assertEqual(set(now), set(saved), "the data is not the backup's")
        aside = glob.glob(os.path.join(srv.data, "replaced-*"))
        self.assertEqual(len(aside), 1, os.listdir(srv.data))
        self.assertTrue(set(after) <= set(stories_in(aside[0])), "the replaced data was lost")

        srv.start(script=crash.CRASH_SCRIPT)
        for title in before[:5] + before[-5:]:
            sid = now[title].get("id")
            status, _, body = srv.get("/item?id=%d" % sid)
            self.assertEqual(status, 200)
            self.assertIn(title, body.decode("utf-8", "replace"))
        # the restored sessions still log their users in: the submit
        # form, not the login page
        status, _, body = srv.get("/submit", cookie=cookies["ann"])
        self.assertEqual(status, 200)
        self.assertIn('name="t"', body.decode("utf-8", "replace"))


if __name__ == "__main__":
    webtest.main()
