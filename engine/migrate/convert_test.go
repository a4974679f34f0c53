package migrate_test

import (
	"fmt"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	assert2 "github.com/genplay/genplay/engine/assert"
	"github.com/genplay/genplay/engine/migrate"
	"github.com/genplay/genplay/engine/migrate/check"
)

// clusterPolicy wraps rules (YAML at the indentation of spec.rules'
// entries) into a ClusterPolicy.
func clusterPolicy(spec, rules string) string {
	return "apiVersion: kyverno.io/v1\nkind: ClusterPolicy\nmetadata:\n  name: p\nspec:\n" + spec + "  rules:\n" + rules
}

const nsMatch = `    match:
      any:
      - resources:
          kinds: [Namespace]
`

const netpolData = `    generate:
      apiVersion: networking.k8s.io/v1
      kind: NetworkPolicy
      name: deny
      namespace: "{{request.object.metadata.name}}"
      synchronize: true
      data:
        spec:
          podSelector: {}
`

// convert converts a policy file and requires genplay's validation to
// accept every GeneratingPolicy it wrote.
func convert(t *testing.T, text string) *migrate.FileResult {
	t.Helper()
	res, diags := migrate.ConvertFile("policy.yaml", []byte(text))
	require.False(t, diags.HasErrors(), "%v", diags)
	require.NotNil(t, res)
	y := res.YAML()
	assert.Empty(t, check.Policies("converted.yaml", y), "the converted policy is valid:\n%s", y)
	again, _ := migrate.ConvertFile("policy.yaml", []byte(text))
	assert.Equal(t, y, again.YAML(), "the conversion is deterministic")
	return res
}

