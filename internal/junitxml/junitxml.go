// Package junitxml checks a JUnit XML report the way a strict CI consumer
// reads it, for the tests of the reports genplay writes: encoding/xml in
// strict mode (well-formed XML 1.0, no undeclared entities, valid
// characters), then the structure of Jenkins' junit-10.xsd, the schema CI
// tools validate JUnit reports against (each element's children, in the
// schema's order, and attributes; the required attributes; counts that are
// integers, times that are Surefire's decimal seconds, ISO 8601
// timestamps), then the counts: each testsuite's tests, failures, errors
// and skipped, and the testsuites' totals, are the numbers of testcases
// they count.
package junitxml

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Case is one testcase of a report.
type Case struct {
	Suite, Name, Classname string
	// Result is "passed", "failed", "error" or "skipped"; Message is the
	// failure's or skip's message, Text the failure's text.
	Result, Message, Text string
}

// Report is what a valid report holds.
type Report struct {
	Tests, Failures, Errors, Skipped int
	Cases                            []Case
	// Suites are the testsuites' attributes, in order.
	Suites []map[string]string
}

// element is a parsed XML element.
type element struct {
	name     string
	attrs    map[string]string
	children []*element
	text     string
}

// The structure of junit-10.xsd: each element's children in the schema's
// order, its attributes, and the required ones.
var schema = map[string]struct {
	children, attrs, required []string
	choice                    bool // children in any order (xs:choice)
}{
	"testsuites": {children: []string{"testsuite"}, attrs: []string{"name", "time", "tests", "failures", "disabled", "errors"}},
	"testsuite": {children: []string{"properties", "testcase", "system-out", "system-err"},
		attrs: []string{"name", "tests", "failures", "errors", "time", "disabled", "skipped", "timestamp", "hostname", "id",
			"package", "file", "log", "url", "version"}, required: []string{"name", "tests"}},
	"properties": {children: []string{"property"}},
	"property":   {attrs: []string{"name", "value"}, required: []string{"name", "value"}},
	"testcase": {children: []string{"skipped", "error", "failure", "system-out", "system-err"}, choice: true,
		attrs: []string{"name", "assertions", "time", "classname", "status", "class", "file", "line", "log", "group", "url"}, required: []string{"name"}},
	"skipped":    {attrs: []string{"message"}},
	"failure":    {attrs: []string{"message", "type"}},
	"error":      {attrs: []string{"message", "type"}},
	"system-out": {},
	"system-err": {},
}

