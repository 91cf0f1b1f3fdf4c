// Command pbclient drives dra serve with client-go's REST client in
// protobuf (Content-Type and Accept application/vnd.kubernetes.protobuf
// only), as kube-scheduler and kubectl's typed clients talk to
// kube-apiserver: for every object of a manifest it watches the
// collection, creates the object, gets it, lists it, waits for its ADDED
// event, and checks that the object read in protobuf is the one read in
// JSON; once the controllers have written to them, every list read in
// protobuf must equal the list read in JSON; then it deletes everything
// with a protobuf DeleteOptions body.
// Exit 0 when every step worked, 1 otherwise (tests/serve_protobuf.sh).
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
	"k8s.io/client-go/tools/clientcmd"
)

const protobuf = "application/vnd.kubernetes.protobuf"

func client(base *rest.Config, gv schema.GroupVersion, contentType string) *rest.RESTClient {
	cfg := rest.CopyConfig(base)
	cfg.GroupVersion = &gv
	cfg.APIPath = "/apis"
	if gv.Group == "" {
		cfg.APIPath = "/api"
	}
	cfg.ContentType = contentType
	cfg.AcceptContentTypes = contentType
	cfg.NegotiatedSerializer = scheme.Codecs.WithoutConversion()
	c, err := rest.RESTClientFor(cfg)
	if err != nil {
		fail("client for %s: %v", gv, err)
	}
	return c
}

var failures int

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "FAIL "+format+"\n", args...)
	failures++
}

type step struct {
	obj        runtime.Object
	gvk        schema.GroupVersionKind
	resource   string
	namespaced bool
	ns, name   string
	pb, js     *rest.RESTClient
}

func (s *step) req(r *rest.Request) *rest.Request {
	return r.NamespaceIfScoped(s.ns, s.namespaced).Resource(s.resource)
}

func jsonOf(o runtime.Object) string {
	b, _ := json.Marshal(o)
	return string(b)
}

func (s *step) run(ctx context.Context) {
	what := s.gvk.Kind + " " + s.name
	w, err := s.req(s.pb.Get()).VersionedParams(&metav1.ListOptions{FieldSelector: "metadata.name=" + s.name, Watch: true},
		scheme.ParameterCodec).Watch(ctx)
	if err != nil {
		fail("%s: watch: %v", what, err)
		return
	}
	defer w.Stop()
	created, _ := scheme.Scheme.New(s.gvk)
	if err := s.req(s.pb.Post()).Body(s.obj).Do(ctx).Into(created); err != nil {
		fail("%s: create: %v", what, err)
		return
	}
	if m, _ := meta.Accessor(created); m.GetName() != s.name || m.GetUID() == "" {
		fail("%s: create answered %s", what, jsonOf(created))
	}
	if path := missing(tree(s.obj), tree(created), ""); path != "" {
		fail("%s: what was sent is not what was stored, at %s", what, path)
	}
	s.compareGets(ctx, what)
	list, _ := scheme.Scheme.New(s.gvk.GroupVersion().WithKind(s.gvk.Kind + "List"))
	if err := s.req(s.pb.Get()).Do(ctx).Into(list); err != nil {
		fail("%s: list: %v", what, err)
	} else if items, _ := meta.ExtractList(list); !containsName(items, s.name) {
		fail("%s: not in its list", what)
	}
	select {
	case ev := <-w.ResultChan():
		m, err := meta.Accessor(ev.Object)
		if ev.Type != watch.Added || err != nil || m.GetName() != s.name {
			fail("%s: watch event %s %s", what, ev.Type, jsonOf(ev.Object))
		}
	case <-time.After(5 * time.Second):
		fail("%s: no watch event", what)
	}
	fmt.Printf("ok %s/%s %s: create, get, list, watch\n", s.gvk.GroupVersion(), s.gvk.Kind, s.name)
}

// compareGets reads the object in protobuf and in JSON: the two must be the
// same. A controller may write it in between, so only reads of the same
// resourceVersion are compared, trying a few times.
func (s *step) compareGets(ctx context.Context, what string) {
	for try := 0; try < 5; try++ {
		got, _ := scheme.Scheme.New(s.gvk)
		if err := s.req(s.pb.Get()).Name(s.name).Do(ctx).Into(got); err != nil {
			fail("%s: get: %v", what, err)
			return
		}
		viaJSON, _ := scheme.Scheme.New(s.gvk)
		if err := s.req(s.js.Get()).Name(s.name).Do(ctx).Into(viaJSON); err != nil {
			fail("%s: get in JSON: %v", what, err)
			return
		}
		m1, _ := meta.Accessor(got)
		m2, _ := meta.Accessor(viaJSON)
		if m1.GetResourceVersion() != m2.GetResourceVersion() {
			continue
		}
		if jsonOf(got) != jsonOf(viaJSON) {
			fail("%s: protobuf and JSON differ:\n  %s\n  %s", what, jsonOf(got), jsonOf(viaJSON))
		}
		return
	}
	fail("%s: changed between every protobuf and JSON read", what)
}

