"""ha.py: the HA proof on loopback (docs/ha.md), RUNS times with seeded
fault times, each run bounded in time.

A run: an etcd cluster (3 members), 3 `dra serve` replicas on it, a
round-robin client over the replicas, the scheduler_perf shape (NODES nodes
x DEVICES devices, PODS template-claim pods created at RATE pods/s), watches
of pods, claims and the Lease open against every replica. During the
creates: the leader replica (the Lease's holder) gets SIGKILL and is
restarted a few seconds later; later one etcd member gets SIGKILL and is
restarted; later the new leader gets SIGSTOP for 20 s, then SIGCONT, and
must log that it lost the lease. Then the invariants (invariants.py,
watch.py) over the final state and every stream, and the figures: failover
times, pods/s, create latency. Then the same pods on a single-node SQLite
`dra serve` at full speed, for comparison.

--short (CTest's ha_short): one etcd, two replicas, fewer pods, one leader
kill, the invariants; no SQLite comparison.

usage: python3 ha.py [--short] DRA ETCD [RUNS]
environment: HA_SEED (1), HA_PODS, HA_NODES, HA_DEVICES (10), HA_RATE,
HA_TIMINGS (DRA_LEADER_ELECTION_TIMINGS: lease, renew deadline, retry),
HA_PORT_BASE (etcd's ports; else from the pid), HA_RUN_LIMIT (seconds a
run may take: 240), HA_RUN (only run N, seed HA_SEED * 1000 + N: one
seed again)."""
import os
import random
import shutil
import socket
import sys
import tempfile
import threading
import time

from client import CLAIMS, PODS, SLICES, Pods, RoundRobin, setup_cluster
from cluster import Etcd, Replica
from invariants import check_final
from watch import Observations, start_watchers

SHORT = "--short" in sys.argv
args = [a for a in sys.argv[1:] if a != "--short"]
DRA, ETCD = os.path.abspath(args[0]), os.path.abspath(args[1])
RUNS = int(args[2]) if len(args) > 2 else 1
SEED = int(os.environ.get("HA_SEED", "1"))
MEMBERS, REPLICAS = (1, 2) if SHORT else (3, 3)
N_PODS = int(os.environ.get("HA_PODS", "400" if SHORT else "5000"))
N_NODES = int(os.environ.get("HA_NODES", "40" if SHORT else "500"))
N_DEVICES = int(os.environ.get("HA_DEVICES", "10"))
RATE = float(os.environ.get("HA_RATE", "40"))
TIMINGS = os.environ.get("HA_TIMINGS", "3,2,0.5" if SHORT else "6,4,1")
RUN_LIMIT = float(os.environ.get("HA_RUN_LIMIT", "80" if SHORT else "240"))
STOP_SECONDS = 20


def port_free(port):
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
            return True
        except OSError:
            return False


def percentile(values, p):
    return values[min(len(values) - 1, int(len(values) * p))] if values else float("nan")


