# bench/lib_serve.sh: what the dra serve benchmarks share, sourced after
# setting build: a `dra serve` over plain HTTP on a free loopback port with
# a fresh data dir ($tmp), stopped and removed on exit; sets tmp, server
# (its pid) and addr (host:port). DRA_SERVE_FLAGS are added to its flags
# (e.g. --etcd-servers URL: the benchmark on etcd, bench/etcd.sh).
# $serve_wrap, when set, is a command the server runs under (e.g.
# valgrind), so the wait for it is long.
tmp=$(mktemp -d)
$serve_wrap "$build/dra" serve --insecure-http --listen 127.0.0.1:0 --data-dir "$tmp" $DRA_SERVE_FLAGS >"$tmp/log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$tmp"' EXIT
for i in $(seq 1200); do [ -s "$tmp/kubeconfig" ] && break; sleep 0.05; done
addr=$(sed -n 's|.*server: http://||p' "$tmp/kubeconfig")
