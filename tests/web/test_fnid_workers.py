"""Closures under arcana --workers 2: a fnid (a link or form of srv.arc's
closures) made on one worker and followed on a connection the other
worker holds is answered by the worker that made it, its connection
handed over with the bytes read of it (io/server.h, srv.arc's
%srv-route). Server: servers/fnids.arc, whose closures say which worker
made them and which one runs them.

Connections are pinned to a worker by opening keep-alive connections
until /w answers the index wanted; a connection handed over stays with
its new worker, which /w on it then shows.

- A link (GET /x), a redirecting link (/r), a form (POST /x) with a small
  body and with one of 300 KB (past what the channel carries in its
  message: sent in a memfd) whose text must arrive whole, a redirecting
  form (/r); each made on one worker, followed on the other, both ways.
- A request pipelined behind the handed one is answered, in order, by
  the new worker.
- A closure made before the workers were forked (no index in its fnid)
  is every worker's, and answered where it is read.
- A forged fnid naming no worker (7_...), and an unknown one naming the
  other worker, get the expired answer.
- A fnid of a worker since killed and restarted gets the expired answer
  (its closures died with it), from the restarted worker.
- A worker that takes no connection (stopped with SIGSTOP): what cannot
  be handed to it within conn-wait* is answered 503; what was handed
  before is answered once it runs again.
- A worker killed while requests for its closures are in flight (in its
  handler, in its channel, on their way): every one is answered, by it,
  by the worker that handed it over (503, when the owner died before
  writing a byte of an answer), or by the restarted owner (expired).

usage: python3 tests/web/test_fnid_workers.py path/to/arcana
"""
import hashlib
import os
import re
import signal
import sys
import threading
import time
import unittest
import urllib.parse

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import webtest  # noqa: E402
from webtest import request_bytes  # noqa: E402

FORM = [("Content-Type", "application/x-www-form-urlencoded")]
EXPIRED = "Unknown or expired link."


def digest(text):
    return hashlib.blake2b(text.encode("utf-8"), digest_size=32).hexdigest()


class Closures:
    """What the tests share: raw connections pinned to a worker, and the
    closures of /page. self.srv is the server."""

    def setUp(self):
        self.conns = []
        self.addCleanup(self.close_all)

    def close_all(self):
        for c in self.conns:
            c.close()

    def ask(self, c, method, path, body=b"", headers=()):
        c.send(request_bytes(method, path, list(headers), body))
        return c.response()

    def worker_of(self, c):
        r = self.ask(c, "GET", "/w")
        self.assertEqual(r.status, 200)
        return int(r.text)

    def pin(self, worker):
        """A keep-alive raw connection held by worker."""
        for _ in range(400):
            c = webtest.Conn(self.srv.port)
            if self.worker_of(c) == worker:
                self.conns.append(c)
                return c
            c.close()
        self.fail("no connection on worker %d" % worker)

    def page(self, worker):
        """The closures of /page, made on worker: {kind: (path, fnid)}."""
        c = self.pin(worker)
        r = self.ask(c, "GET", "/page")
        self.assertEqual(r.status, 200)
        text = r.text
        out = {}
        m = re.search(r"^link (/x)\?fnid=(\S+)$", text, re.M)
        out["link"] = (m.group(1), m.group(2))
        m = re.search(r"^rlink (/r)\?fnid=(\S+)$", text, re.M)
        out["rlink"] = (m.group(1), m.group(2))
        m = re.search(r"^slink (/x)\?fnid=(\S+)$", text, re.M)
        out["slink"] = (m.group(1), m.group(2))
        forms = re.findall(r'<form method="?post"? action="?(/\w)"?>'
                           r'<input type="?hidden"? name="?fnid"? value="?([^" >]+)"?>', text)
        self.assertEqual(len(forms), 2, text)
        out["form"], out["rform"] = forms
        for path, fnid in out.values():
            self.assertTrue(fnid.startswith("%d_" % worker), fnid)
        return out


