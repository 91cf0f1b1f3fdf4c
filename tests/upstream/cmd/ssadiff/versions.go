// Managers across API versions: a ResourceSlice applied through
// resource.k8s.io/v1beta1 (devices[].basic.attributes) and through v1
// (devices[].attributes). Upstream's field manager converts the objects
// to each manager's version (k8s.io/kubernetes's legacyscheme, with the
// resource group's conversions, as kube-apiserver's handlers set it up)
// to find conflicts and what an apply gives up; dra must record and
// refuse the same.
package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/client-go/applyconfigurations"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	_ "k8s.io/kubernetes/pkg/apis/resource/install"
)

type versionStep struct {
	name, op, manager, version string // op: apply, force, update (a label by manager)
	devices                    string // the devices, in the version's shape
}

const sliceSpec = `{"apiVersion":"resource.k8s.io/%s","kind":"ResourceSlice","metadata":{"name":"s"},` +
	`"spec":{"driver":"d.example.com","nodeName":"n1","pool":{"name":"p","generation":1,"resourceSliceCount":1}%s}}`

// sliceJSON: the applied slice; without devices the applier gives them up.
func sliceJSON(version, devices string) string {
	if devices != "" {
		devices = `,"devices":[` + devices + `]`
	}
	return fmt.Sprintf(sliceSpec, version, devices)
}

func basic(model string) string {
	return `{"name":"d0","basic":{"attributes":{"model":{"string":"` + model + `"}}}}`
}

func flat(model string) string {
	return `{"name":"d0","attributes":{"model":{"string":"` + model + `"}}}`
}

var versionSteps = []versionStep{
	{"v1beta1 apply creates", "apply", "old-driver", "v1beta1", basic("a")},
	{"v1 apply conflicts with v1beta1 owner", "apply", "new-driver", "v1", flat("b")},
	{"v1 update by another", "update", "labeler", "v1", ""},
	{"v1 apply forced", "force", "new-driver", "v1", flat("b")},
	{"v1beta1 owner shares what is left", "apply", "old-driver", "v1beta1", basic("b")},
	{"v1beta2 apply shares", "apply", "beta2-driver", "v1beta2", flat("b")},
	{"v1beta1 owner re-applies in v1", "apply", "old-driver", "v1", flat("b")},
	{"v1 owner gives up the devices", "apply", "new-driver", "v1", ""},
	{"v1beta2 owner gives up the devices", "apply", "beta2-driver", "v1beta2", ""},
	{"v1 apply with an empty list", "apply", "emptier", "v1", " "},
	{"last owner gives up the devices in v1beta1", "apply", "old-driver", "v1beta1", ""},
}

func sliceManager(version string) *managedfields.FieldManager {
	gvk := schema.GroupVersionKind{Group: "resource.k8s.io", Version: version, Kind: "ResourceSlice"}
	hub := schema.GroupVersion{Group: "resource.k8s.io", Version: runtime.APIVersionInternal}
	fm, err := managedfields.NewDefaultFieldManager(applyconfigurations.NewTypeConverter(scheme.Scheme),
		legacyscheme.Scheme, legacyscheme.Scheme, legacyscheme.Scheme, gvk, hub, "", nil)
	if err != nil {
		panic(err)
	}
	return fm
}

func decodeLegacy(b []byte) runtime.Object {
	return decodeWith(legacyscheme.Codecs.UniversalDeserializer(), b)
}

func runVersionSteps() {
	var managed []metav1.ManagedFieldsEntry // upstream's managedFields of the slice
	exists := false
	for _, s := range versionSteps {
		fm := sliceManager(s.version)
		path := "/apis/resource.k8s.io/" + s.version + "/resourceslices"
		// the live object in the step's version, with upstream's managers
		var live runtime.Object
		if exists {
			_, now := request("GET", path+"/s", "", nil)
			live = decodeLegacy(now)
			a, _ := meta.Accessor(live)
			a.SetManagedFields(managed)
		} else {
			live, _ = legacyscheme.Scheme.New(schema.GroupVersionKind{Group: "resource.k8s.io", Version: s.version, Kind: "ResourceSlice"})
		}
		var code int
		var body []byte
		var ours runtime.Object
		var ourErr error
		if s.op == "update" {
			next := live.DeepCopyObject()
			a, _ := meta.Accessor(next)
			a.SetLabels(map[string]string{"by-" + s.manager: "1"})
			a.SetManagedFields(nil)
			b, _ := json.Marshal(next)
			code, body = request("PUT", path+"/s?fieldManager="+s.manager, "application/json", b)
			if code == 200 {
				updated := decodeLegacy(body)
				ua, _ := meta.Accessor(updated)
				ua.SetManagedFields(nil)
				ours = fm.UpdateNoErrors(live, updated, s.manager)
			}
		} else {
			text := sliceJSON(s.version, s.devices)
			u := &unstructured.Unstructured{}
			if err := json.Unmarshal([]byte(text), &u.Object); err != nil {
				panic(err)
			}
			q := "/s?fieldManager=" + s.manager
			if s.op == "force" {
				q += "&force=true"
			}
			code, body = request("PATCH", path+q, "application/apply-patch+yaml", []byte(text))
			ours, ourErr = fm.Apply(live, u, s.manager, s.op == "force")
		}
		if !compareStep(s.name, code, body, decodeLegacy, ours, ourErr) {
			continue
		}
		exists = true
		oa, _ := meta.Accessor(ours)
		managed = oa.GetManagedFields()
		// the slice's devices must be what upstream's merge left
		if theirs := decodeLegacy(body); devicesOf(theirs) != devicesOf(ours) { // both in v1
			fail(s.name, "devices\n  dra:      %s\n  upstream: %s", devicesOf(theirs), devicesOf(ours))
		}
	}
}

// devicesOf: the spec.devices of a slice (upstream's answer is in the
// internal version: it is converted to v1), as JSON.
func devicesOf(obj runtime.Object) string {
	internal, err := legacyscheme.Scheme.ConvertToVersion(obj, schema.GroupVersion{Group: "resource.k8s.io", Version: runtime.APIVersionInternal})
	if err != nil {
		panic(err)
	}
	obj, err = legacyscheme.Scheme.ConvertToVersion(internal, schema.GroupVersion{Group: "resource.k8s.io", Version: "v1"})
	if err != nil {
		panic(err)
	}
	b, _ := json.Marshal(obj)
	var m struct {
		Spec struct{ Devices json.RawMessage } `json:"spec"`
	}
	json.Unmarshal(b, &m)
	return strings.TrimSpace(string(m.Spec.Devices))
}
