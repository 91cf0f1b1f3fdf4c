/* claim_status_authz.h: the authorization checks of a ResourceClaim status
 * write in kube-apiserver 1.37 with DRAResourceClaimGranularStatusAuthorization
 * (k8s.io/kubernetes pkg/registry/resource/resourceclaim/strategy.go,
 * pkg/registry/resource/utils.go): changing status.allocation or
 * status.reservedFor needs the verb on resourceclaims/binding cluster-wide;
 * changing the status.devices entries of a driver needs
 * arbitrary-node:<verb> (or, for the node the claim is allocated on,
 * associated-node:<verb>) on resourceclaims/driver named after the driver.
 * See docs/server.md, "Authorization". */
#ifndef DRA_SRV_CLAIM_STATUS_AUTHZ_H
#define DRA_SRV_CLAIM_STATUS_AUTHZ_H
#include "api/gates.h"
#include "server/authz.h"

/* The Forbidden field errors of a status update of claim old to obj by u
 * with the request verb (update or patch) in namespace, into errs. */
void claim_status_authorize(const authz *z, const feature_gates *gates, const srv_user *u, const char *verb,
                            const char *namespace_, const resource_claim *obj, const resource_claim *old,
                            errlist *errs);

#endif
