"""hostile.py: dra serve under hostile clients over loopback, each case
bounded in time (docs/server.md "Connections and threads").

- conns: IDLE connections that never send a byte and SLOW connections that
  send half a request header and stop, while a normal client sends GETs on
  one keep-alive connection: the p99 of those GETs stays under 100 ms. With
  --timeout, the test then waits past the server's header timeout (32 s, as
  kube-apiserver's ReadHeaderTimeout) and checks that the server closed
  every idle and slow connection.
- watches: CYCLES watches opened (headers answered) and closed, 50 at a
  time: the server's thread and descriptor counts (/proc/PID/task, fd) are
  back at their baseline within 2 s.
- slowwatch: 5 watchers that never read (small receive buffers) and one
  that reads, while one Namespace is updated UPDATES times with a 200 KB
  annotation: the server's RSS (/proc/PID/status VmRSS) stays within
  rss_bound() of its baseline, the server ends the streams of the 5 (it drops
  what they have not started to receive), and the reading watcher sees
  every update.
- trickle: N connections that send their request headers one byte every
  TRICKLE_GAP_S seconds, never going quiet long enough for an inactivity
  timeout, and N that send whole headers then their body the same way: the
  server (with --request-timeout REQUEST_TIMEOUT_S) cuts the first within
  a few seconds of HEADER_TIMEOUT after their accept, the second within a
  few seconds of REQUEST_TIMEOUT_S after their headers, and answers a
  normal client all the while.

usage: python3 hostile.py DRA conns IDLE SLOW GETS [--timeout]
       python3 hostile.py DRA watches CYCLES
       python3 hostile.py DRA slowwatch UPDATES
       python3 hostile.py DRA trickle N
"""
import json
import os
import re
import resource
import socket
import subprocess
import sys
import tempfile
import threading
import time

import serve
from serve import call

HEADER_TIMEOUT = 32  # src/server/server.c SRV_HEADER_TIMEOUT
REQUEST_TIMEOUT_S = 5  # dra serve --request-timeout in the trickle case
TRICKLE_GAP_S = 2
CUT_SLACK_S = 3  # the server looks at deadlines every 250 ms; the client every TRICKLE_GAP_S
P99_BOUND_MS = 100
# trickle: a handful of GETs, so their slowest one, on a machine that may be
# busy: no GET waits on the tricklers (a deadline is seconds)
TRICKLE_GET_BOUND_MS = 1000
SETTLE_S = 2
PAD = 200 * 1000
# The RSS bound over the baseline: the store keeps the last 1,024 events for
# watches to resume from (src/store/store.h, history), measured at about
# twice an object's size each; each watcher that does not read may hold up
# to 4 MiB (src/server/list.c, WATCH_BUFFER_LIMIT) before it is closed;
# and a margin. Watchers never closed would hold every update each.
HISTORY = 1024
WATCHER_LIMIT = 4 * 1024 * 1024
RSS_MARGIN = 48 * 1024 * 1024


def rss_bound(updates, watchers):
    return min(updates, HISTORY) * 2 * PAD + watchers * (WATCHER_LIMIT + PAD) + RSS_MARGIN
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL " + msg, flush=True)


class Server(serve.Server):
    """dra serve on a data directory in TMP, with the server's counts."""

    def __init__(self, dra, tmp, args=()):
        # Under AddressSanitizer (make asan) freed memory waits in a
        # quarantine of up to 256 MiB, which RSS would count: none here.
        env = dict(os.environ)
        env["ASAN_OPTIONS"] = ":".join(filter(None, [env.get("ASAN_OPTIONS"), "quarantine_size_mb=0",
                                                     "thread_local_quarantine_size_kb=0"]))
        super().__init__(dra, os.path.join(tmp, "data"), os.path.join(tmp, "serve.log"), env, args)
        self.addr = (self.host, self.port)

    def dial(self, rcvbuf=0):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if rcvbuf:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        s.connect(self.addr)
        return s

    def threads(self):
        return len(os.listdir(f"/proc/{self.proc.pid}/task"))

    def fds(self):
        return len(os.listdir(f"/proc/{self.proc.pid}/fd"))

    def rss(self):
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
        return 0

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


