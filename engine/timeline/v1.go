package timeline

import (
	"fmt"
	"slices"

	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/source"
)

// FormatV1 names the format before FormatVersion (see the package doc).
const FormatV1 = "genplay.timeline/v1"

// ResultV1 is a Result in format v1: every step with the whole cluster
// after it, every change with its diff.
type ResultV1 struct {
	Format      string       `json:"format"` // FormatV1
	Test        string       `json:"test"`
	Steps       []StepV1     `json:"steps"`
	Passed      bool         `json:"passed"`
	Skipped     string       `json:"skipped,omitempty"`
	Invalid     bool         `json:"invalid,omitempty"`
	Diagnostics []Diagnostic `json:"diagnostics"`
}

// StepV1 is a Step in format v1.
type StepV1 struct {
	Index     int      `json:"index"`
	StepName  string   `json:"stepName"`
	Operation string   `json:"operation"`
	Summary   string   `json:"summary"`
	Time      string   `json:"time"`
	Events    []Event  `json:"events"`
	Check     *Check   `json:"check,omitempty"`
	Error     string   `json:"error,omitempty"`
	Warnings  []string `json:"warnings,omitempty"`
	// Cluster is every object after the step, sorted as Cluster.Objects
	// sorts them.
	Cluster []resource.Object `json:"cluster"`
	Changes []ChangeV1        `json:"changes"`
}

// ChangeV1 is a Change in format v1: the diff always, no After.
type ChangeV1 struct {
	Object resource.Ref `json:"object"`
	Change string       `json:"change"`
	Diff   string       `json:"diff"`
}

// V1 converts r to format v1. Its size is the steps times the cluster:
// meant for readers written against v1, not for long runs.
func V1(r *Result) *ResultV1 {
	out := &ResultV1{Format: FormatV1, Test: r.Test, Steps: make([]StepV1, 0, len(r.Steps)), Passed: r.Passed,
		Skipped: r.Skipped, Invalid: r.Invalid, Diagnostics: r.Diagnostics}
	if r.Steps == nil {
		out.Steps = nil
	}
	c := NewCluster(r.Initial)
	for i := range r.Steps {
		st := &r.Steps[i]
		changes := make([]ChangeV1, len(st.Changes))
		for j := range st.Changes {
			ch := &st.Changes[j]
			changes[j] = ChangeV1{Object: ch.Object, Change: ch.Change, Diff: Diff(ch, c.Get(ch.Object), c.after(ch))}
		}
		c.Apply(st)
		out.Steps = append(out.Steps, StepV1{Index: st.Index, StepName: st.StepName, Operation: st.Operation, Summary: st.Summary,
			Time: st.Time, Events: st.Events, Check: st.Check, Error: st.Error, Warnings: st.Warnings,
			Cluster: c.Objects(), Changes: changes})
	}
	return out
}

// MarshalV1 renders a v1 result as Marshal renders a v2 one.
func MarshalV1(r *ResultV1) ([]byte, error) { return marshal(r) }

// Diff returns a change's unified diff of the object's YAML from before
// the step (Cluster.Get on the cluster before it) to after it (Cluster.Get
// after it): the change's own Diff when it has one (a write undone within
// the step), else the diff of the two versions; a created object's is the
// whole of it added, a deleted object's the whole of it removed.
func Diff(ch *Change, before, after resource.Object) string {
	switch {
	case ch.Diff != "":
		return ch.Diff
	case ch.Change == ChangeCreated:
		before = nil
	case ch.Change == ChangeDeleted:
		after = nil
	}
	return diffOf(ch.Object, before, after)
}

func diffOf(ref resource.Ref, before, after resource.Object) string {
	name := ref.String()
	return source.Diff(name+" (before)", name+" (after)", yamlOf(before), yamlOf(after))
}

func yamlOf(o resource.Object) []byte {
	if o == nil {
		return nil
	}
	text, _ := source.Marshal(map[string]any(o))
	return text
}

// Formats are the names MarshalAs takes: "v2" (FormatVersion, the
// default) and "v1" (FormatV1).
var Formats = []string{"v2", "v1"}

// MarshalAs renders r in the format named ("" or "v2": Marshal; "v1":
// MarshalV1 of V1), for the adapters' format options.
func MarshalAs(r *Result, format string) ([]byte, error) {
	if err := CheckFormat(format); err != nil {
		return nil, err
	}
	if format == "v1" {
		return MarshalV1(V1(r))
	}
	return Marshal(r)
}

// CheckFormat reports whether MarshalAs knows format.
func CheckFormat(format string) error {
	if format == "" || slices.Contains(Formats, format) {
		return nil
	}
	return fmt.Errorf("unknown timeline format %q: want v2 (%s) or v1 (%s)", format, FormatVersion, FormatV1)
}
