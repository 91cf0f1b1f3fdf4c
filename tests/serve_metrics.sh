#!/bin/sh
# dra serve's /metrics: the Prometheus text format, kube-apiserver's request
# series counting what was really asked (creates, 404s, lists, watches),
# kube-scheduler's attempt counter agreeing with the pods bound, the
# allocator's runs, and /metrics refused to anonymous callers when
# authentication is on.
dra=${1:-build/dra}
. tests/lib/serve.sh
skip_without curl serve_metrics
ok() { passed=$((passed+1)); }
bad() { failed=$((failed+1)); echo "FAIL $*"; }
serve "$tmp/data"
post() { curl -s -o /dev/null -w '%{http_code}' -X POST -H 'Content-Type: application/yaml' --data-binary @"$2" "$url$1"; }
R=/apis/resource.k8s.io/v1
# the serve test cluster: nodes and slices, one document at a time
awk -v dir="$tmp" 'BEGIN{n=0} /^---/{n++; next} {print > (dir "/doc" n ".yaml")}' tests/data/serve/cluster.yaml
for f in "$tmp"/doc*.yaml; do
  case $(sed -n 's/^kind: //p' "$f") in
  Node) post /api/v1/nodes "$f" ;;
  ResourceSlice) post $R/resourceslices "$f" ;;
  DeviceClass) post $R/deviceclasses "$f" ;;
  ResourceClaimTemplate) post $R/namespaces/default/resourceclaimtemplates "$f" ;;
  esac >/dev/null
done
nodes=$(grep -l '^kind: Node$' "$tmp"/doc*.yaml | wc -l)
code=$(post /api/v1/namespaces/default/pods tests/data/serve/pod.yaml)
[ "$code" = 201 ] && ok || bad "pod create: HTTP $code"
for i in $(seq 50); do curl -s "$url/api/v1/namespaces/default/pods/trainer" | grep -q '"nodeName"' && break; sleep 0.1; done
curl -s -o /dev/null "$url$R/namespaces/default/resourceclaims/nope"
curl -s -o /dev/null "$url$R/namespaces/default/resourceclaims/nope"
curl -s -o /dev/null "$url/api/v1/namespaces/default/pods?limit=2"
curl -s -o /dev/null -m 1 "$url/api/v1/pods?watch=true&timeoutSeconds=1"
# a watch is counted when it ends (here after its 1 s timeout)
for i in $(seq 40); do
  curl -s -D "$tmp/headers" -o "$tmp/metrics" "$url/metrics"
  grep -q 'verb="WATCH"' "$tmp/metrics" && break
  sleep 0.1
done
grep -qi '^content-type: text/plain; version=0.0.4' "$tmp/headers" && ok || bad "content type: $(cat "$tmp/headers")"
# every line is a comment or `name{labels} value`
if grep -vE '^(# (HELP|TYPE) [a-z_]+ .+|[a-z_]+(\{[a-z_]+="[^"]*"(,[a-z_]+="[^"]*")*\})? [0-9.e+-]+)$' "$tmp/metrics" | head -3 | grep .; then
  bad "lines outside the text format (above)"
else ok; fi
has() { grep -qF -- "$1" "$tmp/metrics" && ok || bad "no $1"; }
has 'apiserver_request_total{code="404",component="apiserver",dry_run="",group="resource.k8s.io",resource="resourceclaims",scope="resource",subresource="",verb="GET",version="v1"} 2'
has 'apiserver_request_total{code="201",component="apiserver",dry_run="",group="",resource="pods",scope="resource",subresource="",verb="POST",version="v1"} 1'
has 'apiserver_request_total{code="200",component="apiserver",dry_run="",group="",resource="pods",scope="namespace",subresource="",verb="LIST",version="v1"} 1'
has 'apiserver_request_total{code="200",component="apiserver",dry_run="",group="",resource="pods",scope="cluster",subresource="",verb="WATCH",version="v1"} 1'
has "apiserver_request_total{code=\"201\",component=\"apiserver\",dry_run=\"\",group=\"\",resource=\"nodes\",scope=\"resource\",subresource=\"\",verb=\"POST\",version=\"v1\"} $nodes"
has 'apiserver_request_duration_seconds_bucket{component="apiserver",dry_run="",group="",resource="pods",scope="namespace",subresource="",verb="LIST",version="v1",le="+Inf"} 1'
bound=$(curl -s "$url/api/v1/pods" | grep -o '"nodeName":"[^"]*"' | wc -l)
[ "$bound" -ge 1 ] && ok || bad "no pod was bound"
has "scheduler_schedule_attempts_total{profile=\"default-scheduler\",result=\"scheduled\"} $bound"
has "scheduler_scheduling_attempt_duration_seconds_count{profile=\"default-scheduler\",result=\"scheduled\"} $bound"
allocated=$(sed -n 's/^dra_allocations_total{result="allocated"} //p' "$tmp/metrics")
[ "${allocated:-0}" -ge "$bound" ] && ok || bad "dra_allocations_total allocated ${allocated:-none} < $bound pods bound"
kill $server; wait $server 2>/dev/null

printf 's3cret,alice,1,system:masters\n' >"$tmp/tokens"
serve "$tmp/data" --token-file "$tmp/tokens"
code=$(curl -s -o /dev/null -w '%{http_code}' "$url/metrics")
[ "$code" = 403 ] && ok || bad "anonymous /metrics: HTTP $code (want 403)"
code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Authorization: Bearer s3cret' "$url/metrics")
[ "$code" = 200 ] && ok || bad "/metrics with a token: HTTP $code"
summary
