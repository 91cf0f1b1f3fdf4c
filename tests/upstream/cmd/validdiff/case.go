// The case and result formats shared by validdiff and `dra validate --batch`
// (see tests/upstream/README.md).
package main

import "encoding/json"

// Case is one admission check: Object is created, or, with Old, updates Old.
// Objects (the Namespaces a claim's adminAccess looks at) and Old are
// created first.
type Case struct {
	ID           string            `json:"id"`
	FeatureGates map[string]bool   `json:"featureGates,omitempty"`
	Objects      []json.RawMessage `json:"objects,omitempty"`
	Old          json.RawMessage   `json:"old,omitempty"`
	Object       json.RawMessage   `json:"object"`
	// How the generator made Object (not read by dra): "base <file>#<n>",
	// then one line per mutation.
	Mutations []string `json:"mutations,omitempty"`
}

// FieldError is one field.Error: its type as the Status cause reason
// ("FieldValueInvalid"), its path and its ErrorBody ("Invalid value: ...").
type FieldError struct {
	Type  string `json:"type"`
	Field string `json:"field"`
	Body  string `json:"body"`
}

// Result is one answer: Status "ok" (admitted), "invalid" (422, Errors),
// "badrequest" (the object does not decode), or "error" (the case is bad:
// Error says why).
type Result struct {
	ID       string       `json:"id"`
	Status   string       `json:"status"`
	Errors   []FieldError `json:"errors,omitempty"`
	Warnings []string     `json:"warnings,omitempty"`
	Error    string       `json:"error,omitempty"`
}

const (
	statusOK         = "ok"
	statusInvalid    = "invalid"
	statusBadRequest = "badrequest"
	statusError      = "error"
)

// The gates dra knows, each at dra's default unless a case says otherwise:
// every DRA gate and GenericWorkload on, the workload scheduling gates
// (offGates) off as upstream has them.
var draGates = []string{
	"DRAAdminAccess", "DRAPrioritizedList", "DRADeviceTaints", "DRAPartitionableDevices",
	"DRAConsumableCapacity", "DRADeviceBindingConditions", "DRAResourceClaimDeviceStatus",
	"DRAListTypeAttributes", "DRADerivedAttributes", "DRAExtendedResource",
	"DRAWorkloadResourceClaims", "GenericWorkload", "TopologyAwareWorkloadScheduling",
	"PodGroupPreemptionPolicy",
}

var offGates = map[string]bool{"TopologyAwareWorkloadScheduling": true, "PodGroupPreemptionPolicy": true}

func (c *Case) gates() map[string]bool {
	m := map[string]bool{}
	for _, g := range draGates {
		m[g] = !offGates[g]
	}
	for k, v := range c.FeatureGates {
		m[k] = v
	}
	return m
}
