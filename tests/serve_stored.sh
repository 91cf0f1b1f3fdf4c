#!/bin/sh
# The kinds dra serve stores for clients without interpreting them
# (api/types_stored.h): coordination.k8s.io Lease, the storage.k8s.io kinds,
# PersistentVolume(Claim), Service, PodDisruptionBudget and events.k8s.io
# Event (tests/serve_events.sh has the Event's two groups), through the machine's kubectl: discovery, create, get with
# kube-apiserver's columns, list, watch, status updates, delete, and
# validation errors with upstream's field paths and texts.
dra=${1:-build/dra}
. tests/lib/serve.sh
skip_without kubectl serve_stored
serve "$tmp/data"
export KUBECONFIG="$tmp/data/kubeconfig"
apply() { kubectl_doc apply "$1"; }
joined() { apply "$1" | tr '\n' '|'; } # kubectl prints one error a line: the lines in order
check "discovery" "storageclasses" sh -c "kubectl api-resources | grep -E '^storageclasses +sc +storage.k8s.io/v1 '"
check "discovery: events.k8s.io" "events.k8s.io/v1" kubectl api-resources --api-group=events.k8s.io
check "discovery: leases" "leases" kubectl api-resources --api-group=coordination.k8s.io
check "storageclass" "storageclass.storage.k8s.io/fast created" apply '{"apiVersion":"storage.k8s.io/v1","kind":"StorageClass","metadata":{"name":"fast"},"provisioner":"csi.example.com"}'
check "storageclass defaults and columns" "fast   csi.example.com   Delete          Immediate           false" kubectl get sc
check "storageclass: provisioner required" 'The StorageClass "bad" is invalid: provisioner: Required value' \
  apply '{"apiVersion":"storage.k8s.io/v1","kind":"StorageClass","metadata":{"name":"bad"}}'
check "storageclass: binding mode" 'volumeBindingMode: Unsupported value: "Later": supported values: "Immediate", "WaitForFirstConsumer"' \
  apply '{"apiVersion":"storage.k8s.io/v1","kind":"StorageClass","metadata":{"name":"bad"},"provisioner":"p","volumeBindingMode":"Later"}'
check "storageclass: provisioner immutable" 'The StorageClass "fast" is invalid: provisioner: Invalid value: "other.example.com": field is immutable' \
  kubectl patch sc fast --type=merge -p '{"provisioner":"other.example.com"}'
check "lease" "lease.coordination.k8s.io/leader created" apply '{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"leader","namespace":"default"},"spec":{"holderIdentity":"me","leaseDurationSeconds":15,"renewTime":"2026-12-01T10:00:00.123456Z"}}'
check "lease columns" "leader   me" kubectl get lease
check "lease microtime kept" "2026-12-01T10:00:00.123456Z" kubectl get lease leader -o jsonpath='{.spec.renewTime}'
check "lease: duration" 'The Lease "bad" is invalid: spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0' \
  apply '{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"bad","namespace":"default"},"spec":{"leaseDurationSeconds":0}}'
check "lease: strict decoding" 'unknown field "spec.holder"' \
  apply '{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"bad","namespace":"default"},"spec":{"holder":"x"}}'
check "lease: gated fields dropped" "dropped" sh -c "$(cat <<'SH'
printf '%s' '{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"coordinated","namespace":"default"},"spec":{"strategy":"OldestEmulationVersion","preferredHolder":"x"}}' | kubectl apply -f - >/dev/null
kubectl get lease coordinated -o jsonpath='{.spec}' | grep -q -e strategy -e preferredHolder || echo dropped
SH
)"
check "lease: name" 'metadata.name: Invalid value: "Bad_Name"' \
  apply '{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"Bad_Name","namespace":"default"}}'
replace() { printf '%s\n' "$1" | kubectl replace -f - 2>&1; }
check "lease: a PUT creates a missing one" "lease.coordination.k8s.io/made-by-put replaced" \
  replace '{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"made-by-put","namespace":"default"},"spec":{"holderIdentity":"put"}}'
check "lease: made by the PUT" "made-by-put   put" kubectl get lease made-by-put
check "storageclass: a PUT does not create" 'storageclasses.storage.k8s.io "slow" not found' \
  replace '{"apiVersion":"storage.k8s.io/v1","kind":"StorageClass","metadata":{"name":"slow"},"provisioner":"p"}'
