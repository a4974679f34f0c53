package engine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/timeline"
)

// The defects Kyverno's CLI found (issue 16): each test runs what the CLI
// ran and checks what Kyverno generated.

// generated returns the objects of the run's final cluster that rule
// generated, by name.
func generated(t *testing.T, res *timeline.Result, rule string) map[string]resource.Object {
	t.Helper()
	require.NotEmpty(t, res.Steps)
	out := map[string]resource.Object{}
	for _, o := range res.Final().Objects() {
		if l, _ := o.Label("generate.kyverno.io/rule-name"); l == rule {
			out[o.Name()] = o
		}
	}
	return out
}

func notes(res *timeline.Result) []string {
	var out []string
	for _, st := range res.Steps {
		for _, e := range st.Events {
			if e.Action == timeline.ActionNote {
				out = append(out, e.Reason)
			}
		}
	}
	return out
}

const podTrigger = `- apply:
    resource:
      apiVersion: v1
      kind: Pod
      metadata:
        name: web
        namespace: default
      spec:
        initContainers:
        - name: init
          image: busybox
        containers:
        - name: app
          image: ghcr.io/acme/web:1.2@sha256:dead07b4d8ed7e29e98de0f4504d87e8880d4347859d839686a31da35a3b532f
        - name: side
          image: localhost:5000/tools/side
        ephemeralContainers:
        - name: debug
          image: nginx:1.27`

func TestTheImagesVariableDescribesEveryContainerAsKyvernoDoes(t *testing.T) {
	policy := `apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: images
spec:
  rules:
  - name: images
    match:
      any:
      - resources:
          kinds: [Pod]
    generate:
      apiVersion: v1
      kind: ConfigMap
      name: images
      namespace: default
      data:
        data:
          app: "{{ images.containers.app.registry }}|{{ images.containers.app.path }}|{{ images.containers.app.name }}|{{ images.containers.app.tag }}|{{ images.containers.app.digest }}"
          side: "{{ images.containers.side.registry }}|{{ images.containers.side.path }}|{{ images.containers.side.tag }}|{{ images.containers.side.jsonPointer }}"
          init: "{{ images.initContainers.init.reference }}"
          debug: "{{ images.ephemeralContainers.debug.referenceWithTag }}"
          keys: "{{ keys(images.containers.app) | sort(@) | join(',', @) }}"
`
	res := requirePassed(t, scenarioText("images", policy, "- sleep:\n    duration: 1s", podTrigger, "- sleep:\n    duration: 1s"))
	cm := generated(t, res, "images")["images"]
	require.NotNil(t, cm, "the ConfigMap is generated")
	assert.Equal(t, map[string]any{
		"app":   "ghcr.io|acme/web|web|1.2|sha256:dead07b4d8ed7e29e98de0f4504d87e8880d4347859d839686a31da35a3b532f",
		"side":  "localhost:5000|tools/side|latest|/spec/containers/1/image",
		"init":  "docker.io/busybox:latest",
		"debug": "docker.io/nginx:1.27",
		"keys":  "digest,jsonPointer,name,path,reference,referenceWithTag,registry,tag",
	}, cm["data"])
}

func TestATriggerWithoutContainersHasNoImagesVariable(t *testing.T) {
	policy := `apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: images
spec:
  rules:
  - name: images
    match:
      any:
      - resources:
          kinds: [Namespace]
    generate:
      apiVersion: v1
      kind: ConfigMap
      name: images
      namespace: "{{ request.object.metadata.name }}"
      data:
        data:
          v: "{{ images || 'none' }}"
`
	ns := "- apply:\n    resource:\n      apiVersion: v1\n      kind: Namespace\n      metadata:\n        name: team-a"
	res := requirePassed(t, scenarioText("no-images", policy, "- sleep:\n    duration: 1s", ns, "- sleep:\n    duration: 1s"))
	cm := generated(t, res, "images")["images"]
	require.NotNil(t, cm)
	assert.Equal(t, map[string]any{"v": "none"}, cm["data"])
}

