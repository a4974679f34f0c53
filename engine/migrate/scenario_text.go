package migrate

import (
	"errors"
	"fmt"

	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/engine/source"
	"github.com/genplay/genplay/engine/timeline"
)

// ConvertedFile names an edited converted scenario in diagnostics.
const ConvertedFile = "converted-test.yaml"

// maxErrors caps the input errors ConvertScenario reports.
const maxErrors = 20

// ScenarioReport is a scenario text converted and compared, as the
// playground's migrate tool returns it: the converted scenario (what the
// playground adopts), the conversion's findings and policies, and the two
// runs step by step.
type ScenarioReport struct {
	// Scenario is the converted chainsaw Test (ConvertTestDocument, what
	// `genplay migrate TEST` prints), whether or not the comparison ran an
	// edited one.
	Scenario string          `json:"scenario"`
	Test     string          `json:"test"`
	Status   string          `json:"conversion"`
	Findings []FindingReport `json:"findings"`
	Policies []PolicyReport  `json:"policies"`
	Steps    []ScenarioStep  `json:"steps"`
	// Unaligned and FamilyLabels are Comparison's.
	Unaligned    string   `json:"unaligned,omitempty"`
	FamilyLabels []string `json:"familyLabels"`
	// Differs is Comparison.Differs (the exit code 1 of --compare).
	Differs bool `json:"differs"`
}

// ScenarioStep is a compared step (StepReport, as --compare -o json prints
// it) with what each run did in it, for a side-by-side view.
type ScenarioStep struct {
	StepReport
	LegacySteps []SideStep `json:"clusterPolicySteps"`
	CELSteps    []SideStep `json:"generatingPolicySteps"`
}

// SideStep is one timeline step of one side: several when one policy
// became several GeneratingPolicies.
type SideStep struct {
	Summary string           `json:"summary"`
	Events  []timeline.Event `json:"events"`
	Check   *timeline.Check  `json:"check,omitempty"`
	Error   string           `json:"error,omitempty"`
}

// ConvertScenario converts the ClusterPolicies and Policies a scenario text
// (a chainsaw Test with its policies inline) writes, and compares the
// scenario run as written with its converted form: the converter's, or
// edited when edited is not empty (a converted scenario changed by hand,
// named ConvertedFile in its errors). opts must register the CEL family.
// An error says why there is nothing to compare (bad YAML, no Test, no
// policy to convert), at its line.
func ConvertScenario(file string, data, edited []byte, opts engine.Options) (*ScenarioReport, error) {
	docs, diags := source.Parse(file, data)
	if diags.HasErrors() {
		return nil, diags.Errors().Capped(maxErrors)
	}
	converted, found := "", false
	for _, doc := range docs {
		y, conv, err := ConvertTestDocumentFor(doc, opts.KyvernoVersion)
		if err != nil {
			continue
		}
		if len(conv.Policies) == 0 {
			return nil, source.Errorf(doc.Pos(), "the chainsaw Test writes no kyverno.io ClusterPolicy or Policy inline: there is nothing to convert")
		}
		converted, found = y, true
		break
	}
	if !found {
		return nil, source.Errorf(source.Pos{File: file, Line: 1, Col: 1}, "no chainsaw Test: a scenario is a document with apiVersion: %s and kind: Test", scenario.APIVersion)
	}
	t, err := loadTest(opts, file, data)
	if err != nil {
		return nil, err
	}
	var c *Comparison
	if len(edited) == 0 {
		c = Compare(t, opts)
	} else {
		cel, err := loadTest(opts, ConvertedFile, edited)
		if err != nil {
			return nil, fmt.Errorf("the converted scenario: %w", err)
		}
		c = CompareConverted(t, cel, opts)
	}
	r := c.Report()
	out := &ScenarioReport{Scenario: converted, Test: r.Test, Status: r.Status, Findings: r.Findings, Policies: r.Policies,
		Steps: []ScenarioStep{}, Unaligned: r.Unaligned, FamilyLabels: r.FamilyLabels, Differs: c.Differs()}
	for i, s := range c.Steps {
		out.Steps = append(out.Steps, ScenarioStep{StepReport: r.Steps[i], LegacySteps: sideSteps(s.Legacy), CELSteps: sideSteps(s.CEL)})
	}
	return out, nil
}

// loadTest loads the first chainsaw Test of data, as engine.Run does.
func loadTest(opts engine.Options, file string, data []byte) (*scenario.Test, error) {
	tests, diags := scenario.LoadData(opts.Files, file, data)
	if diags.HasErrors() {
		return nil, diags.Errors().Capped(maxErrors)
	}
	if len(tests) == 0 {
		return nil, errors.New(file + ":1:1: no chainsaw Test in the text")
	}
	return tests[0], nil
}

func sideSteps(steps []timeline.Step) []SideStep {
	out := []SideStep{}
	for _, s := range steps {
		events := s.Events
		if events == nil {
			events = []timeline.Event{}
		}
		out = append(out, SideStep{Summary: s.Summary, Events: events, Check: s.Check, Error: s.Error})
	}
	return out
}
