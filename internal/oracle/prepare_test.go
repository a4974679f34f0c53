package oracle

import (
	"strings"
	"testing"
	"time"

	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/shell"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

const scenario = `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: t
spec:
  steps:
  - name: policy
    try:
    - apply:
        file: policy.yaml
    - assert:
        file: ready.yaml
    catch:
    - events: {}
  - try:
    - error:
        file: gone.yaml
    cleanup:
    - delete:
        ref: {apiVersion: v1, kind: Namespace, name: x}
    finally:
    - script:
        content: kubectl get ns
`

func TestPrepareKeepsWhatChangesTheCluster(t *testing.T) {
	out, err := Prepare(scenario, time.Minute)
	require.NoError(t, err)
	var doc struct {
		Spec struct {
			Steps []map[string]any `json:"steps"`
		} `json:"spec"`
	}
	require.NoError(t, yaml.Unmarshal([]byte(out), &doc))
	require.Len(t, doc.Spec.Steps, 2)
	assert.Equal(t, "s01 policy", doc.Spec.Steps[0]["name"])
	assert.Equal(t, "s02 step-2", doc.Spec.Steps[1]["name"], "an unnamed step is named as genplay names it")
	assert.Equal(t, []any{map[string]any{"apply": map[string]any{"file": "policy.yaml"}}}, doc.Spec.Steps[0]["try"], "the assert goes")
	assert.NotContains(t, doc.Spec.Steps[0], "catch")
	assert.Equal(t, []any{map[string]any{"sleep": map[string]any{"duration": "1ms"}}}, doc.Spec.Steps[1]["try"], "a step left empty sleeps")
	assert.NotContains(t, doc.Spec.Steps[1], "cleanup")
	assert.Len(t, doc.Spec.Steps[1]["finally"], 1)
	assert.Equal(t, []string{"s01 policy", "s02 step-2"}, StepNames(out))
}

func TestPrepareRefusesWhatALiveRunCannotHonour(t *testing.T) {
	_, err := Prepare(strings.Replace(scenario, "    - error:\n        file: gone.yaml\n", "    - sleep:\n        duration: 45m\n", 1), time.Minute)
	assert.ErrorContains(t, err, "sleeps 45m0s")
	_, err = Prepare(strings.Replace(scenario, "kubectl get ns", "kubectl rollout restart deployment/kyverno-background-controller -n kyverno", 1), time.Minute)
	assert.ErrorContains(t, err, "Kyverno's Deployments")
	_, err = Prepare("apiVersion: v1\nkind: ConfigMap\n", time.Minute)
	assert.ErrorContains(t, err, "not a chainsaw Test")
}

func TestHookSettlesAfterEachOperationAndSnapshotsEachStep(t *testing.T) {
	prepared, err := Prepare(scenario, time.Minute)
	require.NoError(t, err)
	out, err := Hook(prepared, "settle", "snapshot %d", "")
	require.NoError(t, err)
	var doc struct {
		Spec struct {
			Steps []struct {
				Try     []map[string]any `json:"try"`
				Finally []map[string]any `json:"finally"`
			} `json:"steps"`
		} `json:"spec"`
	}
	require.NoError(t, yaml.Unmarshal([]byte(out), &doc))
	content := func(op map[string]any) any { return op["script"].(map[string]any)["content"] }
	s0 := doc.Spec.Steps[0]
	require.Len(t, s0.Try, 1, "the snapshot settles after the last operation")
	require.Len(t, s0.Finally, 1)
	assert.Equal(t, "snapshot 0", content(s0.Finally[0]))
	s1 := doc.Spec.Steps[1]
	require.Len(t, s1.Try, 2, "the sleep and a settle before the finally block")
	assert.Equal(t, "settle", content(s1.Try[1]))
	require.Len(t, s1.Finally, 2, "the step's own finally operation, the snapshot")
	assert.Equal(t, "snapshot 1", content(s1.Finally[1]))
}

// A delete by name runs live as kubectl delete --wait=false (chainsaw's
// delete races a downstream Kyverno recreates at once); the command does
// what the delete does, as genplay's kubectl reads it.
func TestHookDeletesByNameWithoutWaiting(t *testing.T) {
	ref := func(fields ...string) map[string]any {
		r := map[string]any{}
		for i := 0; i < len(fields); i += 2 {
			r[fields[i]] = fields[i+1]
		}
		return map[string]any{"delete": map[string]any{"ref": r}}
	}
	cmd, ok := LiveDelete(ref("apiVersion", "networking.k8s.io/v1", "kind", "NetworkPolicy", "name", "default-deny", "namespace", "team-a"))
	require.True(t, ok)
	assert.Equal(t, "kubectl delete NetworkPolicy.v1.networking.k8s.io default-deny -n team-a --wait=false --ignore-not-found", cmd)
	cmd, ok = LiveDelete(ref("apiVersion", "v1", "kind", "ConfigMap", "name", "source"))
	require.True(t, ok)
	assert.Equal(t, `kubectl delete ConfigMap source -n "$NAMESPACE" --wait=false --ignore-not-found`, cmd)
	for _, op := range []map[string]any{
		{"delete": map[string]any{"file": "x.yaml"}},
		{"delete": map[string]any{"ref": map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "name": "x"}, "expect": []any{}}},
		ref("apiVersion", "v1", "kind", "ConfigMap"),                        // every ConfigMap
		ref("apiVersion", "v1", "kind", "ConfigMap", "name", "x; rm -rf /"), // not a name
		{"apply": map[string]any{"file": "x.yaml"}},
	} {
		_, ok := LiveDelete(op)
		assert.False(t, ok, "%v", op)
	}

	// In genplay, the command deletes what the operation deletes.
	const test = `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: t
spec:
  steps:
  - try:
    - apply:
        resource: {apiVersion: v1, kind: Namespace, metadata: {name: team-a}}
    - apply:
        resource: {apiVersion: networking.k8s.io/v1, kind: NetworkPolicy, metadata: {name: deny, namespace: team-a}, spec: {podSelector: {}}}
    - apply:
        resource: {apiVersion: v1, kind: ConfigMap, metadata: {name: source}}
  - try:
    - delete:
        ref: {apiVersion: networking.k8s.io/v1, kind: NetworkPolicy, name: deny, namespace: team-a}
    - delete:
        ref: {apiVersion: v1, kind: ConfigMap, name: source}
`
	prepared, err := Prepare(test, time.Minute)
	require.NoError(t, err)
	hooked, err := Hook(prepared, "true", "true", "")
	require.NoError(t, err)
	assert.Equal(t, 2, strings.Count(hooked, "--wait=false"))
	assert.NotContains(t, hooked, "delete:")
	keys := func(text string) []string {
		res := engine.Run("t.yaml", []byte(text), engine.Options{Scripts: shell.New})
		require.True(t, res.Passed, "%s", text)
		var out []string
		for _, o := range res.Final().Objects() {
			out = append(out, Key(o))
		}
		return out
	}
	want := keys(prepared)
	assert.NotContains(t, want, "networking.k8s.io/v1/NetworkPolicy/team-a/deny")
	assert.NotContains(t, want, "v1/ConfigMap/chainsaw-test/source")
	assert.Equal(t, want, keys(strings.ReplaceAll(hooked, "content: \"true\"", "content: echo")))
}

