// The control loop's own writes: a pod with a claim from a template runs
// on a node, so the resourceclaim controller, kube-scheduler and the
// kubelet (dra's node simulator) each write the pod or its claim. Every
// write the watch shows is done again through upstream's field manager,
// as the component that made it writes (an Update through the main
// resource or /status, or the claim controller's forced ApplyStatus), and
// the managedFields must agree; the managers at the end must be the ones
// a real cluster shows.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/client-go/applyconfigurations"
	"k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

var controllerSetup = []struct{ path, body string }{
	{"/api/v1/nodes", `{"apiVersion":"v1","kind":"Node","metadata":{"name":"ctl-node"}}`},
	{"/apis/resource.k8s.io/v1/deviceclasses", `{"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass","metadata":{"name":"ctl-class"},` +
		`"spec":{"selectors":[{"cel":{"expression":"device.driver == \"ctl.example.com\""}}]}}`},
	{"/apis/resource.k8s.io/v1/resourceslices", `{"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":"ctl-slice"},` +
		`"spec":{"driver":"ctl.example.com","nodeName":"ctl-node","pool":{"name":"ctl-node","generation":1,"resourceSliceCount":1},"devices":[{"name":"d0"}]}}`},
	{"/apis/resource.k8s.io/v1/namespaces/default/resourceclaimtemplates", `{"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaimTemplate",` +
		`"metadata":{"name":"ctl-template","namespace":"default"},"spec":{"spec":{"devices":{"requests":[{"name":"gpu","exactly":{"deviceClassName":"ctl-class"}}]}}}}`},
	{"/api/v1/namespaces/default/pods", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"ctl-pod","namespace":"default"},` +
		`"spec":{"containers":[{"name":"app","image":"busybox","resources":{"claims":[{"name":"gpu"}]}}],` +
		`"resourceClaims":[{"name":"gpu","resourceClaimTemplateName":"ctl-template"}]}}`},
}

// The managers a real cluster shows at the end, by name/operation/subresource.
var wantManagers = map[string][]string{
	"Pod":           {"ResourceClaimController/Apply/status", "creator/Update/", "kubelet/Update/status"},
	"ResourceClaim": {"kube-controller-manager/Update/", "kube-scheduler/Update/", "kube-scheduler/Update/status"},
}

// fieldManagers: the main resource's and /status's, with the strategies'
// reset fields.
func fieldManagers(gvk schema.GroupVersionKind, main, status []fieldpath.Path) (*managedfields.FieldManager, *managedfields.FieldManager) {
	v := fieldpath.APIVersion(gvk.GroupVersion().String())
	make := func(sub string, reset []fieldpath.Path) *managedfields.FieldManager {
		fm, err := managedfields.NewDefaultFieldManager(applyconfigurations.NewTypeConverter(scheme.Scheme), scheme.Scheme,
			scheme.Scheme, scheme.Scheme, gvk, gvk.GroupVersion(), sub,
			map[fieldpath.APIVersion]fieldpath.Filter{v: fieldpath.NewExcludeSetFilter(fieldpath.NewSet(reset...))})
		if err != nil {
			panic(err)
		}
		return fm
	}
	return make("", main), make("status", status)
}

// history: every version of the object the watch shows, oldest first.
func history(path, name string) []runtime.Object {
	_, body := request("GET", path+"?watch=true&resourceVersion=1&timeoutSeconds=1&fieldSelector=metadata.name="+name, "", nil)
	var out []runtime.Object
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var ev struct {
			Type   string
			Object json.RawMessage
		}
		if json.Unmarshal(sc.Bytes(), &ev) == nil && (ev.Type == "ADDED" || ev.Type == "MODIFIED") {
			out = append(out, decode(ev.Object))
		}
	}
	return out
}

func identity(e metav1.ManagedFieldsEntry) string {
	return e.Manager + "/" + string(e.Operation) + "/" + e.Subresource
}

// writers: the entries of cur that the write made or grew, the main
// resource's first (none: a write no manager records, as the binding's).
func writers(prev, cur runtime.Object) []metav1.ManagedFieldsEntry {
	pa, _ := meta.Accessor(prev)
	ca, _ := meta.Accessor(cur)
	before := map[string]metav1.ManagedFieldsEntry{}
	for _, e := range pa.GetManagedFields() {
		before[identity(e)] = e
	}
	var out []metav1.ManagedFieldsEntry
	for _, e := range ca.GetManagedFields() {
		old, ok := before[identity(e)]
		grew := !ok || (!reflect.DeepEqual(old.FieldsV1, e.FieldsV1) && len(e.FieldsV1.Raw) > len(old.FieldsV1.Raw))
		if grew || (old.Time != nil && e.Time != nil && !old.Time.Equal(e.Time)) {
			out = append(out, e)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Subresource < out[j].Subresource })
	return out
}

// withStatusOf: cur with prev's status, the object between a writer's
// Update of the main resource and its UpdateStatus.
func withStatusOf(cur, prev runtime.Object) runtime.Object {
	c, err := runtime.DefaultUnstructuredConverter.ToUnstructured(cur)
	if err != nil {
		panic(err)
	}
	p, _ := runtime.DefaultUnstructuredConverter.ToUnstructured(prev)
	if st, ok := p["status"]; ok {
		c["status"] = st
	} else {
		delete(c, "status")
	}
	mid := cur.DeepCopyObject()
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(c, mid); err != nil {
		panic(err)
	}
	return mid
}

// replay: upstream's view of cur (prev being upstream's view of the
// version before) after the writes ws made it.
func replay(prev, cur runtime.Object, ws []metav1.ManagedFieldsEntry, main, status *managedfields.FieldManager) (runtime.Object, error) {
	cur = cur.DeepCopyObject()
	ca, _ := meta.Accessor(cur)
	if len(ws) == 0 { // no manager: managedFields stay
		pa, _ := meta.Accessor(prev)
		ca.SetManagedFields(pa.GetManagedFields())
		return cur, nil
	}
	ca.SetManagedFields(nil)
	for i, w := range ws {
		target := cur
		if i+1 < len(ws) { // a main-resource write before the status one
			target = withStatusOf(cur, prev)
		}
		switch {
		case w.Operation == metav1.ManagedFieldsOperationApply:
			next, err := status.Apply(prev, applied(target), w.Manager, true)
			if err != nil {
				return nil, err
			}
			prev = next
		case w.Subresource == "status":
			prev = status.UpdateNoErrors(prev, target.DeepCopyObject(), w.Manager)
		default:
			prev = main.UpdateNoErrors(prev, target.DeepCopyObject(), w.Manager)
		}
	}
	return prev, nil
}

// applied: the claim controller's apply configuration, from the pod it wrote.
func applied(cur runtime.Object) *unstructured.Unstructured {
	p := cur.(*corev1.Pod)
	var statuses []any
	for _, s := range p.Status.ResourceClaimStatuses {
		m := map[string]any{"name": s.Name}
		if s.ResourceClaimName != nil {
			m["resourceClaimName"] = *s.ResourceClaimName
		}
		statuses = append(statuses, m)
	}
	return &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Pod",
		"metadata": map[string]any{"name": p.Name, "namespace": p.Namespace},
		"status":   map[string]any{"resourceClaimStatuses": statuses}}}
}

// checkWrites: created, when the test created the object itself, is the
// create as kube-apiserver's handler saw it (asHandlerSees), which its
// field manager records rather than the object admission made of it.
func checkWrites(gvk schema.GroupVersionKind, versions []runtime.Object, created runtime.Object, main, status *managedfields.FieldManager) {
	kind := gvk.Kind
	if len(versions) < 2 {
		fail(kind+" writes", "the watch showed %d versions", len(versions))
		return
	}
	empty, _ := scheme.Scheme.New(gvk) // before the create
	versions = append([]runtime.Object{empty}, versions...)
	ours := empty // upstream's view: dra's object, upstream's managedFields
	for i := 1; i < len(versions); i++ {
		name := fmt.Sprintf("%s write %d", kind, i)
		ws := writers(versions[i-1], versions[i])
		written := versions[i]
		if i == 1 && created != nil {
			written = created
		}
		want, err := replay(ours, written, ws, main, status)
		if err != nil {
			fail(name, "upstream: %v", err)
			return
		}
		var who []string
		for _, w := range ws {
			who = append(who, identity(w))
		}
		if len(who) == 0 {
			who = []string{"nobody"}
		}
		if got, exp := text(entries(versions[i])), text(entries(want)); got != exp {
			fail(name, "by %s: managedFields\n  dra:      %s\n  upstream: %s", strings.Join(who, " and "), got, exp)
		} else {
			fmt.Printf("ok   %s by %s: %d managers\n", name, strings.Join(who, " and "), len(entries(want)))
		}
		next := versions[i].DeepCopyObject()
		na, _ := meta.Accessor(next)
		wa, _ := meta.Accessor(want)
		na.SetManagedFields(wa.GetManagedFields())
		ours = next
	}
	var got []string
	la, _ := meta.Accessor(versions[len(versions)-1])
	for _, e := range la.GetManagedFields() {
		got = append(got, identity(e))
	}
	sort.Strings(got)
	if !reflect.DeepEqual(got, wantManagers[kind]) {
		fail(kind+" managers", "dra %v, a cluster %v", got, wantManagers[kind])
	} else {
		fmt.Printf("ok   %s managers: %s\n", kind, strings.Join(got, ", "))
	}
}

func runControllerSteps() {
	for _, s := range controllerSetup {
		if code, body := request("POST", s.path+"?fieldManager=creator", "application/json", []byte(s.body)); code != 201 {
			fail("controller setup", "%s: %d %s", s.path, code, body)
			return
		}
	}
	var claimName string
	for try := 0; try < 100; try++ { // until the pod runs
		_, body := request("GET", "/api/v1/namespaces/default/pods/ctl-pod", "", nil)
		p := decode(body).(*corev1.Pod)
		if p.Status.Phase == corev1.PodRunning && len(p.Status.ResourceClaimStatuses) == 1 {
			claimName = *p.Status.ResourceClaimStatuses[0].ResourceClaimName
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if claimName == "" {
		fail("controller writes", "the pod did not run")
		return
	}
	podGVK := schema.GroupVersionKind{Version: "v1", Kind: "Pod"}
	podMain, podStatus := fieldManagers(podGVK,
		[]fieldpath.Path{fieldpath.MakePathOrDie("status")},
		[]fieldpath.Path{fieldpath.MakePathOrDie("spec"), fieldpath.MakePathOrDie("metadata", "deletionTimestamp"),
			fieldpath.MakePathOrDie("metadata", "ownerReferences")})
	var podCreate runtime.Object
	for _, s := range controllerSetup {
		if strings.HasSuffix(s.path, "/pods") {
			podCreate = asHandlerSees([]byte(s.body))
		}
	}
	checkWrites(podGVK, history("/api/v1/namespaces/default/pods", "ctl-pod"), podCreate, podMain, podStatus)
	claimGVK := resourcev1.SchemeGroupVersion.WithKind("ResourceClaim")
	claimMain, claimStatus := fieldManagers(claimGVK,
		[]fieldpath.Path{fieldpath.MakePathOrDie("status")},
		[]fieldpath.Path{fieldpath.MakePathOrDie("metadata"), fieldpath.MakePathOrDie("spec")})
	checkWrites(claimGVK, history("/apis/resource.k8s.io/v1/namespaces/default/resourceclaims", claimName), nil, claimMain, claimStatus)
}
