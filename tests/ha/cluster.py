"""cluster.py: the processes of one HA run on loopback: an etcd cluster of
`make etcd`'s etcd (MEMBERS members, each killable and restartable on its
data directory), `dra serve` replicas on it (each killable, stoppable and
restartable; a restart gets a new port), the Lease holder read from etcd
itself, and a single-node SQLite `dra serve` for comparison."""
import base64
import http.client
import json
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "soak"))
import serve  # noqa: E402  (tests/soak/serve.py: dra serve on a port of its own choosing)

LEASE_KEY = "/registry/leases/kube-system/dra-controllers"


class Member:
    """One etcd member; client port PORT, peer port PORT + 1."""

    def __init__(self, etcd, tmp, name, port, initial_cluster):
        self.etcd, self.name, self.port = etcd, name, port
        self.data = os.path.join(tmp, name)
        self.log_path = os.path.join(tmp, name + ".log")
        self.url = f"http://127.0.0.1:{port}"
        self.args = [etcd, "--name", name, "--data-dir", self.data,
                     "--listen-client-urls", self.url, "--advertise-client-urls", self.url,
                     "--listen-peer-urls", f"http://127.0.0.1:{port + 1}",
                     "--initial-advertise-peer-urls", f"http://127.0.0.1:{port + 1}",
                     "--initial-cluster", initial_cluster, "--initial-cluster-state", "new",
                     "--initial-cluster-token", "dra-ha",
                     # the machine is shared and busy: a heartbeat late by a
                     # few hundred ms must not start an election
                     "--heartbeat-interval", "200", "--election-timeout", "2000"]
        self.proc = None

    def start(self):
        self.log = open(self.log_path, "a")
        self.proc = subprocess.Popen(self.args, stdout=self.log, stderr=self.log)

    def kill(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        self.log.close()

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait()
            self.log.close()

    def call(self, path, body, timeout=3):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            conn.request("POST", path, body=json.dumps(body), headers={"Content-Type": "application/json"})
            resp = conn.getresponse()
            return json.loads(resp.read())
        finally:
            conn.close()

    def status(self):
        """etcd's maintenance status (member_id, leader), or None."""
        try:
            return self.call("/v3/maintenance/status", {})
        except (OSError, http.client.HTTPException, ValueError):
            return None


class Etcd:
    """MEMBERS members on ports BASE, BASE + 2, ..."""

    def __init__(self, etcd, tmp, members, base):
        names = [f"etcd-{i}" for i in range(members)]
        initial = ",".join(f"{n}=http://127.0.0.1:{base + 2 * i + 1}" for i, n in enumerate(names))
        self.members = [Member(etcd, tmp, n, base + 2 * i, initial) for i, n in enumerate(names)]

    def start(self):
        for m in self.members:
            m.start()
        deadline = time.time() + 30
        while time.time() < deadline:
            for m in self.members:  # (a port in use: another etcd may answer on it)
                if m.proc.poll() is not None:
                    raise SystemExit(f"etcd {m.name} exited: see {m.log_path}")
            if all(m.status() and m.status().get("leader") for m in self.members):
                return
            time.sleep(0.2)
        raise SystemExit("the etcd cluster did not elect a leader in 30 s")

    def urls(self):
        return ",".join(m.url for m in self.members)

    def live(self):
        return [m for m in self.members if m.proc.poll() is None]

    def leader(self):
        """The member that is raft leader, or None."""
        for m in self.live():
            st = m.status()
            if st and st.get("leader"):
                for n in self.live():
                    s = n.status()
                    if s and s["header"]["member_id"] == st["leader"]:
                        return n
        return None

    def get(self, key):
        """The value of KEY (bytes) and its mod_revision, from any live member; (None, 0) when absent."""
        body = {"key": base64.b64encode(key.encode()).decode()}
        for m in self.live():
            try:
                r = m.call("/v3/kv/range", body)
            except (OSError, http.client.HTTPException, ValueError):
                continue
            if "header" not in r:
                continue
            kvs = r.get("kvs") or []
            if not kvs:
                return None, 0
            return base64.b64decode(kvs[0]["value"]), int(kvs[0]["mod_revision"])
        return None, 0

    def revision(self):
        for m in self.live():
            st = m.status()
            if st:
                return int(st["header"]["revision"])
        return 0

    def lease_holder(self):
        value, _ = self.get(LEASE_KEY)
        return json.loads(value)["spec"].get("holderIdentity", "") if value else ""

    def stop(self):
        for m in self.members:
            m.stop()


class Replica:
    """A `dra serve`; NAME's log is TMP/NAME.log (appended over restarts)."""

    def __init__(self, dra, tmp, name, args, env):
        self.dra, self.name, self.args, self.env = dra, name, args, env
        self.data = os.path.join(tmp, name)
        self.log_path = os.path.join(tmp, name + ".log")
        os.makedirs(self.data, exist_ok=True)
        self.server = None
        self.down = True  # killed and not restarted yet
        self.stopped = False  # SIGSTOP'd

    def start(self):
        self.server = serve.Server(self.dra, self.data, self.log_path, env=self.env, args=self.args)
        self.host, self.port = self.server.host, self.server.port
        self.down = False

    def pid(self):
        return self.server.proc.pid

    def alive(self):
        return not self.down and self.server.proc.poll() is None

    def kill(self):
        self.down = True
        self.server.proc.send_signal(signal.SIGKILL)
        self.server.proc.wait()
        self.server.log.close()

    def pause(self):
        self.stopped = True
        os.kill(self.pid(), signal.SIGSTOP)

    def resume(self):
        os.kill(self.pid(), signal.SIGCONT)
        self.stopped = False

    def exited(self):
        """The exit status when the process ended without being killed, else None."""
        return None if self.down or not self.server else self.server.proc.poll()

    def stop(self):
        """Stops the replica (SIGTERM); its exit status: 0 for a clean exit,
        or what it exited with on its own before."""
        if not self.server or self.down:
            return 0
        status = self.server.proc.poll()
        if status is None:
            if self.stopped:
                self.resume()
            self.server.proc.terminate()
            try:
                status = self.server.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:  # its threads' stacks to its log, then SIGKILL
                subprocess.run(["gdb", "-p", str(self.pid()), "-batch", "-ex", "thread apply all bt"],
                               stdout=self.server.log, stderr=subprocess.DEVNULL, timeout=60)
                self.server.proc.kill()
                status = self.server.proc.wait()
        self.server.log.close()
        self.down = True
        return status

    def log_text(self):
        with open(self.log_path, errors="replace") as f:
            return f.read()

    def identities(self):
        """Every identity this replica acquired the Lease as (one per start)."""
        marker = "acquired the controllers' lease kube-system/dra-controllers as "
        return {line.split(marker, 1)[1].strip() for line in self.log_text().splitlines() if marker in line}

    def conn(self, timeout):
        return http.client.HTTPConnection(self.host, self.port, timeout=timeout)
