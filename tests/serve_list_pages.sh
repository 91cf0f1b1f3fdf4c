#!/bin/sh
# Paged and versioned lists of dra serve as kube-apiserver answers them
# (docs/server.md "List and watch"): a walk over pages (?limit=&continue=)
# shows the state of its first page, in the store's order (the text
# "<namespace>/<name>", etcd's: "team-b/..." before "team/..."), whatever
# changes between pages, and every page
# says that state's resourceVersion; with a label selector only the
# matching objects; resourceVersion=0 lists everything whatever the limit;
# resourceVersionMatch=Exact (or a limit with a resourceVersion) lists the
# state then; once the store's history no longer reaches that state, 410
# Expired (a continued list with a token that goes on from the same key on
# the latest state); the ListOptions combinations kube-apiserver refuses
# are refused (422); a watch with sendInitialEvents=false starts with no
# ADDED events.
dra=${1:-build/dra}
. tests/lib/serve.sh
skip_without curl serve_list_pages
serve "$tmp/data"
C=/apis/resource.k8s.io/v1/resourceclaims
NS_C=/apis/resource.k8s.io/v1/namespaces
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
# The changes between the first and the second page (after
# team-b/c00..c02): team-b/c99 is created ahead, team-b/a00 behind, team/c05
# deleted ahead; none of them shows in this walk.
changes() {
  [ $pages = 1 ] || return 0
  claim team-b c99 yes >/dev/null; claim team-b a00 yes >/dev/null
  curl -s -o /dev/null -X DELETE "$url/apis/resource.k8s.io/v1/namespaces/team/resourceclaims/c05"
}
rvs() { grep -o '"resourceVersion":"[0-9]*","continue"' "$tmp/body"; }
walk "limit=3" changes
check "no object twice" "none twice" sh -c "[ -z \"\$(sort '$tmp/walk' | uniq -d)\" ] && echo none twice"
check "the state of the first page, in the store's order: team-b, then team" "team-b/c00 team-b/c01 team-b/c02 team-b/c03 team-b/c04 team-b/c05 team-b/c06 team-b/c07 team-b/c08 team-b/c09 team/c00 team/c01 team/c02 team/c03 team/c04 team/c05 team/c06 team/c07 team/c08 team/c09" \
  sh -c "tr '\n' ' ' <'$tmp/walk'"
check "pages of 3" "7" echo $pages
walk "limit=2&labelSelector=keep%3Dyes"
check "selected, each once, now with the changes" "team-b/a00 team-b/c00 team-b/c02 team-b/c04 team-b/c06 team-b/c08 team-b/c99 team/c00 team/c02 team/c04 team/c06 team/c08" \
  sh -c "tr '\n' ' ' <'$tmp/walk'"
# a whole list without limit is the same objects as the walk without changes
walk "limit=4"
curl -s "$url$C" | grep -o '"metadata":{"name":"[^"]*","namespace":"[^"]*"' | sed 's/.*"name":"\([^"]*\)","namespace":"\([^"]*\)"/\2\/\1/' >"$tmp/all"
check "pages = the whole list" "same" sh -c "cmp -s '$tmp/walk' '$tmp/all' && echo same"
# an old token after later writes: it still shows the state it began with
page "limit=2"
old=$(cat "$tmp/token")
first_rv=$(grep -o '"resourceVersion":"[0-9]*","continue"' "$tmp/body" | cut -d'"' -f4)
curl -s -o /dev/null -X DELETE "$url$NS_C/team-b/resourceclaims/c01"
claim team-b c005 no >/dev/null
page "limit=2" "$old"
check "an old token shows the state it began with" "team-b/c01 team-b/c02 " sh -c "tr '\n' ' ' <'$tmp/page'"
check "its page says that state's resourceVersion" "\"resourceVersion\":\"$first_rv\",\"continue\"" cat "$tmp/body"
check "a bad token is refused" '"code":400' curl -s "$url$C?limit=2&continue=e30"
check "... as kube-apiserver words it" '"message":"invalid continue token: continue key is not valid: ' curl -s "$url$C?limit=2&continue=e30"
# resourceVersion=0 ignores the limit; Exact lists the state then
check "resourceVersion=0: no pages" "21 none" sh -c "curl -s '$url$C?limit=2&resourceVersion=0' >'$tmp/b0'; echo \$(grep -o '\"kind\":\"ResourceClaim\"' '$tmp/b0' | wc -l) \$(grep -q '\"continue\"' '$tmp/b0' && echo continue || echo none)"
check "Exact: the state then (team-b/c01 there, team-b/c005 not)" "team-b/c00 team-b/c01 team-b/c02 team-b/c03" \
  sh -c "curl -s '$url$NS_C/team-b/resourceclaims?resourceVersion=$first_rv&resourceVersionMatch=Exact' | grep -o '\"name\":\"c0[0-9]*\"' | cut -d'\"' -f4 | sed 's/^/team-b\//' | tr '\n' ' '"
