#!/bin/sh
# kubectl_dra.sh: kubectl-dra, the kubectl plugin, end to end against
# `dra serve` (HTTPS, with a token file) holding the example cluster and a
# pending pod: capacity, claims, devices --selector, explain (naming the
# claims that hold the devices and their pods, a selector's nearest miss, a
# constraint's disagreeing values, and a lower count or another
# firstAvailable entry that would fit), whatif
# (compared with where the scheduler then puts the pod), taint with
# --dry-run, --preview and NoExecute eviction, untaint, --list; -o json|yaml; color
# only on a terminal and never with NO_COLOR; pagination (--chunk-size);
# the kubeconfig variants (client certificate as data and as relative
# files, token, tokenFile, exec plugins returning a token or a certificate,
# insecure-skip-tls-verify, a merged KUBECONFIG, contexts, --server,
# errors); v1beta1 and v1beta2 discovery, DeviceTaintRule in v1alpha3; and
# that the plugin uses only dra.h.
# Usage (CTest does this from the repository root): sh tests/kubectl_dra.sh build/dra
dra=$1
. tests/lib/serve.sh
plugin=$(cd "$(dirname "$dra")" && pwd)/kubectl-dra
[ -x "$plugin" ] || skip kubectl_dra "no $plugin"
skip_without kubectl kubectl_dra
skip_without python3 kubectl_dra

# ---- the plugin sees libdra through dra.h only ----
if grep -nE '#include *"(\.\./|src/|[a-z]+/)' plugin/*.c plugin/*.h >"$tmp/includes"; then
  failed=$((failed+1)); echo "FAIL plugin/ includes a header outside plugin/:"; cat "$tmp/includes"
else passed=$((passed+1)); fi
# every libdra symbol it uses is a dra_* call of dra.h
nm -u "$plugin" | awk '{print $2}' | grep -v @ | grep -E '^(dra|ctx|sched|alloc|store|api|cel|sb|arena|atom|x)[a-z]*_' | grep -v '^dra_' >"$tmp/internal"
if [ -s "$tmp/internal" ]; then failed=$((failed+1)); echo "FAIL kubectl-dra uses internal symbols:"; cat "$tmp/internal"
else passed=$((passed+1)); fi
nm -u "$plugin" | awk '{print $2}' | grep '^dra_' | sort -u >"$tmp/used"
sed -n 's/^DRA_API [^(]*[ *]\(dra_[a-z_]*\)(.*/\1/p' include/dra.h | sort >"$tmp/declared"
if [ -z "$(comm -23 "$tmp/used" "$tmp/declared")" ] && [ -s "$tmp/used" ]; then passed=$((passed+1))
else failed=$((failed+1)); echo "FAIL kubectl-dra calls dra_* names dra.h does not declare:"; comm -23 "$tmp/used" "$tmp/declared"; fi

# ---- the server, the cluster, and a pod that can not fit ----
printf 'tok-admin,admin,1,"system:masters"\ntok-other,other,2\n' >"$tmp/tokens.csv"
serve_https "$tmp/data" --token-file "$tmp/tokens.csv" -v 3
[ -n "$url" ] || { cat "$tmp/serve.log"; echo "FAIL dra serve did not start"; exit 1; }
export KUBECONFIG="$tmp/data/kubeconfig"
# under sanitizers, the plugin's reports go to files checked at the end
kd() { ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}log_path=$tmp/sanitizer" UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}log_path=$tmp/sanitizer" "$plugin" "$@"; }
kubectl apply -f examples/cluster >"$tmp/apply.log" 2>&1 || { cat "$tmp/apply.log"; echo "FAIL kubectl apply"; exit 1; }
cp tests/data/kubectl_dra/big-trainer.yaml "$tmp/big.yaml"
cat >>"$tmp/big.yaml" <<'YAML'
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: whole-gpu, namespace: ml}
spec:
  spec:
    devices:
      requests:
      - {name: gpu, exactly: {deviceClassName: gpu.example.com}}
---
apiVersion: v1
kind: Pod
metadata: {name: eval-0, namespace: ml}
spec:
  tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
  containers:
  - {name: t, image: x, resources: {claims: [{name: gpu}]}}
  resourceClaims:
  - {name: gpu, resourceClaimTemplateName: whole-gpu}