class Run:
    def __init__(self, number):
        self.number, self.seed = number, SEED * 1000 + number
        self.rng = random.Random(self.seed)
        self.tmp = tempfile.mkdtemp(prefix=f"dra-ha-{number}-")
        self.failures = []
        self.faults = []  # (what, wall time, etcd revision at the time, old leader identity)
        self.notes = []
        self.stop = threading.Event()

    def fail(self, msg):
        self.failures.append(msg)
        print(f"FAIL run {self.number}: {msg}", flush=True)

    # the processes

    def start_etcd(self):
        """On the first free ports from HA_PORT_BASE (else from the pid)."""
        base = int(os.environ.get("HA_PORT_BASE", 0)) or 10000 + os.getpid() % 2000 * 10
        for attempt in range(20):
            ports = range(base + 10 * attempt, base + 10 * attempt + 2 * MEMBERS)
            if all(port_free(p) for p in ports):
                self.etcd = Etcd(ETCD, self.tmp, MEMBERS, ports[0])
                self.etcd.start()
                return
        raise SystemExit("etcd: no free ports")

    def start_replicas(self):
        env = dict(os.environ, DRA_LEADER_ELECTION_TIMINGS=TIMINGS)
        urls = self.etcd.urls().split(",")
        # each replica talks to another member first
        self.replicas = [Replica(DRA, self.tmp, f"dra-{i}", ["--etcd-servers", ",".join(urls[i:] + urls[:i])], env)
                         for i in range(REPLICAS)]
        for r in self.replicas:
            r.start()

    def leader(self, timeout=30):
        """The live replica holding the Lease, and its identity."""
        deadline = time.time() + timeout
        while time.time() < deadline and not self.stop.is_set():
            holder = self.etcd.lease_holder()
            for r in self.replicas:
                if holder and holder in r.identities() and r.alive() and not r.stopped:
                    return r, holder
            time.sleep(0.1)
        self.fail(f"no live replica holds the Lease after {timeout} s")
        return None, None

    def sleep_until(self, t):
        while time.time() < t and not self.stop.is_set():
            time.sleep(min(0.1, t - time.time()))
        return not self.stop.is_set()

    # the faults

    def kill_leader(self, at, restart_after):
        if not self.sleep_until(at):
            return
        r, holder = self.leader()
        if not r:
            return
        self.faults.append(("leader killed", time.time(), self.etcd.revision(), holder, r.name))
        r.kill()
        if restart_after is not None and self.sleep_until(time.time() + restart_after):
            r.start()

    def kill_member(self, at, index, restart_after):
        if not self.sleep_until(at):
            return
        m = self.etcd.members[index]
        was_leader = self.etcd.leader() is m
        self.faults.append(("etcd member killed", time.time(), self.etcd.revision(), None, m.name))
        self.notes.append(f"{m.name}{' (raft leader)' if was_leader else ''} killed for {restart_after:.1f} s")
        m.kill()
        if self.sleep_until(time.time() + restart_after):
            m.start()
        self.faults.append(("etcd member restarted", time.time(), self.etcd.revision(), None, m.name))

    def stop_leader(self, at):
        if not self.sleep_until(at):
            return
        r, holder = self.leader()
        if not r:
            return
        log_at = len(r.log_text())
        self.faults.append(("leader stopped", time.time(), self.etcd.revision(), holder, r.name))
        r.pause()
        self.sleep_until(time.time() + STOP_SECONDS)
        r.resume()
        resumed = time.time()
        while time.time() < resumed + 15:
            after = r.log_text()[log_at:]
            if "lost the controllers' lease" in after:
                refused = [line for line in after.splitlines() if "controller write(s) refused" in line]
                self.notes.append(f"{r.name} stopped {STOP_SECONDS} s: lost the lease "
                                  f"{time.time() - resumed:.1f} s after SIGCONT"
                                  + (f", {refused[0].split(': ', 1)[1].split(' refused')[0]} refused" if refused
                                     else ", no write tried"))
                return
            time.sleep(0.1)
        self.fail(f"{r.name}, stopped {STOP_SECONDS} s while leading, did not log that it lost the lease within 15 s "
                  "of SIGCONT")

    def faults_plan(self, t0, tc):
        rng = self.rng
        if SHORT:
            return [lambda: self.kill_leader(t0 + tc * rng.uniform(0.25, 0.5), None)]
        kill_at, restart = t0 + tc * rng.uniform(0.12, 0.28), rng.uniform(3, 6)
        member_at, member, member_down = t0 + tc * rng.uniform(0.40, 0.52), rng.randrange(MEMBERS), rng.uniform(3, 8)
        stop_at = t0 + tc * rng.uniform(0.62, 0.75)

        def plan():
            self.kill_leader(kill_at, restart)
            self.kill_member(member_at, member, member_down)
            self.stop_leader(stop_at)
        return [plan]

    # the figures

    def failover(self, fault, seen):
        """Seconds from the last bind before FAULT's new Lease holder took
        over to its first bind (by resourceVersion), or None."""
        _, _, rev, old, _ = fault
        taken = min((rv for rv, h in seen.holders.items() if rv > rev and h not in (old, "")), default=None)
        if taken is None:
            return None
        before = [t for t, rv in seen.bound.values() if rv < taken]
        after = [t for t, rv in seen.bound.values() if rv > taken]
        return min(after) - max(before) if before and after else None

    def bind_gap(self, start, end, seen):
        times = sorted(t for t, _ in seen.bound.values())
        gaps = [b - a for a, b in zip(times, times[1:]) if b >= start and a <= end]
        return max(gaps, default=0.0)

    # one phase: the pods through REPLICAS, watched

    def load(self, replicas, rate, with_faults):
        client = RoundRobin(replicas)
        setup_cluster(client, N_NODES, N_DEVICES)
        seen = Observations()
        watch_stop = threading.Event()
        watchers = start_watchers(replicas, seen, watch_stop)
        pods = Pods(client, N_PODS, rate)
        faulter = None
        if with_faults:
            t0 = time.time()
            faulter = [threading.Thread(target=f) for f in self.faults_plan(t0, N_PODS / rate)]
            for f in faulter:
                f.start()
        pods.run()
        created = sum(1 for o in pods.outcome if o[0] in ("acked", "exists"))
        for o in pods.outcome:
            if o[0] not in ("acked", "exists") and len(self.failures) < 20:
                self.fail(f"a pod create ended {o[0]}: {o[1]}")
        deadline = self.started + RUN_LIMIT - (30 if with_faults else 5)
        while len(seen.bound) < created and time.time() < deadline:
            time.sleep(0.2)
        self.stop.set()
        for f in faulter or []:
            f.join()
        last_bind = max((t for t, _ in seen.bound.values()), default=pods.start)
        final = self.final_state(client, replicas)
        watch_stop.set()
        for f in seen.failures:
            self.fail(f)
        if final:
            failures, figures = check_final(*final, pods.outcome)
            for f in failures[:50]:
                self.fail(f)
        else:
            figures = {}
        lat = pods.latencies()
        return {"seen": seen, "pods": pods, "figures": figures, "watchers": watchers,
                "pods/s": len(seen.bound) / (last_bind - pods.start) if seen.bound else 0.0,
                "p50": percentile(lat, 0.5), "p99": percentile(lat, 0.99),
                "peak": self.peak(seen)}

    def peak(self, seen, window=5.0):
        times = sorted(t for t, _ in seen.bound.values())
        best, j = 0, 0
        for i, t in enumerate(times):
            while times[j] < t - window:
                j += 1
            best = max(best, i - j + 1)
        return best / window

    def final_state(self, client, replicas):
        """(pods, claims, slices) once every live replica lists the same
        pods and claims at the same resourceVersions (the Lease's renewals
        move the lists' own resourceVersion on); None when they do not
        within 30 s."""
        live = [RoundRobin([r], timeout=30) for r in replicas if r.alive()]
        deadline = time.time() + 30
        while time.time() < deadline:
            lists = [(c.get(PODS)["items"], c.get(CLAIMS)["items"]) for c in live]
            views = {tuple(sorted((o["metadata"]["name"], o["metadata"]["resourceVersion"]) for o in p + c))
                     for p, c in lists}
            if len(views) == 1:
                return lists[0][0], lists[0][1], client.get(SLICES)["items"]
            time.sleep(0.5)
        self.fail("the replicas do not list the same pods and claims after 30 s")
        return None

    def stopped_cleanly(self, r):
        status = r.stop()
        if status:
            tail = r.log_text().strip().splitlines()[-3:]
            self.fail(f"{r.name} exited with status {status} (a crash, or an unclean stop): {' | '.join(tail)}")

    def write_timeline(self, ha):
        t0 = ha["pods"].start
        rows = [(f[1] - t0, f"{f[0]} {f[4]} (etcd revision {f[2]})") for f in self.faults]
        rows += [(t - t0, f"bound {name} at {rv}") for name, (t, rv) in ha["seen"].bound.items()]
        with open(os.path.join(self.tmp, "timeline.txt"), "w") as f:
            for rv, holder in sorted(ha["seen"].holders.items()):
                f.write(f"lease at {rv}: {holder!r}\n")
            for t, what in sorted(rows):
                f.write(f"{t:8.3f} {what}\n")

    def run(self):
        self.started = time.time()
        line = f"run {self.number} (seed {self.seed}):"
        try:
            self.start_etcd()
            self.start_replicas()
            self.leader()
            ha = self.load(self.replicas, RATE, True)
        finally:
            self.stop.set()
            try:
                for r in getattr(self, "replicas", []):
                    self.stopped_cleanly(r)
            finally:
                if hasattr(self, "etcd"):
                    self.etcd.stop()
        ha_seconds = time.time() - self.started
        seen = ha["seen"]
        fo = []
        for fault in self.faults:
            what, t, _, old, name = fault
            if old:
                f = self.failover(fault, seen)
                fo.append(f"{what} ({name}) at {t - ha['pods'].start:.0f} s: failover "
                          + (f"{f:.1f} s" if f is not None else "not seen"))
        member = [f for f in self.faults if f[0].startswith("etcd member")]
        if len(member) == 2:
            fo.append(f"etcd member down at {member[0][1] - ha['pods'].start:.0f} s: longest bind gap "
                      f"{self.bind_gap(member[0][1], member[1][1] + 5, seen):.1f} s")
        print(f"{line} {'; '.join(fo)}", flush=True)
        for n in self.notes:
            print(f"  {n}", flush=True)
        fig = ha["figures"]
        print(f"  HA ({MEMBERS} etcd, {REPLICAS} replicas, {RATE:g} pods/s offered): {fig.get('bound', 0)}/{fig.get('pods', 0)} pods bound, "
              f"{fig.get('claims', 0)} claims, {fig.get('allocated', 0)} devices allocated; {ha['pods/s']:.1f} pods/s "
              f"first create to last bind, peak {ha['peak']:.0f} binds/s (5 s); create p50 {ha['p50'] * 1000:.0f} ms "
              f"p99 {ha['p99'] * 1000:.0f} ms; {seen.events} watch events, {seen.reconnects} watch reconnects",
              flush=True)
        if not SHORT:
            self.started = time.time()
            single = Replica(DRA, self.tmp, "sqlite", [], None)
            single.start()
            try:
                sq = self.load([single], 0, False)
            finally:
                self.stopped_cleanly(single)
            print(f"  SQLite (1 node, full speed): {sq['figures'].get('bound', 0)} pods bound, {sq['pods/s']:.1f} pods/s "
                  f"first create to last bind; create p50 {sq['p50'] * 1000:.0f} ms p99 {sq['p99'] * 1000:.0f} ms", flush=True)
        total = ha_seconds + (time.time() - self.started if not SHORT else 0)
        if total > RUN_LIMIT:
            self.fail(f"the run took {total:.0f} s, more than {RUN_LIMIT:.0f} s")
        print(f"  {'ok' if not self.failures else f'{len(self.failures)} FAILURES'}: HA {ha_seconds:.0f} s, "
              f"whole run {total:.0f} s", flush=True)
        self.write_timeline(ha)
        if self.failures or os.environ.get("HA_KEEP"):
            print(f"  kept {self.tmp} (timeline.txt: faults, Lease holders, binds)", flush=True)
        else:
            shutil.rmtree(self.tmp, ignore_errors=True)
        return ha, total


def main():
    failed = 0
    only = int(os.environ.get("HA_RUN", "0"))
    numbers = [only] if only else range(1, RUNS + 1)
    for n in numbers:
        r = Run(n)
        r.run()
        failed += bool(r.failures)
    print(f"ha: {len(numbers)} run(s), {failed} failed")
    sys.exit(1 if failed else 0)


main()
