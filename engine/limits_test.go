package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/engine/shell"
	"github.com/genplay/genplay/engine/timeline"
)

// scenarioYAML wraps steps (YAML list items, indented for spec.steps) in a
// chainsaw Test.
func scenarioYAML(name, steps string) []byte {
	return []byte("apiVersion: chainsaw.kyverno.io/v1alpha1\nkind: Test\nmetadata:\n  name: " + name + "\nspec:\n  steps:\n" + steps)
}

// chainPolicyStep installs the two-rule ConfigMap chain of
// testdata/scenarios/runaway-chain.yaml.
func chainPolicyStep() string {
	rule := func(name, suffix string) string {
		return `
            - name: ` + name + `
              skipBackgroundRequests: false
              match:
                any:
                - resources:
                    kinds: [ConfigMap]
                    namespaces: [chain]
              generate:
                apiVersion: v1
                kind: ConfigMap
                name: "{{request.object.metadata.name}}-` + suffix + `"
                namespace: chain
                data:
                  data:
                    parent: "{{request.object.metadata.name}}"`
	}
	return `  - name: install the runaway policy
    try:
    - apply:
        resource:
          apiVersion: kyverno.io/v1
          kind: ClusterPolicy
          metadata:
            name: configmap-chain
          spec:
            rules:` + rule("left", "l") + rule("right", "r") + `
  - name: the chain's namespace
    try:
    - apply:
        resource: {apiVersion: v1, kind: Namespace, metadata: {name: chain}}
`
}

// seedStep creates one ConfigMap the chain policy matches.
func seedStep(name string) string {
	return `  - try:
    - apply:
        resource: {apiVersion: v1, kind: ConfigMap, metadata: {name: ` + name + `, namespace: chain}}
`
}

// eventsWith returns the events whose reason contains s.
func eventsWith(res *timeline.Result, action, s string) []timeline.Event {
	var out []timeline.Event
	for _, st := range res.Steps {
		for _, e := range st.Events {
			if e.Action == action && strings.Contains(e.Reason, s) {
				out = append(out, e)
			}
		}
	}
	return out
}

func countEvents(res *timeline.Result, actor, action string) int {
	n := 0
	for _, st := range res.Steps {
		for _, e := range st.Events {
			if e.Actor == actor && e.Action == action {
				n++
			}
		}
	}
	return n
}

func errorDiagnostics(res *timeline.Result) []string {
	var out []string
	for _, d := range res.Diagnostics {
		if d.Severity == "error" {
			out = append(out, d.Message)
		}
	}
	return out
}

func TestARunawayChainOfGeneratedTriggersEndsWithDidNotConverge(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "scenarios", "runaway-chain.yaml"))
	require.NoError(t, err)
	res := Run("runaway-chain.yaml", data, Options{Scripts: shell.New})
	require.NotEmpty(t, res.Steps)
	last := res.Steps[len(res.Steps)-1]
	stopped := eventsWith(res, timeline.ActionFailed, "did not converge")
	require.Len(t, stopped, 1, "one did-not-converge event")
	assert.Equal(t, timeline.ActorKyverno, stopped[0].Actor)
	assert.Contains(t, stopped[0].Reason, "skipBackgroundRequests: false")
	assert.Equal(t, stopped[0], last.Events[len(last.Events)-1], "the event ends the step")
	// Every processed UpdateRequest created one ConfigMap, and each
	// ConfigMap queued two more, one level deeper: the work is the chain's
	// depth limit (2 + 4 + ... + 2^ChainDepth requests), not the
	// (unbounded) chain.
	created := countEvents(res, timeline.ActorKyverno, timeline.ActionCreated)
	assert.Equal(t, 1<<(DefaultLimits.ChainDepth+1)-2, created)
	assert.Contains(t, stopped[0].Reason, fmt.Sprintf("%d UpdateRequests deep", DefaultLimits.ChainDepth))
	assert.LessOrEqual(t, res.Final().Len(), created+20)
}

