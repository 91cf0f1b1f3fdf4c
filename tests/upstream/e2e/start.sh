#!/bin/sh
# start.sh: the real control plane on loopback, for end-to-end comparisons
# with dra serve: etcd, kube-apiserver and kube-scheduler as built by
# `make upstream-e2e` (build/upstream/). Writes its state under DIR (etcd
# data, the service-account key, a static admin token, the serving
# certificates kube-apiserver makes for itself, each process's log and pid,
# and DIR/kubeconfig for clients), waits until the API server answers
# /readyz, and leaves the three running; stop them with
#   sh tests/upstream/e2e/stop.sh DIR
# usage: sh tests/upstream/e2e/start.sh [bin-dir] [DIR]
#   (default build/upstream, a new temporary directory; PORT default 26443,
#   etcd on PORT+1 and PORT+2, kube-scheduler on SCHEDULER_PORT, default
#   PORT+3)
# For the tests that share an etcd with dra serve: ETCD_SERVERS=URL uses
# that etcd instead of starting one, KUBE_APISERVER_FLAGS adds flags
# (words) to kube-apiserver's (KUBE_SCHEDULER_FLAGS to kube-scheduler's),
# and NO_SCHEDULER=1 starts no kube-scheduler.
set -e
bin=${1:-build/upstream}
dir=${2:-$(mktemp -d)}
port=${PORT:-26443}
scheduler_port=${SCHEDULER_PORT:-$((port + 3))}
etcd=${ETCD_SERVERS:-http://127.0.0.1:$((port + 1))}
mkdir -p "$dir"
needed=kube-apiserver
[ -n "${ETCD_SERVERS:-}" ] || needed="etcd $needed"
[ -n "${NO_SCHEDULER:-}" ] || needed="$needed kube-scheduler"
for b in $needed; do
  [ -x "$bin/$b" ] || { echo "$bin/$b is not built (make upstream-e2e)"; exit 1; }
done
if [ -z "${ETCD_SERVERS:-}" ]; then
  "$bin/etcd" --data-dir "$dir/etcd" --listen-client-urls "$etcd" --advertise-client-urls "$etcd" \
    --listen-peer-urls "http://127.0.0.1:$((port + 2))" --initial-advertise-peer-urls "http://127.0.0.1:$((port + 2))" \
    --initial-cluster "default=http://127.0.0.1:$((port + 2))" >"$dir/etcd.log" 2>&1 &
  echo $! >"$dir/etcd.pid"
fi
openssl genrsa -out "$dir/sa.key" 2048 2>/dev/null
openssl rsa -in "$dir/sa.key" -pubout -out "$dir/sa.pub" 2>/dev/null
token=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
echo "$token,admin,admin,system:masters" >"$dir/tokens.csv"
"$bin/kube-apiserver" --etcd-servers "$etcd" --bind-address 127.0.0.1 --secure-port "$port" --cert-dir "$dir/certs" \
  --service-account-issuer https://kubernetes.default.svc --service-account-key-file "$dir/sa.pub" \
  --service-account-signing-key-file "$dir/sa.key" --token-auth-file "$dir/tokens.csv" \
  --authorization-mode RBAC --service-cluster-ip-range 10.0.0.0/24 \
  --runtime-config resource.k8s.io/v1=true ${KUBE_APISERVER_FLAGS:-} >"$dir/kube-apiserver.log" 2>&1 &
echo $! >"$dir/kube-apiserver.pid"
cat >"$dir/kubeconfig" <<KUBECONFIG
apiVersion: v1
kind: Config
clusters:
- name: upstream
  cluster: {server: "https://127.0.0.1:$port", insecure-skip-tls-verify: true}
users:
- name: admin
  user: {token: "$token"}
contexts:
- name: upstream
  context: {cluster: upstream, user: admin}
current-context: upstream
KUBECONFIG
ready=
for _ in $(seq 600); do
  ready=$(curl -sk -H "Authorization: Bearer $token" "https://127.0.0.1:$port/readyz" 2>/dev/null) && [ "$ready" = ok ] && break
  sleep 0.1
done
[ "$ready" = ok ] || { echo "kube-apiserver not ready; its log:"; tail -n 20 "$dir/kube-apiserver.log"; exit 1; }
if [ -z "${NO_SCHEDULER:-}" ]; then
  "$bin/kube-scheduler" --kubeconfig "$dir/kubeconfig" --authentication-kubeconfig "$dir/kubeconfig" \
    --authorization-kubeconfig "$dir/kubeconfig" --bind-address 127.0.0.1 --secure-port "$scheduler_port" \
    ${KUBE_SCHEDULER_FLAGS:-} >"$dir/kube-scheduler.log" 2>&1 &
  echo $! >"$dir/kube-scheduler.pid"
fi
echo "up: KUBECONFIG=$dir/kubeconfig (kube-apiserver https://127.0.0.1:$port, etcd $etcd); stop: sh tests/upstream/e2e/stop.sh $dir"
