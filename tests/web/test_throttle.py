"""Throttling end to end (docs/LANGUAGE.md 6.5 step 3, abusive-ip): an IP is looked
at only past 250 requests; then more than req-limit* requests within
req-window* seconds are answered 429 and the connection closed; an IP
found at it within dos-window* goes into ignore-ips* for ban-time*
seconds, and its connections are closed without an answer, while an
operator's ban lasts; spurned* counts both; req-limit* nil turns it all
off; static files and their 304s do not count. Behind a trusted proxy
(trusted-proxies*) the client is the one X-Forwarded-For names, and is
throttled, banned, logged and shown to handlers as such; anyone else's
X-Forwarded-For changes nothing. Each test uses a source address of its
own (127.0.0.N) or forwarded addresses of its own (10.0.N.M).
Server: servers/throttle.arc.

usage: python3 tests/web/test_throttle.py path/to/arcana
"""
import os
import re
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import webtest  # noqa: E402
from webtest import request_bytes

ADMIN = "127.0.0.200"  # the IP the tests configure and inspect from
PROXY = "127.0.0.50"  # a trusted proxy (servers/throttle.arc)


class ThrottleTest(webtest.ServerTest):
    SCRIPT = "throttle.arc"

    @classmethod
    def setup_dir(cls, d):
        os.makedirs(os.path.join(d, "static"))
        with open(os.path.join(d, "static", "s.css"), "w") as f:
            f.write("p { color: red }\n")

    def admin(self, path):
        c = self.conn(ADMIN)
        c.send(request_bytes("GET", path, [("Connection", "close")]))
        r = c.response()
        self.assertEqual(r.status, 200, r)
        return r.text

    def configure(self, limit, window, dos, ban=300):
        self.assertEqual(self.admin("/set?limit=%s&window=%s&dos=%s&ban=%s"
                                    % (limit, window, dos, ban)), "ok")

    def burst(self, c, n, headers=()):
        """n pipelined requests on c, each answered 200."""
        c.send(b"".join(request_bytes("GET", "/hello", headers) for _ in range(n)))
        for i in range(n):
            r = c.response()
            self.assertEqual((r.status, r.body), (200, b"hello"), "request %d" % (i + 1))

    def assert_429(self, c, headers=()):
        c.send(request_bytes("GET", "/hello", headers))
        r = c.response()
        self.assertEqual(r.status, 429, r)
        self.assert_framing(r)
        self.assertEqual(r.header("connection"), "close")
        self.assertTrue(c.closed_by_peer())

    def assert_closed_unanswered(self, ip):
        try:
            c = self.conn(ip)
            c.send(request_bytes("GET", "/hello"))
        except (BrokenPipeError, ConnectionResetError):
            return  # reset before the request was even sent
        self.assertTrue(c.closed_by_peer())
        self.assertEqual(c.buf, b"")  # no answer at all

    def test_throttled_past_limit(self):
        ip = "127.0.0.2"
        self.configure(30, 10, 0)  # dos-window* 0: never ignored
        before = len(self.srv.log("err"))
        c = self.conn(ip)
        # 250 are never looked at; then the queue fills to req-limit* (30)
        self.burst(c, 280)
        self.assert_429(c)
        self.srv.wait_log("err", r"^\d+ %s 429 throttled$" % ip.replace(".", r"\."), since=before)
        # still within req-window*: a new connection is throttled at once
        self.assert_429(self.conn(ip))
        self.assertEqual(self.admin("/spurned-of?ip=" + ip), "2")
        self.assertEqual(self.admin("/ignored?ip=" + ip), "nil")
        self.assertEqual(self.admin("/requests-of?ip=" + ip), "282")
        # other IPs are served
        self.assert_alive()

    def test_small_limit_past_250(self):
        ip = "127.0.0.3"
        self.configure(1, 10, 0)
        c = self.conn(ip)
        self.burst(c, 251)  # the 251st starts the queue
        self.assert_429(c)

    def test_dos_ignored(self):
        ip = "127.0.0.4"
        self.configure(30, 10, 2)  # Arc 3.1's limits
        c = self.conn(ip)
        self.burst(c, 280)
        self.assert_429(c)  # 30 within 2 s: ignored for ban-time* (300 s)
        until = int(self.admin("/ignored?ip=" + ip))  # the ban's end, in seconds
        self.assertTrue(0 < until - time.time() <= 301, until)
        self.assertEqual(self.admin("/banned?ip=" + ip), "t")
        for _ in range(3):
            self.assert_closed_unanswered(ip)
        self.assertEqual(self.admin("/spurned-of?ip=" + ip), "4")
        self.assert_alive()

    def test_window_passes(self):
        ip = "127.0.0.5"
        self.configure(30, 1, 0)
        c = self.conn(ip)
        self.burst(c, 280)
        time.sleep(2.1)  # past req-window* (whole seconds) since the oldest queued
        self.burst(self.conn(ip), 1)
        self.assertEqual(self.admin("/spurned-of?ip=" + ip), "nil")

    def test_ban_expires(self):
        ip = "127.0.0.7"
        self.configure(30, 2, 2, ban=2)
        c = self.conn(ip)
        self.burst(c, 280)
        self.assert_429(c)  # banned for 2 s (whole seconds: more than 1)
        self.assert_closed_unanswered(ip)
        time.sleep(3.1)  # past the ban, req-window* and dos-window*
        self.burst(self.conn(ip), 1)
        self.assertEqual(self.admin("/ignored?ip=" + ip), "nil")  # the expired ban is gone

    def test_ban_for_good_when_ban_time_nil(self):
        ip = "127.0.0.8"
        self.configure(30, 10, 2, ban="nil")  # as Arc 3.1
        c = self.conn(ip)
        self.burst(c, 280)
        self.assert_429(c)
        self.assertEqual(self.admin("/ignored?ip=" + ip), "t")

    def test_operator_ban_lasts(self):
        ip = "127.0.0.9"
        self.configure(30, 10, 2, ban=0)  # abusive-ip's bans would end at once
        self.assertEqual(self.admin("/ban?ip=" + ip), "t")  # (set (ignore-ips* ip))
        self.assert_closed_unanswered(ip)
        time.sleep(1.1)
        self.assert_closed_unanswered(ip)
        self.assertEqual(self.admin("/ignored?ip=" + ip), "t")
        self.assertEqual(self.admin("/spurned-of?ip=" + ip), "2")

    def test_static_files_and_304s_not_counted(self):
        ip = "127.0.0.10"
        self.configure(1, 10, 0)  # counted, the 252nd request would be refused
        c = self.conn(ip)
        c.send(b"".join(request_bytes("GET", "/s.css") for _ in range(300)))
        for i in range(300):
            r = c.response()
            self.assertEqual(r.status, 200, "request %d: %r" % (i + 1, r))
        tag = r.header("etag")
        c.send(b"".join(request_bytes("GET", "/s.css", [("If-None-Match", tag)])
                        for _ in range(300)))
        for i in range(300):
            r = c.response()
            self.assertEqual(r.status, 304, "request %d: %r" % (i + 1, r))
        self.assertEqual(self.admin("/requests-of?ip=" + ip), "nil")
        self.burst(c, 1)  # a page does count
        self.assertEqual(self.admin("/requests-of?ip=" + ip), "1")

    # ---- behind a proxy ----

    def whoami(self, src, headers=()):
        c = self.conn(src)
        c.send(request_bytes("GET", "/whoami", list(headers) + [("Connection", "close")]))
        r = c.response()
        self.assertEqual(r.status, 200, r)
        return r.text

    def test_forwarded_clients_throttled_apart(self):
        self.configure(30, 10, 0)
        a, b = "10.0.1.1", "10.0.1.2"
        before, srv_before = len(self.srv.log("err")), len(self.srv.log("srv"))
        c = self.conn(PROXY)
        self.burst(c, 280, [("X-Forwarded-For", a)])
        # the same connection carries another client's requests: not throttled
        self.burst(c, 5, [("X-Forwarded-For", b)])
        self.assert_429(c, [("X-Forwarded-For", a)])
        self.srv.wait_log("err", r"^\d+ %s 429 throttled$" % re.escape(a), since=before)
        # a new connection from the proxy, for b: served
        self.burst(self.conn(PROXY), 1, [("X-Forwarded-For", b)])
        self.assertEqual(self.admin("/requests-of?ip=" + a), "281")
        self.assertEqual(self.admin("/requests-of?ip=" + b), "6")
        self.assertEqual(self.admin("/requests-of?ip=" + PROXY), "nil")
        self.assertEqual(self.admin("/spurned-of?ip=" + a), "1")
        # the request log names the clients, not the proxy
        log = self.srv.wait_log("srv", r"^\d+ %s .*hello" % re.escape(b), since=srv_before)
        self.assertNotRegex(log, r"(?m)^\d+ %s " % re.escape(PROXY))

    def test_forwarded_ip_and_scheme(self):
        self.assertEqual(self.whoami(PROXY, [("X-Forwarded-For", "10.0.2.1")]), "10.0.2.1 http")
        self.assertEqual(self.whoami(PROXY, [("X-Forwarded-For", "10.0.2.2"),
                                             ("X-Forwarded-Proto", "https")]), "10.0.2.2 https")
        # what the client wrote itself is left of the proxy's entry
        self.assertEqual(self.whoami(PROXY, [("X-Forwarded-For", "1.2.3.4, 10.0.2.3")]),
                         "10.0.2.3 http")
        # through two trusted proxies
        self.assertEqual(self.whoami(PROXY, [("X-Forwarded-For", "10.0.2.4, 127.0.0.51")]),
                         "10.0.2.4 http")
        # none, or not an address: the proxy
        self.assertEqual(self.whoami(PROXY), PROXY + " http")
        self.assertEqual(self.whoami(PROXY, [("X-Forwarded-For", "unknown")]), PROXY + " http")

    def test_forwarded_ip_banned(self):
        ip = "10.0.4.1"
        self.assertEqual(self.admin("/ban?ip=" + ip), "t")
        c = self.conn(PROXY)
        c.send(request_bytes("GET", "/whoami", [("X-Forwarded-For", ip)]))
        r = c.response()
        self.assertEqual(r.status, 403, r)
        self.assertTrue(c.closed_by_peer())
        self.assertEqual(self.admin("/spurned-of?ip=" + ip), "1")
        # the proxy and its other clients are not banned
        self.assertEqual(self.whoami(PROXY, [("X-Forwarded-For", "10.0.4.2")]), "10.0.4.2 http")

    def test_untrusted_forwarded_for_ignored(self):
        ip = "127.0.0.11"
        headers = [("X-Forwarded-For", "10.0.3.1"), ("X-Forwarded-Proto", "https")]
        self.assertEqual(self.whoami("127.0.0.12", headers), "127.0.0.12 http")
        self.configure(30, 10, 0)
        c = self.conn(ip)
        self.burst(c, 280, headers)
        self.assert_429(c, headers)  # the peer is throttled, whatever it claims
        self.assertEqual(self.admin("/requests-of?ip=" + ip), "281")
        self.assertEqual(self.admin("/requests-of?ip=10.0.3.1"), "nil")

    def test_no_throttling_when_limit_nil(self):
        ip = "127.0.0.6"
        self.configure("nil", 10, 2)
        c = self.conn(ip)
        self.burst(c, 400)
        self.assertEqual(self.admin("/spurned-of?ip=" + ip), "nil")
        self.assertEqual(self.admin("/ignored?ip=" + ip), "nil")


if __name__ == "__main__":
    webtest.main()
