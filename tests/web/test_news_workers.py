"""The news site on two worker processes over one SQLite store (arcana
--workers 2, news.arc --store sqlite): what one worker does, the other
shows at once, and no update is lost (apps/news/store-sqlite.arc's change
log, applied before each request and inside each transaction).

Each test talks to each worker over connections pinned to it: the kernel
spreads new connections over the workers (SO_REUSEPORT), so the test
opens keep-alive connections until it has one on the worker it wants,
and tells which worker holds a connection from /proc (the server-side
socket of the connection, found by its address in /proc/net/tcp, is a
descriptor of one worker's). The data is seeded first by
servers/news_seed.arc (voters with sessions, a story).

- Submit on one, read on the other at once: a story submitted on worker
  0 is on worker 1's /newest, /news and item page on the next request; a
  comment made on worker 1 on it is on worker 0's item page.
- Votes from both workers on one story concurrently (1,000 voters, half on
  each worker, several connections each): the story's score, its votes
  and its author's karma count every one, in the database and on both
  workers' pages.
- A login on one worker is known to the other (its session), and a
  logout on the other ends it on the first.
- A worker killed and started again (forked from the parent's memory of
  the start) shows what was submitted before.
- A closure (srv.arc's fnids) made on one worker and followed on a
  connection the other holds is answered by its maker, the connection
  handed over (io/server.h): the submit form made on worker 0 and posted
  on worker 1 submits the story, and the "log out everywhere" link made
  on worker 1 and followed on worker 0 ends the session.

usage: python3 tests/web/test_news_workers.py path/to/arcana
"""
import html
import http.client
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import webtest  # noqa: E402
import test_news_crash as crash  # noqa: E402
from webtest import children, holder, socket_inode  # noqa: E402

NEWS = crash.NEWS
SEED = os.path.join(webtest.SERVERS, "news_seed.arc")
VOTERS = 1000


class Pinned:
    """A keep-alive connection to one worker, with a user's cookie."""

    def __init__(self, conn, cookie=None):
        self.conn = conn
        self.cookie = cookie

    def request(self, method, path, body=None, cookie=None):
        """(status, headers (lower-cased; set-cookie a list), body). The
        connection must stay open: a closed one would be re-opened on
        whichever worker the kernel picks."""
        headers = {}
        cookie = cookie or self.cookie
        if cookie:
            headers["Cookie"] = "user=" + cookie
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            if not isinstance(body, (bytes, str)):
                body = urllib.parse.urlencode([tuple(kv) for kv in body],
                                              quote_via=urllib.parse.quote)
        if self.conn.sock is None:
            self.conn.connect()
        sock = self.conn.sock
        self.conn.request(method, path, body=body, headers=headers)
        r = self.conn.getresponse()
        data = r.read()
        assert self.conn.sock is sock and sock is not None, "the pinned connection was closed"
        h = {}
        for k, v in r.getheaders():
            k = k.lower()
            if k == "set-cookie":
                h.setdefault(k, []).append(v)
            else:
                h[k] = v
        return r.status, h, data

    def get(self, path, cookie=None):
        return self.request("GET", path, cookie=cookie)

    def close(self):
        self.conn.close()


