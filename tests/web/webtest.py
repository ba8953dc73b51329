"""Helpers for the end-to-end tests of the web server (stdlib/srv.arc).

Each test file runs as

    python3 tests/web/test_NAME.py path/to/arcana [unittest options]

and starts its servers itself: an Arc script of tests/web/servers/, run as
`arcana --host=127.0.0.1 SCRIPT 0 [ARGS]` in a fresh temporary directory
(srv.arc keeps arc/, arc/logs/ and static/ under the working directory),
whose port the test learns from the line `ready to serve port N`. Servers
bind 127.0.0.1 only, are killed (with their whole process group, workers
included) when the test is done, and die with the test process if it dies
(PR_SET_PDEATHSIG); the single-process ones also end themselves after two
minutes.

Only the standard library is used: raw sockets where the bytes on the wire
matter, http.client elsewhere.
"""
import ctypes
import email.utils
import glob
import http.client
import os
import re
import resource
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SERVERS = os.path.join(HERE, "servers")
ARCANA = None  # the binary, from the command line (main)

# The news site's store backend the news tests run on: file (Arc 3.1's
# files, the default) or sqlite. tests/CMakeLists.txt runs the news tests
# once with each (web/NAME and web-sqlite/NAME), through this variable.
NEWS_STORE = os.environ.get("ARCANA_NEWS_STORE", "file")
if NEWS_STORE not in ("file", "sqlite"):
    sys.exit("ARCANA_NEWS_STORE is file or sqlite, not %r" % NEWS_STORE)


def news_store_args():
    """news.arc's (and servers/newsserver.arc's) options for NEWS_STORE."""
    return ["--store", NEWS_STORE] if NEWS_STORE != "file" else []


def stored_texts(data, folder):
    """{path: text} of every record the store holds under folder, one of
    news/story/, news/profile/, news/vote/ (see stored_text)."""
    if NEWS_STORE == "file":
        d = os.path.join(data, folder)
        names = [n for n in os.listdir(d) if not n.endswith(".tmp")] if os.path.isdir(d) else []
        return {folder + n: stored_text(data, folder + n) for n in names}
    import sqlite3
    table, key = {"news/story/": ("items", "id"), "news/profile/": ("profiles", "name"),
                  "news/vote/": ("votes", "name")}[folder]
    db = sqlite3.connect("file:%s?mode=ro" % os.path.join(data, "news.db"), uri=True, timeout=10)
    try:
        return {folder + str(k): v
                for k, v in db.execute("SELECT %s, data FROM %s" % (key, table))}
    finally:
        db.close()


def stored_text(data, path):
    """The text the news site's store holds for path, a file of Arc 3.1's
    layout under the data directory data (news/story/ID, news/vote/USER,
    hpw ...), or None: the file's, or with the sqlite store the row of
    DATA/news.db that stands for it (apps/news/store-sqlite.arc)."""
    if NEWS_STORE == "file":
        p = os.path.join(data, path)
        if not os.path.isfile(p):
            return None
        with open(p, encoding="utf-8") as f:
            return f.read()
    import sqlite3
    db = sqlite3.connect("file:%s?mode=ro" % os.path.join(data, "news.db"), uri=True, timeout=10)
    try:
        for prefix, sql in (("news/story/", "SELECT data FROM items WHERE id = ?"),
                            ("news/profile/", "SELECT data FROM profiles WHERE name = ?"),
                            ("news/vote/", "SELECT data FROM votes WHERE name = ?")):
            if path.startswith(prefix):
                key = path[len(prefix):]
                row = db.execute(sql, (int(key) if prefix == "news/story/" else key,)).fetchone()
                break
        else:
            row = db.execute("SELECT data FROM files WHERE path = ?", (path,)).fetchone()
        return row[0] if row else None
    finally:
        db.close()

_libc = ctypes.CDLL(None, use_errno=True)
_PR_SET_PDEATHSIG = 1