def ended_by_server(sock, deadline):
    """True once, before deadline, the server closed sock (EOF or reset) or
    ended the chunked response on it (the last chunk, as a watch the server
    stops ends; the connection may then stay open for a next request).
    What the server sent is read and dropped."""
    tail = b""
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        sock.settimeout(left)
        try:
            chunk = sock.recv(65536)
        except socket.timeout:
            return False
        except ConnectionError:
            return True
        if not chunk:
            return True
        tail = (tail + chunk)[-7:]
        if tail == b"\r\n0\r\n\r\n":
            return True


def case_conns(srv, idle_n, slow_n, gets, check_timeout):
    t_open = time.monotonic()
    idle = [srv.dial() for _ in range(idle_n)]
    slow = []
    for _ in range(slow_n):
        s = srv.dial()
        s.sendall(b"GET /api/v1/namespaces HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slo")
        slow.append(s)
    print(f"conns: {idle_n} idle and {slow_n} slow-header connections open in "
          f"{time.monotonic() - t_open:.1f} s; server: {srv.threads()} threads, {srv.fds()} fds", flush=True)
    conn = srv.conn()
    lat = []
    for i in range(gets):
        t0 = time.monotonic()
        conn.request("GET", "/api/v1/namespaces/default")
        resp = conn.getresponse()
        resp.read()
        lat.append(time.monotonic() - t0)
        if resp.status != 200:
            fail(f"conns: GET {i}: HTTP {resp.status}")
            break
    conn.close()
    lat.sort()
    p50, p99, worst = (lat[len(lat) // 2] * 1000, lat[min(len(lat) - 1, len(lat) * 99 // 100)] * 1000,
                       lat[-1] * 1000)
    print(f"conns: {len(lat)} GETs: p50 {p50:.2f} ms, p99 {p99:.2f} ms, max {worst:.2f} ms", flush=True)
    if p99 >= P99_BOUND_MS:
        fail(f"conns: p99 {p99:.1f} ms, want under {P99_BOUND_MS} ms")
    if check_timeout:
        deadline = t_open + HEADER_TIMEOUT + 10
        idle_closed = sum(ended_by_server(s, deadline) for s in idle)
        slow_closed = sum(ended_by_server(s, deadline) for s in slow)
        print(f"conns: closed by the server within {time.monotonic() - t_open:.1f} s of opening "
              f"(header timeout {HEADER_TIMEOUT} s): {idle_closed} of {idle_n} idle, "
              f"{slow_closed} of {slow_n} slow", flush=True)
        if idle_closed != idle_n or slow_closed != slow_n:
            fail("conns: connections left open past the header timeout")
    for s in idle + slow:
        s.close()


def watch_cycle(srv, n):
    socks = []
    for _ in range(n):
        s = srv.dial()
        s.sendall(b"GET /api/v1/namespaces?watch=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        socks.append(s)
    for s in socks:
        s.settimeout(10)
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = s.recv(4096)
            if not chunk:
                break
            head += chunk
        if not head.startswith(b"HTTP/1.1 200"):
            fail(f"watches: a watch answered {head[:60]!r}")
    for s in socks:
        s.close()


def case_watches(srv, cycles):
    time.sleep(0.5)  # the control loop's first pass
    base_threads, base_fds = srv.threads(), srv.fds()
    print(f"watches: baseline {base_threads} threads, {base_fds} fds", flush=True)
    t0 = time.monotonic()
    peak_threads = peak_fds = 0
    done = 0
    while done < cycles and not failures:
        batch = min(50, cycles - done)
        watch_cycle(srv, batch)
        done += batch
        peak_threads, peak_fds = max(peak_threads, srv.threads()), max(peak_fds, srv.fds())
    t_end = time.monotonic()
    print(f"watches: {done} watches opened and closed in {t_end - t0:.1f} s; "
          f"peak {peak_threads} threads, {peak_fds} fds", flush=True)
    threads, fds = srv.threads(), srv.fds()
    while (threads, fds) != (base_threads, base_fds) and time.monotonic() - t_end < SETTLE_S:
        time.sleep(0.05)
        threads, fds = srv.threads(), srv.fds()
    print(f"watches: {time.monotonic() - t_end:.2f} s after the last close: {threads} threads, {fds} fds", flush=True)
    if (threads, fds) != (base_threads, base_fds):
        fail(f"watches: {threads} threads and {fds} fds {SETTLE_S} s after, "
             f"want the baseline {base_threads} and {base_fds}")


def reading_watcher(srv, rv, seen):
    conn = srv.conn(timeout=60)
    conn.request("GET", f"/api/v1/namespaces?watch=1&resourceVersion={rv}&fieldSelector=metadata.name%3Dbig")
    resp = conn.getresponse()
    while True:
        line = resp.readline()
        if not line:
            return
        ev = json.loads(line)
        if ev["type"] == "MODIFIED":
            seen.append(ev["object"]["metadata"]["annotations"]["step"])
            if seen[-1] == "last":
                return


def case_slowwatch(srv, updates):
    conn = srv.conn()
    ns = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "big"}}
    status, obj = call(conn, "POST", "/api/v1/namespaces", ns)
    if status != 201:
        fail(f"slowwatch: create: HTTP {status}: {obj}")
        return
    rv = obj["metadata"]["resourceVersion"]
    slow = []
    for _ in range(5):
        s = srv.dial(rcvbuf=4096)
        s.sendall(f"GET /api/v1/namespaces?watch=1&resourceVersion={rv} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        slow.append(s)
    seen = []
    reader = threading.Thread(target=reading_watcher, args=(srv, rv, seen))
    reader.start()
    time.sleep(0.5)
    base = peak = srv.rss()
    pad = "x" * PAD
    t0 = time.monotonic()
    for i in range(updates):
        step = "last" if i == updates - 1 else str(i)
        obj["metadata"]["annotations"] = {"pad": pad, "step": step}
        status, body = call(conn, "PUT", "/api/v1/namespaces/big", obj)
        if status != 200:
            fail(f"slowwatch: update {i}: HTTP {status}: {str(body)[:200]}")
            break
        obj = body
        peak = max(peak, srv.rss())
    bound = rss_bound(updates, len(slow))
    print(f"slowwatch: {updates} updates of {PAD // 1000} KB in {time.monotonic() - t0:.1f} s; "
          f"RSS baseline {base / 2**20:.1f} MiB, peak {peak / 2**20:.1f} MiB "
          f"(bound: baseline + {bound / 2**20:.0f} MiB)", flush=True)
    if peak - base > bound:
        fail(f"slowwatch: RSS grew by {(peak - base) / 2**20:.1f} MiB, more than {bound / 2**20:.0f} MiB")
    reader.join(30)
    if reader.is_alive() or len(seen) != updates or seen[-1:] != ["last"]:
        fail(f"slowwatch: the reading watcher saw {len(seen)} of {updates} updates")
    deadline = time.monotonic() + 5
    closed = sum(ended_by_server(s, deadline) for s in slow)
    print(f"slowwatch: {closed} of 5 watchers that never read were ended by the server; "
          f"the reading watcher saw {len(seen)} of {updates} updates", flush=True)
    if closed != 5:
        fail(f"slowwatch: the streams of {5 - closed} watchers that never read did not end")
    for s in slow:
        s.close()


def case_trickle(srv, n):
    body = b'{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"trickled"}}'
    head = (b"GET /api/v1/namespaces HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: " + b"x" * 200 + b"\r\n\r\n")
    post = (b"POST /api/v1/namespaces HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: " + str(len(body) + 1000).encode() + b"\r\n\r\n")
    # [socket, bytes left to trickle, when its clock started, when it was cut]
    headers = [[srv.dial(), head, time.monotonic(), None] for _ in range(n)]
    bodies = []
    for _ in range(n):
        s = srv.dial()
        s.sendall(post)
        bodies.append([s, body + b" " * 1000, time.monotonic(), None])
    conn = srv.conn()
    worst = 0.0
    t_end = time.monotonic() + HEADER_TIMEOUT + CUT_SLACK_S + TRICKLE_GAP_S
    while time.monotonic() < t_end and any(c[3] is None for c in headers + bodies):
        for c in headers + bodies:
            if c[3] is not None:
                continue
            try:
                c[0].send(c[1][:1], socket.MSG_NOSIGNAL)
                c[1] = c[1][1:] or b" "
            except OSError:
                c[3] = time.monotonic()
                continue
            c[0].setblocking(False)
            try:
                if c[0].recv(4096) == b"":
                    c[3] = time.monotonic()
            except BlockingIOError:
                pass
            except OSError:
                c[3] = time.monotonic()
        t0 = time.monotonic()
        status, _ = call(conn, "GET", "/api/v1/namespaces/default")
        worst = max(worst, time.monotonic() - t0)
        if status != 200:
            fail(f"trickle: a normal GET answered {status}")
        time.sleep(TRICKLE_GAP_S)
    conn.close()

    def report(name, conns, limit):
        ages = [c[3] - c[2] for c in conns if c[3] is not None]
        print(f"trickle: {len(ages)} of {len(conns)} {name} connections cut, "
              f"{min(ages, default=0):.1f} to {max(ages, default=0):.1f} s after their clock started "
              f"(deadline {limit} s)", flush=True)
        if len(ages) != len(conns):
            fail(f"trickle: {len(conns) - len(ages)} {name} connections outlived their deadline")
        elif min(ages) < limit - 1 or max(ages) > limit + CUT_SLACK_S + TRICKLE_GAP_S:
            fail(f"trickle: {name} connections cut outside [{limit - 1}, {limit + CUT_SLACK_S + TRICKLE_GAP_S}] s")
        for c in conns:
            c[0].close()

    report("header-trickling", headers, HEADER_TIMEOUT)
    report("body-trickling", bodies, REQUEST_TIMEOUT_S)
    print(f"trickle: the slowest normal GET meanwhile took {worst * 1000:.1f} ms", flush=True)
    if worst * 1000 >= TRICKLE_GET_BOUND_MS:
        fail(f"trickle: a normal GET took {worst * 1000:.1f} ms, want under {TRICKLE_GET_BOUND_MS} ms")


def main():
    dra, case, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = 3500 if case == "conns" else 1024
    if hard != resource.RLIM_INFINITY and hard < need:
        print(f"hostile {case}: skipped: the open-file limit is {hard}, need {need}")
        sys.exit(77)
    if soft != resource.RLIM_INFINITY and soft < need:
        resource.setrlimit(resource.RLIMIT_NOFILE, (need, hard))
    with tempfile.TemporaryDirectory(prefix="dra-soak-") as tmp:
        srv = Server(dra, tmp, ["--request-timeout", f"{REQUEST_TIMEOUT_S}s"] if case == "trickle" else [])
        try:
            if case == "conns":
                case_conns(srv, int(args[0]), int(args[1]), int(args[2]), "--timeout" in args)
            elif case == "watches":
                case_watches(srv, int(args[0]))
            elif case == "slowwatch":
                case_slowwatch(srv, int(args[0]))
            elif case == "trickle":
                case_trickle(srv, int(args[0]))
            else:
                raise SystemExit(f"unknown case {case}")
            if srv.proc.poll() is not None:
                fail(f"dra serve died: exit {srv.proc.returncode}")
        finally:
            srv.stop()
        log = open(os.path.join(tmp, "serve.log")).read()
        if re.search(r"^(==[0-9]+==ERROR: |SUMMARY: [A-Za-z]+Sanitizer|.*runtime error: )", log, re.M):
            fail("the server's log has a sanitizer report")
        if failures:
            print(log[-3000:])
    print(f"hostile {case}: {'FAIL' if failures else 'ok'}")
    sys.exit(1 if failures else 0)


main()
