"""kill9.py: dra serve killed with SIGKILL under a mixed load, ROUNDS times
on one data directory (docs/store.md "Commit before visible").

Each round starts the server on the data directory, checks that it came
back with what the last round's disk held, then runs, over loopback:
claim writers (create, update, delete ResourceClaims), pod writers (create
pods whose claims the control loop makes, allocates and binds; delete some,
so the garbage collector deletes claims), and watches on claims and pods.
After a random 0.6 to 1.4 s the server gets SIGKILL. The store file is
then read directly (the ground truth of what survives) and checked:

- every acknowledged write is there: an acknowledged create or update at
  resourceVersion N is on disk at N with the same content, or at a later
  version; an acknowledged delete is gone;
- no watch showed a version that is not on disk: every resourceVersion a
  watch (or an answer) showed is at most the disk's revision, and the disk
  holds no older version of that object than the one shown (the same
  content when at the same version);
- resourceVersions are monotonic: within each watch, and across restarts
  (the new server hands out only versions above the disk's revision).

usage: python3 kill9.py DRA ROUNDS
"""
import http.client
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

import serve
from serve import call

DRA, ROUNDS = sys.argv[1], int(sys.argv[2])
NODES, DEVICES = 4, 32
CLAIMS = "/apis/resource.k8s.io/v1/namespaces/default/resourceclaims"
PODS = "/api/v1/namespaces/default/pods"
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL " + msg, flush=True)


def content(obj):
    """What must be equal in two copies of one version."""
    m = obj.get("metadata", {})
    keep = {"uid": m.get("uid"), "labels": m.get("labels"), "deletionTimestamp": m.get("deletionTimestamp"),
            "spec": obj.get("spec"), "status": obj.get("status")}
    return json.dumps(keep, sort_keys=True)


def key_of(obj):
    m = obj["metadata"]
    return (obj["kind"], m.get("namespace", ""), m["name"])


