"""max-conns* end to end: past max-conns* open connections a new one waits
up to conn-wait* seconds for a place, is served if one frees, and is
answered 503 (logged) if none does, while those in flight are served.
Server: servers/conns.arc (max-conns* 2, conn-wait* 1).

usage: python3 tests/web/test_limits.py path/to/arcana
"""
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import webtest  # noqa: E402
from webtest import request_bytes

CLOSE = [("Connection", "close")]


class ConnLimitTest(webtest.ServerTest):
    SCRIPT = "conns.arc"

    def busy(self, secs, n=2):
        """n connections, each in a request that sleeps secs."""
        cs = []
        for _ in range(n):
            c = self.conn()
            c.send(request_bytes("GET", "/sleep?s=%s" % secs, CLOSE))
            cs.append(c)
        time.sleep(0.2)  # both accepted and in their handlers
        return cs

    def finish(self, cs, secs):
        for c in cs:
            r = c.response()
            self.assertEqual((r.status, r.body), (200, b"slept %s" % secs.encode()))

    def setUp(self):
        # No connection left over from the test before.
        deadline = time.time() + 5
        while self.srv.get("/conns")[2] != b"1" and time.time() < deadline:
            time.sleep(0.05)

    def test_full_answers_503_after_conn_wait(self):
        before = len(self.srv.log("err"))
        cs = self.busy("2")
        c = self.conn()
        t0 = time.time()
        c.send(request_bytes("GET", "/hello"))
        r = c.response()
        elapsed = time.time() - t0
        self.assertEqual(r.status, 503, r)
        self.assert_framing(r)
        self.assertEqual(r.header("connection"), "close")
        self.assertTrue(c.closed_by_peer())
        self.assertGreater(elapsed, 0.7)   # it waited conn-wait* ...
        self.assertLess(elapsed, 1.7)      # ... not until a place freed
        self.srv.wait_log("err", r"^\d+ 127\.0\.0\.1 503 over max-conns\* 2$", since=before)
        # those in flight are served, and then new ones again
        self.finish(cs, "2")
        time.sleep(0.1)
        self.assert_alive()

    def test_waiting_connection_served_when_place_frees(self):
        cs = self.busy("0.6")
        c = self.conn()
        t0 = time.time()
        c.send(request_bytes("GET", "/hello"))
        r = c.response()
        elapsed = time.time() - t0
        self.assertEqual((r.status, r.body), (200, b"hello"))
        self.assertGreater(elapsed, 0.2)  # it waited for the place
        self.finish(cs, "0.6")

    def test_under_the_limit_no_wait(self):
        cs = self.busy("1", n=1)
        t0 = time.time()
        self.assert_alive()
        self.assertLess(time.time() - t0, 0.5)
        self.finish(cs, "1")

    # Once the accept loop has found the server full, the verdict is not
    # kept for a connection that comes after places have freed.
    def test_full_verdict_not_kept_for_a_later_connection(self):
        cs = self.busy("2.6")
        c = self.conn()
        c.send(request_bytes("GET", "/hello"))
        self.assertEqual(c.response().status, 503)
        c.close()  # (so the server's lingering close ends at once)
        self.finish(cs, "2.6")  # at ~2.6 s: both places free again
        time.sleep(0.5)
        status, _, body = self.srv.get("/hello")
        self.assertEqual((status, body), (200, b"hello"))


if __name__ == "__main__":
    webtest.main()