func TestChangesTellRecreatedFromUpdated(t *testing.T) {
	before := []Object{{Key: "a", UID: "1", Digest: "x"}, {Key: "b", UID: "2", Digest: "x"}, {Key: "c", UID: "3", Digest: "x"}, {Key: "d", UID: "4", Digest: "x"}}
	after := []Object{{Key: "a", UID: "1", Digest: "x"}, {Key: "b", UID: "5", Digest: "x"}, {Key: "c", UID: "3", Digest: "y"}, {Key: "e", UID: "6", Digest: "x"}}
	assert.Equal(t, []Change{
		{Key: "b", Action: Recreated, OldUID: "2", NewUID: "5"},
		{Key: "c", Action: Updated, NewUID: "3"},
		{Key: "d", Action: Deleted, OldUID: "4"},
		{Key: "e", Action: Created, NewUID: "6"},
	}, Changes(before, after))
}

func TestViewNamesUIDsByTheirObjects(t *testing.T) {
	o := map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "data": map[string]any{"k": "v"}, "status": map[string]any{"x": 1},
		"metadata": map[string]any{"name": "cm", "namespace": "ns", "uid": "u1", "resourceVersion": "7",
			"labels":          map[string]any{"generate.kyverno.io/trigger-uid": "u0", "app": "x"},
			"annotations":     map[string]any{"kubectl.kubernetes.io/last-applied-configuration": "{}"},
			"ownerReferences": []any{map[string]any{"apiVersion": "v1", "kind": "Namespace", "name": "ns", "uid": "u0", "blockOwnerDeletion": true}}}}
	v := View(o, map[string]string{"u0": "v1/Namespace//ns"})
	assert.Equal(t, map[string]any{
		"data":            map[string]any{"k": "v"},
		"labels":          map[string]any{"generate.kyverno.io/trigger-uid": "uid:v1/Namespace//ns", "app": "x"},
		"ownerReferences": []any{map[string]any{"kind": "Namespace", "name": "ns", "uid": "uid:v1/Namespace//ns"}},
	}, v)
	assert.Equal(t, "v1/ConfigMap/ns/cm", Key(o))
}

