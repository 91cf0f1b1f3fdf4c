#!/bin/sh
# dra serve's reads at the edge of what is committed (docs/server.md,
# "Reads ahead of the store"): a GET, list or streaming-list watch at a
# resourceVersion ahead of the store waits up to 3 s, then gets
# kube-apiserver's watch-cache refusal (504 Timeout, "Too large resource
# version", cause ResourceVersionTooLarge, Retry-After 1); one whose version
# arrives meanwhile is answered; a plain watch from a future version starts
# at once. A dry run, which waits for no commit, reads only committed data:
# while another client's write is held up by a lock on the database, a dry
# run neither shows that write nor acts on it, nor creates into a namespace
# that write makes, and a dry-run create of an object that exists is refused
# as the storage refuses it (409); a dry-run binding binds nothing.
# Authorization reads only committed roles and bindings: a binding held up
# so grants nothing to a dry run or a read.
dra=${1:-build/dra}
. tests/lib/serve.sh
skip_without curl serve_reads
skip_without python3 serve_reads
serve "$tmp/data"
[ -n "$url" ] || { echo "FAIL dra serve did not start"; cat "$tmp/serve.log"; exit 1; }

rv() { curl -s "$url/api/v1/namespaces" | python3 -c 'import json,sys; print(json.load(sys.stdin)["metadata"]["resourceVersion"])'; }
timed() { # command...: its output, then "took N" (whole seconds, rounded down)
  t0=$(date +%s%N); "$@"; echo; echo "took $((($(date +%s%N) - t0) / 1000000000))"
}
ahead=$(($(rv) + 1000))
refusal="\"message\":\"Timeout: Too large resource version: $ahead, current: "
timed curl -si "$url/api/v1/namespaces/default?resourceVersion=$ahead" >"$tmp/get-ahead"
check "get ahead: 504" "HTTP/1.1 504" cat "$tmp/get-ahead"
check "get ahead: Retry-After" "Retry-After: 1" cat "$tmp/get-ahead"
check "get ahead: the Status" '"reason":"Timeout","details":{"causes":[{"reason":"ResourceVersionTooLarge","message":"Too large resource version"}],"retryAfterSeconds":1},"code":504}' \
  cat "$tmp/get-ahead"
check "get ahead: its message" "$refusal" cat "$tmp/get-ahead"
check "get ahead: after 3 s" "took 3" cat "$tmp/get-ahead"
check "list ahead (NotOlderThan)" "$refusal" \
  curl -s "$url/api/v1/namespaces?resourceVersion=$ahead&resourceVersionMatch=NotOlderThan"
check "list ahead (Exact)" "$refusal" curl -s "$url/api/v1/namespaces?resourceVersion=$ahead&resourceVersionMatch=Exact"
check "list ahead (limit)" "$refusal" curl -s "$url/api/v1/namespaces?resourceVersion=$ahead&limit=1"
check "streaming list ahead: an ERROR event" "{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",$(printf '%s' "$refusal" | cut -c1-)" \
  curl -s -m 10 "$url/api/v1/namespaces?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&resourceVersion=$ahead"
check "plain watch ahead: starts at once" "HTTP/1.1 200" curl -si -m 1 "$url/api/v1/namespaces?watch=1&resourceVersion=$ahead"
check "get at the current version" '"name":"default"' curl -s "$url/api/v1/namespaces/default?resourceVersion=$(rv)"
# a version that arrives within the wait: the list waits for it, then answers
# (the write goes out soon after the list: under a loaded CI the write's
# commit alone has taken most of the 3 s the wait allows)
next=$(($(rv) + 1))
(sleep 0.3; curl -s -o /dev/null -X POST -H 'Content-Type: application/json' \
  -d '{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"later"}}' "$url/api/v1/namespaces") &
writer=$!
check "list of a version that comes" '"name":"later"' curl -s "$url/api/v1/namespaces?resourceVersion=$next"
wait $writer

# hold_db DIR: another process holds the write lock of DIR's database for
# 3 s (locker: its pid), so writes wait for the disk, applied in memory only
hold_db() {
  rm -f "$tmp/locked"
  python3 -c '
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN IMMEDIATE")
open(sys.argv[2], "w").close()
time.sleep(3)
db.execute("ROLLBACK")' "$1/dra.db" "$tmp/locked" &
  locker=$!
  for i in $(seq 100); do [ -e "$tmp/locked" ] && break; sleep 0.05; done
}
# dry runs read committed data: hold the database's write lock, start a
# real write (it waits for the disk, applied in memory only), then dry-run
curl -s -o /dev/null -X POST -H 'Content-Type: application/json' \
  -d '{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"a"}}' "$url/api/v1/namespaces"
