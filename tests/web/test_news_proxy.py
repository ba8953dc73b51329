"""The news site behind a reverse proxy (arcana --trusted-proxies, srv.arc's
trusted-proxies*), as README.md's "Running a site" sets it up:

- the per-IP throttle (Arc 3.1's: past 250 requests, more than req-limit*
  in req-window*) counts each client by its X-Forwarded-For address: one
  client hammering the site through the proxy is refused (429, then
  banned: 403) while another client through the same proxy, on the same
  connection or a new one, is served;
- X-Forwarded-For from a peer that is not a trusted proxy is ignored: the
  peer is logged and throttled as itself, whatever address it claims;
- the request log names the forwarded client (and the status), never the
  proxy; a story submitted through the proxy records the client's IP;
- the login cookie is Secure when the proxy says the request came over
  HTTPS (X-Forwarded-Proto), and not otherwise, nor when an untrusted
  peer says so.

usage: python3 tests/web/test_news_proxy.py path/to/arcana
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.parse

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import test_news_crash as crash  # noqa: E402
import webtest  # noqa: E402
from webtest import Conn, request_bytes  # noqa: E402

PROXY = "127.0.0.90"


class ProxyTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="arcana-news-proxy-")
        cls.srv = crash.NewsServer(cls.work)
        data = cls.srv.data
        p = subprocess.run([webtest.ARCANA, crash.NEWS, "--data", data, "--admin", "boss"]
                           + webtest.news_store_args(),
                           cwd=cls.work, capture_output=True, timeout=60)
        m = re.search(r"password: (\S+)", p.stdout.decode())
        assert m, p.stdout + p.stderr
        cls.password = m.group(1)
        cls.srv.start(arcana_opts=["--trusted-proxies=" + PROXY])

    @classmethod
    def tearDownClass(cls):
        cls.srv.kill()
        shutil.rmtree(cls.work, True)

    def conn(self, src):
        c = Conn(self.srv.port, src)
        self.addCleanup(c.close)
        return c

    def get(self, c, path, headers=()):
        c.send(request_bytes("GET", path, list(headers)))
        return c.response()

    def statuses(self, c, n, headers, path="/rss"):
        """n pipelined requests on connection c: their statuses, up to the
        first refusal (after which the server closes)."""
        c.send(b"".join(request_bytes("GET", path, list(headers)) for _ in range(n)))
        out = []
        for _ in range(n):
            r = c.response()
            out.append(r.status)
            if r.status != 200:
                break
        return out

    def srv_log(self, pattern, timeout=5.0):
        deadline = time.time() + timeout
        while True:
            text = ""
            for p in sorted(glob.glob(os.path.join(self.srv.data, "logs", "srv-*"))):
                with open(p, encoding="utf-8", errors="replace") as f:
                    text += f.read()
            if re.search(pattern, text, re.M) or time.time() > deadline:
                return text
            time.sleep(0.05)

    def assert_logged(self, log, pattern):
        self.assertIsNotNone(re.search(pattern, log, re.M),
                             "no %r in the request log; its end:\n%s" % (pattern, log[-1500:]))

    def test_throttled_by_forwarded_address(self):
        a, b = [("X-Forwarded-For", "10.7.0.1")], [("X-Forwarded-For", "10.7.0.2")]
        c = self.conn(PROXY)
        sts = self.statuses(c, 330, a)
        self.assertIn(sts[-1], (429, 403), "client a never throttled: %d requests" % len(sts))
        self.assertGreater(len(sts), 250, "throttled before 250 requests")
        # another client through the proxy, on a new connection: served
        c2 = self.conn(PROXY)
        self.assertEqual(self.statuses(c2, 5, b), [200] * 5)
        # a is refused still (banned or throttled), the proxy itself is not
        r = self.get(self.conn(PROXY), "/rss", a)
        self.assertIn(r.status, (429, 403), r)
        self.assertEqual(self.get(self.conn(PROXY), "/rss").status, 200)
        log = self.srv_log(r"^\d+ %s 200 " % re.escape(PROXY))
        self.assert_logged(log, r"^\d+ 10\.7\.0\.1 200 \d+ \d+ +get rss ")
        self.assert_logged(log, r"^\d+ 10\.7\.0\.2 200 \d+ \d+ +get rss ")
        # the proxy is named only for the one request it made without a client
        self.assertEqual(len(re.findall(r"(?m)^\d+ %s " % re.escape(PROXY), log)), 1,
                         log[-1500:])

    def test_untrusted_forwarded_for_ignored(self):
        peer = "127.0.0.5"
        c = self.conn(peer)
        # each request claims another client: still one peer, throttled
        c.send(b"".join(request_bytes("GET", "/rss", [("X-Forwarded-For", "10.8.0.%d" % (i % 250))])
                        for i in range(330)))
        sts = []
        for _ in range(330):
            r = c.response()
            sts.append(r.status)
            if r.status != 200:
                break
        self.assertIn(sts[-1], (429, 403), "the untrusted peer was not throttled")
        log = self.srv_log(r"^\d+ 127\.0\.0\.5 200 ")
        self.assert_logged(log, r"^\d+ 127\.0\.0\.5 200 \d+ \d+ +get rss ")
        self.assertIsNone(re.search(r"(?m)^\d+ 10\.8\.0\.\d+ ", log), "a claimed address logged")

    def login_cookie(self, src, headers):
        body = urllib.parse.urlencode({"acct": "login", "u": "boss", "p": self.password})
        c = self.conn(src)
        c.send(request_bytes("POST", "/login", [("Content-Type", "application/x-www-form-urlencoded")]
                             + list(headers), body))
        r = c.response()
        cookies = [v for v in r.all("set-cookie") if v.startswith("user=")]
        self.assertTrue(cookies, "no login cookie: %r" % r)
        return cookies[0]

    def test_secure_cookie_from_forwarded_scheme(self):
        https = [("X-Forwarded-For", "10.7.1.1"), ("X-Forwarded-Proto", "https")]
        self.assertIn("; Secure", self.login_cookie(PROXY, https))
        self.assertNotIn("Secure", self.login_cookie(PROXY, [("X-Forwarded-For", "10.7.1.2")]))
        # an untrusted peer's word is not taken
        self.assertNotIn("Secure", self.login_cookie("127.0.0.6", https))

    def test_story_records_the_forwarded_address(self):
        cookie = self.login_cookie(PROXY, [("X-Forwarded-For", "10.7.2.1")])
        cookie = cookie.split(";")[0]
        c = self.conn(PROXY)
        hs = [("Cookie", cookie), ("X-Forwarded-For", "10.7.2.1")]
        r = self.get(c, "/submit", hs)
        self.assertEqual(r.status, 200, r)
        m = re.search(r'name="fnid" value="([^"]+)"', r.text)
        self.assertIsNotNone(m, r.text[:2000])
        body = urllib.parse.urlencode({"fnid": m.group(1), "t": "Proxied story",
                                       "u": "http://proxied.example.com/"})
        c.send(request_bytes("POST", "/x", hs + [("Content-Type",
                                                  "application/x-www-form-urlencoded")], body))
        r = c.response()
        self.assertIn(r.status, (200, 302), r)
        stories = webtest.stored_texts(self.srv.data, "news/story/")
        found = [crash.as_table(crash.read_arc(text), p) for p, text in stories.items()]
        mine = [s for s in found if s.get("title") == "Proxied story"]
        self.assertEqual(len(mine), 1, found)
        self.assertEqual(mine[0].get("ip"), "10.7.2.1")


if __name__ == "__main__":
    webtest.main()