func TestLimitsEndARunWithAClearDiagnostic(t *testing.T) {
	manySteps := func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteString("  - try: [{sleep: {duration: 1s}}]\n")
		}
		return b.String()
	}
	manyConfigMaps := func(n int) string {
		var b strings.Builder
		b.WriteString("  - try:\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "    - apply: {resource: {apiVersion: v1, kind: ConfigMap, metadata: {name: cm-%d, namespace: default}}}\n", i)
		}
		return b.String()
	}
	script := func(n int) string {
		var b strings.Builder
		b.WriteString("  - try:\n    - script:\n        content: |\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "          kubectl create configmap s-%d -n default\n", i)
		}
		return b.String()
	}
	bigConfigMaps := func(n, size int) string {
		var b strings.Builder
		b.WriteString("  - try:\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "    - apply: {resource: {apiVersion: v1, kind: ConfigMap, metadata: {name: big-%d, namespace: default}, data: {v: %s}}}\n", i, strings.Repeat("x", size))
		}
		return b.String()
	}
	tests := []struct {
		name   string
		data   []byte
		limits Limits
		// want is part of the error diagnostic; ran bounds the timeline
		// steps recorded (-1: none, the test is rejected before it runs).
		want string
		ran  int
	}{
		{
			name: "a test with more steps than allowed is rejected before it runs",
			data: scenarioYAML("many-steps", manySteps(DefaultLimits.Steps+1)),
			want: fmt.Sprintf("the test has %d steps; genplay runs at most %d", DefaultLimits.Steps+1, DefaultLimits.Steps),
			ran:  -1,
		},
		{
			name:   "a test with more operations than allowed is rejected before it runs",
			data:   scenarioYAML("many-operations", manyConfigMaps(30)),
			limits: Limits{Operations: 20},
			want:   "the test has more than 20 operations",
			ran:    -1,
		},
		{
			name:   "a script that records more timeline steps than allowed stops the run",
			data:   scenarioYAML("long-script", script(30)),
			limits: Limits{Operations: 10},
			want:   "the run recorded 10 timeline steps; genplay records at most 10",
			ran:    10,
		},
		{
			name:   "more objects than allowed stops the run",
			data:   scenarioYAML("many-objects", manyConfigMaps(40)),
			limits: Limits{Objects: 20},
			want:   "the cluster holds 21 objects; genplay allows at most 20",
			ran:    20,
		},
		{
			name:   "generated objects count against the object limit",
			data:   scenarioYAML("chain-objects", chainPolicyStep()+seedStep("seed")),
			limits: Limits{Objects: 60, ChainDepth: 100},
			want:   "the cluster holds 60 objects (the most genplay allows)",
			ran:    3,
		},
		{
			name:   "the run-wide UpdateRequest budget stops a chain that each step restarts",
			data:   scenarioYAML("chain-requests", chainPolicyStep()+seedStep("a")+seedStep("b")+seedStep("c")+seedStep("d")),
			limits: Limits{Requests: 250},
			want:   "Kyverno processed 250 UpdateRequests in this run",
			ran:    5,
		},
		{
			name:   "a timeline over its size budget stops the run",
			data:   scenarioYAML("big-objects", bigConfigMaps(20, 100_000)+manySteps(100)),
			limits: Limits{TimelineBytes: 1 << 20},
			want:   "the timeline would be",
			ran:    12,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := Run("limits.yaml", tt.data, Options{Scripts: shell.New, Limits: tt.limits})
			assert.False(t, res.Passed)
			errs := errorDiagnostics(res)
			require.Len(t, errs, 1, "one error diagnostic says why the run stopped: %v", errs)
			assert.Contains(t, errs[0], "limit exceeded")
			assert.Contains(t, errs[0], tt.want)
			if tt.ran < 0 {
				assert.Empty(t, res.Steps)
			} else {
				assert.LessOrEqual(t, len(res.Steps), tt.ran)
				assert.NotEmpty(t, res.Steps)
			}
		})
	}
}

func TestTheDefaultLimitsKeepTheExamplesRunning(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "site", "examples", "*.yaml"))
	require.NoError(t, err)
	files2, err := filepath.Glob(filepath.Join("testdata", "scenarios", "*.yaml"))
	require.NoError(t, err)
	for _, file := range append(files, files2...) {
		t.Run(filepath.Base(file)+" stays within the limits", func(t *testing.T) {
			data, err := os.ReadFile(file)
			require.NoError(t, err)
			res := Run(filepath.Base(file), data, Options{Scripts: shell.New})
			for _, d := range res.Diagnostics {
				assert.NotContains(t, d.Message, "limit exceeded")
			}
		})
	}
}

func TestAForEachListOverTheLimitFailsTheRuleNotTheRun(t *testing.T) {
	list := make([]string, DefaultLimits.ForEachElements+1)
	for i := range list {
		list[i] = fmt.Sprint(i)
	}
	steps := `  - try:
    - apply:
        resource:
          apiVersion: kyverno.io/v1
          kind: ClusterPolicy
          metadata: {name: many}
          spec:
            rules:
            - name: each
              match:
                any:
                - resources: {kinds: [Namespace]}
              context:
              - name: items
                variable:
                  value: [` + strings.Join(list, ", ") + `]
              generate:
                foreach:
                - list: items
                  apiVersion: v1
                  kind: ConfigMap
                  name: "cm-{{element}}"
                  namespace: "{{request.object.metadata.name}}"
                  data: {data: {n: "{{element}}"}}
    - apply:
        resource: {apiVersion: v1, kind: Namespace, metadata: {name: team}}
`
	res := Run("foreach.yaml", scenarioYAML("huge-foreach", steps), Options{Scripts: shell.New})
	failed := eventsWith(res, timeline.ActionFailed, fmt.Sprintf("has %d elements; genplay processes at most %d", len(list), DefaultLimits.ForEachElements))
	require.Len(t, failed, 1, "the rule fails once, with the reason: %+v", res.Diagnostics)
	assert.Zero(t, countEvents(res, timeline.ActorKyverno, timeline.ActionCreated), "nothing was generated")
}

