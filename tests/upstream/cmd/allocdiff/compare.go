// Comparing dra's answer with upstream's.
package main

import (
	"encoding/json"
	"fmt"
	"reflect"

	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/types"
)

// normalize makes an allocation comparable: allocationTimestamp (the
// scheduler's, not the allocator's) is dropped, adminAccess false is
// absent, a shareID's value is not compared (only its presence),
// quantities compare by value.
func normalize(raw json.RawMessage) (*resourceapi.AllocationResult, error) {
	var a resourceapi.AllocationResult
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, err
	}
	a.AllocationTimestamp = nil
	share := types.UID("share")
	for i := range a.Devices.Results {
		r := &a.Devices.Results[i]
		if r.AdminAccess != nil && !*r.AdminAccess {
			r.AdminAccess = nil
		}
		if r.ShareID != nil {
			r.ShareID = &share
		}
		if len(r.ConsumedCapacity) == 0 {
			r.ConsumedCapacity = nil
		}
		for k, q := range r.ConsumedCapacity {
			r.ConsumedCapacity[k] = resource.MustParse(q.AsDec().String())
		}
		if len(r.Tolerations) == 0 {
			r.Tolerations = nil
		}
		if len(r.BindingConditions) == 0 {
			r.BindingConditions = nil
		}
		if len(r.BindingFailureConditions) == 0 {
			r.BindingFailureConditions = nil
		}
	}
	if len(a.Devices.Results) == 0 {
		a.Devices.Results = nil
	}
	if len(a.Devices.Config) == 0 {
		a.Devices.Config = nil
	}
	for i := range a.Devices.Config {
		c := &a.Devices.Config[i]
		if len(c.Requests) == 0 {
			c.Requests = nil
		}
		if c.Opaque != nil {
			var v any
			if json.Unmarshal(c.Opaque.Parameters.Raw, &v) == nil {
				c.Opaque.Parameters.Raw, _ = json.Marshal(v)
			}
			c.Opaque.Parameters.Object = nil
		}
	}
	return &a, nil
}

// compare returns "" when the answers agree, else the disagreement's class
// and a description.
func compare(up, dra Result) (string, string) {
	if up.Status != dra.Status {
		return fmt.Sprintf("status: upstream %s, dra %s", up.Status, dra.Status),
			fmt.Sprintf("upstream: %s %s\ndra: %s %s", up.Status, up.Error, dra.Status, dra.Error)
	}
	switch up.Status {
	case statusError:
		if up.Error != dra.Error {
			return "error text", fmt.Sprintf("upstream: %s\ndra:      %s", up.Error, dra.Error)
		}
		return "", ""
	case statusUnsatisfiable:
		return "", ""
	}
	if len(up.Allocations) != len(dra.Allocations) {
		return "allocation count", fmt.Sprintf("upstream %d allocations, dra %d", len(up.Allocations), len(dra.Allocations))
	}
	for i := range up.Allocations {
		u, err := normalize(up.Allocations[i])
		if err != nil {
			return "upstream result unreadable", err.Error()
		}
		d, err := normalize(dra.Allocations[i])
		if err != nil {
			return "dra result unreadable", err.Error()
		}
		if u == nil || d == nil {
			if u != d {
				return "allocation missing", fmt.Sprintf("claim #%d", i)
			}
			continue
		}
		if class := diffAllocation(u, d); class != "" {
			ub, _ := json.Marshal(u)
			db, _ := json.Marshal(d)
			return class, fmt.Sprintf("claim #%d\nupstream: %s\ndra:      %s", i, ub, db)
		}
	}
	return "", ""
}

func diffAllocation(u, d *resourceapi.AllocationResult) string {
	ur, dr := u.Devices.Results, d.Devices.Results
	if len(ur) != len(dr) {
		return "devices: count"
	}
	for i := range ur {
		a, b := ur[i], dr[i]
		if a.Driver != b.Driver || a.Pool != b.Pool || a.Device != b.Device {
			return "devices: different devices or order"
		}
		if a.Request != b.Request {
			return "devices: request name"
		}
		if !reflect.DeepEqual(a.AdminAccess, b.AdminAccess) {
			return "devices: adminAccess"
		}
		if (a.ShareID == nil) != (b.ShareID == nil) {
			return "devices: shareID presence"
		}
		if !jsonEqual(a.ConsumedCapacity, b.ConsumedCapacity) {
			return "devices: consumedCapacity"
		}
		if !jsonEqual(a.Tolerations, b.Tolerations) {
			return "devices: tolerations"
		}
		if !reflect.DeepEqual(a.BindingConditions, b.BindingConditions) || !reflect.DeepEqual(a.BindingFailureConditions, b.BindingFailureConditions) {
			return "devices: binding conditions"
		}
		if !jsonEqual(a, b) {
			return "devices: other field"
		}
	}
	if !jsonEqual(u.Devices.Config, d.Devices.Config) {
		return "config"
	}
	if !jsonEqual(u.NodeSelector, d.NodeSelector) {
		return "nodeSelector"
	}
	if !jsonEqual(u, d) {
		return "allocation: other field"
	}
	return ""
}

func jsonEqual(a, b any) bool {
	ab, err1 := json.Marshal(a)
	bb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(ab) == string(bb)
}
