#!/bin/sh
# dra serve with the machine's kubectl and a Deployment whose pods each get
# a GPU from a claim template: the Deployment makes its ReplicaSet, the
# pods are bound with their claims allocated, `kubectl scale` adds and
# removes pods (and their generated claims), kubectl get shows upstream's
# columns, and deleting the Deployment takes its ReplicaSet and pods along;
# a Job completes once its pods are marked Succeeded; StatefulSets scale;
# kubectl create deployment|job|cronjob and kubectl run (protobuf bodies)
# work.
dra=${1:-build/dra}
. tests/lib/serve.sh
skip_without kubectl serve_kubectl_workloads
serve "$tmp/data"
export KUBECONFIG="$tmp/data/kubeconfig"
d=tests/data/workloads
check "cluster" "resourceslice.resource.k8s.io/node-2-gpus created" kubectl apply -f $d/serve/cluster.yaml
check "deployment" "deployment.apps/inference created" kubectl apply -f $d/valid/deployment-claim-template.yaml
check "status replicas" "condition met" kubectl wait --for=jsonpath='{.status.replicas}'=2 deploy/inference --timeout=20s
bound() { # count: waits until that many pods of the deployment are bound
  for i in $(seq 100); do
    n=$(kubectl get pods -l app=inference -o jsonpath='{range .items[*]}{.spec.nodeName}{"\n"}{end}' | grep -c node-)
    [ "$n" = "$1" ] && { echo "$n bound"; return; }
    sleep 0.2
  done
  echo "$n bound, wanted $1"; kubectl get pods -o wide
}
check "two pods bound" "2 bound" bound 2
check "replicaset named by hash" "inference-" kubectl get rs -o name
check "replicaset owner" "Deployment" kubectl get rs -o jsonpath='{.items[0].metadata.ownerReferences[0].kind}'
check "pod owner" "ReplicaSet" kubectl get pods -l app=inference -o jsonpath='{.items[0].metadata.ownerReferences[0].kind}'
check "rs columns" "DESIRED   CURRENT   READY" kubectl get rs
check "deploy columns" "READY   UP-TO-DATE   AVAILABLE" kubectl get deploy
check "deploy wide" "server       ubuntu:24.04   app=inference,tier in (gpu)" kubectl get deploy -o wide
check "deploy status" "2" kubectl get deploy inference -o jsonpath='{.status.replicas}'
check "claims allocated" "allocated,reserved" kubectl get resourceclaims
check "scale up" "deployment.apps/inference scaled" kubectl scale deploy inference --replicas=4
check "four pods bound" "4 bound" bound 4
check "four claims" "4" sh -c "kubectl get resourceclaims -o name | grep -c inference-"
check "scale read" "4" kubectl get deploy inference -o jsonpath='{.spec.replicas}'
check "scale down" "deployment.apps/inference scaled" kubectl scale deploy inference --replicas=1
check "one pod left" "1 bound" bound 1
claims_left() { for i in $(seq 100); do n=$(kubectl get resourceclaims -o name | grep -c inference-); [ "$n" = "$1" ] && { echo "$n claims"; return; }; sleep 0.2; done; echo "$n claims"; }
check "claims released" "1 claims" claims_left 1
check "get all" "deployment.apps/inference" kubectl get all
check "selector immutable" 'The Deployment "inference" is invalid: spec.selector: Invalid value: {"matchLabels":{"app":"other"}}: field is immutable' \
  kubectl patch deploy inference --type=merge -p '{"spec":{"selector":{"matchLabels":{"app":"other"},"matchExpressions":null},"template":{"metadata":{"labels":{"app":"other"}}}}}'
check "template claim checked on update" 'spec.template.spec.containers[0].resources.claims[0]: Not found: "nope"' \
  kubectl patch deploy inference --type=json -p '[{"op":"replace","path":"/spec/template/spec/containers/0/resources/claims/0/name","value":"nope"}]'
check "delete deployment" "deleted" kubectl delete deploy inference --wait=false
gone() { for i in $(seq 100); do [ -z "$(kubectl get rs,pods -o name)" ] && { echo gone; return; }; sleep 0.2; done; kubectl get rs,pods; }
check "dependents gone" "gone" gone
check "job" "job.batch/train created" kubectl apply -f $d/valid/job-shared-claim.yaml
check "job labels" "train" kubectl get pods -l batch.kubernetes.io/job-name=train -o jsonpath='{.items[0].metadata.labels.job-name}'
check "job columns" "STATUS    COMPLETIONS   DURATION" kubectl get jobs
# no kubelet: a client marks the Job's pods Succeeded, the Job runs the rest
succeed() { # marks every running pod of the job Succeeded
  for p in $(kubectl get pods -l job-name=train -o jsonpath='{range .items[?(@.status.phase!="Succeeded")]}{.metadata.name}{" "}{end}'); do
    kubectl patch pod "$p" --subresource=status --type=merge -p '{"status":{"phase":"Succeeded"}}' >/dev/null
  done
}
succeed_until_complete() {
  for i in $(seq 50); do
    succeed
    [ "$(kubectl get job train -o jsonpath='{.status.succeeded}')" = 4 ] && break
    sleep 0.2
  done
  kubectl get job train
}
check "job completes" "Complete   4/4" succeed_until_complete
check "job condition" "True" kubectl get job train -o jsonpath='{.status.conditions[?(@.type=="Complete")].status}'
check "statefulset" "statefulset.apps/db created" kubectl apply -f $d/valid/statefulset.yaml
check "ordinal pods" "db-0 db-1" sh -c "sleep 1; kubectl get pods -l app=db -o jsonpath='{.items[*].metadata.name}'"
check "scale statefulset" "statefulset.apps/db scaled" kubectl scale sts db --replicas=3
check "third ordinal" "db-2" sh -c "sleep 1; kubectl get pods -l app=db -o name"
check "sts columns" "READY" kubectl get sts
# kubectl's create commands send protobuf bodies
check "create deployment" "deployment.apps/nginx created" kubectl create deployment nginx --image=nginx --replicas=2 --port=80
check "its replicaset" "app=nginx,pod-template-hash=" kubectl get rs -o wide
check "container port kept" "80" kubectl get deploy nginx -o jsonpath='{.spec.template.spec.containers[0].ports[0].containerPort}'
check "create job" "job.batch/once created" kubectl create job once --image=busybox -- echo hi
check "job command kept" "echo hi" kubectl get job once -o jsonpath='{.spec.template.spec.containers[0].command[*]}'
check "create cronjob" "cronjob.batch/tick created" kubectl create cronjob tick --image=busybox --schedule="*/5 * * * *"
check "run pod" "pod/solo created" kubectl run solo --image=busybox --env=A=b
check "pod env kept" "b" kubectl get pod solo -o jsonpath='{.spec.containers[0].env[0].value}'
summary
