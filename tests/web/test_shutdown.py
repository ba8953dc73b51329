"""A single server stopped by SIGTERM or SIGINT, end to end: it stops
accepting, lets a request in flight (an op that sleeps) complete, closes
idle keep-alive connections at once, runs its (on-shutdown f) hooks in
order (a failing one does not stop the rest), and exits with status 0.
Server: servers/shutdown.arc (one per test).

usage: python3 tests/web/test_shutdown.py path/to/arcana
"""
import os
import signal
import sys
import time
import unittest

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import webtest  # noqa: E402
from webtest import request_bytes


class ShutdownTest(unittest.TestCase):
    def start(self):
        srv = webtest.Server("shutdown.arc")
        srv.start()
        self.addCleanup(srv.stop)
        return srv

    def conn(self, srv):
        c = srv.conn()
        self.addCleanup(c.close)
        return c

    def stop_with_request_in_flight(self, sig):
        srv = self.start()
        busy = self.conn(srv)
        busy.send(request_bytes("GET", "/sleep?s=1.5"))
        idle = self.conn(srv)
        idle.send(request_bytes("GET", "/hello"))
        self.assertEqual(idle.response().body, b"hello")
        time.sleep(0.3)  # the sleeper is in its handler
        t0 = time.time()
        os.kill(srv.proc.pid, sig)
        # The idle keep-alive connection is closed at once, not after idle-timeout*.
        self.assertTrue(idle.closed_by_peer(within=2))
        # No new connections are taken.
        time.sleep(0.2)
        with self.assertRaises(ConnectionRefusedError):
            srv.conn()
        # The request in flight completes.
        r = busy.response()
        self.assertEqual((r.status, r.body), (200, b"slept"))
        self.assertEqual(r.header("connection"), "close")
        self.assertEqual(srv.proc.wait(timeout=10), 0)
        self.assertGreater(time.time() - t0, 0.9)  # it waited for the sleeper
        self.assertLess(time.time() - t0, 6)
        with open(srv.path("hook1.txt")) as f:
            self.assertEqual(f.read(), "first hook ran")
        with open(srv.path("hook2.txt")) as f:
            self.assertEqual(f.read(), "(after-first \"hook1.txt\" conns 0)")
        self.assertIn("a failing hook", srv.stderr())
        return srv

    def test_sigterm(self):
        self.stop_with_request_in_flight(signal.SIGTERM)

    def test_sigint(self):
        self.stop_with_request_in_flight(signal.SIGINT)

    def test_sigterm_when_idle_exits_at_once(self):
        srv = self.start()
        self.assertEqual(srv.get("/hello")[0], 200)
        t0 = time.time()
        os.kill(srv.proc.pid, signal.SIGTERM)
        self.assertEqual(srv.proc.wait(timeout=10), 0)
        self.assertLess(time.time() - t0, 2)
        self.assertTrue(os.path.exists(srv.path("hook1.txt")))


if __name__ == "__main__":
    webtest.main()
