package main

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/migrate"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/engine/timeline"
)

// The seed's cheat sheet (engine/cheatsheet_test.go and
// cheatsheet_clone_test.go: a default-deny NetworkPolicy from data and a
// registry Secret from clone, with synchronize and orphan on and off, and
// every event of SEMANTICS.md §2.5 / GENERATING-POLICY.md §3.8), run by
// genplay under both families. TestMigrationDocIsCurrent writes the table of
// docs/migration.md from these runs.

func cheatNetpol(sync, orphan bool, extraMatch, content string) string {
	return fmt.Sprintf(`apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: default-deny
spec:
  rules:
  - name: default-deny
    match:
      any:
      - resources:
          kinds: [Namespace]
          selector:
            matchLabels:
              env: prod%s
    generate:
      apiVersion: networking.k8s.io/v1
      kind: NetworkPolicy
      name: default-deny
      namespace: "{{request.object.metadata.name}}"
      synchronize: %t
      orphanDownstreamOnPolicyDelete: %t
      data:
        spec:
          podSelector: {}
          policyTypes: %s
`, extraMatch, sync, orphan, content)
}

func cheatClone(sync, orphan bool) string {
	return fmt.Sprintf(`apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: sync-secret
spec:
  rules:
  - name: copy-regcred
    match:
      any:
      - resources:
          kinds: [Namespace]
          selector:
            matchLabels:
              registry: "true"
    generate:
      apiVersion: v1
      kind: Secret
      name: regcred
      namespace: "{{request.object.metadata.name}}"
      synchronize: %t
      orphanDownstreamOnPolicyDelete: %t
      clone:
        namespace: platform
        name: regcred
`, sync, orphan)
}

func cheatIndent(s string, n int) string {
	pad := strings.Repeat(" ", n)
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = pad + l
		}
	}
	return strings.Join(lines, "\n")
}

func cheatScenario(name, policy, setup, event string) string {
	return fmt.Sprintf(`apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: %s
spec:
  steps:
  - name: policy
    try:
    - apply:
        resource:
%s
  - name: setup
    try:
%s
  - name: event
    try:
%s
`, name, cheatIndent(policy, 10), cheatIndent(setup, 4), cheatIndent(event, 4))
}

func applyOp(obj string) string { return "- apply:\n    resource:\n" + cheatIndent(obj, 6) }

const (
	netpolNamespace = "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n  labels:\n    env: prod\n"
	cloneNamespaces = "- apply:\n    resource:\n      apiVersion: v1\n      kind: Namespace\n      metadata:\n        name: platform\n" +
		"- apply:\n    resource:\n      apiVersion: v1\n      kind: Secret\n      metadata:\n        name: regcred\n        namespace: platform\n      data:\n        token: b3JpZ2luYWw=\n" +
		"- apply:\n    resource:\n      apiVersion: v1\n      kind: Namespace\n      metadata:\n        name: team-a\n        labels:\n          registry: \"true\"\n"
	bothPolicyTypes = "[Ingress, Egress]"
)

// cheatEvent is one row family of the table.
type cheatEvent struct {
	name   string
	clone  bool
	setup  func(sync, orphan bool) string // nil: the trigger is created
	event  func(sync, orphan bool) string
	policy func(sync, orphan bool) string // nil: the standard policy
	// ref is the code reference of both families' behaviour.
	ref string
}

func deleteRef(apiVersion, kind, ns, name string) string {
	s := fmt.Sprintf("- delete:\n    ref:\n      apiVersion: %s\n      kind: %s\n      name: %s\n", apiVersion, kind, name)
	if ns != "" {
		s += "      namespace: " + ns + "\n"
	}
	return s
}

var (
	deleteNetpol = deleteRef("networking.k8s.io/v1", "NetworkPolicy", "team-a", "default-deny")
	deleteSecret = deleteRef("v1", "Secret", "team-a", "regcred")
)