func TestConvertConstructs(t *testing.T) {
	cases := []struct {
		name   string
		policy string
		want   []string // substrings of the converted YAML
		status string
	}{
		{"data with a variable becomes a template with cel interpolation", clusterPolicy("", "  - name: r\n"+nsMatch+netpolData),
			[]string{"kind: GeneratingPolicy", "name: p\n", "interpolate: cel", "namespace: (( object.metadata.name ))",
				"resources: [namespaces]", "operations: [CREATE, UPDATE]", "synchronize:\n      enabled: true",
				"# from rule r, generate.data"}, migrate.Full},
		{"data without variables is a plain template", clusterPolicy("", "  - name: r\n"+nsMatch+`    generate:
      apiVersion: v1
      kind: ConfigMap
      name: cm
      namespace: default
      data:
        data:
          key: "((not a placeholder))"
`), []string{"interpolate: none", "key: ((not a placeholder))"}, migrate.Full},
		{"clone with the source's name", clusterPolicy("", "  - name: r\n"+nsMatch+`    generate:
      apiVersion: v1
      kind: Secret
      name: regcred
      namespace: "{{request.object.metadata.name}}"
      clone:
        namespace: platform
        name: regcred
`), []string{`generator.apply(object.metadata.name, [resource.get('v1', 'secrets', 'platform', 'regcred')])`}, migrate.Full},
		{"clone under another name rebuilds the copy", clusterPolicy("", "  - name: r\n"+nsMatch+`    generate:
      apiVersion: v1
      kind: Secret
      name: copy
      namespace: "{{request.object.metadata.name}}"
      clone:
        namespace: platform
        name: regcred
`), []string{`cel.bind(source, resource.get('v1', 'secrets', 'platform', 'regcred')`, `"metadata": {"name": 'copy'`}, migrate.Full},
		{"cloneList with matchLabels lists by labels", clusterPolicy("", "  - name: r\n"+nsMatch+`    generate:
      namespace: "{{request.object.metadata.name}}"
      cloneList:
        namespace: platform
        kinds: [v1/Secret, v1/ConfigMap]
        selector:
          matchLabels:
            share: "yes"
`), []string{`resource.List('v1', 'secrets', 'platform', {'share': 'yes'})`, `resource.List('v1', 'configmaps', 'platform', {'share': 'yes'})`}, migrate.Full},
		{"cloneList with matchExpressions filters the list", clusterPolicy("", "  - name: r\n"+nsMatch+`    generate:
      namespace: "{{request.object.metadata.name}}"
      cloneList:
        namespace: platform
        kinds: [v1/Secret]
        selector:
          matchExpressions:
          - {key: tier, operator: In, values: [a, b]}
`), []string{`.items.filter(s, s.metadata.?labels[?'tier'].hasValue() && s.metadata.labels.tier in ['a', 'b'])`}, migrate.Full},
		{"foreach with element, elementIndex, its context and preconditions", clusterPolicy("", "  - name: r\n"+`    match:
      any:
      - resources:
          kinds: [ConfigMap]
    generate:
      foreach:
      - list: request.object.data.namespaces | split(@, ',')
        context:
        - name: ns
          variable:
            jmesPath: element
        preconditions:
          any:
          - key: "{{ ns }}"
            operator: AnyNotIn
            value: [kube-system]
        apiVersion: v1
        kind: ConfigMap
        name: "cm-{{ elementIndex }}"
        namespace: "{{ ns }}"
        data:
          data:
            index: "{{ elementIndex }}"
`), []string{"lists.range(size(elements)).all(elementIndex, cel.bind(element, elements[elementIndex], cel.bind(ns, element,",
			`string(object.data.namespaces).split(',')`, `'cm-' + string(elementIndex)`, "exists(x, !(x in ['kube-system']))"}, migrate.Full},
		{"match details: names, namespaces, selector, annotations, namespaceSelector", clusterPolicy("", "  - name: r\n"+`    match:
      any:
      - resources:
          kinds: [ConfigMap]
          names: ["app-*"]
          namespaces: [team-a, "team-*"]
          selector:
            matchLabels: {app: web}
            matchExpressions:
            - {key: tier, operator: NotIn, values: [test]}
          annotations: {owner: "?*"}
          namespaceSelector:
            matchLabels: {env: prod}
          operations: [CREATE]
`+netpolData), []string{`request.name.matches('^app-.*$')`, `request.namespace == 'team-a'`, `request.namespace.matches('^team-.*$')`,
			`object.metadata.?labels[?'app'].hasValue() && object.metadata.labels.app == 'web'`,
			`!(object.metadata.?labels[?'tier'].hasValue() && object.metadata.labels.tier in ['test'])`,
			`object.metadata.?annotations[?'owner'].hasValue() && object.metadata.annotations.owner.matches('^..*$')`,
			"namespaceSelector:\n      matchLabels:\n        env: prod", "operations: [CREATE]\n"}, migrate.Full},
		{"exact names go to resourceNames", clusterPolicy("", "  - name: r\n"+`    match:
      resources:
        kinds: [ConfigMap]
        name: settings
`+netpolData), []string{"resourceNames: [settings]"}, migrate.Full},
		{"several filters and exclude become conditions", clusterPolicy("", "  - name: r\n"+`    match:
      any:
      - resources:
          kinds: [Namespace]
      - resources:
          kinds: [ConfigMap]
          namespaces: [platform]
    exclude:
      any:
      - resources:
          namespaces: [kube-system]
`+netpolData), []string{`request.kind.kind in ['Namespace'] || (request.kind.kind in ['ConfigMap'] && request.namespace == 'platform')`,
			`(request.kind.kind == 'Namespace' ? request.name : request.namespace) == 'kube-system'`}, migrate.Full},
		{"userInfo subjects, unchecked in the background as in Kyverno", clusterPolicy("  background: false\n", "  - name: r\n"+`    match:
      any:
      - resources:
          kinds: [Namespace]
        subjects:
        - {kind: ServiceAccount, name: ci, namespace: tools}
        - {kind: Group, name: admins}
`+strings.Replace(netpolData, "synchronize: true", "synchronize: false", 1)),
			[]string{`request.userInfo.username == '' || request.userInfo.username == 'system:serviceaccount:tools:ci' || 'admins' in request.userInfo.groups`}, migrate.Full},
		{"excluded subjects do not exclude in the background", clusterPolicy("  background: false\n", "  - name: r\n"+nsMatch+`    exclude:
      any:
      - subjects:
        - {kind: ServiceAccount, name: kyverno-admission-controller, namespace: kyverno}
`+strings.Replace(netpolData, "synchronize: true", "synchronize: false", 1)),
			[]string{`!(request.userInfo.username != '' && request.userInfo.username == 'system:serviceaccount:kyverno:kyverno-admission-controller')`}, migrate.Full},
		{"preconditions with operators that have a CEL equivalent", clusterPolicy("", "  - name: r\n"+nsMatch+`    preconditions:
      all:
      - key: "{{ request.object.metadata.labels.team || '' }}"
        operator: NotEquals
        value: ""
      - key: "{{ request.object.metadata.name }}"
        operator: Equals
        value: "team-*"
      - key: "{{ request.object.metadata.labels.size || '0' }}"
        operator: GreaterThan
        value: 2
      - key: "{{ request.object.metadata.annotations.quota || '1Gi' }}"
        operator: LessThanOrEquals
        value: 10Gi
      - key: [a, b]
        operator: AllIn
        value: [a, b, c]
`+netpolData), []string{`object.?metadata.?labels.?team.orValue('') != ''`, `string(object.metadata.name).matches('^team-.*$')`,
			`double(object.?metadata.?labels.?size.orValue('0')) > double(2)`,
			`quantity(string(object.?metadata.?annotations.?quota.orValue('1Gi'))).compareTo(quantity('10Gi')) <= 0`,
			`[dyn(['a', 'b'])].flatten().all(x, x in ['a', 'b', 'c'])`}, migrate.Full},
		{"context: configMap, apiCall, variable with default, globalReference", clusterPolicy("", "  - name: r\n"+nsMatch+`    context:
    - name: settings
      configMap:
        name: settings
        namespace: platform
    - name: count
      apiCall:
        urlPath: "/api/v1/namespaces/{{request.object.metadata.name}}/configmaps"
        jmesPath: items
    - name: owner
      variable:
        jmesPath: request.object.metadata.labels.owner
        default: nobody
    - name: gc
      globalReference:
        name: registry
    preconditions:
      any:
      - key: "{{ settings.data.enabled }}"
        operator: Equals
        value: "true"
`+strings.Replace(netpolData, "podSelector: {}", "podSelector: {}\n        x: \"{{ owner }}\"", 1)),
			[]string{`expression: "resource.get('v1', 'configmaps', 'platform', 'settings')"`,
				`resource.List('v1', 'configmaps', object.metadata.name).items`,
				`object.?metadata.?labels.?owner.orValue('nobody')`, `globalContext.Get('registry', '')`,
				`resource.get('v1', 'configmaps', 'platform', 'settings').data.enabled == 'true'`, "x: (( variables.owner ))"}, migrate.Full},
		{"evaluation settings and server-side apply", clusterPolicy("  useServerSideApply: true\n  generateExisting: true\n", "  - name: r\n"+nsMatch+"    skipBackgroundRequests: false\n"+
			strings.Replace(netpolData, "synchronize: true", "synchronize: true\n      orphanDownstreamOnPolicyDelete: true", 1)),
			[]string{"orphanDownstreamOnPolicyDelete:\n      enabled: true", "generateExisting:\n      enabled: true", "skipBackgroundRequests: false", "useServerSideApply: true"}, migrate.Full},
		{"a namespaced Policy becomes a NamespacedGeneratingPolicy", `apiVersion: kyverno.io/v1
kind: Policy
metadata:
  name: p
  namespace: team-a
spec:
  rules:
  - name: r
    match:
      any:
      - resources:
          kinds: [Service]
    generate:
      apiVersion: v1
      kind: Secret
      name: copy
      namespace: team-a
      clone:
        name: source
        namespace: team-a
`, []string{"kind: NamespacedGeneratingPolicy", "namespace: team-a", "generator.apply([cel.bind(source, resource.get('v1', 'secrets', 'source')"}, migrate.Full},
		{"defaults after ||, on paths and on other values", clusterPolicy("", "  - name: r\n"+nsMatch+strings.Replace(netpolData, "podSelector: {}",
			"podSelector: {}\n        op: \"{{ request.operation || 'BACKGROUND' }}\"\n        token: \"{{ base64_decode(request.object.data.token) || 'none' }}\"", 1)),
			[]string{"op: (( request.operation.orValue('BACKGROUND') ))", "token: (( string(base64.decode(object.data.token)).orValue('none') ))"}, migrate.Full},
		{"indexes, functions and multi-select", clusterPolicy("", "  - name: r\n"+nsMatch+strings.Replace(netpolData, "podSelector: {}",
			"podSelector: {}\n        first: \"{{ request.object.spec.containers[0].name }}\"\n        up: \"{{ to_upper(request.object.metadata.name) }}\"\n        pair: \"{{ {name: request.object.metadata.name, n: length(request.object.metadata.name)} }}\"", 1)),
			[]string{"first: (( object.spec.containers[0].name ))", "up: (( string(object.metadata.name).upperAscii() ))",
				"pair: '(( {''name'': object.metadata.name, ''n'': size(object.metadata.name)} ))'"}, migrate.Full},
		{"a name wildcard that matches everything is no condition", clusterPolicy("", "  - name: r\n"+`    match:
      any:
      - resources:
          kinds: [ConfigMap]
          names: ["*"]
          namespaces: ["?*"]
`+netpolData), []string{"expression: \"request.namespace != ''\""}, migrate.Full},
		{"several generate rules become policy-rule GeneratingPolicies", clusterPolicy("", "  - name: first\n"+nsMatch+netpolData+"  - name: second\n"+nsMatch+netpolData),
			[]string{"name: p-first\n", "name: p-second\n", "# genplay migrate: ClusterPolicy/p, rule second (policy.yaml:"}, migrate.Full},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := convert(t, c.policy)
			y := unwrap.ReplaceAllString(res.YAML(), " $1")
			for _, w := range c.want {
				assert.Contains(t, y, w)
			}
			assert.Equal(t, c.status, res.Status(), "findings: %v", res.Findings)
			readsLiterally(t, res.YAML())
		})
	}
}

