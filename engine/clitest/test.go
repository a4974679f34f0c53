package clitest

import (
	"strings"

	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/source"
)

// APIVersion is the apiVersion of a Kyverno CLI test.
const APIVersion = "cli.kyverno.io/v1alpha1"

// Test is the part of a Kyverno CLI Test genplay reads.
type Test struct {
	Name string
	// Policies, Exceptions and Resources are the files the test names,
	// relative to its folder, in order; an entry that is not a string is
	// "" (so that i is the entry's index in the document).
	Policies, Exceptions, Resources []string
	Results                         []Result
	// Variables and UserInfo name values files genplay does not simulate;
	// UserInfoKey is the key that named it (userinfo or userInfo).
	Variables, UserInfo, UserInfoKey string
	// Context is a cli.kyverno.io Context file: objects the CEL libraries
	// read (resource.get, resource.List) besides the cluster's.
	Context string
	// Doc is the test's document, for positions.
	Doc *source.Document
}

// Result is one entry of a test's results.
type Result struct {
	Policy, Rule, Kind, Namespace, Result  string
	Resources                              []string
	GeneratedResource, CloneSourceResource string
	PatchedResource                        string
	// IsGeneratingPolicy marks a result of a GeneratingPolicy, which has
	// no rules: policy names the policy.
	IsGeneratingPolicy bool
}

// Is reports whether obj is a Kyverno CLI test: of cli.kyverno.io, or the
// older form without apiVersion that lists policies.
func Is(obj resource.Object) bool {
	if obj == nil {
		return false
	}
	if strings.HasPrefix(obj.APIVersion(), "cli.kyverno.io/") {
		return true
	}
	_, hasPolicies := obj["policies"]
	return obj.APIVersion() == "" && hasPolicies
}

// Read reads a test's fields from its document.
func Read(doc *source.Document) Test {
	m, _ := doc.Value.(map[string]any)
	obj := resource.Object(m)
	t := Test{Name: obj.Name(), Doc: doc}
	if t.Name == "" {
		t.Name, _ = m["name"].(string)
	}
	t.Policies = names(m["policies"])
	t.Exceptions = names(m["exceptions"])
	t.Resources = names(m["resources"])
	t.Variables, _ = m["variables"].(string)
	t.Context, _ = m["context"].(string)
	for _, k := range []string{"userinfo", "userInfo"} {
		if v, _ := m[k].(string); v != "" {
			t.UserInfo, t.UserInfoKey = v, k
			break
		}
	}
	list, _ := m["results"].([]any)
	for _, x := range list {
		r, _ := x.(map[string]any)
		s := func(k string) string { v, _ := r[k].(string); return v }
		res := Result{Policy: s("policy"), Rule: s("rule"), Kind: s("kind"), Namespace: s("namespace"),
			Result: s("result"), GeneratedResource: s("generatedResource"), CloneSourceResource: s("cloneSourceResource"),
			PatchedResource: s("patchedResource"), Resources: strings_(r["resources"])}
		res.IsGeneratingPolicy, _ = r["isGeneratingPolicy"].(bool)
		if one := s("resource"); one != "" {
			res.Resources = append(res.Resources, one)
		}
		if res.Result == "" {
			res.Result = s("status")
		}
		t.Results = append(t.Results, res)
	}
	return t
}

// names reads a list of file names, "" for an entry that is not a string.
func names(v any) []string {
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, x := range list {
		s, _ := x.(string)
		out = append(out, s)
	}
	return out
}

// strings_ reads the strings of a list, dropping anything else.
func strings_(v any) []string {
	list, _ := v.([]any)
	var out []string
	for _, x := range list {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}
