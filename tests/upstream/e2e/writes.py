#!/usr/bin/env python3
"""writes.py: the writes of tests/upstream_writes.sh (create, update,
patch, delete and deletecollection of ResourceClaims and DeviceClasses,
with their options and their refusals), run against one API server;
prints one observation per line (codes, reasons, messages, details,
warnings, and how names, generations and resourceVersions change, never
their values), so the lines of kube-apiserver and of dra serve can be
compared as they are.

usage: writes.py URL [TOKEN]   (TOKEN: a bearer token; https is not verified)
"""
import json
import re
import ssl
import sys
import urllib.error
import urllib.request

URL = sys.argv[1].rstrip("/")
TOKEN = sys.argv[2] if len(sys.argv) > 2 else ""
CTX = ssl._create_unverified_context()
NS = "writes"
CLAIMS = "/apis/resource.k8s.io/v1/namespaces/%s/resourceclaims" % NS
CLASSES = "/apis/resource.k8s.io/v1/deviceclasses"
JSON = "application/json"
MERGE = "application/merge-patch+json"
JSONPATCH = "application/json-patch+json"
STRATEGIC = "application/strategic-merge-patch+json"

out = []


def say(what, value):
    out.append("%s: %s" % (what, value))


def call(method, path, body=None, content_type=JSON, raw=None):
    """(status code, the body parsed, the Warning headers)"""
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    req = urllib.request.Request(URL + path, data=data, method=method)
    req.add_header("User-Agent", "writes-check/1.0")
    if TOKEN:
        req.add_header("Authorization", "Bearer " + TOKEN)
    if data is not None:
        req.add_header("Content-Type", content_type)
    try:
        with urllib.request.urlopen(req, context=CTX, timeout=10) as resp:
            code, text, headers = resp.status, resp.read().decode(), resp.headers
    except urllib.error.HTTPError as e:
        code, text, headers = e.code, e.read().decode(), e.headers
    try:
        parsed = json.loads(text)
    except ValueError:
        parsed = {"unparsed": text.strip()[:200]}
    return code, parsed, headers.get_all("Warning") or []


UID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
RESOURCE_VERSION = re.compile(r"(ResourceVersion in (?:the precondition|record)) \(\d+\)")
STORED_VERSION = re.compile(r"(ResourceVersion in object meta:) \d+")


def masked(text):
    """A message without the uids and resourceVersions it names, which
    differ between servers; the all-zero uid the checks send stays."""
    text = UID.sub(lambda m: m.group(0) if m.group(0).startswith("00000000-") else "<uid>", text)
    return STORED_VERSION.sub(r"\1 <rv>", RESOURCE_VERSION.sub(r"\1 (<rv>)", text))


def refusal(body):
    """A Status as one line: reason, message and details."""
    if body.get("kind") != "Status":
        return "not a Status: %s" % body.get("kind")
    d = body.get("details", {})
    causes = ["%s|%s|%s" % (c.get("reason"), c.get("field"), c.get("message")) for c in d.get("causes", [])]
    return masked("%s %s | %s | name=%s group=%s kind=%s causes=%s" % (
        body.get("code"), body.get("reason"), body.get("message"), d.get("name"), d.get("group"), d.get("kind"),
        causes))


def observe(what, method, path, body=None, content_type=JSON, raw=None, show=None):
    """Makes the call and says its code, and a refusal's Status or what
    show (a function of the body) says of an answer."""
    code, answer, warnings = call(method, path, body, content_type, raw)
    if code >= 400:
        say(what, "%d %s" % (code, refusal(answer)))
    else:
        say(what, "%d %s%s" % (code, show(answer) if show else answer.get("kind"),
                              " warnings=%s" % warnings if warnings else ""))
    return code, answer


def claim(name, labels=None, **meta):
    m = {"name": name}
    if labels:
        m["labels"] = labels
    m.update(meta)
    return {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": m,
            "spec": {"devices": {"requests": [{"name": "r", "exactly": {"deviceClassName": "gpu"}}]}}}


def get(path):
    return call("GET", path)[1]


