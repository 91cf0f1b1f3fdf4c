#!/usr/bin/env python3
"""tests/upstream/sched/compare.py: the manifests and the comparison of
tests/upstream_scheduler.sh (dra's scheduler against the real kube-scheduler
on dra serve).

  compare.py gen SEED OUT.yaml      writes a seeded cluster: Nodes, ResourceSlices,
                                    DeviceClasses with CEL selectors, claim templates,
                                    a shared claim and Pods
  compare.py gen-perf NODES PODS OUT-CLUSTER.yaml OUT-PODS.yaml
                                    scheduler_perf's SchedulingWithResourceClaimTemplate
                                    shape: NODES nodes with a slice of 10 devices each,
                                    one class, one template of one device, PODS pods
  compare.py diff DRA.json KUBE.json
                                    compares which pods are bound, to which node, and
                                    which devices each pod's claims got; prints every
                                    disagreement and the figures, exits 1 when a pod is
                                    bound by one scheduler only, a bound pod's claim has
                                    no allocation, or a pinned pod (one per node, so
                                    nothing but the allocator decides) got other devices.

Pods labelled role=pinned each have a node of their own (nodeSelector on the
hostname, nodes labelled pool=pinned, 4 GPUs of random models each); the
free pods (role=free) choose among the pool=free nodes (6 a100, 4 h100 and
4 l4 each: room for every pod whatever the placement), where kube-scheduler's scores and random tie-breaking
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


MEMORY_GI = {"a100": 40, "h100": 80, "l4": 24}


def slice_for(name, rng, count):
    return slice_of(name, [rng.choice(["a100", "h100", "l4"]) for _ in range(count)])


def slice_of(name, models):
    devices = [gpu(i, m, MEMORY_GI[m]) for i, m in enumerate(models)]
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
    # the free nodes have room to spare for every class, so that no
    # placement kube-scheduler may choose among ties makes a later pod
    # unschedulable (with random models, seeds 4, 8 and 13 of 13 had scarce
    # a100 pairs go to another pod on one side than on the other)
    objs += [slice_for(n, rng, 4) for n in pinned]
    objs += [slice_of(n, ["a100"] * 6 + ["h100"] * 4 + ["l4"] * 4) for n in free]
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
    objs.append(pod("too-many", "free", [{"name": "gpu", "resourceClaimTemplateName": "too-many-gpus"}], {"pool": "free"}))
    objs.append(template("too-many-gpus", [exactly("gpu", "gpu", 15)]))
    return objs


def generate_perf(nodes, pods):
    """The cluster (nodes, slices, class, template) and the pods apart, so
    that the pods are created once the scheduler is up."""
    cluster = [doc("Namespace", "v1", "sched"), device_class("gpu", f'device.driver == "{DRIVER}"'),
               template("one-gpu", [exactly("gpu", "gpu")])]
    rng = random.Random(0)
    names = [f"node-{i}" for i in range(nodes)]
    cluster += [node(n, "perf") for n in names] + [slice_for(n, rng, 10) for n in names]
    workload = [pod(f"pod-{i}", "free", [{"name": "gpu", "resourceClaimTemplateName": "one-gpu"}], {"pool": "perf"})
                for i in range(pods)]
    return cluster, workload


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
    elif sys.argv[1] == "gen-perf":
        cluster, workload = generate_perf(int(sys.argv[2]), int(sys.argv[3]))
        for path, objs in ((sys.argv[4], cluster), (sys.argv[5], workload)):
            with open(path, "w") as f:
                f.write(to_yaml(objs))
    elif sys.argv[1] == "diff":
        sys.exit(diff(sys.argv[2], sys.argv[3]))
