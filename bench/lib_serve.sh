# bench/lib_serve.sh: what the dra serve benchmarks share, sourced after
# setting build: a `dra serve` over plain HTTP on a free loopback port with
# a fresh data dir ($tmp), stopped and removed on exit; sets tmp, server
# (its pid) and addr (host:port).
tmp=$(mktemp -d)
"$build/dra" serve --insecure-http --listen 127.0.0.1:0 --data-dir "$tmp" >"$tmp/log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$tmp"' EXIT
for i in $(seq 100); do [ -s "$tmp/kubeconfig" ] && break; sleep 0.05; done
addr=$(sed -n 's|.*server: http://||p' "$tmp/kubeconfig")
