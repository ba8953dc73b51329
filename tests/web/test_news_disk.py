"""The news site on a full disk: a request whose writes fail is answered
with an error and leaves nothing shown or kept (no story, no vote, no
temporary file), also when some of its files were written before one
failed, so that a retry once there is room makes no duplicate. The data
directory is a small tmpfs that the test fills. Server:
servers/newsserver.arc.

Mounting needs root (or CAP_SYS_ADMIN); without it the test is skipped.

usage: python3 tests/web/test_news_disk.py path/to/arcana
"""
import glob
import os
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import test_news_actions  # noqa: E402
import webtest  # noqa: E402

# Its helpers, not its tests: a TestCase class among this module's globals
# would run here too.
_Actions = test_news_actions.NewsActionsTest


class NewsDiskFullTest(webtest.NewsServerTest):

    view = _Actions.view
    score = _Actions.score
    submit_form = _Actions.submit_form
    submit = _Actions.submit
    story_id = _Actions.story_id
    vote_link = _Actions.vote_link
    follow = _Actions.follow

    @classmethod
    def setup_dir(cls, d):
        # The server's arc/ (its data, accounts and logs) on a tmpfs of
        # its own: room for the seeded site, not for much more.
        cls.mnt = os.path.join(d, "arc")
        os.mkdir(cls.mnt)
        r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", cls.mnt],
                           capture_output=True)
        if r.returncode != 0:
            raise unittest.SkipTest("cannot mount a tmpfs here: %s" % r.stderr.decode().strip())
        # The logs elsewhere, so that what the disk holds is the data's
        # alone (a log on a full disk: tests/unit/test_errors_cli.cpp).
        os.mkdir(os.path.join(d, "logs"))
        os.symlink(os.path.join(d, "logs"), os.path.join(cls.mnt, "logs"))

    @classmethod
    def setUpClass(cls):
        cls.mnt = None
        try:
            super().setUpClass()
        except BaseException:
            cls.unmount()
            raise

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        cls.unmount()

    @classmethod
    def unmount(cls):
        if cls.mnt and os.path.ismount(cls.mnt):
            subprocess.run(["umount", "-l", cls.mnt])
            os.rmdir(cls.mnt)
            os.rmdir(os.path.dirname(cls.mnt))

    def fill(self):
        """Fills the tmpfs to the last page; the filler's path."""
        path = os.path.join(self.mnt, "filler")
        with open(path, "wb", buffering=0) as f:
            try:
                while True:
                    f.write(b"\0" * 65536)
            except OSError:
                pass
            try:
                while True:
                    f.write(b"\0")
            except OSError:
                pass
        self.addCleanup(lambda: os.path.exists(path) and os.remove(path))
        return path

    def news_files(self, pattern):
        return glob.glob(os.path.join(self.mnt, "news", "*", pattern))

    def stories_titled(self, title):
        """How many story files hold title."""
        n = 0
        for f in self.news_files("[0-9]*"):
            with open(f, "rb") as fh:
                n += title.encode() in fh.read()
        return n

    def assert_not_kept(self, title):
        self.assertNotIn(title, self.view(None, "/newest").text)
        self.assertNotIn(title, self.view("bob", "/submitted?id=bob").text)
        self.assertEqual(self.stories_titled(title), 0)
        self.assertEqual(self.news_files("*.tmp"), [])

    def test_a_full_disk_keeps_and_shows_nothing_it_did_not_store(self):
        title = "Written when the disk was full"
        vid = self.items["filler2"]
        score0 = self.score(vid)
        vote = self.vote_link(self.view("alice", "/item?id=%d" % vid), vid)
        self.assertIsNotNone(vote, "no vote link for alice")
        filler = self.fill()

        # Not a page free. A story: refused, nowhere to be seen, nothing on
        # the disk. A vote: refused, the score as it was.
        st, p, _ = self.submit("bob", title=title, text="Some text.")
        self.assertGreaterEqual(st, 500, p.text[:500])
        self.assert_not_kept(title)
        st, body, _ = self.follow("alice", vote)
        self.assertGreaterEqual(st, 500, body[:500])
        self.assertEqual(self.score(vid), score0)
        self.assertEqual(self.news_files("*.tmp"), [])

        # One page free: the new story's file fits, its author's profile
        # then does not. Still refused, and the story's file is gone.
        os.truncate(filler, os.path.getsize(filler) - 4096)
        st, p, _ = self.submit("bob", title=title, text="Some text.")
        self.assertGreaterEqual(st, 500, p.text[:500])
        self.assert_not_kept(title)

        # Room again: the retry is the only copy.
        os.remove(filler)
        st, p, _ = self.submit("bob", title=title, text="Some text.")
        self.assertEqual(st, 200, p.text[:500])
        self.assertEqual(self.view(None, "/newest").text.count(title), 1)
        self.assertEqual(self.stories_titled(title), 1)
        st, body, _ = self.follow("alice", vote)
        self.assertEqual(st, 200, body[:500])
        self.assertEqual(self.score(vid), score0 + 1)

del _Actions

if __name__ == "__main__":
    webtest.main()
