"""A second real client for dra serve: Debian's python3-kubernetes.

Its DynamicClient discovers resource.k8s.io/v1 ResourceClaims, lists them,
creates one, and watches it change (a label added over HTTP PATCH).
usage: /usr/bin/python3 serve_python_client.py KUBECONFIG
Prints one line per failed check and 'N passed, N failed'."""
import sys
import threading

from kubernetes import config, dynamic
from kubernetes.client import api_client

passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAIL {name}: {detail}")


client = dynamic.DynamicClient(api_client.ApiClient(configuration=config.load_kube_config(config_file=sys.argv[1])))
claims = client.resources.get(api_version="resource.k8s.io/v1", kind="ResourceClaim")
check("discovery", claims.namespaced and claims.name == "resourceclaims", claims.name)

body = {
    "apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
    "metadata": {"name": "from-python"},
    "spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu.example.com"}}]}},
}
created = claims.create(body=body, namespace="default")
check("create", created.metadata.name == "from-python", created.metadata.name)
check("defaults applied", created.spec.devices.requests[0].exactly.allocationMode == "ExactCount",
      created.spec.devices.requests[0].exactly)

listed = claims.get(namespace="default")
names = [i.metadata.name for i in listed.items]
check("list", "from-python" in names, names)
rv = listed.metadata.resourceVersion

seen = []


def watch():
    for event in claims.watch(namespace="default", resource_version=rv, timeout=10):
        seen.append((event["type"], event["object"].metadata.name, dict(event["object"].metadata.labels or {})))
        if event["type"] == "MODIFIED":
            return


t = threading.Thread(target=watch)
t.start()
claims.patch(name="from-python", namespace="default", body={"metadata": {"labels": {"seen": "yes"}}},
             content_type="application/merge-patch+json")
t.join(15)
check("watch sees the change", ("MODIFIED", "from-python", {"seen": "yes"}) in seen, seen)

claims.delete(name="from-python", namespace="default")
names = [i.metadata.name for i in claims.get(namespace="default").items]
check("delete", "from-python" not in names, names)
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
