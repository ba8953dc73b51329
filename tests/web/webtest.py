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
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SERVERS = os.path.join(HERE, "servers")
ARCANA = None  # the binary, from the command line (main)

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

    def __init__(self, script, *args, workers=None, setup=None, nofile=None):
        self.script = os.path.join(SERVERS, script)
        self.nofile = nofile
        self.args = [str(a) for a in args]
        self.workers = workers
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

    @classmethod
    def setup_dir(cls, d):
        pass

    @classmethod
    def setUpClass(cls):
        cls.srv = Server(cls.SCRIPT, *cls.ARGS, workers=cls.WORKERS, setup=cls.setup_dir,
                         nofile=cls.NOFILE)
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
