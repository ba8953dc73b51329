"""srv.arc's API end to end (docs/LANGUAGE.md 6.5): ops and their arguments, the
request table, redirectors, raw ops, cookies, max-age*, closures as links
and forms (fnids, timed ones expiring), the tutorial's "said" page, and the
request log. Server: servers/app.arc.

usage: python3 tests/web/test_srv.py path/to/arcana
"""
import os
import re
import sys
import time
import urllib.parse

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import webtest  # noqa: E402

FORM_RE = re.compile(r'<form method=post action="([^"]+)"><input type=hidden name="fnid" value="([^"]+)">')
HREF_RE = re.compile(r'<a href="([^"]+)">')
FORM_CT = {"Content-Type": "application/x-www-form-urlencoded"}


class SrvTest(webtest.ServerTest):
    SCRIPT = "app.arc"

    def get(self, path, headers=None):
        status, h, body = self.srv.get(path, headers)
        return status, h, body.decode("utf-8")

    def post(self, path, fields, headers=None):
        hs = dict(FORM_CT)
        hs.update(headers or {})
        status, h, body = self.srv.request("POST", path, urllib.parse.urlencode(fields), hs)
        return status, h, body.decode("utf-8")

    def page(self, path):
        status, _, body = self.get(path)
        self.assertEqual(status, 200, body)
        return body

    # ---- ops and arguments ----

    def test_defop_prints_page(self):
        status, h, body = self.get("/hello")
        self.assertEqual((status, body), (200, "Hello, world."))
        self.assertEqual(h["content-type"], "text/html; charset=utf-8")

    def test_query_argument(self):
        self.assertEqual(self.get("/hello?name=bob")[2], "Hello, bob.")

    def test_arguments_are_url_decoded_names_are_not(self):
        self.assertEqual(self.get("/arg?k=a%20b+c%C3%A9%21")[2], '"a b cé!"')
        self.assertEqual(self.get("/args?x%41=1&y=&z")[2], '(("x%41" "1") ("y" "") ("z" ""))')

    def test_missing_argument_is_nil(self):
        self.assertEqual(self.get("/arg?other=1")[2], "nil")

    def test_root_op(self):
        self.assertEqual(self.get("/")[:3:2], (200, "It's alive."))

    def test_unknown_op_is_404(self):
        status, _, body = self.get("/no-such-op")
        self.assertEqual((status, body), (404, "Unknown."))

    def test_post_form_arguments_then_query(self):
        status, _, body = self.post("/args?q=3", [("a", "1"), ("b", "x y&z")])
        self.assertEqual(status, 200)
        self.assertEqual(body, '(("a" "1") ("b" "x y&z") ("q" "3"))')

    def test_post_without_content_type_is_a_form(self):
        # Arc 3.1 reads any POST body as form arguments.
        status, _, body = self.srv.request("POST", "/args", "a=1&b=2", {})
        self.assertEqual(body.decode(), '(("a" "1") ("b" "2"))')

    # ---- the request table ----

    def test_request_type(self):
        self.assertEqual(self.get("/field?f=type")[2], "get")
        self.assertEqual(self.post("/field?f=type", [])[2], "post")
        # A HEAD runs the op (its type is head) and drops the body it printed.
        status, h, body = self.srv.request("HEAD", "/field?f=type")
        self.assertEqual((status, body, h["content-length"]), (200, b"", "4"))

    def test_request_op_path_query(self):
        self.assertEqual(self.get("/field?f=op")[2], "field")
        self.assertEqual(self.get("/field?f=path")[2], '"field"')
        self.assertEqual(self.get("/field?f=query&x=%41")[2], '"f=query&x=%41"')
        self.assertEqual(self.get("/field?f=version")[2], '"1.1"')

    def test_request_ip(self):
        self.assertEqual(self.get("/field?f=ip")[2], '"127.0.0.1"')
        c = self.conn(src="127.0.0.2")
        c.send(webtest.request_bytes("GET", "/field?f=ip"))
        self.assertEqual(c.response().text, '"127.0.0.2"')

    def test_request_headers_lower_cased(self):
        self.assertEqual(self.get("/header?h=x-test", {"X-TeSt": "Some Value"})[2], '"Some Value"')
        self.assertEqual(self.get("/header?h=user-agent", {"User-Agent": "tester/1"})[2], '"tester/1"')
        self.assertEqual(self.get("/header?h=x-none")[2], "nil")

    def test_request_cookies(self):
        body = self.get("/field?f=cooks", {"Cookie": "user=abc; theme=dark"})[2]
        self.assertEqual(body, '(("user" "abc") ("theme" "dark"))')
        self.assertEqual(self.get("/field?f=cooks")[2], "nil")

    def test_request_body_when_not_a_form(self):
        status, _, body = self.srv.request("POST", "/field?f=body", '{"a": [1, 2]}',
                                           {"Content-Type": "application/json"})
        self.assertEqual(body.decode(), r'"{\"a\": [1, 2]}"')
        # A form's body is parsed into args, not kept.
        self.assertEqual(self.post("/field?f=body", [("a", "1")])[2], "nil")
        status, _, body = self.srv.request("POST", "/args?q=1", '{"a": 1}',
                                           {"Content-Type": "application/json"})
        self.assertEqual(body.decode(), '(("q" "1"))')

    # ---- redirectors and raw ops ----

    def test_defopr_redirects(self):
        status, h, body = self.get("/go?to=carol")
        self.assertEqual(status, 302)
        self.assertEqual(h["location"], "hello?name=carol")
        self.assertEqual(h["content-length"], "0")

    def test_defopr_prints_header_lines(self):
        status, h, _ = self.get("/login")
        self.assertEqual(status, 302)
        self.assertEqual(h["location"], "hello?name=alice")
        self.assertEqual(h["set-cookie"], "user=alice; Path=/")

    def test_defop_raw(self):
        status, h, body = self.get("/raw")
        self.assertEqual((status, body), (200, "raw body for get"))
        self.assertEqual(h["x-raw"], "yes")
        self.assertEqual(h["set-cookie"], "r=1")
        self.assertEqual(h["content-type"], "text/html; charset=utf-8")

    def test_max_age(self):
        status, h, body = self.get("/cached")
        self.assertEqual((status, body), (200, "cached"))
        self.assertEqual(h["cache-control"], "max-age=60")
        self.assertNotIn("cache-control", self.get("/hello")[1])

    # ---- closures: fnids ----

    def test_said_tutorial(self):
        html = self.page("/said")
        (action, fnid), = FORM_RE.findall(html)
        self.assertEqual(action, "/x")
        self.assertRegex(fnid, r"^[A-Za-z0-9]{22}$")
        self.assertIn('<input type=text name="foo"', html)
        status, _, body = self.post("/x", [("fnid", fnid), ("foo", "hello there")])
        self.assertEqual(status, 200)
        (link,) = HREF_RE.findall(body)
        self.assertTrue(link.startswith("/x?fnid="), link)
        self.assertIn(">click here</a>", body)
        self.assertEqual(self.page(link).strip(), "you said: hello there")

    def test_links(self):
        links = HREF_RE.findall(self.page("/links"))
        self.assertEqual(len(links), 5, links)
        wlink, onlink, linkf, rflink, wrlink = links
        for l in (wlink, onlink, linkf):
            self.assertTrue(l.startswith("/x?fnid="), l)
        self.assertEqual(self.page(wlink).strip(), "w/link followed")
        self.assertEqual(self.page(onlink).strip(), "onlink followed")
        self.assertEqual(self.page(linkf + "&extra=42").strip(), "linkf sees 42")
        # rflink and w/rlink: /r redirects to the closure's value.
        self.assertTrue(rflink.startswith("/r?fnid="), rflink)
        status, h, _ = self.get(rflink + "&who=dave")
        self.assertEqual((status, h["location"]), (302, "hello?name=dave"))
        status, h, _ = self.get(wrlink)
        self.assertEqual((status, h["location"]), (302, "hello?name=rlink"))

    def test_closures_are_distinct_per_page(self):
        a = HREF_RE.findall(self.page("/links"))
        b = HREF_RE.findall(self.page("/links"))
        self.assertFalse(set(a) & set(b))

    def test_aform(self):
        forms = FORM_RE.findall(self.page("/forms"))
        self.assertEqual([f[0] for f in forms], ["/x", "/r", "/y", "/x", "/r"])
        status, _, body = self.post("/x?q=fromquery", [("fnid", forms[0][1]), ("v", "val")])
        self.assertEqual((status, body.strip()), (200, "aform got val and fromquery"))

    def test_arform_redirects(self):
        forms = FORM_RE.findall(self.page("/forms"))
        status, h, _ = self.post("/r", [("fnid", forms[1][1]), ("v", "erin")])
        self.assertEqual((status, h["location"]), (302, "hello?name=erin"))

    def test_arformh_prints_header_lines(self):
        forms = FORM_RE.findall(self.page("/forms"))
        status, h, _ = self.post("/y", [("fnid", forms[2][1]), ("v", "cookieval")])
        self.assertEqual(status, 302)
        self.assertEqual(h["location"], "hello?name=arformh")
        self.assertEqual(h["set-cookie"], "h=cookieval")

    def test_aformh_prints_header_lines(self):
        (action, fnid), = FORM_RE.findall(self.page("/hform"))
        self.assertEqual(action, "/x")
        status, h, body = self.post("/x", [("fnid", fnid), ("v", "hv")])
        self.assertEqual((status, body), (200, "aformh body"))
        self.assertEqual(h["x-from-closure"], "hv")

    def test_unknown_fnid(self):
        status, _, body = self.get("/x?fnid=NoSuchFnidAtAllxxxxxxx")
        self.assertEqual((status, body.strip()), (200, "Unknown or expired link."))
        self.assertEqual(self.get("/x")[2].strip(), "Unknown or expired link.")
        status, h, _ = self.get("/r?fnid=nosuch")
        self.assertEqual((status, h["location"]), (302, "deadlink"))
        status, h, _ = self.get("/y?fnid=nosuch")
        self.assertEqual((status, h["location"]), (302, "deadlink"))
        self.assertEqual(self.get("/deadlink")[2].strip(), "Unknown or expired link.")

    def test_jfnurl_runs_closure_and_drops_output(self):
        url = self.page("/alink")
        self.assertTrue(url.startswith("/a?fnid="), url)
        status, _, body = self.get(url + "&v=seven")
        self.assertEqual((status, body), (200, ""))
        self.assertEqual(self.get("/ahit")[2], '"seven"')

    def test_timed_fnids_expire(self):
        # Two of each: one used at once (alive), one after it expired.
        forms1 = FORM_RE.findall(self.page("/forms"))
        forms2 = FORM_RE.findall(self.page("/forms"))
        link1, link2 = self.page("/tlink"), self.page("/tlink")
        self.assertEqual(self.post("/x", [("fnid", forms1[3][1])])[2].strip(), "taform ok")
        status, h, _ = self.post("/r", [("fnid", forms1[4][1])])
        self.assertEqual((status, h["location"]), (302, "hello?name=tarform"))
        self.assertEqual(self.page(link1).strip(), "timed link ok")
        time.sleep(2.2)  # a lifetime of 1 s, counted in whole seconds
        self.assertEqual(self.post("/x", [("fnid", forms2[3][1])])[2].strip(),
                         "Unknown or expired link.")
        status, h, _ = self.post("/r", [("fnid", forms2[4][1])])
        self.assertEqual((status, h["location"]), (302, "deadlink"))
        self.assertEqual(self.page(link2).strip(), "Unknown or expired link.")
        # An expired fnid's name leaves the intern table with its closure
        # (the server makes them by the thousand); a live one's stays.
        self.assertEqual(self.page("/interned?s=" + forms2[3][1]), "nil")
        self.assertEqual(self.page("/interned?s=" + forms2[0][1]), "t")
        # An untimed closure of the same page still works.
        self.assertEqual(self.post("/x", [("fnid", forms2[0][1]), ("v", "1")])[2].strip(),
                         "aform got 1 and nil")

    # ---- opstats*: what each op's requests cost ----

    def opstats(self):
        rows = {}
        for line in self.page("/opstats").splitlines():
            op, n, objs, nbytes, disp = line.split()
            rows[op] = (int(n), float(objs), float(nbytes), disp)
        return rows

    def test_opstats_charge_each_request_its_own_work(self):
        # Requests of one op making n conses, two at once (each sleeps
        # first, so each one's meter runs across the other's work): a pair
        # of n = 10000 and 30000 makes 20,000 conses (24 bytes each) more
        # than a pair of 10000 and 10000, whatever the other request did
        # meanwhile. (Arguments of one length: the same bytes to parse.)
        import threading

        def pair(n0, n1):
            ts = [threading.Thread(target=self.get, args=("/conses?n=%d" % n,)) for n in (n0, n1)]
            for t in ts:
                t.start()
            for t in ts:
                t.join()
            return self.opstats()["conses"]

        self.get("/conses?n=10000")  # the op's entry is made: not in a pair
        before = self.opstats()["conses"]
        zero = pair(10000, 10000)
        both = pair(10000, 30000)
        self.assertEqual(zero[0] - before[0], 2)
        self.assertEqual(both[0], zero[0] + 2)
        # totals back from the means
        total = lambda s: (s[0] * s[1], s[0] * s[2])
        objs0, bytes0 = (a - b for a, b in zip(total(zero), total(before)))
        objs1, bytes1 = (a - b for a, b in zip(total(both), total(zero)))
        self.assertEqual(round(objs1 - objs0), 20000)
        self.assertEqual(round(bytes1 - bytes0), 20000 * 24)
        self.assertEqual(both[3], "-")  # dispatches: not counted here

    # ---- the request log ----

    # ---- memory follows the load down ----

    def test_idle_server_collects_once_per_pause(self):
        # srv.arc: after srv-idle-requests* (100) requests, srv-idle-after*
        # (0.1 s) without one makes a full collection (and gives memory
        # back); a pause after fewer requests makes none.
        for _ in range(110):
            self.get("/hello")
        m0 = int(self.page("/gcmajors"))
        time.sleep(0.6)
        m1 = int(self.page("/gcmajors"))
        self.assertGreater(m1, m0, "no collection once the server was idle")
        time.sleep(0.6)
        self.assertEqual(int(self.page("/gcmajors")), m1, "a collection for a pause after 1 request")
        self.assertEqual(self.get("/hello")[2], "Hello, world.")

    def test_request_log(self):
        before = len(self.srv.log("srv"))
        self.get("/hello?name=zed&other=1", {"Cookie": "user=secretvalue; lang=en"})
        text = self.srv.wait_log("srv", r"hello \(name zed\)", since=before)
        line = re.search(r"^.*hello \(name zed\).*$", text, re.M).group(0)
        # seconds ip status parse-ms respond-ms [***] type op first-arg cookie-names
        self.assertRegex(line, r"^\d{9,} 127\.0\.0\.1 200 \d+ \d+ +get hello \(name zed\) \(user lang\)$")
        self.assertNotIn("secretvalue", self.srv.log("srv"))
        now = int(time.time())
        self.assertLessEqual(abs(int(line.split()[0]) - now), 5)
        # one file a day: arc/logs/srv-YYYY-MM-DD
        names = os.listdir(self.srv.path("arc", "logs"))
        self.assertIn("srv-" + time.strftime("%Y-%m-%d"), names)

    def test_request_log_post_and_no_fnid(self):
        html = self.page("/said")
        (_, fnid), = FORM_RE.findall(html)
        before = len(self.srv.log("srv"))
        self.post("/x", [("fnid", fnid), ("foo", "bar")])
        text = self.srv.wait_log("srv", r" post x ", since=before)
        self.assertRegex(text, r"(?m)^\d+ 127\.0\.0\.1 200 \d+ \d+ +post x +nil$")
        self.assertNotIn(fnid, self.srv.log("srv"))

    def test_request_log_marks_slow_requests(self):
        before = len(self.srv.log("srv"))
        self.assertEqual(self.get("/slow")[2], "slow")
        text = self.srv.wait_log("srv", r" slow ", since=before)
        self.assertRegex(text, r"(?m)^\d+ 127\.0\.0\.1 200 \d+ (\d+) \*\*\* get slow nil nil$")
        ms = int(re.search(r"^\d+ 127\.0\.0\.1 200 \d+ (\d+) ", text, re.M).group(1))
        self.assertGreaterEqual(ms, 1000)

    def test_request_log_status(self):
        # each line names the status sent, so that a 404 (or a 500) can be found
        before = len(self.srv.log("srv"))
        self.assertEqual(self.get("/no-such-op?q=lost")[0], 404)
        self.assertEqual(self.get("/go?to=x")[0], 302)
        self.assertEqual(self.get("/boom?k=b")[0], 500)
        self.assertEqual(self.get("/hello?name=st")[0], 200)
        text = self.srv.wait_log("srv", r"\(name st\)", since=before)
        self.assertRegex(text, r"(?m)^\d+ 127\.0\.0\.1 404 \d+ \d+ +get no-such-op \(q lost\) nil$")
        self.assertRegex(text, r"(?m)^\d+ 127\.0\.0\.1 302 \d+ \d+ +get go \(to x\) nil$")
        self.assertRegex(text, r"(?m)^\d+ 127\.0\.0\.1 500 \d+ \d+ +get boom \(k b\) nil$")
        self.assertRegex(text, r"(?m)^\d+ 127\.0\.0\.1 200 \d+ \d+ +get hello \(name st\) nil$")

    def test_every_request_logged(self):
        before = len(self.srv.log("srv"))
        for i in range(5):
            self.get("/hello?name=n%d" % i)
        text = self.srv.wait_log("srv", r"\(name n4\)", since=before)
        for i in range(5):
            self.assertEqual(len(re.findall(r" get hello \(name n%d\) " % i, text)), 1, text)


if __name__ == "__main__":
    webtest.main()
