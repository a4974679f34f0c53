//go:build !js

package differential

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/source"
)

// CLI runs Kyverno's CLI.
type CLI struct {
	Path string // the kyverno binary
	Dir  string // a scratch folder, one subfolder per case
	// Timeout bounds one invocation (the CLI has no limits of its own).
	Timeout time.Duration
	// Version is the CLI's Kyverno release, which genplay simulates for the
	// comparison ("" the latest).
	Version string
}

// run runs the CLI in dir and returns its combined output and exit error.
func (k CLI) run(dir string, args ...string) (string, error) {
	timeout := k.Timeout
	if timeout == 0 {
		timeout = time.Minute
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, k.Path, args...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ctx.Err() != nil {
		err = fmt.Errorf("kyverno %s: timed out after %s", strings.Join(args, " "), timeout)
	}
	return out.String(), err
}

func (k CLI) caseDir(c Case) (string, error) {
	dir := filepath.Join(k.Dir, safeName(c.Name))
	if err := os.RemoveAll(dir); err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	for name, data := range map[string][]byte{secPolicy: c.Policy, secResources: c.Resources, secSources: c.Sources} {
		if len(data) > 0 {
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
				return "", err
			}
		}
	}
	return dir, nil
}

// ansi matches the colour codes the CLI's logger writes even with
// --remove-color.
var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			return r
		}
		return '_'
	}, s)
}

// Apply runs `kyverno apply policy.yaml --resource resources.yaml -o
// generated.yaml` and reads the objects the rules generated.
func (k CLI) Apply(c Case) Result {
	dir, err := k.caseDir(c)
	if err != nil {
		return Result{Err: err}
	}
	// -v 1 makes the CLI log the errors of the rules it applied.
	out, runErr := k.run(dir, "apply", secPolicy, "--resource", secResources, "-o", "generated.yaml", "--remove-color", "-v", "1")
	out = ansi.ReplaceAllString(out, "")
	r := Result{Log: out}
	data, err := os.ReadFile(filepath.Join(dir, "generated.yaml"))
	if err != nil && runErr == nil {
		runErr = err
	}
	objs, err := objects("generated.yaml", data)
	if err != nil {
		r.Err = fmt.Errorf("the CLI's output does not parse: %w", err)
		return r
	}
	if runErr != nil && len(objs) == 0 && !strings.Contains(out, "pass:") {
		r.Err = fmt.Errorf("kyverno apply: %v", runErr)
	}
	r.Objects = objs
	sortObjects(r.Objects)
	return r
}

// Test runs `kyverno test` on a kyverno-test.yaml that expects, for every
// generate rule and trigger, the objects genplay generated for them
// (WriteTest), and reports whether the CLI agreed, with its output.
func (k CLI) Test(c Case, g Result) (bool, string, error) {
	dir, err := k.caseDir(c)
	if err != nil {
		return false, "", err
	}
	if err := WriteTest(dir, c, g); err != nil {
		return false, "", err
	}
	out, runErr := k.run(dir, "test", ".", "--remove-color", "--detailed-results", "-v", "1")
	out = ansi.ReplaceAllString(out, "")
	agree := runErr == nil && strings.Contains(out, "Test Summary:")
	if missing := generatedNothing(out, c, g); missing != "" {
		agree = false
		out += "\n" + missing
	}
	return agree, out, nil
}

// generatedNothing names the results for which genplay generated objects
// but the CLI none: kyverno test then checks only the rule's status, and
// its table shows the trigger ("v1/ConfigMap/default/name") where it
// would show each generated object's name.
func generatedNothing(out string, c Case, g Result) string {
	want := map[string]bool{} // rule + "|" + trigger name
	for _, o := range g.Objects {
		rule, _ := o.Label("generate.kyverno.io/rule-name")
		if t := g.Triggers[o.Ref().String()]; t != "" {
			want[rule+"|"+t[strings.LastIndexByte(t, '/')+1:]] = true
		}
	}
	var b strings.Builder
	for _, line := range strings.Split(out, "\n") {
		cells := strings.Split(line, "│")
		if len(cells) < 6 {
			continue
		}
		rule, res := strings.TrimSpace(cells[3]), strings.TrimSpace(cells[4])
		// A trigger is apiVersion/Kind/namespace/name; a generated object
		// is shown as "namespace/name".
		if i := strings.LastIndexByte(res, '/'); strings.Count(res, "/") >= 3 && want[rule+"|"+res[i+1:]] {
			fmt.Fprintf(&b, "the CLI generated nothing by rule %s for %s, where genplay did\n", rule, res)
		}
	}
	return b.String()
}

