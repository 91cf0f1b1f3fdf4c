#!/bin/sh
# backup.sh: `dra backup` while a load writes, `dra restore`, and dra serve
# on the restored store (docs/store.md "Backup and restore"). A writer
# creates PodTemplates pt-1, pt-2, ... one after another and notes each
# acknowledged create with its resourceVersion; the backup is taken while
# it runs. On the restored store: every create acknowledged before the
# backup began is there, and what is there is a prefix pt-1..pt-k of the
# creates (a consistent cut): for SQLite exactly the creates at or below
# the resourceVersion the backup reports. Also: a backup of a data dir is
# one SQLite file; restore refuses a non-empty directory and a wrong
# target; --bump-revision raises the restored revision; a damaged etcd
# snapshot is refused. The SQLite part runs always; the etcd part is
# skipped (exit 77) without build/upstream/etcd (and its restore without
# build/upstream/etcdutl; both from `make etcd`).
dra=${1:-build/dra}
case $dra in /*) ;; *) dra=$(pwd)/$dra ;; esac
. tests/lib/serve.sh
. tests/lib/etcd.sh
writer=
stop_writer() { [ -z "$writer" ] || { kill "$writer" 2>/dev/null; wait "$writer" 2>/dev/null; writer=; }; }
cleanup='stop_writer; stop_etcd'
skip_without curl backup

# Creates pt-1, pt-2, ... on $url until killed; "i rv" into $1 once acknowledged.
start_writer() { # log file
  : >"$1"
  (
    i=1
    while :; do
      out=$(curl -sf --max-time 10 -H 'Content-Type: application/json' "$url/api/v1/namespaces/default/podtemplates" \
        -d "{\"apiVersion\":\"v1\",\"kind\":\"PodTemplate\",\"metadata\":{\"name\":\"pt-$i\"},\"template\":{\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"busybox\"}]}}}") &&
        echo "$i $(printf '%s' "$out" | sed -n 's/.*"resourceVersion":"\([0-9]*\)".*/\1/p')" >>"$1"
      i=$((i + 1))
    done
  ) &
  writer=$!
}
without_etcdutl() { (PATH=/usr/bin:/bin; dra_cli "$@"); }
wait_lines() { # file, n: until file has n lines
  for _ in $(seq 300); do [ "$(wc -l <"$1")" -ge "$2" ] && return 0; sleep 0.05; done
  return 1
}
# The numbers i of the PodTemplates pt-i served at $url, sorted.
served() { curl -sf "$url/api/v1/namespaces/default/podtemplates" | grep -o '"name":"pt-[0-9]*"' | tr -dc '0-9\n' | sort -n; }
# "prefix k" when the numbers on stdin are 1..k without a gap.
prefix() { awk '$1 != NR { print "gap at " NR; bad = 1; exit } END { if (!bad) print "prefix " NR }'; }
# Numbers in file a (first column) not in the list b.
missing() { awk 'NR == FNR { have[$1] = 1; next } !($1 in have) { print $1 }' "$2" "$1"; }

# The acknowledged creates before the backup began (before.txt), the backup
# (its output in backup.out), and the stop of the writer.
backup_under_load() { # backup flags...
  start_writer "$tmp/acked.txt"
  wait_lines "$tmp/acked.txt" 30
  cp "$tmp/acked.txt" "$tmp/before.txt"
  dra_cli backup "$@" >"$tmp/backup.out"
  backup_rc=$?
  wait_lines "$tmp/acked.txt" $(($(wc -l <"$tmp/before.txt") + 10))
  stop_writer
}
# The checks on the restored store served at $url.
check_restored() { # label
  served >"$tmp/restored.txt"
  echo "$1: $(wc -l <"$tmp/before.txt") creates acknowledged before the backup, $(wc -l <"$tmp/acked.txt") in all, $(wc -l <"$tmp/restored.txt") restored"
  check "$1: the restored creates are a prefix pt-1..pt-k" "prefix" prefix <"$tmp/restored.txt"
  check "$1: every create acknowledged before the backup began is restored" "missing: ." \
    echo "missing: $(missing "$tmp/before.txt" "$tmp/restored.txt" | tr '\n' ' ')."
  check "$1: the writer went on after the backup (the server kept serving)" "more: yes" \
    echo "more: $([ "$(wc -l <"$tmp/acked.txt")" -gt "$(wc -l <"$tmp/before.txt")" ] && echo yes)"
}

# ---- SQLite: a data dir ----
serve "$tmp/a"
backup_under_load --data-dir "$tmp/a" --to "$tmp/a.backup"
check "backup of a served data dir" "dra backup: copied" cat "$tmp/backup.out"
check "backup exit status" "rc=0" echo "rc=$backup_rc"
rv=$(sed -n 's/.*at resourceVersion \([0-9]*\) .*/\1/p' "$tmp/backup.out")
# bytes 18 and 19 of a SQLite file: 1 1 in a rollback journal mode (DELETE), 2 2 in WAL
check "the backup is one SQLite file in journal mode delete" "mode 1 1" \
  sh -c "printf 'mode'; od -An -tu1 -j18 -N2 '$tmp/a.backup' | tr -s ' '"