YAML
kubectl apply -f "$tmp/big.yaml" >>"$tmp/apply.log" 2>&1 || { cat "$tmp/apply.log"; echo "FAIL kubectl apply"; exit 1; }
# until the scheduler has placed what fits (8 pods bound)
for i in $(seq 100); do
  [ "$(kubectl get pods -A -o jsonpath='{range .items[*]}{.spec.nodeName}{"\n"}{end}' | grep -c .)" = 8 ] && break
  sleep 0.1
done

# ---- capacity ----
check "capacity: gpu pool of a full node" "gpu-node-1    gpu.example.com      gpu-node-1        12        2           0       0         0" kd capacity
check "capacity: MIG slices left on gpu-node-2" "gpu-node-2   gpu.example.com   gpu-node-2   gpu-1-counters   memory    40Gi       30Gi       10Gi" kd capacity
check "capacity: allNodes pool" "(all nodes)   fabric.example.com   fabric            2         1" kd capacity
check "capacity --node" "gpu-node-2   nic.example.com   gpu-node-2-nics   2         1           0       0         1" kd capacity --node gpu-node-2
out=$(kd capacity --node gpu-node-2)
case $out in *gpu-node-1*) failed=$((failed+1)); echo "FAIL capacity --node gpu-node-2 shows gpu-node-1";; *) passed=$((passed+1));; esac
check "capacity --driver --pool" "gpu-node-1   nic.example.com   gpu-node-1-nics   2" kd capacity --driver nic.example.com --pool gpu-node-1-nics
check "capacity -o json" "12 2 0 0" sh -c "'$plugin' capacity -o json | python3 -c 'import json,sys; p=[x for x in json.load(sys.stdin)[\"pools\"] if x[\"pool\"]==\"gpu-node-1\"][0][\"devices\"]; print(p[\"total\"], p[\"allocated\"], p[\"adminHeld\"], p[\"free\"])'"
check "capacity -o yaml" "  - counterSet: gpu-0-counters" kd capacity -o yaml --node gpu-node-1
check "capacity: bad -o" 'unable to match a printer suitable for the output format "xml"' kd capacity -o xml

# ---- claims ----
check "claims: a worker's devices" "pod/llm-finetune-worker-0   gpu-node-1   gpu=gpu.example.com/gpu-node-1/gpu-0,nic=nic.example.com/gpu-node-1-nics/nic-0" kd claims -n ml
check "claims: the PodGroup claim" "podgroup/llm-finetune" kd claims -n ml
check "claims: pending" "big-gpu                           pending" kd claims -n ml
check "claims -A has the namespace column" "inference   embedder-0-mig-" kd claims -A
check "claims -o wide: the template" "gpu-with-nic" kd claims -n ml -o wide
check "claims -o json" "small-mig" sh -c "'$plugin' claims -n inference -o json | python3 -c 'import json,sys; print(json.load(sys.stdin)[\"items\"][0][\"template\"])'"
check "claims NAME not found" 'resourceclaims.resource.k8s.io "nope" not found' kd claims nope -n ml
# pagination: two items a page gives the same answer, through continue tokens
kd claims -A >"$tmp/claims.all"
kd claims -A --chunk-size 2 >"$tmp/claims.paged"
if cmp -s "$tmp/claims.all" "$tmp/claims.paged" && [ -s "$tmp/claims.all" ]; then passed=$((passed+1)); else failed=$((failed+1)); echo "FAIL --chunk-size 2 changed the output"; fi
check "pagination: limit and continue sent" "resourceclaims?limit=2&continue=" cat "$tmp/serve.log"