check "pvc" "persistentvolumeclaim/data created" apply '{"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{"name":"data","namespace":"default"},"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}}}}'
check "pvc columns" "data   Pending                                                     <unset>" kubectl get pvc
check "pvc wide" "Filesystem" kubectl get pvc -o wide
check "pvc: required" '* spec.accessModes: Required value: at least 1 access mode is required|* spec.resources[storage]: Required value' \
  joined '{"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{"name":"bad","namespace":"default"},"spec":{}}'
check "pvc status update" "persistentvolumeclaim/data patched" \
  kubectl patch pvc data --subresource=status --type=merge -p '{"status":{"phase":"Bound"}}'
check "pvc status kept by a main update" "Bound" sh -c \
  "kubectl label pvc data tier=gold >/dev/null; kubectl get pvc data -o jsonpath='{.status.phase}'"
check "pv" "persistentvolume/pv1 created" apply '{"apiVersion":"v1","kind":"PersistentVolume","metadata":{"name":"pv1"},"spec":{"accessModes":["ReadWriteOnce","ReadOnlyMany"],"capacity":{"storage":"5Gi"},"hostPath":{"path":"/data"},"claimRef":{"namespace":"default","name":"data"}}}'
check "pv columns" "pv1    5Gi        RWO,ROX        Retain           Pending   default/data" kubectl get pv
check "pv: required" '* spec.accessModes: Required value|* spec.capacity: Required value|* spec: Required value: must specify a volume type' \
  joined '{"apiVersion":"v1","kind":"PersistentVolume","metadata":{"name":"bad"},"spec":{}}'
check "pv: one volume type" 'spec.nfs: Forbidden: may not specify more than 1 volume type' \
  apply '{"apiVersion":"v1","kind":"PersistentVolume","metadata":{"name":"bad"},"spec":{"accessModes":["ReadWriteOnce"],"capacity":{"storage":"1Gi"},"hostPath":{"path":"/a"},"nfs":{"server":"s","path":"/b"}}}'
check "service" "service/web created" apply '{"apiVersion":"v1","kind":"Service","metadata":{"name":"web","namespace":"default"},"spec":{"selector":{"app":"web","tier":"front"},"ports":[{"port":80},{"port":443,"nodePort":30443}]}}'
check "service columns" "web    ClusterIP   <none>       <none>        80/TCP,443:30443/TCP" kubectl get svc
check "service wide" "app=web,tier=front" kubectl get svc -o wide
check "service: ports required" 'The Service "bad" is invalid: spec.ports: Required value' \
  apply '{"apiVersion":"v1","kind":"Service","metadata":{"name":"bad","namespace":"default"},"spec":{}}'
check "service: DNS-1035 name" "metadata.name: Invalid value: \"1web\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character" \
  apply '{"apiVersion":"v1","kind":"Service","metadata":{"name":"1web","namespace":"default"},"spec":{"ports":[{"port":80}]}}'
check "service: headless needs no ports" "service/headless created" \
  apply '{"apiVersion":"v1","kind":"Service","metadata":{"name":"headless","namespace":"default"},"spec":{"clusterIP":"None"}}'
check "pdb" "poddisruptionbudget.policy/web created" apply '{"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":"web","namespace":"default"},"spec":{"maxUnavailable":"25%","selector":{"matchLabels":{"app":"web"}}}}'
check "pdb columns" "web    N/A             25%               0" kubectl get pdb
check "pdb generation" "1" kubectl get pdb web -o jsonpath='{.metadata.generation}'
check "csidriver" "csidriver.storage.k8s.io/csi.example.com created" apply '{"apiVersion":"storage.k8s.io/v1","kind":"CSIDriver","metadata":{"name":"csi.example.com"},"spec":{"tokenRequests":[{"audience":"a"},{"audience":"b"}]}}'
check "csidriver defaults" "true             false            false             a,b             false               Persistent" kubectl get csidriver
check "csidriver: fsGroupPolicy" 'spec.fsGroupPolicy: Unsupported value: "Any": supported values: "File", "None", "ReadWriteOnceWithFSType"' \
  apply '{"apiVersion":"storage.k8s.io/v1","kind":"CSIDriver","metadata":{"name":"bad.example.com"},"spec":{"fsGroupPolicy":"Any"}}'