func TestInScope(t *testing.T) {
	obj := func(apiVersion, kind, ns, name string) map[string]any {
		return map[string]any{"apiVersion": apiVersion, "kind": kind, "metadata": map[string]any{"name": name, "namespace": ns}}
	}
	assert.True(t, InScope(obj("networking.k8s.io/v1", "NetworkPolicy", "team", "deny")))
	assert.True(t, InScope(obj("kyverno.io/v1", "ClusterPolicy", "", "p")))
	assert.False(t, InScope(obj("v1", "ConfigMap", "team", "kube-root-ca.crt")))
	assert.False(t, InScope(obj("v1", "ServiceAccount", "team", "default")))
	assert.False(t, InScope(obj("v1", "Secret", "kyverno", "kyverno-svc.kyverno.svc.kyverno-tls-pair")))
	assert.False(t, InScope(obj("kyverno.io/v2", "UpdateRequest", "kyverno", "ur-1")))
	assert.False(t, InScope(obj("coordination.k8s.io/v1", "Lease", "team", "l")))
	assert.False(t, InScope(obj("v1", "Namespace", "", "kube-system")))
}

func TestAnHourSleepWaitsForPeriodicScans(t *testing.T) {
	text := strings.Replace(scenario, "    - error:\n        file: gone.yaml\n", "    - sleep:\n        duration: 2h\n", 1)
	prepared, err := Prepare(text, time.Minute)
	require.NoError(t, err, "hours are periodic scans")
	assert.Equal(t, 2, Scans(prepared))
	assert.Equal(t, 0, Scans(strings.Replace(prepared, "2h", "30s", 1)))
	assert.Equal(t, 1, Scans(strings.Replace(prepared, "2h", "1h1m", 1)), "one scan in an hour and a minute")
	_, err = Hook(prepared, "settle", "snapshot %d", "")
	assert.ErrorContains(t, err, "sleeps through 2 periodic scans", "a stack without a short scan cannot run it")
	out, err := Hook(prepared, "settle", "snapshot %d", "scan -n %d")
	require.NoError(t, err)
	assert.Contains(t, out, "content: scan -n 2")
	assert.NotContains(t, out, "2h", "chainsaw does not sleep the hours")
	assert.Contains(t, prepared, "duration: 2h", "genplay's scenario keeps them")
}