def _child_setup(nofile=None):
    # The server dies with the test process, whatever kills it.
    _libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if nofile:  # a descriptor limit it cannot raise (soft and hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))


def main():
    """Takes the arcana binary from argv[1], then runs unittest."""
    global ARCANA
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
        sys.exit("usage: %s ARCANA [unittest options]" % sys.argv[0])
    ARCANA = os.path.abspath(sys.argv.pop(1))
    if not os.access(ARCANA, os.X_OK):
        sys.exit("not an executable: %s" % ARCANA)
    unittest.main(verbosity=2)


# ---- worker processes, and which of them holds a connection ----
# (for the tests of arcana --workers: test_workers.py, test_news_workers.py,
# test_fnid_workers.py, test_news_crash.py's workers variant)


def children(pid):
    """The pids of the live (not zombie) children of pid."""
    out = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % d) as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if int(fields[1]) == pid and fields[0] != "Z":
            out.append(int(d))
    return sorted(out)


def alive(pid):
    """pid runs (and is no zombie)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            stat = f.read()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2:].split()[0] != "Z"


def gone(pid):
    """pid is reaped, not just a zombie: a killed process's leader can be a
    zombie while its other threads still exit, holding its descriptors (a
    worker's listening socket among them: a connection the kernel gives it
    meanwhile is reset) open; its parent reaps it only once all are gone."""
    return not os.path.exists("/proc/%d" % pid)


def wait_until(f, timeout=10.0):
    """f()'s first true value within timeout seconds, else its last."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        v = f()
        if v:
            return v
        time.sleep(0.02)
    return f()


def tcp_address(ip, port):
    """An IPv4 address as /proc/net/tcp writes it."""
    return "%08X:%04X" % (struct.unpack("<I", socket.inet_aton(ip))[0], port)


def socket_inode(server_port, client_ip, client_port):
    """The inode of the server's end of the connection from
    client_ip:client_port, or None."""
    local = tcp_address("127.0.0.1", server_port)
    remote = tcp_address(client_ip, client_port)
    with open("/proc/net/tcp") as f:
        for line in f.readlines()[1:]:
            cols = line.split()
            if cols[1] == local and cols[2] == remote and cols[9] != "0":
                return cols[9]
    return None


def holder(pids, inode):
    """Which of pids has socket inode open, or None."""
    want = "socket:[%s]" % inode
    for pid in pids:
        d = "/proc/%d/fd" % pid
        try:
            fds = os.listdir(d)
        except OSError:
            continue
        for fd in fds:
            try:
                if os.readlink(os.path.join(d, fd)) == want:
                    return pid
            except OSError:
                pass
    return None


# ---- responses read from raw sockets ----

class Response:
    def __init__(self, status, reason, version, headers, body, head_bytes):
        self.status = status
        self.reason = reason
        self.version = version
        self.headers = headers  # [(lower-cased name, value)] in order
        self.body = body
        self.head_bytes = head_bytes  # the head as received

    def header(self, name, default=None):
        name = name.lower()
        for k, v in self.headers:
            if k == name:
                return v
        return default

    def all(self, name):
        name = name.lower()
        return [v for k, v in self.headers if k == name]

    @property
    def text(self):
        return self.body.decode("utf-8", "replace")

    def __repr__(self):
        return "<Response %d %r %r>" % (self.status, self.headers, self.body[:200])


