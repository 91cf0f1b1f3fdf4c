/* nodesim_status.h: the statuses the node simulator writes, as a kubelet
 * reports them (k8s.io/kubernetes pkg/kubelet kubelet_pods.go
 * generateAPIPodStatus, pkg/kubelet/status generate.go, and the node
 * status setters of pkg/kubelet/nodestatus), with a simulated container
 * runtime's identities. Everything is derived from names, uids and the
 * time given, so the same input gives the same status. docs/server.md,
 * "Nodes". */
#ifndef DRA_SCHED_NODESIM_STATUS_H
#define DRA_SCHED_NODESIM_STATUS_H
#include "api/object.h"
#include "api/types.h"
#include "util/strbuf.h"

/* The runtime's name: containerIDs are "dra-sim://<64 hex>". */
#define SCHED_NODESIM_RUNTIME "dra-sim"
/* The annotation that says a Node is simulated (kubectl describe node). */
#define SCHED_NODESIM_NODE_ANNOTATION "dra.k8s.io/simulated-by"

/* The node's InternalIP from status.addresses, else one derived from its
 * name in 172.18.0.0/16. */
void sched_nodesim_host_ip(const node *n, char out[16]);
/* The pod's IP: 10.244.<from the node's name>.<from the pod's uid>. */
void sched_nodesim_pod_ip(const char *node_name, const pod *p, char out[16]);
/* What a container runtime reports for an image reference: the image
 * normalized as containerd does ("busybox" -> "docker.io/library/busybox:latest")
 * and its imageID ("docker.io/library/busybox@sha256:<digest>"). */
void sched_nodesim_image(const char *image, strbuf *image_out, strbuf *image_id);

/* Pod status (on a clone) while its claims cannot be prepared: Pending,
 * the containers waiting (ContainerCreating, or PodInitializing with init
 * containers), the kubelet's conditions False saying which containers
 * are not ready or not initialized, startTime and hostIP(s). */
void sched_nodesim_set_waiting(api_object *pod, const char *host_ip, const char *now);
/* Pod status (on a clone): Running since `now` with every container
 * started and ready, the init containers run to completion first
 * (restartable ones, sidecars, keep running), the kubelet's conditions
 * (PodReadyToStartContainers, Initialized, Ready, ContainersReady,
 * PodScheduled, after any others), startTime (kept when set), hostIP(s) and podIP(s). */
void sched_nodesim_set_running(api_object *pod, const char *host_ip, const char *pod_ip, const char *now);
/* When the pod's containers started (the first one's running state, put
 * in buf, else startTime), or NULL. */
const char *sched_nodesim_started_at(const pod *p, strbuf *buf);
/* Pod status (on a clone of a Running pod): Succeeded at `now`, every
 * container terminated with exit code 0, reason Completed. */
void sched_nodesim_set_succeeded(api_object *pod, const char *now);
/* Node (on a clone): what a kubelet reports that is missing: the
 * MemoryPressure, DiskPressure, PIDPressure and Ready conditions,
 * addresses, daemonEndpoints, nodeInfo, capacity and allocatable (KWOK's
 * cpu 32, memory 256Gi, pods 110, or the one the Node has), the
 * kubernetes.io/hostname, os and arch labels; and the simulated-by
 * annotation. false when nothing
 * was missing. */
bool sched_nodesim_set_node_status(api_object *node, const char *now);

#endif