var (
	surefireTime = regexp.MustCompile(`^(([0-9]{0,3},)*[0-9]{3}|[0-9]{0,3})*(\.[0-9]{0,3})?$`)
	isoTimestamp = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}$`)
	countAttrs   = []string{"tests", "failures", "errors", "skipped", "disabled"}
)

// Validate checks a report and returns what it holds, or every problem.
func Validate(data []byte) (*Report, error) {
	root, err := parse(data)
	if err != nil {
		return nil, err
	}
	var problems []string
	if root.name != "testsuites" {
		problems = append(problems, fmt.Sprintf("the root is %s, not testsuites", root.name))
	}
	validate(root, "/"+root.name, &problems)
	rep := &Report{}
	for i, s := range root.children {
		if s.name != "testsuite" {
			continue
		}
		rep.Suites = append(rep.Suites, s.attrs)
		var n, f, e, sk int
		for _, c := range s.children {
			if c.name != "testcase" {
				continue
			}
			n++
			tc := Case{Suite: s.attrs["name"], Name: c.attrs["name"], Classname: c.attrs["classname"], Result: "passed"}
			for _, r := range c.children {
				switch r.name {
				case "failure":
					f++
					tc.Result, tc.Message, tc.Text = "failed", r.attrs["message"], r.text
				case "error":
					e++
					tc.Result, tc.Message, tc.Text = "error", r.attrs["message"], r.text
				case "skipped":
					sk++
					tc.Result, tc.Message = "skipped", r.attrs["message"]
				}
			}
			rep.Cases = append(rep.Cases, tc)
		}
		where := fmt.Sprintf("testsuite[%d] %q", i, s.attrs["name"])
		for attr, want := range map[string]int{"tests": n, "failures": f, "errors": e, "skipped": sk} {
			if got, ok := s.attrs[attr]; ok && got != strconv.Itoa(want) || !ok && attr == "tests" {
				problems = append(problems, fmt.Sprintf("%s: %s=%q, but it holds %d", where, attr, got, want))
			}
		}
		rep.Tests, rep.Failures, rep.Errors, rep.Skipped = rep.Tests+n, rep.Failures+f, rep.Errors+e, rep.Skipped+sk
	}
	for attr, want := range map[string]int{"tests": rep.Tests, "failures": rep.Failures, "errors": rep.Errors} {
		if got, ok := root.attrs[attr]; ok && got != strconv.Itoa(want) {
			problems = append(problems, fmt.Sprintf("testsuites: %s=%q, but its testsuites hold %d", attr, got, want))
		}
	}
	if len(problems) > 0 {
		slices.Sort(problems)
		return rep, errors.New(strings.Join(problems, "\n"))
	}
	return rep, nil
}

// parse reads XML with encoding/xml in strict mode into a tree.
func parse(data []byte) (*element, error) {
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.Strict = true
	var stack []*element
	var root *element
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("not well-formed XML: %w", err)
		}
		switch x := tok.(type) {
		case xml.StartElement:
			e := &element{name: x.Name.Local, attrs: map[string]string{}}
			for _, a := range x.Attr {
				e.attrs[a.Name.Local] = a.Value
			}
			if len(stack) == 0 {
				if root != nil {
					return nil, errors.New("more than one root element")
				}
				root = e
			} else {
				parent := stack[len(stack)-1]
				parent.children = append(parent.children, e)
			}
			stack = append(stack, e)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].text += string(x)
			} else if strings.TrimSpace(string(x)) != "" {
				return nil, errors.New("text outside the root element")
			}
		}
	}
	if root == nil {
		return nil, errors.New("no root element")
	}
	return root, nil
}

// validate checks e and its children against the schema's structure.
func validate(e *element, path string, problems *[]string) {
	rule, ok := schema[e.name]
	if !ok {
		*problems = append(*problems, fmt.Sprintf("%s: %s is not a JUnit element", path, e.name))
		return
	}
	for a, v := range e.attrs {
		switch {
		case !slices.Contains(rule.attrs, a):
			*problems = append(*problems, fmt.Sprintf("%s: %s has no attribute %s", path, e.name, a))
		case slices.Contains(countAttrs, a):
			if n, err := strconv.Atoi(v); err != nil || n < 0 {
				*problems = append(*problems, fmt.Sprintf("%s: %s=%q is not a count", path, a, v))
			}
		case a == "time" && !surefireTime.MatchString(v):
			*problems = append(*problems, fmt.Sprintf("%s: time=%q is not decimal seconds", path, v))
		case a == "timestamp" && !isoTimestamp.MatchString(v):
			*problems = append(*problems, fmt.Sprintf("%s: timestamp=%q is not ISO 8601 (yyyy-mm-ddThh:mm:ss)", path, v))
		}
	}
	for _, a := range rule.required {
		if e.attrs[a] == "" {
			*problems = append(*problems, fmt.Sprintf("%s: %s needs %s", path, e.name, a))
		}
	}
	last, outcomes := -1, 0
	for i, c := range e.children {
		idx := slices.Index(rule.children, c.name)
		if idx < 0 {
			*problems = append(*problems, fmt.Sprintf("%s: %s cannot hold %s", path, e.name, c.name))
			continue
		}
		if !rule.choice && idx < last {
			*problems = append(*problems, fmt.Sprintf("%s: %s comes after what the schema puts after it", path, c.name))
		}
		last = max(last, idx)
		if c.name == "skipped" || c.name == "failure" || c.name == "error" {
			outcomes++
		}
		validate(c, fmt.Sprintf("%s/%s[%d]", path, c.name, i), problems)
	}
	if outcomes > 1 {
		*problems = append(*problems, fmt.Sprintf("%s: a testcase with more than one of skipped, failure, error", path))
	}
}
