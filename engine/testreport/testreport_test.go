package testreport_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/testreport"
	"github.com/genplay/genplay/internal/junitxml"
)

// sample mixes passing, failing and skipped tests of both kinds, with text
// XML cannot hold as it is (a terminal escape, NUL, <, &, quotes).
func sample() *testreport.Run {
	start := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	ms := time.Millisecond
	return &testreport.Run{Name: "genplay", Start: start, Duration: 40 * ms, Tests: []testreport.Test{
		{Folder: "suite/a", File: "suite/a/chainsaw-test.yaml", Name: "passes", Kind: "chainsaw", Namespace: "chainsaw-test",
			Status: testreport.Passed, Start: start, Duration: 5 * ms, Steps: []testreport.Step{
				{Name: "step-01", Operations: []testreport.Operation{{Name: "apply ConfigMap settings", Type: "apply"}, {Name: "assert ConfigMap settings", Type: "assert"}}},
			}},
		{Folder: "suite/b", File: "suite/b/chainsaw-test.yaml", Name: "fails", Kind: "chainsaw", Namespace: "chainsaw-test",
			Status: testreport.Failed, Reason: "assert failed: data.level: expected \"debug\", got \"info\" <&>\x1b[31m red\x1b[0m\x00",
			Detail: []string{"chainsaw-test.yaml:19:9: assert failed", "failed operation: step \"one\""},
			Start:  start.Add(5 * ms), Duration: 7 * ms, Steps: []testreport.Step{
				{Name: "one", Operations: []testreport.Operation{{Name: "apply ConfigMap settings", Type: "apply"},
					{Name: "assert ConfigMap settings", Type: "assert", Failure: "data.level: expected \"debug\", got \"info\""}}},
				{Name: "two", Operations: []testreport.Operation{{Name: "sleep 1s", Type: "sleep"}}},
			}},
		{Folder: "suite/b", File: "suite/b/other.yaml", Name: "skipped", Kind: "chainsaw",
			Status: testreport.Skipped, Reason: "the script runs curl, which genplay does not interpret", Start: start.Add(12 * ms)},
		{Folder: "suite/c/.kyverno-test", File: "suite/c/.kyverno-test/kyverno-test.yaml", Name: "kyverno passes", Kind: "kyverno",
			Status: testreport.Passed, Start: start.Add(13 * ms), Duration: 3 * ms, Steps: []testreport.Step{
				{Name: "results[0]", Operations: []testreport.Operation{{Name: "policy p, rule r, ConfigMap a: pass", Type: "result"}}},
			}},
		{Folder: "suite/d/.kyverno-test", File: "suite/d/.kyverno-test/kyverno-test.yaml", Name: "kyverno fails to load", Kind: "kyverno",
			Status: testreport.Failed, Reason: "results[0]: no rule r in policy p", Start: start.Add(16 * ms)},
		{Folder: "suite/e/.kyverno-test", File: "suite/e/.kyverno-test/kyverno-test.yaml", Name: "kyverno skipped", Kind: "kyverno",
			Status: testreport.Skipped, Reason: "results[0] checks the validate rule p/r", Start: start.Add(17 * ms)},
	}}
}

func TestJUnitReportsAreValidAndCountTheRun(t *testing.T) {
	run := sample()
	for _, tc := range []struct {
		format                   string
		tests, failures, skipped int
		cases                    []string
	}{
		// A testcase per test: 2 pass, 2 fail, 2 skipped.
		{testreport.JUnitTest, 6, 2, 2, []string{"passes", "fails", "skipped", "kyverno passes", "kyverno fails to load", "kyverno skipped"}},
		{testreport.XML, 6, 2, 2, nil},
		// A testcase per step; a test that failed outside its steps and a
		// skipped test get one of their own.
		{testreport.JUnitStep, 7, 2, 2, []string{"step-01", "one", "two", "skipped", "results[0]", "kyverno fails to load", "kyverno skipped"}},
		// A testcase per operation.
		{testreport.JUnitOperation, 9, 2, 2, []string{"step-01 / apply ConfigMap settings", "step-01 / assert ConfigMap settings",
			"one / apply ConfigMap settings", "one / assert ConfigMap settings", "two / sleep 1s", "skipped",
			"results[0] / policy p, rule r, ConfigMap a: pass", "kyverno fails to load", "kyverno skipped"}},
	} {
		t.Run(tc.format, func(t *testing.T) {
			var b bytes.Buffer
			require.NoError(t, testreport.Write(&b, run, tc.format))
			require.True(t, strings.HasPrefix(b.String(), xml.Header), "an XML declaration first")
			rep, err := junitxml.Validate(b.Bytes())
			require.NoError(t, err, "%s", b.String())
			assert.Equal(t, []int{tc.tests, tc.failures, tc.skipped, 0}, []int{rep.Tests, rep.Failures, rep.Skipped, rep.Errors}, "the counts match the run")
			var names []string
			for _, c := range rep.Cases {
				names = append(names, c.Name)
			}
			if tc.cases != nil {
				assert.Equal(t, tc.cases, names)
			}
			assert.NotContains(t, b.String(), "\x1b", "terminal escapes are dropped")
			if tc.format == testreport.JUnitTest {
				assert.Contains(t, b.String(), `&lt;&amp;&gt;`, "markup in a message is escaped")
			}
		})
	}
}

