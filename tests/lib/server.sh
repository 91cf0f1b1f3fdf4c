# tests/lib/server.sh: sourced by the tests that talk to `dra serve`.
# start_server DRA DATA_DIR [FLAGS...]: starts the server on a free loopback
# port with DATA_DIR, waits for its kubeconfig, and sets $server (the pid)
# and $url (http://127.0.0.1:PORT). stop_server: kills it and waits.
start_server() {
  _dra=$1; _dir=$2; shift 2
  rm -f "$_dir/kubeconfig"
  "$_dra" serve --listen 127.0.0.1:0 --data-dir "$_dir" "$@" >"$_dir.log" 2>&1 &
  server=$!
  for _i in $(seq 200); do [ -s "$_dir/kubeconfig" ] && break; sleep 0.05; done
  url=$(sed -n 's/.*server: //p' "$_dir/kubeconfig")
}
stop_server() {
  kill "$server" 2>/dev/null
  wait "$server" 2>/dev/null
}