class Conn:
    """A raw connection to a server, reading responses as they come."""

    def __init__(self, port, src="127.0.0.1", timeout=10):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout,
                                             source_address=(src, 0))
        self.buf = bytearray()

    def send(self, data):
        if isinstance(data, str):
            data = data.encode("latin-1")
        self.sock.sendall(data)

    def _fill(self):
        d = self.sock.recv(65536)
        if not d:
            raise EOFError("connection closed; received so far: %r" % bytes(self.buf[:300]))
        self.buf += d

    def read_exactly(self, n):
        while len(self.buf) < n:
            self._fill()
        out = bytes(self.buf[:n])
        del self.buf[:n]
        return out

    def response(self, head_request=False):
        """The next response. head_request: it answers a HEAD (no body)."""
        while b"\r\n\r\n" not in self.buf:
            self._fill()
        end = self.buf.index(b"\r\n\r\n")
        head = bytes(self.buf[:end + 4])
        del self.buf[:end + 4]
        lines = head[:-4].decode("latin-1").split("\r\n")
        version, status, reason = (lines[0].split(" ", 2) + [""])[:3]
        headers = []
        for line in lines[1:]:
            k, _, v = line.partition(":")
            headers.append((k.strip().lower(), v.strip()))
        r = Response(int(status), reason, version, headers, b"", head)
        n = r.header("content-length")
        if head_request or r.status in (204, 304) or 100 <= r.status < 200:
            r.body = b""
        elif n is not None:
            r.body = self.read_exactly(int(n))
        else:  # no length: the body runs to the end of the connection
            r.body = self.read_to_eof()
        return r

    def read_to_eof(self):
        try:
            while True:
                self._fill()
        except EOFError:
            pass
        except ConnectionResetError:
            pass
        out = bytes(self.buf)
        self.buf = bytearray()
        return out

    def closed_by_peer(self, within=3.0):
        """True if the server closes the connection within `within` seconds
        with nothing more sent; False if it stays open (or sends more)."""
        if self.buf:
            return False
        self.sock.settimeout(within)
        try:
            d = self.sock.recv(65536)
        except socket.timeout:
            return False
        except ConnectionResetError:
            return True
        finally:
            self.sock.settimeout(10)
        if d:
            self.buf += d
            return False
        return True

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


def request_bytes(method, path, headers=(), body=b"", version="HTTP/1.1"):
    if isinstance(body, str):
        body = body.encode("utf-8")
    lines = ["%s %s %s" % (method, path, version), "Host: 127.0.0.1"]
    names = {k.lower() for k, _ in headers}
    lines += ["%s: %s" % (k, v) for k, v in headers]
    if body and "content-length" not in names and "transfer-encoding" not in names:
        lines.append("Content-Length: %d" % len(body))
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def multipart(fields, files, boundary="----arcanaTestBoundary7MA4YWxkTrZu0gW"):
    """A multipart/form-data body: fields [(name, text)], files
    [(name, filename, content_type, bytes)]. Returns (content_type, body)."""
    out = b""
    for name, value in fields:
        out += (("--%s\r\nContent-Disposition: form-data; name=\"%s\"\r\n\r\n" % (boundary, name))
                .encode() + value.encode("utf-8") + b"\r\n")
    for name, filename, ctype, data in files:
        out += (("--%s\r\nContent-Disposition: form-data; name=\"%s\"; filename=\"%s\"\r\n"
                 "Content-Type: %s\r\n\r\n" % (boundary, name, filename, ctype)).encode()
                + data + b"\r\n")
    out += ("--%s--\r\n" % boundary).encode()
    return "multipart/form-data; boundary=%s" % boundary, out


# ---- servers ----

