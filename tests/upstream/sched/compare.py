#!/usr/bin/env python3
"""tests/upstream/sched/compare.py: the manifests and the comparison of
tests/upstream_scheduler.sh (dra's scheduler against the real kube-scheduler
on dra serve).

  compare.py gen SEED OUT.yaml      writes a seeded cluster: Nodes, ResourceSlices,
                                    DeviceClasses with CEL selectors, claim templates,
                                    a shared claim and Pods
  compare.py diff DRA.json KUBE.json
                                    compares which pods are bound, to which node, and
                                    which devices each pod's claims got; prints every
                                    disagreement and the figures, exits 1 when a pod is
                                    bound by one scheduler only, a bound pod's claim has
                                    no allocation, or a pinned pod (one per node, so
                                    nothing but the allocator decides) got other devices.

Pods labelled role=pinned each have a node of their own (nodeSelector on the
hostname, nodes labelled pool=pinned, 4 GPUs each); the free pods (role=free)
choose among the pool=free nodes (8 GPUs each), where kube-scheduler's scores and random tie-breaking
may pick another node than dra: those differences are reported, not failed.
"""
import json
import random
import sys

DRIVER = "gpu.example.com"


def doc(kind, api_version, name, namespace=None, **body):
    meta = {"name": name}
    if namespace:
        meta["namespace"] = namespace
    return {"apiVersion": api_version, "kind": kind, "metadata": meta, **body}


def node(name, pool):
    resources = {"cpu": "32", "memory": "128Gi", "pods": "110"}
    return {"apiVersion": "v1", "kind": "Node",
            "metadata": {"name": name, "labels": {"kubernetes.io/hostname": name, "pool": pool}},
            "status": {"allocatable": resources, "capacity": resources}}


def gpu(i, model, memory_gi):
    return {"name": f"gpu-{i}",
            "attributes": {"model": {"string": model}, "index": {"int": i}},
            "capacity": {"memory": {"value": f"{memory_gi}Gi"}}}


def slice_for(name, rng, count):
    models = [rng.choice(["a100", "h100", "l4"]) for _ in range(count)]
    devices = [gpu(i, m, {"a100": 40, "h100": 80, "l4": 24}[m]) for i, m in enumerate(models)]
    return doc("ResourceSlice", "resource.k8s.io/v1", f"{name}-gpus",
               spec={"driver": DRIVER, "nodeName": name, "pool": {"name": name, "generation": 1, "resourceSliceCount": 1},
                     "devices": devices})


def device_class(name, expression):
    return doc("DeviceClass", "resource.k8s.io/v1", name, spec={"selectors": [{"cel": {"expression": expression}}]})


def template(name, requests):
    return doc("ResourceClaimTemplate", "resource.k8s.io/v1", name, "sched",
               spec={"spec": {"devices": {"requests": requests}}})


def exactly(name, cls, count=1, selector=None):
    req = {"deviceClassName": cls, "allocationMode": "ExactCount", "count": count}
    if selector:
        req["selectors"] = [{"cel": {"expression": selector}}]
    return {"name": name, "exactly": req}


def pod(name, role, claims, node_selector):
    spec = {"nodeSelector": node_selector,
            "containers": [{"name": "c", "image": "registry.example.com/app:1",
                            "resources": {"claims": [{"name": c["name"]} for c in claims]}}],
            "resourceClaims": claims}
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "namespace": "sched", "labels": {"role": role}}, "spec": spec}


TEMPLATES = ["one-gpu", "two-a100", "big-memory", "h100-or-l4"]