func TestTheValidatorRefusesWhatTheSchemaRefuses(t *testing.T) {
	for name, doc := range map[string]string{
		"not well-formed":        `<testsuites><testsuite name="a" tests="0"></testsuites>`,
		"an unknown element":     `<testsuites><testsuite name="a" tests="1"><testcase name="x"><oops/></testcase></testsuite></testsuites>`,
		"a count that is wrong":  `<testsuites><testsuite name="a" tests="2"><testcase name="x"/></testsuite></testsuites>`,
		"a missing name":         `<testsuites><testsuite tests="0"></testsuite></testsuites>`,
		"a time that is no time": `<testsuites><testsuite name="a" tests="0" time="1s"></testsuite></testsuites>`,
		"a failure and a skip":   `<testsuites><testsuite name="a" tests="1" failures="1" skipped="1"><testcase name="x"><failure/><skipped/></testcase></testsuite></testsuites>`,
		"an invalid character":   "<testsuites name=\"\x01\"></testsuites>",
	} {
		t.Run(name, func(t *testing.T) {
			_, err := junitxml.Validate([]byte(doc))
			assert.Error(t, err)
		})
	}
}

func TestJUnitTestGroupsTestsByFolderAndSaysWhySkippedAndWhatFailed(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, testreport.Write(&b, sample(), testreport.JUnitTest))
	rep, err := junitxml.Validate(b.Bytes())
	require.NoError(t, err)
	var suites []string
	for _, s := range rep.Suites {
		suites = append(suites, s["name"])
	}
	assert.Equal(t, []string{"suite/a", "suite/b", "suite/c/.kyverno-test", "suite/d/.kyverno-test", "suite/e/.kyverno-test"}, suites)
	fails := rep.Cases[1]
	assert.Equal(t, "failed", fails.Result)
	assert.Contains(t, fails.Message, `assert failed: data.level: expected "debug", got "info" <&> red`)
	assert.Contains(t, fails.Text, "failed operation: step \"one\"", "the detail is the failure's text")
	skip := rep.Cases[2]
	assert.Equal(t, "skipped", skip.Result)
	assert.Equal(t, "the script runs curl, which genplay does not interpret", skip.Message)
	assert.Equal(t, "suite/b/other.yaml", skip.Classname)
}

func TestJUnitStepNamesTheNamespaceAndTheFolder(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, testreport.Write(&b, sample(), testreport.JUnitStep))
	rep, err := junitxml.Validate(b.Bytes())
	require.NoError(t, err)
	first := rep.Suites[0]
	assert.Equal(t, "passes", first["name"])
	assert.Equal(t, "suite/a", first["package"])
	assert.Equal(t, "2026-12-02T10:00:00", first["timestamp"])
	assert.Contains(t, b.String(), `<property name="namespace" value="chainsaw-test"></property>`)
}

func TestJSONReportHasChainsawsFieldsAndTheReasons(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, testreport.Write(&b, sample(), testreport.JSON))
	var got struct {
		Name                    string
		Passed, Failed, Skipped int
		Tests                   []struct {
			BasePath, Name, Status, Reason, Kind string
			Steps                                []struct {
				Name, Status string
				Operations   []struct {
					Name, Type, Status string
					Failure            *struct{ Error string }
				}
			}
		}
	}
	require.NoError(t, json.Unmarshal(b.Bytes(), &got))
	assert.Equal(t, "genplay", got.Name)
	assert.Equal(t, []int{2, 2, 2}, []int{got.Passed, got.Failed, got.Skipped})
	require.Len(t, got.Tests, 6)
	assert.Equal(t, "failed", got.Tests[1].Status)
	assert.Equal(t, "failed", got.Tests[1].Steps[0].Status)
	assert.Equal(t, "passed", got.Tests[1].Steps[1].Status)
	assert.Equal(t, `data.level: expected "debug", got "info"`, got.Tests[1].Steps[0].Operations[1].Failure.Error)
	assert.Equal(t, "skipped", got.Tests[2].Status)
	assert.Contains(t, got.Tests[2].Reason, "curl")
	assert.Equal(t, "kyverno", got.Tests[3].Kind)
}

func TestReportFilesAreNamedAsChainsawNamesThem(t *testing.T) {
	assert.Equal(t, "chainsaw-report.xml", testreport.FileName("", "", testreport.JUnitTest))
	assert.Equal(t, "chainsaw-report.json", testreport.FileName("", "", testreport.JSON))
	assert.Equal(t, "out/genplay.xml", testreport.FileName("out", "genplay", testreport.JUnitStep))
	assert.Equal(t, "out/report.txt", testreport.FileName("out", "report.txt", testreport.JSON), "a name with an extension is kept")
	f, err := testreport.ParseFormat("junit-test")
	require.NoError(t, err)
	assert.Equal(t, testreport.JUnitTest, f)
	_, err = testreport.ParseFormat("html")
	assert.ErrorContains(t, err, "JSON, XML, JUNIT-TEST, JUNIT-STEP, JUNIT-OPERATION")
}
