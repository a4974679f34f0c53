package migrate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/engine/source"
	"github.com/genplay/genplay/engine/timeline"
)

// Causes of a difference between the two runs.
const (
	// CauseConversion: the converted policy is not a faithful copy (an
	// unconverted piece); the findings say which.
	CauseConversion = "conversion"
	// CauseFamily: the policy converted fully; Kyverno's two families
	// behave differently on this event.
	CauseFamily = "family"
)

// Comparison is a scenario run as written (Legacy) and with its policies
// converted (CEL), step by step.
type Comparison struct {
	Conversion  *TestResult
	Legacy, CEL *timeline.Result
	Steps       []StepComparison
	// Unaligned is set when the runs did not perform the same operations
	// (one stopped early): the steps after that are not compared.
	Unaligned string
	// FamilyLabels are the generate.kyverno.io/* (and managed-by) label keys
	// that differ between the two runs' objects: they differ by design.
	FamilyLabels []string
}

// StepComparison is one operation of the scenario on both sides.
type StepComparison struct {
	Index    int // the original run's step index
	StepName string
	Summary  string // the original operation
	// Legacy and CEL are the timeline steps (several when one policy became
	// several GeneratingPolicies).
	Legacy, CEL []timeline.Step
	Diffs       []ObjectDiff
	Cause       string // CauseConversion or CauseFamily, when Diffs is not empty or the errors differ
	// LegacyError and CELError join the errors of the operation's steps on
	// each side (an API server or Kyverno rejection), "" for none.
	LegacyError, CELError string
}

// ObjectDiff is one object that differs after the step.
type ObjectDiff struct {
	Ref string
	// Legacy and CEL are the object as YAML without metadata churn and
	// family labels; "" when absent on that side.
	Legacy, CEL string
	// Diff is a unified diff from Legacy to CEL.
	Diff string
	// LegacyReasons and CELReasons are what the timeline says about the
	// object in this step on each side.
	LegacyReasons, CELReasons []string
	// Cause is CauseConversion when the object is a downstream of a rule
	// whose conversion is partial (or, for other objects, when any is),
	// else CauseFamily.
	Cause string

	legacyLabels, celLabels map[string]string
}

// Compare runs t as written and with its policies converted. opts must
// register the CEL family (engine.Options.Families).
func Compare(t *scenario.Test, opts engine.Options) *Comparison {
	conv := ConvertTestFor(t, opts.KyvernoVersion)
	return compare(t, conv, conv.Test, opts)
}

// CompareConverted is Compare with the converted side given: cel is t
// converted and then edited by hand (the playground's converted scenario).
// The findings and the causes are still those of t's conversion.
func CompareConverted(t, cel *scenario.Test, opts engine.Options) *Comparison {
	return compare(t, ConvertTest(t), cel, opts)
}

func compare(t *scenario.Test, conv *TestResult, cel *scenario.Test, opts engine.Options) *Comparison {
	// Both runs go through every operation, so that a failed assertion
	// on one side does not hide what happens next.
	legacyTest := continueOnError(t)
	celTest := continueOnError(cel)
	c := &Comparison{Conversion: conv, Legacy: engine.RunTest(legacyTest, opts), CEL: engine.RunTest(celTest, opts)}
	c.align()
	return c
}

func continueOnError(t *scenario.Test) *scenario.Test {
	out := *t
	out.Steps = make([]scenario.Step, len(t.Steps))
	for i, s := range t.Steps {
		s.Try = slices.Clone(s.Try)
		for j := range s.Try {
			s.Try[j].ContinueOnError = true
		}
		out.Steps[i] = s
	}
	return &out
}

// unit groups the timeline steps of one original operation: consecutive
// writes of policies in one chainsaw step count as one.
type unit struct {
	steps  []timeline.Step
	policy bool
}

func units(steps []timeline.Step) []unit {
	var out []unit
	for _, s := range steps {
		p := isPolicyStep(s)
		if p && len(out) > 0 {
			last := &out[len(out)-1]
			if last.policy && last.steps[0].StepName == s.StepName && last.steps[0].Operation == s.Operation {
				last.steps = append(last.steps, s)
				continue
			}
		}
		out = append(out, unit{steps: []timeline.Step{s}, policy: p})
	}
	return out
}