class Server:
    """An Arc server script run in a temporary directory of its own.

    setup(dir) runs before the server starts (to make static files).
    """

    def __init__(self, script, *args, workers=None, setup=None, nofile=None, options=()):
        self.script = os.path.join(SERVERS, script)
        self.nofile = nofile
        self.args = [str(a) for a in args]
        self.workers = workers
        self.options = list(options)  # arcana's own, before the script (--gc=gen-stw)
        self.setup = setup
        self.proc = None
        self.dir = None
        self.port = None
        self.ready_line = None

    def start(self, timeout=20):
        assert ARCANA, "webtest.main() sets the binary"
        self.dir = tempfile.mkdtemp(prefix="arcana-web-")
        try:
            self._start(timeout)
        except BaseException:
            self.stop()  # nothing left behind: the process, the directory
            raise
        return self

    def _start(self, timeout):
        if self.setup:
            self.setup(self.dir)
        self.out_path = os.path.join(self.dir, "server.out")
        self.err_path = os.path.join(self.dir, "server.err")
        cmd = [ARCANA, "--host=127.0.0.1"]
        if self.workers:
            cmd.append("--workers=%d" % self.workers)
        cmd += self.options
        cmd += [self.script, "0"] + self.args
        with open(self.out_path, "wb") as out, open(self.err_path, "wb") as err:
            self.proc = subprocess.Popen(cmd, cwd=self.dir, stdin=subprocess.DEVNULL,
                                         stdout=out, stderr=err,
                                         preexec_fn=lambda: _child_setup(self.nofile),
                                         start_new_session=True)
        deadline = time.time() + timeout
        while True:
            m = re.search(r"^ready to serve port (\d+).*$", self.stdout(), re.M)
            if m:
                self.port = int(m.group(1))
                self.ready_line = m.group(0)
                return
            if self.proc.poll() is not None:
                raise RuntimeError("server %s exited with %s before it was ready:\n%s%s"
                                   % (self.script, self.proc.returncode, self.stdout(),
                                      self.stderr()))
            if time.time() > deadline:
                raise RuntimeError("server %s not ready in %ss" % (self.script, timeout))
            time.sleep(0.02)

    def stop(self):
        # The whole group (a --workers parent and its workers), while the
        # process is not yet reaped (so its id is still ours). Workers whose
        # parent is gone stop by themselves (PR_SET_PDEATHSIG).
        if self.proc is not None and self.proc.returncode is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            self.proc.wait()
        if self.dir:
            shutil.rmtree(self.dir, ignore_errors=True)
            self.dir = None

    def stdout(self):
        with open(self.out_path, "rb") as f:
            return f.read().decode("utf-8", "replace")

    def stderr(self):
        with open(self.err_path, "rb") as f:
            return f.read().decode("utf-8", "replace")

    def path(self, *parts):
        return os.path.join(self.dir, *parts)

    # -- clients --

    def conn(self, src="127.0.0.1", timeout=10):
        return Conn(self.port, src, timeout)

    def http(self, timeout=10):
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)

    def request(self, method, path, body=None, headers=None):
        """One request on a new connection (http.client): (status, headers, body).
        headers: a dict of the response's, names lower-cased."""
        c = self.http()
        try:
            c.request(method, path, body=body, headers=headers or {})
            r = c.getresponse()
            data = r.read()
            return r.status, {k.lower(): v for k, v in r.getheaders()}, data
        finally:
            c.close()

    def get(self, path, headers=None):
        return self.request("GET", path, headers=headers)

    def raw(self, data, src="127.0.0.1", head_request=False):
        """Sends data on a new connection and reads one response."""
        c = self.conn(src)
        try:
            c.send(data)
            return c.response(head_request)
        finally:
            c.close()

    # -- logs (arc/logs/TYPE-YYYY-MM-DD) --

    def log(self, kind):
        text = ""
        for p in sorted(glob.glob(self.path("arc", "logs", kind + "-*"))):
            with open(p, "rb") as f:
                text += f.read().decode("utf-8", "replace")
        return text

    def wait_log(self, kind, pattern, since=0, timeout=5.0):
        """Waits until the log's text after offset since matches the regex
        pattern (multiline); returns that text. Fails the test otherwise."""
        deadline = time.time() + timeout
        while True:
            text = self.log(kind)[since:]
            if re.search(pattern, text, re.M):
                return text
            if time.time() > deadline:
                raise AssertionError("no %r in the %s log; it has:\n%s" % (pattern, kind, text))
            time.sleep(0.02)


