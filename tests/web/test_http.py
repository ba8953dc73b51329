"""HTTP/1.1 on the wire, end to end: framing (Content-Length, Date),
keep-alive for 1.1 and 1.0, Connection: close from either side, HEAD,
url-encoded, chunked and multipart bodies, Expect: 100-continue,
pipelining; and the answers to bad input (400, 405, 501, 505, 431, 413,
414), among them what a proxy in front could read otherwise (request
smuggling: RFC 9112's strict framing, Host, transfer codings), to slow and silent clients (408, closing), idle connections, failing
handlers (500) and overlong ones (503), each logged in the error log (in
one line; a 500's holds the Arc backtrace too, its frames joined by " | "), after which the
server goes on answering. Server:
servers/proto.arc (timeouts of 1 s).

usage: python3 tests/web/test_http.py path/to/arcana
"""
import email.utils
import os
import re
import socket
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import webtest  # noqa: E402
from webtest import request_bytes

ERR_LINE = re.compile(r"^(\d{9,}) 127\.0\.0\.1 (\d{3}) (.*)$", re.M)


class HttpTest(webtest.ServerTest):
    SCRIPT = "proto.arc"

    def get(self, c, path, headers=(), version="HTTP/1.1", head=False):
        c.send(request_bytes("HEAD" if head else "GET", path, headers, version=version))
        r = c.response(head_request=head)
        if not head:
            self.assert_framing(r)
        return r

    # ---- framing and keep-alive ----

    def test_content_length_and_date(self):
        c = self.conn()
        r = self.get(c, "/hello")
        self.assertEqual((r.status, r.body), (200, b"hello"))
        self.assertEqual(r.header("content-length"), "5")
        self.assertRegex(r.header("date"), r"^\w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT$")
        self.assertEqual(len(r.all("date")), 1)
        self.assertEqual(len(r.all("content-length")), 1)
        sent = email.utils.parsedate_to_datetime(r.header("date")).timestamp()
        self.assertLess(abs(sent - time.time()), 5)
        self.assertEqual(r.version, "HTTP/1.1")
        # CRLF line ends on the wire, though Arc handlers print bare \n.
        self.assertNotIn(b"\n", r.head_bytes.replace(b"\r\n", b""))
        r = self.get(c, "/no-such-op")
        self.assertEqual(r.status, 404)
        r = self.get(c, "/boom")
        self.assertEqual(r.status, 500)

    def test_server_owns_framing_headers(self):
        c = self.conn()
        r = self.get(c, "/liar")
        self.assertEqual((r.status, r.body), (200, b"truth"))
        self.assertEqual(r.all("content-length"), ["5"])
        self.assertEqual(len(r.all("date")), 1)
        self.assertNotEqual(r.header("date"), "yesterday")
        self.assertIsNone(r.header("transfer-encoding"))
        self.assertEqual(r.header("x-kept"), "yes")
        # header* and this handler say Connection: close; the connection stays open
        self.assertIsNone(r.header("connection"))
        self.assertEqual(self.get(c, "/hello").body, b"hello")

    def test_absolute_form_target(self):
        c = self.conn()
        self.assertEqual(self.get(c, "http://127.0.0.1/n?i=abs").body, b"n=abs")

    def test_keep_alive_http11(self):
        c = self.conn()
        for i in range(5):
            r = self.get(c, "/n?i=%d" % i)
            self.assertEqual(r.body, b"n=%d" % i)
            self.assertIsNone(r.header("connection"))
        self.assertEqual(self.get(c, "/version").body, b"1.1")

    def test_http10_closes_by_default(self):
        c = self.conn()
        r = self.get(c, "/version", version="HTTP/1.0")
        self.assertEqual((r.status, r.body), (200, b"1.0"))
        self.assertEqual(r.version, "HTTP/1.1")
        self.assertEqual(r.header("connection"), "close")
        self.assertTrue(c.closed_by_peer())

    def test_http10_keep_alive(self):
        c = self.conn()
        for i in range(3):
            r = self.get(c, "/n?i=%d" % i, [("Connection", "keep-alive")], version="HTTP/1.0")
            self.assertEqual(r.body, b"n=%d" % i)
            self.assertEqual(r.header("connection"), "keep-alive")
        self.assertFalse(c.closed_by_peer(within=0.3))

    def test_client_connection_close(self):
        c = self.conn()
        self.get(c, "/hello")
        r = self.get(c, "/hello", [("Connection", "close")])
        self.assertEqual((r.status, r.body), (200, b"hello"))
        self.assertEqual(r.header("connection"), "close")
        self.assertTrue(c.closed_by_peer())

    def test_handler_closing_its_output_closes_connection(self):
        c = self.conn()
        r = self.get(c, "/closeme")
        self.assertEqual((r.status, r.body), (200, b"closing"))
        self.assertEqual(r.header("connection"), "close")
        self.assertTrue(c.closed_by_peer())
        self.assert_alive()

    def test_head(self):
        c = self.conn()
        g = self.get(c, "/hello")
        h = self.get(c, "/hello", head=True)
        self.assertEqual(h.status, 200)
        self.assertEqual(h.header("content-length"), g.header("content-length"))
        self.assertEqual(h.header("content-type"), g.header("content-type"))
        # No body came: the next response follows the head at once.
        r = self.get(c, "/n?i=after")
        self.assertEqual(r.body, b"n=after")
        h = self.get(c, "/no-such-op", head=True)
        self.assertEqual((h.status, h.body), (404, b""))
        self.assertEqual(self.get(c, "/n?i=2").body, b"n=2")

    def test_pipelining(self):
        c = self.conn()
        # The first is slow: the others wait their turn.
        c.send(request_bytes("GET", "/sleep?s=0.3")
               + b"".join(request_bytes("GET", "/n?i=%d" % i) for i in range(1, 6))
               + request_bytes("HEAD", "/hello")
               + request_bytes("POST", "/args", [("Content-Type", "application/x-www-form-urlencoded")], b"p=1")
               + request_bytes("GET", "/n?i=last"))
        self.assertEqual(c.response().body, b"slept")
        for i in range(1, 6):
            self.assertEqual(c.response().body, b"n=%d" % i)
        self.assertEqual(c.response(head_request=True).header("content-length"), "5")
        self.assertEqual(c.response().body, b'(("p" "1"))')
        self.assertEqual(c.response().body, b"n=last")

    def test_slow_handler_does_not_hold_up_others(self):
        slow = self.conn()
        slow.send(request_bytes("GET", "/sleep?s=0.8"))
        time.sleep(0.1)
        t0 = time.time()
        c = self.conn()
        self.assertEqual(self.get(c, "/hello").body, b"hello")
        self.assertLess(time.time() - t0, 0.5)
        self.assertEqual(slow.response().body, b"slept")

    def test_many_connections_at_once(self):
        cs = [self.conn() for _ in range(60)]
        for i, c in enumerate(cs):
            c.send(request_bytes("GET", "/n?i=%d" % i))
        for i, c in enumerate(cs):
            self.assertEqual(c.response().body, b"n=%d" % i)

    # ---- bodies ----

    def test_urlencoded_post(self):
        c = self.conn()
        c.send(request_bytes("POST", "/args?q=2", [("Content-Type", "application/x-www-form-urlencoded")],
                             b"a=1&b=x+y%21&c=%C3%A9"))
        r = c.response()
        self.assertEqual(r.status, 200)
        self.assertEqual(r.text, '(("a" "1") ("b" "x y!") ("c" "é") ("q" "2"))')

    def test_chunked_post(self):
        c = self.conn()
        c.send(request_bytes("POST", "/args", [("Transfer-Encoding", "chunked"),
                                               ("Content-Type", "application/x-www-form-urlencoded")])
               + b"4\r\na=12\r\n6\r\n&b=345\r\n0\r\n\r\n")
        self.assertEqual(c.response().text, '(("a" "12") ("b" "345"))')

    def test_pipelined_bad_request_after_good_ones(self):
        c = self.conn()
        c.send(request_bytes("GET", "/n?i=1") + request_bytes("GET", "/n?i=2")
               + b"GET /hello HTTP/1.1 junk\r\nHost: x\r\n\r\n" + request_bytes("GET", "/n?i=never"))
        self.assertEqual(c.response().body, b"n=1")
        self.assertEqual(c.response().body, b"n=2")
        r = c.response()
        self.assertEqual(r.status, 400)
        self.assertTrue(c.closed_by_peer())

    def test_expect_100_continue_over_limit_413(self):
        c = self.conn()
        c.send(b"POST /small HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\nExpect: 100-continue\r\n"
               b"Content-Type: application/x-www-form-urlencoded\r\n\r\n")
        r = c.response()  # at once, without a 100 Continue first
        self.assertEqual(r.status, 413)
        self.assertTrue(c.closed_by_peer())

    def test_expect_100_continue(self):
        c = self.conn()
        c.send(b"POST /args HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nExpect: 100-continue\r\n"
               b"Content-Type: application/x-www-form-urlencoded\r\n\r\n")
        r = c.response()
        self.assertEqual(r.status, 100)
        c.send(b"k=v")
        r = c.response()
        self.assertEqual((r.status, r.text), (200, '(("k" "v"))'))

    def test_multipart_fields(self):
        ctype, body = webtest.multipart([("title", "A title"), ("note", "line1\r\nline2 é")], [])
        c = self.conn()
        c.send(request_bytes("POST", "/args?q=1", [("Content-Type", ctype)], body))
        r = c.response()
        self.assertEqual(r.status, 200)
        self.assertEqual(r.text, '(("title" "A title") ("note" "line1\\r\\nline2 é") ("q" "1"))')

    def test_multipart_binary_upload(self):
        data = bytes(range(256)) * 64 + b"\r\n--not-the-boundary\r\n" + bytes(range(255, -1, -1))
        ctype, body = webtest.multipart([("desc", "bytes")],
                                        [("file", "blob.bin", "application/octet-stream", data)])
        c = self.conn()
        c.send(request_bytes("POST", "/files", [("Content-Type", ctype)], body))
        r = c.response()
        self.assertEqual(r.text, '(("file" "blob.bin" "application/octet-stream" %d))' % len(data))
        c.send(request_bytes("POST", "/upload", [("Content-Type", ctype)], body))
        r = c.response()
        self.assertEqual(r.status, 200)
        self.assertEqual(r.header("content-length"), str(len(data)))
        self.assertEqual(r.body, data)

    def test_multipart_several_files(self):
        files = [("a", "one.txt", "text/plain", b"first file\n"),
                 ("b", "two words.png", "image/png", b"\x89PNG\x00\xff"),
                 ("c", "empty.dat", "application/octet-stream", b"")]
        ctype, body = webtest.multipart([("t", "x")], files)
        c = self.conn()
        c.send(request_bytes("POST", "/files", [("Content-Type", ctype)], body))
        self.assertEqual(c.response().text,
                         '(("a" "one.txt" "text/plain" 11) ("b" "two words.png" "image/png" 6)'
                         ' ("c" "empty.dat" "application/octet-stream" 0))')

    def test_malformed_multipart_is_400(self):
        ctype = "multipart/form-data; boundary=XYZ"
        self.bad(request_bytes("POST", "/args", [("Content-Type", ctype)], b"--XYZ\r\nno end"), 400)

    # ---- bad input ----

    def err_log(self):
        return self.srv.log("err")

    def bad(self, data, status, closes=True, then_alive=True):
        """Sends data; expects an answer with status, one new line in the
        error log naming it, the connection closed, the server alive."""
        before = len(self.err_log())
        c = self.conn()
        c.send(data)
        r = c.response()
        self.assertEqual(r.status, status, r)
        self.assert_framing(r)
        if closes:
            self.assertEqual(r.header("connection"), "close")
            self.assertTrue(c.closed_by_peer())
        self.assert_logged_once(before, status)
        if then_alive:
            self.assert_alive()
        return r

    def assert_logged_once(self, before, status):
        text = self.srv.wait_log("err", r"^\d+ 127\.0\.0\.1 %d " % status, since=before)
        time.sleep(0.05)
        text = self.err_log()[before:]
        lines = text.splitlines()
        self.assertTrue(text.endswith("\n"), text)
        self.assertEqual([l for l in lines if not ERR_LINE.match(l)], [], text)
        self.assertEqual([m.group(2) for m in ERR_LINE.finditer(text)], [str(status)], text)

    def test_malformed_request_line(self):
        r = self.bad(b"GET /hello HTTP/1.1 junk\r\nHost: x\r\n\r\n", 400)
        self.assertTrue(r.text.startswith("Bad Request"), r.text)
        self.bad(b"GET /hello HTTP/x.y\r\nHost: x\r\n\r\n", 400)

    def test_malformed_header(self):
        self.bad(b"GET /hello HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n", 400)
        self.bad(b"GET /hello HTTP/1.1\r\nHost: x\r\nX: a\x01b\r\n\r\n", 400)

    def test_malformed_chunk(self):
        self.bad(b"POST /args HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nab\r\n0\r\n\r\n", 400)

    def test_conflicting_lengths(self):
        self.bad(b"POST /args HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\na=1", 400)

    def test_bad_content_length(self):
        self.bad(b"POST /args HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n", 400)
        self.bad(b"POST /args HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n", 400)

    def test_chunked_with_length_refused(self):
        # both framings at once (request smuggling): refused, not guessed at
        self.bad(b"POST /args HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n"
                 b"3\r\na=1\r\n0\r\n\r\n", 400)

    # ---- strict framing: what a proxy in front reads otherwise (RFC 9112) ----

    def smuggled(self, data, status):
        """data ends in a request a lenient server would answer next: the
        answer is status alone, and the connection closes."""
        r = self.bad(data + request_bytes("GET", "/n?i=smuggled"), status)
        self.assertNotIn(b"smuggled", r.body)

    def test_chunk_data_not_followed_by_crlf_400(self):
        te = [("Transfer-Encoding", "chunked")]
        self.smuggled(request_bytes("POST", "/args", te) + b"3\r\nabcXX0\r\n\r\n", 400)
        self.smuggled(request_bytes("POST", "/args", te) + b"3\r\nabc\n0\r\n\r\n", 400)
        self.smuggled(request_bytes("POST", "/args", te) + b"3\rXabc\r\n0\r\n\r\n", 400)

    def test_host_missing_or_twice_400(self):
        self.bad(b"GET /hello HTTP/1.1\r\n\r\n", 400)
        self.bad(b"GET /hello HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400)
        self.bad(b"GET /hello HTTP/1.1\r\nHost: a b\r\n\r\n", 400)
        self.bad(b"GET /hello HTTP/1.0\r\nHost: a\r\nHost: a\r\n\r\n", 400)
        # HTTP/1.0 may leave it out
        c = self.conn()
        c.send(b"GET /hello HTTP/1.0\r\n\r\n")
        self.assertEqual((c.response().status, c.closed_by_peer()), (200, True))

    def test_transfer_coding_not_chunked_501_or_400(self):
        self.smuggled(request_bytes("POST", "/args", [("Transfer-Encoding", "gzip, chunked")])
                      + b"3\r\na=1\r\n0\r\n\r\n", 501)
        self.smuggled(request_bytes("POST", "/args", [("Transfer-Encoding", "chunked, gzip")])
                      + b"3\r\na=1\r\n0\r\n\r\n", 400)
        self.smuggled(request_bytes("POST", "/args", [("Transfer-Encoding", "gzip")]) + b"a=1", 400)
        self.smuggled(b"POST /args HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n"
                      b"3\r\na=1\r\n0\r\n\r\n", 400)

    def test_request_line_spaces_and_controls_400(self):
        self.bad(b"GET  /hello  HTTP/1.1\r\nHost: x\r\n\r\n", 400)
        self.bad(b" GET /hello HTTP/1.1\r\nHost: x\r\n\r\n", 400)
        self.bad(b"GET /hello  HTTP/1.1\r\nHost: x\r\n\r\n", 400)
        self.bad(b"GET /hel\x0clo HTTP/1.1\r\nHost: x\r\n\r\n", 400)
        self.bad(b"GET /hel\tlo HTTP/1.1\r\nHost: x\r\n\r\n", 400)
        self.bad(b"GET /hel\x7flo HTTP/1.1\r\nHost: x\r\n\r\n", 400)
        self.bad(b"GET /hello HTTP/1.1\rHost: x\r\n\r\n", 400)  # a CR without LF

    def test_length_twice_or_with_chunked_400(self):
        self.smuggled(b"POST /args HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n"
                      b"Content-Length: 3\r\n\r\na=1", 400)
        self.smuggled(b"POST /args HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n"
                      b"Transfer-Encoding: chunked\r\n\r\n3\r\na=1\r\n0\r\n\r\n", 400)

    def test_bad_escape_and_target(self):
        self.bad(b"GET /hello?a=%zz HTTP/1.1\r\nHost: x\r\n\r\n", 400)
        self.bad(b"GET * HTTP/1.1\r\nHost: x\r\n\r\n", 400)

    def test_put_delete_405(self):
        for m in ("PUT", "DELETE"):
            r = self.bad(request_bytes(m, "/hello", body=b"some body"), 405)
            self.assertEqual(r.header("allow"), "GET, HEAD, POST")

    def test_unknown_method_501(self):
        self.bad(b"FROB /hello HTTP/1.1\r\nHost: x\r\n\r\n", 501)
        self.bad(b"FROB /hello HTTP/1.1\r\n\r\n", 501)

    def test_not_a_request_line_400(self):
        # Not method SP target SP HTTP/d.d (RFC 9112 3): 400, whatever the
        # method; 501 is for a well-formed line naming an unknown one.
        r = self.bad(b"GARBAGE\r\n\r\n", 400)
        self.assertTrue(r.text.startswith("Bad Request"), r.text)
        self.bad(b"FROB /hello\r\nHost: x\r\n\r\n", 400)
        self.bad(b"GET  /hello HTTP/1.1\r\nHost: x\r\n\r\n", 400)

    def test_http2_request_line_505(self):
        self.bad(b"GET /hello HTTP/2.0\r\nHost: x\r\n\r\n", 505)

    def test_header_block_over_8k_431(self):
        self.bad(request_bytes("GET", "/hello", [("X-Pad", "a" * 9000)]), 431)
        # many small headers, over 8 KiB together
        self.bad(request_bytes("GET", "/hello", [("X-H%d" % i, "v" * 90) for i in range(100)]), 431)
        # just under: served
        c = self.conn()
        r = self.get(c, "/hello", [("X-Pad", "a" * 7000)])
        self.assertEqual(r.status, 200)

    def test_uri_over_8k_414(self):
        self.bad(request_bytes("GET", "/hello?x=" + "a" * 9000), 414)
        c = self.conn()
        self.assertEqual(self.get(c, "/n?i=" + "b" * 7000).body, b"n=" + b"b" * 7000)

    def test_body_over_default_limit_413(self):
        big = b"d=" + b"x" * (1024 * 1024)
        self.bad(request_bytes("POST", "/big", [("Content-Type", "application/x-www-form-urlencoded")], big), 413)
        # within the limit: served
        ok = b"d=" + b"x" * (1024 * 1024 - 100)
        c = self.conn()
        c.send(request_bytes("POST", "/big", [("Content-Type", "application/x-www-form-urlencoded")], ok))
        self.assertEqual(c.response().body, str(1024 * 1024 - 100).encode())

    def test_body_over_op_limit_413(self):
        form = [("Content-Type", "application/x-www-form-urlencoded")]
        c = self.conn()
        c.send(request_bytes("POST", "/small", form, b"d=" + b"y" * 98))  # 100 bytes
        self.assertEqual(c.response().body, b"98")
        self.bad(request_bytes("POST", "/small", form, b"d=" + b"y" * 99), 413)
        # the same body is fine for an op with the default limit
        c = self.conn()
        c.send(request_bytes("POST", "/big", form, b"d=" + b"y" * 99))
        self.assertEqual(c.response().body, b"99")

    def test_chunked_body_over_op_limit_413(self):
        chunks = b"".join(b"20\r\n" + b"z" * 32 + b"\r\n" for _ in range(5)) + b"0\r\n\r\n"
        self.bad(request_bytes("POST", "/small", [("Transfer-Encoding", "chunked")]) + chunks, 413)

    def test_error_log_file_name(self):
        self.bad(b"GET /hello HTTP/1.1 junk\r\nHost: x\r\n\r\n", 400, then_alive=False)
        names = os.listdir(self.srv.path("arc", "logs"))
        self.assertIn("err-" + time.strftime("%Y-%m-%d"), names)

    # ---- slow, silent and idle clients ----

    def test_stalled_body_408(self):
        before = len(self.err_log())
        c = self.conn()
        t0 = time.time()
        c.send(request_bytes("POST", "/args", [("Content-Length", "20")]) + b"a=1")
        r = c.response()
        self.assertEqual(r.status, 408, r)
        self.assertGreater(time.time() - t0, 0.8)
        self.assertLess(time.time() - t0, 4)
        self.assertTrue(c.closed_by_peer())
        self.assert_logged_once(before, 408)
        self.assert_alive()

    def test_byte_a_second_408(self):
        before = len(self.err_log())
        c = self.conn()
        t0 = time.time()
        c.sock.settimeout(0.3)
        data = b"GET /hello HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"s" * 100
        got = b""
        for b in data:
            try:
                c.sock.sendall(bytes([b]))
            except (BrokenPipeError, ConnectionResetError):
                break
            try:
                d = c.sock.recv(65536)
            except socket.timeout:
                continue
            got += d
            if not d or b"\r\n\r\n" in got:
                break
            if time.time() - t0 > 8:
                break
        c.sock.settimeout(10)
        c.buf = bytearray(got)
        r = c.response()
        elapsed = time.time() - t0
        self.assertEqual(r.status, 408, r)
        self.assert_framing(r)
        self.assertGreater(elapsed, 0.8)
        self.assertLess(elapsed, 4)
        self.assertTrue(c.closed_by_peer())
        self.assert_logged_once(before, 408)
        self.assert_alive()

    def test_silent_client_closed_without_answer(self):
        before = len(self.err_log())
        c = self.conn()
        t0 = time.time()
        self.assertTrue(c.closed_by_peer(within=5))
        elapsed = time.time() - t0
        self.assertGreater(elapsed, 0.8)
        self.assertLess(elapsed, 4)
        self.assertEqual(c.buf, b"")
        self.assert_logged_once(before, 408)
        self.assert_alive()

    def test_partial_request_408(self):
        c = self.conn()
        t0 = time.time()
        c.send(b"GET /hello HTTP/1.1\r\nHost: x\r\n")
        r = c.response()
        self.assertEqual(r.status, 408)
        self.assertLess(time.time() - t0, 4)
        self.assertTrue(c.closed_by_peer())

    def test_partial_second_request_408(self):
        c = self.conn()
        self.get(c, "/hello")
        c.send(b"GET /hello HTTP/1.1\r\nHost: x\r\n")
        t0 = time.time()
        r = c.response()
        self.assertEqual(r.status, 408)
        self.assertGreater(time.time() - t0, 0.8)
        self.assertLess(time.time() - t0, 4)
        self.assertTrue(c.closed_by_peer())

    def test_idle_keep_alive_closed(self):
        c = self.conn()
        self.get(c, "/hello")
        t0 = time.time()
        self.assertFalse(c.closed_by_peer(within=0.5))
        self.assertTrue(c.closed_by_peer(within=4))
        elapsed = time.time() - t0
        self.assertGreater(elapsed, 0.8)
        self.assertLess(elapsed, 4)

    def test_activity_restarts_idle_timeout(self):
        # Requests 0.6 s apart on one connection: each within idle-timeout*.
        c = self.conn()
        for i in range(4):
            self.assertEqual(self.get(c, "/n?i=%d" % i).body, b"n=%d" % i)
            time.sleep(0.6)
        self.assertEqual(self.get(c, "/n?i=end").body, b"n=end")

    # ---- failing and overlong handlers ----

    def test_handler_error_500(self):
        before = len(self.err_log())
        c = self.conn()
        r = self.get(c, "/boom")
        self.assertEqual(r.status, 500)
        self.assertNotIn(b"kaboom", r.body)
        self.assertNotIn(b"partial output", r.body)
        self.assertNotIn(b"proto.arc", r.body)
        log = self.srv.wait_log("err", r"kaboom-message", since=before)
        # one line: the message, then the Arc backtrace's frames
        self.assertRegex(log, r"(?m)^\d+ 127\.0\.0\.1 500 boom .*kaboom-message 42 \| in .*proto\.arc:\d+.*$")
        # the connection and the server go on
        self.assertEqual(self.get(c, "/hello").body, b"hello")
        self.assert_alive()

    def test_failing_redirector_and_closure_500(self):
        for path, msg in (("/boomr", "redirector-failed"), (None, "closure-failed")):
            before = len(self.err_log())
            c = self.conn()
            if path is None:
                path = self.get(c, "/fboom").text
                self.assertTrue(path.startswith("/x?fnid="), path)
            r = self.get(c, path)
            self.assertEqual(r.status, 500)
            self.assertIsNone(r.header("location"))
            self.assertNotIn(msg.encode(), r.body)
            self.srv.wait_log("err", r"^\d+ 127\.0\.0\.1 500 \S+ .*%s" % msg, since=before)

    def test_busy_handler_over_threadlife_503(self):
        c = self.conn()
        t0 = time.time()
        r = self.get(c, "/spin")
        self.assertEqual(r.status, 503)
        self.assertLess(time.time() - t0, 3.5)
        self.assert_alive()

    def test_big_response(self):
        c = self.conn()
        n = 5 * 1024 * 1024 + 7
        r = self.get(c, "/big-response?n=%d" % n)
        self.assertEqual(r.body, b"x" * n)

    def test_single_server_has_no_worker_index(self):
        self.assertEqual(self.get(self.conn(), "/worker").body, b"nil")

    def test_handler_over_threadlife_503(self):
        before = len(self.err_log())
        c = self.conn()
        t0 = time.time()
        c.send(request_bytes("GET", "/sleep?s=4"))
        r = c.response()
        elapsed = time.time() - t0
        self.assertEqual(r.status, 503)
        self.assert_framing(r)
        self.assertNotIn(b"slept", r.body)
        self.assertGreater(elapsed, 0.8)
        self.assertLess(elapsed, 3.5)
        self.assertEqual(r.header("connection"), "close")
        self.assertTrue(c.closed_by_peer())
        self.assert_logged_once(before, 503)
        self.assert_alive()

    def test_handler_within_threadlife(self):
        c = self.conn()
        self.assertEqual(self.get(c, "/sleep?s=0.5").body, b"slept")


if __name__ == "__main__":
    webtest.main()
