package migrate

// Reports: the JSON shapes of a conversion and a comparison, as `genplay
// migrate -o json` and `genplay migrate --compare -o json` print them and
// as the playground's migrate tool returns them (Playground).

// FindingReport is a Finding as JSON.
type FindingReport struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Kind    string `json:"kind"`
	Policy  string `json:"policy"`
	Rule    string `json:"rule,omitempty"`
	Field   string `json:"field,omitempty"`
	Message string `json:"message"`
	Recipe  string `json:"recipe,omitempty"`
}

// PolicyReport is a Policy as JSON.
type PolicyReport struct {
	Source string       `json:"source"`
	Line   int          `json:"line"`
	Status string       `json:"status"`
	Rules  []RuleReport `json:"rules"`
	Kept   string       `json:"kept,omitempty"`
}

// RuleReport is a Rule as JSON.
type RuleReport struct {
	Rule   string `json:"rule"`
	Status string `json:"status"`
	Name   string `json:"name,omitempty"`
	YAML   string `json:"yaml,omitempty"`
}

// CompareReport is a Comparison as JSON.
type CompareReport struct {
	Test         string          `json:"test"`
	Status       string          `json:"conversion"`
	Findings     []FindingReport `json:"findings"`
	Steps        []StepReport    `json:"steps"`
	Unaligned    string          `json:"unaligned,omitempty"`
	FamilyLabels []string        `json:"familyLabels"`
	Policies     []PolicyReport  `json:"policies"`
}

// StepReport is a StepComparison as JSON.
type StepReport struct {
	Index    int    `json:"index"`
	StepName string `json:"stepName"`
	Summary  string `json:"summary"`
	Cause    string `json:"cause,omitempty"`
	// The operation's errors on each side (a policy Kyverno rejects),
	// when they differ.
	LegacyError string       `json:"clusterPolicyError,omitempty"`
	CELError    string       `json:"generatingPolicyError,omitempty"`
	Diffs       []DiffReport `json:"diffs"`
}

// DiffReport is an ObjectDiff as JSON.
type DiffReport struct {
	Object        string   `json:"object"`
	Cause         string   `json:"cause"`
	Legacy        string   `json:"clusterPolicyRun"`
	CEL           string   `json:"generatingPolicyRun"`
	Diff          string   `json:"diff"`
	LegacyReasons []string `json:"clusterPolicyReasons"`
	CELReasons    []string `json:"generatingPolicyReasons"`
}

// ReportFindings renders findings as JSON (an empty list for none).
func ReportFindings(fs []Finding) []FindingReport {
	out := []FindingReport{}
	for _, f := range fs {
		out = append(out, FindingReport{File: f.Pos.File, Line: f.Pos.Line, Column: f.Pos.Col, Kind: f.Kind, Policy: f.Policy,
			Rule: f.Rule, Field: f.Field, Message: f.Message, Recipe: f.Recipe})
	}
	return out
}

// ReportPolicies renders conversions as JSON (an empty list for none).
func ReportPolicies(ps []*Policy) []PolicyReport {
	out := []PolicyReport{}
	for _, p := range ps {
		pj := PolicyReport{Source: p.Key, Line: p.Pos.Line, Status: p.Status, Rules: []RuleReport{}, Kept: p.KeptYAML}
		for _, rule := range p.Rules {
			pj.Rules = append(pj.Rules, RuleReport{Rule: rule.Rule, Status: rule.Status, Name: rule.Name, YAML: rule.YAML})
		}
		out = append(out, pj)
	}
	return out
}

// Report renders the comparison as JSON.
func (c *Comparison) Report() CompareReport {
	out := CompareReport{Test: c.Legacy.Test, Status: c.Conversion.Status(), Findings: ReportFindings(c.Conversion.Findings),
		Steps: []StepReport{}, Unaligned: c.Unaligned, FamilyLabels: append([]string{}, c.FamilyLabels...), Policies: ReportPolicies(c.Conversion.Policies)}
	for _, s := range c.Steps {
		out.Steps = append(out.Steps, s.report())
	}
	return out
}

func (s StepComparison) report() StepReport {
	sj := StepReport{Index: s.Index, StepName: s.StepName, Summary: s.Summary, Cause: s.Cause, Diffs: []DiffReport{}}
	if s.LegacyError != s.CELError {
		sj.LegacyError, sj.CELError = s.LegacyError, s.CELError
	}
	for _, d := range s.Diffs {
		sj.Diffs = append(sj.Diffs, DiffReport{Object: d.Ref, Cause: d.Cause, Legacy: d.Legacy, CEL: d.CEL, Diff: d.Diff,
			LegacyReasons: append([]string{}, d.LegacyReasons...), CELReasons: append([]string{}, d.CELReasons...)})
	}
	return sj
}
