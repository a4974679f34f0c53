package oracle

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sort"
	"strings"
)

// Format is the version of the recording format.
const Format = 1

// Recording is what real Kyverno did with one scenario, recorded by
// `make oracle-record` (oracle/). Nothing in it comes from genplay.
type Recording struct {
	Format int `json:"format"`
	// Name is the recording's file name without .json.
	Name string `json:"name"`
	// Source is the scenario's file in the repository, and SourceSHA256
	// the hash of its bytes when it was recorded.
	Source       string `json:"source"`
	SourceSHA256 string `json:"sourceSha256"`
	// Scenario is the chainsaw Test as it ran (the source with its assert
	// and error operations removed: see Prepare), and Files the files its
	// operations name, by path relative to it.
	Scenario string            `json:"scenario"`
	Files    map[string]string `json:"files,omitempty"`
	// Family is "policy" (ClusterPolicy/Policy), "gpol" (the CEL family)
	// or "both".
	Family string `json:"family"`
	// Evidence is what the live components reported.
	Evidence Evidence `json:"evidence"`
	// Settle is the rule that said when the cluster had settled.
	Settle Settle `json:"settle"`
	// Runs are the scenario's runs, each from a clean cluster; the first
	// holds whole objects, the others their identities and digests.
	Runs []Run `json:"runs"`
	// Flaky says why the runs disagree; a flaky recording is not compared.
	Flaky string `json:"flaky,omitempty"`
}

// Evidence is what the live components said about themselves.
type Evidence struct {
	Kyverno    string `json:"kyverno"`    // as the admission controller logged it at start
	Background string `json:"background"` // as the background controller logged it
	Kubernetes string `json:"kubernetes"` // kube-apiserver's /version
	Etcd       string `json:"etcd"`       // etcd's /version
	Chainsaw   string `json:"chainsaw"`   // chainsaw version
	Authorizer string `json:"authorizer"` // kube-apiserver's --authorization-mode
	// Permissions is the background controller's RBAC, as a genplay
	// permissions profile (engine.ParsePermissions).
	Permissions string `json:"permissions"`
	// ScanInterval is the background controller's BACKGROUND_SCAN_INTERVAL
	// when the stack shortened it (empty: Kyverno's default, an hour): a
	// scenario that sleeps whole hours ran with each hour replaced by a
	// wait for one periodic reconcile (Scans), from a start just after one.
	ScanInterval string `json:"scanInterval,omitempty"`
}

// Settle is when a step counts as settled: no UpdateRequest exists, every
// policy reports ready (or QuietSeconds passed since it was written), no
// namespace is terminating, and nothing in scope changed for QuietSeconds,
// polled every PollMillis; a step that has not settled after
// TimeoutSeconds is recorded unsettled (and the recording flaky).
type Settle struct {
	QuietSeconds   float64 `json:"quietSeconds"`
	PollMillis     int     `json:"pollMillis"`
	TimeoutSeconds float64 `json:"timeoutSeconds"`
}

// Run is one run of the scenario against the live cluster.
type Run struct {
	StartedAt string `json:"startedAt"`
	// Chainsaw is chainsaw's verdict on the run (PASS, FAIL) and its
	// failures, as it reported them.
	Chainsaw string   `json:"chainsaw"`
	Failures []string `json:"failures,omitempty"`
	Steps    []Step   `json:"steps"`
}

// Step is the cluster after one chainsaw step, once settled.
type Step struct {
	Index int    `json:"index"`
	Name  string `json:"name"`
	// WaitedMillis is how long the recorder waited for the cluster to
	// settle after the step's operations (after each, summed);
	// SettledMillis, of that, how long until the last change in scope was
	// seen (Kyverno's reactions); Settled is false when a wait timed out.
	WaitedMillis  int64 `json:"waitedMillis"`
	SettledMillis int64 `json:"settledMillis"`
	Settled       bool  `json:"settled"`
	// UpdateRequests is how many distinct UpdateRequests the recorder saw
	// while it waited.
	UpdateRequests int `json:"updateRequests"`
	// Objects is every object in scope after the step, by key.
	Objects []Object `json:"objects"`
	// Changes are what changed in scope since the previous step (or since
	// the clean cluster), by key.
	Changes []Change `json:"changes,omitempty"`
}

// Object is one object as the real API server stored it.
type Object struct {
	Key             string `json:"key"` // apiVersion/kind/namespace/name
	UID             string `json:"uid"`
	ResourceVersion string `json:"resourceVersion"`
	// Managers are the field managers that wrote it (managedFields:
	// manager, operation), the evidence of who wrote what.
	Managers []string `json:"managers,omitempty"`
	// View is what is compared (see View); Digest its hash.
	View   map[string]any `json:"view,omitempty"`
	Digest string         `json:"digest"`
}

// Change is one object's fate over a step.
type Change struct {
	Key    string `json:"key"`
	Action string `json:"action"` // created, deleted, recreated, updated
	OldUID string `json:"oldUid,omitempty"`
	NewUID string `json:"newUid,omitempty"`
}

// Actions of changes.
const (
	Created   = "created"
	Deleted   = "deleted"
	Recreated = "recreated" // gone and back under a new UID
	Updated   = "updated"   // its view changed
)

// Digest is the hash of a view's canonical JSON.
func Digest(v any) string {
	b, _ := json.Marshal(v) // maps marshal with sorted keys
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:8])
}

// SHA256 is the hex hash of b.
func SHA256(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// Changes computes what changed from before to after (objects by key).
func Changes(before, after []Object) []Change {
	old := map[string]Object{}
	for _, o := range before {
		old[o.Key] = o
	}
	var out []Change
	seen := map[string]bool{}
	for _, o := range after {
		seen[o.Key] = true
		p, ok := old[o.Key]
		switch {
		case !ok:
			out = append(out, Change{Key: o.Key, Action: Created, NewUID: o.UID})
		case p.UID != o.UID:
			out = append(out, Change{Key: o.Key, Action: Recreated, OldUID: p.UID, NewUID: o.UID})
		case p.Digest != o.Digest:
			out = append(out, Change{Key: o.Key, Action: Updated, NewUID: o.UID})
		}
	}
	for _, o := range before {
		if !seen[o.Key] {
			out = append(out, Change{Key: o.Key, Action: Deleted, OldUID: o.UID})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// keyOf is an object's key: apiVersion/kind/namespace/name (namespace
// empty for cluster-scoped objects).
func keyOf(apiVersion, kind, namespace, name string) string {
	return strings.Join([]string{apiVersion, kind, namespace, name}, "/")
}
