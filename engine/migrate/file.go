package migrate

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/genplay/genplay/engine/policy"
	"github.com/genplay/genplay/engine/source"
)

// FileResult is the conversion of every ClusterPolicy and Policy of a file.
type FileResult struct {
	File     string
	Policies []*Policy
	// Findings are sorted by position.
	Findings []Finding
	// Skipped counts documents that are not ClusterPolicies or Policies
	// (they are not copied to the output).
	Skipped int
	// Scenario is set when the file is a chainsaw Test: the Test with its
	// policies converted (ConvertTestDocument), which YAML returns.
	Scenario string
}

// Status is the file's status: Full when every policy converted fully.
func (f *FileResult) Status() string {
	var s []string
	for _, p := range f.Policies {
		s = append(s, p.Status)
	}
	return combine(s)
}

// YAML joins the converted documents of every policy (or, for a chainsaw
// Test, is the converted Test).
func (f *FileResult) YAML() string {
	if f.Scenario != "" {
		return f.Scenario
	}
	var parts []string
	for _, p := range f.Policies {
		if y := p.YAML(); y != "" {
			parts = append(parts, y)
		}
	}
	return joinDocs(parts)
}

// ConvertFile converts the ClusterPolicies and Policies of a YAML file.
// Input errors (YAML, a policy Kyverno's API server would reject, no
// policy at all) come back as diagnostics with positions.
func ConvertFile(file string, data []byte) (*FileResult, source.Diagnostics) {
	return ConvertFileFor(file, data, "")
}

// ConvertFileFor is ConvertFile for Kyverno release kyverno ("" the latest).
func ConvertFileFor(file string, data []byte, kyverno string) (*FileResult, source.Diagnostics) {
	docs, diags := source.Parse(file, data)
	if diags.HasErrors() {
		return nil, diags
	}
	out := &FileResult{File: file}
	for _, doc := range docs {
		obj, ok := doc.Object()
		if !ok || !policy.IsPolicy(obj) {
			out.Skipped++
			continue
		}
		p, pd := policy.Parse(doc, obj)
		diags = append(diags, pd...)
		if pd.HasErrors() || p == nil {
			continue
		}
		if p.Kind == policy.KindPolicy && p.Namespace == "" {
			p.Namespace = "default" // as kubectl does from its context
		}
		conv, findings := ConvertPolicyFor(p, kyverno)
		out.Policies = append(out.Policies, conv)
		out.Findings = append(out.Findings, findings...)
	}
	if len(out.Policies) == 0 && !diags.HasErrors() {
		diags = append(diags, source.Errorf(source.Pos{File: file, Line: 1, Col: 1},
			"no kyverno.io ClusterPolicy or Policy in the file (%d other documents)", out.Skipped))
	}
	SortFindings(out.Findings)
	return out, diags
}

// SortFindings orders findings by file, line and column, keeping the
// converter's order for findings at the same place.
func SortFindings(f []Finding) {
	slices.SortStableFunc(f, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(a.Pos.File, b.Pos.File), cmp.Compare(a.Pos.Line, b.Pos.Line), cmp.Compare(a.Pos.Col, b.Pos.Col))
	})
}

// String renders a finding as one line: "file:line:col: unconverted: ...".
func (f Finding) String() string {
	s := fmt.Sprintf("%s: %s: %s", f.Pos, f.Kind, f.Message)
	if f.Pos.String() == "" {
		s = fmt.Sprintf("%s: %s", f.Kind, f.Message)
	}
	if f.Recipe != "" {
		s += " (by hand: " + f.Recipe + ")"
	}
	return s
}