// compareLists lists s's kind in every namespace in protobuf and in JSON:
// each object at the same resourceVersion in both must read the same.
func compareLists(ctx context.Context, s *step) {
	lists := [2]runtime.Object{}
	for i, c := range []*rest.RESTClient{s.pb, s.js} {
		lists[i], _ = scheme.Scheme.New(s.gvk.GroupVersion().WithKind(s.gvk.Kind + "List"))
		if err := c.Get().Resource(s.resource).Do(ctx).Into(lists[i]); err != nil {
			fail("%s: list: %v", s.gvk.Kind, err)
			return
		}
	}
	inJSON := map[string]string{}
	items, _ := meta.ExtractList(lists[1])
	for _, o := range items {
		o.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{}) // list items in protobuf carry none
		m, _ := meta.Accessor(o)
		inJSON[m.GetNamespace()+"/"+m.GetName()+"@"+m.GetResourceVersion()] = jsonOf(o)
	}
	items, _ = meta.ExtractList(lists[0])
	same := 0
	for _, o := range items {
		m, _ := meta.Accessor(o)
		if j, ok := inJSON[m.GetNamespace()+"/"+m.GetName()+"@"+m.GetResourceVersion()]; ok {
			if j != jsonOf(o) {
				fail("%s %s: protobuf and JSON lists differ:\n  %s\n  %s", s.gvk.Kind, m.GetName(), jsonOf(o), j)
			}
			same++
		}
	}
	fmt.Printf("ok %s/%s list: %d objects the same in protobuf and JSON\n", s.gvk.GroupVersion(), s.gvk.Kind, same)
}

func tree(o runtime.Object) any {
	var v any
	json.Unmarshal([]byte(jsonOf(o)), &v)
	if m, ok := v.(map[string]any); ok {
		delete(m, "status") // the server keeps its own status on create
		delete(m, "kind")   // typed objects read back carry no TypeMeta
		delete(m, "apiVersion")
	}
	return v
}

// missing is the path of the first value of sent that stored lacks or has
// otherwise ("" when stored holds all of sent; the server may add defaults).
func missing(sent, stored any, path string) string {
	switch s := sent.(type) {
	case map[string]any:
		t, _ := stored.(map[string]any)
		for k, v := range s {
			if p := missing(v, t[k], path+"."+k); p != "" {
				return p
			}
		}
	case []any:
		t, _ := stored.([]any)
		if len(t) != len(s) {
			return path
		}
		for i := range s {
			if p := missing(s[i], t[i], fmt.Sprintf("%s[%d]", path, i)); p != "" {
				return p
			}
		}
	case nil:
	default:
		if fmt.Sprint(sent) != fmt.Sprint(stored) {
			return fmt.Sprintf("%s (%v, stored %v)", path, sent, stored)
		}
	}
	return ""
}

func containsName(items []runtime.Object, name string) bool {
	for _, o := range items {
		if m, err := meta.Accessor(o); err == nil && m.GetName() == name {
			return true
		}
	}
	return false
}

func main() {
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig of dra serve")
	file := flag.String("f", "", "manifest (multi-document YAML)")
	flag.Parse()
	cfg, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	groups, err := restmapper.GetAPIGroupResources(discovery.NewDiscoveryClientForConfigOrDie(cfg))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	mapper := restmapper.NewDiscoveryRESTMapper(groups)
	data, err := os.ReadFile(*file)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	ctx := context.Background()
	var steps []*step
	for _, doc := range strings.Split(string(data), "\n---\n") {
		obj, gvk, err := scheme.Codecs.UniversalDeserializer().Decode([]byte(doc), nil, nil)
		if err != nil {
			fail("decoding a document: %v", err)
			continue
		}
		mapping, err := mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
		if err != nil {
			fail("%s: %v", gvk, err)
			continue
		}
		m, _ := meta.Accessor(obj)
		s := &step{obj: obj, gvk: *gvk, resource: mapping.Resource.Resource,
			namespaced: mapping.Scope.Name() == meta.RESTScopeNameNamespace, ns: m.GetNamespace(), name: m.GetName(),
			pb: client(cfg, gvk.GroupVersion(), protobuf), js: client(cfg, gvk.GroupVersion(), "application/json")}
		s.run(ctx)
		steps = append(steps, s)
	}
	time.Sleep(2 * time.Second) // the controllers and the scheduler write statuses, claims, events
	compared := map[string]bool{}
	for _, s := range steps {
		if key := s.gvk.String(); !compared[key] {
			compared[key] = true
			compareLists(ctx, s)
		}
	}
	for i := len(steps) - 1; i >= 0; i-- {
		s := steps[i]
		var status bytes.Buffer
		res := s.req(s.pb.Delete()).Name(s.name).Body(&metav1.DeleteOptions{}).Do(ctx)
		if err := res.Error(); err != nil {
			fail("%s %s: delete: %v", s.gvk.Kind, s.name, err)
			continue
		}
		raw, _ := res.Raw()
		status.Write(raw)
		if !bytes.HasPrefix(raw, []byte("k8s\x00")) {
			fail("%s %s: delete answered in another format", s.gvk.Kind, s.name)
		}
	}
	fmt.Printf("%d objects, %d failures\n", len(steps), failures)
	if failures > 0 {
		os.Exit(1)
	}
}