# ---- devices ----
check "devices: held device" "gpu-node-1   gpu.example.com   gpu-node-1        gpu-0                 allocated" kd devices --node gpu-node-1
sel='device.attributes["gpu.example.com"].type == "mig" && device.capacity["gpu.example.com"].memory.compareTo(quantity("10Gi")) >= 0'
check "devices --selector: a match" "gpu-0-mig-2g-10gb-0   counters-exhausted   true" kd devices --node gpu-node-1 --selector "$sel"
check "devices --selector: the first false part with the device's value" 'gpu-0-mig-1g-5gb-0    counters-exhausted   false   device.capacity["gpu.example.com"].memory.compareTo(quantity("10Gi")) >= 0 is false (capacity memory: 5Gi)' kd devices --node gpu-node-1 --selector "$sel"
check "devices --selector: the runtime error" 'error   no such key: profile' kd devices --node gpu-node-1 --selector 'device.attributes["gpu.example.com"].profile == "1g.5gb"'
check "devices --selector: does not compile" "error: the selector is invalid: compilation failed" kd devices --selector 'device.driver =='
check "devices -o json" '"matches": true' kd devices --driver nic.example.com --selector 'device.driver == "nic.example.com"' -o json

# ---- explain ----
check "explain: PodScheduled message" "pod ml/eval-0 is Pending: 0/3 nodes are available: 3 cannot allocate all claims." kd explain pod/eval-0 -n ml
check "explain: the blocking claim and its pod" "gpu.example.com/gpu-node-1/gpu-0 held by claim ml/llm-finetune-worker-0-gpu-" kd explain pod/eval-0 -n ml
check "explain: the blocking pod" "for pods/ml/llm-finetune-worker-0" kd explain pod/eval-0 -n ml
check "explain: counters" "1 short of shared counters" kd explain pod/eval-0 -n ml
check "explain: the claim whose release would let it in" "(reserved for pod ml/llm-finetune-worker-0) releasing gpu.example.com/gpu-node-1/gpu-0 (on 1 node gpu-node-1)" kd explain pod/eval-0 -n ml
check "explain: not checked filters" "not checked: NodePorts" kd explain pod/eval-0 -n ml
check "explain: nearest miss" 'gpu.example.com/gpu-node-1/gpu-0: device.capacity["gpu.example.com"].memory.compareTo(quantity("80Gi")) >= 0 is false (capacity memory: 40Gi)' kd explain big-trainer -n ml
check "explain resourceclaim/" "pod ml/big-trainer is Pending" kd explain resourceclaim/big-gpu -n ml
check "explain: a scheduled pod" "pod inference/tokenizer is scheduled on node cpu-node-1" kd explain pod/tokenizer -n inference
check "explain: not found" 'pods "nope" not found' kd explain pod/nope -n ml
check "explain -o json" '"filter": "DynamicResources"' kd explain pod/eval-0 -n ml -o json
# pages handed to libdra unparsed find their continue token in the text
kd explain pod/eval-0 -n ml >"$tmp/explain.all"
kd explain pod/eval-0 -n ml --chunk-size 2 >"$tmp/explain.paged"
if cmp -s "$tmp/explain.all" "$tmp/explain.paged" && [ -s "$tmp/explain.all" ]; then passed=$((passed+1)); else failed=$((failed+1)); echo "FAIL explain --chunk-size 2 changed the output"; diff "$tmp/explain.all" "$tmp/explain.paged" | head; fi
check "pagination: pods paged for explain" "pods?limit=2&continue=" cat "$tmp/serve.log"
# what would fit: three NICs where a node has two; a firstAvailable whose
# entries each ask more NICs than a node has free; two FPGAs that must
# share a region, which the two of cpu-node-1 do not
cat >"$tmp/fit.yaml" <<'YAML'
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: nic-trio, namespace: ml}
spec: {devices: {requests: [{name: nic, exactly: {deviceClassName: nic.example.com, count: 3}}]}}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: nic-pick, namespace: ml}
spec: {devices: {requests: [{name: nic, firstAvailable: [{name: many, deviceClassName: nic.example.com, count: 4},
  {name: fast, deviceClassName: nic.example.com, count: 3, selectors: [{cel: {expression: 'device.attributes["nic.example.com"].model == "ConnectX-7"'}}]}]}]}}
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: fpga.example.com}
spec: {selectors: [{cel: {expression: 'device.driver == "fpga.example.com"'}}]}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: cpu-node-1-fpgas}
spec:
  driver: fpga.example.com
  nodeName: cpu-node-1
  pool: {name: cpu-node-1-fpgas, generation: 1, resourceSliceCount: 1}
  devices: [{name: fpga-0, attributes: {region: {string: east}}}, {name: fpga-1, attributes: {region: {string: west}}}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: fpga-pair, namespace: ml}