class ServerTest(unittest.TestCase):
    """One server for the whole class: SCRIPT (a file of servers/), its
    ARGS, WORKERS (for --workers), and setup_dir(dir), which fills the
    server's directory before it starts. tearDownClass kills it."""

    SCRIPT = None
    ARGS = ()
    WORKERS = None
    NOFILE = None  # a descriptor limit for the server (RLIMIT_NOFILE)
    OPTIONS = ()  # arcana's options (--gc=gen-stw)

    @classmethod
    def setup_dir(cls, d):
        pass

    @classmethod
    def setUpClass(cls):
        cls.srv = Server(cls.SCRIPT, *cls.ARGS, workers=cls.WORKERS, setup=cls.setup_dir,
                         nofile=cls.NOFILE, options=cls.OPTIONS)
        cls.srv.start()

    @classmethod
    def tearDownClass(cls):
        cls.srv.stop()

    def conn(self, src="127.0.0.1"):
        c = self.srv.conn(src)
        self.addCleanup(c.close)
        return c

    def assert_alive(self):
        """The server still answers a new connection."""
        status, _, body = self.srv.get("/hello")
        self.assertEqual(status, 200)
        return body

    def assert_framing(self, r):
        """Every response has a Date and (unless bodiless) a right Content-Length."""
        date = r.header("date")
        self.assertIsNotNone(date, r)
        self.assertIsNotNone(email.utils.parsedate_to_datetime(date))
        if r.status not in (204, 304) and not 100 <= r.status < 200:
            self.assertEqual(r.header("content-length"), str(len(r.body)), r)


# ---- the news site (apps/news; tests/web/test_news*.py) ----
# Appended for the news tests: an HTML reader (forms, links, text), a client
# that keeps a login cookie and follows redirects, and the class that starts
# servers/newsserver.arc and reads what it seeded from its stdout.

import html.parser  # noqa: E402
import urllib.parse  # noqa: E402


class Page(html.parser.HTMLParser):
    """An HTML page read into its links, forms, text and scripts.

    links: [(href, text)] (href entity-decoded, as a browser reads it);
    forms: [Form]; text: the page's text (entities decoded) with tags
    dropped and script contents left out; scripts: the contents of its
    <script> elements; tags: [(tag, attrs)] of every start tag."""

    def __init__(self, body):
        super().__init__(convert_charrefs=True)
        self.body = body
        self.links, self.forms, self.scripts, self.tags = [], [], [], []
        self._text, self._link, self._form, self._textarea = [], None, None, None
        self._select, self._script = None, None
        self.feed(body)
        self.close()
        self.text = "".join(self._text)
        # the text nodes, stripped, without the empty ones
        self.strings = [t.strip() for t in self._text if t.strip()]

    def handle_starttag(self, tag, attrs):
        a = dict((k, v if v is not None else "") for k, v in attrs)
        self.tags.append((tag, a))
        if tag == "a":
            self._link = [a.get("href"), []]
        elif tag == "form":
            self._form = Form(a.get("action", ""), a.get("method", "get"))
            self.forms.append(self._form)
        elif tag == "input" and self._form is not None:
            t = a.get("type", "text").lower()
            if t == "submit":
                self._form.submits.append((a.get("name"), a.get("value", "")))
            elif "name" in a:
                if t in ("checkbox", "radio") and "checked" not in a:
                    self._form.fields.setdefault(a["name"], None)
                else:
                    self._form.fields[a["name"]] = a.get("value", "")
                self._form.types[a["name"]] = t
        elif tag == "textarea" and self._form is not None:
            self._textarea = [a.get("name"), []]
        elif tag == "select" and self._form is not None:
            self._select = a.get("name")
            self._form.fields[self._select] = None
            self._form.options[self._select] = []
        elif tag == "option" and self._select is not None:
            v = a.get("value")
            self._form.options[self._select].append(v)
            if "selected" in a or self._form.fields[self._select] is None:
                self._form.fields[self._select] = v
        elif tag == "script":
            self._script = []
        elif tag == "button" and self._form is not None:
            self._form.submits.append((a.get("name"), a.get("value", "")))

    def handle_endtag(self, tag):
        if tag == "a" and self._link is not None:
            self.links.append((self._link[0], "".join(self._link[1]).strip()))
            self._link = None
        elif tag == "form":
            self._form = None
        elif tag == "textarea" and self._textarea is not None:
            text = "".join(self._textarea[1])
            if text.startswith("\n"):
                text = text[1:]
            self._form.fields[self._textarea[0]] = text
            self._form.types[self._textarea[0]] = "textarea"
            self._textarea = None
        elif tag == "select":
            self._select = None
        elif tag == "script" and self._script is not None:
            self.scripts.append("".join(self._script))
            self._script = None

    def handle_data(self, data):
        if self._script is not None:
            self._script.append(data)
            return
        if self._textarea is not None:
            self._textarea[1].append(data)
        if self._link is not None:
            self._link[1].append(data)
        if self._select is not None:  # an option's text is its value if it has none
            opts = self._form.options[self._select]
            if opts and opts[-1] is None:
                opts[-1] = data.strip()
                if self._form.fields[self._select] is None:
                    self._form.fields[self._select] = opts[-1]
        self._text.append(data)

    def hrefs(self):
        return [h for h, _ in self.links if h is not None]

    def link(self, text=None, href_re=None):
        """The first link whose text is text and/or whose href matches href_re."""
        for h, t in self.links:
            if h is None:
                continue
            if text is not None and t != text:
                continue
            if href_re is not None and not re.search(href_re, h):
                continue
            return h
        return None

    def form_with(self, *names):
        """The first form that has all the fields names."""
        for f in self.forms:
            if all(n in f.fields for n in names):
                return f
        return None


