package controller

import (
	"errors"
	"fmt"
	"hash/fnv"
	"strings"
	"time"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/cluster"
	"github.com/genplay/genplay/engine/resource"
)

// host answers the CEL libraries' calls for one evaluation
// (compiler.Host): the API calls of K:pkg/cel/libs/context.go, made as
// Kyverno's background controller against the simulated cluster.
type host struct{ ev *evaluation }

// errNoNetwork answers http.* and image.*: genplay makes no network calls.
var errNoNetwork = errors.New("genplay's simulated cluster has no network: http and image calls cannot be answered")

// kindOf maps apiVersion + resource (plural, maybe with /subresource) to a
// kind the store serves.
func (f *Family) kindOf(apiVersion, res string) (cluster.KindInfo, string, error) {
	res, sub, _ := strings.Cut(res, "/")
	g, v := resource.SplitAPIVersion(apiVersion)
	info, ok := f.store.KindByResource(g, v, res)
	if !ok {
		return info, sub, fmt.Errorf("the server could not find the requested resource (%s %s)", apiVersion, res)
	}
	return info, sub, nil
}

// Get implements compiler.Host: the object, or (nil, nil) when NotFound.
func (h *host) Get(apiVersion, res, namespace, name string) (map[string]any, error) {
	info, _, err := h.ev.f.kindOf(apiVersion, res)
	if err != nil {
		return nil, err
	}
	obj, err := h.ev.f.store.Get(resource.Ref{APIVersion: info.APIVersion(), Kind: info.Kind, Namespace: namespace, Name: name})
	if errors.Is(err, cluster.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return map[string]any(obj), nil
}

// List implements compiler.Host: a List object of every match.
func (h *host) List(apiVersion, res, namespace string, labels map[string]string) (map[string]any, error) {
	info, _, err := h.ev.f.kindOf(apiVersion, res)
	if err != nil {
		return nil, err
	}
	objs := h.ev.f.store.List(cluster.Query{APIVersion: info.APIVersion(), Kind: info.Kind, Namespace: namespace, Labels: labels})
	items := make([]any, len(objs))
	for i, o := range objs {
		items[i] = map[string]any(o)
	}
	return map[string]any{"apiVersion": info.APIVersion(), "kind": info.Kind + "List",
		"metadata": map[string]any{"resourceVersion": ""}, "items": items}, nil
}

// Post implements compiler.Host: a plain create, not labelled, not tracked.
func (h *host) Post(apiVersion, res, namespace string, obj map[string]any) (map[string]any, error) {
	info, _, err := h.ev.f.kindOf(apiVersion, res)
	if err != nil {
		return nil, err
	}
	o := resource.Object(resource.DeepCopyValue(obj).(map[string]any))
	o["apiVersion"], o["kind"] = info.APIVersion(), info.Kind
	if namespace != "" {
		o.Metadata()["namespace"] = namespace
	}
	created, err := h.ev.f.core.Create(admission.UserInfo{Username: admission.BackgroundUser}, o)
	if err != nil {
		return nil, err
	}
	return map[string]any(created), nil
}

// ToGVR implements compiler.Host.
func (h *host) ToGVR(apiVersion, kind string) (string, string, string, error) {
	info, ok := h.ev.f.store.KindInfo(apiVersion, kind)
	if !ok {
		return "", "", "", fmt.Errorf("no matches for kind %q in version %q", kind, apiVersion)
	}
	return info.Group, info.Version, info.Resource, nil
}

// Generate implements compiler.Host: generator.apply and templates.
func (h *host) Generate(namespace string, objects []map[string]any) error {
	return h.ev.generateResources(namespace, objects)
}

// GlobalContext implements compiler.Host: a GlobalContextEntry's data, or
// one of its projections. genplay answers from the simulated cluster when
// the entry is read (Kyverno's controller caches it and refreshes it every
// refreshInterval); an entry that does not exist is null.
func (h *host) GlobalContext(name, projection string) (any, error) {
	f := h.ev.f
	gce, err := f.store.View(resource.Ref{APIVersion: "kyverno.io/v2alpha1", Kind: "GlobalContextEntry", Name: name})
	if err != nil {
		return nil, nil
	}
	var data any
	switch {
	case gce.NestedString("spec", "apiCall", "urlPath") != "":
		if _, svc := gce.Nested("spec", "apiCall", "service"); svc {
			return nil, fmt.Errorf("GlobalContextEntry %s: apiCall.service is not simulated (genplay has no network)", name)
		}
		data, err = f.core.APIGet(gce.NestedString("spec", "apiCall", "urlPath"))
		if err != nil {
			return nil, fmt.Errorf("GlobalContextEntry %s: %w", name, err)
		}
	default:
		kr, ok := gce.Nested("spec", "kubernetesResource")
		m, _ := kr.(map[string]any)
		if !ok || m == nil {
			return nil, fmt.Errorf("GlobalContextEntry %s has neither apiCall nor kubernetesResource", name)
		}
		str := func(k string) string { s, _ := m[k].(string); return s }
		apiVersion := str("version")
		if g := str("group"); g != "" {
			apiVersion = g + "/" + apiVersion
		}
		info, _, err := f.kindOf(apiVersion, str("resource"))
		if err != nil {
			return nil, fmt.Errorf("GlobalContextEntry %s: %w", name, err)
		}
		items := []any{}
		for _, o := range f.store.List(cluster.Query{APIVersion: info.APIVersion(), Kind: info.Kind, Namespace: str("namespace")}) {
			items = append(items, map[string]any(o))
		}
		data = items
	}
	if projection == "" {
		return data, nil
	}
	list, _ := gce.Nested("spec", "projections")
	ps, _ := list.([]any)
	for _, raw := range ps {
		pm, _ := raw.(map[string]any)
		if pm["name"] == projection {
			jp, _ := pm["jmesPath"].(string)
			return f.core.Search(jp, data)
		}
	}
	return nil, fmt.Errorf("GlobalContextEntry %s has no projection %q", name, projection)
}

// HTTP implements compiler.Host.
func (h *host) HTTP(method, url string, body any, headers map[string]string) (any, error) {
	return nil, fmt.Errorf("%w (%s %s)", errNoNetwork, method, url)
}

// ImageData implements compiler.Host.
func (h *host) ImageData(ref string) (any, error) {
	return nil, fmt.Errorf("%w (%s)", errNoNetwork, ref)
}

// Stop implements compiler.Stopper: an evaluation over its CEL cost
// budget stops the run, as a spent work budget does.
func (h *host) Stop(why string) { h.ev.f.core.Budget().Stop(why) }

// Charge implements compiler.Meter: CEL evaluation draws from the run's
// work budget, as JMESPath evaluation does.
func (h *host) Charge(units int64, what string) error {
	return h.ev.f.core.Budget().Charge(units, what)
}

// Now implements compiler.Clock: time.now() is the simulation's clock.
func (h *host) Now() time.Time { return h.ev.f.core.Clock().Now() }

// Seed implements compiler.Seeder: random() draws from a generator seeded
// by the UpdateRequest and the trigger, so a run replays byte for byte.
func (h *host) Seed() uint64 {
	x := fnv.New64a()
	fmt.Fprintf(x, "%d|%s|%s", h.ev.ur.seq, h.ev.ur.policy, h.ev.rc.trigger.uid)
	return x.Sum64()
}