hold_db "$tmp/data"
curl -s -o "$tmp/held-patch" -X PATCH -H 'Content-Type: application/merge-patch+json' \
  -d '{"metadata":{"labels":{"held":"yes"}}}' "$url/api/v1/namespaces/a" &
held_patch=$!
curl -s -o "$tmp/held-create" -X POST -H 'Content-Type: application/json' \
  -d '{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"b"}}' "$url/api/v1/namespaces" &
held_create=$!
sleep 0.5
# a request may land on the polling thread that waits for the held write:
# only answers that came while the lock is held count (curl -m 1)
dry() { for i in 1 2 3 4 5 6; do curl -s -m 1 "$@" && return; done; }
check "dry-run patch: not the held write" '"labels":{"dryrun":"yes","kubernetes.io/metadata.name":"a"}' \
  dry -X PATCH -H 'Content-Type: application/merge-patch+json' -d '{"metadata":{"labels":{"dryrun":"yes"}}}' \
  "$url/api/v1/namespaces/a?dryRun=All"
check "dry-run delete: not the held create" '"reason":"NotFound"' dry -X DELETE "$url/api/v1/namespaces/b?dryRun=All"
check "dry-run create: not refused for the held create" '"phase":"Active"' \
  dry -X POST -H 'Content-Type: application/json' -d '{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"b"}}' \
  "$url/api/v1/namespaces?dryRun=All"
check "dry-run create of a committed object: AlreadyExists" '"message":"namespaces \"a\" already exists","reason":"AlreadyExists"' \
  dry -X POST -H 'Content-Type: application/json' -d '{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"a"}}' \
  "$url/api/v1/namespaces?dryRun=All"
pod='{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"i"}]}}'
check "dry-run create into the held namespace: not found" '"message":"namespaces \"b\" not found"' \
  dry -X POST -H 'Content-Type: application/json' -d "$pod" "$url/api/v1/namespaces/b/pods?dryRun=All"
wait $locker $held_patch $held_create
check "the held patch is applied after" '"held":"yes"' cat "$tmp/held-patch"
check "the held create is applied after" '"name":"b"' curl -s "$url/api/v1/namespaces/b"
check "dry-run create into the namespace once committed" '"name":"p"' \
  curl -s -X POST -H 'Content-Type: application/json' -d "$pod" "$url/api/v1/namespaces/b/pods?dryRun=All"
# a dry-run binding writes nothing (no node exists: the scheduler leaves the pod)
curl -s -o /dev/null -X POST -H 'Content-Type: application/json' -d "$pod" "$url/api/v1/namespaces/b/pods"
binding='{"apiVersion":"v1","kind":"Binding","metadata":{"name":"p"},"target":{"kind":"Node","name":"n1"}}'
check "dry-run binding: 201" '"status":"Success","code":201' \
  curl -s -X POST -H 'Content-Type: application/json' -d "$binding" "$url/api/v1/namespaces/b/pods/p/binding?dryRun=All"
node_of_p() { curl -s "$url/api/v1/namespaces/b/pods/p" | python3 -c 'import json,sys; print("node:", json.load(sys.stdin)["spec"].get("nodeName", "none"))'; }
check "dry-run binding: the pod is not bound" "node: none" node_of_p

# authorization reads committed roles and bindings too, as kube-apiserver's
# informers: a RoleBinding held up on its way to disk grants nothing yet
kill $server; wait $server 2>/dev/null
printf 'root-token,root,1,"system:masters"\nbob-token,bob,2\n' >"$tmp/tokens"
serve "$tmp/authn" --token-file "$tmp/tokens"
[ -n "$url" ] || { echo "FAIL dra serve did not start with tokens"; cat "$tmp/serve.log"; exit 1; }
hold_db "$tmp/authn"
curl -s -o /dev/null -X POST -H 'Authorization: Bearer root-token' -H 'Content-Type: application/json' \
  -d '{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"RoleBinding","metadata":{"name":"bob-edit","namespace":"default"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"edit"},"subjects":[{"kind":"User","name":"bob"}]}' \
  "$url/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings" &
held_binding=$!
sleep 0.5
as_bob() { dry -H 'Authorization: Bearer bob-token' -H 'Content-Type: application/json' "$@"; }
check "dry run of a user the held binding would allow: 403" '"reason":"Forbidden"' \
  as_bob -X POST -d "$pod" "$url/api/v1/namespaces/default/pods?dryRun=All"
check "a read the held binding would allow: 403" '"reason":"Forbidden"' as_bob "$url/api/v1/namespaces/default/pods"
wait $locker $held_binding
check "once the binding is committed: the dry run is allowed" '"name":"p"' \
  as_bob -X POST -d "$pod" "$url/api/v1/namespaces/default/pods?dryRun=All"
summary