func isPolicyStep(s timeline.Step) bool {
	f := strings.Fields(s.Summary)
	return len(f) >= 2 && IsPolicyKind(f[1])
}

func (c *Comparison) align() {
	lu, cu := units(c.Legacy.Steps), units(c.CEL.Steps)
	n := min(len(lu), len(cu))
	cause := CauseFamily
	if c.Conversion.Status() != Full {
		cause = CauseConversion
	}
	labelSet := map[string]bool{}
	// The cluster after each unit, on each side.
	lc, rc := timeline.NewCluster(c.Legacy.Initial), timeline.NewCluster(c.CEL.Initial)
	for i := range n {
		l, r := lu[i], cu[i]
		if l.steps[0].StepName != r.steps[0].StepName || l.steps[0].Operation != r.steps[0].Operation {
			c.Unaligned = fmt.Sprintf("step %d: %q against %q", l.steps[0].Index, l.steps[0].Summary, r.steps[0].Summary)
			break
		}
		for j := range l.steps {
			lc.Apply(&l.steps[j])
		}
		for j := range r.steps {
			rc.Apply(&r.steps[j])
		}
		sc := StepComparison{Index: l.steps[0].Index, StepName: l.steps[0].StepName, Summary: l.steps[0].Summary, Legacy: l.steps, CEL: r.steps}
		sc.Diffs = diffClusters(lc.Objects(), rc.Objects(), labelSet)
		stepCause := ""
		for j := range sc.Diffs {
			d := &sc.Diffs[j]
			d.LegacyReasons = append(reasonsAbout(l.steps, d.Ref), failures(l.steps)...)
			d.CELReasons = append(reasonsAbout(r.steps, d.Ref), failures(r.steps)...)
			d.Cause = c.causeOf(d, cause)
			if stepCause != CauseConversion {
				stepCause = d.Cause
			}
		}
		sc.LegacyError, sc.CELError = stepErrors(l.steps), stepErrors(r.steps)
		if sc.LegacyError != sc.CELError && stepCause == "" {
			stepCause = cause
		}
		sc.Cause = stepCause
		c.Steps = append(c.Steps, sc)
	}
	if c.Unaligned == "" && len(lu) != len(cu) {
		c.Unaligned = fmt.Sprintf("the run as written has %d operations, the converted run %d", len(lu), len(cu))
	}
	c.FamilyLabels = sortedKeys(labelSet)
}

// causeOf tells a difference apart by the rule the object is a downstream
// of (its labels name it on each side); fallback for other objects.
func (c *Comparison) causeOf(d *ObjectDiff, fallback string) string {
	status := ""
	for _, p := range c.Conversion.Policies {
		for _, r := range p.Rules {
			if l := d.celLabels; l != nil && r.Name != "" && l["generate.kyverno.io/policy-name"] == r.Name {
				status = r.Status
			}
			if l := d.legacyLabels; l != nil && l["generate.kyverno.io/rule-name"] == r.Rule &&
				strings.HasSuffix(p.Key, "/"+l["generate.kyverno.io/policy-name"]) {
				status = r.Status
			}
		}
	}
	switch status {
	case "":
		return fallback
	case Full:
		return CauseFamily
	}
	return CauseConversion
}

// Compared reports whether an object takes part in the comparison: what
// the policies produce and what users write, not the policies themselves,
// Kyverno's bookkeeping (UpdateRequests, reports, events) or the RBAC
// genplay grants Kyverno's controllers.
func Compared(obj resource.Object) bool {
	g := obj.GVK()
	switch g.Group {
	case "kyverno.io", "policies.kyverno.io", "wgpolicyk8s.io", "reports.kyverno.io", "openreports.io",
		"admissionregistration.k8s.io", "events.k8s.io", "apiextensions.k8s.io":
		return false
	case "rbac.authorization.k8s.io":
		return !strings.HasPrefix(obj.Name(), "kyverno:")
	}
	return g.Kind != "Event"
}

// FamilyLabel reports whether a label is one Kyverno writes differently by
// family (GENERATING-POLICY.md §3.5 against SEMANTICS.md §3).
func FamilyLabel(key string) bool {
	return strings.HasPrefix(key, "generate.kyverno.io/")
}

