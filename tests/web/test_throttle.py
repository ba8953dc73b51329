"""Throttling end to end (docs/LANGUAGE.md 6.5 step 3, abusive-ip): an IP is looked
at only past 250 requests; then more than req-limit* requests within
req-window* seconds are answered 429 and the connection closed; an IP
found at it within dos-window* goes into ignore-ips*, and its connections
are closed without an answer; spurned* counts both; req-limit* nil turns it
all off. Each test uses a source address of its own (127.0.0.N).
Server: servers/throttle.arc.

usage: python3 tests/web/test_throttle.py path/to/arcana
"""
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import webtest  # noqa: E402
from webtest import request_bytes

ADMIN = "127.0.0.200"  # the IP the tests configure and inspect from


class ThrottleTest(webtest.ServerTest):
    SCRIPT = "throttle.arc"

    def admin(self, path):
        c = self.conn(ADMIN)
        c.send(request_bytes("GET", path, [("Connection", "close")]))
        r = c.response()
        self.assertEqual(r.status, 200, r)
        return r.text

    def configure(self, limit, window, dos):
        self.assertEqual(self.admin("/set?limit=%s&window=%s&dos=%s" % (limit, window, dos)), "ok")

    def burst(self, c, n):
        """n pipelined requests on c, each answered 200."""
        c.send(b"".join(request_bytes("GET", "/hello") for _ in range(n)))
        for i in range(n):
            r = c.response()
            self.assertEqual((r.status, r.body), (200, b"hello"), "request %d" % (i + 1))

    def assert_429(self, c):
        c.send(request_bytes("GET", "/hello"))
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
        self.assert_429(c)  # 30 within 2 s: ignored from now on
        self.assertEqual(self.admin("/ignored?ip=" + ip), "t")
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

    def test_no_throttling_when_limit_nil(self):
        ip = "127.0.0.6"
        self.configure("nil", 10, 2)
        c = self.conn(ip)
        self.burst(c, 400)
        self.assertEqual(self.admin("/spurned-of?ip=" + ip), "nil")
        self.assertEqual(self.admin("/ignored?ip=" + ip), "nil")


if __name__ == "__main__":
    webtest.main()
