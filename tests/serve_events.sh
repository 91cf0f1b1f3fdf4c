#!/bin/sh
# The Event is one stored resource served in two groups, as kube-apiserver
# serves it (docs/server.md, "One Event in two groups"): an Event created
# through events.k8s.io/v1 shows in core v1 lists, `kubectl describe pod`
# and watches, and the reverse, each converted to its group's fields; field
# selectors and validation follow the group of the request.
dra=${1:-build/dra}
. tests/lib/serve.sh
skip_without kubectl serve_events
skip_without curl serve_events
serve "$tmp/data"
export KUBECONFIG="$tmp/data/kubeconfig"
check "pod" "pod/p created" kubectl_doc create '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"default"},"spec":{"containers":[{"name":"c","image":"x"}]}}'
uid=$(kubectl get pod p -o jsonpath='{.metadata.uid}')
ref='"kind":"Pod","namespace":"default","name":"p","uid":"'$uid'","apiVersion":"v1"'
rv=$(kubectl get --raw /apis/events.k8s.io/v1/namespaces/default/events | sed -n 's/.*"resourceVersion":"\([0-9]*\)".*/\1/p')
described_events() { kubectl describe pod p | sed -n '/^Events:/,$p' | tr -s ' '; } # the ages vary: not checked

# events.k8s.io/v1 -> core v1
check "events.k8s.io create" "event.events.k8s.io/bound created" kubectl_doc create '{"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"bound","namespace":"default"},"eventTime":"2026-12-01T10:00:00.000000Z","reportingController":"example.com/scheduler","reportingInstance":"sched-1","action":"Binding","reason":"Scheduled","type":"Normal","note":"Successfully assigned default/p","regarding":{'"$ref"'}}'
check "core list shows it" "Normal   Scheduled   pod/p    Successfully assigned default/p" kubectl get events --field-selector involvedObject.name=p,reason=Scheduled
check "core fields" "v1|Successfully assigned default/p|p|example.com/scheduler|sched-1|Binding|" \
  kubectl get events bound -o jsonpath='{.apiVersion}|{.message}|{.involvedObject.name}|{.reportingComponent}|{.reportingInstance}|{.action}|{.count}'
check "describe pod shows it" "Normal Scheduled " described_events
check "describe pod: from, message" " example.com/scheduler Successfully assigned default/p" described_events

# core v1 -> events.k8s.io/v1
check "core create" "event/pulled created" kubectl_doc create '{"apiVersion":"v1","kind":"Event","metadata":{"name":"pulled","namespace":"default"},"involvedObject":{'"$ref"',"fieldPath":"spec.containers{c}"},"reason":"Pulled","message":"Container image \"x\" already present","type":"Normal","source":{"component":"kubelet","host":"node-1"},"firstTimestamp":"2026-12-01T10:00:01Z","lastTimestamp":"2026-12-01T10:00:05Z","count":2}'
check "events.k8s.io fields" 'events.k8s.io/v1|Container image "x" already present|p|spec.containers{c}|kubelet|node-1|2|2026-12-01T10:00:01Z|' \
  kubectl get events.events.k8s.io pulled -o jsonpath='{.apiVersion}|{.note}|{.regarding.name}|{.regarding.fieldPath}|{.deprecatedSource.component}|{.deprecatedSource.host}|{.deprecatedCount}|{.deprecatedFirstTimestamp}|{.message}'
check "events.k8s.io list shows it" "Normal   Pulled   pod/p    Container image \"x\" already present" kubectl get events.events.k8s.io --field-selector regarding.name=p,reason=Pulled
check "describe pod shows both" "Normal Pulled "  described_events
check "describe pod: count, from, message" "(x2 over " described_events
# kubectl 1.37 puts the fieldPath before the message ("spec.containers{c}: ..."), 1.32 does not
check "describe pod: from of the core Event" " kubelet " described_events
check "describe pod: message of the core Event" "Container image \"x\" already present" described_events
check "one list, two groups" "bound pulled" sh -c "kubectl get events.events.k8s.io --field-selector regarding.uid=$uid,type=Normal -o jsonpath='{.items[*].metadata.name}'"
check "watch through events.k8s.io sees both" '"note":"Successfully assigned default/p"|"note":"Container image \"x\" already present"' \
  sh -c "kubectl get --raw '/apis/events.k8s.io/v1/namespaces/default/events?watch=1&timeoutSeconds=1&resourceVersion=$rv' | grep -o '\"note\":\"[^\"]*\\(\\\\\"[^\"]*\\)*\"' | tr '\n' '|'"
check "watch through core sees both" '"message":"Successfully assigned default/p"' \
  kubectl get --raw "/api/v1/namespaces/default/events?watch=1&timeoutSeconds=1&resourceVersion=$rv"
check "stored once" "events.k8s.io/v1 events: 2, v1 events: 2" sh -c "echo events.k8s.io/v1 events: \$(kubectl get events.events.k8s.io --field-selector regarding.name=p,type=Normal -o name | wc -l), v1 events: \$(kubectl get events --field-selector involvedObject.name=p,type=Normal -o name | wc -l)"