class Server(serve.Server):
    def __init__(self, data):
        super().__init__(DRA, data, os.path.join(os.path.dirname(data), "serve.log"))

    def kill(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        self.log.close()


class Round:
    """What the clients of one round were told: acknowledged writes, writes in
    flight at the kill, and every version a watch showed."""

    def __init__(self, server, number):
        self.server, self.number = server, number
        self.lock = threading.Lock()
        self.acked = {}  # key -> (op, rv, content) of the last acknowledged write
        self.inflight = {}  # key -> op sent, not answered
        self.shown = []  # (key, rv, type, content) from watches and answers
        self.max_rv = 0
        self.stop = threading.Event()

    def saw(self, key, rv, type_, obj):
        with self.lock:
            self.shown.append((key, rv, type_, content(obj) if obj else None))
            self.max_rv = max(self.max_rv, rv)

    def write(self, conn, method, path, body, key, op):
        with self.lock:
            self.inflight[key] = op
        status, obj = call(conn, method, path, body)
        if status not in (200, 201):
            fail(f"round {self.number}: {method} {path}: HTTP {status}: {obj}")
            return None
        rv = int(obj["metadata"]["resourceVersion"])
        if op == "delete" and obj["metadata"].get("deletionGracePeriodSeconds", 0) > 0:
            # a graceful delete (a pod on a node): the object stays, marked,
            # until its kubelet (the node simulator) deletes it: on disk at
            # this version or later, or gone
            op = "graceful delete"
        with self.lock:
            del self.inflight[key]
            self.acked[key] = (op, rv, content(obj))
        self.saw(key, rv, op, obj if op != "delete" else None)
        return obj

    def claim_writer(self, t):
        conn = self.server.conn()
        i = 0
        while not self.stop.is_set():
            name = f"c{t}-{self.number}-{i}"
            key = ("ResourceClaim", "default", name)
            claim = {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": name},
                     "spec": {"devices": {"requests": [{"name": "r", "exactly": {"deviceClassName": "gpu"}}]}}}
            obj = self.write(conn, "POST", CLAIMS, claim, key, "create")
            if obj and i % 2 == 0:
                obj["metadata"]["labels"] = {"step": str(i)}
                obj = self.write(conn, "PUT", f"{CLAIMS}/{name}", obj, key, "update")
            if obj and i % 3 == 0:
                self.write(conn, "DELETE", f"{CLAIMS}/{name}", None, key, "delete")
            i += 1

    def pod_writer(self, t):
        conn = self.server.conn()
        i = 0
        while not self.stop.is_set():
            name = f"p{t}-{self.number}-{i}"
            pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name},
                   "spec": {"containers": [{"name": "c", "image": "pause", "resources": {"claims": [{"name": "r"}]}}],
                            "resourceClaims": [{"name": "r", "resourceClaimTemplateName": "gpu"}]}}
            self.write(conn, "POST", PODS, pod, ("Pod", "default", name), "create")
            if i >= 4 and i % 2 == 0:
                old = f"p{t}-{self.number}-{i - 4}"
                self.write(conn, "DELETE", f"{PODS}/{old}", None, ("Pod", "default", old), "delete")
            i += 1
            time.sleep(0.01)

    def watcher(self, path):
        conn = self.server.conn()
        status, lst = call(conn, "GET", path)
        rv = int(lst["metadata"]["resourceVersion"])
        self.saw(None, rv, "list", None)
        conn.request("GET", f"{path}?watch=1&resourceVersion={rv}")
        resp = conn.getresponse()
        last = rv
        while True:
            line = resp.readline()
            if not line:
                return
            ev = json.loads(line)
            obj = ev["object"]
            rv = int(obj["metadata"]["resourceVersion"])
            if ev["type"] != "BOOKMARK":
                if rv <= last:
                    fail(f"round {self.number}: watch {path}: resourceVersion {rv} after {last}")
                last = rv
                self.saw(key_of(obj), rv, ev["type"], obj if ev["type"] != "DELETED" else None)

    def run(self, seconds):
        def guard(fn, *args):
            try:
                fn(*args)
            except (OSError, http.client.HTTPException, ValueError):
                pass  # the server was killed
        threads = [threading.Thread(target=guard, args=(self.watcher, p)) for p in (CLAIMS, PODS)]
        threads += [threading.Thread(target=guard, args=(self.claim_writer, t)) for t in range(2)]
        threads += [threading.Thread(target=guard, args=(self.pod_writer, t)) for t in range(2)]
        for th in threads:
            th.start()
        time.sleep(seconds)
        self.server.kill()
        self.stop.set()
        for th in threads:
            th.join()


def read_disk(path):
    """{key: (rv, created_rv, content)} and the revision of the store file."""
    db = sqlite3.connect(path)
    objects = {}
    for rv, created, text in db.execute("SELECT rv, created_rv, json FROM objects"):
        obj = json.loads(text)
        objects[key_of(obj)] = (rv, created, content(obj))
    revision = db.execute("SELECT rv FROM revision").fetchone()[0]
    db.close()
    return objects, revision


def check_round(r, disk, revision):
    n = r.number
    if r.max_rv > revision:
        fail(f"round {n}: clients were shown resourceVersion {r.max_rv}, the disk holds only up to {revision}")
    for key, (op, rv, want) in r.acked.items():
        on_disk = disk.get(key)
        if op == "delete":
            if on_disk:
                fail(f"round {n}: {key} deleted at {rv} (acknowledged) is on disk at {on_disk[0]}")
        elif not on_disk:
            if op != "graceful delete" and r.inflight.get(key) != "delete":
                fail(f"round {n}: {key} written at {rv} (acknowledged) is not on disk")
        elif on_disk[0] < rv or (on_disk[0] == rv and on_disk[2] != want):
            fail(f"round {n}: {key} written at {rv} (acknowledged), on disk at {on_disk[0]}"
                 + (" with other content" if on_disk[0] == rv else ""))
    for key, rv, type_, shown in r.shown:
        if key is None:
            continue
        on_disk = disk.get(key)
        if type_ in ("DELETED", "delete"):
            if on_disk and on_disk[1] <= rv:
                fail(f"round {n}: {key} shown deleted at {rv}, on disk at {on_disk[0]}")
        elif on_disk and (on_disk[0] < rv or (on_disk[0] == rv and on_disk[2] != shown)):
            fail(f"round {n}: {key} shown at {rv}, on disk at {on_disk[0]}"
                 + (" with other content" if on_disk[0] == rv else ""))