spec: {devices: {requests: [{name: a, exactly: {deviceClassName: fpga.example.com}}, {name: b, exactly: {deviceClassName: fpga.example.com}}],
  constraints: [{matchAttribute: fpga.example.com/region}]}}
---
YAML
for c in nic-trio nic-pick fpga-pair; do
  printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: %s, namespace: ml}\nspec:\n  tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]\n  containers: [{name: t, image: x, resources: {claims: [{name: nics}]}}]\n  resourceClaims: [{name: nics, resourceClaimName: %s}]\n---\n' "$c" "$c" >>"$tmp/fit.yaml"
done
kubectl apply -f "$tmp/fit.yaml" >>"$tmp/apply.log" 2>&1 || { cat "$tmp/apply.log"; echo "FAIL kubectl apply"; exit 1; }
check "explain: a lower count would fit" "claim ml/nic-trio: request nic: count 1 instead of 3 (on 1 node gpu-node-2)" kd explain pod/nic-trio -n ml
check "explain: the holder's pod, per node" "nic.example.com/gpu-node-2-nics/nic-0: held by ml/llm-finetune-worker-2-gpu-" kd explain pod/nic-trio -n ml
check "explain: the holder's pod named" "reserved for pod ml/llm-finetune-worker-2" kd explain pod/nic-trio -n ml
check "explain: another firstAvailable entry would fit" "claim ml/nic-pick: request nic: firstAvailable entry nic/fast, count 1 instead of 3 (on 1 node gpu-node-2)" kd explain pod/nic-pick -n ml
check "explain: a constraint's disagreeing values" "fpga.example.com/cpu-node-1-fpgas/fpga-0 (a, fpga.example.com/region east) and fpga.example.com/cpu-node-1-fpgas/fpga-1 (b, fpga.example.com/region west)" kd explain pod/fpga-pair -n ml
check "explain -o json: wouldFit" '"change": "request nic: count 1 instead of 3"' kd explain pod/nic-trio -n ml -o json
# a node refused before DynamicResources: the filter by name
cat >"$tmp/untolerating.yaml" <<'YAML'
apiVersion: v1
kind: Pod
metadata: {name: no-toleration, namespace: ml}
spec:
  containers:
  - {name: t, image: x, resources: {claims: [{name: gpu}]}}
  resourceClaims:
  - {name: gpu, resourceClaimTemplateName: whole-gpu}
YAML
kubectl apply -f "$tmp/untolerating.yaml" >/dev/null 2>&1
check "explain: TaintToleration per node" "gpu-node-1   TaintToleration    node(s) had untolerated taint(s)" kd explain pod/no-toleration -n ml

# ---- whatif, then the scheduler ----
cp tests/data/kubectl_dra/embedder.yaml "$tmp/embedder.yaml"
kd whatif -f "$tmp/embedder.yaml" >"$tmp/whatif.out" 2>&1
check "whatif: node and device" "inference   embedder-4   gpu-node-2   mig/1g=gpu.example.com/gpu-node-2/gpu-1-mig-1g-5gb-2" cat "$tmp/whatif.out"
check "whatif wrote nothing" 'pods "embedder-4" not found' kubectl get pod embedder-4 -n inference
sed 's/name: embedder-4, namespace: inference/name: eval-1, namespace: ml/; s/mig/gpu/g; s/small-gpu/whole-gpu/' "$tmp/embedder.yaml" >"$tmp/eval1.yaml"
check "whatif: a pod that would wait, and why" "gpu.example.com/gpu-node-1/gpu-0 held by claim ml/llm-finetune-worker-0-gpu-" kd whatif -f "$tmp/eval1.yaml"
kubectl apply -f "$tmp/embedder.yaml" >/dev/null 2>&1
for i in $(seq 50); do [ -n "$(kubectl get pod embedder-4 -n inference -o jsonpath='{.spec.nodeName}')" ] && break; sleep 0.1; done
check "the scheduler agrees with whatif: node" "gpu-node-2" kubectl get pod embedder-4 -n inference -o jsonpath='{.spec.nodeName}'
check "the scheduler agrees with whatif: device" "gpu-1-mig-1g-5gb-2" kd claims -n inference

