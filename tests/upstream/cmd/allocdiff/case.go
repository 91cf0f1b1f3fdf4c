// The case and result formats shared by allocdiff and `dra allocate --batch`
// (see tests/upstream/README.md).
package main

import (
	"encoding/json"
)

// Case is one allocation problem: a cluster (objects as stored, claims that
// already carry status.allocation included), a node and the claims to
// allocate together on it.
type Case struct {
	ID           string            `json:"id"`
	FeatureGates map[string]bool   `json:"featureGates,omitempty"`
	Node         string            `json:"node"`
	Claims       []string          `json:"claims,omitempty"`
	Objects      []json.RawMessage `json:"objects"`
	// typed: the generator's own objects, which Objects holds marshalled
	// (nil for cases read or minimized from JSON): upstream takes them
	// without decoding Objects again.
	typed *cluster
}

// Result is one answer. Allocations holds status.allocation of each claim,
// in Claims order, when Status is "ok"; Error the message when "error".
type Result struct {
	ID          string            `json:"id"`
	Status      string            `json:"status"`
	Error       string            `json:"error,omitempty"`
	Allocations []json.RawMessage `json:"allocations,omitempty"`
}

// line is the case as one NDJSON line (without the newline), written by
// hand: json.Marshal would check and compact every object again, which
// was a tenth of the generator's time. The objects are compact JSON
// already (marshalled, or read from one line).
func (c *Case) line() []byte {
	head, err := json.Marshal(struct {
		ID           string          `json:"id"`
		FeatureGates map[string]bool `json:"featureGates,omitempty"`
		Node         string          `json:"node"`
		Claims       []string        `json:"claims,omitempty"`
	}{c.ID, c.FeatureGates, c.Node, c.Claims})
	if err != nil {
		panic(err)
	}
	b := append(head[:len(head)-1], `,"objects":[`...)
	for i, o := range c.Objects {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, o...)
	}
	return append(b, "]}"...)
}

const (
	statusOK            = "ok"
	statusUnsatisfiable = "unsatisfiable"
	statusError         = "error"
)

// The gates the allocator looks at, all on unless a case says otherwise
// (dra's default).
var allocatorGates = []string{
	"DRAAdminAccess", "DRAPrioritizedList", "DRADeviceTaints", "DRAPartitionableDevices",
	"DRAConsumableCapacity", "DRADeviceBindingConditions", "DRAResourceClaimDeviceStatus",
	"DRAListTypeAttributes", "DRADerivedAttributes",
}

func (c *Case) gate(name string) bool {
	if v, ok := c.FeatureGates[name]; ok {
		return v
	}
	return true
}
