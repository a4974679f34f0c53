package scenario

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/genplay/genplay/engine/source"
)

// ConfigFileNames are the names chainsaw reads its Configuration from in
// the working directory when no --config is given.
var ConfigFileNames = []string{".chainsaw.yaml", ".chainsaw.yml"}

// Configuration is the part of chainsaw's Configuration
// (chainsaw.kyverno.io/v1alpha1 or v1alpha2) that changes what a run of
// the tests does in genplay. Fields genplay reads but that change nothing
// in a simulation are listed in Ignored with the reason.
type Configuration struct {
	File string
	// TestFile is the name of the file holding a folder's test, without
	// its extension (.yaml, then .yml); default "chainsaw-test".
	TestFile string
	// FullName names tests "folder[name]" (the folder relative to the
	// working directory) instead of metadata.name, for the regexes.
	FullName bool
	// Include and Exclude select tests by name, as chainsaw does with Go's
	// -run and -skip (see Selected); nil: every test.
	Include, Exclude *regexp.Regexp
	// FailFast stops the run at the first failed test.
	FailFast bool
	// Namespace is the namespace every test runs in when it names none;
	// "": a namespace per test.
	Namespace string
	// Templating is chainsaw templating's default for the tests, where a
	// test, step or operation does not set its own (default true).
	Templating bool
	// Report is the report chainsaw writes after the run (Format "" for
	// none); the command line's --report-* flags override it.
	Report Report
	// Ignored are notes on the fields set that have no effect in genplay.
	Ignored []string
}

// Report is where and how a run's report is written, as chainsaw's
// spec.report (v1alpha2) or reportFormat, reportPath and reportName
// (v1alpha1) say.
type Report struct {
	// Format is one of ReportFormats, or "" for no report.
	Format string
	// Path is the report's folder ("" for the working directory); Name its
	// file name, with the format's extension added when it has none.
	Path, Name string
}

// ReportFormats are chainsaw's report formats. XML is JUNIT-TEST.
var ReportFormats = []string{"JSON", "XML", "JUNIT-TEST", "JUNIT-STEP", "JUNIT-OPERATION"}

// DefaultReportName is the report's file name when none is set.
const DefaultReportName = "chainsaw-report"

// TestFileNames are the file names of tests under this configuration.
func (c *Configuration) TestFileNames() []string {
	name := c.TestFile
	if name == "" {
		name = "chainsaw-test"
	}
	if strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml") {
		return []string{name}
	}
	return []string{name + ".yaml", name + ".yml"}
}

// Configuration fields by version: what changes a run, and what is read
// and ignored with a reason.
var (
	configIgnored = map[string]string{
		"timeouts":                    "genplay's time is logical: Kyverno reacts within the step, so there is nothing to wait for",
		"parallel":                    "genplay runs tests one after the other; each has its own simulated cluster either way",
		"repeatCount":                 "a simulation gives the same result every time",
		"forceTerminationGracePeriod": "simulated pods terminate at once",
		"delayBeforeCleanup":          "genplay does not run chainsaw's clean-up",
		"deletionPropagationPolicy":   "deletes cascade at once in the simulated cluster",
		"catch":                       "catch operations collect diagnostics from a real cluster",
		"clusters":                    "genplay simulates one cluster",
		"namespaceTemplate":           "genplay creates the test namespace as a plain Namespace",
		"fastNamespaceDeletion":       "namespaces are deleted at once in the simulated cluster",
		"compiler: cel":               "genplay evaluates chainsaw expressions with JMESPath: a (cel;...) expression is an error at its line, and an unprefixed one is read as JMESPath",
		"noCluster":                   "genplay never needs a cluster",
		"pauseOnFailure":              "genplay does not pause",
		"skipDelete":                  "genplay never runs chainsaw's clean-up: the final cluster stays visible either way",
	}
	configV1Alpha1 = []string{"timeouts", "skipDelete", "template", "compiler", "failFast", "parallel", "deletionPropagationPolicy",
		"reportFormat", "reportPath", "reportName", "namespace", "namespaceTemplateCompiler", "namespaceTemplate",
		"fastNamespaceDeletion", "fullName", "excludeTestRegex", "includeTestRegex", "repeatCount", "testFile",
		"forceTerminationGracePeriod", "delayBeforeCleanup", "clusters", "catch"}
	configV1Alpha2 = []string{"cleanup", "clusters", "deletion", "discovery", "error", "execution", "namespace", "report",
		"templating", "timeouts"}
)

