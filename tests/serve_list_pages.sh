#!/bin/sh
# Paged lists (?limit=&continue=) of dra serve while objects change between
# pages: every page continues after the last key of the one before, in the
# store's order (namespace "team" before "team-b"), so a walk shows each
# object that lives through it exactly once, one created ahead of the walk
# too, and neither one deleted ahead of it nor one created behind it; with
# a label selector only the matching objects, still each once; a token
# stays valid after later writes (dra's pages are read from the current
# state, docs/server.md "List and watch").
dra=${1:-build/dra}
. tests/lib/serve.sh
skip_without curl serve_list_pages
serve "$tmp/data"
C=/apis/resource.k8s.io/v1/resourceclaims
post() { # path, body
  curl -s -o /dev/null -w '%{http_code}' -X POST -H 'Content-Type: application/json' --data-binary "$2" "$url$1"
}
claim() { # namespace, name, label value: 201 when created
  post "/apis/resource.k8s.io/v1/namespaces/$1/resourceclaims" \
    "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\",\"metadata\":{\"name\":\"$2\",\"labels\":{\"keep\":\"$3\"}},\"spec\":{\"devices\":{\"requests\":[{\"name\":\"r\",\"exactly\":{\"deviceClassName\":\"gpu\"}}]}}}"
}
for ns in team team-b; do post /api/v1/namespaces "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"$ns\"}}" >/dev/null; done
created=0
for ns in team team-b; do
  for i in 0 1 2 3 4 5 6 7 8 9; do
    [ $((i % 2)) = 0 ] && keep=yes || keep=no
    [ "$(claim $ns c0$i $keep)" = 201 ] && created=$((created+1))
  done
done
check "20 claims created" "20" echo $created
# page QUERY CONTINUE: one page's "namespace/name" lines into $tmp/page, its token into $tmp/token
page() {
  curl -s "$url$C?$1${2:+&continue=$2}" >"$tmp/body"
  grep -o '"metadata":{"name":"[^"]*","namespace":"[^"]*"' "$tmp/body" | sed 's/.*"name":"\([^"]*\)","namespace":"\([^"]*\)"/\2\/\1/' >"$tmp/page"
  grep -o '"continue":"[^"]*"' "$tmp/body" | cut -d'"' -f4 >"$tmp/token"
}
# walk QUERY [between-pages command]: every page's lines into $tmp/walk
walk() {
  : >"$tmp/walk"; token=; pages=0
  while :; do
    page "$1" "$token"
    cat "$tmp/page" >>"$tmp/walk"
    pages=$((pages+1)); token=$(cat "$tmp/token")
    [ -z "$token" ] || [ $pages -gt 30 ] && break
    [ -n "${2:-}" ] && eval "$2"
  done
}
# The changes between the first and the second page (after team/c00..c02):
# team/c99 is created ahead, team/a00 behind, team-b/c05 deleted ahead.
changes() {
  [ $pages = 1 ] || return 0
  claim team c99 yes >/dev/null; claim team a00 yes >/dev/null
  curl -s -o /dev/null -X DELETE "$url/apis/resource.k8s.io/v1/namespaces/team-b/resourceclaims/c05"
}
walk "limit=3" changes
check "no object twice" "none twice" sh -c "[ -z \"\$(sort '$tmp/walk' | uniq -d)\" ] && echo none twice"
check "in the store's order: team, then team-b" "team/c00 team/c01 team/c02 team/c03 team/c04 team/c05 team/c06 team/c07 team/c08 team/c09 team/c99 team-b/c00 team-b/c01 team-b/c02 team-b/c03 team-b/c04 team-b/c06 team-b/c07 team-b/c08 team-b/c09" \
  sh -c "tr '\n' ' ' <'$tmp/walk'"
check "pages of 3" "7" echo $pages
walk "limit=2&labelSelector=keep%3Dyes"
check "selected, each once" "team/a00 team/c00 team/c02 team/c04 team/c06 team/c08 team/c99 team-b/c00 team-b/c02 team-b/c04 team-b/c06 team-b/c08" \
  sh -c "tr '\n' ' ' <'$tmp/walk'"
# a whole list without limit is the same objects as the walk without changes
walk "limit=4"
curl -s "$url$C" | grep -o '"metadata":{"name":"[^"]*","namespace":"[^"]*"' | sed 's/.*"name":"\([^"]*\)","namespace":"\([^"]*\)"/\2\/\1/' >"$tmp/all"
check "pages = the whole list" "same" sh -c "cmp -s '$tmp/walk' '$tmp/all' && echo same"
# an old token after later writes: it still continues after its key
page "limit=2"
old=$(cat "$tmp/token")
claim team c98 no >/dev/null
page "limit=2" "$old"
check "an old token continues after its key" "team/c01 team/c02 " sh -c "tr '\n' ' ' <'$tmp/page'"
check "a bad token is refused" '"code":400' curl -s "$url$C?limit=2&continue=e30"
summary
