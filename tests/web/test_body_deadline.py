"""A request body's whole-body limits end to end: body-deadline* (all of
it within so long of its head) and body-min-rate* once past
body-rate-grace* (a mean rate since its head). A body trickled a byte at a
time, each gap well within body-timeout*, is answered 408 and closed when
one of them passes, logged, while other clients are served meanwhile; a
body sent in time is served. Server: servers/bodytime.arc.

usage: python3 tests/web/test_body_deadline.py path/to/arcana
"""
import socket
import sys
import threading
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import webtest  # noqa: E402
from webtest import request_bytes

FORM = [("Content-Type", "application/x-www-form-urlencoded")]


class BodyDeadlineTest(webtest.ServerTest):
    SCRIPT = "bodytime.arc"

    def set(self, **settings):
        for name, value in settings.items():
            status, _, body = self.srv.get("/set?name=%s*&value=%s" % (name.replace("_", "-"), value))
            self.assertEqual(status, 200, body)

    def trickle(self, gap, limit=8.0):
        """A POST whose body (100 bytes announced) comes a byte every gap
        seconds; returns (the response, seconds from the head to it)."""
        c = self.conn()
        c.send(request_bytes("POST", "/len", FORM + [("Content-Length", "100")]))
        t0 = time.time()
        c.sock.settimeout(gap)
        got = b""
        for b in b"d=" + b"x" * 98:
            try:
                c.sock.sendall(bytes([b]))
                got += c.sock.recv(65536)  # waits out the gap, unless answered
            except socket.timeout:
                continue
            except (BrokenPipeError, ConnectionResetError):
                break
            if b"\r\n\r\n" in got or time.time() - t0 > limit:
                break
        c.sock.settimeout(10)
        c.buf = bytearray(got)
        r = c.response()
        elapsed = time.time() - t0
        self.assertTrue(c.closed_by_peer())
        return r, elapsed

    def test_trickled_body_closed_by_deadline(self):
        self.set(body_deadline=2, body_min_rate="nil")
        before = len(self.srv.log("err"))
        served = []

        def other_client():  # served while the trickle goes on
            time.sleep(0.7)
            t0 = time.time()
            served.append((self.srv.get("/hello")[2], time.time() - t0))

        t = threading.Thread(target=other_client)
        t.start()
        r, elapsed = self.trickle(0.5)
        t.join()
        self.assertEqual(r.status, 408, r)
        self.assertEqual(r.header("connection"), "close")
        self.assertGreater(elapsed, 1.8)
        self.assertLess(elapsed, 3.5)
        self.assertEqual(served[0][0], b"hello")
        self.assertLess(served[0][1], 1.0)
        self.srv.wait_log("err", r"^\d+ 127\.0\.0\.1 408 body not complete within body-deadline\*$",
                          since=before)

    def test_slow_body_closed_by_min_rate(self):
        # 2 bytes a second against a minimum of 10 after a second's grace
        self.set(body_deadline="nil", body_min_rate=10, body_rate_grace=1)
        before = len(self.srv.log("err"))
        r, elapsed = self.trickle(0.5)
        self.assertEqual(r.status, 408, r)
        self.assertGreater(elapsed, 0.9)
        self.assertLess(elapsed, 2.5)
        self.srv.wait_log("err", r"^\d+ 127\.0\.0\.1 408 body slower than body-min-rate\*$",
                          since=before)

    def test_body_in_time_served(self):
        # 100 bytes in 5 pieces over a second: within a deadline of 2 s and
        # over 10 bytes a second
        self.set(body_deadline=2, body_min_rate=10, body_rate_grace=0.5)
        c = self.conn()
        c.send(request_bytes("POST", "/len", FORM + [("Content-Length", "100")]))
        body = b"d=" + b"x" * 98
        for i in range(0, 100, 20):
            time.sleep(0.2)
            c.send(body[i:i + 20])
        r = c.response()
        self.assertEqual((r.status, r.body), (200, b"98"))


if __name__ == "__main__":
    webtest.main()