# field labels of each group
check "events.k8s.io labels" "field label not supported: involvedObject.name" kubectl get events.events.k8s.io --field-selector involvedObject.name=p
check "core labels" "field label not supported: regarding.name" kubectl get events --field-selector regarding.name=p
check "events.k8s.io reportingController label" "bound" kubectl get events.events.k8s.io --field-selector reportingController=example.com/scheduler -o name

# validation by the request's group (pkg/apis/core/validation events.go)
new='"eventTime":"2026-12-01T10:00:00.000000Z","reportingInstance":"i","action":"A","reason":"R","type":"Normal","regarding":{'"$ref"'}'
check "events.k8s.io: reportingController" "reportingController: Required value" kubectl_doc create '{"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"x1","namespace":"default"},'"$new"'}'
check "core: reportingComponent" "reportingComponent: Required value" kubectl_doc create '{"apiVersion":"v1","kind":"Event","metadata":{"name":"x2","namespace":"default"},"eventTime":"2026-12-01T10:00:00.000000Z","reportingInstance":"i","action":"A","reason":"R","type":"Normal","involvedObject":{'"$ref"'}}'
check "core: no eventTime is legacy" "event/old created" kubectl_doc create '{"apiVersion":"v1","kind":"Event","metadata":{"name":"old","namespace":"default"},"reason":"R","involvedObject":{'"$ref"'}}'
check "events.k8s.io: eventTime required" "eventTime: Required value" kubectl_doc create '{"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"x3","namespace":"default"},"reason":"R","type":"Normal","regarding":{'"$ref"'}}'
check "events.k8s.io: core names unknown" 'unknown field "involvedObject"' kubectl_doc create '{"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"x4","namespace":"default"},"involvedObject":{}}'
check "events.k8s.io update: immutable" 'message: Invalid value: "changed": field is immutable' kubectl patch events.events.k8s.io bound --type=merge -p '{"note":"changed"}'
# every field ValidateEventUpdate holds, in its order, valued as kube-apiserver 1.37 renders them
ev2='{"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"e2","namespace":"default"},"eventTime":"2026-12-02T08:00:00.123456Z","reportingController":"example.com/ctl","reportingInstance":"i1","action":"Act","reason":"R","note":"hello","type":"Normal","regarding":{"kind":"Pod","namespace":"default","name":"p","uid":"u1","apiVersion":"v1"}}'
ev2_changed='{"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"e2","namespace":"default"},"eventTime":"2026-12-02T08:00:01.500000Z","reportingController":"example.com/ctl2","reportingInstance":"i2","action":"Act2","reason":"R2","note":"hello2","type":"Warning","regarding":{"kind":"Pod","namespace":"default","name":"p2","uid":"u1","apiVersion":"v1"},"related":{"kind":"Node","name":"n"},"deprecatedSource":{"component":"c","host":"h"},"deprecatedFirstTimestamp":"2026-12-02T08:00:00Z","deprecatedLastTimestamp":"2026-12-02T08:00:05Z","deprecatedCount":3}'
check "events.k8s.io e2" "event.events.k8s.io/e2 created" kubectl_doc create "$ev2"
check "events.k8s.io update: all immutable" 'Event \"e2\" is invalid: [involvedObject: Invalid value: {\"Kind\":\"Pod\",\"Namespace\":\"default\",\"Name\":\"p2\",\"UID\":\"u1\",\"APIVersion\":\"v1\",\"ResourceVersion\":\"\",\"FieldPath\":\"\"}: field is immutable, reason: Invalid value: \"R2\": field is immutable, message: Invalid value: \"hello2\": field is immutable, source: Invalid value: {\"Component\":\"c\",\"Host\":\"h\"}: field is immutable, firstTimestamp: Invalid value: \"2026-12-02T08:00:00Z\": field is immutable, lastTimestamp: Invalid value: \"2026-12-02T08:00:05Z\": field is immutable, count: Invalid value: 3: field is immutable, type: Invalid value: \"Warning\": field is immutable, eventTime: Invalid value: \"2026-12-02T08:00:01.500000Z\": field is immutable, action: Invalid value: \"Act2\": field is immutable, related: Invalid value: {\"Kind\":\"Node\",\"Namespace\":\"\",\"Name\":\"n\",\"UID\":\"\",\"APIVersion\":\"\",\"ResourceVersion\":\"\",\"FieldPath\":\"\"}: field is immutable, reportingController: Invalid value: \"example.com/ctl2\": field is immutable, reportingInstance: Invalid value: \"i2\": field is immutable]' \
  curl -s -X PUT -H 'Content-Type: application/json' "$url/apis/events.k8s.io/v1/namespaces/default/events/e2" -d "$ev2_changed"
