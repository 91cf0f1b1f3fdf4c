// Upstream's admission of a case, in-process: the object decoded, defaulted
// and converted to the internal version by the legacy scheme (as
// kube-apiserver's decoder does), then what the generic registry runs on a
// create (rest.FillObjectMetaSystemFields, the strategy's PrepareForCreate,
// rest.ValidateCreate: Validate, ObjectMeta and declarative validation,
// WarningsOnCreate) or an update (rest.BeforeUpdate's steps with
// rest.ValidateUpdate and WarningsOnUpdate), with dra's feature gates.
package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/go-logr/logr"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	k8sjson "k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/apiserver/pkg/warning"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/component-base/featuregate"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/apis/core"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	"k8s.io/kubernetes/pkg/apis/resource"
	_ "k8s.io/kubernetes/pkg/apis/resource/install"
	"k8s.io/kubernetes/pkg/apis/scheduling"
	_ "k8s.io/kubernetes/pkg/apis/scheduling/install"
	"k8s.io/kubernetes/pkg/registry/core/namespace"
	noderegistry "k8s.io/kubernetes/pkg/registry/core/node"
	"k8s.io/kubernetes/pkg/registry/core/pod"
	"k8s.io/kubernetes/pkg/registry/resource/deviceclass"
	"k8s.io/kubernetes/pkg/registry/resource/resourceclaim"
	"k8s.io/kubernetes/pkg/registry/resource/resourceclaimtemplate"
	"k8s.io/kubernetes/pkg/registry/resource/resourceslice"
	"k8s.io/kubernetes/pkg/registry/scheduling/podgroup"
	"k8s.io/kubernetes/pkg/registry/scheduling/workload"
)

type strategy interface {
	rest.RESTCreateStrategy
	rest.RESTUpdateStrategy
}

// namespaces answers the strategies' Namespace lookups (adminAccess) from
// the case's objects.
type namespaces struct {
	typedcorev1.NamespaceInterface
	byName map[string]*corev1.Namespace
}

func (n *namespaces) Get(ctx context.Context, name string, opts metav1.GetOptions) (*corev1.Namespace, error) {
	if ns, ok := n.byName[name]; ok {
		return ns, nil
	}
	return nil, apierrors.NewNotFound(schema.GroupResource{Resource: "namespaces"}, name)
}

func strategyFor(obj runtime.Object, ns *namespaces) strategy {
	switch obj.(type) {
	case *resource.DeviceClass:
		return deviceclass.Strategy
	case *resource.ResourceClaim:
		return resourceclaim.NewStrategy(ns, nil)
	case *resource.ResourceClaimTemplate:
		return resourceclaimtemplate.NewStrategy(ns)
	case *resource.ResourceSlice:
		return resourceslice.Strategy
	case *core.Pod:
		return pod.Strategy
	case *core.Node:
		return noderegistry.Strategy
	case *core.Namespace:
		return namespace.Strategy
	case *scheduling.PodGroup:
		return podgroup.NewStrategy()
	case *scheduling.Workload:
		return workload.Strategy
	}
	return nil
}

func resourceOf(obj runtime.Object) string {
	switch obj.(type) {
	case *resource.DeviceClass:
		return "deviceclasses"
	case *resource.ResourceClaim:
		return "resourceclaims"
	case *resource.ResourceClaimTemplate:
		return "resourceclaimtemplates"
	case *resource.ResourceSlice:
		return "resourceslices"
	case *core.Pod:
		return "pods"
	case *core.Node:
		return "nodes"
	case *core.Namespace:
		return "namespaces"
	case *scheduling.PodGroup:
		return "podgroups"
	case *scheduling.Workload:
		return "workloads"
	}
	return ""
}

type warnings struct{ list []string }

func (w *warnings) AddWarning(agent, text string) { w.list = append(w.list, text) }

// kubectl asks for strict field validation: the strict JSON serializer,
// then defaulting and conversion to the internal version.
var decoder = legacyscheme.Codecs.DecoderToVersion(
	k8sjson.NewSerializerWithOptions(k8sjson.DefaultMetaFactory, legacyscheme.Scheme, legacyscheme.Scheme,
		k8sjson.SerializerOptions{Strict: true}),
	runtime.InternalGroupVersioner)

// decode: the object, or kube-apiserver's BadRequest message
// (handlers.transformDecodeError).
func decode(b []byte) (runtime.Object, schema.GroupVersionKind, error) {
	obj, gvk, err := decoder.Decode(b, nil, nil)
	if gvk == nil {
		gvk = &schema.GroupVersionKind{}
	}
	if err != nil {
		if gvk.Kind != "" {
			return nil, *gvk, fmt.Errorf("%s in version %q cannot be handled as a %s: %v", gvk.Kind, gvk.Version, gvk.Kind, err)
		}
		return nil, *gvk, err
	}
	return obj, *gvk, nil
}

// setGates sets the gates that differ from the case's (setting an unchanged
// GA gate only logs a warning).
func setGates(c *Case) error {
	m := map[string]bool{}
	for k, v := range c.gates() {
		if utilfeature.DefaultFeatureGate.Enabled(featuregate.Feature(k)) != v {
			m[k] = v
		}
	}
	if len(m) == 0 {
		return nil
	}
	return utilfeature.DefaultMutableFeatureGate.SetFromMap(m)
}

