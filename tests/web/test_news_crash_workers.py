"""test_news_crash.py's SIGKILL rounds with the news site on two worker
processes over one SQLite store (arcana --workers 2, news.arc --store
sqlite): nothing a worker acknowledged is lost, nothing is torn, no id
is given twice, whether the whole server is killed or one worker.

The clients, the operations (200 submissions through the site's submit
form and up-votes through its vote links, from four users) and the
checks after each kill are test_news_crash.py's: SQLite's integrity
check, every record parses, every acknowledged story is in the store
whole (with its author's vote, in his votes and his profile) and shown
by /item, every acknowledged vote is in the item's votes and the
voter's; and here also that no id was acknowledged for two stories.
Submissions cross the workers: the form is a closure of the worker that
made it, and its POST, on a new connection, lands on either (handed to
its maker: io/server.h).

- The whole server killed (test_sigkill_rounds, inherited): four rounds,
  each SIGKILLs the process group (the parent and both workers) after a
  random acknowledgement, at once from the client that read it or a few
  milliseconds later; the server is started again on the same data.
- One worker killed (test_sigkill_worker_rounds): four rounds, each
  SIGKILLs one worker after a random acknowledgement: at once, the
  worker that sent that acknowledgement (found from the client's
  connection, still open, in /proc), or a few milliseconds later a
  worker chosen at random. The parent restarts it, the clients go on
  (an operation in flight while a worker died may fail; one begun
  after must not), the other worker keeps serving throughout (the same
  process before and after, and acknowledgements come after the kill),
  and the checks run with the server up.

Why they fail if a worker answered before its commit: the worker that
answered is killed a fraction of a millisecond after its answer, so a
commit still to come is lost, and the acknowledged story or vote is
missing from the database at the round's check.

usage: python3 tests/web/test_news_crash_workers.py path/to/arcana
(NEWS_CRASH_SEED=N repeats a run's random choices; the seed is printed.)
"""
import os
import signal
import sys
import threading
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import webtest  # noqa: E402
import test_news_crash as crash  # noqa: E402

# Workers share their data through the SQLite store only.
webtest.NEWS_STORE = "sqlite"


