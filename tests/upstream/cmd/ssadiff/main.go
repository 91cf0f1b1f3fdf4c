// Command ssadiff is the differential oracle for dra serve's server-side
// apply: it runs a sequence of creates, updates and applies (several
// managers, a conflict, a forced apply, a field given up, an apply that
// creates) against a running dra serve, and the same sequence through
// upstream's own field manager (k8s.io/apimachinery managedfields with
// client-go's apply schema) on the objects dra answered, then compares the
// managedFields (times aside), the conflict messages and the applied
// labels and annotations (kubectl's last-applied-configuration included). It prints one line per step and exits 1 on any difference.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"reflect"
	"sort"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/client-go/applyconfigurations"
	"k8s.io/client-go/kubernetes/scheme"
	podDefaults "k8s.io/kubernetes/pkg/apis/core/v1"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

type step struct {
	name, op, manager string // op: create, update (the image changed), apply, force (apply --force-conflicts)
	object            string
}

const pod = `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"%s","namespace":"default"%s},"spec":{"containers":[%s]}}`

func podJSON(name, meta, containers string) string { return fmt.Sprintf(pod, name, meta, containers) }

var steps = []step{
	{"create", "create", "creator", podJSON("p", `,"labels":{"a":"1"}`, `{"name":"app","image":"nginx:1"}`)},
	{"apply shares", "apply", "applier", podJSON("p", `,"labels":{"a":"1","b":"2"}`, `{"name":"app","image":"nginx:1"}`)},
	{"update takes image", "update", "editor", ""},
	{"apply conflicts", "apply", "applier", podJSON("p", `,"labels":{"b":"2"}`, `{"name":"app","image":"nginx:1"}`)},
	{"apply forced", "force", "applier", podJSON("p", `,"labels":{"b":"2"}`, `{"name":"app","image":"nginx:1"}`)},
	{"second applier", "apply", "annotator", podJSON("p", `,"annotations":{"x":"y"},"labels":{"b":"2"}`, `{"name":"app","image":"nginx:1"}`)},
	{"applier gives up label", "apply", "applier", podJSON("p", ``, `{"name":"app","image":"nginx:1"}`)},
	{"annotator gives up all", "apply", "annotator", podJSON("p", ``, `{"name":"app","image":"nginx:1"}`)},
	{"apply creates", "apply", "applier", podJSON("q", `,"labels":{"c":"3"}`, `{"name":"app","image":"nginx:1"},{"name":"side","image":"busybox"}`)},
	{"update of applied", "update", "editor", ""},
	{"status writer", "status", "kubelet", ""},
	{"apply after status", "apply", "applier", podJSON("p", `,"labels":{"b":"2"}`, `{"name":"app","image":"nginx:1"}`)},
}

// kubectl's migration from client-side to server-side apply: its apply may
// change, unforced, what its last-applied-configuration still says.
const lastApplied = `{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"annotations\":{},\"name\":\"r\",\"namespace\":\"default\"},\"spec\":{\"containers\":[{\"image\":\"nginx:1\",\"name\":\"app\"}]}}\n`

func init() {
	steps = append(steps,
		step{"client-side apply", "create", "kubectl-client-side-apply",
			podJSON("r", `,"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"`+lastApplied+`"}`, `{"name":"app","image":"nginx:1"}`)},
		step{"server-side after client-side", "apply", "kubectl", podJSON("r", ``, `{"name":"app","image":"nginx:5"}`)},
		step{"annotation kept up", "apply", "kubectl", podJSON("r", `,"labels":{"l":"1"}`, `{"name":"app","image":"nginx:5"}`)},
	)
}

// A port's protocol is part of its list-map key and defaults to TCP: an
// apply that leaves it out and one that says TCP name the same port.
func init() {
	steps = append(steps,
		step{"apply port without protocol", "apply", "porter", podJSON("k", ``, `{"name":"app","image":"nginx:1","ports":[{"containerPort":80}]}`)},
		step{"apply port with TCP shares it", "apply", "tcp-porter", podJSON("k", ``, `{"name":"app","image":"nginx:1","ports":[{"containerPort":80,"protocol":"TCP"}]}`)},
		step{"port without protocol given up", "apply", "porter", podJSON("k", `,"labels":{"k":"1"}`, `{"name":"app","image":"nginx:1"}`)},
	)
}

// Twelve more Update managers on q: beyond ten the oldest are folded into
// "ancient-changes".
func init() {
	for i := 1; i <= 12; i++ {
		steps = append(steps, step{fmt.Sprintf("update manager %d", i), "update", fmt.Sprintf("m%02d", i), ""})
	}
}

var (
	live, draSeen      = map[string]*corev1.Pod{}, map[string]*corev1.Pod{} // upstream's view; dra's last answer
	podFM, podStatusFM *managedfields.FieldManager
	server             = flag.String("server", "", "dra serve's URL (plain HTTP)")
	failed             bool
)