check "events.k8s.io update: values escaped as Go's JSON escapes them" 'FieldPath\":\"a\\u003cb\\u0026c\"}: field is immutable' \
  curl -s -X PUT -H 'Content-Type: application/json' "$url/apis/events.k8s.io/v1/namespaces/default/events/e2" \
  -d "$(echo "$ev2" | sed 's/"apiVersion":"v1"}/"apiVersion":"v1","fieldPath":"a<b\&c"}/')"
check "events.k8s.io update: a series may change" '"series":{"count":2,"lastObservedTime":"2026-12-02T08:00:02.000000Z"}' \
  curl -s -X PUT -H 'Content-Type: application/json' "$url/apis/events.k8s.io/v1/namespaces/default/events/e2" \
  -d "$(echo "$ev2" | sed 's/}$/,"series":{"count":2,"lastObservedTime":"2026-12-02T08:00:02.000000Z"}}/')"
# managedFields of an Event are recorded in the group it was written
# through, and a write through one group drops the other group's managers:
# kube-apiserver's field manager for each group converts only within it
# (each result is kube-apiserver 1.37's for the same requests)
managers() { echo "managers: $(kubectl get events mf -o jsonpath='{range .metadata.managedFields[*]}{.manager}/{.apiVersion}/{.operation} {end}' --show-managed-fields)."; }
mf_base='"metadata":{"name":"mf","namespace":"default","labels":{"a":"b"}},"eventTime":"2026-12-02T08:00:00.123456Z","reportingInstance":"i1","action":"Act","reason":"R","type":"Normal"'
check "mf: created through events.k8s.io" "event.events.k8s.io/mf created" kubectl_doc create \
  '{"apiVersion":"events.k8s.io/v1","kind":"Event",'"$mf_base"',"reportingController":"example.com/ctl","note":"hello","regarding":{'"$ref"'}}'
check "mf: its fields, in its group" 'events.k8s.io/v1 {"f:action":{},"f:eventTime":{},"f:metadata":{"f:labels":{".":{},"f:a":{}}},"f:note":{},"f:reason":{},"f:regarding":{},"f:reportingController":{},"f:reportingInstance":{},"f:type":{}}' \
  kubectl get events mf --show-managed-fields -o jsonpath='{.metadata.managedFields[0].apiVersion} {.metadata.managedFields[0].fieldsV1}'
ssa_doc() { # field manager, document: kubectl apply --server-side of it
  printf '%s\n' "$2" | kubectl apply --server-side --field-manager="$1" -f - 2>&1
}
check "mf: core patch" "event/mf patched" kubectl patch events mf --type=merge -p '{"message":"by core","metadata":{"labels":{"b":"B"}}}'
check "mf: the events.k8s.io manager is dropped" "managers: kubectl-patch/v1/Update ." managers
check "mf: apply through events.k8s.io" "event.events.k8s.io/mf serverside-applied" \
  ssa_doc C '{"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"mf","namespace":"default","labels":{"c":"C"}}}'
check "mf: the core manager is dropped" "managers: C/events.k8s.io/v1/Apply ." managers
check "mf: so no conflict over the message" "event/mf serverside-applied" \
  ssa_doc D '{"apiVersion":"v1","kind":"Event","metadata":{"name":"mf","namespace":"default"},"message":"by D","count":5}'
check "mf: one manager again" "managers: D/v1/Apply ." managers
check "core update: mutable" "event/bound patched" kubectl patch events bound --type=merge -p '{"message":"changed"}'
check "the other group sees the update" "changed" kubectl get events.events.k8s.io bound -o jsonpath='{.note}'
check "delete through the other group" 'event.events.k8s.io "pulled" deleted' kubectl delete events.events.k8s.io pulled
check "gone from core" 'events "pulled" not found' kubectl get events pulled

# a data directory from when the two groups were two kinds (its README)
kill $server; wait $server
mkdir -p "$tmp/old"
cp tests/data/serve/datadir-two-event-kinds/dra.db "$tmp/old/dra.db"
chmod u+w "$tmp/old/dra.db"
serve "$tmp/old" --controllers='*,-node-simulator'
export KUBECONFIG="$tmp/old/kubeconfig"
check "old: PriorityClass kept" "1000" kubectl get priorityclass high -o jsonpath='{.value}'
check "old: the later Event of one key stays" "Newer" kubectl get events same -o jsonpath='{.reason}'
check "old: an events.k8s.io Event is an Event" "OnlyNew|events.k8s.io only" kubectl get events.events.k8s.io only-new -o jsonpath='{.reason}|{.note}'
check "old: deleted" 'event "only-new" deleted' kubectl delete events only-new
kill $server; wait $server
serve "$tmp/old" --controllers='*,-node-simulator'
check "old, restarted: stays deleted" 'events "only-new" not found' kubectl get events only-new
check "old, restarted: one Event left" "events: event/same." sh -c 'echo "events: $(kubectl get events -o name | tr "\n" " " | sed "s/ $//")."'
check "old, restarted: PriorityClass kept" "1000" kubectl get priorityclass high -o jsonpath='{.value}'
summary
