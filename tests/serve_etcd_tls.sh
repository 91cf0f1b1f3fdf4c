#!/bin/sh
# serve_etcd_tls.sh: `dra serve --etcd-servers https://...` with
# --etcd-cafile, --etcd-certfile and --etcd-keyfile, against an etcd of
# `make etcd` that serves TLS and demands client certificates
# (--client-cert-auth): objects are written and read back; without the
# client certificate dra serve cannot start and says why.
# Skipped (exit 77) without build/upstream/etcd (`make etcd`), kubectl,
# curl or openssl.
dra=${1:-build/dra}
case $dra in /*) ;; *) dra=$(pwd)/$dra ;; esac
. tests/lib/serve.sh
skip_without openssl serve_etcd_tls
. tests/lib/etcd.sh
cleanup=stop_etcd
pki=$tmp/pki
mkdir -p "$pki"
cert() { # name, CN, extensions: a key and a certificate signed by the test CA
  openssl req -new -newkey rsa:2048 -nodes -keyout "$pki/$1.key" -subj "/CN=$2" -out "$pki/$1.csr" 2>/dev/null
  printf '%s\n' "$3" >"$pki/$1.ext"
  openssl x509 -req -in "$pki/$1.csr" -CA "$pki/ca.crt" -CAkey "$pki/ca.key" -CAcreateserial -days 1 \
    -extfile "$pki/$1.ext" -out "$pki/$1.crt" 2>/dev/null
}
openssl req -x509 -new -newkey rsa:2048 -nodes -keyout "$pki/ca.key" -subj "/CN=etcd-test-ca" -days 1 \
  -out "$pki/ca.crt" 2>/dev/null
cert server 127.0.0.1 "subjectAltName=IP:127.0.0.1
extendedKeyUsage=serverAuth,clientAuth" # etcd's gateway dials its own gRPC with it
cert client dra "extendedKeyUsage=clientAuth"
etcd_scheme=https
etcd_tls_flags="--cert-file $pki/server.crt --key-file $pki/server.key --client-cert-auth --trusted-ca-file $pki/ca.crt"
etcd_curl_flags="--cacert $pki/ca.crt --cert $pki/client.crt --key $pki/client.key"
serve_on_etcd_setup serve_etcd_tls

check "without a client certificate" 'error: ' sh -c "'$dra' serve --insecure-http --listen 127.0.0.1:0 --data-dir '$tmp/x' --etcd-servers '$etcd_url' --etcd-cafile '$pki/ca.crt' 2>&1"
serve "$tmp/d" --etcd-servers "$etcd_url" --etcd-cafile "$pki/ca.crt" --etcd-certfile "$pki/client.crt" \
  --etcd-keyfile "$pki/client.key"
k() { kubectl --kubeconfig "$tmp/d/kubeconfig" "$@"; }
check "create over TLS" 'deviceclass.resource.k8s.io/gpu created' sh -c "printf '%s' '{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"DeviceClass\",\"metadata\":{\"name\":\"gpu\"}}' | kubectl --kubeconfig $tmp/d/kubeconfig create -f -"
check "read back" 'gpu' k get deviceclass gpu -o name
# shellcheck disable=SC2086
check "in etcd" "\"count\":\"1\"" curl -s $etcd_curl_flags "$etcd_url/v3/kv/range" -d "{\"key\":\"$(printf /registry/deviceclasses/gpu | base64 -w0)\"}"
summary
