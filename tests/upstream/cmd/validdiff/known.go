// Disagreement classes that do not fail the test, each with its reason
// (tests/upstream/DISAGREEMENTS.md, "Validation: validdiff"). A class is
// known when its name contains a match. These are recorded, not accepted:
// each is a difference of wording or order that dra does not model yet, or
// a deliberate one; a new class, or one of these in a new place, fails.
package main

import "strings"

const (
	whyDecodeWording = "BadRequest wording: upstream's text is Go's encoding/json (Go struct and type names, " +
		"the first problem only, quantities without a path, map keys dotted in strict errors); dra words " +
		"decoding problems by field path and lists them all"
	whyInternalStruct = "Invalid value of a whole struct: upstream renders k8s.io/kubernetes internal types, which " +
		"have no json tags (Go field names, every field, nulls); dra renders the object's JSON"
	whyPodSpecDiff = "the Pod spec update Forbidden error: upstream appends a diff of the internal PodSpec " +
		"structs (cmp.Diff) to the message; dra gives the message without it"
	whyDVDuplicate = "duplicate entries of listType=map lists: kube-apiserver 1.37 reports them through " +
		"declarative validation, showing the whole entry as JSON, after the hand-written errors; dra " +
		"reports the key where the hand-written validation would"
	whyOrder = "the same errors in another order: declarative validation's errors follow the hand-written " +
		"ones in kube-apiserver, and map keys (labels, attributes) are checked in Go's random map order; " +
		"dra keeps one fixed order"
	whyUnknownNamespace = "adminAccess in a namespace that does not exist: kube-apiserver fails the lookup " +
		"(InternalError); dra validates without a cluster and counts an unknown namespace as unlabelled (Forbidden)"
	whyTemplateUpdateDV = "ResourceClaimTemplate updates: kube-apiserver also runs declarative validation of " +
		"the changed spec (errors besides 'field is immutable'), and validates firstAvailable when both " +
		"exactly and firstAvailable are set; dra reports the immutability error alone"
	whyWarnings = "kube-apiserver's create warnings (a Pod name that is no DNS label, a ResourceSlice driver " +
		"with upper case) are not given by dra yet"
	whyDerived = "derivedAttributes: kube-apiserver checks that a name is referenced by a constraint (and the " +
		"expression) by hand, for every entry whatever the list's length, and the name's format, its presence " +
		"and the list's limit declaratively, after all hand-written errors; dra checks each entry in place"
	whyDVWording = "declarative validation's wording (\"bytes\" for long names and counter names, " +
		"extended resource names checked as qualified names, an empty schedulingGroup) and its errors' " +
		"place after the hand-written ones (attributes, driver); dra follows the hand-written validation's"
)

var known = []struct{ match, reason string }{
	{"badrequest message:", whyDecodeWording},
	{"upstream badrequest, dra ", whyDecodeWording},
	{"ResourceClaimTemplate update: different text FieldValueInvalid spec", whyInternalStruct},
	{"different text FieldValueInvalid spec.resourceClaims[*]", whyInternalStruct},
	{"Pod update: different text FieldValueForbidden spec", whyPodSpecDiff},
	{"FieldValueDuplicate spec.devices.requests[*]", whyDVDuplicate},
	{"FieldValueDuplicate spec.spec.devices.requests[*]", whyDVDuplicate},
	{"FieldValueDuplicate spec.sharedCounters[*]", whyDVDuplicate},
	{"FieldValueDuplicate spec.devices[*].consumesCounters[*]", whyDVDuplicate},
	{": order ", whyOrder},
	{"FieldValueInvalid metadata.labels", whyOrder},
	{"missing error InternalError spec.devices.requests[*].adminAccess", whyUnknownNamespace},
	{"ResourceClaimTemplate update: missing error", whyTemplateUpdateDV},
	{"ResourceClaimTemplate create: missing error FieldValue", whyTemplateUpdateDV},
	{": warnings: upstream ", whyWarnings},
	{"different text FieldValueInvalid metadata.name", whyDVWording},
	{"extra error FieldValueInvalid metadata.name", whyOrder},
	{"FieldValueInvalid spec.extendedResourceName", whyDVWording},
	{"spec.schedulingGroup.podGroupName", whyDVWording},
	{"spec.devices[*].attributes[*]", whyDVWording},
	{"firstAvailable[*].deviceClassName", whyTemplateUpdateDV},
	{"consumesCounters[*].counter", whyDVWording},
	{"sharedCounters[*].counters", whyDVWording},
	{"sharedCounters[*].name", whyDVWording},
	{"FieldValueInvalid spec.driver", whyDVWording},
	{"derivedAttributes[*].name", whyDerived},
}

func knownReason(class string) string {
	for _, k := range known {
		if strings.Contains(class, k.match) {
			return k.reason
		}
	}
	return ""
}