func request(method, path, contentType string, body []byte) (int, []byte) {
	req, err := http.NewRequest(method, *server+path, bytes.NewReader(body))
	if err != nil {
		panic(err)
	}
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("User-Agent", "ssadiff/v0")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, out
}

// settle waits for kube-scheduler's PodScheduled=False on pod name (there
// are no nodes yet), so that no write of the scheduler's races a step.
func settle(name string) {
	for try := 0; try < 100; try++ {
		_, now := request("GET", "/api/v1/namespaces/default/pods/"+name, "", nil)
		for _, c := range decode(now).(*corev1.Pod).Status.Conditions {
			if c.Type == corev1.PodScheduled {
				return
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	panic("no PodScheduled condition on pod " + name)
}

// catchUp: upstream's view of pod name as it is now, after what the
// control loop wrote since the last step (kube-scheduler's
// PodScheduled=False: there are no nodes yet), replayed through
// upstream's field manager as its writers make it.
func catchUp(name string) *corev1.Pod {
	_, now := request("GET", "/api/v1/namespaces/default/pods/"+name, "", nil)
	cur := decode(now).(*corev1.Pod)
	if seen := draSeen[name]; seen != nil && seen.ResourceVersion != cur.ResourceVersion {
		up, err := replay(live[name], cur, writers(seen, cur), podFM, podStatusFM)
		if err != nil {
			panic(err)
		}
		live[name] = up.(*corev1.Pod)
		draSeen[name] = cur.DeepCopy()
	}
	cur.ManagedFields = live[name].ManagedFields
	return cur
}

func decode(b []byte) runtime.Object { return decodeWith(scheme.Codecs.UniversalDeserializer(), b) }

// asHandlerSees: a pod as kube-apiserver's handler has it when its field
// manager runs: decoded with the defaults decoding applies
// (SetObjectDefaults_Pod), before mutating admission (Priority,
// DefaultTolerationSeconds) and the strategy, whose fields no manager owns.
func asHandlerSees(b []byte) runtime.Object {
	p := decode(b).(*corev1.Pod)
	podDefaults.SetObjectDefaults_Pod(p)
	p.ManagedFields = nil
	return p
}

// decodeWith decodes b with d, and stops the run if it cannot.
func decodeWith(d runtime.Decoder, b []byte) runtime.Object {
	obj, _, err := d.Decode(b, nil, nil)
	if err != nil {
		panic(fmt.Sprintf("%v: %s", err, b))
	}
	return obj
}

// entries: the managedFields without times, in a stable order.
func entries(obj runtime.Object) []metav1.ManagedFieldsEntry {
	a, _ := meta.Accessor(obj)
	var out []metav1.ManagedFieldsEntry
	for _, e := range a.GetManagedFields() {
		e.Time = nil
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].Manager+string(out[i].Operation) < out[j].Manager+string(out[j].Operation)
	})
	return out
}

func text(es []metav1.ManagedFieldsEntry) string {
	b, _ := json.Marshal(es)
	return string(b)
}

// compareStep checks dra's answer (code, body) against upstream's result
// of the same step: the same conflict message, or the same managedFields
// (times aside). Whether the step wrote an object on both sides.
func compareStep(name string, code int, body []byte, decode func([]byte) runtime.Object, ours runtime.Object, ourErr error) bool {
	if ourErr != nil {
		var st metav1.Status
		json.Unmarshal(body, &st)
		if code != 409 || st.Message != ourErr.Error() {
			fail(name, "upstream: %v; dra: %d %s", ourErr, code, body)
		} else {
			fmt.Printf("ok   %s: %s\n", name, st.Message)
		}
		return false
	}
	if code >= 300 {
		fail(name, "dra answered %d: %s", code, body)
		return false
	}
	if got, want := text(entries(decode(body))), text(entries(ours)); got != want {
		fail(name, "managedFields\n  dra:      %s\n  upstream: %s", got, want)
	} else {
		fmt.Printf("ok   %s: %d managers\n", name, len(entries(ours)))
	}
	return true
}

func fail(name, format string, args ...any) {
	failed = true
	fmt.Printf("FAIL %s: %s\n", name, fmt.Sprintf(format, args...))
}

func main() {
	flag.Parse()
	gvk := schema.GroupVersionKind{Version: "v1", Kind: "Pod"}
	// the pod strategy's reset fields: status is not written through the main resource
	reset := map[fieldpath.APIVersion]fieldpath.Filter{
		"v1": fieldpath.NewExcludeSetFilter(fieldpath.NewSet(fieldpath.MakePathOrDie("status"))),
	}
	fm, err := managedfields.NewDefaultFieldManager(applyconfigurations.NewTypeConverter(scheme.Scheme), scheme.Scheme,
		scheme.Scheme, scheme.Scheme, gvk, gvk.GroupVersion(), "", reset)
	if err != nil {
		panic(err)
	}
	// writes through /status: the pod status strategy's reset fields
	statusReset := map[fieldpath.APIVersion]fieldpath.Filter{
		"v1": fieldpath.NewExcludeSetFilter(fieldpath.NewSet(fieldpath.MakePathOrDie("spec"),
			fieldpath.MakePathOrDie("metadata", "deletionTimestamp"), fieldpath.MakePathOrDie("metadata", "ownerReferences"))),
	}
	statusFM, err := managedfields.NewDefaultFieldManager(applyconfigurations.NewTypeConverter(scheme.Scheme),
		scheme.Scheme, scheme.Scheme, scheme.Scheme, gvk, gvk.GroupVersion(), "status", statusReset)
	if err != nil {
		panic(err)
	}
	live = map[string]*corev1.Pod{} // upstream's view: dra's objects with upstream's managedFields
	podFM, podStatusFM = fm, statusFM
	for i, s := range steps {
		var name string
		var code int
		var body []byte
		var ours runtime.Object
		var ourErr error
		switch s.op {
		case "create":
			u := &unstructured.Unstructured{}
			if err := json.Unmarshal([]byte(s.object), &u.Object); err != nil {
				panic(err)
			}
			name = u.GetName()
			code, body = request("POST", "/api/v1/namespaces/default/pods?fieldManager="+s.manager, "application/json", []byte(s.object))
			if code == 201 {
				empty, _ := scheme.Scheme.New(gvk)
				ours = fm.UpdateNoErrors(empty, asHandlerSees([]byte(s.object)), s.manager)
			}
		case "update", "status":
			name = "p"
			if _, ok := live["q"]; ok && s.op == "update" {
				name = "q"
			}
			path, manager := "/api/v1/namespaces/default/pods/"+name, fm
			if s.op == "status" {
				path, manager = path+"/status", statusFM
			}
			// the object as it is now: the scheduler writes pods' status
			// meanwhile, so a 409 is retried on a fresh read, as clients do
			var sent []byte
			for try := 0; try < 50; try++ {
				cur := catchUp(name)
				live[name] = cur.DeepCopy()
				if s.op == "status" {
					cur.Status.Message = "running fine"
				} else {
					cur.Spec.Containers[0].Image = fmt.Sprintf("nginx:%d", 100+i)
					if cur.Labels == nil {
						cur.Labels = map[string]string{}
					}
					cur.Labels["by-"+s.manager] = "1" // a field each updater keeps
				}
				cur.ManagedFields = nil
				sent, _ = json.Marshal(cur)
				code, body = request("PUT", path+"?fieldManager="+s.manager, "application/json", sent)
				if code != 409 {
					break
				}
				time.Sleep(20 * time.Millisecond)
			}
			if code == 200 {
				ours = manager.UpdateNoErrors(live[name].DeepCopy(), asHandlerSees(sent), s.manager)
			}
		default:
			u := &unstructured.Unstructured{}
			if err := json.Unmarshal([]byte(s.object), &u.Object); err != nil {
				panic(err)
			}
			name = u.GetName()
			q := "?fieldManager=" + s.manager
			if s.op == "force" {
				q += "&force=true"
			}
			var base runtime.Object
			if _, ok := live[name]; ok {
				base = catchUp(name).DeepCopy()
			} else {
				base, _ = scheme.Scheme.New(gvk)
			}
			code, body = request("PATCH", "/api/v1/namespaces/default/pods/"+name+q, "application/apply-patch+yaml", []byte(s.object))
			ours, ourErr = fm.Apply(base, u, s.manager, s.op == "force")
		}
		if !compareStep(s.name, code, body, decode, ours, ourErr) {
			continue
		}
		theirs := decode(body)
		if s.op == "apply" || s.op == "force" { // the applied labels and annotations (last-applied too)
			oa, _ := meta.Accessor(ours)
			ta, _ := meta.Accessor(theirs)
			for _, m := range [][2]map[string]string{{oa.GetLabels(), ta.GetLabels()}, {oa.GetAnnotations(), ta.GetAnnotations()}} {
				if len(m[0])+len(m[1]) > 0 && !reflect.DeepEqual(m[0], m[1]) {
					fail(s.name, "dra %v, upstream %v", m[1], m[0])
				}
			}
		}
		// upstream's view of the object for the next step: dra's object, upstream's managedFields
		next := theirs.(*corev1.Pod).DeepCopy()
		oa, _ := meta.Accessor(ours)
		next.ManagedFields = oa.GetManagedFields()
		live[name] = next
		draSeen[name] = theirs.(*corev1.Pod)
		settle(name)
	}
	runVersionSteps()
	runControllerSteps()
	if failed {
		os.Exit(1)
	}
}