// readsLiterally checks that chainsaw reads every string of the YAML
// documents as the text it is: pasted into a chainsaw test (templating on),
// a converted policy applies as written.
func readsLiterally(t *testing.T, text string) {
	t.Helper()
	dec := yaml.NewDecoder(strings.NewReader(text))
	for {
		var doc any
		if err := dec.Decode(&doc); err != nil {
			require.ErrorIs(t, err, io.EOF)
			return
		}
		var walk func(path string, v any)
		walk = func(path string, v any) {
			switch x := v.(type) {
			case map[string]any:
				for k, e := range x {
					walk(path+"."+k, e)
				}
			case []any:
				for i, e := range x {
					walk(fmt.Sprintf("%s[%d]", path, i), e)
				}
			case string:
				assert.True(t, assert2.ReadLiterally(x), "chainsaw would not read %s literally: %q", path, x)
			}
		}
		walk("", doc)
	}
}

// unwrap joins the lines the emitter breaks long expressions into.
var unwrap = regexp.MustCompile(`\n\s+(&&|\|\|)`)

func TestFamilyNotes(t *testing.T) {
	res := convert(t, clusterPolicy("", "  - name: r\n"+nsMatch+strings.Replace(netpolData, "podSelector: {}",
		"podSelector: {}\n        op: \"{{ request.operation || 'BACKGROUND' }}\"", 1)))
	var notes []string
	for _, f := range res.Findings {
		if f.Kind == migrate.Note {
			notes = append(notes, f.Message)
		}
	}
	assert.Contains(t, strings.Join(notes, "\n"), "request.operation is CREATE in a GeneratingPolicy's background evaluations")
	assert.NotContains(t, strings.Join(notes, "\n"), "deletes and recreates its downstreams", "Kyverno v1.19.1 updates them in place")
	assert.Equal(t, migrate.Full, res.Status(), "notes do not make a conversion partial")

	// Kyverno v1.19.0's GeneratingPolicy differs more.
	old, diags := migrate.ConvertFileFor("policy.yaml", []byte(clusterPolicy("", "  - name: r\n"+nsMatch+netpolData)), "v1.19.0")
	require.False(t, diags.HasErrors())
	notes = nil
	for _, f := range old.Findings {
		if f.Kind == migrate.Note {
			notes = append(notes, f.Message)
		}
	}
	assert.Contains(t, strings.Join(notes, "\n"), "a GeneratingPolicy of Kyverno v1.19.0 deletes and recreates its downstreams on every policy update")
	assert.Contains(t, strings.Join(notes, "\n"), "does not recreate a downstream deleted a second time")
	assert.NotContains(t, strings.Join(notes, "\n"), "on every trigger update", "Kyverno v1.19.0 updates them in place (kyverno#16838)")

	// Kyverno v1.18.2's recreates them on every trigger update too.
	older, diags := migrate.ConvertFileFor("policy.yaml", []byte(clusterPolicy("", "  - name: r\n"+nsMatch+netpolData)), "v1.18.2")
	require.False(t, diags.HasErrors())
	notes = nil
	for _, f := range older.Findings {
		if f.Kind == migrate.Note {
			notes = append(notes, f.Message)
		}
	}
	assert.Contains(t, strings.Join(notes, "\n"), "a GeneratingPolicy of Kyverno v1.18.2 deletes and recreates its downstream on every trigger update (new UIDs); from v1.19.0 it is updated in place (kyverno#16838)")
}

