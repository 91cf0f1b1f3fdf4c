"""invariants.py: what must hold in the final state of an HA run (read
from one replica once every replica serves the same state):

- every create that got a 2xx is there, with the uid it was answered
  with; so is every pod that was answered 409 AlreadyExists on a retry;
- every pod is bound (the watches check that none was bound twice);
- each pod's claim (status.resourceClaimStatuses) exists, is owned by the
  pod, is allocated a device on the pod's node, and reserved for exactly
  that pod; no claim is left over (one claim per pod);
- no device is allocated to two claims unless its slice allows it
  (allowMultipleAllocations)."""
from collections import Counter


def check_final(pods, claims, slices, outcomes):
    """PODS, CLAIMS, SLICES: lists of objects; OUTCOMES: the client's
    (outcome, uid, replica) per pod-N. Returns (failures, figures)."""
    failures = []
    by_name = {p["metadata"]["name"]: p for p in pods}
    for i, (outcome, uid, _) in enumerate(outcomes):
        p = by_name.get(f"pod-{i}")
        if outcome == "acked" and (p is None or p["metadata"]["uid"] != uid):
            failures.append(f"pod-{i} was created (2xx, uid {uid}) and is "
                            + ("missing" if p is None else f"there with uid {p['metadata']['uid']}"))
        elif outcome == "exists" and p is None:
            failures.append(f"pod-{i} was answered AlreadyExists and is missing")
    node_of_pool = {}
    shared = set()
    for s in slices:
        spec = s["spec"]
        node_of_pool[(spec["driver"], spec["pool"]["name"])] = spec.get("nodeName", "")
        for d in spec.get("devices", []):
            if d.get("allowMultipleAllocations"):
                shared.add((spec["driver"], spec["pool"]["name"], d["name"]))
    claims_by_name = {c["metadata"]["name"]: c for c in claims}
    used = set()
    unbound = 0
    for p in pods:
        name, uid, node = p["metadata"]["name"], p["metadata"]["uid"], p["spec"].get("nodeName", "")
        if not node:
            unbound += 1
            continue
        statuses = {s["name"]: s.get("resourceClaimName") for s in p.get("status", {}).get("resourceClaimStatuses", [])}
        c = claims_by_name.get(statuses.get("resource") or "")
        if c is None:
            failures.append(f"pod {name} on {node}: its claim {statuses.get('resource')!r} is missing")
            continue
        used.add(c["metadata"]["name"])
        owners = [o for o in c["metadata"].get("ownerReferences", []) if o.get("controller")]
        if [(o["kind"], o["name"], o["uid"]) for o in owners] != [("Pod", name, uid)]:
            failures.append(f"claim {c['metadata']['name']}: owner {owners}, want pod {name} ({uid})")
        reserved = [(r.get("resource"), r.get("name"), r.get("uid")) for r in c.get("status", {}).get("reservedFor", [])]
        if reserved != [("pods", name, uid)]:
            failures.append(f"claim {c['metadata']['name']}: reservedFor {reserved}, want pod {name} ({uid}) alone")
        results = c.get("status", {}).get("allocation", {}).get("devices", {}).get("results", [])
        if not results:
            failures.append(f"claim {c['metadata']['name']} of bound pod {name} is not allocated")
        for r in results:
            pool_node = node_of_pool.get((r["driver"], r["pool"]))
            if pool_node != node:
                failures.append(f"claim {c['metadata']['name']}: device {r['pool']}/{r['device']} is on "
                                f"{pool_node}, its pod {name} on {node}")
    if unbound:
        failures.append(f"{unbound} of {len(pods)} pods are not bound")
    for name in sorted(set(claims_by_name) - used):
        failures.append(f"claim {name} is no bound pod's claim")
    allocated = Counter((r["driver"], r["pool"], r["device"]) for c in claims
                        for r in c.get("status", {}).get("allocation", {}).get("devices", {}).get("results", []))
    for device, n in sorted(allocated.items()):
        if n > 1 and device not in shared:
            failures.append(f"device {'/'.join(device)} is allocated to {n} claims")
    figures = {"pods": len(pods), "bound": len(pods) - unbound, "claims": len(claims), "allocated": sum(allocated.values())}
    return failures, figures
