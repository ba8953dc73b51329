"""Running out of file descriptors (EMFILE) end to end: a server limited
to 40 descriptors is sent more connections than it can hold. Accepting
fails with an Arc error, which the accept loop logs and goes on from; no
descriptor leaks; once the connections close, it serves again.
Server: servers/emfile.arc.

usage: python3 tests/web/test_emfile.py path/to/arcana
"""
import os
import socket
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import webtest  # noqa: E402


class EmfileTest(webtest.ServerTest):
    SCRIPT = "emfile.arc"
    NOFILE = 40

    def fds(self, sockets=False):
        d = "/proc/%d/fd" % self.srv.proc.pid
        names = os.listdir(d)
        if not sockets:
            return len(names)
        n = 0
        for f in names:
            try:
                n += os.readlink(os.path.join(d, f)).startswith("socket:")
            except OSError:
                pass
        return n

    def test_out_of_descriptors(self):
        self.assertEqual(self.srv.get("/hello")[2], b"hello")
        time.sleep(0.3)
        before = self.fds(sockets=True)  # (the error log's file opens on the way)
        # More connections than descriptors; each says nothing yet.
        socks = [socket.create_connection(("127.0.0.1", self.srv.port)) for _ in range(60)]
        try:
            self.srv.wait_log("err", r"accept .*[Tt]oo many open files", timeout=5)
            self.assertLessEqual(self.fds(), self.NOFILE)
        finally:
            for s in socks:
                s.close()
        # Every connection is closed again, and nothing is left open.
        deadline = time.time() + 10
        while self.fds(sockets=True) > before and time.time() < deadline:
            time.sleep(0.1)
        self.assertEqual(self.fds(sockets=True), before)
        self.assertEqual(self.srv.get("/hello")[2], b"hello")
        self.assertIsNone(self.srv.proc.poll())


if __name__ == "__main__":
    webtest.main()
