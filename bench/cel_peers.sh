#!/bin/sh
# cel_peers.sh: dra's CEL selectors against the JS peers @bufbuild/cel and
# @marcbachmann/cel-js (Node.js), on the selectors all three support natively
# (driver, driver+attribute, list membership) and the same devices (the
# shape bench_cel.c makes; bench/cel_peers/bench.mjs builds it in JS), in one
# run. Prints ns per evaluation of each, the time ratio dra/peer, and whether
# dra's driver+attribute selector is at least 10x faster than the faster peer.
# npm is for this benchmark only: `npm ci` of the locked versions in a temp
# copy; skipped (exit 77, as the tests skip) when node/npm or the install are
# unavailable.
# usage: sh bench/cel_peers.sh [build-dir] [devices]
set -e
build=${1:-build}
n=${2:-100000}
src=$(dirname "$0")/cel_peers
command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || { echo "cel_peers: skipped: node/npm not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$src"/package.json "$src"/package-lock.json "$src"/bench.mjs "$work"/
(cd "$work" && npm ci --prefer-offline --no-audit --no-fund >npm.log 2>&1) ||
  { echo "cel_peers: skipped: npm ci failed (offline?)"; exit 77; }
echo "== dra (bench_cel, $n devices)"
"$build"/bench_cel "$n" | tee "$work"/dra.txt
echo "== JS peers (node $(node --version), $n devices)"
node "$work"/bench.mjs "$n" | tee "$work"/peers.tsv
# bench_cel's table: selector name in the first 18 columns, then matches, ns/eval.
awk -v OFS='\t' 'NR > 1 { name = substr($0, 1, 18); sub(/ +$/, "", name); split(substr($0, 19), f, " "); print name, f[1], f[2] }' \
  "$work"/dra.txt >"$work"/dra.tsv
echo "== dra / peer (time per evaluation; below 1: dra faster)"
awk -F'\t' '
  FNR == NR { matches[$1] = $2; ns[$1] = $3; next }
  ($2 in ns) {
    if ($3 != matches[$2]) { printf "%s: %s matches %s, dra %s: not the same devices\n", $1, $2, $3, matches[$2]; bad = 1 }
    printf "%-18s %-22s dra %8.1f ns  peer %9.1f ns  dra/peer %.4f  (dra %.1fx faster)\n", $2, $1, ns[$2], $4, ns[$2] / $4, $4 / ns[$2]
    if (!($2 in best) || $4 < best[$2]) { best[$2] = $4; bestpeer[$2] = $1 }
  }
  END {
    s = "driver+attribute"
    x = best[s] / ns[s]
    printf "target: %s at least 10x faster than the faster peer (%s): %.1fx, %s\n", s, bestpeer[s], x, (x >= 10 ? "met" : "NOT met")
    exit bad
  }' "$work"/dra.tsv "$work"/peers.tsv
