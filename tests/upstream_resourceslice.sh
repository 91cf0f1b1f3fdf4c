#!/bin/sh
# upstream_resourceslice.sh: upstream's ResourceSlice publishing controller
# (k8s.io/dynamic-resource-allocation/resourceslice v0.37.2, client-go
# informers), as every DRA driver runs it, against dra serve (HTTPS, as it
# starts by default): tests/upstream/cmd/sliceclient publishes a pool,
# adds a device and a pool, removes them, and checks each time that dra
# serve holds what the driver publishes; then a pod with a claim gets one
# of the published devices. Needs Go (and the module proxy on a cold
# cache); without them the test is skipped (exit 77).
dra=${1:-build/dra}
case $dra in /*) ;; *) dra=$(pwd)/$dra ;; esac
name=upstream_resourceslice
. tests/lib/upstream.sh
[ -x "$dra" ] || fail "$dra not built"
build_upstream_tool sliceclient
. tests/lib/serve.sh
serve_https "$tmp/data"
[ -s "$tmp/data/kubeconfig" ] || { cat "$tmp/serve.log"; echo "FAIL dra serve did not start"; exit 1; }
"$out/sliceclient" -kubeconfig "$tmp/data/kubeconfig" >"$tmp/client.out" 2>&1
rc=$?
cat "$tmp/client.out"
check "the controller's slices, their updates and a pod using them" "0 failures" sh -c "[ $rc = 0 ] && tail -n 1 '$tmp/client.out'"
summary