func TestHostileInputEndsWithAFinding(t *testing.T) {
	long := strings.Repeat("a.", 40000) + "b"
	p := clusterPolicy("", "  - name: r\n"+nsMatch+strings.Replace(netpolData, "podSelector: {}", "podSelector: {}\n        x: \"{{ "+long+" }}\"", 1))
	res, diags := migrate.ConvertFile("policy.yaml", []byte(p))
	require.False(t, diags.HasErrors())
	assert.Equal(t, migrate.Partial, res.Status())
	var msgs []string
	for _, f := range res.Findings {
		msgs = append(msgs, f.Message)
	}
	assert.Contains(t, strings.Join(msgs, "\n"), "the JMESPath expression is longer than 65536 bytes")
}

func TestLongNamesAreCut(t *testing.T) {
	long := strings.Repeat("a", 40)
	text := strings.Replace(clusterPolicy("", "  - name: "+long+"\n"+nsMatch+netpolData+"  - name: other\n"+nsMatch+netpolData), "name: p\n", "name: "+long+"\n", 1)
	res := convert(t, text)
	name := res.Policies[0].Rules[0].Name
	assert.LessOrEqual(t, len(name), 63)
	assert.True(t, strings.HasPrefix(name, long+"-"), name)
}

// lineOf is the 1-based line of the first line of text holding marker.
func lineOf(t *testing.T, text, marker string) int {
	t.Helper()
	for i, l := range strings.Split(text, "\n") {
		if strings.Contains(l, marker) {
			return i + 1
		}
	}
	t.Fatalf("no %q in the policy", marker)
	return 0
}

