"""Memory follows the load down after a burst of connections that end by
timeout, with no request after it to prompt the server: 10,000
connections (the tester's burst) each send part of a header and are
closed by header-timeout*; within a few seconds the server's resident
memory is back under twice what it was at rest. Server: servers/burst.arc.

usage: python3 tests/web/test_memory.py path/to/arcana
"""
import resource
import socket
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import webtest  # noqa: E402

BURST = 10000


def status_kb(pid, field):
    """A field of /proc/PID/status in KiB (VmRSS, VmHWM)."""
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise AssertionError("no %s in /proc/%d/status" % (field, pid))


class MemoryTest(webtest.ServerTest):
    SCRIPT = "burst.arc"

    def test_memory_follows_a_timed_out_burst_down(self):
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if hard != resource.RLIM_INFINITY and hard < BURST + 100:
            self.skipTest("RLIMIT_NOFILE %d is under %d" % (hard, BURST + 100))
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, BURST + 100), hard))
        self.addCleanup(resource.setrlimit, resource.RLIMIT_NOFILE, (soft, hard))
        pid = self.srv.proc.pid
        with open("/proc/%d/maps" % pid) as f:
            if "libasan" in f.read():  # (make sanitize)
                self.skipTest("AddressSanitizer's quarantine keeps freed memory resident")
        time.sleep(0.5)
        rest = status_kb(pid, "VmRSS")
        socks = []
        self.addCleanup(lambda: [s.close() for s in socks])
        for _ in range(BURST):
            s = socket.create_connection(("127.0.0.1", self.srv.port))
            s.sendall(b"GET /hello HTTP/1.1\r\nHost: x\r\nX-Part: ")
            socks.append(s)
        # Each is answered 408 and closed once header-timeout* passes.
        deadline = time.time() + 10
        for s in socks:
            s.settimeout(max(deadline - time.time(), 0.1))
            try:
                while s.recv(65536):
                    pass
            except (ConnectionResetError, socket.timeout):
                pass
            s.close()
        peak = status_kb(pid, "VmHWM")
        # The burst cost memory, or this test could not fail.
        self.assertGreater(peak, 2 * rest, (rest, peak))
        t0 = time.time()
        while status_kb(pid, "VmRSS") >= 2 * rest and time.time() - t0 < 5:
            time.sleep(0.1)
        rss = status_kb(pid, "VmRSS")
        print("rest %d KiB, peak %d KiB, %.1f s later %d KiB" % (rest, peak, time.time() - t0, rss))
        self.assertLess(rss, 2 * rest, "rest %d KiB, peak %d KiB, now %d KiB" % (rest, peak, rss))
        self.assertEqual(self.srv.get("/hello")[2], b"hello")


if __name__ == "__main__":
    webtest.main()
