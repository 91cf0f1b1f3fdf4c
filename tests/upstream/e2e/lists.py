#!/usr/bin/env python3
"""lists.py: the list and watch options of tests/upstream_lists.sh, run
against one API server; prints one observation per line (names, codes,
messages and how resourceVersions relate, never their values), so the
lines of kube-apiserver and of dra serve can be compared as they are.

usage: lists.py URL [TOKEN]   (TOKEN: a bearer token; https is not verified)
"""
import json
import ssl
import sys
import urllib.error
import urllib.parse
import urllib.request

URL = sys.argv[1].rstrip("/")
TOKEN = sys.argv[2] if len(sys.argv) > 2 else ""
CTX = ssl._create_unverified_context()
CLAIMS = "/apis/resource.k8s.io/v1/resourceclaims"


def call(method, path, body=None, timeout=10, accept=None):
    """(status code, the body: parsed JSON, or for a watch its text)"""
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(URL + path, data=data, method=method)
    if accept:
        req.add_header("Accept", accept)
    if TOKEN:
        req.add_header("Authorization", "Bearer " + TOKEN)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, context=CTX, timeout=timeout) as resp:
            code, text = resp.status, resp.read().decode()
    except urllib.error.HTTPError as e:
        code, text = e.code, e.read().decode()
    if "watch=1" in path and code == 200:
        return code, text
    return code, json.loads(text)


def claims_of(ns):
    return "/apis/resource.k8s.io/v1/namespaces/%s/resourceclaims" % ns


def claim(ns, name, label):
    body = {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
            "metadata": {"name": name, "labels": {"keep": label}},
            "spec": {"devices": {"requests": [{"name": "r", "exactly": {"deviceClassName": "gpu"}}]}}}
    code, _ = call("POST", claims_of(ns), body)
    assert code == 201, (ns, name, code)


def names(body):
    return " ".join("%s/%s" % (i["metadata"]["namespace"], i["metadata"]["name"]) for i in body.get("items", []))


def meta(body):
    return body.get("metadata", {})


out = []


def say(what, value):
    out.append("%s: %s" % (what, value))


for ns in ("lists", "lists-b"):
    call("POST", "/api/v1/namespaces", {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}})
for i in range(8):
    claim("lists", "c%02d" % i, "yes" if i % 2 == 0 else "no")
for i in range(5):
    claim("lists-b", "c%02d" % i, "yes")

# a walk in pages of 3, with changes after the first page
code, first = call("GET", CLAIMS + "?limit=3")
first_rv = meta(first)["resourceVersion"]
say("first page", "%d %s continue=%s remaining=%s" % (code, names(first), "continue" in meta(first),
                                                       meta(first).get("remainingItemCount")))
before_changes = first_rv
claim("lists", "a00", "yes")
claim("lists", "c99", "yes")
call("DELETE", claims_of("lists-b") + "/c02")
code, c05 = call("GET", claims_of("lists") + "/c05")
c05["metadata"]["labels"]["keep"] = "changed"
call("PUT", claims_of("lists") + "/c05", c05)
token, pages, walked, same_rv, labels = meta(first).get("continue"), 1, [], True, []
while token and pages < 20:
    code, page = call("GET", CLAIMS + "?limit=3&continue=" + token)
    walked.append(names(page))
    same_rv = same_rv and meta(page).get("resourceVersion") == first_rv
    labels += ["%s=%s" % (i["metadata"]["name"], i["metadata"]["labels"]["keep"])
               for i in page.get("items", []) if i["metadata"]["name"] == "c05"]
    token, pages = meta(page).get("continue"), pages + 1
say("the rest of the walk", " | ".join(walked))
say("every page at the first page's resourceVersion", same_rv)
say("c05 as the walk shows it", labels)
code, now = call("GET", CLAIMS)
say("the list now", names(now))
rv_now = meta(now)["resourceVersion"]

# resourceVersion and resourceVersionMatch
code, body = call("GET", CLAIMS + "?limit=2&resourceVersion=0")
say("resourceVersion=0 limit=2", "%d items, continue=%s" % (len(body.get("items", [])), "continue" in meta(body)))
code, body = call("GET", CLAIMS + "?resourceVersion=%s&resourceVersionMatch=Exact" % first_rv)
say("Exact at the first page's", "%s rv-same=%s" % (names(body), meta(body).get("resourceVersion") == first_rv))
code, body = call("GET", CLAIMS + "?resourceVersion=%s&limit=4" % first_rv)
say("a resourceVersion with a limit", "%s rv-same=%s remaining=%s" % (
    names(body), meta(body).get("resourceVersion") == first_rv, meta(body).get("remainingItemCount")))