def shape(o):
    """What a created or updated object shows: kind, generation, the
    managers of its managedFields, its finalizers and whether it is being
    deleted."""
    m = o.get("metadata", {})
    managers = ["%s/%s%s" % (f.get("manager"), f.get("operation"), "/" + f["subresource"] if f.get("subresource") else "")
                for f in m.get("managedFields", [])]
    return "%s generation=%s managers=%s finalizers=%s deleting=%s status=%s" % (
        o.get("kind"), m.get("generation"), managers, m.get("finalizers"), "deletionTimestamp" in m,
        sorted(o.get("status", {}).keys()) if "status" in o else None)


call("POST", "/api/v1/namespaces", {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": NS}})
call("POST", "/api/v1/namespaces", {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": NS + "-b"}})

# create
code, a = observe("create", "POST", CLAIMS, claim("a", {"app": "x"}), show=shape)
observe("create again", "POST", CLAIMS, claim("a"))
code, g = observe("generateName", "POST", CLAIMS, claim("", generateName="gen-"),
                  show=lambda o: "name like gen-xxxxx: %s" % bool(re.fullmatch(r"gen-[a-z0-9]{5}", o["metadata"]["name"])))
observe("generateName and no name, empty prefix", "POST", CLAIMS, claim(""))
observe("another namespace in the body", "POST", CLAIMS, claim("b", namespace=NS + "-b"))
observe("the body's namespace the URL's", "POST", CLAIMS, claim("b2", namespace=NS),
        show=lambda o: o["metadata"]["namespace"])
observe("dryRun=All", "POST", CLAIMS + "?dryRun=All", claim("dry"), show=shape)
say("dryRun=All kept nothing", call("GET", CLAIMS + "/dry")[0])
observe("dryRun=bogus", "POST", CLAIMS + "?dryRun=bogus", claim("dry2"))
observe("status on create is dropped", "POST", CLAIMS,
        dict(claim("with-status"), status={"reservedFor": [{"resource": "pods", "name": "p", "uid": "u1"}]}), show=shape)
observe("no apiVersion and kind in the body", "POST", CLAIMS,
        {"metadata": {"name": "bare"}, "spec": claim("x")["spec"]}, show=lambda o: "%s %s" % (o.get("apiVersion"), o.get("kind")))
observe("another version in the body", "POST", CLAIMS, dict(claim("v"), apiVersion="resource.k8s.io/v1beta1"))
observe("another kind in the body", "POST", CLAIMS, dict(claim("k"), kind="DeviceClass"))
observe("not JSON", "POST", CLAIMS, raw=b"{not json")
for body in (b"", b"[1]", b'"str"', b"12", b'{"a":', b'{"kind":5}', b"x",
             b'{"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":"long"'):
    observe("a body of %r" % body.decode(), "POST", CLAIMS, raw=body)
observe("an unknown field, default validation", "POST", CLAIMS, dict(claim("unknown1"), extra=1), show=shape)
observe("an unknown field, Strict", "POST", CLAIMS + "?fieldValidation=Strict", dict(claim("unknown2"), extra=1))
observe("an unknown field, Ignore", "POST", CLAIMS + "?fieldValidation=Ignore", dict(claim("unknown3"), extra=1),
        show=shape)
observe("a duplicate field, Strict", "POST", CLAIMS + "?fieldValidation=Strict",
        raw=b'{"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":"dup","name":"dup"},'
            b'"spec":{"devices":{"requests":[{"name":"r","exactly":{"deviceClassName":"gpu"}}]}}}')
observe("fieldValidation=bogus", "POST", CLAIMS + "?fieldValidation=bogus", claim("fv"))
observe("a bad finalizer name", "POST", CLAIMS, claim("fin", finalizers=["not a finalizer"]))
observe("a finalizer", "POST", CLAIMS, claim("held", finalizers=["example.com/hold"]), show=shape)
observe("fieldManager given", "POST", CLAIMS + "?fieldManager=me", claim("managed"), show=shape)
observe("fieldManager too long", "POST", CLAIMS + "?fieldManager=" + "m" * 129, claim("managed2"))

# update
cur = get(CLAIMS + "/a")
rv = cur["metadata"]["resourceVersion"]
cur["metadata"]["labels"]["app"] = "y"
code, up = observe("update labels", "PUT", CLAIMS + "/a", cur, show=shape)
say("update labels changed the resourceVersion", up["metadata"]["resourceVersion"] != rv)
observe("update at a stale resourceVersion", "PUT", CLAIMS + "/a", cur)
bare = dict(up)
bare["metadata"] = {k: v for k, v in up["metadata"].items() if k != "resourceVersion"}
observe("update without a resourceVersion", "PUT", CLAIMS + "/a", bare, show=shape)
cur = get(CLAIMS + "/a")
cur["spec"]["devices"]["requests"][0]["name"] = "other"
observe("update of the immutable spec", "PUT", CLAIMS + "/a", cur)
cur = get(CLAIMS + "/a")
observe("update under another name", "PUT", CLAIMS + "/other", cur)
observe("update of a claim that is not there", "PUT", CLAIMS + "/missing", dict(claim("missing")))
cur = get(CLAIMS + "/a")
cur["status"] = {"reservedFor": [{"resource": "pods", "name": "p", "uid": "u1"}]}
observe("update with status: status ignored", "PUT", CLAIMS + "/a", cur, show=shape)
cur = get(CLAIMS + "/a")
cur["metadata"]["uid"] = "00000000-0000-0000-0000-000000000000"
observe("update with another uid", "PUT", CLAIMS + "/a", cur)
cur = get(CLAIMS + "/a")
cur["metadata"]["creationTimestamp"] = "2001-01-01T00:00:00Z"
observe("update with another creationTimestamp: kept", "PUT", CLAIMS + "/a", cur,
        show=lambda o: "creationTimestamp changed=%s" % (o["metadata"]["creationTimestamp"] == "2001-01-01T00:00:00Z"))

# patch
observe("merge patch", "PATCH", CLAIMS + "/a", {"metadata": {"labels": {"patched": "yes"}}}, MERGE, show=shape)
observe("strategic merge patch", "PATCH", CLAIMS + "/a", {"metadata": {"labels": {"smp": "yes"}}}, STRATEGIC,
        show=shape)
observe("json patch", "PATCH", CLAIMS + "/a", [{"op": "add", "path": "/metadata/labels/jp", "value": "yes"}],
        JSONPATCH, show=shape)
observe("json patch, a failed test", "PATCH", CLAIMS + "/a",
        [{"op": "test", "path": "/metadata/labels/jp", "value": "no"}], JSONPATCH)
observe("json patch, a path not there", "PATCH", CLAIMS + "/a",
        [{"op": "replace", "path": "/metadata/nothing/here", "value": "x"}], JSONPATCH)
observe("json patch, an unknown op", "PATCH", CLAIMS + "/a", [{"op": "frob", "path": "/metadata"}], JSONPATCH)
observe("json patch, not a list", "PATCH", CLAIMS + "/a", {"op": "add"}, JSONPATCH)
observe("merge patch, not JSON", "PATCH", CLAIMS + "/a", raw=b"{nope", content_type=MERGE)
observe("patch, another content type", "PATCH", CLAIMS + "/a", {}, "text/plain")
observe("merge patch of a claim that is not there", "PATCH", CLAIMS + "/missing", {"metadata": {}}, MERGE)
observe("merge patch of the immutable spec", "PATCH", CLAIMS + "/a",
        {"spec": {"devices": {"requests": [{"name": "x", "exactly": {"deviceClassName": "gpu"}}]}}}, MERGE)
observe("merge patch changing the name", "PATCH", CLAIMS + "/a", {"metadata": {"name": "renamed"}}, MERGE)
observe("merge patch at a stale resourceVersion", "PATCH", CLAIMS + "/a",
        {"metadata": {"resourceVersion": rv, "labels": {"late": "yes"}}}, MERGE)
observe("merge patch, dryRun", "PATCH", CLAIMS + "/a?dryRun=All", {"metadata": {"labels": {"dry": "yes"}}}, MERGE,
        show=lambda o: "label shown=%s" % (o["metadata"]["labels"].get("dry")))
say("merge patch, dryRun kept nothing", get(CLAIMS + "/a")["metadata"]["labels"].get("dry"))
observe("merge patch, an unknown field, Strict", "PATCH", CLAIMS + "/a?fieldValidation=Strict",
        {"spec": {"devices": {"bogus": 1}}}, MERGE)

# DeviceClass: generation follows spec changes
observe("DeviceClass create", "POST", CLASSES, {"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass",
                                                 "metadata": {"name": "writes-class"}, "spec": {}}, show=shape)
observe("DeviceClass, a label", "PATCH", CLASSES + "/writes-class", {"metadata": {"labels": {"l": "1"}}}, MERGE,
        show=shape)
observe("DeviceClass, its spec", "PATCH", CLASSES + "/writes-class",
        {"spec": {"selectors": [{"cel": {"expression": "true"}}]}}, MERGE, show=shape)
observe("DeviceClass, a namespace in the body", "POST", CLASSES,
        {"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "wc2", "namespace": NS},
         "spec": {}}, show=lambda o: "namespace=%s" % o["metadata"].get("namespace"))
observe("DeviceClass, a bad CEL expression", "POST", CLASSES,
        {"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "wc3"},
         "spec": {"selectors": [{"cel": {"expression": "device.nope +"}}]}})

# pods (kube-apiserver's ServiceAccount admission needs the namespace's default account; dra serve has none)
PODS = "/api/v1/namespaces/%s/pods" % NS
call("POST", "/api/v1/namespaces/%s/serviceaccounts" % NS, {"apiVersion": "v1", "kind": "ServiceAccount",
                                                          "metadata": {"name": "default"}})


def pod(name, **spec):
    body = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name},
            "spec": {"containers": [{"name": "c", "image": "busybox"}]}}
    body["spec"].update(spec)
    return body


def pod_shape(o):
    m, sp = o.get("metadata", {}), o.get("spec", {})
    return "%s generation=%s restartPolicy=%s dnsPolicy=%s schedulerName=%s grace=%s deleting=%s phase=%s" % (
        o.get("kind"), m.get("generation"), sp.get("restartPolicy"), sp.get("dnsPolicy"), sp.get("schedulerName"),
        sp.get("terminationGracePeriodSeconds"), "deletionTimestamp" in m, o.get("status", {}).get("phase"))


observe("pod create", "POST", PODS, pod("p1"), show=pod_shape)
observe("pod, a bad container name", "POST", PODS, pod("p2", containers=[{"name": "Bad_Name", "image": "x"}]))
observe("pod, no containers", "POST", PODS, pod("p3", containers=[]))
observe("pod, a bad restartPolicy", "POST", PODS, pod("p4", restartPolicy="Sometimes"))
cur = get(PODS + "/p1")
cur["spec"]["containers"][0]["image"] = "busybox:2"
observe("pod, a new image", "PUT", PODS + "/p1", cur, show=pod_shape)
call("POST", PODS, pod("p5"))
cur = get(PODS + "/p5")
cur["spec"]["restartPolicy"] = "Never"
code, body, _ = call("PUT", PODS + "/p5", cur)
say("pod, another restartPolicy", "%d %s %s" % (code, body.get("reason"), body.get("message", "")[:160]))
observe("pod, a label by merge patch", "PATCH", PODS + "/p1", {"metadata": {"labels": {"x": "y"}}}, MERGE,
        show=pod_shape)
observe("pod, a container by strategic merge patch", "PATCH", PODS + "/p1",
        {"spec": {"containers": [{"name": "c", "image": "busybox:3"}]}}, STRATEGIC, show=pod_shape)


def binding(name, **meta_and_target):
    target = meta_and_target.pop("target", {"kind": "Node", "name": "node-1"})
    return {"apiVersion": "v1", "kind": "Binding", "metadata": dict(name=name, **meta_and_target), "target": target}


observe("pod, binding to no node", "POST", PODS + "/p1/binding", binding("p1", target={"kind": "Node", "name": ""}))
observe("pod, binding to a Pod without a name", "POST", PODS + "/p1/binding", binding("p1", target={"kind": "Pod"}))
observe("pod, a binding of another name", "POST", PODS + "/p1/binding", binding("other"))
observe("pod, a binding for another uid", "POST", PODS + "/p1/binding",
        binding("p1", uid="00000000-0000-0000-0000-000000000000"))
observe("pod, a binding at another resourceVersion", "POST", PODS + "/p1/binding", binding("p1", resourceVersion="1"))
observe("pod, a binding dry run", "POST", PODS + "/p1/binding?dryRun=All", binding("p1"),
        show=lambda o: "%s %s" % (o.get("kind"), o.get("status")))
say("pod, the dry run bound nothing", get(PODS + "/p1")["spec"].get("nodeName"))
call("POST", PODS, pod("p6"))
observe("pod, a binding", "POST", PODS + "/p6/binding", binding("p6"), show=lambda o: "%s %s" % (o.get("kind"), o.get("status")))
say("pod, bound", get(PODS + "/p6")["spec"].get("nodeName"))
observe("pod, a second binding", "POST", PODS + "/p6/binding", binding("p6", target={"kind": "Node", "name": "node-2"}))
observe("pod delete, unscheduled, dry run", "DELETE", PODS + "/p1?dryRun=All", show=pod_shape)
observe("pod delete, unscheduled", "DELETE", PODS + "/p1", show=pod_shape)
say("pod gone at once", call("GET", PODS + "/p1")[0])

# delete
a = get(CLAIMS + "/a")
observe("delete, another uid in preconditions", "DELETE", CLAIMS + "/a",
        {"preconditions": {"uid": "00000000-0000-0000-0000-000000000000"}})
observe("delete, another resourceVersion in preconditions", "DELETE", CLAIMS + "/a",
        {"preconditions": {"resourceVersion": rv}})
observe("delete, dryRun", "DELETE", CLAIMS + "/a?dryRun=All", show=shape)
say("delete, dryRun kept it", call("GET", CLAIMS + "/a")[0])
observe("delete, a bad propagationPolicy", "DELETE", CLAIMS + "/a", {"propagationPolicy": "Sometimes"})
observe("delete, a negative grace period", "DELETE", CLAIMS + "/a", {"gracePeriodSeconds": -1}, show=shape)
observe("delete, matching preconditions", "DELETE", CLAIMS + "/b2",
        {"preconditions": {"uid": get(CLAIMS + "/b2")["metadata"]["uid"]}}, show=shape)
observe("delete, not there", "DELETE", CLAIMS + "/missing")
observe("delete, the body not DeleteOptions", "DELETE", CLAIMS + "/bare", raw=b"[1]")
observe("delete with a finalizer", "DELETE", CLAIMS + "/held", show=shape)
observe("delete with a finalizer, again", "DELETE", CLAIMS + "/held", show=shape)
observe("a label on an object being deleted", "PATCH", CLAIMS + "/held", {"metadata": {"labels": {"x": "y"}}}, MERGE,
        show=shape)
observe("a finalizer added while being deleted", "PATCH", CLAIMS + "/held",
        {"metadata": {"finalizers": ["example.com/hold", "example.com/more"]}}, MERGE)
observe("the finalizer removed", "PATCH", CLAIMS + "/held", {"metadata": {"finalizers": None}}, MERGE, show=shape)
say("gone once its finalizer went", call("GET", CLAIMS + "/held")[0])
observe("deletecollection by label", "DELETE", CLAIMS + "?labelSelector=app%3Dy",
        show=lambda o: "%s %s" % (o.get("kind"), sorted(i["metadata"]["name"] for i in o.get("items", []))))
observe("deletecollection, dryRun", "DELETE", CLAIMS + "?dryRun=All",
        show=lambda o: "%s %d" % (o.get("kind"), len(o.get("items", []))))
say("deletecollection, dryRun kept them", len(get(CLAIMS).get("items", [])))
observe("deletecollection, a bad label selector", "DELETE", CLAIMS + "?labelSelector=a%3D%3D%3Db")
observe("delete of a DeviceClass", "DELETE", CLASSES + "/writes-class", show=shape)

print("\n".join(out))