class FnidWorkersTest(Closures, webtest.ServerTest):
    SCRIPT = "fnids.arc"
    WORKERS = 2

    # ---- followed on the other worker ------------------------------------

    def test_link_made_on_one_followed_on_the_other(self):
        for made, on in ((0, 1), (1, 0)):
            closures = self.page(made)
            c = self.pin(on)
            path, fnid = closures["link"]
            r = self.ask(c, "GET", "%s?fnid=%s&a=b%%20c" % (path, fnid))
            self.assertEqual(r.status, 200)
            self.assertEqual(r.text.strip(), "link made on %d followed on %d a=b c" % (made, made))
            # the connection is the maker's now, and stays open
            self.assertEqual(self.worker_of(c), made)
            # a redirecting link, on another connection of the other worker
            c = self.pin(on)
            path, fnid = closures["rlink"]
            r = self.ask(c, "GET", "%s?fnid=%s" % (path, fnid))
            self.assertEqual(r.status, 302, r.text)
            self.assertEqual(r.header("location"), "w?made=%d" % made)

    def test_form_made_on_one_posted_on_the_other(self):
        for made, on in ((0, 1), (1, 0)):
            closures = self.page(made)
            for size in (20, 300 * 1024):
                text = "".join("abcdefghij\u00e9"[i % 11] for i in range(size))
                path, fnid = closures["form"]
                body = urllib.parse.urlencode([("fnid", fnid), ("text", text)]).encode()
                c = self.pin(on)
                r = self.ask(c, "POST", path, body, FORM)
                self.assertEqual(r.status, 200, r.text[:300])
                self.assertEqual(r.text.strip(), "form made on %d followed on %d len %d digest %s"
                                 % (made, made, len(text), digest(text)))
                self.assertEqual(self.worker_of(c), made)
            path, fnid = closures["rform"]
            c = self.pin(on)
            r = self.ask(c, "POST", path, urllib.parse.urlencode(
                [("fnid", fnid), ("text", "x" * 5000)]).encode(), FORM)
            self.assertEqual(r.status, 302, r.text)
            self.assertEqual(r.header("location"), "w?made=%d&len=5000" % made)

    def test_pipelined_request_follows_the_connection(self):
        closures = self.page(0)
        c = self.pin(1)
        path, fnid = closures["form"]
        body = urllib.parse.urlencode([("fnid", fnid), ("text", "pipelined")]).encode()
        c.send(request_bytes("POST", path, FORM, body) + request_bytes("GET", "/w")
               + request_bytes("GET", "/w"))
        r = c.response()
        self.assertEqual(r.status, 200)
        self.assertIn("form made on 0 followed on 0 len 9", r.text)
        for _ in range(2):
            r = c.response()
            self.assertEqual((r.status, r.text), (200, "0"))

    def test_own_fnid_is_served_where_it_is(self):
        closures = self.page(1)
        c = self.pin(1)
        path, fnid = closures["link"]
        r = self.ask(c, "GET", "%s?fnid=%s&a=1" % (path, fnid))
        self.assertEqual(r.text.strip(), "link made on 1 followed on 1 a=1")

    def test_closure_made_before_the_fork_is_every_workers(self):
        c = self.pin(0)
        path = self.ask(c, "GET", "/shared").text.strip()
        self.assertRegex(path, r"^/x\?fnid=[0-9A-Za-z]{22}$")
        for on in (0, 1):
            c = self.pin(on)
            r = self.ask(c, "GET", path)
            self.assertEqual(r.text.strip(), "shared link followed on %d" % on)
            self.assertEqual(self.worker_of(c), on)

    # ---- fnids that name no closure ---------------------------------------

    def test_forged_and_unknown_fnids_are_expired(self):
        for on in (0, 1):
            for fnid in ("7_AAAAAAAAAAAAAAAAAAAAAA", "%d_AAAAAAAAAAAAAAAAAAAAAA" % (1 - on),
                         "123456_AAAA", "x_AAAA", "_AAAA", "AAAAAAAAAAAAAAAAAAAAAA"):
                c = self.pin(on)
                r = self.ask(c, "GET", "/x?fnid=" + fnid)
                self.assertEqual((r.status, r.text.strip()), (200, EXPIRED), fnid)
                c = self.pin(on)
                r = self.ask(c, "POST", "/r", ("fnid=%s" % fnid).encode(), FORM)
                self.assertEqual((r.status, r.header("location")), (302, "deadlink"), fnid)


