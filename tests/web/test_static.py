"""Static files from staticdir* ("static/"), end to end: content types by
extension, bytes intact, subfolders, Last-Modified, ETag and Cache-Control,
304 for If-None-Match and If-Modified-Since, HEAD; and nothing outside
static/: .. (plain or percent-encoded), absolute paths, NUL, symlinks out.
Server: servers/static.arc.

usage: python3 tests/web/test_static.py path/to/arcana
"""
import email.utils
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import webtest  # noqa: E402
from webtest import request_bytes

MTIME = 1600000000  # Sun, 13 Sep 2020 12:26:40 GMT
SECRET = b"TOP-SECRET-CONTENT-outside-static"
BINARY = bytes(range(256)) * 16

FILES = {
    "a.gif": (b"GIF89a" + BINARY, "image/gif"),
    "b.jpg": (b"\xff\xd8\xff\xe0" + BINARY, "image/jpeg"),
    "b2.jpeg": (b"\xff\xd8\xff\xe1" + BINARY, "image/jpeg"),
    "c.png": (b"\x89PNG\r\n\x1a\n" + BINARY, "image/png"),
    "s.css": (b"body { color: red }\n", "text/css; charset=utf-8"),
    "j.js": (b"console.log('hi');\n", "text/javascript; charset=utf-8"),
    "t.txt": (b"plain text\n", "text/plain; charset=utf-8"),
    "UP.TXT": (b"upper-case extension\n", "text/plain; charset=utf-8"),
    "p.html": (b"<p>html</p>\n", "text/html; charset=utf-8"),
    "p2.htm": (b"<p>htm</p>\n", "text/html; charset=utf-8"),
    "code.arc": (b"(prn 'arc)\n", "text/plain; charset=utf-8"),
    "x.ico": (b"\x00\x00\x01\x00", "image/x-icon"),
    "x.svg": (b"<svg/>", "image/svg+xml"),
    "x.json": (b'{"a": 1}', "application/json"),
    "x.pdf": (b"%PDF-1.4", "application/pdf"),
    "x.webp": (b"RIFF....WEBP", "image/webp"),
    "x.woff2": (b"wOF2", "font/woff2"),
    "sub/dir/deep.txt": (b"deep file\n", "text/plain; charset=utf-8"),
    "with space.txt": (b"spaced\n", "text/plain; charset=utf-8"),
    "op.txt": (b"the file, not the op\n", "text/plain; charset=utf-8"),
}