// WriteTest writes a case into dir as a Kyverno CLI test: policy.yaml,
// resources.yaml, sources.yaml, and a kyverno-test.yaml whose results
// expect, per generate rule and trigger, result pass with what genplay
// generated for them as generatedResource (expected-N.yaml, without server
// fields) where genplay generated something, and skip where it did not. Both
// `kyverno test DIR` and `genplay test DIR` run it.
func WriteTest(dir string, c Case, g Result) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, data := range map[string][]byte{secPolicy: c.Policy, secResources: c.Resources, secSources: c.Sources} {
		if len(data) > 0 {
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
				return err
			}
		}
	}
	pols, err := objects(secPolicy, c.Policy)
	if err != nil {
		return err
	}
	trigs, err := objects(secResources, c.Resources)
	if err != nil {
		return err
	}
	var results []any
	for _, p := range pols {
		for _, rule := range rulesOf(p) {
			for _, t := range trigs {
				// A namespaced trigger is "namespace/name" (the CLI's results
				// have no namespace field).
				name := t.Name()
				if ns := t.Namespace(); ns != "" {
					name = ns + "/" + name
				} else if !clusterScoped[t.Kind()] {
					name = "default/" + name
				}
				res := map[string]any{"policy": p.Name(), "rule": rule, "kind": t.Kind(), "resources": []any{name}}
				if p.Kind() == "Policy" {
					res["policy"] = p.Namespace() + "/" + p.Name()
				}
				if len(c.Sources) > 0 {
					res["cloneSourceResource"] = secSources
				}
				if objs := generatedFor(g, p.Name(), rule, t); len(objs) > 0 {
					name := fmt.Sprintf("expected-%d.yaml", len(results))
					if err := writeObjects(filepath.Join(dir, name), objs); err != nil {
						return err
					}
					res["result"] = "pass"
					res["generatedResource"] = name
				} else {
					res["result"] = "skip"
				}
				results = append(results, res)
			}
		}
	}
	test := map[string]any{"apiVersion": "cli.kyverno.io/v1alpha1", "kind": "Test",
		"metadata": map[string]any{"name": safeName(c.Name)},
		"policies": []any{secPolicy}, "resources": []any{secResources}, "results": results}
	b, err := source.Marshal(test)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "kyverno-test.yaml"), b, 0o644)
}

// rulesOf lists the generate rules of a policy.
func rulesOf(p resource.Object) []string {
	spec, _ := p["spec"].(map[string]any)
	rules, _ := spec["rules"].([]any)
	var out []string
	for _, r := range rules {
		m, _ := r.(map[string]any)
		if _, ok := m["generate"]; ok {
			name, _ := m["name"].(string)
			out = append(out, name)
		}
	}
	return out
}

// writeObjects writes objects, without server fields, as YAML documents.
func writeObjects(path string, objs []resource.Object) error {
	var b bytes.Buffer
	for _, o := range objs {
		y, err := source.Marshal(map[string]any(stripServerFields(o)))
		if err != nil {
			return err
		}
		b.WriteString("---\n")
		b.Write(y)
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// generatedFor returns what genplay generated by rule for t.
func generatedFor(g Result, pol, rule string, t resource.Object) []resource.Object {
	ns := t.Namespace()
	if ns == "" && !clusterScoped[t.Kind()] {
		ns = "default"
	}
	var out []resource.Object
	for _, o := range g.Objects {
		l := o.Labels()
		if l["generate.kyverno.io/policy-name"] == pol && l["generate.kyverno.io/rule-name"] == rule &&
			g.Triggers[o.Ref().String()] == t.Kind()+"/"+ns+"/"+t.Name() {
			out = append(out, o)
		}
	}
	return out
}