check "the served file is in WAL mode" "mode 2 2" sh -c "printf 'mode'; od -An -tu1 -j18 -N2 '$tmp/a/dra.db' | tr -s ' '"
check "the backup has no -wal file" "no wal" sh -c "[ -e '$tmp/a.backup-wal' ] && echo wal || echo no wal"
kill $server; wait $server 2>/dev/null; server=

mkdir -p "$tmp/full" && touch "$tmp/full/x"
check "restore refuses a non-empty directory" "exists and is not empty" dra_cli restore --from "$tmp/a.backup" --data-dir "$tmp/full"
check "restore of a data dir backup wants --data-dir" "restore it with --data-dir" \
  dra_cli restore --from "$tmp/a.backup" --etcd-data-dir "$tmp/e"
check "restore refuses a file that is no backup" "neither a backup" dra_cli restore --from "$tmp/full/x" --data-dir "$tmp/y"
check "restore into a new dir" "resourceVersion $((rv + 1000))" \
  dra_cli restore --from "$tmp/a.backup" --data-dir "$tmp/b" --bump-revision 1000
serve "$tmp/b"
check_restored sqlite
# exactly the creates at or below the backup's resourceVersion
awk -v rv="$rv" '$2 != "" && $2 <= rv { print $1 }' "$tmp/acked.txt" | sort -n >"$tmp/upto.txt"
check "sqlite: the restored creates are those at or below the backup's resourceVersion $rv" "same" \
  sh -c "cmp -s '$tmp/upto.txt' '$tmp/restored.txt' && echo same || { echo differ; diff '$tmp/upto.txt' '$tmp/restored.txt' | head; }"
list_rv=$(curl -sf "$url/api/v1/namespaces/default/podtemplates" | sed -n 's/^[^[]*"resourceVersion":"\([0-9]*\)".*/\1/p')
check "sqlite: --bump-revision 1000 raises the served revision" "bumped" \
  sh -c "[ '$list_rv' -ge $((rv + 1000)) ] && echo bumped || echo 'not bumped: $list_rv'"
kill $server; wait $server 2>/dev/null; server=

# ---- etcd: a snapshot ----
if start_etcd_part backup; then
  etcdutl=$(dirname "$etcd_bin")/etcdutl
  [ -x "$etcdutl" ] || etcdutl=$(dirname "$dra")/upstream/etcdutl # another etcd (DRA_TEST_ETCD) without one
  serve "$tmp/c" --etcd-servers "$etcd_url" --etcd-compaction-interval 0
  backup_under_load --etcd-servers "$etcd_url" --to "$tmp/etcd.snapshot"
  check "etcd snapshot while serving" "sha256 checked" cat "$tmp/backup.out"
  kill $server; wait $server 2>/dev/null; server=
  cp "$tmp/etcd.snapshot" "$tmp/damaged.snapshot"
  printf 'x' | dd of="$tmp/damaged.snapshot" bs=1 seek=5000 conv=notrunc 2>/dev/null
  check "restore refuses a damaged snapshot" "does not match" dra_cli restore --from "$tmp/damaged.snapshot" --etcd-data-dir "$tmp/r/etcd"
  check "restore without etcdutl prints the command" "snapshot restore $tmp/etcd.snapshot --data-dir $tmp/r/etcd" \
    without_etcdutl restore --from "$tmp/etcd.snapshot" --etcd-data-dir "$tmp/r/etcd"
  if [ ! -x "$etcdutl" ]; then
    echo "backup: etcd restore skipped: no build/upstream/etcdutl (make etcd builds it)"
    skipped=$((skipped + 1))
  else
    port=${etcd_url##*:}
    stop_etcd
    peer=http://127.0.0.1:$((port + 1))
    check "restore an etcd snapshot with etcdutl" "restored the etcd snapshot" \
      dra_cli restore --from "$tmp/etcd.snapshot" --etcd-data-dir "$tmp/r/etcd" --etcdutl "$etcdutl" \
      --name default --initial-cluster "default=$peer" --initial-advertise-peer-urls "$peer" --bump-revision 1000
    if etcd_keep_data=1 start_etcd_at "$tmp/r" "$port"; then
      serve "$tmp/c" --etcd-servers "$etcd_url" --etcd-compaction-interval 0
      check_restored etcd
      kill $server; wait $server 2>/dev/null; server=
    else
      failed=$((failed + 1)); echo "FAIL etcd on the restored member did not start: $(tail -n 3 "$tmp/r/etcd.log")"
    fi
  fi
fi
summary
