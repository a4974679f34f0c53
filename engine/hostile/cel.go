package hostile

import (
	"fmt"
	"strings"
)

// Bounded builds the second round's table (issue 24): inputs where a single
// call or a single write would do the damage before any work is counted.
// CEL calls that are super-linear or huge on strings and lists doubled
// cheaply in variables; generated objects built from many references to one
// large value (1.1 MB of input, 2 GB once written out), in both policy
// families. Each is stopped before the work or the allocation happens; Want
// is somewhere in the timeline.
func Bounded() []Input {
	var out []Input
	cel := func(name, expr, want string) {
		out = append(out, Input{Name: name, Anywhere: true, Want: want, Data: []byte(gpolScenario(name, doubling, expr))})
	}
	// variables.s5 is 278,528 characters, variables.s4 34,816, built by
	// concatenation from a 68-character literal.
	cel("CEL replace with a long replacement", `variables.s5.replace("a", variables.s4) == "" && generator.apply("team-a", [])`, "replace would build 9697230848 bytes")
	cel("CEL indexOf of a long needle", `variables.s5.indexOf(variables.s4 + "b") == 0 && generator.apply("team-a", [])`, "indexOf would cost more than")
	cel("CEL distinct of a long list", `lists.range(20000).distinct().size() == 0 && generator.apply("team-a", [])`, "distinct would cost more than")
	cel("CEL sets.contains of two long lists", `sets.contains(lists.range(20000), lists.range(20000)) && generator.apply("team-a", [])`, "sets.contains would cost more than")
	cel("CEL matches with a long pattern", `variables.s5.matches(variables.s3.replace("a", "a?") + variables.s3) && generator.apply("team-a", [])`, "matches would cost more than")
	cel("CEL x in list inside exists", `lists.range(100000).exists(i, i in lists.range(100000) && i < 0) || generator.apply("team-a", [])`, "cost limit")
	cel("CEL join of many references to one long string", `lists.range(1000).map(i, variables.s5).join(",") == "" && generator.apply("team-a", [])`, "join would build")
	cel("CEL json.marshal of many references to one long string", `json.marshal(lists.range(1000).map(i, variables.s5)) == "" && generator.apply("team-a", [])`, "marshal would")
	cel("CEL format with a huge precision", `"%.1000000000f".format([1.0]) == "" && generator.apply("team-a", [])`, "format would build")
	cel("CEL an object of many references to one long string", `generator.apply("team-a", [{"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy", "metadata": {"name": "np"}, "spec": lists.range(2000).map(i, variables.s5)}])`, "apply would cost more than")
	cel("CEL an object of four references to one long string", `generator.apply("team-a", [{"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy", "metadata": {"name": "np"}, "spec": {"a": variables.s5 + variables.s5, "b": variables.s5 + variables.s5, "c": variables.s5 + variables.s5, "d": variables.s5 + variables.s5}}])`, "etcdserver: request is too large")

	// JMESPath: a 1 MB string from the trigger, written 2,000 times into
	// one generated object.
	big := strings.Repeat("x", 1_000_000)
	var keys strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&keys, "                    k%d: \"{{request.object.data.big}}\"\n", i)
	}
	out = append(out, Input{Name: "JMESPath an object of 2,000 references to one 1 MB value", Anywhere: true, Want: "ran out in variable substitution",
		Data: []byte(testHeader("fan-out-refs") + `  - try:
    - apply:
        resource:
          apiVersion: kyverno.io/v1
          kind: ClusterPolicy
          metadata: {name: fan-out}
          spec:
            rules:
            - name: r
              match: {any: [{resources: {kinds: [ConfigMap], names: [big]}}]}
              generate:
                apiVersion: networking.k8s.io/v1
                kind: NetworkPolicy
                name: np
                namespace: default
                data:
                  spec:
` + keys.String() + `  - try:
    - apply:
        resource:
          apiVersion: v1
          kind: ConfigMap
          metadata: {name: big, namespace: default}
          data: {big: ` + big + `}
`)})
	// The same as a GeneratingPolicy's template (what genplay migrate makes
	// of it): 2,000 placeholders in one block, each priced before it is
	// spliced; finding each placeholder's line read the whole block again.
	var tmpl strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&tmpl, "                      k%d: (( object.data.big ))\n", i)
	}
	out = append(out, Input{Name: "CEL a template of 2,000 placeholders of one 1 MB value", Anywhere: true, Want: "the placeholder's value would cost more than",
		Data: []byte(testHeader("template-refs") + `  - try:
    - apply:
        resource:
          apiVersion: policies.kyverno.io/v1
          kind: GeneratingPolicy
          metadata: {name: fan-out}
          spec:
            matchConstraints:
              resourceRules:
              - apiGroups: [""]
                apiVersions: [v1]
                operations: [CREATE]
                resources: [configmaps]
                resourceNames: [big]
            generate:
            - template:
                interpolate: cel
                value: |
                  apiVersion: networking.k8s.io/v1
                  kind: NetworkPolicy
                  metadata: {name: np, namespace: default}
                  spec:
` + tmpl.String() + `  - try:
    - apply:
        resource:
          apiVersion: v1
          kind: ConfigMap
          metadata: {name: big, namespace: default}
          data: {big: ` + big + `}
`)})
	// Two references: 2 MB, under the budget; the API server refuses it.
	out = append(out, Input{Name: "JMESPath an object of two references to one 1 MB value", Anywhere: true, Want: "etcdserver: request is too large",
		Data: []byte(testHeader("two-refs") + `  - try:
    - apply:
        resource:
          apiVersion: kyverno.io/v1
          kind: ClusterPolicy
          metadata: {name: two}
          spec:
            rules:
            - name: r
              match: {any: [{resources: {kinds: [ConfigMap], names: [big]}}]}
              generate:
                apiVersion: networking.k8s.io/v1
                kind: NetworkPolicy
                name: np
                namespace: default
                data: {spec: {a: "{{request.object.data.big}}", b: "{{request.object.data.big}}"}}
  - try:
    - apply:
        resource:
          apiVersion: v1
          kind: ConfigMap
          metadata: {name: big, namespace: default}
          data: {big: ` + big + `}
`)})
	return out
}

// doubling are the variables of the CEL classes: s1 is 68 characters, each
// next one eight times the last.
var doubling = func() string {
	var b strings.Builder
	b.WriteString("            - name: s1\n              expression: '\"" + strings.Repeat("a", 68) + "\"'\n")
	for i := 2; i <= 5; i++ {
		prev := fmt.Sprintf("variables.s%d", i-1)
		fmt.Fprintf(&b, "            - name: s%d\n              expression: %s\n", i, strings.TrimSuffix(strings.Repeat(prev+" + ", 8), " + "))
	}
	return b.String()
}()

// gpolScenario is a GeneratingPolicy on Namespace creation with variables
// and one generate expression, and the Namespace that triggers it.
func gpolScenario(name, variables, expr string) string {
	return testHeader(strings.ReplaceAll(strings.ToLower(strings.Fields(name)[1]), ".", "-")) + `  - try:
    - apply:
        resource:
          apiVersion: policies.kyverno.io/v1
          kind: GeneratingPolicy
          metadata:
            name: hostile
          spec:
            matchConstraints:
              resourceRules:
              - apiGroups: [""]
                apiVersions: [v1]
                operations: [CREATE]
                resources: [namespaces]
            variables:
` + variables + `            generate:
            - expression: '` + strings.ReplaceAll(expr, "'", "''") + `'
  - try:
    - apply:
        resource: {apiVersion: v1, kind: Namespace, metadata: {name: team-a}}
`
}
