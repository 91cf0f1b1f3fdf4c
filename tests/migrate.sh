#!/bin/sh
# migrate.sh: `dra migrate` (docs/store.md "Moving a store"). A data dir
# with the examples applied is copied into another data dir, into etcd, and
# from etcd back into a data dir; after each, dra serve on the destination
# serves the same objects: `kubectl get -A -o json` of every listable kind,
# without resourceVersion (and without the leader Lease, which a server on
# etcd renews), is the same as the source's. Also: the source's data dir
# is refused while a dra serve holds it (as is a second dra serve); a destination that holds objects
# is refused, and --force replaces them; resourceVersions are the
# destination's (etcd's mod_revisions). The SQLite part runs always; the
# etcd part is skipped (exit 77) without build/upstream/etcd (`make etcd`).
dra=${1:-build/dra}
case $dra in /*) ;; *) dra=$(pwd)/$dra ;; esac
. tests/lib/serve.sh
. tests/lib/etcd.sh
cleanup=stop_etcd
skip_without kubectl migrate
skip_without jq migrate
skip_without curl migrate

# Every object of every listable kind served with kubeconfig $1, sorted,
# without resourceVersion; Leases left out (the leader election's).
dump() {
  for r in $(kubectl --kubeconfig "$1" api-resources --verbs=list -o name | sort); do
    case $r in leases.*) continue ;; esac
    kubectl --kubeconfig "$1" get "$r" -A -o json |
      jq -S --arg r "$r" '{($r): (.items | map(del(.metadata.resourceVersion)) | sort_by(.metadata.namespace, .metadata.name))}'
  done
}
stop_server() { kill $server; wait $server 2>/dev/null; server=; }
same() { # label, dump a, dump b
  if cmp -s "$2" "$3"; then passed=$((passed + 1))
  else failed=$((failed + 1)); echo "FAIL $1: the served objects differ:"; diff "$2" "$3" | head -20; fi
}

# ---- the source: a data dir with the examples and a few objects with history ----
serve "$tmp/a"
k() { kubectl --kubeconfig "$tmp/a/kubeconfig" "$@"; }
check "apply the examples" "created" k apply -f examples/
k delete -n default resourceclaim gpu-nic-numa-alignment >/dev/null 2>&1 # re-created: a uid of its second life
k apply -f examples/40-claims.yaml >/dev/null 2>&1
k annotate -n default resourceclaim gpu-nic-numa-alignment example.com/note=updated >/dev/null 2>&1
# more objects of one kind than one list's first allocation holds
awk 'BEGIN { printf "{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":["
  for (i = 1; i <= 300; i++) printf "%s{\"apiVersion\":\"v1\",\"kind\":\"PodTemplate\",\"metadata\":{\"name\":\"pt-%d\",\"namespace\":\"default\"},\"template\":{\"spec\":{\"containers\":[{\"name\":\"c\"}]}}}", (i > 1 ? "," : ""), i
  print "]}" }' >"$tmp/many.json"
check "create 300 PodTemplates" "pt-300 created" k create -f "$tmp/many.json"
sleep 0.5 # the control loop's writes settle
dump "$tmp/a/kubeconfig" >"$tmp/a.json"
check "the source has claims" '"kind": "ResourceClaim"' cat "$tmp/a.json"
check "a served data dir is refused" "in use by another process" dra_cli migrate --from-data-dir "$tmp/a" --to-data-dir "$tmp/b"
check "so is a second dra serve on it" "in use by another process" \
  dra_cli serve --listen 127.0.0.1:0 --data-dir "$tmp/a" --insecure-http
stop_server

check "flags: one source and one destination" "give one of" dra_cli migrate --from-data-dir "$tmp/a"
check "a data dir without a store is refused" "no store in" dra_cli migrate --from-data-dir "$tmp/none" --to-data-dir "$tmp/b"

# ---- SQLite to SQLite ----
check "migrate a data dir into a new one" "dra migrate: copied" dra_cli migrate --from-data-dir "$tmp/a" --to-data-dir "$tmp/b"
check "a destination holding objects is refused" "already holds objects" dra_cli migrate --from-data-dir "$tmp/a" --to-data-dir "$tmp/b"
check "--force replaces them" "dra migrate: copied" dra_cli migrate --from-data-dir "$tmp/a" --to-data-dir "$tmp/b" --force
serve "$tmp/b"
dump "$tmp/b/kubeconfig" >"$tmp/b.json"
same "data dir to data dir" "$tmp/a.json" "$tmp/b.json"
stop_server

# ---- SQLite to etcd and back ----
if start_etcd_part migrate; then
  check "migrate a data dir into etcd" "dra migrate: copied" dra_cli migrate --from-data-dir "$tmp/a" --to-etcd-servers "$etcd_url"
  check "an etcd holding objects is refused" "already holds objects" \
    dra_cli migrate --from-data-dir "$tmp/a" --to-etcd-servers "$etcd_url"
  check "--force empties etcd first" "dra migrate: copied" \
    dra_cli migrate --from-data-dir "$tmp/a" --to-etcd-servers "$etcd_url" --force
  serve "$tmp/c" --etcd-servers "$etcd_url" --etcd-compaction-interval 0
  dump "$tmp/c/kubeconfig" >"$tmp/c.json"
  same "data dir to etcd" "$tmp/a.json" "$tmp/c.json"
  rv=$(kubectl --kubeconfig "$tmp/c/kubeconfig" get -n default resourceclaim gpu-nic-numa-alignment -o jsonpath='{.metadata.resourceVersion}')
  mod=$(curl -sf "$etcd_url/v3/kv/range" -d "{\"key\":\"$(printf /registry/resourceclaims/default/gpu-nic-numa-alignment | base64 -w0)\"}" |
    sed -n 's/.*"mod_revision":"\([0-9]*\)".*/\1/p')
  check "resourceVersion is etcd's mod_revision" "rv=$mod" echo "rv=$rv"
  stop_server
  check "migrate etcd into a data dir" "dra migrate: copied" dra_cli migrate --from-etcd-servers "$etcd_url" --to-data-dir "$tmp/d"
  serve "$tmp/d"
  dump "$tmp/d/kubeconfig" >"$tmp/d.json"
  same "etcd to data dir" "$tmp/a.json" "$tmp/d.json"
  stop_server
fi
summary