code, body = call("GET", CLAIMS + "?resourceVersion=%s&resourceVersionMatch=NotOlderThan&limit=4" % first_rv)
say("NotOlderThan with a limit", "%s rv-now=%s" % (names(body), meta(body).get("resourceVersion") == rv_now))
code, body = call("GET", CLAIMS + "?resourceVersion=%s" % first_rv)
say("a resourceVersion without a limit", names(body))
code, body = call("GET", CLAIMS + "?limit=2&labelSelector=keep%3Dyes")
say("a selected page", "%s remaining=%s" % (names(body), meta(body).get("remainingItemCount")))
code, body = call("GET", claims_of("lists") + "?limit=100")
say("a page that holds the rest", "continue=%s remaining=%s" % ("continue" in meta(body),
                                                              meta(body).get("remainingItemCount")))

# ListOptions refused
for query in ("resourceVersionMatch=Exact", "resourceVersionMatch=Foo&resourceVersion=3",
              "resourceVersionMatch=Exact&resourceVersion=0", "resourceVersionMatch=NotOlderThan&resourceVersion=0&continue=x",
              "resourceVersionMatch=Bar", "sendInitialEvents=true", "sendInitialEvents=false&limit=1",
              "watch=1&sendInitialEvents=true", "watch=1&resourceVersionMatch=NotOlderThan",
              "watch=1&resourceVersionMatch=Exact&sendInitialEvents=true",
              "watch=1&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&continue=x"):
    code, body = call("GET", CLAIMS + "?" + query)
    causes = [(c.get("reason"), c.get("field")) for c in body.get("details", {}).get("causes", [])]
    say("refused: " + query, "%d %s %s %s %s" % (code, body.get("reason"), body.get("message"),
                                                 body.get("details", {}).get("kind"), causes))
code, body = call("GET", CLAIMS + "?limit=2&continue=e30")
say("a bad continue token", "%d %s" % (code, body.get("message", "")[:51]))

# other options, and how they are refused
for query in ("limit=abc", "resourceVersion=abc", "limit=2&continue=%s&resourceVersion=5" % meta(first).get("continue"),
              "fieldSelector=metadata.name%3Dc01", "fieldSelector=metadata.namespace%3Dlists-b,metadata.name!%3Dc00",
              "fieldSelector=spec.foo%3Dx", "labelSelector=keep+in+(yes,changed)", "labelSelector=keep%3D%3D",
              "limit=-1", "limit=0"):
    code, body = call("GET", CLAIMS + "?" + query)
    say("list " + query.replace(meta(first).get("continue", ""), "TOKEN"),
        "%d %s %s" % (code, names(body) if code == 200 else body.get("reason"), "" if code == 200 else body.get("message")))

# a page as a Table (kubectl get without -o wide: the priority 0 columns;
# dra adds wide ones of its own, docs/server.md): columns, cells but the
# age, and the page's metadata
TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json"
code, body = call("GET", claims_of("lists") + "?limit=3", accept=TABLE)
shown = [i for i, c in enumerate(body.get("columnDefinitions", [])) if not c.get("priority") and c["name"] != "Age"]
say("a Table page", "%d %s %s continue=%s remaining=%s" % (
    code, [body["columnDefinitions"][i]["name"] for i in shown],
    [[r["cells"][i] for i in shown] for r in body.get("rows", [])],
    "continue" in meta(body), meta(body).get("remainingItemCount")))

# watches
code, text = call("GET", claims_of("lists") + "?watch=1&resourceVersion=%s&labelSelector=keep%%3Dno&timeoutSeconds=1"
                  % before_changes)
events = [json.loads(line) for line in text.split("\n") if line] if code == 200 else []
say("a selected watch from before the changes", "%d %s" % (code, [(e["type"], e["object"]["metadata"].get("name"),
                                                               e["object"]["metadata"].get("labels", {}).get("keep"))
                                                              for e in events]))
