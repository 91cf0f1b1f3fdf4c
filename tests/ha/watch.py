"""watch.py: watches kept open against every replica during an HA run, and
what they must show:

- resourceVersions grow: within one watch stream every event's is above the
  one before, and per key every version shown (across reconnects and
  relists, the list showing a key at least at the version last seen) is at
  or above the last one;
- a pod, once it has a nodeName, never shows another one, nor none (it is
  bound at most once), in any stream;
- the Lease's holders in resourceVersion order (for the failover times).

A watch that ends (its replica killed or restarted, a timeout) is opened
again from the last resourceVersion it showed; a 410 Expired relists."""
import http.client
import json
import threading
import time

from client import CLAIMS, LEASES, PODS


class Observations:
    """What every stream showed, shared by the watchers."""

    def __init__(self):
        self.lock = threading.Lock()
        self.failures = []
        self.node_of = {}  # pod uid -> the nodeName first shown
        self.bound = {}  # pod name -> (wall time first shown bound, resourceVersion of that version)
        self.holders = {}  # Lease resourceVersion -> holderIdentity
        self.events = 0
        self.reconnects = 0

    def fail(self, msg):
        with self.lock:
            if len(self.failures) < 200:
                self.failures.append(msg)
        print("FAIL " + msg, flush=True)


class Watcher:
    """One replica's watch of PATH (a list path)."""

    def __init__(self, replica, path, seen, stop):
        self.replica, self.path, self.seen, self.stop = replica, path, seen, stop
        self.last_rv = {}  # key -> last resourceVersion shown
        self.node = {}  # pod key -> nodeName last shown in this stream
        self.thread = threading.Thread(target=self.main, daemon=True)

    def where(self):
        return f"{self.replica.name} {self.path.rsplit('/', 1)[1]}"

    def observe(self, obj, rv, how):
        m = obj["metadata"]
        key = m["name"]
        last = self.last_rv.get(key, 0)
        if rv < last or (rv == last and how == "event"):
            self.seen.fail(f"{self.where()}: {key} at resourceVersion {rv} after {last} ({how})")
        self.last_rv[key] = max(last, rv)
        if self.path == PODS:
            node = obj["spec"].get("nodeName", "")
            before = self.node.get(key, "")
            if before and node != before:
                self.seen.fail(f"{self.where()}: pod {key} was on {before}, now on {node or 'no node'} at {rv}")
            self.node[key] = node
            if node:
                with self.seen.lock:
                    first = self.seen.node_of.setdefault(m["uid"], node)
                    self.seen.bound.setdefault(key, (time.time(), rv))
                if first != node:
                    self.seen.fail(f"{self.where()}: pod {key} bound to {node}, another stream showed {first}")
        elif self.path == LEASES:
            with self.seen.lock:
                self.seen.holders[rv] = obj["spec"].get("holderIdentity", "")

    def relist(self, conn):
        conn.request("GET", self.path)
        resp = conn.getresponse()
        body = json.loads(resp.read())
        if resp.status != 200:
            raise OSError(f"list: HTTP {resp.status}")
        for obj in body["items"]:
            self.observe(obj, int(obj["metadata"]["resourceVersion"]), "list")
        return int(body["metadata"]["resourceVersion"])

    def follow(self, conn, since):
        """Reads events after SINCE; returns the last resourceVersion, or None on 410."""
        conn.request("GET", f"{self.path}?watch=1&allowWatchBookmarks=true&resourceVersion={since}")
        resp = conn.getresponse()
        if resp.status != 200:
            resp.read()
            raise OSError(f"watch: HTTP {resp.status}")
        last = since
        while not self.stop.is_set():
            line = resp.readline()
            if not line:
                return last
            ev = json.loads(line)
            obj = ev["object"]
            if ev["type"] == "ERROR":
                if obj.get("code") == 410:
                    return None
                raise OSError(f"watch: {obj.get('message')}")
            rv = int(obj["metadata"]["resourceVersion"])
            if ev["type"] == "BOOKMARK":
                if rv < last:
                    self.seen.fail(f"{self.where()}: bookmark at {rv} after {last}")
                last = max(last, rv)
                continue
            if rv <= last:
                self.seen.fail(f"{self.where()}: {ev['type']} at resourceVersion {rv} after {last} in one stream")
            last = max(last, rv)
            self.observe(obj, rv, "event")
            self.seen.events += 1
        return last

    def main(self):
        since = None
        while not self.stop.is_set():
            if not self.replica.alive():
                time.sleep(0.1)
                continue
            conn = self.replica.conn(timeout=30)
            try:
                if since is None:
                    since = self.relist(conn)
                since = self.follow(conn, since)
            except (OSError, http.client.HTTPException, ValueError):
                time.sleep(0.1)
            finally:
                conn.close()
            self.seen.reconnects += 1


def start_watchers(replicas, seen, stop):
    watchers = [Watcher(r, path, seen, stop) for r in replicas for path in (PODS, CLAIMS, LEASES)]
    for w in watchers:
        w.thread.start()
    return watchers
