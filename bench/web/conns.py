#!/usr/bin/env python3
# bench/web/conns.py PORT PID [N]: the client of conns.sh. Opens N (10,000)
# keep-alive connections to 127.0.0.1:PORT from this one process (non-
# blocking sockets, selectors), sends "GET /hello" on each as it connects
# and reads its answer, keeps them all open, reads the memory of the
# server (PID) then, and sends a second request on every connection and
# reads the answers again. Prints "key value" lines for conns.sh.
import errno, resource, selectors, socket, sys, time

port, pid = int(sys.argv[1]), int(sys.argv[2])
n = int(sys.argv[3]) if len(sys.argv) > 3 else 10000
INFLIGHT = 512          # connections being opened at once
DEADLINE = 120          # seconds for each round

soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
want = n + 1000
if soft < want:
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(want, hard), max(want, hard)))
    except (ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

REQUEST = b"GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"


def memory():
    rss = uss = 0
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1]) * 1024
    with open(f"/proc/{pid}/smaps_rollup") as f:
        for line in f:
            if line.startswith(("Private_Clean:", "Private_Dirty:")):
                uss += int(line.split()[1]) * 1024
    return rss, uss


def answer(buf):
    """(complete, ok, why) of the bytes read so far of one response."""
    end = buf.find(b"\r\n\r\n")
    if end < 0:
        return False, False, ""
    head = buf[:end].decode("latin-1").split("\r\n")
    length = None
    for h in head[1:]:
        k, _, v = h.partition(":")
        if k.strip().lower() == "content-length":
            length = int(v.strip())
    if length is None:
        return True, False, "no Content-Length: " + head[0]
    if len(buf) < end + 4 + length:
        return False, False, ""
    body = buf[end + 4:end + 4 + length]
    if not head[0].split()[1:2] == ["200"]:
        return True, False, head[0]
    if body != b"hello":
        return True, False, "body %r" % body[:40]
    if len(buf) > end + 4 + length:
        return True, False, "bytes after the response"
    return True, True, ""


class Conn:
    __slots__ = ("sock", "buf", "ok", "why")


sel = selectors.DefaultSelector()
failures = {}      # why -> count


def fail(c, why):
    failures[why] = failures.get(why, 0) + 1
    c.ok = False
    c.why = why


def on_read(c):
    """Reads what there is; True when this connection's round is over."""
    try:
        data = c.sock.recv(65536)
    except BlockingIOError:
        return False
    except OSError as e:
        fail(c, "recv: " + errno.errorcode.get(e.errno, str(e.errno)))
        return True
    if not data:
        fail(c, "closed by the server" + (" mid-response" if c.buf else ""))
        return True
    c.buf += data
    done, ok, why = answer(c.buf)
    if done:
        if ok:
            c.ok = True
        else:
            fail(c, why)
    return done


def round1():
    """Opens n connections, a request on each; returns (conns, seconds)."""
    conns, opened, pending = [], 0, 0
    t0 = time.monotonic()
    while (opened < n or pending) and time.monotonic() - t0 < DEADLINE:
        while opened < n and pending < INFLIGHT:
            c = Conn()
            c.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            c.sock.setblocking(False)
            c.buf, c.ok, c.why = b"", False, ""
            err = c.sock.connect_ex(("127.0.0.1", port))
            if err not in (0, errno.EINPROGRESS):
                fail(c, "connect: " + errno.errorcode.get(err, str(err)))
                c.sock.close()
            else:
                sel.register(c.sock, selectors.EVENT_WRITE, c)
                pending += 1
                conns.append(c)
            opened += 1
        for key, ev in sel.select(timeout=1):
            c = key.data
            if key.events == selectors.EVENT_WRITE:
                err = c.sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
                if err:
                    fail(c, "connect: " + errno.errorcode.get(err, str(err)))
                    sel.unregister(c.sock)
                    pending -= 1
                    continue
                c.sock.send(REQUEST)
                sel.modify(c.sock, selectors.EVENT_READ, c)
            elif ev & selectors.EVENT_READ:
                if on_read(c):
                    sel.unregister(c.sock)
                    pending -= 1
    for key in list(sel.get_map().values()):
        fail(key.data, "no answer within %d s" % DEADLINE)
        sel.unregister(key.fileobj)
    return conns, time.monotonic() - t0


def round2(conns):
    """A second request on every connection that answered the first."""
    t0 = time.monotonic()
    live = [c for c in conns if c.ok]
    for c in live:
        c.buf, c.ok = b"", False
        try:
            c.sock.send(REQUEST)
            sel.register(c.sock, selectors.EVENT_READ, c)
        except OSError as e:
            fail(c, "send: " + errno.errorcode.get(e.errno, str(e.errno)))
    while sel.get_map() and time.monotonic() - t0 < DEADLINE:
        for key, ev in sel.select(timeout=1):
            if on_read(key.data):
                sel.unregister(key.fileobj)
    for key in list(sel.get_map().values()):
        fail(key.data, "no answer within %d s" % DEADLINE)
        sel.unregister(key.fileobj)
    return len(live), time.monotonic() - t0


rest = memory()
conns, secs1 = round1()
ok1 = sum(c.ok for c in conns)
fail1 = dict(failures)
time.sleep(0.5)
held = memory()
failures.clear()
tried2, secs2 = round2(conns)
ok2 = sum(c.ok for c in conns)
after = memory()
print("conns", n)
print("rest_rss", rest[0]); print("rest_uss", rest[1])
print("round1_ok", ok1); print("round1_secs", "%.2f" % secs1)
print("held_rss", held[0]); print("held_uss", held[1])
print("round2_tried", tried2); print("round2_ok", ok2); print("round2_secs", "%.2f" % secs2)
print("after_rss", after[0]); print("after_uss", after[1])
for why, k in sorted(fail1.items()):
    print("round1_failure", k, why)
for why, k in sorted(failures.items()):
    print("round2_failure", k, why)
for c in conns:
    c.sock.close()