def check_restart(server, n, disk, revision):
    """The restarted server serves what the disk held, above its revision."""
    conn = server.conn()
    for path, kind in ((CLAIMS, "ResourceClaim"), (PODS, "Pod")):
        status, lst = call(conn, "GET", path)
        list_rv = int(lst["metadata"]["resourceVersion"])
        if list_rv < revision:
            fail(f"round {n}: after the restart {path} lists at {list_rv}, below the disk's revision {revision}")
        served = {key_of(dict(o, kind=kind)): int(o["metadata"]["resourceVersion"]) for o in lst["items"]}
        for key, (rv, _, _) in disk.items():
            if key[0] != kind:
                continue
            if key in served and served[key] < rv:
                fail(f"round {n}: after the restart {key} is served at {served[key]}, the disk had {rv}")
            if key not in served and list_rv == revision:
                fail(f"round {n}: after the restart {key} is missing (on disk at {rv})")
    status, obj = call(conn, "POST", "/api/v1/namespaces",
                       {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": f"round-{n}"}})
    if status != 201 or int(obj["metadata"]["resourceVersion"]) <= revision:
        fail(f"round {n}: a create after the restart: HTTP {status}, resourceVersion "
             f"{obj and obj['metadata'].get('resourceVersion')}, want above {revision}")
    conn.close()


def setup(server):
    conn = server.conn()
    for path, body in [
        ("/apis/resource.k8s.io/v1/deviceclasses",
         {"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "gpu"},
          "spec": {"selectors": [{"cel": {"expression": "device.driver == \"gpu.example.com\""}}]}}),
        ("/apis/resource.k8s.io/v1/namespaces/default/resourceclaimtemplates",
         {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate", "metadata": {"name": "gpu"},
          "spec": {"spec": {"devices": {"requests": [{"name": "r", "exactly": {"deviceClassName": "gpu"}}]}}}}),
    ] + [("/api/v1/nodes", {"apiVersion": "v1", "kind": "Node", "metadata": {"name": f"node-{i}"},
                            "status": {"allocatable": {"cpu": "64", "memory": "256Gi", "pods": "500"}}})
         for i in range(NODES)] + [
        ("/apis/resource.k8s.io/v1/resourceslices",
         {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": f"node-{i}"},
          "spec": {"driver": "gpu.example.com", "nodeName": f"node-{i}",
                   "pool": {"name": f"node-{i}", "generation": 1, "resourceSliceCount": 1},
                   "devices": [{"name": f"gpu-{d}"} for d in range(DEVICES)]}})
         for i in range(NODES)]:
        status, obj = call(conn, "POST", path, body)
        if status != 201:
            raise SystemExit(f"setup: POST {path}: HTTP {status}: {obj}")
    conn.close()


def main():
    tmp = tempfile.mkdtemp(prefix="dra-kill9-")
    data = os.path.join(tmp, "data")
    rng = random.Random(int(os.environ.get("SOAK_SEED", "1")))
    disk, revision = None, 0
    acked = shown = 0
    start = time.time()
    for n in range(1, ROUNDS + 1):
        server = Server(data)
        if disk is None:
            setup(server)
        else:
            check_restart(server, n, disk, revision)
        r = Round(server, n)
        r.run(rng.uniform(0.6, 1.4))
        disk, revision = read_disk(os.path.join(data, "dra.db"))
        check_round(r, disk, revision)
        acked += len(r.acked)
        shown += len(r.shown)
        print(f"round {n}: {len(r.acked)} objects written and acknowledged, {len(r.shown)} versions shown, "
              f"{len(r.inflight)} writes in flight at the kill, highest shown {r.max_rv}, disk revision {revision}",
              flush=True)
    print(f"kill9: {ROUNDS} rounds in {time.time() - start:.1f} s, {acked} acknowledged objects, "
          f"{shown} versions shown, {len(failures)} failures")
    if not failures:
        subprocess.run(["rm", "-rf", tmp])
    else:
        print("kept " + tmp)
    sys.exit(1 if failures else 0)


main()
