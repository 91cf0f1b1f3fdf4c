#!/bin/sh
# A PATCH that meets a concurrent write is done again on the fresh object
# until it is in (as upstream's GuaranteedUpdate retries), so clients
# patching one object at once all succeed; a patch that names a stale
# resourceVersion itself still gets the 409. A DELETE racing writes is
# likewise done again on the fresh object.
dra=${1:-build/dra}
. tests/lib/serve.sh
skip_without python3 serve_patch_retry
serve "$tmp/data"
cat >"$tmp/race.py" <<'PY'
import http.client, json, sys, threading
host, port = sys.argv[1].split("//")[1].split(":")
path = "/apis/resource.k8s.io/v1/deviceclasses"
def call(conn, method, p, body, ctype="application/json"):
    conn.request(method, p, json.dumps(body) if body is not None else None, {"Content-Type": ctype})
    r = conn.getresponse()
    return r.status, json.loads(r.read() or b"{}")
c = http.client.HTTPConnection(host, int(port))
st, _ = call(c, "POST", path, {"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "race"}, "spec": {}})
assert st == 201, st
statuses = {}
lock = threading.Lock()
def patcher(t):
    conn = http.client.HTTPConnection(host, int(port))
    for i in range(40):
        st, _ = call(conn, "PATCH", path + "/race", {"metadata": {"labels": {f"t{t}": str(i)}}},
                     "application/merge-patch+json")
        with lock:
            statuses[st] = statuses.get(st, 0) + 1
threads = [threading.Thread(target=patcher, args=(t,)) for t in range(6)]
for th in threads: th.start()
for th in threads: th.join()
print("statuses", sorted(statuses.items()))
st, obj = call(c, "GET", path + "/race", None)
print("labels", sorted(obj["metadata"]["labels"].items()))
st, _ = call(c, "PATCH", path + "/race", {"metadata": {"resourceVersion": "1", "labels": {"x": "y"}}},
             "application/merge-patch+json")
print("stale", st)
PY
cat >>"$tmp/race.py" <<'PY'
# a DELETE racing writes to its object (here finalizer-held DeviceClasses
# being labelled) is done again on the fresh object, never a 409
import itertools, time
for k in range(20):
    body = {"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass",
            "metadata": {"name": f"held-{k}", "finalizers": ["example.com/hold"]}, "spec": {}}
    assert call(c, "POST", path, body)[0] == 201
stop = threading.Event()
target = [0]  # the class being deleted: every labeller writes to it
def labeller():
    conn = http.client.HTTPConnection(host, int(port))
    for i in itertools.count():
        if stop.is_set(): break
        call(conn, "PATCH", path + f"/held-{target[0]}", {"metadata": {"labels": {"n": str(i)}}}, "application/merge-patch+json")
lt = [threading.Thread(target=labeller) for _ in range(4)]
for th in lt: th.start()
deletes = {}
for k in range(20):
    target[0] = k
    time.sleep(0.02)
    st, _ = call(c, "DELETE", path + f"/held-{k}", None)
    deletes[st] = deletes.get(st, 0) + 1
stop.set()
for th in lt: th.join()
print("deletes", sorted(deletes.items()))
PY
out=$(python3 "$tmp/race.py" "$url" 2>&1)
check "every racing patch succeeds" "statuses [(200, 240)]" printf '%s' "$out"
check "each patcher's last label" "labels [('t0', '39'), ('t1', '39'), ('t2', '39'), ('t3', '39'), ('t4', '39'), ('t5', '39')]" printf '%s' "$out"
check "a stale resourceVersion of the patch's own" "stale 409" printf '%s' "$out"
check "every racing delete is in" "deletes [(200, 20)]" printf '%s' "$out"
summary
