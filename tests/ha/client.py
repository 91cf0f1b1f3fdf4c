"""client.py: the load of an HA run: a round-robin client over the replicas
(a replica that fails or times out is skipped for a moment and the request
is retried on the next), the cluster in the scheduler_perf shape (nodes with
one ResourceSlice of DEVICES devices each, a DeviceClass, a
ResourceClaimTemplate) and template-claim pods created at a steady rate.

Every pod's outcome is kept: "acked" (a 2xx, with the uid it answered),
"exists" (409 AlreadyExists on a retry after an attempt whose outcome was
unknown: a lost connection, a timeout or a 5xx), or a failure."""
import http.client
import itertools
import json
import threading
import time

RESOURCE = "/apis/resource.k8s.io/v1"
PODS = "/api/v1/namespaces/default/pods"
CLAIMS = RESOURCE + "/namespaces/default/resourceclaims"
SLICES = RESOURCE + "/resourceslices"
LEASES = "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases"
DRIVER = "test-driver.cdi.k8s.io"


class RoundRobin:
    """Requests over REPLICAS in turn; TIMEOUT seconds per attempt."""

    def __init__(self, replicas, timeout=3.0):
        self.replicas, self.timeout = replicas, timeout
        self.turn = itertools.count()
        self.lock = threading.Lock()
        self.skip_until = {r.name: 0.0 for r in replicas}
        self.failing = set()  # replicas whose last attempt failed: one probe at a time
        self.local = threading.local()

    def pick(self):
        with self.lock:
            for _ in range(len(self.replicas)):
                r = self.replicas[next(self.turn) % len(self.replicas)]
                now = time.monotonic()
                if r.alive() and self.skip_until[r.name] <= now:
                    if r.name in self.failing:
                        self.skip_until[r.name] = now + self.timeout + 0.5
                    return r
        return None

    def failed(self, r):
        with self.lock:
            self.failing.add(r.name)
            self.skip_until[r.name] = time.monotonic() + 2

    def answered(self, r):
        if r.name in self.failing:
            with self.lock:
                self.failing.discard(r.name)
                self.skip_until[r.name] = 0.0

    def connection(self, r):
        conns = self.local.__dict__.setdefault("conns", {})
        c = conns.get(r.name)
        if c is None or c[0] != r.port:
            c = (r.port, r.conn(self.timeout))
            conns[r.name] = c
        return c[1]

    def drop(self, r):
        c = self.local.__dict__.get("conns", {}).pop(r.name, None)
        if c:
            c[1].close()

    def once(self, r, method, path, body=None):
        """(status, parsed body) from R; raises on a lost connection or a timeout."""
        conn = self.connection(r)
        try:
            data = json.dumps(body) if body is not None else None
            conn.request(method, path, body=data, headers={"Content-Type": "application/json"} if data else {})
            resp = conn.getresponse()
            text = resp.read()
            return resp.status, json.loads(text) if text else None
        except (OSError, http.client.HTTPException, ValueError):
            self.drop(r)
            raise

    def create(self, path, body, give_up_after=90.0):
        """(outcome, object or error, replica name): see the module's comment."""
        unknown = False
        deadline = time.monotonic() + give_up_after
        error = "no replica"
        while time.monotonic() < deadline:
            r = self.pick()
            if r is None:
                time.sleep(0.05)
                continue
            try:
                status, obj = self.once(r, "POST", path, body)
            except (OSError, http.client.HTTPException, ValueError) as e:
                self.failed(r)
                unknown, error = True, f"{r.name}: {e!r}"
                continue
            self.answered(r)
            if status in (200, 201):
                return "acked", obj, r.name
            if status == 409 and unknown:
                return "exists", obj, r.name
            error = f"{r.name}: HTTP {status}: {obj and obj.get('message')}"
            if status >= 500 or status == 429:
                unknown = unknown or status >= 500
                time.sleep(0.1)
                continue
            return "refused", error, r.name
        return "gave up", error, None

    def get(self, path):
        """A GET answered 200 by some replica."""
        for _ in range(200):
            r = self.pick()
            if r is None:
                time.sleep(0.05)
                continue
            try:
                status, obj = self.once(r, "GET", path)
            except (OSError, http.client.HTTPException, ValueError):
                self.failed(r)
                continue
            self.answered(r)
            if status == 200:
                return obj
            time.sleep(0.1)
        raise SystemExit(f"GET {path}: no replica answered")


def cluster_objects(nodes, devices):
    yield RESOURCE + "/deviceclasses", {
        "apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "test-class"},
        "spec": {"selectors": [{"cel": {"expression": f'device.driver == "{DRIVER}"'}}]}}
    yield RESOURCE + "/namespaces/default/resourceclaimtemplates", {
        "apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate", "metadata": {"name": "test-claim-template"},
        "spec": {"spec": {"devices": {"requests": [{"name": "req-0", "exactly": {"deviceClassName": "test-class"}}]}}}}
    for i in range(nodes):
        yield "/api/v1/nodes", {"apiVersion": "v1", "kind": "Node", "metadata": {"name": f"node-{i}"},
                                "status": {"allocatable": {"cpu": "32", "memory": "128Gi", "pods": "110"}}}
        yield SLICES, {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": f"node-{i}-slice"},
                       "spec": {"driver": DRIVER, "nodeName": f"node-{i}",
                                "pool": {"name": f"node-{i}", "generation": 1, "resourceSliceCount": 1},
                                "devices": [{"name": f"dev-{d}"} for d in range(devices)]}}


def pod(name):
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name},
            "spec": {"containers": [{"name": "c", "image": "pause", "resources": {"claims": [{"name": "resource"}]}}],
                     "resourceClaims": [{"name": "resource", "resourceClaimTemplateName": "test-claim-template"}]}}


def in_parallel(n_threads, items, fn):
    items = iter(items)
    lock = threading.Lock()

    def work():
        while True:
            with lock:
                item = next(items, None)
            if item is None:
                return
            fn(item)
    threads = [threading.Thread(target=work) for _ in range(n_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def setup_cluster(client, nodes, devices):
    def create(item):
        outcome, obj, _ = client.create(*item)
        if outcome not in ("acked", "exists"):
            raise SystemExit(f"setup: POST {item[0]}: {outcome}: {obj}")
    in_parallel(8, cluster_objects(nodes, devices), create)


class Pods:
    """Creates N pods pod-0 ... at RATE pods/s (0: as fast as THREADS go)."""

    def __init__(self, client, n, rate, threads=24):
        self.client, self.n, self.rate, self.threads = client, n, rate, threads
        self.outcome = [None] * n  # (outcome, uid or error, replica)
        self.sent = [0.0] * n  # wall-clock times
        self.done = [0.0] * n
        self.start = None

    def create(self, i):
        if self.rate > 0:
            wait = self.start + i / self.rate - time.time()
            if wait > 0:
                time.sleep(wait)
        self.sent[i] = time.time()
        outcome, obj, replica = self.client.create(PODS, pod(f"pod-{i}"))
        self.done[i] = time.time()
        uid = obj["metadata"]["uid"] if outcome == "acked" else None
        self.outcome[i] = (outcome, uid if outcome == "acked" else obj, replica)

    def run(self):
        self.start = time.time()
        in_parallel(self.threads, range(self.n), self.create)
        self.end = time.time()

    def latencies(self):
        return sorted(self.done[i] - self.sent[i] for i in range(self.n) if self.outcome[i][0] in ("acked", "exists"))
