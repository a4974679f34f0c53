package policy

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/internal/schema"
)

// generateRule builds a ClusterPolicy (or, with namespace, a Policy) with one
// rule whose generate block is given, indented under "    generate:" (line 13).
func generateRule(namespace, extraSpec, match, generate string) string {
	kind, meta := "ClusterPolicy", "metadata: {name: p}"
	if namespace != "" {
		kind, meta = "Policy", "metadata: {name: p, namespace: "+namespace+"}"
	}
	if extraSpec == "" {
		extraSpec = "  generateExisting: false"
	}
	if match == "" {
		match = "      any:\n      - resources:\n          kinds: [Namespace]"
	}
	return "apiVersion: kyverno.io/v1\nkind: " + kind + "\n" + meta + "\nspec:\n" + extraSpec + "\n  rules:\n  - name: r\n    match:\n" +
		match + "\n    generate:\n" + generate
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		wants []want
	}{
		{
			name: "a data rule needs kind, name and apiVersion",
			text: generateRule("", "", "", "      namespace: x\n      data: {}\n"),
			wants: []want{
				errAt(12, "spec.rules[0].generate.kind: Forbidden: kind can not be empty"),
				errAt(12, "spec.rules[0].generate.name: Forbidden: name can not be empty"),
				errAt(12, "spec.rules[0].generate.apiVersion: Forbidden: apiVersion can not be empty"),
			},
		},
		{
			name:  "a namespaced target needs a namespace",
			text:  generateRule("", "", "", "      apiVersion: v1\n      kind: ConfigMap\n      name: c\n      data: {}\n"),
			wants: []want{errAt(12, "spec.rules[0].generate.namespace: Forbidden: target namespace must be set for a namespaced resource")},
		},
		{
			name:  "a cluster-scoped target must not have a namespace",
			text:  generateRule("", "", "", "      apiVersion: rbac.authorization.k8s.io/v1\n      kind: ClusterRole\n      name: c\n      namespace: x\n      data: {}\n"),
			wants: []want{errAt(16, "spec.rules[0].generate.namespace: Forbidden: target namespace must not be set for a cluster-wide resource")},
		},
		{
			name: "an unknown kind is not scope-checked",
			text: generateRule("", "", "", "      apiVersion: example.com/v1\n      kind: Widget\n      name: c\n      data: {}\n"),
		},
		{
			name:  "data and clone are mutually exclusive",
			text:  generateRule("", "", "", "      apiVersion: v1\n      kind: Secret\n      name: c\n      namespace: x\n      data: {}\n      clone: {namespace: a, name: b}\n"),
			wants: []want{errAt(12, "spec.rules[0].generate: Forbidden: only one of generate patterns(data, clone, cloneList and foreach) can be specified")},
		},
		{
			name: "cloneList kinds of mixed scope are rejected",
			text: generateRule("", "", "", "      namespace: x\n      cloneList:\n        kinds:\n        - v1/Secret\n        - rbac.authorization.k8s.io/v1/ClusterRole\n        selector: {matchLabels: {a: b}}\n"),
			wants: []want{
				errAt(14, "spec.rules[0].generate.cloneList.namespace: Forbidden: namespace is required for namespaced target resources"),
				errAt(17, "spec.rules[0].generate.cloneList.kinds: Forbidden: mixed scope of target resources is forbidden"),
			},
		},
		{
			name:  "cloneList of cluster-scoped kinds forbids a namespace",
			text:  generateRule("", "", "", "      cloneList:\n        namespace: default\n        kinds: [rbac.authorization.k8s.io/v1/ClusterRole]\n"),
			wants: []want{errAt(14, "spec.rules[0].generate.cloneList.namespace: Forbidden: namespace is forbidden for cluster-wide target resources")},
		},
		{
			name: "a selector's expressions are checked as LabelSelectorAsSelector does",
			text: generateRule("", "", "      any:\n      - resources:\n          kinds: [Namespace]\n          selector:\n            matchExpressions:\n            - {key: env, operator: Exists, values: [prod, dev]}\n"+
				"    exclude:\n      any:\n      - resources:\n          kinds: [Namespace]\n          selector:\n            matchExpressions:\n            - {key: env, operator: In}\n",
				"      apiVersion: v1\n      kind: ConfigMap\n      name: c\n      namespace: x\n      data: {}\n"),
			wants: []want{
				errAt(12, `spec.rules[0].match.any[0].selector: Invalid value: {"matchExpressions":[{"key":"env","operator":"Exists","values":["prod","dev"]}]}: values: Invalid value: ["prod","dev"]: values set must be empty for exists and does not exist`),
				errAt(19, `spec.rules[0].exclude.any[0].selector: Invalid value: {"matchExpressions":[{"key":"env","operator":"In"}]}: values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty`),
			},
		},
		{
			name: "a variable that is neither request data, a function call nor a context entry is invalid",
			text: generateRule("", "", "      any:\n      - resources:\n          kinds: [Namespace]\n    context:\n    - name: team\n      variable: {value: a}\n",
				"      apiVersion: v1\n      kind: ConfigMap\n      name: c\n      namespace: x\n      data:\n        data:\n          ok: \"{{ team.x || to_upper(request.object.metadata.name) }}-{{ element || '' }}\"\n          escaped: \"\\\\{{ nothing }}\"\n          bad: \"{{ request.object.metadata.labels.{{ 'env' }} }}\"\n"),
			wants: []want{
				errAt(25, `policy contains invalid variables: variable substitution failed for rule r: variable 'env' must match regex "request\.|element|elementIndex|@|images|images\.|image\.|([a-z_0-9]+\()[^{}]" or patterns [team*]`),
			},
		},
		{
			name:  "cloneList selectors take no wildcards",
			text:  generateRule("", "", "", "      namespace: x\n      cloneList:\n        namespace: default\n        kinds: [v1/Secret]\n        selector: {matchLabels: {app: \"web-*\"}}\n"),
			wants: []want{errAt(17, "path: spec.rules[0].generate.selector.: wildcard characters `*/?` not supported")},
		},
		{
			name: "variables in clone warn about synchronization",
			text: generateRule("", "", "", "      apiVersion: v1\n      kind: Secret\n      name: c\n      namespace: x\n      clone:\n        namespace: \"{{request.namespace}}\"\n        name: s\n"),
			wants: []want{
				warnAt(18, "variables in spec.rules[0].generate.clone/cloneList would lead to incorrect synchronization behavior"),
			},
		},
		{
			name:  "variables in the target kind warn too",
			text:  generateRule("", "", "", "      apiVersion: v1\n      kind: \"{{request.object.data.kind}}\"\n      name: c\n      namespace: x\n"),
			wants: []want{warnAt(14, "would lead to incorrect synchronization behavior")},
		},
		{
			name:  "anchors are not allowed in data",
			text:  generateRule("", "", "", "      apiVersion: v1\n      kind: ConfigMap\n      name: c\n      namespace: x\n      data:\n        metadata:\n          +(labels): {a: b}\n"),
			wants: []want{errAt(19, "path: spec.rules[0].generate.data./metadata/+(labels).: anchors not supported on generate resources: unsupported anchor +(labels)")},
		},
		{
			name:  "a wildcard kind cannot trigger a generate rule",
			text:  generateRule("", "  background: false", "      any:\n      - resources:\n          kinds: [\"*\"]", "      apiVersion: v1\n      kind: ConfigMap\n      name: c\n      namespace: x\n"),
			wants: []want{errAt(11, "path: spec.rules[0].match.any[0].kinds: wildcard policy does not support rule type")},
		},
		{
			name:  "a wildcard kind is refused in background mode first",
			text:  generateRule("", "", "      any:\n      - resources:\n          kinds: [\"*\"]", "      apiVersion: v1\n      kind: ConfigMap\n      name: c\n      namespace: x\n"),
			wants: []want{errAt(11, "wildcard policy not allowed in background mode")},
		},
		{
			name:  "the legacy match may not name the generated kind",
			text:  generateRule("", "", "      resources:\n        kinds: [ConfigMap]", "      apiVersion: v1\n      kind: ConfigMap\n      name: c\n      namespace: x\n"),
			wants: []want{errAt(13, "generation kind and match resource kind should not be the same")},
		},
		{
			name: "match.any may name the generated kind",
			text: generateRule("", "", "      any:\n      - resources:\n          kinds: [ConfigMap]", "      apiVersion: v1\n      kind: ConfigMap\n      name: c\n      namespace: x\n"),
		},
		{
			name:  "generateExistingOnPolicyUpdate is rejected even when false",
			text:  generateRule("", "  generateExistingOnPolicyUpdate: false", "", "      apiVersion: v1\n      kind: ConfigMap\n      name: c\n      namespace: x\n"),
			wants: []want{errAt(5, "spec.generateExistingOnPolicyUpdate: Forbidden: remove the deprecated field and use spec.generate[*].generateExisting instead")},
		},
		{
			name:  "admission cannot be disabled for generate rules",
			text:  generateRule("", "  admission: false", "", "      apiVersion: v1\n      kind: ConfigMap\n      name: c\n      namespace: x\n"),
			wants: []want{errAt(5, "disabling admission processing is only allowed with validation policies")},
		},
		{
			name:  "userInfo filters need background false",
			text:  generateRule("", "", "      any:\n      - resources:\n          kinds: [Namespace]\n        clusterRoles: [admin]", "      apiVersion: v1\n      kind: ConfigMap\n      name: c\n      namespace: x\n"),
			wants: []want{errAt(12, "only select variables are allowed in background mode. Set spec.background=false to disable background mode for this policy rule: invalid variable used at path: spec/rules[0]/match/any[0]/clusterRoles")},
		},
		{
			name:  "user variables need background false",
			text:  generateRule("", "", "", "      apiVersion: v1\n      kind: ConfigMap\n      name: c\n      namespace: x\n      data:\n        data:\n          by: \"{{request.userInfo.username}}\"\n"),
			wants: []want{errAt(19, "variable {{request.userInfo.username}} is not allowed")},
		},
		{
			name: "user variables are fine with background false",
			text: generateRule("", "  background: false", "", "      apiVersion: v1\n      kind: ConfigMap\n      name: c\n      namespace: x\n      data:\n        data:\n          by: \"{{serviceAccountName}}\"\n"),
		},
		{
			name:  "variables are not allowed in match",
			text:  generateRule("", "", "      any:\n      - resources:\n          kinds: [Namespace]\n          names: [\"{{request.object.metadata.name}}\"]", "      apiVersion: v1\n      kind: ConfigMap\n      name: c\n      namespace: x\n"),
			wants: []want{errAt(12, `policy contains invalid variables: rule "r" should not have variables in match section`)},
		},
		{
			name:  "a match filter needs kinds",
			text:  generateRule("", "", "      any:\n      - resources:\n          names: [a]", "      apiVersion: v1\n      kind: ConfigMap\n      name: c\n      namespace: x\n"),
			wants: []want{errAt(10, "the kind attribute is mandatory when working with the resources element")},
		},
		{
			name:  "any and all cannot be combined",
			text:  generateRule("", "", "      any:\n      - resources: {kinds: [Namespace]}\n      all:\n      - resources: {kinds: [Namespace]}", "      apiVersion: v1\n      kind: ConfigMap\n      name: c\n      namespace: x\n"),
			wants: []want{errAt(8, "spec.rules[0].match: Invalid value: Can't specify any and all together")},
		},
		{
			name:  "a namespaced policy generates only into its namespace",
			text:  generateRule("team-a", "", "      any:\n      - resources: {kinds: [ConfigMap]}", "      apiVersion: v1\n      kind: Secret\n      name: c\n      namespace: team-b\n"),
			wants: []want{errAt(15, "spec.rules[0].generate.namespace: Forbidden: target resource scope mismatched: a namespaced policy cannot generate resources in other namespaces, expected: team-a, received: team-b")},
		},
		{
			name: "a namespaced policy cannot generate cluster-scoped kinds",
			text: generateRule("team-a", "", "      any:\n      - resources: {kinds: [ConfigMap]}", "      apiVersion: rbac.authorization.k8s.io/v1\n      kind: ClusterRole\n      name: c\n      namespace: team-a\n"),
			wants: []want{
				errAt(15, "target resource scope mismatched: the target must be a namespaced resource: rbac.authorization.k8s.io/v1/ClusterRole"),
				errAt(15, "target namespace must not be set for a cluster-wide resource"),
			},
		},
		{
			name:  "a namespaced policy clones only from its namespace",
			text:  generateRule("team-a", "", "      any:\n      - resources: {kinds: [ConfigMap]}", "      apiVersion: v1\n      kind: Secret\n      name: c\n      namespace: team-a\n      clone: {namespace: default, name: s}\n"),
			wants: []want{errAt(16, "spec.rules[0].generate.namespace: Forbidden: target resource scope mismatched: a namespaced policy cannot clone resources from other namespaces, expected: team-a, received: default")},
		},
		{
			name:  "a namespaced policy clones lists only from its namespace",
			text:  generateRule("team-a", "", "      any:\n      - resources: {kinds: [ConfigMap]}", "      namespace: team-a\n      cloneList:\n        namespace: default\n        kinds: [v1/Secret]\n"),
			wants: []want{errAt(14, "spec.rules[0].generate.cloneList.namespace: Forbidden: a namespaced policy cannot clone resources from other namespace, expected: team-a, received: default")},
		},
		{
			name:  "a namespaced policy cannot match cluster-scoped kinds",
			text:  generateRule("team-a", "", "", "      apiVersion: v1\n      kind: Secret\n      name: c\n      namespace: team-a\n"),
			wants: []want{errAt(11, "spec.rules[0].match.any[0].kinds[0]: Forbidden: Cluster wide resource 'Namespace' not allowed in namespaced policy")},
		},
		{
			name: "foreach entries are checked one by one",
			text: generateRule("", "", "", "      foreach:\n      - list: request.object.data.items\n        apiVersion: v1\n        kind: ConfigMap\n        name: c\n      - list: x\n        apiVersion: v1\n        kind: ConfigMap\n        name: c\n        namespace: ns\n        context:\n        - name: request\n          variable: {value: 1}\n"),
			wants: []want{
				errAt(14, "spec.rules[0].generate.foreach[0].namespace: Forbidden: target namespace must be set for a namespaced resource"),
				errAt(24, "path: spec.rules[0].generate.foreach[1].context[0]: entry name request is invalid as it conflicts with a pre-defined variable request"),
			},
		},
		{
			name: "context entries are checked",
			text: strings.Replace(generateRule("", "", "", "      apiVersion: v1\n      kind: ConfigMap\n      name: c\n      namespace: x\n"),
				"    match:", "    context:\n    - name: cm\n      configMap: {name: settings}\n    - name: v\n      variable: {default: 1}\n    - name: bad\n      variable: {jmesPath: \"a[\"}\n    match:", 1),
			wants: []want{
				errAt(10, "path: spec.rules[0].context[0]: a namespace is required for configMap context entry"),
				errAt(12, "path: spec.rules[0].context[1]: a variable must define a value or a jmesPath expression"),
				errAt(12, "path: spec.rules[0].context[1]: a variable must define a default value only when a jmesPath expression is defined"),
				errAt(14, "path: spec.rules[0].context[2]: failed to parse JMESPath a["),
			},
		},
		{
			name: "rule names are unique",
			text: generateRule("", "", "", "      apiVersion: v1\n      kind: ConfigMap\n      name: c\n      namespace: x\n") +
				"  - name: r\n    match: {any: [{resources: {kinds: [Namespace]}}]}\n    validate: {}\n",
			wants: []want{errAt(17, "spec.rules[1].name: Invalid value: \"r\": Duplicate rule name: 'r'")},
		},
		{
			name:  "a rule has exactly one operation",
			text:  generateRule("", "", "", "      apiVersion: v1\n      kind: ConfigMap\n      name: c\n      namespace: x\n") + "    mutate: {}\n",
			wants: []want{errAt(7, "Multiple operations defined in the rule 'r'")},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustParse(t, tt.text)
			assertDiagnostics(t, Validate(p, testKinds), tt.wants)
		})
	}
}