func TestATestWithoutOperationsAnswersAnEmptyStepList(t *testing.T) {
	res := Run("empty.yaml", scenarioYAML("no-operations", "  - try: []\n"), Options{Scripts: shell.New})
	out, err := timeline.Marshal(res)
	require.NoError(t, err)
	assert.Contains(t, string(out), `"steps": []`, "the contract: steps is a list, never null")
}

// TestTheTimelineSizeIsWhatMarshalWrites checks the size limit measures the
// answer itself, indentation included, not an estimate of it.
func TestTheTimelineSizeIsWhatMarshalWrites(t *testing.T) {
	// Scenarios whose steps hold every field: checks that pass and fail,
	// errors, warnings, events with and without objects and triggers,
	// changes whole, patched and with diffs.
	files, err := filepath.Glob(filepath.Join("testdata", "scenarios", "*.yaml"))
	require.NoError(t, err)
	more, err := filepath.Glob(filepath.Join("..", "site", "examples", "*.yaml"))
	require.NoError(t, err)
	failing := filepath.Join(t.TempDir(), "failing.yaml")
	require.NoError(t, os.WriteFile(failing, scenarioYAML("failing", `  - try:
    - apply: {resource: {apiVersion: v1, kind: ConfigMap, metadata: {name: c, namespace: default}, data: {k: "v \"quoted\" <&>"}}}
    - assert: {resource: {apiVersion: v1, kind: ConfigMap, metadata: {name: c, namespace: default}, data: {k: other}}}
`), 0o644))
	refused := filepath.Join(t.TempDir(), "refused.yaml")
	require.NoError(t, os.WriteFile(refused, scenarioYAML("refused", `  - try:
    - apply: {resource: {apiVersion: v1, kind: ConfigMap, metadata: {name: c, namespace: default}}}
    - create: {resource: {apiVersion: v1, kind: ConfigMap, metadata: {name: c, namespace: default}}}
`), 0o644))
	for _, file := range append(append(files, more...), failing, refused) {
		name := filepath.Base(file)
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(file)
			require.NoError(t, err)
			tests, diags := scenario.Parse(name, data)
			require.False(t, diags.HasErrors(), "%v", diags)
			r := &runner{s: NewSession(Options{Scripts: shell.New, Families: celFamilies}), t: tests[0]}
			r.res = &timeline.Result{Format: timeline.FormatVersion, Initial: r.s.initial, Steps: []timeline.Step{}, Passed: true}
			r.run()
			r.res.Steps = r.s.steps
			r.res.Diagnostics = []timeline.Diagnostic{}
			full, err := timeline.Marshal(r.res)
			require.NoError(t, err)
			if name == "refused.yaml" {
				require.Contains(t, string(full), `"error": "`, "a step with an error is measured")
			}
			if name == "failing.yaml" {
				require.Contains(t, string(full), `"failures": [`, "a failed check is measured")
			}
			r.res.Steps, r.res.Initial = []timeline.Step{}, []resource.Object{}
			empty, err := timeline.Marshal(r.res)
			require.NoError(t, err)
			var size timelineSize
			// Each "[]" becomes "[\n" + the items (each with ",\n") - 1 + "  ]",
			// what initialLen counts for the initial objects.
			assert.Equal(t, len(full)-len(empty)-2, size.update(r.s.steps)+initialLen(r.s.initial))
			assert.Equal(t, len(full)-len(empty)-2, r.s.size.bytes, "the session's own count, the initial objects included")
		})
	}
}

func TestJSONLenIsWhatEncodingJSONWrites(t *testing.T) {
	values := []any{
		nil, true, false, "", "plain", "quote \" and \\ and \b\f\n\r\t and \x01\x1f", "é ✓ \u2028\u2029 \xff\xfe bad", "<&>",
		0.0, 1.0, -1.5, 1e20, 1e21, 1e-6, 1e-7, 123456789.125, -2.5e-300, 3e100,
		[]any{}, map[string]any{}, []any{1.0, "a", nil, []any{}, map[string]any{"k": []any{true}}},
		map[string]any{"a": map[string]any{"b\n": []any{map[string]any{}, "x"}}, "z": 2.0},
		resource.Object{"apiVersion": "v1", "data": map[string]any{"k": "v"}},
	}
	for _, v := range values {
		for _, indent := range []int{0, 8} {
			want, err := json.Marshal(v)
			require.NoError(t, err)
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			enc.SetIndent(strings.Repeat(" ", indent), "  ")
			require.NoError(t, enc.Encode(v))
			assert.Equal(t, buf.Len()-1, jsonLen(v, indent), "%s at indent %d", want, indent)
		}
	}
}