// ParseConfiguration reads a chainsaw Configuration file, of either version
// and with every field current chainsaw releases know.
func ParseConfiguration(file string, data []byte) (*Configuration, source.Diagnostics) {
	docs, diags := source.Parse(file, data)
	if diags.HasErrors() {
		return nil, diags
	}
	var found *source.Document
	for _, doc := range docs {
		if doc.Value != nil {
			if found != nil {
				return nil, append(diags, source.Errorf(doc.Pos(), "a chainsaw configuration file holds one Configuration"))
			}
			found = doc
		}
	}
	if found == nil {
		return nil, append(diags, source.Errorf(source.Pos{File: file, Line: 1, Col: 1}, "no chainsaw Configuration in the file"))
	}
	d := decoder{doc: found, diags: &diags}
	root, ok := d.object(nil, found.Value, "a chainsaw Configuration")
	if !ok {
		return nil, diags
	}
	root.only("a Configuration", "apiVersion", "kind", "metadata", "spec")
	apiVersion := root.str("apiVersion")
	if root.str("kind") != "Configuration" || (apiVersion != APIVersion && apiVersion != "chainsaw.kyverno.io/v1alpha2") {
		d.errorf(nil, "expected kind Configuration in chainsaw.kyverno.io/v1alpha1 or v1alpha2, got apiVersion %q and kind %q", apiVersion, root.str("kind"))
		return nil, diags
	}
	c := &Configuration{File: file, Templating: true}
	spec, ok := d.object(root.at("spec"), root.m["spec"], "spec")
	if !ok {
		return c, diags
	}
	cr := configReader{d: d, c: c}
	if apiVersion == APIVersion {
		cr.v1alpha1(spec)
	} else {
		cr.v1alpha2(spec)
	}
	sort.Strings(c.Ignored)
	return c, diags
}

// configReader fills a Configuration from the spec of either version.
type configReader struct {
	d decoder
	c *Configuration
}

// ignore notes a field that is set and changes nothing in genplay.
func (r configReader) ignore(field, key string) {
	if reason := configIgnored[key]; reason != "" {
		r.c.Ignored = append(r.c.Ignored, fmt.Sprintf("%s: ignored: %s", field, reason))
	}
}

// compiler notes a default compiler other than JMESPath (jp, the default,
// changes nothing).
func (r configReader) compiler(n node, key, field string) {
	if !n.has(key) {
		return
	}
	switch v := n.str(key); v {
	case "jp":
	case "cel":
		r.ignore(field, "compiler: cel")
	default:
		r.d.errorf(n.at(key), "%s: unknown compiler %q (jp or cel)", field, v)
	}
}

func (r configReader) regex(n node, key string) *regexp.Regexp {
	s := n.str(key)
	if s == "" {
		return nil
	}
	re, err := regexp.Compile(s)
	if err != nil {
		r.d.errorf(n.at(key), "%s: %v", key, err)
		return nil
	}
	return re
}

func (r configReader) report(n node, formatKey, pathKey, nameKey string) {
	r.c.Report = Report{Format: n.str(formatKey), Path: n.str(pathKey), Name: n.str(nameKey)}
	if f := r.c.Report.Format; f != "" && !contains(ReportFormats, f) {
		r.d.errorf(n.at(formatKey), "%s: unknown report format %q (%s)", formatKey, f, strings.Join(ReportFormats, ", "))
	}
}

func (r configReader) v1alpha1(spec node) {
	c := r.c
	spec.only("a v1alpha1 Configuration spec", configV1Alpha1...)
	c.TestFile = spec.str("testFile")
	c.FullName = boolOr(spec.boolean("fullName"), false)
	c.Include, c.Exclude = r.regex(spec, "includeTestRegex"), r.regex(spec, "excludeTestRegex")
	c.FailFast = boolOr(spec.boolean("failFast"), false)
	c.Namespace = spec.str("namespace")
	c.Templating = boolOr(spec.boolean("template"), true)
	r.report(spec, "reportFormat", "reportPath", "reportName")
	r.compiler(spec, "compiler", "spec.compiler")
	r.compiler(spec, "namespaceTemplateCompiler", "spec.namespaceTemplateCompiler")
	for _, k := range sortedKeys(spec.m) {
		r.ignore("spec."+k, k)
	}
}