class Form:
    def __init__(self, action, method):
        self.action = action
        self.method = method.lower()
        self.fields = {}  # name -> value (None: an unchecked box)
        self.types = {}
        self.options = {}  # select name -> [option values]
        self.submits = []  # [(name, value)] of its submit buttons

    def values(self, changes=None, button=None):
        """The fields the browser sends: the form's, changed by changes, and
        the named submit button's (name, value) if button."""
        out = [(k, v) for k, v in self.fields.items() if v is not None]
        changes = changes or {}
        out = [(k, changes.get(k, v)) for k, v in out]
        out += [(k, v) for k, v in changes.items() if k not in self.fields]
        if button is not None:
            for n, v in self.submits:
                if v == button and n:
                    out.append((n, v))
        return out

    def __repr__(self):
        return "<Form %s %s %r>" % (self.method, self.action, self.fields)


def role(user):
    """Who a news page is seen as, in a message: the user, or a visitor."""
    return user or "a visitor"


def abs_path(url, base="/"):
    """A site-relative path for an href or Location: "item?id=3" → "/item?id=3"."""
    if url.startswith("http://") or url.startswith("https://"):
        p = urllib.parse.urlsplit(url)
        return p.path + ("?" + p.query if p.query else "")
    if url.startswith("/"):
        return url
    return urllib.parse.urljoin(base, url)