func init() {
	klog.SetLogger(logr.Discard()) // the strategies' log lines are not verdicts
}

// admit runs obj through create (old nil) or update; the errors and warnings.
// gvk is the version the object came in (declarative validation runs on it).
func admit(obj, old runtime.Object, gvk schema.GroupVersionKind, ns *namespaces) (field.ErrorList, []string, error) {
	s := strategyFor(obj, ns)
	if s == nil {
		return nil, nil, fmt.Errorf("no strategy for %T", obj)
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return nil, nil, err
	}
	// kubectl sends a namespaced object without a namespace to its context's
	// ("default"); the request's namespace fills or clears metadata.namespace.
	reqNS := m.GetNamespace()
	if reqNS == "" {
		reqNS = metav1.NamespaceDefault
	}
	if err := rest.EnsureObjectNamespaceMatchesRequestNamespace(rest.ExpectedNamespaceForScope(reqNS, s.NamespaceScoped()), m); err != nil {
		return nil, nil, err
	}
	w := &warnings{}
	verb := "create"
	if old != nil {
		verb = "update"
	}
	ctx := genericapirequest.WithNamespace(context.Background(), m.GetNamespace())
	ctx = genericapirequest.WithRequestInfo(ctx, &genericapirequest.RequestInfo{IsResourceRequest: true, Verb: verb,
		APIGroup: gvk.Group, APIVersion: gvk.Version, Namespace: m.GetNamespace(), Name: m.GetName(),
		Resource: resourceOf(obj)})
	ctx = warning.WithWarningRecorder(ctx, w)
	if old == nil {
		rest.FillObjectMetaSystemFields(m)
		s.PrepareForCreate(ctx, obj)
		errs := rest.ValidateCreate(ctx, obj, s)
		if len(errs) == 0 {
			w.list = append(w.list, s.WarningsOnCreate(ctx, obj)...)
		}
		return errs, w.list, nil
	}
	om, _ := meta.Accessor(old)
	// An update without resourceVersion is unconditional: the registry
	// (Store.Update) gives it the stored object's before validating.
	if m.GetResourceVersion() == "" {
		m.SetResourceVersion(om.GetResourceVersion())
	}
	m.SetGeneration(om.GetGeneration())
	s.PrepareForUpdate(ctx, obj, old)
	if len(m.GetUID()) == 0 {
		m.SetUID(om.GetUID())
	}
	m.SetCreationTimestamp(om.GetCreationTimestamp())
	if !om.GetDeletionTimestamp().IsZero() {
		m.SetDeletionTimestamp(om.GetDeletionTimestamp())
	}
	errs := rest.ValidateUpdate(ctx, obj, old, s)
	if len(errs) == 0 {
		w.list = append(w.list, s.WarningsOnUpdate(ctx, obj, old)...)
	}
	return errs, w.list, nil
}

// runUpstream answers a case as kube-apiserver would.
func runUpstream(c *Case) Result {
	res := Result{ID: c.ID}
	if err := setGates(c); err != nil {
		res.Status, res.Error = statusError, "gates: "+err.Error()
		return res
	}
	ns := &namespaces{byName: map[string]*corev1.Namespace{}}
	for _, raw := range c.Objects {
		var n corev1.Namespace
		if err := json.Unmarshal(raw, &n); err != nil || n.Kind != "Namespace" {
			res.Status, res.Error = statusError, "load: objects holds a non-Namespace"
			return res
		}
		n.Labels = withNameLabel(n.Labels, n.Name)
		ns.byName[n.Name] = &n
	}
	var old runtime.Object
	if len(c.Old) > 0 {
		o, gvk, err := decode(c.Old)
		if err != nil {
			res.Status, res.Error = statusError, "old: "+err.Error()
			return res
		}
		errs, _, err := admit(o, nil, gvk, ns)
		if err != nil || len(errs) > 0 {
			res.Status, res.Error = statusError, fmt.Sprint("old: ", err, errs.ToAggregate())
			return res
		}
		om, _ := meta.Accessor(o)
		om.SetResourceVersion("1") // as stored
		old = o
	}
	obj, gvk, err := decode(c.Object)
	if err != nil {
		res.Status, res.Error = statusBadRequest, err.Error()
		return res
	}
	errs, warns, err := admit(obj, old, gvk, ns)
	if err != nil {
		res.Status, res.Error = statusError, err.Error()
		return res
	}
	res.Warnings = warns
	if len(errs) == 0 {
		res.Status = statusOK
		return res
	}
	res.Status = statusInvalid
	for _, e := range errs {
		res.Errors = append(res.Errors, FieldError{Type: string(e.Type), Field: e.Field, Body: e.ErrorBody()})
	}
	return res
}

// The kubernetes.io/metadata.name label the Namespace defaulting adds.
func withNameLabel(l map[string]string, name string) map[string]string {
	out := map[string]string{corev1.LabelMetadataName: name}
	for k, v := range l {
		if k != corev1.LabelMetadataName {
			out[k] = v
		}
	}
	return out
}