func (r configReader) v1alpha2(spec node) {
	c := r.c
	spec.only("a v1alpha2 Configuration spec", configV1Alpha2...)
	section := func(key string, allowed ...string) (node, bool) {
		if !spec.has(key) {
			return node{}, false
		}
		n, ok := r.d.object(spec.at(key), spec.m[key], "spec."+key)
		if ok {
			n.only("spec."+key, allowed...)
		}
		return n, ok
	}
	if n, ok := section("discovery", "testFile", "fullName", "includeTestRegex", "excludeTestRegex"); ok {
		c.TestFile = n.str("testFile")
		c.FullName = boolOr(n.boolean("fullName"), false)
		c.Include, c.Exclude = r.regex(n, "includeTestRegex"), r.regex(n, "excludeTestRegex")
	}
	if n, ok := section("cleanup", "skipDelete", "delayBeforeCleanup"); ok {
		for _, k := range sortedKeys(n.m) {
			r.ignore("spec.cleanup."+k, k)
		}
	}
	if n, ok := section("execution", "failFast", "parallel", "repeatCount", "forceTerminationGracePeriod"); ok {
		c.FailFast = boolOr(n.boolean("failFast"), false)
		for _, k := range sortedKeys(n.m) {
			r.ignore("spec.execution."+k, k)
		}
	}
	if n, ok := section("namespace", "name", "template", "compiler", "fastDelete"); ok {
		c.Namespace = n.str("name")
		if n.has("template") {
			r.ignore("spec.namespace.template", "namespaceTemplate")
		}
		if n.has("fastDelete") {
			r.ignore("spec.namespace.fastDelete", "fastNamespaceDeletion")
		}
		r.compiler(n, "compiler", "spec.namespace.compiler")
	}
	if n, ok := section("templating", "enabled", "compiler"); ok {
		c.Templating = boolOr(n.boolean("enabled"), true)
		r.compiler(n, "compiler", "spec.templating.compiler")
	}
	if n, ok := section("report", "format", "path", "name"); ok {
		r.report(n, "format", "path", "name")
	}
	section("deletion", "propagation")
	section("error", "catch")
	for key, note := range map[string]string{"timeouts": "timeouts", "deletion": "deletionPropagationPolicy", "error": "catch",
		"clusters": "clusters"} {
		if spec.has(key) {
			r.ignore("spec."+key, note)
		}
	}
}

// Selected reports whether chainsaw runs the test named name (metadata.name,
// or folder[name] with FullName) under Include and Exclude. Chainsaw runs
// every test as a Go subtest "chainsaw/NAME" with -run Include and -skip
// Exclude, so the regexes match as Go's do: split on unbracketed slashes,
// each element matched (unanchored) against one level of "chainsaw/NAME".
func (c *Configuration) Selected(name string) bool {
	levels := strings.Split("chainsaw/"+strings.ReplaceAll(name, " ", "_"), "/")
	if c.Include != nil {
		if ok, _ := goTestMatch(c.Include.String(), levels); !ok {
			return false
		}
	}
	if c.Exclude != nil {
		if ok, partial := goTestMatch(c.Exclude.String(), levels); ok && !partial {
			return false
		}
	}
	return true
}

// goTestMatch is Go's test-name matching: pattern is split on top-level
// "|" into alternatives and each on unbracketed "/" into elements; ok when
// some alternative's elements match the levels they line up with, partial
// when that alternative has more elements than there are levels.
func goTestMatch(pattern string, levels []string) (ok, partial bool) {
	for _, alt := range splitTopLevel(pattern, '|') {
		elems := splitTopLevel(alt, '/')
		match := true
		for i, lvl := range levels {
			if i >= len(elems) {
				break
			}
			re, err := regexp.Compile(elems[i])
			if err != nil || !re.MatchString(lvl) {
				match = false
				break
			}
		}
		if match {
			return true, len(levels) < len(elems)
		}
	}
	return false, false
}

// splitTopLevel splits s on sep outside brackets and parentheses, as Go's
// testing package splits -run patterns.
func splitTopLevel(s string, sep byte) []string {
	var out []string
	cs, cp := 0, 0 // bracket and parenthesis depth
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[':
			cs++
		case ']':
			if cs > 0 {
				cs--
			}
		case '(':
			if cs == 0 {
				cp++
			}
		case ')':
			if cs == 0 && cp > 0 {
				cp--
			}
		case '\\':
			i++
		default:
			if s[i] == sep && cs == 0 && cp == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}