# ---- taint and untaint ----
check "taint --preview: the pod NoExecute would evict" "pod ml/llm-finetune-worker-2 would be evicted" kd taint gpu.example.com/gpu-node-2/gpu-0 example.com/broken=ecc:NoExecute --preview
check "taint --preview of the pool: the embedders too" "pod inference/embedder-0 would be evicted" kd taint gpu.example.com/gpu-node-2 example.com/broken=ecc:NoSchedule --preview
check "taint --dry-run=client" "devicetaintrule.resource.k8s.io/gpu-node-2-gpu-0-example.com-broken created (dry run)" kd taint gpu.example.com/gpu-node-2/gpu-0 example.com/broken=ecc:NoExecute --dry-run=client
check "taint --dry-run=server" "devicetaintrule.resource.k8s.io/gpu-node-2-gpu-0-example.com-broken created (server dry run)" kd taint gpu.example.com/gpu-node-2/gpu-0 example.com/broken=ecc:NoExecute --dry-run=server
check "dry runs wrote nothing" "No resources found" sh -c "kubectl get devicetaintrules gpu-node-2-gpu-0-example.com-broken 2>&1; '$plugin' taint --list | grep broken || echo 'No resources found'"
check "taint: bad effect" "invalid taint effect: Sometimes" kd taint gpu.example.com/gpu-node-2 k=v:Sometimes
check "taint: bad target" "is not DRIVER/POOL or DRIVER/POOL/DEVICE" kd taint gpu.example.com k=v:NoSchedule
check "taint" "devicetaintrule.resource.k8s.io/gpu-node-2-gpu-0-example.com-broken created" kd taint gpu.example.com/gpu-node-2/gpu-0 example.com/broken=ecc:NoExecute
# NoExecute evicts the pod of the claim that holds gpu-node-2/gpu-0
for i in $(seq 100); do kubectl get pod llm-finetune-worker-2 -n ml >/dev/null 2>&1 || break; sleep 0.1; done
check "NoExecute evicted the pod" 'pods "llm-finetune-worker-2" not found' kubectl get pod llm-finetune-worker-2 -n ml
check "taint --list" "gpu-node-2-gpu-0-example.com-broken   gpu.example.com   gpu-node-2   gpu-0    example.com/broken=ecc:NoExecute" kd taint --list
check "capacity counts the tainted device" "gpu-node-2   gpu.example.com   gpu-node-2        12" kd capacity --node gpu-node-2
check "capacity: tainted column" "1         " sh -c "'$plugin' capacity --node gpu-node-2 --driver gpu.example.com | tail -n +2 | head -1 | awk '{print \$7}' | sed 's/\$/         /'"
check "untaint --dry-run=client" 'devicetaintrule.resource.k8s.io "gpu-node-2-gpu-0-example.com-broken" deleted (dry run)' kd untaint gpu.example.com/gpu-node-2/gpu-0 example.com/broken --dry-run=client
check "untaint --dry-run=client deleted nothing" "gpu-node-2-gpu-0-example.com-broken" kd taint --list
check "untaint" 'devicetaintrule.resource.k8s.io "gpu-node-2-gpu-0-example.com-broken" deleted' kd untaint gpu.example.com/gpu-node-2/gpu-0 example.com/broken:NoExecute
check "untaint removed the rule" 'not found' kubectl get devicetaintrule gpu-node-2-gpu-0-example.com-broken
check "untaint: nothing to remove" "error: no DeviceTaintRule sets taint example.com/broken on gpu.example.com/gpu-node-2/gpu-0" kd untaint gpu.example.com/gpu-node-2/gpu-0 example.com/broken

# ---- color: on a terminal only, and never with NO_COLOR ----
if command -v script >/dev/null 2>&1; then
  script -qec "'$plugin' capacity" /dev/null >"$tmp/tty.out" 2>&1
  if grep -q "$(printf '\033')\[" "$tmp/tty.out" && grep -q "devices in use" "$tmp/tty.out"; then passed=$((passed+1)); else failed=$((failed+1)); echo "FAIL no color or bar on a terminal:"; head -5 "$tmp/tty.out"; fi
  NO_COLOR=1 script -qec "'$plugin' capacity" /dev/null >"$tmp/nocolor.out" 2>&1
  if grep -q "$(printf '\033')\[" "$tmp/nocolor.out"; then failed=$((failed+1)); echo "FAIL color with NO_COLOR"; else passed=$((passed+1)); fi