func TestConvertRefusals(t *testing.T) {
	cases := []struct {
		name    string
		policy  string
		marker  string // the finding is on the line holding it
		message string
		recipe  string
		status  string
	}{
		{"a validate rule stays in the ClusterPolicy", clusterPolicy("", "  - name: r\n"+nsMatch+netpolData+"  - name: check\n"+nsMatch+"    validate: # HERE\n      message: x\n      pattern: {metadata: {name: '?*'}}\n"),
			"# HERE", "rule check is not a generate rule: it stays in the ClusterPolicy", "ValidatingPolicy", migrate.Partial},
		{"applyRules One", clusterPolicy("  applyRules: One # HERE\n", "  - name: a\n"+nsMatch+netpolData+"  - name: b\n"+nsMatch+netpolData),
			"# HERE", "applyRules: One stops at the first generate rule that applies", "COND1 ?", migrate.Partial},
		{"a JMESPath function without a counterpart", clusterPolicy("", "  - name: r\n"+nsMatch+strings.Replace(netpolData, "podSelector: {}", "podSelector: {}\n        x: \"{{ lookup(request.object.metadata.labels, 'a') }}\" # HERE", 1)),
			"# HERE", "the JMESPath function lookup has no CEL counterpart", "MAP[KEY]", migrate.Partial},
		{"roles in match", clusterPolicy("  background: false\n", "  - name: r\n"+`    match:
      any:
      - resources: # HERE
          kinds: [Namespace]
        clusterRoles: [admin]
`+netpolData), "# HERE", "roles/clusterRoles (computed by Kyverno from RBAC bindings) has no CEL equivalent", "request.userInfo.groups", migrate.Partial},
		{"roles in exclude leave the filter out", clusterPolicy("  background: false\n", "  - name: r\n"+nsMatch+`    exclude:
      any:
      - clusterRoles: [cluster-admin] # HERE
`+netpolData), "# HERE", "exclude (the filter is left out) on roles/clusterRoles", "request.userInfo.groups", migrate.Partial},
		{"request.roles", clusterPolicy("  background: false\n", "  - name: r\n"+nsMatch+strings.Replace(netpolData, "podSelector: {}", "podSelector: {}\n        x: \"{{ request.roles }}\" # HERE", 1)),
			"# HERE", "request.roles (the roles Kyverno computes from RBAC) has no CEL equivalent", "rolebindings", migrate.Partial},
		{"serviceAccountName", clusterPolicy("  background: false\n", "  - name: r\n"+nsMatch+strings.Replace(netpolData, "podSelector: {}", "podSelector: {}\n        x: \"{{ serviceAccountName }}\" # HERE", 1)),
			"# HERE", "serviceAccountName is computed by Kyverno from the admission request", `split(":")`, migrate.Partial},
		{"a duration precondition", clusterPolicy("", "  - name: r\n"+nsMatch+`    preconditions:
      all:
      - key: "{{ request.object.metadata.name }}"
        operator: DurationGreaterThan # HERE
        value: 1h
`+netpolData), "# HERE", "the DurationGreaterThan precondition operator has no CEL counterpart", "duration(A) > duration(B)", migrate.Partial},
		{"an unknown precondition operator", clusterPolicy("", "  - name: r\n"+nsMatch+`    preconditions:
      all:
      - key: "{{ request.object.metadata.name }}"
        operator: Sounds # HERE
        value: x
`+netpolData), "# HERE", `the precondition operator "Sounds" has no CEL equivalent`, "", migrate.Partial},
		{"numbers compared against a variable", clusterPolicy("", "  - name: r\n"+nsMatch+`    preconditions:
      all:
      - key: "{{ request.object.metadata.name }}"
        operator: GreaterThan # HERE
        value: "{{ request.object.metadata.name }}"
`+netpolData), "# HERE", "compares values whose type is only known at run time", "quantity(A)", migrate.Partial},
		{"an apiCall to a service", clusterPolicy("", "  - name: r\n"+nsMatch+`    context:
    - name: svc
      apiCall:
        service: # HERE
          url: https://example.com
`+netpolData), "# HERE", "an apiCall to a service has no resource-library equivalent", "http.Get(URL)", migrate.Partial},
		{"an apiCall POST", clusterPolicy("", "  - name: r\n"+nsMatch+`    context:
    - name: sar
      apiCall:
        method: POST # HERE
        urlPath: /apis/authorization.k8s.io/v1/subjectaccessreviews
`+netpolData), "# HERE", "an apiCall with method POST is not translated", "resource.post", migrate.Partial},
		{"query parameters in an apiCall", clusterPolicy("", "  - name: r\n"+nsMatch+`    context:
    - name: pods
      apiCall:
        urlPath: /api/v1/pods?labelSelector=app=x # HERE
`+netpolData), "# HERE", "query parameters in an apiCall urlPath are not translated", "labels map", migrate.Partial},
		{"imageRegistry", clusterPolicy("", "  - name: r\n"+nsMatch+`    context:
    - name: img
      imageRegistry: # HERE
        reference: nginx
`+netpolData), "# HERE", "imageRegistry context entries are not translated", "image.GetMetadata", migrate.Partial},
		{"a JMESPath projection", clusterPolicy("", "  - name: r\n"+nsMatch+`    context:
    - name: names
      variable:
        jmesPath: request.object.spec.containers[].name # HERE
`+netpolData), "# HERE", "JMESPath projections and filters are not translated", "LIST.map", migrate.Partial},
		{"a wildcard kind", clusterPolicy("", "  - name: r\n"+`    match:
      any:
      - resources:
          kinds: ["Config*"] # HERE
`+netpolData), "# HERE", `the wildcard kind "Config*" has no resourceRules equivalent`, "one by one", migrate.None},
		{"user information in the background", clusterPolicy("  background: false\n", "  - name: r\n"+nsMatch+strings.Replace(netpolData, "podSelector: {}", "podSelector: {}\n        x: \"{{ request.userInfo.username }}\"", 1)+"    # HERE\n"),
			"    generate:", "the rule reads admission information (request.userInfo)", "generateExisting off", migrate.Partial},
		{"a variable in a key", clusterPolicy("", "  - name: r\n"+nsMatch+strings.Replace(netpolData, "podSelector: {}", "podSelector: {}\n        \"{{ request.object.metadata.name }}\": x # HERE", 1)),
			"# HERE", "template placeholders are not allowed in mapping keys", "generate expression", migrate.Partial},
		{"the whole request", clusterPolicy("", "  - name: r\n"+nsMatch+strings.Replace(netpolData, "podSelector: {}", "podSelector: {}\n        x: \"{{ request }}\" # HERE", 1)),
			"# HERE", "the whole request object has no CEL equivalent", "", migrate.Partial},
		{"an unknown request field", clusterPolicy("", "  - name: r\n"+nsMatch+strings.Replace(netpolData, "podSelector: {}", "podSelector: {}\n        x: \"{{ request.frobnicate }}\" # HERE", 1)),
			"# HERE", "request.frobnicate has no CEL equivalent", "", migrate.Partial},
		{"element outside foreach", clusterPolicy("", "  - name: r\n"+nsMatch+strings.Replace(netpolData, "podSelector: {}", "podSelector: {}\n        x: \"{{ element.name }}\" # HERE", 1)),
			"# HERE", "element is only defined inside foreach", "", migrate.Partial},
		{"an undefined variable", clusterPolicy("", "  - name: r\n"+nsMatch+strings.Replace(netpolData, "podSelector: {}", "podSelector: {}\n        x: \"{{ nosuch.value }}\" # HERE", 1)),
			"# HERE", "the variable \"nosuch\" is not defined by the rule's context", "", migrate.Partial},
		{"a negative index", clusterPolicy("", "  - name: r\n"+nsMatch+strings.Replace(netpolData, "podSelector: {}", "podSelector: {}\n        x: \"{{ request.object.spec.items[-1] }}\" # HERE", 1)),
			"# HERE", "a negative index has no CEL equivalent", "size(LIST)", migrate.Partial},
		{"trim with a cutset", clusterPolicy("", "  - name: r\n"+nsMatch+strings.Replace(netpolData, "podSelector: {}", "podSelector: {}\n        x: \"{{ trim(request.object.metadata.name, 'x') }}\" # HERE", 1)),
			"# HERE", "trim with a cutset other than whitespace", "regex.replace", migrate.Partial},
		{"too few arguments", clusterPolicy("", "  - name: r\n"+nsMatch+strings.Replace(netpolData, "podSelector: {}", "podSelector: {}\n        x: \"{{ split(request.object.metadata.name) }}\" # HERE", 1)),
			"# HERE", "called with too few arguments", "", migrate.Partial},
		{"an expression that does not parse", clusterPolicy("", "  - name: r\n"+nsMatch+strings.Replace(netpolData, "podSelector: {}", "podSelector: {}\n        x: \"{{ request.object.( }}\" # HERE", 1)),
			"# HERE", "does not parse", "", migrate.Partial},
		{"the images variable", clusterPolicy("", "  - name: r\n"+nsMatch+strings.Replace(netpolData, "podSelector: {}", "podSelector: {}\n        x: \"{{ images.containers }}\" # HERE", 1)),
			"# HERE", "the images variable has no CEL equivalent", "parseImageReference", migrate.Partial},
		{"a match filter without kinds", clusterPolicy("", "  - name: r\n"+`    match:
      any:
      - resources: # HERE
          names: [x]
      - resources:
          kinds: [Namespace]
`+netpolData), "# HERE", "a match filter without kinds has no resourceRules equivalent", "list the kinds", migrate.Partial},
		{"a malformed kind", clusterPolicy("", "  - name: r\n"+`    match:
      any:
      - resources:
          kinds: [a/b/c/D, Namespace] # HERE
`+netpolData), "# HERE", "is not of the form [group/][version/]Kind[/subresource]", "", migrate.Partial},
		{"a subresource next to other filters", clusterPolicy("", "  - name: r\n"+`    match:
      any:
      - resources:
          kinds: [Pod/exec] # HERE
      - resources:
          kinds: [Namespace]
`+netpolData), "# HERE", "a subresource kind in a filter next to other filters", "a rule of its own", migrate.Partial},
		{"a namespaceSelector next to other filters", clusterPolicy("", "  - name: r\n"+`    match:
      any:
      - resources:
          kinds: [ConfigMap]
          namespaceSelector: # HERE
            matchLabels: {a: b}
      - resources:
          kinds: [Namespace]
`+netpolData), "# HERE", "this namespaceSelector cannot be expressed", "split the rule", migrate.Partial},
		{"wildcards in a selector", clusterPolicy("", "  - name: r\n"+`    match:
      any:
      - resources:
          kinds: [Namespace]
          selector: # HERE
            matchLabels: {"team-*": "x"}
`+netpolData), "# HERE", "wildcards in a selector's matchLabels", "exists(k, k.matches(REGEX))", migrate.Partial},
		{"a variable with both value and jmesPath", clusterPolicy("", "  - name: r\n"+nsMatch+`    context:
    - name: v
      variable: # HERE
        value: {a: 1}
        jmesPath: a
`+netpolData), "# HERE", "a variable with both value and jmesPath", "compute the value in CEL", migrate.Partial},
		{"an apiCall urlPath outside the Kubernetes API", clusterPolicy("", "  - name: r\n"+nsMatch+`    context:
    - name: v
      apiCall:
        urlPath: /healthz # HERE
`+netpolData), "# HERE", "is not a Kubernetes resource path", "", migrate.Partial},
		{"an apiCall urlPath of a subresource", clusterPolicy("", "  - name: r\n"+nsMatch+`    context:
    - name: v
      apiCall:
        urlPath: /api/v1/namespaces/a/pods/b/log # HERE
`+netpolData), "# HERE", "is not a list or a get of one resource", "", migrate.Partial},
		{"wildcards in an AnyIn value", clusterPolicy("", "  - name: r\n"+nsMatch+`    preconditions:
      all:
      - key: "{{ request.object.metadata.name }}"
        operator: AnyIn
        value: ["team-*"] # HERE
`+netpolData), "# HERE", "wildcards in the value of an AnyIn precondition", "x.matches(REGEX)", migrate.Partial},
		{"a foreach list that cannot be translated", clusterPolicy("", "  - name: r\n"+nsMatch+`    generate:
      foreach:
      - list: request.object.spec[?x == 'y'] # HERE
        apiVersion: v1
        kind: ConfigMap
        name: x
        namespace: default
`), "# HERE", "foreach list: JMESPath projections and filters are not translated", "", migrate.None},
		{"a variable in a clone's kind", clusterPolicy("", "  - name: r\n"+nsMatch+`    generate: # HERE
      apiVersion: v1
      kind: "{{ request.object.metadata.labels.kind }}"
      name: x
      namespace: default
      clone:
        name: x
        namespace: platform
`), "# HERE", "a variable in the target's apiVersion or kind", "resource.get(API_VERSION", migrate.None},
		{"wildcards in a cloneList selector", clusterPolicy("", "  - name: r\n"+nsMatch+`    generate:
      namespace: "{{request.object.metadata.name}}"
      cloneList:
        namespace: platform
        kinds: [v1/Secret]
        selector: # HERE
          matchLabels: {"share": "y*"}
`), "# HERE", "wildcards in the cloneList selector", "", migrate.Partial},
		{"a policy without generate rules", clusterPolicy("", "  - name: check\n"+nsMatch+"    validate:\n      message: x\n      pattern: {metadata: {name: '?*'}}\n"),
			"  rules:", "the policy has no generate rule: nothing to convert", "", migrate.None},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, diags := migrate.ConvertFile("policy.yaml", []byte(c.policy))
			require.False(t, diags.HasErrors(), "%v", diags)
			line := lineOf(t, c.policy, c.marker)
			var found *migrate.Finding
			for i, f := range res.Findings {
				if f.Kind == migrate.Unconverted && strings.Contains(f.Message, c.message) {
					found = &res.Findings[i]
				}
			}
			require.NotNil(t, found, "a finding says %q; got %v", c.message, res.Findings)
			assert.Equal(t, line, found.Pos.Line, "the finding is at the line of the field: %s", found)
			assert.Equal(t, "policy.yaml", found.Pos.File)
			if c.recipe != "" {
				assert.Contains(t, found.Recipe, c.recipe)
			}
			assert.Equal(t, c.status, res.Status())
			// Whatever could be converted is still a valid policy, and never
			// an exclusion of everything.
			assert.Empty(t, check.Policies("converted.yaml", res.YAML()))
			assert.NotContains(t, res.YAML(), "!(true)")
		})
	}
}
