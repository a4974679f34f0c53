package hostile

import (
	"fmt"
	"math/rand"
	"strings"

	"github.com/genplay/genplay/engine/source"
)

// Input is one input class of the table.
type Input struct {
	Name string
	Data []byte
	// Want is part of the first error diagnostic; "" means the input runs
	// (Kubernetes accepts it) and only the bounds are checked.
	Want string
	// Anywhere: Want is somewhere in the timeline (a failed rule or
	// assertion), not an input error.
	Anywhere bool
}

func testHeader(name string) string {
	return "apiVersion: chainsaw.kyverno.io/v1alpha1\nkind: Test\nmetadata:\n  name: " + name + "\nspec:\n  steps:\n"
}

// Inputs builds the table; every input is under source.MaxInputSize
// unless the point is to be over it.
func Inputs() []Input {
	// Billion laughs: 10 levels of 10 aliases each, 10^10 nodes expanded.
	bomb := "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
	for i := 1; i < 10; i++ {
		bomb += fmt.Sprintf("a%d: &a%d [*a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d]\n", i, i, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1)
	}
	mergeBomb := "a0: &a0 {k: v}\n"
	for i := 1; i < 12; i++ {
		mergeBomb += fmt.Sprintf("a%d: &a%d {<<: [*a%d, *a%d, *a%d, *a%d], k%d: v}\n", i, i, i-1, i-1, i-1, i-1, i)
	}
	// A Test whose steps are all the same anchored step, 10^6 times over.
	stepBomb := testHeader("step-bomb") + "  - &s {try: [{sleep: {duration: 1s}}]}\n"
	for i := 0; i < 5; i++ {
		stepBomb += "  - &s" + fmt.Sprint(i+1) + " [" + strings.Repeat("*s"+suffix(i)+", ", 15) + "*s" + suffix(i) + "]\n"
	}
	garbage := make([]byte, 64<<10)
	rand.New(rand.NewSource(7)).Read(garbage)
	var manyKeys, manyDocs strings.Builder
	manyKeys.WriteString("apiVersion: chainsaw.kyverno.io/v1alpha1\nkind: Test\nmetadata: {name: many-keys}\nspec:\n  steps: []\nx:\n")
	for i := 0; i < 100_000; i++ {
		fmt.Fprintf(&manyKeys, "  k%d: 1\n", i)
	}
	for i := 0; i < 100_000; i++ {
		manyDocs.WriteString("---\na: 1\n")
	}
	foreach := make([]string, 5000)
	for i := range foreach {
		foreach[i] = fmt.Sprint(i)
	}
	policyStep := func(rule string) string {
		return `  - try:
    - apply:
        resource:
          apiVersion: kyverno.io/v1
          kind: ClusterPolicy
          metadata: {name: hostile}
          spec:
            rules:
            - name: r
              match: {any: [{resources: {kinds: [Namespace]}}]}
` + rule + `
    - apply: {resource: {apiVersion: v1, kind: Namespace, metadata: {name: team}}}
`
	}
	return []Input{
		{Name: "an alias bomb (billion laughs)", Data: []byte(bomb), Want: "alias"},
		{Name: "a merge-key alias bomb", Data: []byte(mergeBomb), Want: "alias"},
		{Name: "a Test whose steps are an alias bomb", Data: []byte(stepBomb), Want: "alias"},
		{Name: "10,000-deep flow nesting", Data: []byte(strings.Repeat("[", 10_000) + strings.Repeat("]", 10_000)), Want: "nested too deeply"},
		{Name: "10,000-deep block nesting", Data: []byte(strings.Repeat("- ", 10_000) + "x\n"), Want: "nested too deeply"},
		{Name: "10,000-deep mapping nesting", Data: []byte(strings.Repeat("{a: ", 10_000) + "x" + strings.Repeat("}", 10_000)), Want: "nested too deeply"},
		{Name: "a file over the size limit", Data: []byte(strings.Repeat("#", source.MaxInputSize+1)), Want: "too large"},
		{Name: "a huge scalar just under the size limit", Data: []byte(testHeader("huge") + "  - try: [{sleep: {duration: 1s}}]\n" + "  description: " + strings.Repeat("y", source.MaxInputSize-200) + "\n"), Want: `"passed": true`, Anywhere: true},
		{Name: "binary garbage", Data: garbage, Want: "UTF-8"},
		{Name: "NUL bytes", Data: []byte("apiVersion: v1\x00\x00kind: Test\n"), Want: "control characters"},
		{Name: "non-UTF-8 in a value", Data: []byte(testHeader("latin1") + "  - try: []\n    description: caf\xe9\n"), Want: "UTF-8"},
		{Name: "UTF-16 with a byte order mark", Data: []byte("\xff\xfea\x00:\x00 \x00b\x00"), Want: "UTF-8"},
		{Name: "duplicate keys", Data: []byte(testHeader("dup") + "  - try: []\nspec: {}\n"), Want: "already set"},
		{Name: "a tab in indentation", Data: []byte("apiVersion: v1\n\tkind: Test\n"), Want: "tab"},
		{Name: "empty input", Data: []byte(""), Want: "no chainsaw Test"},
		{Name: "only comments and separators", Data: []byte("# nothing\n---\n---\n"), Want: "no chainsaw Test"},
		{Name: "100,000 documents", Data: []byte(manyDocs.String()), Want: "expected apiVersion chainsaw.kyverno.io/v1alpha1"},
		{Name: "a mapping with 100,000 keys", Data: []byte(manyKeys.String()), Want: `unknown field "x"`},
		{Name: "a Test with 10,000 steps in block style", Data: []byte(testHeader("steps") + "  " + strings.TrimSuffix(strings.Repeat("- {try: []}\n  ", 10_000), "  ")), Want: "the test has 10000 steps"},
		{Name: "a Test with 100,000 steps in flow style", Data: []byte(strings.TrimSuffix(testHeader("flow"), "\n") + " [" + strings.Repeat("{try: []},", 100_000) + "]\n"), Want: "the test has 100000 steps"},
		{Name: "a policy with a 5,000-element foreach list", Data: []byte(testHeader("foreach") + policyStep(`              context: [{name: items, variable: {value: [`+strings.Join(foreach, ", ")+`]}}]
              generate:
                foreach:
                - list: items
                  apiVersion: v1
                  kind: ConfigMap
                  name: "cm-{{element}}"
                  namespace: "{{request.object.metadata.name}}"
                  data: {data: {n: "{{element}}"}}`)), Want: "has 5000 elements; genplay processes at most 1000", Anywhere: true},
		{Name: "a JMESPath expression nested 10,000 deep", Data: []byte(testHeader("jmespath") + policyStep(`              generate: {apiVersion: v1, kind: ConfigMap, name: "{{ `+strings.Repeat("(", 10_000)+"a"+strings.Repeat(")", 10_000)+` }}", namespace: default, data: {}}`)), Want: "levels deep", Anywhere: true},
		{Name: "a chainsaw assertion expression nested 10,000 deep", Data: []byte(testHeader("assert") + `  - try:
    - assert:
        resource:
          apiVersion: v1
          kind: Namespace
          metadata:
            name: default
            ? "(` + strings.Repeat("(", 10_000) + "name" + strings.Repeat(")", 10_000) + `)"
            : default
`), Want: "levels deep", Anywhere: true},
		{Name: "variables nested 5,000 deep", Data: []byte(testHeader("variables") + policyStep(`              generate: {apiVersion: v1, kind: ConfigMap, name: "`+strings.Repeat("{{", 5000)+"a"+strings.Repeat("}}", 5000)+`", namespace: default, data: {}}`)), Want: "failed to resolve", Anywhere: true},
		{Name: "a JSON literal nested 9,999 deep in a generate rule", Data: []byte(testHeader("deep-literal") + policyStep(`              generate: {apiVersion: v1, kind: ConfigMap, name: x, namespace: default, data: {data: {v: "{{ `+"`"+strings.Repeat("[", 9999)+strings.Repeat("]", 9999)+"`"+` }}"}}}`)), Want: "nests more than 200 levels deep", Anywhere: true},
		{Name: "a chainsaw template giving a value nested 9,999 deep", Data: []byte(testHeader("deep-template") + "  - try: [{apply: {resource: {apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: {v: \"(`" + strings.Repeat("[", 9999) + strings.Repeat("]", 9999) + "`)\"}}}}]\n"), Want: "nests more than 200 levels deep", Anywhere: true},
		{Name: "a 1 MB label value", Data: []byte(testHeader("label") + "  - try: [{apply: {resource: {apiVersion: v1, kind: ConfigMap, metadata: {name: c, labels: {a: " + strings.Repeat("v", 1<<20) + "}}}}}]\n"), Want: "metadata.labels: Invalid value", Anywhere: true},
		{Name: "a number too big for a float", Data: []byte(testHeader("inf") + "  - try: [{apply: {resource: {apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: {v: 1e400}}}}]\n"), Want: `"v": "1e400"`, Anywhere: true},
		{Name: "YAML 1.1 infinity", Data: []byte(testHeader("inf") + "  - try: [{apply: {resource: {apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: {v: .inf}}}}]\n"), Want: "infinity"},
	}
}

func suffix(i int) string {
	if i == 0 {
		return ""
	}
	return fmt.Sprint(i)
}
