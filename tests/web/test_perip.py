"""The cap on connections per client IP end to end (max-conns-per-ip*,
stdlib/srv.arc "Clients"): past it a new connection from that IP is
answered 503 and closed, while the IP's open connections and other
clients are served; a closed connection frees its place. Behind a trusted
proxy the proxy is not capped: its connections count for the IP each
request is forwarded for, while that request is served.
Server: servers/perip.arc (a cap of 3; trusted proxy 127.0.0.50).

usage: python3 tests/web/test_perip.py path/to/arcana
"""
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import webtest  # noqa: E402
from webtest import request_bytes

ADMIN = "127.0.0.200"  # the IP the tests inspect from
PROXY = "127.0.0.50"


class PerIpTest(webtest.ServerTest):
    SCRIPT = "perip.arc"

    def count(self, ip):
        """srv-conns/ip* of ip, asked on a connection that is closed (and
        so no longer counted) when this returns."""
        c = self.conn(ADMIN)
        c.send(request_bytes("GET", "/count?ip=" + ip, [("Connection", "close")]))
        r = c.response()
        self.assertEqual(r.status, 200, r)
        self.assertTrue(c.closed_by_peer())
        return r.text

    def wait_count(self, ip, want):
        deadline = time.time() + 5
        while self.count(ip) != want and time.time() < deadline:
            time.sleep(0.02)
        self.assertEqual(self.count(ip), want)

    def get(self, c, path, headers=()):
        c.send(request_bytes("GET", path, headers))
        return c.response()

    def test_cap_refuses_one_ips_extra_connection(self):
        ip = "127.0.0.2"
        held = [self.conn(ip) for _ in range(3)]  # open, silent
        self.wait_count(ip, "3")
        before = len(self.srv.log("err"))
        extra = self.conn(ip)
        r = self.get(extra, "/hello")
        self.assertEqual(r.status, 503, r)
        self.assertTrue(extra.closed_by_peer())
        self.srv.wait_log("err", r"^\d+ 127\.0\.0\.2 503 over max-conns-per-ip\* 3$", since=before)
        # other clients, and the IP's open connections, are served meanwhile
        self.assertEqual(self.get(self.conn("127.0.0.3"), "/hello").body, b"hello")
        self.assertEqual(self.get(held[0], "/hello").body, b"hello")
        # a connection closed gives its place back
        held[1].close()
        self.wait_count(ip, "2")
        self.assertEqual(self.get(self.conn(ip), "/hello").body, b"hello")

    def test_proxy_connections_count_for_forwarded_ips(self):
        # more connections from the proxy than the cap, each in use
        cs = [self.conn(PROXY) for _ in range(5)]
        for c in cs[:3]:
            c.send(request_bytes("GET", "/hold", [("X-Forwarded-For", "10.0.0.1")]))
        self.wait_count("10.0.0.1", "3")
        self.assertEqual(self.count(PROXY), "nil")
        before = len(self.srv.log("err"))
        r = self.get(cs[3], "/hello", [("X-Forwarded-For", "10.0.0.1")])
        self.assertEqual(r.status, 503, r)
        self.assertTrue(cs[3].closed_by_peer())
        self.srv.wait_log("err", r"^\d+ 10\.0\.0\.1 503 over max-conns-per-ip\* 3$", since=before)
        self.assertEqual(self.get(cs[4], "/hello", [("X-Forwarded-For", "10.0.0.2")]).body,
                         b"hello")
        self.assertEqual(self.get(self.conn(ADMIN), "/release").body, b"ok")
        for c in cs[:3]:
            self.assertEqual(c.response().body, b"released")
        # answered, the proxy's open connections count for no one
        self.wait_count("10.0.0.1", "nil")
        self.assertEqual(self.count("10.0.0.2"), "nil")
        c = self.conn(PROXY)
        self.assertEqual(self.get(c, "/hello", [("X-Forwarded-For", "10.0.0.1")]).body, b"hello")


if __name__ == "__main__":
    webtest.main()