else skipped=$((skipped+2)); fi
kd capacity >"$tmp/pipe.out"
if grep -q "$(printf '\033')" "$tmp/pipe.out"; then failed=$((failed+1)); echo "FAIL color into a pipe"; else passed=$((passed+1)); fi

# ---- kubeconfig variants ----
ca_data=$(sed -n 's/.*certificate-authority-data: //p' "$tmp/data/kubeconfig")
mkdir -p "$tmp/kc/certs"
printf '%s' "$ca_data" | base64 -d >"$tmp/kc/certs/ca.crt"
cp "$tmp/data/pki/admin.crt" "$tmp/data/pki/admin.key" "$tmp/kc/certs/"
kubeconfig() { # file, user block (indented 4), cluster extra (indented 4), namespace
  cat >"$1" <<KC
apiVersion: v1
kind: Config
clusters:
- name: c
  cluster:
    server: $url
$3
users:
- name: u
  user:
$2
contexts:
- name: ctx
  context: {cluster: c, user: u, namespace: ${4:-ml}}
current-context: ctx
KC
}
ca_file="    certificate-authority: certs/ca.crt"
kubeconfig "$tmp/kc/files" "    client-certificate: certs/admin.crt
    client-key: certs/admin.key" "$ca_file"
check "client certificate and CA from files, relative to the kubeconfig" "big-gpu" kd claims --kubeconfig "$tmp/kc/files"
kubeconfig "$tmp/kc/token" "    token: tok-other" "$ca_file"
check "a user without rights: RBAC's 403" \
  'Error from server (Forbidden): resourceclaims.resource.k8s.io is forbidden: User "other" cannot list resource "resourceclaims" in API group "resource.k8s.io" in the namespace "ml"' \
  kd claims --kubeconfig "$tmp/kc/token"
# an error on a later list, while the reader thread has read pages ahead:
# the same error, after the lists before it (pods come last for explain)
kubectl create clusterrole no-pods --verb list --resource namespaces,nodes,deviceclasses.resource.k8s.io,resourceslices.resource.k8s.io,devicetaintrules.resource.k8s.io,resourceclaimtemplates.resource.k8s.io,resourceclaims.resource.k8s.io,podgroups.scheduling.k8s.io >/dev/null
kubectl create clusterrolebinding other-no-pods --clusterrole no-pods --user other >/dev/null
check "an error on the last list, pages read ahead" \
  'Error from server (Forbidden): pods is forbidden: User "other" cannot list resource "pods"' \
  kd explain pod/eval-0 -n ml --chunk-size 1 --kubeconfig "$tmp/kc/token"
