package hostile

import (
	"fmt"
	"strings"
)

// Runaway builds the table of small inputs that cause a lot of work: each
// passes every static limit (size, depth, steps, objects) and is stopped by
// the run's work budget, its size limits, or an answer at the limits that
// is right. Want is somewhere in the timeline (Anywhere is set on all).
func Runaway() []Input {
	policy := func(name, match, rule string) string {
		return `  - try:
    - apply:
        resource:
          apiVersion: kyverno.io/v1
          kind: ClusterPolicy
          metadata: {name: ` + name + `}
          spec:
            rules:
            - name: r
              match: {any: [{resources: ` + match + `}]}
` + rule + "\n"
	}
	namespace := func(name string) string {
		return "    - apply: {resource: {apiVersion: v1, kind: Namespace, metadata: {name: " + name + "}}}\n"
	}
	// A 1 MB string from a short expression: 10 x 100 x 1000 characters.
	mega := "replace_all(replace_all('xxxxxxxxxx', 'x', '" + strings.Repeat("x", 100) + "'), 'x', '" + strings.Repeat("x,", 500) + "')"
	// A regular expression of about 30,000 instructions.
	states := "^(" + strings.Repeat("(x|y)", 6000) + ")$"

	var fanOut strings.Builder
	fanOut.WriteString(testHeader("fan-out") + "  - try:\n")
	for i := range 155 {
		fmt.Fprintf(&fanOut, "    - apply: {resource: {apiVersion: v1, kind: Namespace, metadata: {name: team-%03d, labels: {team: \"yes\"}}}}\n", i)
	}
	fanOut.WriteString(policy("fan-out", "{kinds: [Namespace], selector: {matchLabels: {team: \"yes\"}}}", `              generate:
                generateExisting: true
                apiVersion: v1
                kind: ConfigMap
                name: team-config
                namespace: "{{request.object.metadata.name}}"
                data: {data: {team: "{{request.object.metadata.name}}"}}`))
	fanOut.WriteString(`    - assert:
        resource:
          apiVersion: v1
          kind: ConfigMap
          metadata: {name: team-config, namespace: team-154}
`)

	var manyRules strings.Builder
	manyRules.WriteString(testHeader("many-rules") + `  - try:
    - apply:
        resource:
          apiVersion: kyverno.io/v1
          kind: ClusterPolicy
          metadata: {name: many-rules}
          spec:
            rules:
`)
	for i := range 101 {
		fmt.Fprintf(&manyRules, `            - name: r%03d
              match: {any: [{resources: {kinds: [Namespace], names: [app]}}]}
              generate: {apiVersion: v1, kind: ConfigMap, name: cm-%03d, namespace: app, data: {data: {idx: "%d"}}}
`, i, i, i)
	}
	manyRules.WriteString(namespace("app") + `    - assert:
        resource: {apiVersion: v1, kind: ConfigMap, metadata: {name: cm-100, namespace: app}}
`)

	// Wildcards: a*a*...*b (50,000 stars) against 60 names of 253 a's.
	var wild strings.Builder
	wild.WriteString(testHeader("wildcards") + "  - try:\n" + namespace("w"))
	for i := range 60 {
		fmt.Fprintf(&wild, "    - apply: {resource: {apiVersion: v1, kind: ConfigMap, metadata: {name: %s%02d, namespace: w}}}\n", strings.Repeat("a", 251), i)
	}
	wild.WriteString(policy("wildcards", `{kinds: [ConfigMap], names: ["`+strings.Repeat("a*", 50_000)+`b"]}`, `              generate:
                generateExisting: true
                apiVersion: v1
                kind: ConfigMap
                name: s
                namespace: w
                data: {}`))

	// 1,500 ConfigMaps in one step (a 300-element foreach list, five
	// times), then a sleep over every background interval there is, with
	// a policy whose scan never settles: random() gives new data each time.
	scan := testHeader("scan") + policy("spread", "{kinds: [Namespace], names: [s]}", `              generate:
                foreach:
                - list: "split('`+strings.TrimSuffix(strings.Repeat("x,", 300), ",")+`', ',')"
                  apiVersion: v1
                  kind: ConfigMap
                  name: "cm-{{elementIndex}}"
                  namespace: s
                  data: {data: {idx: "{{elementIndex}}"}}`) + policy("unsettled", "{kinds: [Namespace], names: [s]}", `              generate:
                synchronize: true
                apiVersion: v1
                kind: ConfigMap
                name: random
                namespace: s
                data: {data: {v: "{{ random('[a-z]{8}') }}"}}`) + namespace("s") + "    - sleep: {duration: 2562047h}\n"

	return []Input{
		{Name: "regex_match of a 30,000-instruction pattern over 1 MB built with replace_all", Anywhere: true,
			Want: "the work budget of", Data: []byte(testHeader("regex") + policy("regex", "{kinds: [Namespace], names: [r]}",
				`              generate: {apiVersion: v1, kind: ConfigMap, name: c, namespace: r, data: {data: {v: "{{ regex_match('`+states+`', `+mega+`) }}"}}}`) + namespace("r"))},
		{Name: "sort_by of a 500,000-element list in every element of a foreach", Anywhere: true,
			Want: "the work budget of", Data: []byte(testHeader("sort") + policy("sort", "{kinds: [Namespace], names: [q]}", `              generate:
                foreach:
                - list: "split('`+strings.TrimSuffix(strings.Repeat("x,", 1000), ",")+`', ',')"
                  apiVersion: v1
                  kind: ConfigMap
                  name: "cm-{{elementIndex}}"
                  namespace: q
                  data: {data: {idx: "{{ length(sort_by(split(`+mega+`, ','), &@)) }}"}}`) + namespace("q"))},
		{Name: "a 100 KB wildcard name pattern against 60 long names", Anywhere: true, Want: "the work budget of", Data: []byte(wild.String())},
		{Name: "a sleep of 2562047h over 1,500 objects with a policy whose scan never settles", Anywhere: true, Want: "run stopped: limit exceeded", Data: []byte(scan)},
		{Name: "a sleep of 2562047h (292 years of hourly scans)", Anywhere: true,
			Want: "genplay does not run those 2562046 scans one by one", Data: []byte(testHeader("sleep") + policy("p", "{kinds: [Namespace], names: [z]}",
				`              generate: {apiVersion: v1, kind: ConfigMap, name: c, namespace: z, data: {data: {a: b}}}`) + namespace("z") + "    - sleep: {duration: 2562047h}\n")},
		{Name: "a foreach of 1,000 ConfigMaps of 900 KB each", Anywhere: true,
			Want: "run stopped: limit exceeded", Data: []byte(testHeader("big-foreach") + "  - try:\n" + namespace("src") +
				"    - apply: {resource: {apiVersion: v1, kind: ConfigMap, metadata: {name: big, namespace: src}, data: {v: " + strings.Repeat("v", 900<<10) + "}}}\n" +
				policy("big", "{kinds: [Namespace], names: [b]}", `              generate:
                foreach:
                - list: "split('`+strings.TrimSuffix(strings.Repeat("x,", 1000), ",")+`', ',')"
                  apiVersion: v1
                  kind: ConfigMap
                  name: "copy-{{elementIndex}}"
                  namespace: b
                  clone: {namespace: src, name: big}`) + namespace("b"))},
		{Name: "generateExisting over 155 namespaces", Anywhere: true, Want: `"passed": true`, Data: []byte(fanOut.String())},
		{Name: "a policy with 101 rules", Anywhere: true, Want: `"passed": true`, Data: []byte(manyRules.String())},
	}
}
