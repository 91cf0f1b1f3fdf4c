# tests/lib/kube_apiserver.sh: the real kube-apiserver 1.37 of `make
# upstream-e2e` for tests that compare it with dra serve, started by
# tests/upstream/e2e/start.sh on an etcd the test already runs. Source it
# after tests/lib/serve.sh (dra and tmp set), then
#   upstream_setup NAME BINARY...: skips (77) without kubectl, python3,
#     curl, openssl, the etcd of `make etcd` or the BINARYs; starts etcd in
#     $tmp (etcd_url) and sets ka, the directory for kube-apiserver, and
#     cleanup, which stops both;
#   find_upstream BINARY...: sets upstream_bin to the directory holding them
#     (upstream/ next to dra, else build/upstream); skips (77) without them;
#   start_kube_apiserver DIR ETCD_URL [with-scheduler]: kube-apiserver with
#     its state in DIR, storing JSON (--storage-media-type=application/json)
#     with dra's DRA gates and API versions on (and kube-scheduler with the
#     gates); KUBECONFIG for it in DIR/kubeconfig; false (its log printed)
#     when it does not come up;
#   stop_kube_apiserver DIR: stops it (tests/upstream/e2e/stop.sh);
#   observe_both SCRIPT [KEEP]: kube-apiserver (in $ka) and a dra serve up,
#     runs the Python SCRIPT against each (URL [TOKEN]) into $tmp/kube.out
#     and $tmp/dra.out, and copies them to KEEP and KEEP.dra when given;
#   same_observations KNOWN: checks that dra printed each line
#     kube-apiserver did, but those whose name (before ": ") is a line of
#     the file KNOWN, and no more lines.
# upstream_gates are the DRA feature gates dra turns on, as 1.37 names them.
upstream_gates=DRAAdminAccess=true,DRAPrioritizedList=true,DRADeviceTaints=true,DRADeviceTaintRules=true
upstream_gates=$upstream_gates,DRAPartitionableDevices=true,DRAConsumableCapacity=true,DRADeviceBindingConditions=true
upstream_gates=$upstream_gates,DRAResourceClaimDeviceStatus=true,DRAListTypeAttributes=true,DRADerivedAttributes=true
upstream_gates=$upstream_gates,DRAExtendedResource=true,DRAWorkloadResourceClaims=true,GenericWorkload=true
find_upstream() { # binaries
  upstream_bin=$(dirname "$dra")/upstream
  for b in "$@"; do [ -x "$upstream_bin/$b" ] || upstream_bin=$(pwd)/build/upstream; done
  for b in "$@"; do [ -x "$upstream_bin/$b" ] || skip "$name" "$upstream_bin/$b not built (make upstream-e2e)"; done
}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
start_kube_apiserver() { # dir, etcd url[, with-scheduler]
  mkdir -p "$1"
  no_scheduler=1
  [ "${3:-}" = with-scheduler ] && no_scheduler=
  # each port found free on its own: the one after a free port may be taken
  ETCD_SERVERS=$2 NO_SCHEDULER=$no_scheduler PORT=$(free_port) SCHEDULER_PORT=$(free_port) KUBE_SCHEDULER_FLAGS="--feature-gates=$upstream_gates" \
    KUBE_APISERVER_FLAGS="--storage-media-type=application/json --feature-gates=$upstream_gates --runtime-config=resource.k8s.io/v1beta2=true,scheduling.k8s.io/v1beta1=true" \
    sh tests/upstream/e2e/start.sh "$upstream_bin" "$1" >"$1/start.out" 2>&1 || { cat "$1/start.out"; return 1; }
}
stop_kube_apiserver() { sh tests/upstream/e2e/stop.sh "$1"; }
observe_both() { # script, file to keep the observations in (may be empty)
  start_kube_apiserver "$ka" "$etcd_url" || { echo "FAIL kube-apiserver did not start"; exit 1; }
  serve "$tmp/dra"
  ka_url=$(sed -n 's/.*server: "\([^"]*\)".*/\1/p' "$ka/kubeconfig")
  python3 "$1" "$ka_url" "$(cut -d, -f1 "$ka/tokens.csv")" >"$tmp/kube.out" 2>&1
  python3 "$1" "$url" >"$tmp/dra.out" 2>&1
  [ -z "${2:-}" ] || { cp "$tmp/kube.out" "$2" && cp "$tmp/dra.out" "$2.dra"; }
}
same_observations() { # file of observation names passed over
  while IFS= read -r line; do
    what=${line%%: *}
    if grep -qxF "$what" "$1"; then
      echo "known: $what"
      continue
    fi
    check "the same as kube-apiserver: $what" "$line" cat "$tmp/dra.out"
  done <"$tmp/kube.out"
  check "no observation more" "$(wc -l <"$tmp/kube.out")" sh -c "wc -l <'$tmp/dra.out'"
}
. tests/lib/etcd.sh
upstream_setup() { # test name, binaries
  name=$1
  shift
  for tool in kubectl python3 curl openssl; do skip_without $tool "$name"; done
  find_etcd || skip "$name" "no build/upstream/etcd (make etcd builds it)"
  find_upstream "$@"
  start_etcd_free "$tmp" || skip "$name" "etcd did not start: $(tail -n 3 "$tmp/etcd.log")"
  ka=$tmp/kube-apiserver
  cleanup='[ -f "$ka/kube-apiserver.pid" ] && stop_kube_apiserver "$ka"; stop_etcd'
}