class NewsWorkersTest(unittest.TestCase):

    def setUp(self):
        self.work = tempfile.mkdtemp(prefix="arcana-news-workers-")
        self.addCleanup(shutil.rmtree, self.work, True)
        self.data = os.path.join(self.work, "data")
        self.ips = 0
        self.proc = None
        self.pinned = []
        self.addCleanup(self.stop)

    # ---- the site --------------------------------------------------------

    def seed(self, voters):
        p = subprocess.run([webtest.ARCANA, SEED, self.data, str(voters)], cwd=self.work,
                           stdin=subprocess.DEVNULL, capture_output=True, timeout=120,
                           preexec_fn=webtest._child_setup)
        out = p.stdout.decode("utf-8", "replace")
        self.assertEqual(p.returncode, 0, out[-2000:] + p.stderr.decode("utf-8", "replace"))
        self.password = re.search(r"^password author (\S+)$", out, re.M).group(1)
        self.story = int(re.search(r"^item (\d+)$", out, re.M).group(1))
        self.users = re.findall(r"^user (\S+) (\S+) (\S+)$", out, re.M)
        self.assertEqual(len(self.users), voters)

    def start(self):
        out_path = os.path.join(self.work, "server.out")
        self.err_path = os.path.join(self.work, "server.err")
        cmd = [webtest.ARCANA, "--workers=2", "--host=127.0.0.1", NEWS, "--port", "0",
               "--host", "127.0.0.1", "--data", self.data, "--no-demo", "--store", "sqlite"]
        with open(out_path, "wb") as out, open(self.err_path, "wb") as err:
            self.proc = subprocess.Popen(cmd, cwd=self.work, stdin=subprocess.DEVNULL,
                                         stdout=out, stderr=err,
                                         preexec_fn=webtest._child_setup,
                                         start_new_session=True)
        deadline = time.time() + 30
        self.port = None
        while not self.port:
            with open(out_path) as f:
                m = re.search(r"^ready to serve port (\d+)", f.read(), re.M)
            if m:
                self.port = int(m.group(1))
            elif self.proc.poll() is not None or time.time() > deadline:
                self.fail("the workers did not start: %s" % self.stderr())
            else:
                time.sleep(0.05)
        deadline = time.time() + 10
        while len(children(self.proc.pid)) != 2 and time.time() < deadline:
            time.sleep(0.02)
        self.workers = children(self.proc.pid)
        self.assertEqual(len(self.workers), 2)

    def stop(self):
        for p in self.pinned:
            p.close()
        if self.proc is not None and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, 9)
            except (ProcessLookupError, PermissionError):
                pass
            self.proc.wait()

    def stderr(self):
        with open(self.err_path, "rb") as f:
            return f.read().decode("utf-8", "replace")[-3000:]

    def logs(self):
        text = ""
        d = os.path.join(self.data, "logs")
        for p in sorted(os.listdir(d)) if os.path.isdir(d) else []:
            if p.startswith("err"):
                with open(os.path.join(d, p), "rb") as f:
                    text += f.read().decode("utf-8", "replace")
        return "error log:\n%s\nstderr:\n%s" % (text[-3000:], self.stderr())

    def source_ip(self):
        # each connection from an address of its own: the site throttles an
        # address past 250 requests (srv.arc's abusive-ip)
        self.ips += 1
        return "127.3.%d.%d" % (self.ips // 250, self.ips % 250 + 1)

    def workers_pid(self, conn):
        """The pid of the worker that holds pinned connection conn."""
        ip, port = conn.conn.sock.getsockname()
        return holder(self.workers, socket_inode(self.port, ip, port))

    def pin(self, worker, cookie=None):
        """A keep-alive connection to worker (0 or 1: self.workers' index)."""
        for _ in range(200):
            ip = self.source_ip()
            c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=20,
                                           source_address=(ip, 0))
            p = Pinned(c, cookie)
            status, _, body = p.get("/robots.txt")  # an answer: the worker has accepted it
            inode = socket_inode(self.port, ip, c.sock.getsockname()[1])
            pid = inode and holder(self.workers, inode)
            self.assertIn(pid, self.workers, "no worker holds the connection")
            if pid == self.workers[worker]:
                self.pinned.append(p)
                return p
            c.close()
        self.fail("200 connections and none on worker %d" % worker)

    def submit(self, conn, title, url):
        """Submits a story over conn (its form is a closure of that worker)."""
        status, _, body = conn.get("/submit")
        self.assertEqual(status, 200)
        form = next(f for f in crash.parse_page(body).forms
                    if {"t", "u"} <= {k for k, _ in f["fields"]})
        fields = [[k, {"t": title, "u": url, "x": ""}.get(k, v)] for k, v in form["fields"]]
        status, headers, body = conn.request("POST", crash.absolute(form["action"] or "/r"),
                                             body=fields)
        self.assertIn(status, (302, 303), body[:500])

    # ---- the tests ---------------------------------------------------------

    def test_submit_on_one_read_on_the_other(self):
        self.seed(2)
        self.start()
        (u1, cookie1, _), (u2, cookie2, _) = self.users
        w0 = self.pin(0, cookie1)
        w1 = self.pin(1, cookie2)
        # each worker has shown the front page before anything changes
        for w in (w0, w1):
            status, _, body = w.get("/news")
            self.assertEqual(status, 200)
            self.assertNotIn("Made on worker 0", crash.page_text(body))

        self.submit(w0, "Made on worker 0", "http://example.com/workers/zero")
        # worker 0 shows it...
        status, _, body = w0.get("/newest")
        self.assertIn("Made on worker 0", crash.page_text(body))
        sid = re.search(r'href="http://example\.com/workers/zero".*?item\?id=(\d+)',
                        crash.page_text(body), re.S)
        self.assertIsNotNone(sid, "no item link for the story on worker 0's /newest")
        sid = int(sid.group(1))
        # ... and so does worker 1, on the next request
        for path in ("/newest", "/news", "/item?id=%d" % sid):
            status, _, body = w1.get(path)
            self.assertEqual(status, 200, path)
            self.assertIn("Made on worker 0", crash.page_text(body),
                          "worker 1's %s does not show worker 0's story\n%s" % (path, self.logs()))

        # a comment on it made on worker 1 is on worker 0's item page
        status, _, body = w1.get("/item?id=%d" % sid)
        form = next(f for f in crash.parse_page(body).forms
                    if "text" in {k for k, _ in f["fields"]})
        fields = [[k, "Commented on worker 1" if k == "text" else v] for k, v in form["fields"]]
        status, _, body = w1.request("POST", crash.absolute(form["action"] or "/comment"),
                                     body=fields)
        self.assertIn(status, (200, 302, 303), body[:500])
        status, _, body = w0.get("/item?id=%d" % sid)
        self.assertIn("Commented on worker 1", crash.page_text(body),
                      "worker 0's item page lacks worker 1's comment\n" + self.logs())
        self.assertIn("1 comment", crash.page_text(body))

    def test_a_restarted_worker_catches_up(self):
        # A worker the parent starts again is forked from the parent's
        # memory, as it was when the site started: it applies everything
        # the workers changed since.
        self.seed(1)
        self.start()
        name, cookie, _ = self.users[0]
        w0 = self.pin(0, cookie)
        self.submit(w0, "Before the restart", "http://example.com/workers/before")
        old = self.workers[1]
        os.kill(old, 9)
        deadline = time.time() + 10
        while time.time() < deadline:
            now = children(self.proc.pid)
            if len(now) == 2 and old not in now:
                break
            time.sleep(0.05)
        self.assertNotIn(old, now)
        self.workers = now
        w1 = self.pin(now.index(next(p for p in now if p != self.workers_pid(w0))), cookie)
        for path in ("/newest", "/news"):
            status, _, body = w1.get(path)
            self.assertEqual(status, 200)
            self.assertIn("Before the restart", crash.page_text(body),
                          "the restarted worker's %s\n%s" % (path, self.logs()))

    def test_votes_from_both_workers_count_exactly(self):
        self.seed(VOTERS)
        self.start()
        # 3 connections on each worker, each voting for its share of the
        # users, all at once
        conns = [self.pin(k % 2) for k in range(6)]
        shares = [self.users[k::6] for k in range(6)]
        failures = []
        go = threading.Barrier(6)

        def vote(conn, users):
            try:
                go.wait()
                for name, cookie, auth in users:
                    path = "/vote?" + urllib.parse.urlencode(
                        [("for", self.story), ("dir", "up"), ("by", name), ("auth", auth),
                         ("whence", "news")])
                    status, headers, body = conn.request("GET", path, cookie=cookie)
                    if not crash.Site.vote_done(status, headers, body):
                        failures.append((name, status, headers.get("location"), body[:200]))
            except Exception as e:  # noqa: BLE001 - reported below
                failures.append(repr(e))

        threads = [threading.Thread(target=vote, args=(c, s)) for c, s in zip(conns, shares)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        self.assertEqual(failures[:5], [], self.logs())

        want = VOTERS + 1  # the author's own vote, when it was submitted
        c = sqlite3.connect(os.path.join(self.data, "news.db"))
        try:
            text = c.execute("SELECT data FROM items WHERE id = ?", (self.story,)).fetchone()[0]
            prof = c.execute("SELECT data FROM profiles WHERE name = 'author'").fetchone()[0]
            voted = sum(1 for name, _, _ in self.users
                        if ("(%d " % self.story) in
                        c.execute("SELECT data FROM votes WHERE name = ?", (name,)).fetchone()[0])
        finally:
            c.close()
        item = crash.as_table(crash.read_arc(text), "item")
        self.assertEqual(item["score"], want)
        self.assertEqual(len(item["votes"]), want)
        self.assertEqual(crash.as_table(crash.read_arc(prof), "profile")["karma"], 10 + VOTERS)
        self.assertEqual(voted, VOTERS)
        # both workers show the count
        for w in (0, 1):
            status, _, body = self.pin(w).get("/item?id=%d" % self.story)
            self.assertIn("%d points" % want, crash.page_text(body), "worker %d" % w)

    def test_closures_followed_on_the_other_worker(self):
        self.seed(1)
        self.start()
        name, cookie, _ = self.users[0]
        w0 = self.pin(0, cookie)
        w1 = self.pin(1, cookie)
        # the submit form is worker 0's closure; worker 1 is given it
        status, _, body = w0.get("/submit")
        self.assertEqual(status, 200)
        form = next(f for f in crash.parse_page(body).forms
                    if {"t", "u"} <= {k for k, _ in f["fields"]})
        fnid = dict(form["fields"])["fnid"]
        self.assertTrue(fnid.startswith("0_"), fnid)
        fields = [[k, {"t": "Routed to worker 0", "u": "http://example.com/routed",
                       "x": ""}.get(k, v)] for k, v in form["fields"]]
        status, headers, body = w1.request("POST", crash.absolute(form["action"] or "/r"),
                                           body=fields)
        self.assertIn(status, (302, 303), body[:500])
        self.assertNotIn("deadlink", headers.get("location", ""), self.logs())
        # worker 0 answered, and holds the connection now
        self.assertEqual(self.workers_pid(w1), self.workers[0])
        for w in (w0, w1, self.pin(1, cookie)):
            status, _, body = w.get("/newest")
            self.assertIn("Routed to worker 0", crash.page_text(body), self.logs())
        # "log out everywhere", a link made on worker 1, followed on worker 0
        w1 = self.pin(1, cookie)
        status, _, body = w1.get("/user?id=" + name)
        self.assertEqual(status, 200)
        link = re.search(r'<a href="([^"]+)"><u>log out everywhere</u></a>',
                         body.decode("utf-8", "replace"))
        self.assertIsNotNone(link, crash.page_text(body)[:2000])
        url = crash.absolute(html.unescape(link.group(1)))
        self.assertIn("fnid=1_", url)
        status, headers, body = w0.get(url)
        self.assertIn(status, (302, 303), body[:500])
        self.assertNotIn("deadlink", headers.get("location", ""), self.logs())
        for w in (self.pin(0, cookie), self.pin(1, cookie)):
            status, _, body = w.get("/news")
            self.assertNotIn("logout", crash.page_text(body),
                             "the session outlived log out everywhere\n" + self.logs())

    def test_login_on_one_is_known_to_the_other(self):
        self.seed(1)
        self.start()
        w0 = self.pin(0)
        w1 = self.pin(1)
        status, _, body = w0.get("/login")
        self.assertEqual(status, 200)
        form = next(f for f in crash.parse_page(body).forms
                    if any("login" in s.lower() for s in f["submits"]))
        fields = [[k, v] for k, v in form["fields"] if k not in ("u", "p")]
        fields += [["u", "author"], ["p", self.password]]
        status, headers, body = w0.request("POST", crash.absolute(form["action"] or "/x"),
                                           body=fields)
        cookie = crash.cookie_of(headers)
        self.assertTrue(cookie, (status, headers, body[:500]))
        # at once, worker 1 knows the session
        status, _, body = w1.get("/news", cookie=cookie)
        self.assertEqual(status, 200)
        text = crash.page_text(body)
        self.assertIn("author", text, "worker 1 does not know worker 0's login\n" + self.logs())
        self.assertIn("logout", text)
        # a logout on worker 1 ends it on worker 0
        logout = re.search(r'<a href="([^"]+)">logout</a>', body.decode("utf-8", "replace"))
        self.assertIsNotNone(logout, text[:2000])
        status, _, body = w1.get(crash.absolute(html.unescape(logout.group(1))), cookie=cookie)
        self.assertIn(status, (200, 302, 303))
        status, _, body = w0.get("/news", cookie=cookie)
        self.assertNotIn("logout", crash.page_text(body),
                         "worker 0 still knows the session worker 1 ended")


if __name__ == "__main__":
    webtest.main()