func TestANonStringLabelValueDropsEveryLabelButKyvernos(t *testing.T) {
	policy := `apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: labels
spec:
  rules:
  - name: labels
    match:
      any:
      - resources:
          kinds: [Namespace]
    context:
    - name: num
      variable:
        value: 3
    generate:
      apiVersion: v1
      kind: ConfigMap
      name: typed
      namespace: "{{ request.object.metadata.name }}"
      data:
        metadata:
          labels:
            team: a
            count: '{{ num }}'
  - name: strings
    match:
      any:
      - resources:
          kinds: [Namespace]
    generate:
      apiVersion: v1
      kind: ConfigMap
      name: plain
      namespace: "{{ request.object.metadata.name }}"
      data:
        metadata:
          labels:
            team: a
            count: '{{ to_string(` + "`3`" + `) }}'
  - name: foreach
    match:
      any:
      - resources:
          kinds: [Namespace]
    generate:
      generateExisting: false
      foreach:
      - list: "['x', 'y']"
        apiVersion: v1
        kind: ConfigMap
        name: "each-{{ element }}"
        namespace: "{{ request.object.metadata.name }}"
        data:
          metadata:
            labels:
              team: a
              index: '{{ elementIndex }}'
`
	ns := "- apply:\n    resource:\n      apiVersion: v1\n      kind: Namespace\n      metadata:\n        name: team-a"
	res := requirePassed(t, scenarioText("labels", policy, "- sleep:\n    duration: 1s", ns, "- sleep:\n    duration: 1s"))
	kyvernoOnly := func(l map[string]string) map[string]string {
		out := map[string]string{}
		for k, v := range l {
			if k != "app.kubernetes.io/managed-by" && !strings.HasPrefix(k, "generate.kyverno.io/") {
				out[k] = v
			}
		}
		return out
	}
	typed := generated(t, res, "labels")["typed"]
	require.NotNil(t, typed)
	assert.Empty(t, kyvernoOnly(typed.Labels()), "count renders to a number: Kyverno drops the whole map")
	assert.Equal(t, "kyverno", typed.Labels()["app.kubernetes.io/managed-by"])
	plain := generated(t, res, "strings")["plain"]
	require.NotNil(t, plain)
	assert.Equal(t, map[string]string{"team": "a", "count": "3"}, kyvernoOnly(plain.Labels()), "string labels stay")
	each := generated(t, res, "foreach")
	require.Len(t, each, 2)
	for name, o := range each {
		assert.Empty(t, kyvernoOnly(o.Labels()), "%s: elementIndex is a number", name)
	}
	var said int
	for _, n := range notes(res) {
		if strings.Contains(n, "non-string") && strings.Contains(n, "NestedStringMap") {
			said++
		}
	}
	assert.Equal(t, 3, said, "the timeline says why, once per object: %v", notes(res))
}

func failures(res *timeline.Result) []string {
	var out []string
	for _, st := range res.Steps {
		for _, e := range st.Events {
			if e.Action == timeline.ActionFailed {
				out = append(out, e.Reason)
			}
		}
	}
	return out
}

// Kyverno stores a context entry under its name as it is (addToContext
// with the name as one key): a dotted name is not a path.
func TestAContextEntryWithADottedNameIsOneKey(t *testing.T) {
	policy := `apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: dotted
spec:
  rules:
  - name: quoted
    match:
      any:
      - resources:
          kinds: [Namespace]
    context:
    - name: settings.level
      variable:
        value: debug
    generate:
      apiVersion: v1
      kind: ConfigMap
      name: quoted
      namespace: "{{ request.object.metadata.name }}"
      data:
        data:
          level: '{{ "settings.level" }}'
  - name: path
    match:
      any:
      - resources:
          kinds: [Namespace]
    context:
    - name: settings.level
      variable:
        value: debug
    generate:
      apiVersion: v1
      kind: ConfigMap
      name: path
      namespace: "{{ request.object.metadata.name }}"
      data:
        data:
          level: "{{ settings.level }}"
`
	ns := "- apply:\n    resource:\n      apiVersion: v1\n      kind: Namespace\n      metadata:\n        name: team-a"
	res := requirePassed(t, scenarioText("dotted", policy, "- sleep:\n    duration: 1s", ns, "- sleep:\n    duration: 1s"))
	quoted := generated(t, res, "quoted")["quoted"]
	require.NotNil(t, quoted, "the quoted name reads the entry")
	assert.Equal(t, map[string]any{"level": "debug"}, quoted["data"])
	assert.Empty(t, generated(t, res, "path"), "settings.level is not a path to the entry")
	f := failures(res)
	require.Len(t, f, 1)
	assert.Contains(t, f[0], `Unknown key "settings" in path`)
}