class NewsCrashWorkersTest(crash.NewsCrashTest):

    def setUp(self):
        super().setUp()
        self.srv.keep_last = True
        self.kills_lock = threading.Lock()
        self.kills = []  # [began, victim dead (None until it is)] of each worker's kill
        self.victims = []
        self.op = threading.local()

    def start_server(self):
        self.srv.start(script=crash.CRASH_SCRIPT, arcana_opts=["--workers=2"])
        pids = webtest.wait_until(lambda: (lambda c: len(c) == 2 and c)(
            webtest.children(self.srv.proc.pid)))
        self.assertTrue(pids, "the two workers did not start")

    def workers(self):
        return webtest.children(self.srv.proc.pid)

    # -- killing one worker --

    def op_started(self):
        self.op.began = time.time()

    def excused(self):
        """The whole server is being killed, or a worker died (or was being
        killed) while this operation ran."""
        if self.srv.killed.is_set():
            return True
        began = getattr(self.op, "began", 0)
        now = time.time()
        with self.kills_lock:
            return any(k[0] <= now and (k[1] is None or k[1] >= began) for k in self.kills)

    def kill_worker(self, pid):
        entry = [time.time(), None]
        with self.kills_lock:
            self.kills.append(entry)
        self.victims.append(pid)
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        webtest.wait_until(lambda: webtest.gone(pid), 10)
        with self.kills_lock:
            entry[1] = time.time()

    def answering_worker(self):
        """The worker holding this client thread's last connection (the one
        that sent the acknowledgement just read), or None."""
        c = self.srv.last_conn()
        if c is None or c.sock is None:
            return None
        ip, port = c.sock.getsockname()
        inode = webtest.socket_inode(self.srv.port, ip, port)
        return inode and webtest.holder(self.workers(), inode)

    def kill_now(self):
        if self.worker_rounds:
            self.kill_worker(self.answering_worker() or self.rng.choice(self.workers()))
        else:
            super().kill_now()

    def kill_later(self, mode, stop_taking):
        if not self.worker_rounds:
            super().kill_later(mode, stop_taking)
        elif mode == "later" or len(self.victims) == self.round_start_victims:
            # (in mode now, if the round's operations ran out before its
            # acknowledgement came: then)
            self.kill_worker(self.rng.choice(self.workers()))
        # the clients go on until the round's budget is spent

    worker_rounds = False

    @property
    def after_kill_reserve(self):
        # One worker killed, the round goes on: its last operations wait for
        # the kill, so that some are acknowledged after it by the worker that
        # lives and the one restarted (the round leaves at least 12 after
        # the chosen acknowledgement).
        return 8 if self.worker_rounds else 0

    def test_sigkill_worker_rounds(self):
        self.worker_rounds = True
        srv = self.srv
        site = crash.Site(srv)
        ledger = crash.Ledger()
        t0 = time.time()
        self.start_server()
        parent = srv.proc.pid
        cookies = {u: site.create_account(u, crash.PASSWORD) for u in crash.USERS}
        left = crash.TOTAL_OPS
        for rnd in range(1, crash.ROUNDS + 1):
            share = left // (crash.ROUNDS + 1 - rnd)
            budget = left if rnd == crash.ROUNDS else min(left, share + 15)
            # (operations left after the kill, for the other worker to serve)
            acks = self.rng.randint(max(3, share // 4), max(4, min(share // 2, budget - 12)))
            mode = self.rng.choice(["now", "later"])
            before = self.workers()
            t1 = time.time()
            cut = ledger.inflight_at_kill
            nvictims = self.round_start_victims = len(self.victims)
            used = self.run_round(site, ledger, cookies, rnd, budget, (acks, mode))
            left -= used
            self.assertEqual(ledger.unexpected, [], "errors while the server was up\n" + srv.logs())
            self.assertEqual(len(self.victims), nvictims + 1, "round %d killed no worker" % rnd)
            victim, (began, dead) = self.victims[-1], self.kills[-1]
            after_kill = [t for t in ledger.ack_times if t > began]
            log("news_crash_workers: round %d: %d operations, worker %d killed after ack %d "
                "(%s), %d cut short, %d acknowledged after it, %.1fs; %d stories and %d votes "
                "acknowledged so far"
                % (rnd, used, before.index(victim), acks, mode, ledger.inflight_at_kill - cut,
                   len(after_kill), time.time() - t1, len(ledger.stories), len(ledger.votes)))
            # the parent restarted the victim; the other worker never stopped
            self.assertTrue(webtest.alive(parent), "the parent died with its worker")
            now = webtest.wait_until(lambda: (lambda c: len(c) == 2 and victim not in c and c)(
                self.workers()))
            self.assertTrue(now, "worker %d was not restarted: %s" % (victim, self.workers()))
            survivor = [p for p in before if p != victim]
            self.assertEqual([p for p in now if p in before], survivor,
                             "the other worker did not go on serving")
            self.assertTrue(after_kill, "nothing was acknowledged after the kill of round %d" % rnd)
            data = self.check_files()
            self.check_ledger(ledger, data, {rnd}, "after the worker's kill of round %d" % rnd)
            self.check_serves(site, cookies)
        self.assertEqual(left, 0)
        # The whole server killed at the end, and everything checked again.
        srv.kill()
        self.start_server()
        data = self.check_files()
        self.check_ledger(ledger, data, set(range(1, crash.ROUNDS + 1)), "at the end")
        self.check_serves(site, cookies)
        log("news_crash_workers: %d stories, %d votes acknowledged and kept; %d refused; "
            "%.1fs in all" % (len(ledger.stories), len(ledger.votes), len(ledger.refused),
                              time.time() - t0))
        for r in ledger.refused[:5]:
            log("  refused:", r)
        self.assertGreaterEqual(len(ledger.stories), 40, "too few stories acknowledged")
        self.assertGreaterEqual(len(ledger.votes), 20, "too few votes acknowledged")


log = crash.log

if __name__ == "__main__":
    webtest.main()
