package compiler

import (
	"time"
)

// DefaultCostLimit is the CEL cost budget of one evaluation when
// Options.CostLimit is zero. Kubernetes allows 1,000,000 per admission
// expression; a policy gets the same for everything one run evaluates.
const DefaultCostLimit = 1_000_000

// MaxListSize bounds every list a library function of this package builds
// (resource lists, generator inputs, ranges).
const MaxListSize = 10_000

// Options configures compilation and evaluation.
type Options struct {
	// AllowHTTPInNamespacedPolicies is Kyverno's
	// --allowHTTPInNamespacedPolicies flag.
	AllowHTTPInNamespacedPolicies bool
	// DenyGlobalContextInNamespaced refuses globalContext.* in a
	// NamespacedGeneratingPolicy, at compilation and when called, as
	// Kyverno v1.19.1 does (kyverno#17455).
	DenyGlobalContextInNamespaced bool
	// CostLimit is the CEL cost budget of one evaluation (Match, Generate,
	// AuditAnnotations or an exception's Match); 0 means DefaultCostLimit.
	CostLimit uint64
	// Now is the logical clock time.now() returns when the Host does not
	// implement Clock; the zero value is the Unix epoch.
	Now time.Time
	// Seed seeds random() when the Host does not implement Seeder.
	Seed uint64
}

// Input is what one evaluation sees: the activation of §2.1.
type Input struct {
	// Object is the admitted object; an empty map (not nil) on DELETE.
	Object map[string]any
	// OldObject is nil on CREATE.
	OldObject map[string]any
	// Request is the AdmissionRequest as unstructured.
	Request map[string]any
	// NamespaceObject is nil for null.
	NamespaceObject map[string]any
	// AllowedImages and AllowedValues fill the `exceptions` variable.
	AllowedImages, AllowedValues []string
}

// Host answers the library calls that reach outside the expression. The
// controller implements it, per evaluation.
type Host interface {
	// Get returns the object, or (nil, nil) when it does not exist (CEL null).
	Get(apiVersion, resource, namespace, name string) (map[string]any, error)
	// List returns a List object {apiVersion, kind: <Kind>List, metadata, items}.
	List(apiVersion, resource, namespace string, labels map[string]string) (map[string]any, error)
	// Post creates obj and returns the created object.
	Post(apiVersion, resource, namespace string, obj map[string]any) (map[string]any, error)
	// ToGVR maps a kind to its resource.
	ToGVR(apiVersion, kind string) (group, version, resource string, err error)
	// Generate hands objects to the apply core (§3.4). namespace is the
	// generator.apply argument (the policy namespace for a
	// NamespacedGeneratingPolicy) or a template document's namespace; the
	// controller applies the scope rules.
	Generate(namespace string, objects []map[string]any) error
	// GlobalContext returns an entry's data or projection; (nil, nil) is null.
	GlobalContext(name, projection string) (any, error)
	// HTTP performs (or refuses) an http.* call.
	HTTP(method, url string, body any, headers map[string]string) (any, error)
	// ImageData answers image.GetMetadata.
	ImageData(ref string) (any, error)
}

// Clock is optionally implemented by a Host to give time.now() the
// simulation's logical clock.
type Clock interface {
	Now() time.Time
}

// Meter is optionally implemented by a Host to draw what evaluations cost
// from a wider budget (the run's work budget): after each expression the
// evaluation charges the units it spent since the last charge, in the
// units of its own cost budget; an error ends the evaluation with it.
type Meter interface {
	Charge(units int64, what string) error
}

// Stopper is optionally implemented by a Host whose run stops when an
// evaluation passes its CEL cost budget, or a call is refused before it
// runs (the run's simulation cannot follow Kyverno past it): Stop receives
// the evaluation's error message.
type Stopper interface {
	Stop(why string)
}

// Seeder is optionally implemented by a Host to seed random() per
// evaluation.
type Seeder interface {
	Seed() uint64
}
