"""The news site (apps/news/news.arc) killed with SIGKILL while it works,
then restarted on the same data directory, keeps everything it said it
had done, and no file of its data is ever torn.

The site runs from servers/news_crash.arc: news.arc with its own command
line (--port 0 --data DIR --no-demo), the submission rate limits lifted
(a user may post 5 stories an hour; these users post a hundred in
seconds). Four client threads, one per user (accounts made once, with the
Create Account form of the login page /submit shows a visitor, before
the rounds), send 200 operations in all: submissions
of stories through the site's own submit form (GET /submit, the fnid
form it prints, POST) and up-votes through the vote links of the up
arrows /newest shows them (the URL carries by= and auth=). Every request
the server acknowledged -- a 2xx/3xx response that arrived whole and says
the thing was done -- is recorded with what it made: the story (its title,
URL, author; its id from /newest when the client got to ask) or the vote
(item id, user). In each of four rounds the server is killed with SIGKILL
at a random moment (a random number of acknowledgements in, then either
at once, from the client thread that just read an acknowledgement, or
after a random few milliseconds, so that some kills land in the middle of
a request and its writes), then restarted on the same data. After every
restart:

- every file under DATA/news/ (and DATA/hpw, DATA/cooks) is one whole
  s-expression (a small reader of written Arc data below), except stale
  *.tmp files, which a crash may leave torn: the story directory's are
  deleted at load (docs/LANGUAGE.md 6.9), the others must not matter;
- every acknowledged story is in its file, DATA/news/story/ID, with the
  title, URL and author sent; its author's vote is in its votes, in
  DATA/news/vote/AUTHOR, and the id in the author's profile's submitted;
  and /item?id=ID shows it;
- every acknowledged vote is in the item's votes (by that user) and in
  DATA/news/vote/USER;
- the site serves: GET / is 200 and lists stories, the users are still
  logged in (their cookies were saved), and new work goes on.
Torn stale .tmp files are also planted before each restart (for a new
id, an existing story, a profile, a vote file): the restarted site must
not read them as data. What is left of the 200 after the fourth round is
sent to the restarted server with no kill, and everything is checked once
more after a last kill and restart.

What this does and does not prove. SIGKILL ends the process, not the
machine: whatever the server wrote() is in the page cache and survives,
fsync or no fsync. So these rounds check atomicity (a file is replaced
whole, through FILE.tmp and rename, never rewritten in place) and the
order of answer and write (a request answers only after its writes are
made), not that the writes reached the disk. That part is checked
separately, under strace (skipped when strace is missing or cannot
trace): writefile's system calls are fsync of FILE.tmp, rename over FILE,
fsync of the folder, in that order; and the news server (news.arc as a
user runs it), submitting one story, makes each of its story/profile/vote
files that way before the first byte of its answer goes out, and opens
no file of its data for writing but a FILE.tmp. (Replacing
%durable-mvfile by a plain rename would pass the rounds, since SIGKILL
cannot simulate a power loss; it fails this check.)

Why the rounds fail if the site answered before writing (say it saved in
a background thread, or on a timer, as a cache flushed later): half the
kills come from the very client thread that just read an acknowledgement,
a fraction of a millisecond after the server sent it, so a write that
was still to come when the answer left is lost, and that story or vote is
missing from the files after the restart -- the check of that round
fails. A save deferred by microseconds (a thread scheduled right after
the answer) might slip through a kill; the strace check closes that gap,
since it looks at the order of the system calls themselves.

usage: python3 tests/web/test_news_crash.py path/to/arcana
(NEWS_CRASH_SEED=N repeats a run's random choices; the seed is printed.)
"""
import html
import html.parser
import http.client
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.parse

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import webtest  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(webtest.HERE))
NEWS = os.path.join(ROOT, "apps", "news", "news.arc")


