package testreport

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Formats, as chainsaw's --report-format names them.
const (
	JSON           = "JSON"
	XML            = "XML" // JUNIT-TEST
	JUnitTest      = "JUNIT-TEST"
	JUnitStep      = "JUNIT-STEP"
	JUnitOperation = "JUNIT-OPERATION"
)

// Formats are the formats Write knows.
var Formats = []string{JSON, XML, JUnitTest, JUnitStep, JUnitOperation}

// Statuses of a test, a step and an operation.
const (
	Passed  = "passed"
	Failed  = "failed"
	Skipped = "skipped"
)

// Run is a run of tests.
type Run struct {
	// Name names the run: the testsuites element's name.
	Name  string
	Start time.Time
	// Duration is the whole run's.
	Duration time.Duration
	Tests    []Test
}

// Test is one test: a chainsaw Test, or a Kyverno CLI test.
type Test struct {
	// Folder is the folder the test is in (chainsaw's basePath); File its
	// file.
	Folder, File string
	Name         string
	// Kind says what sort of test it is ("chainsaw", "kyverno").
	Kind string
	// Namespace is the namespace a chainsaw test ran in.
	Namespace string
	// Status is Passed, Failed or Skipped; Reason says why a test failed
	// or was skipped, Detail gives the rest.
	Status string
	Reason string
	Detail []string
	// Start and Duration time the test; Steps are what ran.
	Start    time.Time
	Duration time.Duration
	Steps    []Step
}

// Step is a step of a test and its operations.
type Step struct {
	Name       string
	Duration   time.Duration
	Operations []Operation
}

// Operation is one operation of a step: its Type (apply, assert, ...) and,
// when it failed, Failure.
type Operation struct {
	Name     string
	Type     string
	Failure  string
	Duration time.Duration
}

// Failed reports whether an operation of the step failed.
func (s Step) Failed() bool {
	for _, op := range s.Operations {
		if op.Failure != "" {
			return true
		}
	}
	return false
}

// ParseFormat checks a format name, case-insensitively, and returns it as
// chainsaw spells it.
func ParseFormat(s string) (string, error) {
	up := strings.ToUpper(strings.TrimSpace(s))
	for _, f := range Formats {
		if up == f {
			return f, nil
		}
	}
	return "", fmt.Errorf("unknown report format %q (%s)", s, strings.Join(Formats, ", "))
}

// FileName is where chainsaw writes a report: name (default
// "chainsaw-report") with the format's extension when it has none, in
// folder path ("" for the working directory).
func FileName(path, name, format string) string {
	if name == "" {
		name = "chainsaw-report"
	}
	if filepath.Ext(name) == "" {
		ext := ".xml"
		if format == JSON {
			ext = ".json"
		}
		name += ext
	}
	if path == "" {
		return name
	}
	return filepath.Join(path, name)
}