check "a resourceVersion with a limit: the state then too" "\"resourceVersion\":\"$first_rv\"" curl -s "$url$C?limit=1&resourceVersion=$first_rv"
check "NotOlderThan: the latest" "\"name\":\"c005\"" curl -s "$url$NS_C/team-b/resourceclaims?resourceVersion=$first_rv&resourceVersionMatch=NotOlderThan"
check "Exact with resourceVersion 0 is refused" 'resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\"' \
  curl -s "$url$C?resourceVersion=0&resourceVersionMatch=Exact"
check "sendInitialEvents on a list is refused" '"code":422' curl -s "$url$C?sendInitialEvents=true"
check "a watch without initial events starts empty" "0" sh -c "curl -s -m 3 '$url$C?watch=1&sendInitialEvents=false&resourceVersionMatch=NotOlderThan&timeoutSeconds=1' | grep -c ADDED"
# remainingItemCount: what follows the page, only without a selector
check "remainingItemCount of a page" '"remainingItemCount":5}' curl -s "$url$NS_C/team/resourceclaims?limit=4"
check "none with a selector" "none" sh -c "curl -s '$url$NS_C/team/resourceclaims?limit=4&labelSelector=keep' | grep -q remainingItemCount || echo none"
check "none on the last page" "none" sh -c "curl -s '$url$NS_C/team/resourceclaims?limit=9' | grep -q remainingItemCount || echo none"
check "and in a Table" '"remainingItemCount":5' curl -s -H 'Accept: application/json;as=Table;v=v1;g=meta.k8s.io' "$url$NS_C/team/resourceclaims?limit=4"
# the store keeps 1,024 events, more while they are young (75 s), at most
# 8,192: over that many writes later it no longer has that state
page "limit=2"
old=$(cat "$tmp/token")
printf '%s' '{"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"generateName":"g-"},"spec":{"devices":{"requests":[{"name":"r","exactly":{"deviceClassName":"gpu"}}]}}}' >"$tmp/g.json"
curl -s -o /dev/null -X DELETE "$url$NS_C/team-b/resourceclaims/c005" # after the token's key: the latest state lacks it
post /api/v1/namespaces '{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"zz"}}' >/dev/null
writes() { curl -s -X POST -H 'Content-Type: application/json' --data-binary @"$tmp/g.json" $(yes "$url$NS_C/zz/resourceclaims" | head -$1) >/dev/null; }
writes 1100
check "1,100 writes later, young: the state is still there" '"kind":"ResourceClaimList"' curl -s "$url$C?limit=2&continue=$old"
writes 7200
curl -s "$url$C?limit=2&continue=$old" >"$tmp/expired"
check "a continue too old: 410 Expired" '"reason":"Expired","code":410' cat "$tmp/expired"
check "... with kube-apiserver's words" "The provided continue parameter is too old to display a consistent list result." cat "$tmp/expired"
inconsistent=$(grep -o '"continue":"[^"]*"' "$tmp/expired" | cut -d'"' -f4)
page "limit=2" "$inconsistent"
check "its token goes on from the same key on the latest state" "team-b/c02 team-b/c03 " sh -c "tr '\n' ' ' <'$tmp/page'"
check "an Exact list too old: 410" "The resourceVersion for the provided list is too old." \
  curl -s "$url$C?resourceVersion=$first_rv&resourceVersionMatch=Exact"
summary