func cheatEvents() []cheatEvent {
	always := func(s string) func(bool, bool) string { return func(bool, bool) string { return s } }
	return []cheatEvent{
		{name: "the downstream is modified", event: always(`- patch:
    resource:
      apiVersion: networking.k8s.io/v1
      kind: NetworkPolicy
      metadata:
        name: default-deny
        namespace: team-a
      spec:
        policyTypes: [Ingress]`),
			ref: "ClusterPolicy: `handleNonTrigger` (K:pkg/webhooks/resource/generation/handler.go), SEMANTICS §2.2. GeneratingPolicy: `WatchManager.handleUpdate` (K:pkg/background/gpol/dynamic_watcher.go), GENERATING-POLICY §3.6"},
		{name: "the downstream is deleted", event: always(deleteNetpol),
			ref: "ClusterPolicy: `handleNonTrigger` → UR (handler.go), SEMANTICS §2.2. GeneratingPolicy: `handleDelete` POSTs the cached copy (dynamic_watcher.go), §3.6"},
		{name: "the downstream is deleted a second time", event: always(deleteNetpol + "- sleep:\n    duration: 1s\n" + deleteNetpol),
			ref: "GeneratingPolicy: the watcher's cache keeps the first UID (`handleDelete`, dynamic_watcher.go; kyverno#17265), GENERATING-POLICY §3.6"},
		{name: "the policy's data is updated", event: func(sync, orphan bool) string {
			return applyOp(cheatNetpol(sync, orphan, "", "[Ingress]"))
		}, ref: "ClusterPolicy: `syncDataPolicyChanges` (K:pkg/policy/generate.go), SEMANTICS §2.2. GeneratingPolicy: `createURForGeneratingPolicy` deletes then regenerates (K:pkg/policy/gpol.go), §3.7"},
		{name: "the trigger no longer matches", event: always(applyOp("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n  labels:\n    env: dev\n")),
			ref: "ClusterPolicy: `filterRule` → `syncTriggerAction` (K:pkg/engine/background.go). GeneratingPolicy: `ProcessUR`, nil result → `DeleteDownstreams` (K:pkg/background/gpol/generate_controller.go), §3.2"},
		{name: "the downstream is modified, then the trigger is updated", event: always(`- patch:
    resource:
      apiVersion: networking.k8s.io/v1
      kind: NetworkPolicy
      metadata:
        name: default-deny
        namespace: team-a
      spec:
        policyTypes: [Ingress]
` + applyOp("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n  labels:\n    env: prod\n    touched: \"yes\"\n")),
			ref: "ClusterPolicy: `manageData` skips an existing downstream without sync (K:pkg/background/generate/data.go), SEMANTICS §2.1. GeneratingPolicy: `GenerateResources` has no synchronize check (K:pkg/cel/libs/context.go), §3.4"},
		{name: "the policy is deleted", event: always(deleteRef("kyverno.io/v1", "ClusterPolicy", "", "default-deny")),
			ref: "ClusterPolicy: `createURForDownstreamDeletion` (K:pkg/policy/generate.go), SEMANTICS §2.4. GeneratingPolicy: `RemoveWatchersForPolicy` (dynamic_watcher.go; K:pkg/policy/policy_controller.go `deletePolicy`), §3.7"},
		{name: "the trigger is deleted", event: always(deleteRef("v1", "Namespace", "", "team-a")),
			ref: "Both: the downstream lives in the Namespace, which the namespace controller empties"},
		{name: "an unmanaged object already has the downstream's name", setup: func(bool, bool) string {
			return applyOp("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n") + "\n" +
				applyOp("apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n  name: default-deny\n  namespace: team-a\nspec:\n  podSelector: {}\n  policyTypes: [Ingress]\n")
		}, event: always(applyOp(netpolNamespace)),
			ref: "ClusterPolicy: sync adopts it (K:pkg/background/generate/generator.go), SEMANTICS §2 consequences. GeneratingPolicy: not managed by this policy and trigger → skipped (K:pkg/cel/libs/context.go), §3.4"},
		{name: "operations [CREATE]: the downstream is deleted", event: always(deleteNetpol),
			policy: func(sync, orphan bool) string {
				return cheatNetpol(sync, orphan, "\n          operations: [CREATE]", bothPolicyTypes)
			}, ref: "ClusterPolicy: background URs have operation \"\" (kyverno#10574), SEMANTICS §2.5 special cases. GeneratingPolicy: the watcher recreates it regardless of operations, §3.6"},
		{name: "operations [CREATE]: the trigger is updated, still matching", event: always(applyOp("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n  labels:\n    env: prod\n    touched: \"yes\"\n")),
			policy: func(sync, orphan bool) string {
				return cheatNetpol(sync, orphan, "\n          operations: [CREATE]", bothPolicyTypes)
			}, ref: "GeneratingPolicy: the UPDATE does not match `operations`, so with sync the UR deletes the downstreams (GENERATING-POLICY §3.9, kyverno#17452). ClusterPolicy: no UR for a non-matching operation"},
		{name: "clone: the source is modified", clone: true, event: always(applyOp("apiVersion: v1\nkind: Secret\nmetadata:\n  name: regcred\n  namespace: platform\ndata:\n  token: Y2hhbmdlZA==\n")),
			ref: "ClusterPolicy: `processRequest` via the clone-source label (handler.go), SEMANTICS §2.2. GeneratingPolicy: `handleUpdate` by source-uid (dynamic_watcher.go), §3.6"},
		{name: "clone: the source is deleted", clone: true, event: always(deleteRef("v1", "Secret", "platform", "regcred")),
			ref: "ClusterPolicy: delete UR for the source (handler.go), SEMANTICS §2.2. GeneratingPolicy: `handleDelete` of a source (dynamic_watcher.go), §3.6"},
		{name: "clone: the downstream is deleted", clone: true, event: always(deleteSecret),
			ref: "as for data: `handleNonTrigger` / `handleDelete`"},
		{name: "clone: the policy is deleted", clone: true, event: always(deleteRef("kyverno.io/v1", "ClusterPolicy", "", "sync-secret")),
			ref: "ClusterPolicy 1.19: `cleanupPatterns` includes clones (PR #16329; K:pkg/policy/generate.go), SEMANTICS §2.4. GeneratingPolicy: `RemoveWatchersForPolicy` keeps objects with source-uid, §3.7"},
	}
}