// Write writes the run's report in format.
func Write(w io.Writer, run *Run, format string) error {
	var doc any
	switch format {
	case JSON:
		return writeJSON(w, run)
	case XML, JUnitTest:
		doc = junitTests(run)
	case JUnitStep:
		doc = junitSteps(run, false)
	case JUnitOperation:
		doc = junitSteps(run, true)
	default:
		return fmt.Errorf("unknown report format %q (%s)", format, strings.Join(Formats, ", "))
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// seconds renders a duration as JUnit's time: seconds, a decimal.
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', 3, 64)
}

// junitTests is JUNIT-TEST: a testsuite per folder, in the order the
// folders first appear, a testcase per test.
func junitTests(run *Run) *testsuites {
	out := &testsuites{Name: run.Name, Time: seconds(run.Duration)}
	index := map[string]int{}
	for _, t := range run.Tests {
		i, ok := index[t.Folder]
		if !ok {
			i = len(out.Suites)
			index[t.Folder] = i
			out.Suites = append(out.Suites, testsuite{Name: orDefault(t.Folder, "."), Timestamp: timestamp(t.Start)})
		}
		s := &out.Suites[i]
		c := testcase{Name: orDefault(t.Name, filepath.Base(t.File)), Classname: t.File, Time: seconds(t.Duration)}
		switch t.Status {
		case Skipped:
			c.Skipped = &skipped{Message: clean(t.Reason)}
		case Failed:
			c.Failure = failure(t.Reason, t.Detail)
		}
		s.add(c, t.Duration)
	}
	out.total()
	return out
}

// junitSteps is JUNIT-STEP (a testcase per step) or JUNIT-OPERATION (per
// operation): a testsuite per test.
func junitSteps(run *Run, operations bool) *testsuites {
	out := &testsuites{Name: run.Name, Time: seconds(run.Duration)}
	for _, t := range run.Tests {
		s := testsuite{Name: orDefault(t.Name, filepath.Base(t.File)), Package: t.Folder, File: t.File, Timestamp: timestamp(t.Start)}
		if t.Namespace != "" {
			s.Properties = &properties{Property: []property{{Name: "namespace", Value: t.Namespace}}}
		}
		if t.Status == Skipped {
			s.add(testcase{Name: s.Name, Classname: t.File, Time: seconds(t.Duration), Skipped: &skipped{Message: clean(t.Reason)}}, t.Duration)
			out.Suites = append(out.Suites, s)
			continue
		}
		failedInside := false
		for _, st := range t.Steps {
			if !operations {
				c := testcase{Name: st.Name, Classname: t.File, Time: seconds(st.Duration)}
				var msgs []string
				for _, op := range st.Operations {
					if op.Failure != "" {
						msgs = append(msgs, op.Name+": "+op.Failure)
					}
				}
				if len(msgs) > 0 {
					c.Failure = failure(msgs[0], msgs)
					failedInside = true
				}
				s.add(c, st.Duration)
				continue
			}
			for _, op := range st.Operations {
				c := testcase{Name: st.Name + " / " + op.Name, Classname: op.Type, Time: seconds(op.Duration)}
				if op.Failure != "" {
					c.Failure = failure(op.Failure, nil)
					failedInside = true
				}
				s.add(c, op.Duration)
			}
		}
		if t.Status == Failed && !failedInside {
			// The test failed outside its operations (it did not load, or
			// a result was checked after the run): a testcase says so.
			s.add(testcase{Name: s.Name, Classname: t.File, Time: "0.000", Failure: failure(t.Reason, t.Detail)}, 0)
		}
		s.Time = seconds(t.Duration) // the test's, whether or not its steps were timed
		out.Suites = append(out.Suites, s)
	}
	out.total()
	return out
}

// timestamp is a testsuite's start as JUnit writes it (ISO 8601, no zone).
func timestamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02T15:04:05")
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func failure(reason string, detail []string) *result {
	r := &result{Message: clean(firstLine(reason)), Type: "failure"}
	if len(detail) > 0 {
		r.Text = clean(strings.Join(detail, "\n"))
	} else if reason != "" {
		r.Text = clean(reason)
	}
	return r
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// clean drops the terminal's colour escapes; encoding/xml replaces the
// characters XML 1.0 cannot hold.
func clean(s string) string {
	if !strings.Contains(s, "\x1b[") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[' {
			j := i + 2
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == ';') {
				j++
			}
			if j < len(s) {
				i = j
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// The JUnit XML elements.
type testsuites struct {
	XMLName  xml.Name    `xml:"testsuites"`
	Name     string      `xml:"name,attr,omitempty"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Time     string      `xml:"time,attr"`
	Suites   []testsuite `xml:"testsuite"`
}

type testsuite struct {
	Name       string      `xml:"name,attr"`
	Tests      int         `xml:"tests,attr"`
	Failures   int         `xml:"failures,attr"`
	Errors     int         `xml:"errors,attr"`
	Skipped    int         `xml:"skipped,attr"`
	Time       string      `xml:"time,attr"`
	Timestamp  string      `xml:"timestamp,attr,omitempty"`
	Package    string      `xml:"package,attr,omitempty"`
	File       string      `xml:"file,attr,omitempty"`
	Properties *properties `xml:"properties,omitempty"`
	Cases      []testcase  `xml:"testcase"`

	duration time.Duration
}

func (s *testsuite) add(c testcase, d time.Duration) {
	s.Cases = append(s.Cases, c)
	s.Tests++
	switch {
	case c.Skipped != nil:
		s.Skipped++
	case c.Failure != nil:
		s.Failures++
	}
	s.duration += d
	s.Time = seconds(s.duration)
}

func (ts *testsuites) total() {
	for _, s := range ts.Suites {
		ts.Tests += s.Tests
		ts.Failures += s.Failures
		ts.Errors += s.Errors
	}
}

type properties struct {
	Property []property `xml:"property"`
}

type property struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type testcase struct {
	Name      string   `xml:"name,attr"`
	Classname string   `xml:"classname,attr"`
	Time      string   `xml:"time,attr"`
	Skipped   *skipped `xml:"skipped,omitempty"`
	Failure   *result  `xml:"failure,omitempty"`
}

type skipped struct {
	Message string `xml:"message,attr,omitempty"`
}

type result struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// writeJSON writes chainsaw's JSON report, with each test's kind, file,
// reason and detail added.
func writeJSON(w io.Writer, run *Run) error {
	type failureJSON struct {
		Err string `json:"error,omitempty"`
	}
	type operationJSON struct {
		Name      string       `json:"name,omitempty"`
		Type      string       `json:"type,omitempty"`
		Status    string       `json:"status"`
		StartTime time.Time    `json:"startTime"`
		EndTime   time.Time    `json:"endTime"`
		Failure   *failureJSON `json:"failure,omitempty"`
	}
	type stepJSON struct {
		Name       string          `json:"name,omitempty"`
		Status     string          `json:"status"`
		StartTime  time.Time       `json:"startTime"`
		EndTime    time.Time       `json:"endTime"`
		Operations []operationJSON `json:"operations,omitempty"`
	}
	type testJSON struct {
		BasePath  string     `json:"basePath,omitempty"`
		File      string     `json:"file,omitempty"`
		Kind      string     `json:"kind,omitempty"`
		Name      string     `json:"name,omitempty"`
		Status    string     `json:"status"`
		Reason    string     `json:"reason,omitempty"`
		Detail    []string   `json:"detail,omitempty"`
		StartTime time.Time  `json:"startTime"`
		EndTime   time.Time  `json:"endTime"`
		Namespace string     `json:"namespace,omitempty"`
		Steps     []stepJSON `json:"steps,omitempty"`
	}
	type reportJSON struct {
		Name      string     `json:"name,omitempty"`
		StartTime time.Time  `json:"startTime"`
		EndTime   time.Time  `json:"endTime"`
		Passed    int        `json:"passed"`
		Failed    int        `json:"failed"`
		Skipped   int        `json:"skipped"`
		Tests     []testJSON `json:"tests"`
	}
	out := reportJSON{Name: run.Name, StartTime: run.Start.UTC(), EndTime: run.Start.Add(run.Duration).UTC(), Tests: []testJSON{}}
	for _, t := range run.Tests {
		switch t.Status {
		case Passed:
			out.Passed++
		case Failed:
			out.Failed++
		default:
			out.Skipped++
		}
		tj := testJSON{BasePath: t.Folder, File: t.File, Kind: t.Kind, Name: t.Name, Status: t.Status, Reason: t.Reason,
			Detail: t.Detail, StartTime: t.Start.UTC(), EndTime: t.Start.Add(t.Duration).UTC(), Namespace: t.Namespace}
		at := t.Start
		for _, st := range t.Steps {
			sj := stepJSON{Name: st.Name, Status: Passed, StartTime: at.UTC()}
			if st.Failed() {
				sj.Status = Failed
			}
			for _, op := range st.Operations {
				oj := operationJSON{Name: op.Name, Type: op.Type, Status: Passed, StartTime: at.UTC(), EndTime: at.Add(op.Duration).UTC()}
				if op.Failure != "" {
					oj.Status, oj.Failure = Failed, &failureJSON{Err: op.Failure}
				}
				at = at.Add(op.Duration)
				sj.Operations = append(sj.Operations, oj)
			}
			sj.EndTime = at.UTC()
			tj.Steps = append(tj.Steps, sj)
		}
		out.Tests = append(out.Tests, tj)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}
