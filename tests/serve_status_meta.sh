#!/bin/sh
# dra serve's writes through /status subresources keep of the stored
# metadata what kube-apiserver's status strategy for the kind keeps
# (tests/lib/status_meta.sh): pods/status writes labels but not owner
# references, resourceclaims/status none of the metadata, deployments/status
# the annotations but not the labels, nodes/ and services/status all of it;
# server-side apply through /status owns only what is written.
# upstream_status_meta.sh runs the same checks on kube-apiserver.
dra=${1:-build/dra}
. tests/lib/serve.sh
. tests/lib/status_meta.sh
skip_without kubectl serve_status_meta
serve "$tmp/data" --controllers='*,-node-simulator'
status_meta_checks dra "--kubeconfig $tmp/data/kubeconfig"
summary