type cheatCase struct {
	name, text   string
	ev           cheatEvent
	sync, orphan bool
}

func cheatSheetScenarios() []cheatCase {
	var out []cheatCase
	for i, ev := range cheatEvents() {
		for _, sync := range []bool{true, false} {
			for _, orphan := range []bool{false, true} {
				pol := cheatNetpol(sync, orphan, "", bothPolicyTypes)
				if ev.policy != nil {
					pol = ev.policy(sync, orphan)
				}
				setup := applyOp(netpolNamespace)
				if ev.clone {
					pol, setup = cheatClone(sync, orphan), cloneNamespaces
				}
				if ev.setup != nil {
					setup = ev.setup(sync, orphan)
				}
				name := fmt.Sprintf("event%02d-sync-%t-orphan-%t", i, sync, orphan)
				out = append(out, cheatCase{name: name, text: cheatScenario(name, pol, setup, ev.event(sync, orphan)), ev: ev, sync: sync, orphan: orphan})
			}
		}
	}
	return out
}

// downstreamState says what became of the downstream in the event step,
// from one run's timeline.
func downstreamState(res *timeline.Result, clone bool) string {
	ref := "NetworkPolicy team-a/default-deny"
	if clone {
		ref = "Secret team-a/regcred"
	}
	var before, after resource.Object
	var beforeSeen bool
	for s, cluster := range res.Clusters() {
		var found resource.Object
		for _, o := range cluster.Objects() {
			if o.Ref().String() == ref {
				found = o
			}
		}
		if s.StepName == "setup" {
			before, beforeSeen = found, true
		}
		if s.StepName == "event" {
			after = found
		}
	}
	switch {
	case !beforeSeen:
		return "setup failed"
	case before == nil && after == nil:
		return "never created"
	case after == nil:
		return "deleted"
	}
	content := func(o resource.Object) string {
		if clone {
			return fmt.Sprint(o["data"])
		}
		return fmt.Sprint(mapAt(o, "spec")["policyTypes"])
	}
	managed := after.Labels()["app.kubernetes.io/managed-by"] == "kyverno"
	var parts []string
	if before == nil {
		parts = append(parts, "created")
	} else if before.UID() != after.UID() {
		parts = append(parts, "recreated")
	}
	original := "[Ingress Egress]"
	if clone {
		original = "map[token:b3JpZ2luYWw=]"
	}
	switch {
	case content(after) == original:
		parts = append(parts, "as generated")
	case clone:
		parts = append(parts, "source's new content")
	default:
		parts = append(parts, "changed content (Ingress only)")
	}
	if !managed {
		parts = append(parts, "unmanaged")
	}
	return strings.Join(parts, ", ")
}