code, text = call("GET", claims_of("lists-b") + "?watch=1&sendInitialEvents=false&resourceVersionMatch=NotOlderThan&timeoutSeconds=1")
say("a watch without initial events", "%d %d events" % (code, len([line for line in text.split("\n") if line])))
for query in ("watch=1&allowWatchBookmarks=true&timeoutSeconds=1",
              "watch=1&resourceVersion=0&allowWatchBookmarks=true&timeoutSeconds=1",
              "watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=1",
              "watch=1&timeoutSeconds=1"):
    code, text = call("GET", claims_of("lists-b") + "?" + query)
    events = [json.loads(line) for line in text.split("\n") if line] if code == 200 else []
    added = sorted(e["object"]["metadata"]["name"] for e in events if e["type"] == "ADDED")
    ends = [e for e in events if e["type"] == "BOOKMARK" and
            e["object"]["metadata"].get("annotations", {}).get("k8s.io/initial-events-end") == "true"]
    say("watch " + query, "%d added=%s initial-events-end=%d" % (code, added, len(ends)))

# label selectors: what labels.Parse refuses, in its words, and > and <
for sel in ("a===b", "-a=b", "a=-b", "a b", "a>x", "a in (b", "a in b", "!a=b", "!", "a,", ",a", "a=b,,c",
            "a=(b)", "a!b", "a=>b", "a<", "a/b/c=d", "a in (b c)", "a=" + "b" * 64, "a in (-z,b,-y)", "a>-x",
            "a in (b,", "a in ((", "a in )", "x, y"):
    code, body = call("GET", CLAIMS + "?labelSelector=" + urllib.parse.quote(sel))
    say("labelSelector " + sel, "%d %s" % (code, body.get("message") if body.get("kind") == "Status" else names(body)))
call("POST", "/api/v1/namespaces", {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "lists-n"}})
for name, n in (("n-5", "5"), ("n-10", "10"), ("n-minus", "-3"), ("n-word", "x")):
    body = {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": name, "labels": {"n": n}},
            "spec": {"devices": {"requests": [{"name": "r", "exactly": {"deviceClassName": "gpu"}}]}}}
    call("POST", claims_of("lists-n"), body)
for sel in ("n>4", "n<6", "n>-4", "n<+11", "n in (5,x),n notin (10)", "!n", "n", "n in (,)", "n!=5"):
    code, body = call("GET", claims_of("lists-n") + "?labelSelector=" + urllib.parse.quote(sel))
    say("labelSelector " + sel, "%d %s" % (code, names(body)))

# a Table of each DRA kind: the columns kubectl shows without -o wide, ages aside
RES = "/apis/resource.k8s.io/v1/"
objects = (
    ("deviceclasses", {"kind": "DeviceClass", "metadata": {"name": "tables-class"}, "spec": {}}),
    ("resourceslices", {"kind": "ResourceSlice", "metadata": {"name": "tables-node"},
                        "spec": {"driver": "tables.example.com", "nodeName": "node-1",
                                 "pool": {"name": "p1", "generation": 1, "resourceSliceCount": 1},
                                 "devices": [{"name": "d0"}]}}),
    ("resourceslices", {"kind": "ResourceSlice", "metadata": {"name": "tables-all"},
                        "spec": {"driver": "tables.example.com", "allNodes": True,
                                 "pool": {"name": "p2", "generation": 1, "resourceSliceCount": 1},
                                 "devices": [{"name": "d0"}]}}),
    ("namespaces/lists-n/resourceclaimtemplates", {"kind": "ResourceClaimTemplate", "metadata": {"name": "tables-t"},
                                                   "spec": {"spec": {"devices": {"requests": [
                                                       {"name": "r", "exactly": {"deviceClassName": "gpu"}}]}}}}),
    ("devicetaintrules", {"kind": "DeviceTaintRule", "metadata": {"name": "tables-rule"},
                          "spec": {"deviceSelector": {"driver": "tables.example.com"},
                                   "taint": {"key": "k", "value": "v", "effect": "NoSchedule"}}}),
)
for path, body in objects:
    body["apiVersion"] = "resource.k8s.io/v1"
    code, _ = call("POST", RES + path, body)
    say("created for a Table: %s" % body["metadata"]["name"], code)
for path in ("deviceclasses", "resourceslices", "namespaces/lists-n/resourceclaimtemplates", "devicetaintrules"):
    code, body = call("GET", RES + path, accept=TABLE)
    shown = [i for i, c in enumerate(body.get("columnDefinitions", []))
             if not c.get("priority") and c["name"] not in ("Age", "TimeAdded")]
    rows = [[r["cells"][i] for i in shown] for r in body.get("rows", [])
            if r["object"]["metadata"]["name"].startswith("tables-")]
    say("a Table of " + path, "%d %s %s" % (code, [body["columnDefinitions"][i]["name"] for i in shown], rows))

print("\n".join(out))