func TestValidateWithoutResolverSkipsScopeChecks(t *testing.T) {
	p := mustParse(t, generateRule("", "", "", "      apiVersion: v1\n      kind: ConfigMap\n      name: c\n      data: {}\n"))
	assert.Empty(t, Validate(p, nil))
	require.NotEmpty(t, Validate(p, testKinds))
}

func TestValidateWithoutSourceKeepsTheFile(t *testing.T) {
	p := mustParse(t, generateRule("", "", "", "      namespace: x\n      data: {}\n"))
	p.Source, p.File = nil, "elsewhere.yaml"
	diags := Validate(p, testKinds)
	require.NotEmpty(t, diags)
	assert.Equal(t, "elsewhere.yaml", diags[0].File)
	assert.Zero(t, diags[0].Line)
}

func TestValidateCapsDiagnostics(t *testing.T) {
	text := generateRule("", "", "", "      namespace: x\n      data: {}\n")
	for i := 0; i < 30; i++ {
		text += "  - name: r\n    match: {any: [{resources: {kinds: [Namespace]}}]}\n    generate: {namespace: x, data: {}}\n"
	}
	p := mustParse(t, text)
	diags := Validate(p, testKinds)
	require.Len(t, diags, schema.MaxDiagnostics+1)
	assert.Contains(t, diags[schema.MaxDiagnostics].Message, "too many diagnostics")
}