kubectl delete clusterrolebinding other-no-pods >/dev/null
kubectl create clusterrolebinding other-view --clusterrole view --user other >/dev/null
check "token (a user bound to view)" "big-gpu" kd claims --kubeconfig "$tmp/kc/token"
printf 'tok-admin\n' >"$tmp/kc/token.txt"
kubeconfig "$tmp/kc/tokenfile" "    tokenFile: token.txt" "$ca_file"
check "tokenFile" "big-gpu" kd claims --kubeconfig "$tmp/kc/tokenfile"
kubeconfig "$tmp/kc/badtoken" "    token: wrong" "$ca_file"
check "a wrong token" "Error from server (Unauthorized)" kd claims --kubeconfig "$tmp/kc/badtoken"
check "--token overrides" "big-gpu" kd claims --kubeconfig "$tmp/kc/badtoken" --token tok-admin
kubeconfig "$tmp/kc/insecure" "    token: tok-admin" "    insecure-skip-tls-verify: true"
check "insecure-skip-tls-verify" "big-gpu" kd claims --kubeconfig "$tmp/kc/insecure"
kubeconfig "$tmp/kc/noca" "    token: tok-admin" ""
check "no CA: the server is not trusted" "Unable to connect to the server" kd claims --kubeconfig "$tmp/kc/noca"
check "--insecure-skip-tls-verify flag" "big-gpu" kd claims --kubeconfig "$tmp/kc/noca" --insecure-skip-tls-verify
check "--certificate-authority flag" "big-gpu" kd claims --kubeconfig "$tmp/kc/noca" --certificate-authority "$tmp/kc/certs/ca.crt"
# exec plugins: a script that checks what client-go passes and answers an ExecCredential
cat >"$tmp/kc/cred.sh" <<'SH'
#!/bin/sh
[ "$1" = "--mode" ] || { echo "no args" >&2; exit 3; }
[ "$CRED_ENV" = "from-kubeconfig" ] || { echo "no env" >&2; exit 4; }
case $KUBERNETES_EXEC_INFO in *'"kind":"ExecCredential"'*'"interactive":false'*) ;; *) echo "no exec info" >&2; exit 5;; esac
case $2 in
token) printf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"tok-admin"}}\n' ;;
cert) python3 -c 'import json,sys; print(json.dumps({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"clientCertificateData":open(sys.argv[1]).read(),"clientKeyData":open(sys.argv[2]).read()}}))' "$3/admin.crt" "$3/admin.key" ;;
beta) printf '{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","status":{"token":"tok-admin"}}\n' ;;
fail) exit 7 ;;
esac
SH
chmod +x "$tmp/kc/cred.sh"
exec_user() { # mode
  printf '    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: ./cred.sh\n      args: ["--mode", "%s", "%s"]\n      env: [{name: CRED_ENV, value: from-kubeconfig}]\n      interactiveMode: Never\n' "$1" "$tmp/kc/certs"
}
kubeconfig "$tmp/kc/exec-token" "$(exec_user token)" "$ca_file"
check "exec plugin: token" "big-gpu" kd claims --kubeconfig "$tmp/kc/exec-token"
kubeconfig "$tmp/kc/exec-cert" "$(exec_user cert)" "$ca_file"
check "exec plugin: client certificate" "big-gpu" kd claims --kubeconfig "$tmp/kc/exec-cert"
kubeconfig "$tmp/kc/exec-beta" "$(exec_user beta)" "$ca_file"
check "exec plugin: another version" "exec plugin is configured to use API version client.authentication.k8s.io/v1, plugin returned version client.authentication.k8s.io/v1beta1" kd claims --kubeconfig "$tmp/kc/exec-beta"
kubeconfig "$tmp/kc/exec-fail" "$(exec_user fail)" "$ca_file"
check "exec plugin: failing (the command resolved against the kubeconfig)" "exec: executable $tmp/kc/./cred.sh failed with exit code 7" kd claims --kubeconfig "$tmp/kc/exec-fail"
kubeconfig "$tmp/kc/exec-missing" "    exec: {apiVersion: client.authentication.k8s.io/v1, command: no-such-plugin, interactiveMode: Never}" "$ca_file"
check "exec plugin: missing" "exec: executable no-such-plugin not found" kd claims --kubeconfig "$tmp/kc/exec-missing"
kubeconfig "$tmp/kc/exec-nomode" "    exec: {apiVersion: client.authentication.k8s.io/v1, command: ./cred.sh}" "$ca_file"
check "exec plugin v1 without interactiveMode" "interactiveMode must be specified" kd claims --kubeconfig "$tmp/kc/exec-nomode"
# a merged KUBECONFIG: the first file wins per name and for current-context
cat >"$tmp/kc/first" <<KC
apiVersion: v1
kind: Config
clusters:
- {name: c, cluster: {server: "https://127.0.0.1:1", insecure-skip-tls-verify: true}}
- {name: dead, cluster: {server: "https://127.0.0.1:1"}}
contexts:
- {name: first, context: {cluster: c, user: u, namespace: inference}}
- {name: broken, context: {cluster: dead, user: u}}
current-context: first
KC
kubeconfig "$tmp/kc/second" "    token: tok-admin" "$ca_file"
KUBECONFIG="$tmp/kc/missing:$tmp/kc/first:$tmp/kc/second" check "merged: the first file's cluster and current-context win" "127.0.0.1 port 1" kd claims
KUBECONFIG="$tmp/kc/second:$tmp/kc/first" check "merged: the other order" "big-gpu" kd claims
KUBECONFIG="$tmp/kc/second:$tmp/kc/first" check "merged: a context of one file, the cluster and user of the other" "embedder-0-mig-" kd claims --context first
KUBECONFIG="$tmp/kc/second:$tmp/kc/first" check "--context: another cluster" "127.0.0.1 port 1" kd claims --context broken
KUBECONFIG="$tmp/kc/second:$tmp/kc/first" check "-n overrides the context's namespace" "embedder-0-mig-" kd claims -n inference
KUBECONFIG="$tmp/kc/first:$tmp/kc/second" check "--server overrides the cluster's" "embedder-0-mig-" kd claims --server "$url" --token tok-admin --insecure-skip-tls-verify
check "an unknown context" "error: context was not found for specified context: nope" kd claims --context nope
check "--kubeconfig missing" "error: stat $tmp/nope: No such file or directory" kd claims --kubeconfig "$tmp/nope"
printf 'clusters: [1, 2\n' >"$tmp/kc/broken"
check "a kubeconfig that is not YAML" "error loading config file" kd claims --kubeconfig "$tmp/kc/broken"
KUBECONFIG="$tmp/kc/none" HOME="$tmp" check "no kubeconfig at all" "invalid configuration: no configuration has been provided" kd claims

