/* body_pb.h: reading the Kubernetes protobuf encoding of request bodies
 * (k8s.io/apimachinery pkg/runtime/serializer/protobuf: the "k8s\0" magic,
 * then a runtime.Unknown whose raw bytes are the object). client-go's typed
 * clients send built-in kinds this way: kubectl create namespace, kubectl
 * run (a Pod), kubectl create deployment|job|cronjob. Those kinds are read
 * (body_pb_workloads.c for all but Namespaces); others are refused (415). */
#ifndef DRA_SRV_BODY_PB_H
#define DRA_SRV_BODY_PB_H
#include "api/object.h"
#include "util/strbuf.h"
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* Whether the Content-Type is the protobuf one. */
bool srv_is_protobuf(const char *content_type);
/* The Namespace in body as the JSON tree its JSON encoding would give
 * (apiVersion, kind, metadata name, generateName, labels, annotations,
 * finalizers, spec.finalizers); NULL with a message in err when body is not
 * one. */
json_t *srv_pb_namespace_json(const char *body, size_t n, strbuf *err);
/* A Pod, Deployment, Job or CronJob body the same way (body_pb_workloads.c);
 * NULL with an empty err for other kinds, or with a message when the body
 * is unreadable or carries fields dra does not read. */
json_t *srv_pb_object_json(api_kind kind, const char *body, size_t n, strbuf *err);

/* A Role, ClusterRole, RoleBinding or ClusterRoleBinding body the same way
 * (body_pb_rbac.c); NULL with an empty err for other kinds. */
json_t *srv_pb_rbac_json(api_kind kind, const char *body, size_t n, strbuf *err);

#endif