func mapAt(o resource.Object, k string) map[string]any {
	m, _ := o[k].(map[string]any)
	return m
}

// migrationDoc is docs/migration.md; the part between the markers is
// generated.
const (
	migrationDoc = "../../docs/migration.md"
	beginTable   = "<!-- BEGIN GENERATED: TestMigrationDocIsCurrent; GENPLAY_UPDATE=1 go test ./cmd/genplay -run MigrationDoc -->"
	endTable     = "<!-- END GENERATED -->"
)

func TestMigrationDocIsCurrent(t *testing.T) {
	var b strings.Builder
	b.WriteString(beginTable + "\n\n")
	b.WriteString("| event | synchronize | orphan | ClusterPolicy | GeneratingPolicy (converted) | where the code does it |\n")
	b.WriteString("|---|---|---|---|---|---|\n")
	differ := 0
	for _, c := range cheatSheetScenarios() {
		tests, diags := scenario.Parse(c.name+".yaml", []byte(c.text))
		require.False(t, diags.HasErrors(), "%s: %v", c.name, diags)
		cmp := migrate.Compare(tests[0], engine.Options{Families: families, Permissions: engine.PermissionsUnchecked})
		require.Equal(t, migrate.Full, cmp.Conversion.Status(), "%s converts fully: %v", c.name, cmp.Conversion.Findings)
		legacy, cel := downstreamState(cmp.Legacy, c.ev.clone), downstreamState(cmp.CEL, c.ev.clone)
		require.NotEqual(t, "setup failed", legacy, c.name)
		require.NotEqual(t, "setup failed", cel, c.name)
		mark := ""
		if legacy != cel {
			mark = "**"
			differ++
		}
		fmt.Fprintf(&b, "| %s | %t | %t | %s%s%s | %s%s%s | %s |\n", c.ev.name, c.sync, c.orphan, mark, legacy, mark, mark, cel, mark, c.ev.ref)
	}
	fmt.Fprintf(&b, "\n%d of %d rows differ (in bold).\n\n%s", differ, len(cheatSheetScenarios()), endTable)
	table := b.String()
	// The table must show differences: the families do differ (§3.8).
	assert.Positive(t, differ)

	data, err := os.ReadFile(migrationDoc)
	require.NoError(t, err)
	doc := string(data)
	start, end := strings.Index(doc, beginTable), strings.Index(doc, endTable)
	require.True(t, start >= 0 && end > start, "%s holds the generated table between its markers", migrationDoc)
	updated := doc[:start] + table + doc[end+len(endTable):]
	if os.Getenv("GENPLAY_UPDATE") != "" {
		require.NoError(t, os.WriteFile(migrationDoc, []byte(updated), 0o644))
		t.Logf("wrote %s", migrationDoc)
		return
	}
	assert.Equal(t, doc, updated, "docs/migration.md is stale: GENPLAY_UPDATE=1 go test ./cmd/genplay -run MigrationDoc")
}