def generate(seed):
    rng = random.Random(seed)
    objs = [doc("Namespace", "v1", "sched")]
    objs += [device_class("gpu", f'device.driver == "{DRIVER}"'),
             device_class("gpu-a100", f'device.driver == "{DRIVER}" && device.attributes["{DRIVER}"].model == "a100"'),
             device_class("gpu-large",
                          f'device.driver == "{DRIVER}" && device.capacity["{DRIVER}"].memory.compareTo(quantity("40Gi")) >= 0')]
    objs += [template("one-gpu", [exactly("gpu", "gpu")]),
             template("two-a100", [exactly("gpu", "gpu-a100", 2)]),
             template("big-memory", [exactly("gpu", "gpu-large")]),
             template("h100-or-l4", [exactly("gpu", "gpu", 1, f'device.attributes["{DRIVER}"].model in ["h100", "l4"]')])]
    pinned = [f"pinned-{i}" for i in range(6)]
    free = [f"free-{i}" for i in range(4)]
    objs += [node(n, "pinned") for n in pinned] + [node(n, "free") for n in free]
    # the free nodes have room to spare, so that no placement kube-scheduler
    # may choose among ties makes a later pod unschedulable
    objs += [slice_for(n, rng, 4) for n in pinned] + [slice_for(n, rng, 8) for n in free]
    objs.append(doc("ResourceClaim", "resource.k8s.io/v1", "shared-gpu", "sched",
                    spec={"devices": {"requests": [exactly("gpu", "gpu-large")]}}))
    for i, n in enumerate(pinned):
        claims = [{"name": "gpu", "resourceClaimTemplateName": rng.choice(TEMPLATES)}]
        if rng.random() < 0.3:
            claims.append({"name": "extra", "resourceClaimTemplateName": "one-gpu"})
        objs.append(pod(f"pinned-pod-{i}", "pinned", claims, {"kubernetes.io/hostname": n}))
    for i in range(10):
        claims = [{"name": "gpu", "resourceClaimTemplateName": rng.choice(TEMPLATES)}]
        objs.append(pod(f"free-pod-{i}", "free", claims, {"pool": "free"}))
    for i in range(2):
        objs.append(pod(f"shared-pod-{i}", "free", [{"name": "gpu", "resourceClaimName": "shared-gpu"}], {"pool": "free"}))
    objs.append(pod("too-many", "free", [{"name": "gpu", "resourceClaimTemplateName": "nine-gpus"}], {"pool": "free"}))
    objs.append(template("nine-gpus", [exactly("gpu", "gpu", 9)]))
    return objs


def to_yaml(objs):
    return "".join("---\n" + json.dumps(o) + "\n" for o in objs)


def items(path):
    with open(path) as f:
        data = json.load(f)
    return data["items"] if "items" in data else [data]


def placements(path):
    """pod name -> (node or None, {pod claim name: devices}) and the claims by name."""
    objs = items(path)
    claims = {o["metadata"]["name"]: o for o in objs if o.get("kind") == "ResourceClaim"}
    out = {}
    for p in (o for o in objs if o.get("kind") == "Pod"):
        status = {s["name"]: s.get("resourceClaimName") for s in p.get("status", {}).get("resourceClaimStatuses", [])}
        devices = {}
        for rc in p["spec"].get("resourceClaims", []):
            name = rc.get("resourceClaimName") or status.get(rc["name"])
            alloc = (claims.get(name, {}).get("status") or {}).get("allocation")
            devices[rc["name"]] = None if not alloc else sorted(
                f'{r["driver"]}/{r["pool"]}/{r["device"]}' for r in alloc["devices"]["results"])
        out[p["metadata"]["name"]] = (p["spec"].get("nodeName"), p["metadata"].get("labels", {}).get("role"), devices)
    return out


def diff(dra_path, kube_path):
    dra, kube = placements(dra_path), placements(kube_path)
    figures = {"pods": len(dra), "bound by both": 0, "bound by neither": 0, "same node": 0,
               "same devices": 0, "free pods on another node": 0}
    failures, notes = [], []
    for name in sorted(dra):
        (dn, role, dd), (kn, _, kd) = dra[name], kube.get(name, (None, None, {}))
        if bool(dn) != bool(kn):
            failures.append(f"{name}: dra {'bound it to ' + dn if dn else 'left it pending'}, "
                            f"kube-scheduler {'bound it to ' + kn if kn else 'left it pending'}")
            continue
        if not dn:
            figures["bound by neither"] += 1
            continue
        figures["bound by both"] += 1
        for side, devs in (("dra", dd), ("kube-scheduler", kd)):
            missing = [c for c, d in devs.items() if d is None]
            if missing:
                failures.append(f"{name}: bound by {side} with claims {missing} not allocated")
        if dn == kn:
            figures["same node"] += 1
            if dd == kd:
                figures["same devices"] += 1
            elif role == "pinned":
                failures.append(f"{name} on {dn}: dra gave {dd}, kube-scheduler {kd}")
            else:
                notes.append(f"{name} on {dn}: dra gave {dd}, kube-scheduler {kd}")
        else:
            figures["free pods on another node"] += 1
            notes.append(f"{name}: dra chose {dn} {dd}, kube-scheduler {kn} {kd}")
    for line in notes:
        print("differs (scores and tie-breaking, not failed):", line)
    for line in failures:
        print("DISAGREEMENT:", line)
    print(", ".join(f"{k}: {v}" for k, v in figures.items()))
    return 1 if failures else 0


if __name__ == "__main__":
    if sys.argv[1] == "gen":
        with open(sys.argv[3], "w") as f:
            f.write(to_yaml(generate(int(sys.argv[2]))))
    elif sys.argv[1] == "diff":
        sys.exit(diff(sys.argv[2], sys.argv[3]))