// Kyverno's variable loader fails an entry whose value is null and has no
// default ("failed to add context entry for variable %s since it evaluated
// to nil").
func TestAContextVariableThatIsNullFailsTheRule(t *testing.T) {
	policy := `apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: null-variable
spec:
  rules:
  - name: nil-value
    match:
      any:
      - resources:
          kinds: [Namespace]
    context:
    - name: missing
      variable:
        jmesPath: "request.object.metadata.labels.nothing || ` + "`null`" + `"
    generate:
      apiVersion: v1
      kind: ConfigMap
      name: nil-value
      namespace: "{{ request.object.metadata.name }}"
      data:
        data:
          v: "{{ missing || 'x' }}"
  - name: defaulted
    match:
      any:
      - resources:
          kinds: [Namespace]
    context:
    - name: missing
      variable:
        jmesPath: request.object.metadata.labels.nothing
        default: fallback
    generate:
      apiVersion: v1
      kind: ConfigMap
      name: defaulted
      namespace: "{{ request.object.metadata.name }}"
      data:
        data:
          v: "{{ missing }}"
`
	ns := "- apply:\n    resource:\n      apiVersion: v1\n      kind: Namespace\n      metadata:\n        name: team-a\n        labels:\n          env: dev"
	res := requirePassed(t, scenarioText("null-variable", policy, "- sleep:\n    duration: 1s", ns, "- sleep:\n    duration: 1s"))
	assert.Empty(t, generated(t, res, "nil-value"))
	f := failures(res)
	require.Len(t, f, 1)
	assert.Contains(t, f[0], "failed to add context entry for variable missing since it evaluated to nil")
	d := generated(t, res, "defaulted")["defaulted"]
	require.NotNil(t, d)
	assert.Equal(t, map[string]any{"v": "fallback"}, d["data"])
}

// Kyverno's foreach skips null elements (generateElements), and the others
// keep their index in the list.
func TestForeachSkipsNullElements(t *testing.T) {
	policy := `apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: nulls
spec:
  rules:
  - name: each
    match:
      any:
      - resources:
          kinds: [Namespace]
    generate:
      foreach:
      - list: "[` + "`null`" + `, 'b']"
        apiVersion: v1
        kind: ConfigMap
        name: "each-{{ elementIndex }}"
        namespace: "{{ request.object.metadata.name }}"
        data:
          data:
            v: "{{ to_string(element) }}"
`
	ns := "- apply:\n    resource:\n      apiVersion: v1\n      kind: Namespace\n      metadata:\n        name: team-a"
	res := requirePassed(t, scenarioText("nulls", policy, "- sleep:\n    duration: 1s", ns, "- sleep:\n    duration: 1s"))
	each := generated(t, res, "each")
	require.Len(t, each, 1, "the null element generates nothing")
	require.NotNil(t, each["each-1"])
	assert.Equal(t, map[string]any{"v": "b"}, each["each-1"]["data"])
}

// Without an admission request Kyverno's context has request.object,
// request.namespace and request.operation only (NewPolicyContext): a rule
// that reads request.name works for a new trigger and fails in the
// background, for generateExisting.
func TestTheBackgroundContextHasNoRequestName(t *testing.T) {
	policy := `apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: request-name
spec:
  rules:
  - name: named
    match:
      any:
      - resources:
          kinds: [Namespace]
          names: [team-*]
    generate:
      generateExisting: true
      apiVersion: v1
      kind: ConfigMap
      name: named
      namespace: "{{ request.object.metadata.name }}"
      data:
        data:
          name: "{{ request.name }}"
`
	setup := "- apply:\n    resource:\n      apiVersion: v1\n      kind: Namespace\n      metadata:\n        name: team-old"
	text := fmt.Sprintf(`apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: request-name
spec:
  steps:
  - try:
%s
  - try:
    - apply:
        resource:
%s
  - try:
    - apply:
        resource:
          apiVersion: v1
          kind: Namespace
          metadata:
            name: team-new
`, indent(setup, 4), indent(policy, 10))
	res := requirePassed(t, text)
	got := generated(t, res, "named")
	require.Len(t, got, 1, "only the trigger created after the policy, through admission")
	assert.Equal(t, map[string]any{"name": "team-new"}, got["named"]["data"])
	f := failures(res)
	require.Len(t, f, 1)
	assert.Contains(t, f[0], `Unknown key "name" in path`)
}