// Normalize drops what differs between runs by construction: metadata
// churn (uid, resourceVersion, timestamps, generation, managedFields,
// ownerReference uids) and the family labels. It returns the removed family
// labels with their values.
func Normalize(obj resource.Object) (resource.Object, map[string]string) {
	o := obj.DeepCopy()
	meta := o.Metadata()
	for _, k := range []string{"uid", "resourceVersion", "creationTimestamp", "generation", "managedFields", "deletionTimestamp", "selfLink"} {
		delete(meta, k)
	}
	if refs, ok := meta["ownerReferences"].([]any); ok {
		for _, r := range refs {
			if m, ok := r.(map[string]any); ok {
				delete(m, "uid")
			}
		}
	}
	removed := map[string]string{}
	if l, ok := meta["labels"].(map[string]any); ok {
		for k, v := range l {
			if FamilyLabel(k) {
				removed[k] = fmt.Sprint(v)
				delete(l, k)
			}
		}
		if len(l) == 0 {
			delete(meta, "labels")
		}
	}
	return o, removed
}

func diffClusters(a, b []resource.Object, labels map[string]bool) []ObjectDiff {
	index := func(objs []resource.Object) (map[string]resource.Object, []string) {
		m := map[string]resource.Object{}
		var keys []string
		for _, o := range objs {
			if !Compared(o) {
				continue
			}
			k := o.Ref().String()
			m[k] = o
			keys = append(keys, k)
		}
		return m, keys
	}
	am, ak := index(a)
	bm, bk := index(b)
	keys := append(ak, bk...)
	slices.Sort(keys)
	keys = slices.Compact(keys)
	var out []ObjectDiff
	for _, k := range keys {
		var ay, by string
		var al, bl map[string]string
		if o, ok := am[k]; ok {
			n, l := Normalize(o)
			al = l
			y, _ := source.Marshal(map[string]any(n))
			ay = string(y)
		}
		if o, ok := bm[k]; ok {
			n, l := Normalize(o)
			bl = l
			y, _ := source.Marshal(map[string]any(n))
			by = string(y)
		}
		if ay == "" || by == "" {
			al, bl = nil, nil // labels are compared on objects both runs hold
		}
		for key, v := range al {
			if bv, ok := bl[key]; !ok || bv != v {
				labels[key] = true
			}
		}
		for key, v := range bl {
			if av, ok := al[key]; !ok || av != v {
				labels[key] = true
			}
		}
		if ay == by {
			continue
		}
		d := ObjectDiff{Ref: k, Legacy: ay, CEL: by, Diff: source.Diff("ClusterPolicy run", "GeneratingPolicy run", []byte(ay), []byte(by))}
		if o, ok := am[k]; ok {
			d.legacyLabels = o.Labels()
		}
		if o, ok := bm[k]; ok {
			d.celLabels = o.Labels()
		}
		out = append(out, d)
	}
	return out
}

// reasonsAbout collects what the steps' events say about an object.
func reasonsAbout(steps []timeline.Step, ref string) []string {
	var out []string
	for _, s := range steps {
		for _, e := range s.Events {
			if e.Object == nil || e.Object.String() != ref {
				continue
			}
			who := e.Actor + " " + e.Action
			if e.Policy != "" {
				who += " (" + e.Policy + ")"
			}
			out = append(out, who+": "+e.Reason)
		}
	}
	return out
}

func stepErrors(steps []timeline.Step) string {
	var errs []string
	for _, s := range steps {
		if s.Error != "" {
			errs = append(errs, s.Error)
		}
	}
	return strings.Join(errs, "; ")
}

// failures are what Kyverno could not do in the steps (failed
// UpdateRequests, errors): the reason an expected object is missing.
func failures(steps []timeline.Step) []string {
	var out []string
	for _, s := range steps {
		for _, e := range s.Events {
			if e.Actor != timeline.ActorKyverno || e.Action != timeline.ActionFailed {
				continue
			}
			r := e.Actor + " " + e.Action
			if e.Policy != "" {
				r += " (" + e.Policy + ")"
			}
			if !slices.Contains(out, r+": "+e.Reason) {
				out = append(out, r+": "+e.Reason)
			}
		}
	}
	return out
}

// Differs reports whether any compared step differs.
func (c *Comparison) Differs() bool {
	for _, s := range c.Steps {
		if len(s.Diffs) > 0 || s.LegacyError != s.CELError {
			return true
		}
	}
	return c.Unaligned != ""
}
