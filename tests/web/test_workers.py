"""arcana --workers 2 end to end: two worker processes answer on the same
port (each says which it is, 0 or 1, and over many new connections both
do); a worker killed with SIGKILL is restarted by the parent and the
server goes on answering; SIGTERM to the parent makes everything exit 0
once the requests in flight are done. Server: servers/workers.arc.

usage: python3 tests/web/test_workers.py path/to/arcana
"""
import os
import re
import signal
import sys
import time
import unittest

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import webtest  # noqa: E402
from webtest import alive, children, gone, request_bytes, wait_until  # noqa: E402

CLOSE = [("Connection", "close")]


class WorkersTest(webtest.ServerTest):
    SCRIPT = "workers.arc"
    WORKERS = 2

    def which(self):
        """The worker answering a new connection."""
        status, _, body = self.srv.get("/w")
        self.assertEqual(status, 200)
        return body.decode()

    def workers(self):
        return wait_until(lambda: len(children(self.srv.proc.pid)) == 2 and children(self.srv.proc.pid))

    def test_ready_line(self):
        self.assertRegex(self.srv.ready_line, r"^ready to serve port \d+ \(2 workers(, 127\.0\.0\.1)?\)$")

    def test_two_workers_answer(self):
        pids = self.workers()
        self.assertEqual(len(pids), 2)
        seen = {self.which() for _ in range(40)}
        self.assertEqual(seen, {"0", "1"})

    def test_both_workers_log_every_request(self):
        before = len(self.srv.log("srv"))
        seen = set()
        for i in range(40):
            status, _, body = self.srv.get("/w?i=%d" % i)
            seen.add(body)
        self.assertEqual(seen, {b"0", b"1"})
        text = self.srv.wait_log("srv", r" get w \(i 39\) ", since=before)
        deadline = time.time() + 5
        while time.time() < deadline and len(re.findall(r" get w \(i \d+\) ", text)) < 40:
            time.sleep(0.05)
            text = self.srv.log("srv")[before:]
        # one whole line each, none lost or overwritten by the other process
        for i in range(40):
            self.assertEqual(len(re.findall(r"(?m)^\d+ 127\.0\.0\.1 200 \d+ \d+ +get w \(i %d\) nil$" % i, text)), 1,
                             "request %d in\n%s" % (i, text))

    def test_killed_worker_restarted(self):
        before = self.workers()
        self.assertEqual(len(before), 2)
        victim = before[0]
        os.kill(victim, signal.SIGKILL)
        self.assertTrue(wait_until(lambda: gone(victim)))
        # The other goes on answering meanwhile.
        for _ in range(10):
            self.assertIn(self.which(), ("0", "1"))
        after = wait_until(lambda: (lambda c: len(c) == 2 and victim not in c and c)(children(self.srv.proc.pid)))
        self.assertTrue(after, children(self.srv.proc.pid))
        self.assertIn(before[1], after)
        # And both answer again.
        seen = set()
        deadline = time.time() + 10
        while seen != {"0", "1"} and time.time() < deadline:
            seen.add(self.which())
        self.assertEqual(seen, {"0", "1"})
        self.assertRegex(self.srv.stderr(), r"worker \d \(pid %d\) died of signal 9; restarting it" % victim)


class WorkersStopTest(unittest.TestCase):
    def test_sigterm_stops_all_after_in_flight(self):
        srv = webtest.Server("workers.arc", workers=2)
        srv.start()
        self.addCleanup(srv.stop)
        pids = wait_until(lambda: len(children(srv.proc.pid)) == 2 and children(srv.proc.pid))
        self.assertTrue(pids)
        c = srv.conn()
        self.addCleanup(c.close)
        c.send(request_bytes("GET", "/sleep?s=1", CLOSE))
        time.sleep(0.3)  # in its handler
        t0 = time.time()
        os.kill(srv.proc.pid, signal.SIGTERM)
        r = c.response()
        self.assertEqual(r.status, 200)
        self.assertRegex(r.text, r"^slept in [01]$")
        self.assertEqual(srv.proc.wait(timeout=10), 0)
        self.assertLess(time.time() - t0, 8)
        for p in pids:
            self.assertTrue(wait_until(lambda: not alive(p), 5), "worker %d still running" % p)
        with self.assertRaises(ConnectionRefusedError):
            srv.conn()


class ConcurrentCollectorWorkersTest(webtest.ServerTest):
    """--workers under the default collector, gen, whose marker thread the
    fork leaves behind: each worker starts its own and finishes major
    collections of its own (under --gc-stress, one every few dozen safe
    points)."""
    SCRIPT = "workers.arc"
    WORKERS = 2
    OPTIONS = ("--gc-stress",)  # (no --gc: the default)

    def test_each_worker_collects_concurrently(self):
        seen = {}
        for _ in range(40):
            c = self.srv.conn()
            try:
                counts = []
                for _ in range(2):  # one connection: one worker
                    c.send(request_bytes("GET", "/gc"))
                    r = c.response()
                    self.assertEqual(r.status, 200)
                    m = re.match(r"^([01]) gen (\d+)$", r.text)
                    self.assertTrue(m, r.text)
                    counts.append((m.group(1), int(m.group(2))))
            finally:
                c.close()
            self.assertEqual(counts[0][0], counts[1][0])
            # Majors finished in this worker between its two answers.
            self.assertGreater(counts[1][1], counts[0][1])
            seen[counts[0][0]] = True
            if len(seen) == 2:
                break
        self.assertEqual(sorted(seen), ["0", "1"])


if __name__ == "__main__":
    webtest.main()