# ---- installed: kubectl finds kubectl-dra on the PATH ----
if cmake --install "$(dirname "$plugin")" --prefix "$tmp/prefix" >"$tmp/install.log" 2>&1; then
  PATH="$tmp/prefix/bin:$PATH" check "kubectl dra, installed" "gpu-node-1    gpu.example.com" kubectl dra capacity
else failed=$((failed+1)); echo "FAIL cmake --install:"; cat "$tmp/install.log"; fi

# ---- a server that serves resource.k8s.io in one beta only: converted to v1 by libdra ----
served_only() { # version: a restart with v1 off and the version on; the same capacity, and the claims
  kill $server; wait $server 2>/dev/null
  serve_https "$tmp/data" --token-file "$tmp/tokens.csv" --runtime-config "resource.k8s.io/v1=false,resource.k8s.io/$1=true"
  check "discovery: $1 only" "resource.k8s.io/$1" kubectl api-versions
  kd capacity >"$tmp/capacity.$1" 2>&1
  if cmp -s "$tmp/capacity.v1" "$tmp/capacity.$1"; then passed=$((passed+1))
  else failed=$((failed+1)); echo "FAIL capacity over $1 differs:"; diff "$tmp/capacity.v1" "$tmp/capacity.$1" | head; fi
  check "claims over $1" "pod/llm-finetune-worker-0   gpu-node-1   gpu=gpu.example.com/gpu-node-1/gpu-0" kd claims -n ml
}
kd capacity >"$tmp/capacity.v1"
served_only v1beta1
served_only v1beta2 # 1.34 to 1.36 serve it
check "taint --list over v1beta2" "NAME" kd taint --list
# ---- DeviceTaintRule as 1.34's alpha, v1alpha3, next to v1beta1 ----
kill $server; wait $server 2>/dev/null
serve_https "$tmp/data" --token-file "$tmp/tokens.csv" -v 3 \
  --runtime-config resource.k8s.io/v1=false,resource.k8s.io/v1beta1=true,resource.k8s.io/v1alpha3=true
check "taint --dry-run=server over v1alpha3" "devicetaintrule.resource.k8s.io/gpu-node-2-gpu-0-example.com-broken created (server dry run)" \
  kd taint gpu.example.com/gpu-node-2/gpu-0 example.com/broken=ecc:NoExecute --dry-run=server
check "taint: written to v1alpha3" "/apis/resource.k8s.io/v1alpha3/devicetaintrules?dryRun=All" cat "$tmp/serve.log"
if ls "$tmp"/sanitizer.* >/dev/null 2>&1; then
  failed=$((failed+1)); echo "FAIL kubectl-dra has sanitizer reports:"; head -40 "$tmp"/sanitizer.*
else passed=$((passed+1)); fi
summary