def news_command(data, *args, cwd=None, timeout=120):
    """news.arc run as a command on the data directory data (--backup,
    --restore, --import ...): (exit status, stdout, stderr)."""
    p = subprocess.run([webtest.ARCANA, NEWS, "--data", data] + list(args),
                       cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")

# The rounds run the site through servers/news_crash.arc (news.arc's command
# line, the submission rate limits lifted); the strace check runs news.arc
# itself.
CRASH_SCRIPT = "news_crash.arc"
USERS = ["ann", "bob", "cat", "dan"]
PASSWORD = "crash-test-pw"
TOTAL_OPS = 200
ROUNDS = 4


def log(*args):
    print(*args, file=sys.stderr, flush=True)


# ---- a reader of written Arc data --------------------------------------
#
# Enough of Arc's (Racket's) printed syntax for what `write` puts in these
# files: lists (dotted too), strings with their escapes, symbols (with
# |quoted| parts and \ escapes), numbers (integers, n/d, decimals,
# exponents, inf/nan), characters, quote marks, nil and t. Strict: a file
# must hold exactly one datum and nothing after it but white space, so a
# torn (truncated, empty, half-overwritten) file is an error.

class ArcSyntaxError(ValueError):
    pass


class Sym(str):
    """An Arc symbol (a Python str subclass, so Sym('up') == 'up')."""
    def __repr__(self):
        return "Sym(%s)" % str.__repr__(self)


class Char(str):
    def __repr__(self):
        return "Char(%s)" % str.__repr__(self)


class Dotted:
    """An improper list (a b . c): items [a, b], tail c."""
    def __init__(self, items, tail):
        self.items, self.tail = items, tail

    def __repr__(self):
        return "Dotted(%r, %r)" % (self.items, self.tail)


NIL = []  # nil reads as the empty list; t as Sym("t")
_DELIMS = set(" \t\n\r\f\v()\";'`,")
_CHAR_NAMES = {"nul": "\0", "null": "\0", "space": " ", "newline": "\n",
               "linefeed": "\n", "tab": "\t", "return": "\r", "backspace": "\b",
               "rubout": "\x7f", "delete": "\x7f", "page": "\f", "vtab": "\v",
               "alarm": "\a", "altmode": "\x1b", "escape": "\x1b"}
_STR_ESC = {"a": "\a", "b": "\b", "t": "\t", "n": "\n", "v": "\v", "f": "\f",
            "r": "\r", "e": "\x1b", '"': '"', "'": "'", "\\": "\\"}
_NUM = re.compile(r"""[+-]?(\d+(/\d+)?|\d+\.\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?
                      |\d+[eE][+-]?\d+|inf\.0|nan\.0)$""", re.X)


class _Reader:
    def __init__(self, text):
        self.s = text
        self.i = 0

    def error(self, msg):
        raise ArcSyntaxError("%s at offset %d (of %d): %r" %
                             (msg, self.i, len(self.s), self.s[max(0, self.i - 30):self.i + 30]))

    def skip(self):
        s = self.s
        while self.i < len(s):
            c = s[self.i]
            if c.isspace():
                self.i += 1
            elif c == ";":
                while self.i < len(s) and s[self.i] != "\n":
                    self.i += 1
            else:
                break

    def datum(self):
        self.skip()
        if self.i >= len(self.s):
            self.error("end of input where a datum should be")
        c = self.s[self.i]
        if c == "(":
            self.i += 1
            return self.list_rest()
        if c == ")":
            self.error("unexpected )")
        if c == '"':
            self.i += 1
            return self.string_rest()
        if c in "'`,":
            self.i += 1
            name = {"'": "quote", "`": "quasiquote", ",": "unquote"}[c]
            if c == "," and self.s.startswith("@", self.i):
                self.i += 1
                name = "unquote-splicing"
            return [Sym(name), self.datum()]
        if c == "#":
            if self.s.startswith("#\\", self.i):
                self.i += 2
                return self.char_rest()
            if self.s.startswith("#hash(", self.i):  # a table inside a value
                self.i += 6
                pairs = self.list_rest()
                if not all(isinstance(e, Dotted) and len(e.items) == 1 for e in pairs):
                    self.error("a #hash whose entries are not (key . value)")
                return {_key(e.items[0]): e.tail for e in pairs}
            self.error("unknown # syntax")
        return self.atom()

    def list_rest(self):
        items = []
        while True:
            self.skip()
            if self.i >= len(self.s):
                self.error("end of input inside a list")
            if self.s[self.i] == ")":
                self.i += 1
                return items
            start = self.i
            x = self.datum()
            if x == "." and isinstance(x, Sym) and self.s[start] == ".":
                if not items:
                    self.error("dot at the start of a list")
                tail = self.datum()
                self.skip()
                if not self.s.startswith(")", self.i):
                    self.error("more than one datum after a dot")
                self.i += 1
                return Dotted(items, tail)
            items.append(x)

    def string_rest(self):
        out = []
        s = self.s
        while True:
            if self.i >= len(s):
                self.error("end of input inside a string")
            c = s[self.i]
            self.i += 1
            if c == '"':
                return "".join(out)
            if c != "\\":
                out.append(c)
                continue
            if self.i >= len(s):
                self.error("end of input inside a string escape")
            e = s[self.i]
            self.i += 1
            if e in _STR_ESC:
                out.append(_STR_ESC[e])
            elif e in "01234567":
                m = re.compile(r"[0-7]{1,3}").match(s, self.i - 1)
                out.append(chr(int(m.group(0), 8)))
                self.i = m.end()
            elif e in "xuU":
                n = {"x": 2, "u": 4, "U": 8}[e]
                m = re.compile(r"[0-9a-fA-F]{1,%d}" % n).match(s, self.i)
                if not m:
                    self.error("bad \\%s escape" % e)
                out.append(chr(int(m.group(0), 16)))
                self.i = m.end()
            elif e == "\n":
                pass  # a line continuation
            else:
                self.error("unknown string escape \\%s" % e)

    def char_rest(self):
        s = self.s
        if self.i >= len(s):
            self.error("end of input in a character")
        j = self.i + 1
        while j < len(s) and s[j] not in _DELIMS:
            j += 1
        name = s[self.i:j]
        if len(name) == 1:
            self.i = j
            return Char(name)
        if name.lower() in _CHAR_NAMES:
            self.i = j
            return Char(_CHAR_NAMES[name.lower()])
        m = re.match(r"[uUx]([0-9a-fA-F]{1,8})$", name)
        if m:
            self.i = j
            return Char(chr(int(m.group(1), 16)))
        # a single character followed by something else (#\a) is not Arc's
        self.error("unknown character name #\\%s" % name)

    def atom(self):
        s = self.s
        out = []
        quoted = False
        while self.i < len(s) and s[self.i] not in _DELIMS:
            c = s[self.i]
            if c == "|":
                end = s.find("|", self.i + 1)
                if end < 0:
                    self.error("end of input inside |symbol|")
                out.append(s[self.i + 1:end])
                quoted = True
                self.i = end + 1
            elif c == "\\":
                if self.i + 1 >= len(s):
                    self.error("end of input after \\ in a symbol")
                out.append(s[self.i + 1])
                quoted = True
                self.i += 2
            else:
                out.append(c)
                self.i += 1
        tok = "".join(out)
        if not quoted:
            if not tok:
                self.error("empty token")
            if _NUM.match(tok):
                return _number(tok)
            if tok == "nil":
                return NIL
        return Sym(tok)


def _key(x):
    return tuple(_key(e) for e in x) if isinstance(x, list) else x


def _number(tok):
    if tok.lstrip("+-") in ("inf.0", "nan.0"):
        return float(tok.replace(".0", ""))
    if "/" in tok:
        from fractions import Fraction
        return Fraction(tok)
    if re.match(r"[+-]?\d+$", tok):
        return int(tok)
    return float(tok)


def read_arc(text):
    """The one datum text holds (ArcSyntaxError if it holds less or more)."""
    r = _Reader(text)
    x = r.datum()
    r.skip()
    if r.i != len(text):
        r.error("something after the datum")
    return x


def read_arc_file(path):
    with open(path, "rb") as f:
        data = f.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ArcSyntaxError("not UTF-8: %s" % e)
    return read_arc(text)


def as_table(x, what):
    """A written tablist ((k v) ...) as a dict; ArcSyntaxError otherwise."""
    if not isinstance(x, list) or not all(isinstance(e, list) and len(e) == 2 for e in x):
        raise ArcSyntaxError("%s: not a table's list of (key value): %r" % (what, x))
    return {k: v for k, v in x}


# ---- HTML: forms and links ---------------------------------------------

class PageParser(html.parser.HTMLParser):
    """The forms (action, method, fields) and the links of a page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms = []
        self.links = []  # dicts of the <a> attributes
        self._form = None
        self._textarea = None

    def handle_starttag(self, tag, attrs):
        a = {k: (v if v is not None else "") for k, v in attrs}
        if tag == "form":
            self._form = {"action": a.get("action", ""), "method": a.get("method", "get").lower(),
                          "fields": [], "submits": []}
            self.forms.append(self._form)
        elif tag == "a":
            self.links.append(a)
        elif self._form is not None and tag == "input":
            typ = a.get("type", "text").lower()
            if typ == "submit":
                self._form["submits"].append(a.get("value", ""))
                if a.get("name"):
                    self._form["fields"].append([a["name"], a.get("value", "")])
            elif "name" in a and (typ not in ("checkbox", "radio") or "checked" in a):
                self._form["fields"].append([a.get("name"), a.get("value", "")])
        elif self._form is not None and tag == "textarea":
            self._textarea = [a.get("name"), ""]
            self._form["fields"].append(self._textarea)
        elif self._form is not None and tag == "button":
            self._form["submits"].append(a.get("value", ""))

    def handle_data(self, data):
        if self._textarea is not None:
            self._textarea[1] += data

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None
        elif tag == "textarea":
            self._textarea = None


def parse_page(body):
    p = PageParser()
    p.feed(body.decode("utf-8", "replace"))
    p.close()
    return p


def page_text(body):
    """The page's text with the HTML entities decoded (tags kept)."""
    return html.unescape(body.decode("utf-8", "replace"))


# ---- the server --------------------------------------------------------

class NewsServer:
    """apps/news/news.arc on a data directory that outlives its processes."""

    def __init__(self, work):
        self.work = work  # the working directory (cwd of the server)
        self.data = os.path.join(work, "data")
        self.proc = None
        self.port = None
        self.starts = 0
        self.req_count = 0
        self.lock = threading.Lock()
        self.killed = threading.Event()  # set just before a SIGKILL of the whole server
        # With keep_last, each thread's last connection stays open until its
        # next request (last_conn), so that the worker holding it can be
        # found (test_news_crash_workers.py kills the one that answered).
        self.keep_last = False
        self.mine = threading.local()

    def start(self, timeout=30, wrap=(), script=None, demo=False, extra=(), arcana_opts=()):
        """Starts apps/news/news.arc, or script (a file of servers/, given
        the news folder as its first argument) with news.arc's options
        and extra, arcana's own arcana_opts before them; with demo, an
        empty data directory is seeded."""
        self.starts += 1
        self.killed.clear()
        self.out_path = os.path.join(self.work, "server-%d.out" % self.starts)
        self.err_path = os.path.join(self.work, "server-%d.err" % self.starts)
        opts = ["--port", "0", "--host", "127.0.0.1", "--data", self.data]
        opts += webtest.news_store_args()
        if not demo:
            opts.append("--no-demo")
        opts += list(extra)
        if script:
            cmd = [webtest.ARCANA] + list(arcana_opts) + [
                "--host=127.0.0.1", os.path.join(webtest.SERVERS, script),
                os.path.dirname(NEWS) + "/"] + opts
        else:
            cmd = [webtest.ARCANA] + list(arcana_opts) + [NEWS] + opts
        cmd = list(wrap) + cmd
        with open(self.out_path, "wb") as out, open(self.err_path, "wb") as err:
            self.proc = subprocess.Popen(cmd, cwd=self.work, stdin=subprocess.DEVNULL,
                                         stdout=out, stderr=err,
                                         preexec_fn=webtest._child_setup,
                                         start_new_session=True)
        deadline = time.time() + timeout
        while True:
            # (under --workers the parent's line: the workers print none)
            m = re.search(r"Serving the news site on http://[^:/]+:(\d+)/"
                          r"|^ready to serve port (\d+) \(\d+ workers", self.stdout(), re.M)
            if m:
                self.port = int(m.group(1) or m.group(2))
                return
            if self.proc.poll() is not None:
                raise AssertionError("the news server exited with %s before serving:\n%s\n%s"
                                     % (self.proc.returncode, self.stdout()[-3000:],
                                        self.stderr()[-3000:]))
            if time.time() > deadline:
                raise AssertionError("the news server did not serve within %ss:\n%s\n%s"
                                     % (timeout, self.stdout()[-3000:], self.stderr()[-3000:]))
            time.sleep(0.02)

    def kill(self):
        """SIGKILL, to the whole process group; waits for it to be gone."""
        self.killed.set()
        if self.proc is not None and self.proc.returncode is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            self.proc.wait()

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def stdout(self):
        with open(self.out_path, "rb") as f:
            return f.read().decode("utf-8", "replace")

    def stderr(self):
        with open(self.err_path, "rb") as f:
            return f.read().decode("utf-8", "replace")

    def logs(self):
        """The tail of the site's error log and stderr, for failure messages."""
        text = ""
        for p in sorted(os.listdir(os.path.join(self.data, "logs"))
                        if os.path.isdir(os.path.join(self.data, "logs")) else []):
            if p.startswith("err"):
                with open(os.path.join(self.data, "logs", p), "rb") as f:
                    text += f.read().decode("utf-8", "replace")
        return ("error log:\n%s\nstderr:\n%s" % (text[-3000:], self.stderr()[-2000:]))

    def source_ip(self):
        # The server counts requests per IP and throttles an IP past 250
        # (srv.arc's abusive-ip); spreading the test's requests over many
        # loopback addresses keeps every IP far below that.
        with self.lock:
            self.req_count += 1
            n = self.req_count % 2000
        return "127.2.%d.%d" % (n // 250, n % 250 + 1)

    def request(self, method, path, body=None, cookie=None, timeout=15):
        """(status, headers (lower-cased names; set-cookie a list), body).
        Raises OSError / http.client.HTTPException if the answer is not whole."""
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout,
                                       source_address=(self.source_ip(), 0))
        try:
            headers = {}
            if cookie:
                headers["Cookie"] = "user=" + cookie
            if body is not None:
                headers["Content-Type"] = "application/x-www-form-urlencoded"
                if not isinstance(body, (bytes, str)):
                    body = urllib.parse.urlencode([tuple(kv) for kv in body],
                                                  quote_via=urllib.parse.quote)
            c.request(method, path, body=body, headers=headers)
            r = c.getresponse()
            data = r.read()  # IncompleteRead if the body is cut short
            h = {}
            for k, v in r.getheaders():
                k = k.lower()
                if k == "set-cookie":
                    h.setdefault(k, []).append(v)
                else:
                    h[k] = v
            return r.status, h, data
        finally:
            if self.keep_last:
                last = getattr(self.mine, "conn", None)
                self.mine.conn = c
                if last is not None:
                    last.close()
            else:
                c.close()

    def close_last(self):
        """Closes this thread's last connection (with keep_last)."""
        c = getattr(self.mine, "conn", None)
        self.mine.conn = None
        if c is not None:
            c.close()

    def last_conn(self):
        """This thread's last connection (with keep_last), still open, or None."""
        return getattr(self.mine, "conn", None)

    def get(self, path, cookie=None):
        return self.request("GET", path, cookie=cookie)


def absolute(path):
    """A link or form action of the site as a request path."""
    u = urllib.parse.urlsplit(path)
    p = u.path if u.path.startswith("/") else "/" + u.path
    return p + ("?" + u.query if u.query else "")


def cookie_of(headers):
    for v in headers.get("set-cookie", []):
        m = re.match(r"\s*user=([^;\s]*)", v)
        if m:
            return m.group(1)
    return None


# ---- what the clients did ----------------------------------------------

class Ledger:
    """Everything acknowledged, and what went wrong while the server was
    supposed to be up."""

    def __init__(self):
        self.lock = threading.Lock()
        self.stories = []        # dicts: title url user round id
        self.votes = set()       # (user, item id)
        self.tried = {u: set() for u in USERS}  # item ids each user tried to vote on
        self.sent = 0            # operations begun
        self.unexpected = []     # errors while the server was not being killed
        self.refused = []        # operations the site declined (a message page)
        self.inflight_at_kill = 0
        self.ack_times = []      # time.time() of each acknowledgement

    def note_unexpected(self, msg):
        with self.lock:
            if len(self.unexpected) < 30:
                self.unexpected.append(msg)


class Site:
    """The HTML protocol of the site, as a user's browser follows it."""

    VOTE_REFUSALS = ("can't make that vote", "user mismatch", "no such item",
                     "have to be logged in", "users don't match")

    def __init__(self, srv):
        self.srv = srv

    @staticmethod
    def vote_done(status, headers, body):
        """Whether the answer to a vote link says the vote was cast. The
        site redirects back to whence when it was; when it was not, it
        redirects to a page (a fnid's) with the reason. An answer of 200
        (Arc 3.1 prints nothing) counts unless it says no."""
        if 300 <= status < 400:
            loc = headers.get("location", "")
            return not re.search(r"fnid=|deadlink|login", loc)
        text = page_text(body).lower()
        return 200 <= status < 300 and not any(r in text for r in Site.VOTE_REFUSALS)

    def create_account(self, user, pw, via="/submit"):
        """Makes the account with the Create Account form of the login
        page that via (an op that needs a login) shows a visitor; returns
        the login cookie."""
        status, _, body = self.srv.get(via)
        assert status == 200, ("GET " + via, status, body[:300])
        forms = parse_page(body).forms
        form = None
        for f in forms:
            if any("create" in s.lower() for s in f["submits"]):
                form = f
        assert form, "no Create Account form on %s: %r" % (via, body[:1000])
        fields = [[k, v] for k, v in form["fields"] if k not in ("u", "p")]
        fields += [["u", user], ["p", pw]]
        status, headers, body = self.srv.request("POST", absolute(form["action"] or "/x"),
                                                 body=fields)
        cookie = cookie_of(headers)
        assert status in (200, 302) and cookie, \
            ("account %s not made" % user, status, headers, body[:500])
        return cookie

    def submit_form(self, cookie):
        status, _, body = self.srv.get("/submit", cookie=cookie)
        if status != 200:
            return None, ("GET /submit: %d %r" % (status, body[:300]))
        for f in parse_page(body).forms:
            names = [k for k, _ in f["fields"]]
            if "t" in names and "u" in names:
                return f, None
        return None, "no submit form (with t and u) on /submit: %r" % body[:600]

    def post_story(self, form, cookie, title, url):
        fields = []
        for k, v in form["fields"]:
            if k == "t":
                v = title
            elif k == "u":
                v = url
            elif k == "x":
                v = ""
            fields.append([k, v])
        return self.srv.request("POST", absolute(form["action"] or "/r"),
                                body=fields, cookie=cookie)

    def newest(self, cookie=None):
        status, _, body = self.srv.get("/newest", cookie=cookie)
        return status, body

    @staticmethod
    def story_id_in(body, url):
        """The id of the story whose title links to url on a list page."""
        text = body.decode("utf-8", "replace")
        links = [(m, html.unescape(m.group(1)))
                 for m in re.finditer(r'href="?([^" >]*)"?', text)]
        for k, (m, href) in enumerate(links):
            if href == url:
                # up to the next story's title link (all of this test's
                # stories link to example.com/crash/)
                end = next((m2.start() for m2, h2 in links[k + 1:]
                            if h2.startswith("http://example.com/crash/")), len(text))
                n = re.compile(r"(?<![a-z])item\?id=(\d+)").search(text, m.end(), end)
                return int(n.group(1)) if n else None
        return None

    @staticmethod
    def up_arrows(body, user):
        """{item id: vote path} of the up-vote links on a page made for user."""
        out = {}
        for a in parse_page(body).links:
            href = a.get("href", "")
            if "vote?" not in href:
                continue
            q = urllib.parse.parse_qs(urllib.parse.urlsplit(href).query)
            if q.get("dir") != ["up"] or q.get("by") != [user] or "for" not in q:
                continue
            try:
                out[int(q["for"][0])] = absolute(href)
            except ValueError:
                pass
        return out


# ---- the test ----------------------------------------------------------

class NewsCrashTest(unittest.TestCase):

    def setUp(self):
        seed = os.environ.get("NEWS_CRASH_SEED")
        self.seed = int(seed) if seed else random.SystemRandom().randrange(1 << 30)
        log("news_crash: seed %d (NEWS_CRASH_SEED=%d repeats it)" % (self.seed, self.seed))
        self.rng = random.Random(self.seed)
        self.work = tempfile.mkdtemp(prefix="arcana-news-crash-")
        self.srv = NewsServer(self.work)
        self.addCleanup(self.cleanup)

    def start_server(self):
        self.srv.start(script=CRASH_SCRIPT)

    def excused(self):
        """Whether what went wrong in this client thread's operation may be
        the kill's doing: here, the whole server is being killed."""
        return self.srv.killed.is_set()

    def cleanup(self):
        self.srv.kill()
        if os.environ.get("NEWS_CRASH_KEEP"):
            log("news_crash: kept", self.work)
        else:
            shutil.rmtree(self.work, ignore_errors=True)

    # -- the clients --

    def client(self, *args):
        try:
            self.client_ops(*args)
        finally:
            self.srv.close_last()

    def client_ops(self, site, ledger, user, cookie, rnd, take, on_ack):
        rng = random.Random("%d/%d/%s" % (self.seed, rnd, user))
        n = 0
        while not self.srv.killed.is_set():
            if not take():
                return
            n += 1
            self.op_started()
            try:
                if rng.random() < 0.5 and self.vote(site, ledger, user, cookie, rng, on_ack):
                    continue
                title = 'Crash r%d %s %d "quoted" back\\slash \u00e9' % (rnd, user, n)
                url = "http://example.com/crash/r%d/%s/%d" % (rnd, user, n)
                self.submit(site, ledger, user, cookie, rnd, title, url, on_ack)
            except (OSError, http.client.HTTPException) as e:
                if self.excused():
                    with ledger.lock:
                        ledger.inflight_at_kill += 1
                    if self.srv.killed.is_set():
                        return  # the kill: this operation was in flight
                    continue  # a worker's: the server goes on
                ledger.note_unexpected("%s, round %d: %s: %s" % (user, rnd, type(e).__name__, e))
                return

    def op_started(self):
        """Called as a client thread begins an operation."""

    def submit(self, site, ledger, user, cookie, rnd, title, url, on_ack):
        form, problem = site.submit_form(cookie)
        if form is None:
            if not self.excused():
                ledger.note_unexpected("%s: %s" % (user, problem))
            return
        status, headers, body = site.post_story(form, cookie, title, url)
        loc = headers.get("location", "")
        story = {"title": title, "url": url, "user": user, "round": rnd, "id": None}
        m = re.search(r"item\?id=(\d+)", loc)
        if 300 <= status < 400 and (m or re.search(r"(^|/)newest$", loc)):
            if m:
                story["id"] = int(m.group(1))
            with ledger.lock:
                ledger.stories.append(story)
            on_ack()
            if story["id"] is None and not self.excused():
                st, page = site.newest(cookie)
                if st == 200:
                    story["id"] = site.story_id_in(page, url)
        elif self.excused():
            return
        elif status >= 500:
            ledger.note_unexpected("%s: POST of the submit form: %d %r" % (user, status, body[:300]))
        else:
            why = body[:200]
            if 300 <= status < 400 and "fnid=" in loc:  # the page with the reason
                why = self.srv.get(absolute(loc), cookie=cookie)[2][-600:]
            with ledger.lock:
                ledger.refused.append("submit %r: %d %s %r" % (title, status, loc, why))

    def vote(self, site, ledger, user, cookie, rng, on_ack):
        """Up-votes a story of /newest; False when there is none to vote on."""
        status, page = site.newest(cookie)
        if status != 200:
            if not self.excused():
                ledger.note_unexpected("%s: GET /newest: %d %r" % (user, status, page[:300]))
            return True
        arrows = site.up_arrows(page, user)
        with ledger.lock:
            choices = sorted(i for i in arrows if i not in ledger.tried[user])
            if not choices:
                return False
            item = rng.choice(choices)
            ledger.tried[user].add(item)
        status, headers, body = self.srv.get(arrows[item], cookie=cookie)
        if site.vote_done(status, headers, body):
            with ledger.lock:
                ledger.votes.add((user, item))
            on_ack()
        elif not self.excused():
            if status >= 500:
                ledger.note_unexpected("%s: vote on %d: %d %r" % (user, item, status, body[:300]))
            else:
                loc = headers.get("location", "")
                why = body[:200]
                if 300 <= status < 400 and "fnid=" in loc:
                    why = self.srv.get(absolute(loc), cookie=cookie)[2][-600:]
                with ledger.lock:
                    ledger.refused.append("vote %s on %d: %d %s %r" % (user, item, status, loc, why))
        return True

    # Operations of a round's budget kept for after its kill: none here,
    # where the kill ends the round (the whole server is down).
    after_kill_reserve = 0

    def kill_now(self):
        """The kill of a round, from the client thread that just read the
        chosen acknowledgement."""
        self.srv.kill()

    def kill_later(self, mode, stop_taking):
        """The kill of a round, from the test's thread, once the chosen
        acknowledgement came (mode now: after kill_now) and, in mode later,
        a few random milliseconds more. stop_taking ends the round."""
        stop_taking.set()
        self.srv.kill()

    def run_round(self, site, ledger, cookies, rnd, budget, kill):
        """Clients send up to budget operations; kill (None: no kill) is
        (acks, mode): SIGKILL after that many acknowledgements, at once
        ('now', from the client that read the last) or after a few random
        milliseconds ('later'). Returns the operations begun."""
        lock = threading.Lock()
        state = {"taken": 0, "acks": 0, "parked": 0}
        fire = threading.Event()
        stop_taking = threading.Event()
        killed = threading.Event()
        # The last operations of the budget wait for the kill (see
        # after_kill_reserve): else a fast server could answer them all in
        # the milliseconds before a kill "later", and none would come after.
        reserve = self.after_kill_reserve if kill is not None else 0

        def take():
            with lock:
                while (reserve and not killed.is_set() and not stop_taking.is_set()
                       and state["taken"] >= budget - reserve):
                    state["parked"] += 1
                    lock.release()
                    try:
                        killed.wait(0.05)
                    finally:
                        lock.acquire()
                        state["parked"] -= 1
                if stop_taking.is_set() or state["taken"] >= budget:
                    return False
                state["taken"] += 1
                return True

        def on_ack():
            with lock:
                state["acks"] += 1
                hit = kill is not None and state["acks"] == kill[0]
            with ledger.lock:
                ledger.ack_times.append(time.time())
            if hit:
                if kill[1] == "now":
                    self.kill_now()  # a fraction of a millisecond after the answer
                fire.set()

        threads = [threading.Thread(target=self.client,
                                    args=(site, ledger, u, cookies[u], rnd, take, on_ack),
                                    daemon=True)
                   for u in USERS]
        for t in threads:
            t.start()
        if kill is not None:
            # Fires at the chosen acknowledgement, or when the budget runs
            # out first (then the kill finds the server idle), or on a stall.
            deadline = time.time() + 25
            while not fire.wait(0.05):
                with lock:
                    alive = sum(t.is_alive() for t in threads)
                    if alive == 0 or alive == state["parked"] or time.time() > deadline:
                        break
            if kill[1] == "later":
                time.sleep(self.rng.uniform(0, 0.03))
            self.kill_later(kill[1], stop_taking)
            killed.set()
        for t in threads:
            t.join(30)
            self.assertFalse(t.is_alive(), "a client thread is stuck")
        return state["taken"]

    # -- stale files a crash may leave --

    def plant_stale_tmp(self):
        """Torn FILE.tmp files, as a kill between write and rename leaves
        them: for a story id past the last, for an existing story, and for a
        user's profile and votes. Returns the paths. (None with the sqlite
        store, which writes no such files: its log is SQLite's to recover.)"""
        if webtest.NEWS_STORE != "file":
            return []
        news = os.path.join(self.srv.data, "news")
        ids = [int(n) for n in os.listdir(os.path.join(news, "story")) if n.isdigit()]
        top = max(ids) if ids else 0
        paths = [os.path.join(news, "story", "%d.tmp" % (top + 1)),
                 os.path.join(news, "story", "%d.tmp" % (top + 500))]
        if ids:
            paths.append(os.path.join(news, "story", "%d.tmp" % min(ids)))
        user = self.rng.choice(USERS)
        paths.append(os.path.join(news, "profile", user + ".tmp"))
        paths.append(os.path.join(news, "vote", user + ".tmp"))
        for p in paths:
            if os.path.isdir(os.path.dirname(p)):
                with open(p, "w") as f:
                    f.write('((id %d) (type story) (by "mallory") (title "TORN-TMP-TITLE' % (top + 1))
        return paths

    # -- the checks --

    def check_files(self):
        """Every file of the data parses; returns {path: datum}. With the
        sqlite store: the database passes SQLite's integrity check, and
        every row parses, each under the path of the file it stands for."""
        if webtest.NEWS_STORE == "sqlite":
            return self.check_database()
        data = {}
        torn = []
        tmps = []
        roots = [os.path.join(self.srv.data, "news")]
        singles = [os.path.join(self.srv.data, n) for n in ("hpw", "cooks")]
        paths = [p for p in singles if os.path.exists(p)]
        for root in roots:
            for d, _, files in os.walk(root):
                paths += [os.path.join(d, f) for f in files]
        for p in sorted(paths):
            if p.endswith(".tmp"):
                tmps.append(p)
                continue
            try:
                data[p] = read_arc_file(p)
            except ArcSyntaxError as e:
                with open(p, "rb") as f:
                    torn.append("%s: %s\n    %r" % (p, e, f.read()[:300]))
        self.assertEqual(torn, [], "torn or unreadable files after a SIGKILL and restart")
        story_tmps = [p for p in tmps
                      if os.path.dirname(p) == os.path.join(self.srv.data, "news", "story")]
        self.assertEqual(story_tmps, [],
                         "stale .tmp files of the story directory are still there after the "
                         "restart (docs/LANGUAGE.md 6.9: they are deleted at load)")
        return data

    def check_database(self):
        import sqlite3
        db = sqlite3.connect(os.path.join(self.srv.data, "news.db"), timeout=10)
        try:
            self.assertEqual(db.execute("PRAGMA integrity_check").fetchall(), [("ok",)])
            rows = [(os.path.join("news", "story", str(k)), v)
                    for k, v in db.execute("SELECT id, data FROM items")]
            for table, sub in (("profiles", "profile"), ("votes", "vote")):
                rows += [(os.path.join("news", sub, k), v)
                         for k, v in db.execute("SELECT name, data FROM %s" % table)]
            # the files check_files reads: news/ and hpw, cooks (admins
            # holds several data, as its file does)
            rows += [(k, v) for k, v in db.execute("SELECT path, data FROM files")
                     if k.startswith("news/") or k in ("hpw", "cooks")]
        finally:
            db.close()
        data, torn = {}, []
        for path, text in rows:
            try:
                data[os.path.join(self.srv.data, path)] = read_arc(text)
            except ArcSyntaxError as e:
                torn.append("%s: %s\n    %r" % (path, e, text[:300]))
        self.assertEqual(torn, [], "unreadable records after a SIGKILL and restart")
        return data

    def item_file(self, data, i):
        return data.get(os.path.join(self.srv.data, "news", "story", str(i)))

    def check_ledger(self, ledger, data, http_rounds, why):
        problems = []
        news = os.path.join(self.srv.data, "news")
        items = {}
        for p, x in data.items():
            if os.path.dirname(p) == os.path.join(news, "story"):
                try:
                    items[int(os.path.basename(p))] = as_table(x, p)
                except (ArcSyntaxError, ValueError) as e:
                    problems.append("%s: %s" % (p, e))

        def table_file(sub, user):
            p = os.path.join(news, sub, user)
            if p not in data:
                return None
            try:
                return as_table(data[p], p)
            except ArcSyntaxError as e:
                problems.append(str(e))
                return {}

        def voters(it):
            out = set()
            for v in it.get(Sym("votes"), []) or []:
                if isinstance(v, list) and len(v) >= 3 and isinstance(v[2], str):
                    out.add(str(v[2]))
            return out

        by_title = {}
        for i, it in items.items():
            by_title.setdefault(it.get(Sym("title")), []).append(i)

        with ledger.lock:
            stories = [dict(s) for s in ledger.stories]
            votes = sorted(ledger.votes)
        for s in stories:
            found = by_title.get(s["title"], [])
            if s["id"] is not None and s["id"] not in found:
                it = items.get(s["id"])
                problems.append("acknowledged story %d (%r by %s, round %d) is not in its file: %s"
                                % (s["id"], s["title"], s["user"], s["round"],
                                   "no file" if it is None else "it holds %r" % it))
                continue
            if len(found) != 1:
                problems.append("acknowledged story %r (by %s, round %d): %d files have that title %s"
                                % (s["title"], s["user"], s["round"], len(found), found))
                continue
            i = found[0]
            s["id"] = i
            it = items[i]
            if it.get(Sym("by")) != s["user"] or it.get(Sym("url")) != s["url"] \
                    or it.get(Sym("type")) != "story" or it.get(Sym("id")) != i:
                problems.append("story %d is not what was sent (%r): %r" % (i, s, it))
            if s["user"] not in voters(it):
                problems.append("story %d: its author %s's vote is not in its votes: %r"
                                % (i, s["user"], it.get(Sym("votes"))))
            vt = table_file("vote", s["user"])
            if vt is None or i not in vt:
                problems.append("story %d: not in its author's vote file news/vote/%s"
                                % (i, s["user"]))
            prof = table_file("profile", s["user"])
            if prof is None or i not in (prof.get(Sym("submitted")) or []):
                problems.append("story %d: not in %s's profile's submitted: %r"
                                % (i, s["user"], prof and prof.get(Sym("submitted"))))
            if s["round"] in http_rounds:
                status, _, body = self.srv.get("/item?id=%d" % i)
                if status != 200 or s["title"] not in page_text(body):
                    problems.append("/item?id=%d: %d, without the title %r: %r"
                                    % (i, status, s["title"], body[:300]))
        ids = {}
        for s in stories:
            if s["id"] is not None:
                ids.setdefault(s["id"], []).append(s["title"])
        for i, titles in sorted(ids.items()):
            if len(titles) > 1:
                problems.append("one id, %d, acknowledged for %d stories: %r" % (i, len(titles), titles))
        for user, i in votes:
            it = items.get(i)
            if it is None:
                problems.append("acknowledged vote of %s on %d: no such item file" % (user, i))
                continue
            if user not in voters(it):
                problems.append("acknowledged vote of %s on %d is not in the item's votes: %r"
                                % (user, i, it.get(Sym("votes"))))
            vt = table_file("vote", user)
            if vt is None or i not in vt:
                problems.append("acknowledged vote of %s on %d is not in news/vote/%s: %r"
                                % (user, i, user, vt))
        if problems:
            self.fail("%s: %d problems:\n  %s\n%s" % (why, len(problems),
                                                      "\n  ".join(problems[:40]), self.srv.logs()))

    def check_serves(self, site, cookies):
        status, _, body = self.srv.get("/")
        self.assertEqual(status, 200, body[:500])
        self.assertRegex(body.decode("utf-8", "replace"), r"item\?id=\d+",
                         "the front page lists no stories")
        for u in USERS:
            form, problem = site.submit_form(cookies[u])
            self.assertIsNotNone(form, "%s is not logged in after the restart: %s" % (u, problem))

    def test_sigkill_rounds(self):
        if not os.path.exists(NEWS):
            self.skipTest("no apps/news/news.arc")
        srv = self.srv
        site = Site(srv)
        ledger = Ledger()
        t0 = time.time()
        self.start_server()
        cookies = {u: site.create_account(u, PASSWORD) for u in USERS}
        log("news_crash: server up and %d accounts made in %.1fs" % (len(USERS), time.time() - t0))

        left = TOTAL_OPS
        planted = []
        for rnd in range(1, ROUNDS + 1):
            share = left // (ROUNDS + 1 - rnd)
            budget = left if rnd == ROUNDS else min(left, share + 15)
            acks = self.rng.randint(max(3, share // 3), max(4, share * 3 // 4))
            mode = self.rng.choice(["now", "later"])
            t1 = time.time()
            cut = ledger.inflight_at_kill
            used = self.run_round(site, ledger, cookies, rnd, budget, (acks, mode))
            left -= used
            log("news_crash: round %d: %d operations, kill after ack %d (%s) cut %d short, %.1fs; "
                "%d stories and %d votes acknowledged so far"
                % (rnd, used, acks, mode, ledger.inflight_at_kill - cut, time.time() - t1,
                   len(ledger.stories), len(ledger.votes)))
            self.assertEqual(ledger.unexpected, [], "errors while the server was up\n" + srv.logs())
            stale = [os.path.join(d, f) for d, _, fs in os.walk(os.path.join(srv.data, "news"))
                     for f in fs if f.endswith(".tmp")]
            if stale:
                log("news_crash:   the kill left %s" % ", ".join(
                    os.path.relpath(p, srv.data) for p in stale))
            planted = self.plant_stale_tmp()
            self.start_server()
            for p in planted:
                if "/story/" in p:
                    self.assertFalse(os.path.exists(p), "stale %s not deleted at load" % p)
            data = self.check_files()
            self.check_ledger(ledger, data, {rnd}, "after the kill of round %d" % rnd)
            self.check_serves(site, cookies)
            for p in planted:
                if "/story/" in p:
                    n = int(os.path.basename(p)[:-4])
                    status, _, body = srv.get("/item?id=%d" % n)
                    self.assertNotIn("TORN-TMP-TITLE", page_text(body),
                                     "a stale .tmp was loaded as item %d" % n)
        # What is left of the 200 goes to the restarted server, with no kill.
        if left > 0:
            used = self.run_round(site, ledger, cookies, ROUNDS + 1, left, None)
            left -= used
            self.assertEqual(ledger.unexpected, [], "errors while the server was up\n" + srv.logs())
        self.assertEqual(left, 0)
        # A clean kill at the end, and the final check of everything.
        srv.kill()
        self.start_server()
        data = self.check_files()
        self.check_ledger(ledger, data, set(range(1, ROUNDS + 2)), "at the end")
        self.check_serves(site, cookies)
        log("news_crash: %d stories, %d votes acknowledged and kept; %d refused; %.1fs in all"
            % (len(ledger.stories), len(ledger.votes), len(ledger.refused), time.time() - t0))
        for r in ledger.refused[:5]:
            log("  refused:", r)
        # The test tested something: most operations were done.
        self.assertGreaterEqual(len(ledger.stories), 40, "too few stories acknowledged")
        self.assertGreaterEqual(len(ledger.votes), 20, "too few votes acknowledged")


# ---- fsync, seen under strace ------------------------------------------

def strace_usable():
    exe = shutil.which("strace")
    if not exe:
        return None
    try:
        r = subprocess.run([exe, "-f", "-e", "trace=fsync", "true"], capture_output=True,
                           timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return exe if r.returncode == 0 else None


_SYSCALL = re.compile(r"^(?:\[pid\s+\d+\]\s+|\d+\s+)?(\w+)\((.*)\)\s+=\s+(-?\d+)")


def strace_calls(path):
    """[(name, args text, result)] of a strace -f output file, in order;
    a call split by <unfinished ...> / <... resumed> is put back together."""
    calls = []
    pending = {}
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            m = re.match(r"^(?:\[pid\s+(\d+)\]|(\d+))\s", line)
            key = (m.group(1) or m.group(2)) if m else None
            if line.endswith("<unfinished ...>"):
                pending[key] = line[:-len("<unfinished ...>")]
                continue
            m = re.search(r"<\.\.\. \w+ resumed>(.*)$", line)
            if m and key in pending:
                line = pending.pop(key) + m.group(1)
            m = _SYSCALL.match(line)
            if m:
                calls.append((m.group(1), m.group(2), int(m.group(3))))
    return calls


def first_str(args):
    m = re.match(r'(?:AT_FDCWD,\s*)?"((?:[^"\\]|\\.)*)"', args)
    return m.group(1) if m else None


def durable_writes(calls, under):
    """The writes (FILE.tmp renamed over FILE, FILE under `under`) in
    calls, each as (index of the rename, FILE, ok, why): ok if FILE.tmp was
    fsynced (through a descriptor opened on it) before the rename and its
    folder fsynced after it."""
    fd_path = {}
    synced = set()  # paths fsynced since they were opened
    out = []
    for k, (name, args, res) in enumerate(calls):
        if name in ("open", "openat") and res >= 0:
            fd_path[res] = first_str(args)
        elif name == "close":
            m = re.match(r"(\d+)", args)
            if m:
                fd_path.pop(int(m.group(1)), None)
        elif name in ("fsync", "fdatasync") and res == 0:
            m = re.match(r"(\d+)", args)
            if m and int(m.group(1)) in fd_path:
                synced.add((fd_path[int(m.group(1))], k))
        elif name in ("rename", "renameat", "renameat2") and res == 0:
            strs = re.findall(r'"((?:[^"\\]|\\.)*)"', args)
            if len(strs) < 2 or not strs[1].startswith(under):
                continue
            src, dst = strs[0], strs[1]
            before = any(p == src for p, j in synced if j < k)
            folder = os.path.dirname(dst)
            after = None
            for j in range(k + 1, len(calls)):
                n2, a2, r2 = calls[j]
                if n2 in ("open", "openat") and r2 >= 0 and \
                        os.path.normpath(first_str(a2) or "") == os.path.normpath(folder):
                    fd = r2
                    for j2 in range(j + 1, len(calls)):
                        n3, a3, r3 = calls[j2]
                        if n3 in ("fsync", "fdatasync") and re.match(r"%d\b" % fd, a3) and r3 == 0:
                            after = j2
                            break
                        if n3 == "close" and re.match(r"%d\b" % fd, a3):
                            break
                    if after is not None:
                        break
            why = []
            if not before:
                why.append("%s not fsynced before its rename" % src)
            if after is None:
                why.append("folder %s not fsynced after the rename" % folder)
            out.append((k, dst, not why, "; ".join(why), after))
    return out


class FsyncTest(unittest.TestCase):
    """fsync is called: what SIGKILL cannot show (see the module's docstring)."""

    def setUp(self):
        if webtest.NEWS_STORE != "file":
            self.skipTest("writefile's system calls: the file store's (the sqlite store's "
                          "commits are SQLite's, synchronous=FULL)")
        self.strace = strace_usable()
        if not self.strace:
            self.skipTest("strace is missing or cannot trace here")
        self.work = tempfile.mkdtemp(prefix="arcana-news-fsync-")
        self.addCleanup(shutil.rmtree, self.work, True)

    def test_writefile_fsync_rename_fsync(self):
        target = os.path.join(self.work, "sub", "f")
        os.mkdir(os.path.dirname(target))
        trace = os.path.join(self.work, "trace")
        # Under `make sanitize`: LeakSanitizer cannot run in a traced process
        # (it fails the exit), so the leak check, which the other tests make,
        # is off here.
        env = dict(os.environ)
        env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":detect_leaks=0"
        r = subprocess.run([self.strace, "-f", "-o", trace, "-e",
                            "trace=open,openat,close,write,writev,fsync,fdatasync,rename,renameat,renameat2",
                            webtest.ARCANA, "-e",
                            '(writefile (list 1 "two" (quote three)) "%s")' % target],
                           capture_output=True, timeout=60, cwd=self.work, env=env)
        self.assertEqual(r.returncode, 0, r.stderr[-2000:])
        self.assertEqual(read_arc_file(target), [1, "two", Sym("three")])
        self.assertFalse(os.path.exists(target + ".tmp"))
        calls = strace_calls(trace)
        writes = durable_writes(calls, os.path.dirname(target))
        self.assertEqual(len(writes), 1, calls[-30:])
        k, dst, ok, why, _ = writes[0]
        self.assertEqual(dst, target)
        self.assertTrue(ok, why)
        # The data went into FILE.tmp before it was fsynced.
        opened = [j for j, (n, a, res) in enumerate(calls)
                  if n in ("open", "openat") and first_str(a) == target + ".tmp" and "O_WRONLY" in a]
        self.assertTrue(opened and opened[0] < k, "FILE.tmp not written before the rename")

    def test_news_writes_before_answering(self):
        """One submission to the news server under strace: each of the
        site's files the request writes is written whole and durably
        (FILE.tmp fsynced, renamed, folder fsynced) before the first byte
        of the answer goes out."""
        if not os.path.exists(NEWS):
            self.skipTest("no apps/news/news.arc")
        trace = os.path.join(self.work, "trace")
        srv = NewsServer(self.work)
        srv.start(timeout=60, wrap=[self.strace, "-f", "-qq", "-s", "48", "-o", trace, "-e",
                                    "trace=open,openat,close,fsync,fdatasync,rename,renameat,"
                                    "renameat2,write,writev,sendto,sendmsg"])
        self.addCleanup(srv.kill)
        site = Site(srv)
        cookie = site.create_account("fsy", PASSWORD)
        form, problem = site.submit_form(cookie)
        self.assertIsNotNone(form, problem)
        mark = len(strace_calls(trace))  # what came before the POST
        title = "Fsync check story"
        status, headers, body = site.post_story(form, cookie, title, "http://example.com/fsync")
        self.assertIn(status, (302, 303), (status, headers, body[:300]))
        time.sleep(0.3)  # strace writes its lines as the calls return
        calls = strace_calls(trace)[mark:]
        answers = [j for j, (n, a, _) in enumerate(calls)
                   if n in ("write", "writev", "sendto", "sendmsg") and '"HTTP/1.1 30' in a]
        self.assertTrue(answers, "the answer's write is not in the trace: %r" % calls[-20:])
        answer = answers[0]
        news = os.path.join(srv.data, "news")
        writes = durable_writes(calls, news)
        mine = [w for w in writes if re.search(r"/(story/\d+|profile/fsy|vote/fsy)$", w[1])]
        self.assertTrue(any("/story/" in w[1] for w in mine),
                        "no story file written durably for the submission: %r" % writes)
        bad = ["%s: %s" % (w[1], w[3]) for w in mine if not w[2]]
        self.assertEqual(bad, [], "writes of the submission not durable")
        # Nothing of the site's data is written in place: a file under news/
        # opened for writing is a FILE.tmp.
        in_place = [a for n, a, res in calls
                    if n in ("open", "openat") and res >= 0 and (first_str(a) or "").startswith(news)
                    and re.search(r"O_WRONLY|O_RDWR", a) and not first_str(a).endswith(".tmp")]
        self.assertEqual(in_place, [], "files of the site opened for writing in place")
        late = [w[1] for w in mine if w[0] > answer or (w[4] is not None and w[4] > answer)]
        self.assertEqual(late, [], "files written (or their folder synced) after the answer went out")


if __name__ == "__main__":
    webtest.main()