class StaticTest(webtest.ServerTest):
    SCRIPT = "static.arc"

    @classmethod
    def setup_dir(cls, d):
        st = os.path.join(d, "static")
        for name, (data, _) in FILES.items():
            p = os.path.join(st, name)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "wb") as f:
                f.write(data)
            os.utime(p, (MTIME, MTIME))
        with open(os.path.join(d, "secret.txt"), "wb") as f:
            f.write(SECRET)
        with open(os.path.join(st, "noext"), "wb") as f:
            f.write(b"no extension")
        with open(os.path.join(st, "x.xyz"), "wb") as f:
            f.write(b"unknown extension")
        os.makedirs(os.path.join(st, "dir.txt"))
        os.symlink("../secret.txt", os.path.join(st, "out.txt"))
        os.symlink(os.path.join(d, "secret.txt"), os.path.join(st, "abs.txt"))
        os.symlink("..", os.path.join(st, "updir"))
        os.symlink("t.txt", os.path.join(st, "in.txt"))
        os.symlink("sub/dir", os.path.join(st, "dirlink"))
        with open(os.path.join(st, "big.png"), "wb") as f:
            f.write(os.urandom(3 * 1024 * 1024))

    def fetch(self, path, headers=(), method="GET"):
        c = self.conn()
        c.send(request_bytes(method, path, headers))
        r = c.response(head_request=method == "HEAD")
        return r

    def test_content_types(self):
        for name, (data, ctype) in FILES.items():
            if name == "op.txt":
                continue
            with self.subTest(name=name):
                r = self.fetch("/" + name.replace(" ", "%20"))
                self.assertEqual(r.status, 200, r)
                self.assertEqual(r.header("content-type"), ctype)
                self.assertEqual(r.body, data)
                self.assert_framing(r)

    def test_big_binary_file_intact(self):
        with open(self.srv.path("static", "big.png"), "rb") as f:
            data = f.read()
        r = self.fetch("/big.png")
        self.assertEqual(r.status, 200)
        self.assertEqual(r.header("content-length"), str(len(data)))
        self.assertTrue(r.body == data)

    def test_validators(self):
        r = self.fetch("/t.txt")
        self.assertEqual(r.header("last-modified"), "Sun, 13 Sep 2020 12:26:40 GMT")
        self.assertRegex(r.header("etag"), r'^"[0-9a-f]+-[0-9a-f]+"$')
        self.assertEqual(r.header("cache-control"), "max-age=120")
        # the same file, the same tag; another file, another
        self.assertEqual(self.fetch("/t.txt").header("etag"), r.header("etag"))
        self.assertNotEqual(self.fetch("/s.css").header("etag"), r.header("etag"))

    def test_if_none_match(self):
        etag = self.fetch("/t.txt").header("etag")
        r = self.fetch("/t.txt", [("If-None-Match", etag)])
        self.assertEqual((r.status, r.body), (304, b""))
        self.assertIsNone(r.header("content-length"))
        self.assertEqual(r.header("etag"), etag)
        self.assertIsNotNone(r.header("date"))
        self.assertEqual(self.fetch("/t.txt", [("If-None-Match", '"other", ' + etag)]).status, 304)
        self.assertEqual(self.fetch("/t.txt", [("If-None-Match", "*")]).status, 304)
        r = self.fetch("/t.txt", [("If-None-Match", '"not-the-tag"')])
        self.assertEqual((r.status, r.body), (200, FILES["t.txt"][0]))

    def test_if_modified_since(self):
        same = email.utils.formatdate(MTIME, usegmt=True)
        later = email.utils.formatdate(MTIME + 3600, usegmt=True)
        earlier = email.utils.formatdate(MTIME - 1, usegmt=True)
        self.assertEqual(self.fetch("/t.txt", [("If-Modified-Since", same)]).status, 304)
        self.assertEqual(self.fetch("/t.txt", [("If-Modified-Since", later)]).status, 304)
        r = self.fetch("/t.txt", [("If-Modified-Since", earlier)])
        self.assertEqual((r.status, r.body), (200, FILES["t.txt"][0]))
        self.assertEqual(self.fetch("/t.txt", [("If-Modified-Since", "yesterday")]).status, 200)
        # If-None-Match wins over If-Modified-Since
        r = self.fetch("/t.txt", [("If-None-Match", '"stale"'), ("If-Modified-Since", later)])
        self.assertEqual(r.status, 200)

    def test_changed_file_is_served_again(self):
        p = self.srv.path("static", "changing.txt")
        with open(p, "wb") as f:
            f.write(b"version 1")
        os.utime(p, (MTIME, MTIME))
        r1 = self.fetch("/changing.txt")
        self.assertEqual(r1.body, b"version 1")
        with open(p, "wb") as f:
            f.write(b"version 2!")
        os.utime(p, (MTIME + 60, MTIME + 60))
        r = self.fetch("/changing.txt", [("If-None-Match", r1.header("etag"))])
        self.assertEqual((r.status, r.body), (200, b"version 2!"))
        r = self.fetch("/changing.txt", [("If-Modified-Since", r1.header("last-modified"))])
        self.assertEqual(r.status, 200)

    def test_head(self):
        g = self.fetch("/c.png")
        c = self.conn()
        c.send(request_bytes("HEAD", "/c.png") + request_bytes("GET", "/t.txt"))
        h = c.response(head_request=True)
        self.assertEqual(h.status, 200)
        self.assertEqual(h.body, b"")
        for k in ("content-length", "content-type", "etag", "last-modified"):
            self.assertEqual(h.header(k), g.header(k), k)
        self.assertEqual(c.response().body, FILES["t.txt"][0])  # no body came between

    def test_subfolders(self):
        self.assertEqual(self.fetch("/sub/dir/deep.txt").body, b"deep file\n")
        self.assertEqual(self.fetch("/dirlink/deep.txt").body, b"deep file\n")
        self.assertEqual(self.fetch("/sub/dir/none.txt").status, 404)

    def test_query_string_ignored(self):
        r = self.fetch("/t.txt?v=2&x")
        self.assertEqual((r.status, r.body), (200, FILES["t.txt"][0]))

    def test_symlink_inside_is_followed(self):
        r = self.fetch("/in.txt")
        self.assertEqual((r.status, r.body), (200, FILES["t.txt"][0]))

    def test_not_files(self):
        for path in ("/noext", "/x.xyz", "/dir.txt", "/sub", "/sub/", "/missing.gif", "/sub/dir"):
            with self.subTest(path=path):
                r = self.fetch(path)
                self.assertEqual(r.status, 404)
                self.assertEqual(r.body, b"Unknown.")

    def test_op_wins_over_file(self):
        self.assertEqual(self.fetch("/op.txt").body, b"the op")

    def assert_refused(self, path):
        r = self.fetch(path)
        self.assertEqual(r.status, 404, (path, r))
        self.assertNotIn(SECRET, r.body)
        self.assertNotIn(b"plain text", r.body)

    def test_dotdot_refused(self):
        for path in ("/../secret.txt", "/sub/../../secret.txt", "/sub/../t.txt",
                     "/%2e%2e/secret.txt", "/%2E%2E/secret.txt", "/..%2fsecret.txt",
                     "/sub/..%2F..%2Fsecret.txt", "/sub/dir/%2e%2e/%2e%2e/%2e%2e/secret.txt",
                     "/.%2e/secret.txt", "/static/../secret.txt"):
            with self.subTest(path=path):
                self.assert_refused(path)
        self.assert_alive()

    def test_absolute_path_refused(self):
        secret = self.srv.path("secret.txt")
        tpath = self.srv.path("static", "t.txt")
        for path in ("/%2F" + secret.lstrip("/"), "/" + secret, "//" + secret.lstrip("/"),
                     "/%2F" + tpath.lstrip("/"), "/" + tpath, "/%2Fetc%2Fpasswd.txt"):
            with self.subTest(path=path):
                self.assert_refused(path)

    def test_nul_refused(self):
        for path in ("/t.txt%00", "/t.txt%00.gif", "/sub%00/dir/deep.txt", "/%00t.txt"):
            with self.subTest(path=path):
                self.assert_refused(path)

    def test_symlinks_out_refused(self):
        for path in ("/out.txt", "/abs.txt", "/updir/secret.txt"):
            with self.subTest(path=path):
                self.assert_refused(path)
        self.assert_alive()
        # (out and back in again ends inside static/: that is served)
        self.assertEqual(self.fetch("/updir/static/t.txt").body, FILES["t.txt"][0])


if __name__ == "__main__":
    webtest.main()