class FnidWorkerDownTest(Closures, unittest.TestCase):
    """A server of its own for each test: they kill or stop a worker."""

    def setUp(self):
        super().setUp()
        self.srv = webtest.Server("fnids.arc", workers=2)
        self.srv.start()
        self.addCleanup(self.srv.stop)

    def pid_of(self, c):
        """The pid of the worker holding raw connection c."""
        pids = webtest.children(self.srv.proc.pid)
        ip, port = c.sock.getsockname()
        inode = webtest.socket_inode(self.srv.port, ip, port)
        pid = inode and webtest.holder(pids, inode)
        self.assertIn(pid, pids)
        return pid

    def test_fnid_of_a_restarted_worker_is_expired(self):
        closures = self.page(0)
        victim = self.pid_of(self.pin(0))
        os.kill(victim, signal.SIGKILL)
        self.assertTrue(webtest.wait_until(lambda: webtest.gone(victim)), "worker 0 not reaped")
        self.assertTrue(webtest.wait_until(
            lambda: (lambda c: len(c) == 2 and victim not in c)(
                webtest.children(self.srv.proc.pid))), "worker 0 was not restarted")
        # its closures died with it: the restarted worker 0 answers
        c = self.pin(1)
        path, fnid = closures["link"]
        r = self.ask(c, "GET", "%s?fnid=%s" % (path, fnid))
        self.assertEqual((r.status, r.text.strip()), (200, EXPIRED))
        self.assertEqual(self.worker_of(c), 0)
        # and what the new worker 0 makes, worker 1 routes to it
        fresh = self.page(0)
        c = self.pin(1)
        path, fnid = fresh["link"]
        r = self.ask(c, "GET", "%s?fnid=%s&a=2" % (path, fnid))
        self.assertEqual(r.text.strip(), "link made on 0 followed on 0 a=2")

    def test_owner_killed_with_requests_in_flight_answers_every_one(self):
        # Requests for worker 0's slow link, each on a connection worker 1
        # holds (so handed over), sent one every 10 ms; worker 0 is killed
        # while about ten are in its handler, others in its channel, others
        # on their way. Each gets an answer: the link's (answered before
        # the kill), the expired link's (its closures died: answered by the
        # restarted worker 0), or 503 with Retry-After (answered by worker
        # 1, which kept the connection until worker 0 wrote to it); never a
        # reset or an empty reply.
        closures = self.page(0)
        owner = self.pid_of(self.pin(0))
        conns = [self.pin(1) for _ in range(60)]
        path, fnid = closures["slink"]
        results = [None] * len(conns)

        def follow(k):
            time.sleep(0.01 * k)
            try:
                results[k] = self.ask(conns[k], "GET", "%s?fnid=%s" % (path, fnid),
                                      headers=[("Connection", "close")])
            except Exception as e:  # noqa: BLE001 - checked below
                results[k] = e

        threads = [threading.Thread(target=follow, args=(k,)) for k in range(len(conns))]
        for t in threads:
            t.start()
        self.assertTrue(webtest.wait_until(
            lambda: sum(getattr(r, "status", None) == 200 for r in results) >= 5, 10),
            "worker 0 answered none of its links: %r" % results[:5])
        os.kill(owner, signal.SIGKILL)
        for t in threads:
            t.join(30)
        kinds = {"link": 0, "expired": 0, "503": 0}
        for k, r in enumerate(results):
            self.assertIsInstance(r, webtest.Response, "request %d got no answer: %r" % (k, r))
            if r.status == 503:
                self.assertEqual(r.header("retry-after"), "1", r)
                kinds["503"] += 1
            elif r.text.strip() == EXPIRED:
                kinds["expired"] += 1
            else:
                self.assertEqual((r.status, r.text.strip()),
                                 (200, "slow link made on 0 followed on 0"), k)
                kinds["link"] += 1
        # the kill found requests in worker 0's handler: those are the 503s
        self.assertGreater(kinds["503"], 0, kinds)
        self.assertGreater(kinds["link"], 0, kinds)
        self.assertRegex(self.srv.log("err"), r"503 worker 0 ended before answering")

    def test_worker_taking_nothing_gets_503_not_a_hang(self):
        closures = self.page(0)
        owner = self.pid_of(self.pin(0))
        conns = [self.pin(1) for _ in range(60)]
        path, fnid = closures["form"]
        text = "y" * 15000  # close to what a channel's message carries
        body = urllib.parse.urlencode([("fnid", fnid), ("text", text)]).encode()
        os.kill(owner, signal.SIGSTOP)
        stopped = True
        try:
            results = [None] * len(conns)

            def post(k):
                try:
                    results[k] = self.ask(conns[k], "POST", path, body, FORM)
                except Exception as e:  # noqa: BLE001 - checked below
                    results[k] = e

            threads = [threading.Thread(target=post, args=(k,)) for k in range(len(conns))]
            for t in threads:
                t.start()
            # the channel fills; the rest wait conn-wait* (1 s) and get 503
            deadline = time.time() + 15
            while time.time() < deadline and not any(
                    getattr(r, "status", None) == 503 for r in results):
                time.sleep(0.05)
            time.sleep(1.5)
            os.kill(owner, signal.SIGCONT)
            stopped = False
            for t in threads:
                t.join(20)
        finally:
            if stopped:
                os.kill(owner, signal.SIGCONT)
        refused = [r for r in results if getattr(r, "status", None) == 503]
        served = [r for r in results if getattr(r, "status", None) == 200]
        self.assertTrue(refused, results[:3])
        self.assertTrue(served, results[:3])
        self.assertEqual(len(refused) + len(served), len(conns), results)
        for r in refused:
            self.assertIn("Service Unavailable", r.text)
        for r in served:
            self.assertEqual(r.text.strip(), "form made on 0 followed on 0 len %d digest %s"
                             % (len(text), digest(text)))
        self.assertRegex(self.srv.log("err"), r"503 worker 0 takes no connection")


if __name__ == "__main__":
    webtest.main()
