#!/bin/sh
# dra serve with kubectl: the disruption controller keeps PodDisruptionBudget
# status live (tests/data/disruption). A Deployment of 3 pods (made Running
# and Ready by the node simulator) under budgets maxUnavailable 1 (expected 3 from the
# Deployment's scale, desired 2, 1 allowed) and minAvailable "50%" (desired
# 2 of 3, rounded up); kubectl get pdb shows upstream's columns. Scaling the
# Deployment down to 1 leaves web-half no disruption, and a budget over a
# Job's pods fails its sync (a Job has no scale subresource).
dra=${1:-build/dra}
. tests/lib/serve.sh
skip_without kubectl serve_pdb
serve "$tmp/data"
export KUBECONFIG="$tmp/data/kubeconfig"
check "apply" "poddisruptionbudget.policy/web-half created" kubectl apply -f tests/data/disruption/web.yaml
healthy() { # pdb, want currentHealthy
  for i in $(seq 150); do
    [ "$(kubectl get pdb "$1" -o jsonpath='{.status.currentHealthy}')" = "$2" ] && { echo "healthy $2"; return; }
    sleep 0.2
  done
  kubectl get pdb "$1" -o yaml
}
check "web-max: all healthy" "healthy 3" healthy web-max 3
check "columns" "NAME       MIN AVAILABLE   MAX UNAVAILABLE   ALLOWED DISRUPTIONS   AGE" kubectl get pdb
check "web-max row" "web-max    N/A             1                 1                     " kubectl get pdb
check "web-half row" "web-half   50%             N/A               1                     " kubectl get pdb
check "web-max counts" "3 2 3 1 1" kubectl get pdb web-max \
  -o jsonpath='{.status.currentHealthy} {.status.desiredHealthy} {.status.expectedPods} {.status.disruptionsAllowed} {.status.observedGeneration}'
check "condition" "DisruptionAllowed True SufficientPods" kubectl get pdb web-max \
  -o jsonpath='{.status.conditions[0].type} {.status.conditions[0].status} {.status.conditions[0].reason}'
check "scale down" "deployment.apps/web scaled" kubectl scale deployment web --replicas=1
check "web-max: one healthy" "healthy 1" healthy web-max 1
check "web-max after scale-down" "1 0 1 1" kubectl get pdb web-max \
  -o jsonpath='{.status.currentHealthy} {.status.desiredHealthy} {.status.expectedPods} {.status.disruptionsAllowed}'
check "web-half after scale-down" "1 1 1 0 False InsufficientPods" kubectl get pdb web-half \
  -o jsonpath='{.status.currentHealthy} {.status.desiredHealthy} {.status.expectedPods} {.status.disruptionsAllowed} {.status.conditions[0].status} {.status.conditions[0].reason}'
check "apply job" "poddisruptionbudget.policy/batch created" kubectl apply -f tests/data/disruption/job.yaml
synced() { for i in $(seq 100); do r=$(kubectl get pdb batch -o jsonpath='{.status.conditions[0].reason}'); [ -n "$r" ] && { kubectl get pdb batch -o jsonpath='{.status.conditions[0].reason}: {.status.conditions[0].message}'; return; }; sleep 0.2; done; }
check "a Job has no scale" "SyncFailed: jobs.batch does not implement the scale subresource" synced
check "event" "Failed to calculate the number of expected pods: jobs.batch does not implement the scale subresource" kubectl get events
summary