check "csinode" "csinode.storage.k8s.io/node-1 created" apply '{"apiVersion":"storage.k8s.io/v1","kind":"CSINode","metadata":{"name":"node-1"},"spec":{"drivers":[{"name":"csi.example.com","nodeID":"n1"},{"name":"b.example.com","nodeID":"n1"}]}}'
check "csinode columns" "node-1   2" kubectl get csinode
check "csinode: driver fields" '* spec.drivers[0].nodeID: Required value|* spec.drivers[1].name: Duplicate value: "a.example.com"' \
  joined '{"apiVersion":"storage.k8s.io/v1","kind":"CSINode","metadata":{"name":"bad"},"spec":{"drivers":[{"name":"a.example.com"},{"name":"a.example.com","nodeID":"x"}]}}'
check "csistoragecapacity" "csistoragecapacity.storage.k8s.io/cap created" apply '{"apiVersion":"storage.k8s.io/v1","kind":"CSIStorageCapacity","metadata":{"name":"cap","namespace":"default"},"storageClassName":"fast","capacity":"10Gi"}'
check "csistoragecapacity columns (no age)" "cap    fast               10Gi" kubectl get csistoragecapacity
check "volumeattachment: source" 'spec.source: Required value: must specify exactly one of inlineVolumeSpec and persistentVolumeName' \
  apply '{"apiVersion":"storage.k8s.io/v1","kind":"VolumeAttachment","metadata":{"name":"va"},"spec":{"attacher":"csi.example.com","nodeName":"node-1","source":{}}}'
check "volumeattachment" "volumeattachment.storage.k8s.io/va created" apply '{"apiVersion":"storage.k8s.io/v1","kind":"VolumeAttachment","metadata":{"name":"va"},"spec":{"attacher":"csi.example.com","nodeName":"node-1","source":{"persistentVolumeName":"pv1"}},"status":{"attached":true}}'
check "volumeattachment: status dropped on create" "false" kubectl get volumeattachment va -o jsonpath='{.status.attached}'
check "events.k8s.io event" "event.events.k8s.io/e1 created" apply '{"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"e1","namespace":"default"},"eventTime":"2026-12-01T10:00:00.000000Z","reportingController":"example.com/ctl","reportingInstance":"ctl-1","action":"Binding","reason":"Scheduled","type":"Normal","note":"bound it","regarding":{"kind":"Pod","name":"p","namespace":"default"}}'
check "events.k8s.io columns" "Normal   Scheduled   pod/p    bound it" kubectl get events.events.k8s.io --field-selector reason=Scheduled
check "events.k8s.io wide" "example.com/ctl, ctl-1" kubectl get events.events.k8s.io -o wide
check "events.k8s.io: required" '* reportingController: Required value|* reportingController: Invalid value: "": name part must be non-empty|* reportingController: Invalid value: "": name part must consist of alphanumeric characters' \
  joined '{"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"e2","namespace":"default"},"eventTime":"2026-12-01T10:00:00.000000Z","type":"Normal"}'
check "events.k8s.io: eventTime, type" '* eventTime: Required value|* type: Invalid value: "": has invalid value: Sometimes' \
  joined '{"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"e3","namespace":"default"},"type":"Sometimes"}'
check "one Event resource in two groups" "Normal   Scheduled   pod/p    bound it" kubectl get events --field-selector reason=Scheduled
watch_lease() {
  kubectl get leases -w --request-timeout=3s -o jsonpath='{.metadata.name} {.spec.holderIdentity}{"\n"}' >"$tmp/watch.out" 2>&1 &
  w=$!
  sleep 1
  kubectl patch lease leader --type=merge -p '{"spec":{"holderIdentity":"you"}}' >/dev/null
  wait $w
  cat "$tmp/watch.out"
}
check "watch" "leader you" watch_lease
check "delete" 'storageclass.storage.k8s.io "fast" deleted' kubectl delete sc fast
check "deleted" "NotFound" kubectl get sc fast
check "delete namespaced" 'service "web" deleted' kubectl delete svc web
summary
