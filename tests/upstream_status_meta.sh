#!/bin/sh
# upstream_status_meta.sh: the checks of serve_status_meta.sh
# (tests/lib/status_meta.sh) on a real kube-apiserver 1.37, so that what
# they expect of dra serve is what upstream does (issue 12).
# Skipped (77) without build/upstream/etcd and kube-apiserver (make
# upstream-e2e), kubectl, python3, curl or openssl.
dra=${1:-build/dra}
case $dra in /*) ;; *) dra=$(pwd)/$dra ;; esac
. tests/lib/serve.sh
. tests/lib/kube_apiserver.sh
. tests/lib/status_meta.sh
upstream_setup upstream_status_meta kube-apiserver
start_kube_apiserver "$ka" "$etcd_url" || { echo "FAIL kube-apiserver did not start"; exit 1; }
kubectl --kubeconfig "$ka/kubeconfig" create namespace sm >/dev/null
kubectl --kubeconfig "$ka/kubeconfig" create serviceaccount default -n sm >/dev/null # kube-controller-manager's part
status_meta_checks kube-apiserver "--kubeconfig $ka/kubeconfig"
summary