class NewsClient:
    """A browser of the news site: a user's cookie (or none), an address of
    its own (127.0.0.N), redirects followed. get/post return
    (status, body text, final path)."""

    def __init__(self, srv, cookie=None, src="127.0.0.1"):
        self.srv, self.cookie, self.src = srv, cookie, src
        self.last_headers = {}

    def request(self, method, path, body=None, headers=None):
        c = http.client.HTTPConnection("127.0.0.1", self.srv.port, timeout=20,
                                       source_address=(self.src, 0))
        hs = dict(headers or {})
        if self.cookie:
            hs["Cookie"] = "user=" + self.cookie
        try:
            c.request(method, path, body=body, headers=hs)
            r = c.getresponse()
            data = r.read()
            self.last_headers = {k.lower(): v for k, v in r.getheaders()}
            return r.status, self.last_headers, data
        finally:
            c.close()

    def _follow(self, status, headers, data, path, hops=6):
        while status in (301, 302, 303, 307) and hops > 0:
            hops -= 1
            loc = headers.get("location", "")
            m = re.search(r"(?:^|; )user=([^;]*)", headers.get("set-cookie", ""))
            if m:
                self.cookie = m.group(1)
            path = abs_path(loc, path)
            status, headers, data = self.request("GET", path)
        return status, data.decode("utf-8", "replace"), path

    def get(self, path, follow=True):
        status, h, data = self.request("GET", path)
        if not follow:
            return status, data.decode("utf-8", "replace"), path
        return self._follow(status, h, data, path)

    def post(self, path, fields, follow=True):
        body = urllib.parse.urlencode(fields)
        status, h, data = self.request("POST", path, body,
                                       {"Content-Type": "application/x-www-form-urlencoded"})
        m = re.search(r"(?:^|; )user=([^;]*)", h.get("set-cookie", ""))
        if m:
            self.cookie = m.group(1)
        if not follow:
            return status, data.decode("utf-8", "replace"), path
        return self._follow(status, h, data, path)

    def submit(self, form, changes=None, button=None, base="/"):
        """Sends form (a Form of a page) with its fields changed by changes."""
        action = abs_path(form.action or base, base)
        vals = form.values(changes, button)
        if form.method == "post":
            return self.post(action, vals)
        sep = "&" if "?" in action else "?"
        return self.get(action + sep + urllib.parse.urlencode(vals))


class NewsServerTest(ServerTest):
    """servers/newsserver.arc: the news site over a seeded data directory.
    cookies: user -> login cookie; items: seeded name -> id."""

    SCRIPT = "newsserver.arc"
    USER_IPS = {"boss": "127.0.0.10", "alice": "127.0.0.11", "bob": "127.0.0.12",
                "carol": "127.0.0.13", "dave": "127.0.0.14"}

    @classmethod
    def setUpClass(cls):
        cls.srv = Server(cls.SCRIPT, *news_store_args(), setup=cls.setup_dir)
        cls.srv.start(timeout=60)
        out = cls.srv.stdout()
        cls.cookies = dict(re.findall(r"^cookie (\S+) (\S+)$", out, re.M))
        cls.items = {k: int(v) for k, v in re.findall(r"^item (\S+) (\d+)$", out, re.M)}
        cls.passwords = dict(re.findall(r"^password (\S+) (\S+)$", out, re.M))

    def client(self, user=None):
        if user is None:
            return NewsClient(self.srv, None, "127.0.0.2")
        return NewsClient(self.srv, self.cookies[user], self.USER_IPS[user])

    def page(self, user, path, status=200):
        """The page at path as user sees it (a Page), checking its status."""
        st, body, _ = self.client(user).get(path)
        self.assertEqual(st, status, "%s as %s: %s" % (path, user, body[:2000]))
        return Page(body)

    def assert_safe(self, p, where):
        """Nothing a user typed (the tests' hostile strings) runs in page p:
        no script tag, no javascript: link, no inline handler."""
        low = p.body.lower()
        self.assertNotIn("<script>alert", low, where)
        self.assertNotIn("\"><script", low, where)
        for h in p.hrefs():
            self.assertFalse(h.strip().lower().startswith("javascript:"),
                             "%s: a link to %r" % (where, h))
        for s in p.scripts:
            self.assertNotIn("alert(1)", s, where)
        for tag, attrs in p.tags:
            for k, v in attrs.items():
                self.assertFalse(k.startswith("on") and "alert" in v, (where, tag, attrs))

    def assert_serving(self):
        st, body, _ = self.client().get("/news")
        self.assertEqual(st, 200, body[:500])
        self.assertIn("Filler story", body)
