package main

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/migrate"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/engine/source"
	"github.com/genplay/genplay/engine/timeline"
	"github.com/genplay/genplay/internal/oracle/corpus"
)

// The cheat sheet's ClusterPolicy cases (engine/testdata/cases/cheatsheet/
// clusterpolicy: a default-deny NetworkPolicy from data and a registry
// Secret from clone, with synchronize and orphan on and off, under every
// event of SEMANTICS.md §2.5 / GENERATING-POLICY.md §3.8), run by genplay
// under both families. TestMigrationDocIsCurrent writes the table of
// docs/migration.md from these runs; TestMigrateRoundTrip converts every
// case.

// cheatSheetDir is the ClusterPolicy cases of the cheat sheet.
var cheatSheetDir = filepath.Join("..", "..", "engine", "testdata", "cases", "cheatsheet", "clusterpolicy")

// migrationRow is one event of the table, the folder of its four cases.
type migrationRow struct {
	dir, name string
	// ref is the code reference of both families' behaviour.
	ref string
}

// migrationRows are the table's events, in order.
var migrationRows = []migrationRow{
	{"data/downstream-modified", "the downstream is modified",
		"ClusterPolicy: `handleNonTrigger` (K:pkg/webhooks/resource/generation/handler.go), SEMANTICS §2.2. GeneratingPolicy: `WatchManager.handleUpdate` (K:pkg/background/gpol/dynamic_watcher.go), GENERATING-POLICY §3.6"},
	{"data/downstream-deleted", "the downstream is deleted",
		"ClusterPolicy: `handleNonTrigger` → UR (handler.go), SEMANTICS §2.2. GeneratingPolicy: `handleDelete` POSTs the cached copy (dynamic_watcher.go), §3.6"},
	{"data/downstream-deleted-twice", "the downstream is deleted a second time",
		"GeneratingPolicy: v1.19.1 tracks the recreated copy (`handleDelete`, dynamic_watcher.go; kyverno#17453); v1.19.0's cache kept the first UID (kyverno#17265), GENERATING-POLICY §3.6"},
	{"data/policy-data-updated", "the policy's data is updated",
		"ClusterPolicy: `syncDataPolicyChanges` (K:pkg/policy/generate.go), SEMANTICS §2.2. GeneratingPolicy: `createURForGeneratingPolicy` invalidates the cache and regenerates in place in v1.19.1 (`InvalidateDownstreams`, kyverno#16920; v1.19.0 deleted then regenerated, K:pkg/policy/gpol.go), §3.7"},
	{"data/trigger-no-longer-matches", "the trigger no longer matches",
		"ClusterPolicy: `filterRule` → `syncTriggerAction` (K:pkg/engine/background.go). GeneratingPolicy: `ProcessUR`, nil result → `DeleteDownstreams` (K:pkg/background/gpol/generate_controller.go), §3.2"},
	{"data/downstream-modified-then-trigger-updated", "the downstream is modified, then the trigger is updated",
		"ClusterPolicy: `manageData` skips an existing downstream without sync (K:pkg/background/generate/data.go), SEMANTICS §2.1. GeneratingPolicy: `GenerateResources` has no synchronize check (K:pkg/cel/libs/context.go), §3.4"},
	{"data/policy-deleted", "the policy is deleted",
		"ClusterPolicy: `createURForDownstreamDeletion` (K:pkg/policy/generate.go), SEMANTICS §2.4. GeneratingPolicy: `RemoveWatchersForPolicy` (dynamic_watcher.go; K:pkg/policy/policy_controller.go `deletePolicy`), §3.7"},
	{"data/trigger-deleted", "the trigger is deleted",
		"Both: the downstream lives in the Namespace, which the namespace controller empties"},
	{"data/unmanaged-object-has-the-name", "an unmanaged object already has the downstream's name",
		"ClusterPolicy: sync adopts it (K:pkg/background/generate/generator.go), SEMANTICS §2 consequences. GeneratingPolicy: not managed by this policy and trigger → skipped (K:pkg/cel/libs/context.go), §3.4"},
	{"data/operations-create-downstream-deleted", "operations [CREATE]: the downstream is deleted",
		"ClusterPolicy: background URs have operation \"\" (kyverno#10574), SEMANTICS §2.5 special cases. GeneratingPolicy: the watcher recreates it regardless of operations, §3.6"},
	{"data/operations-create-trigger-updated", "operations [CREATE]: the trigger is updated, still matching",
		"GeneratingPolicy: the UPDATE does not match `operations`, so with sync the UR deletes the downstreams (GENERATING-POLICY §3.9, kyverno#17452). ClusterPolicy: no UR for a non-matching operation"},
	{"clone/source-modified", "clone: the source is modified",
		"ClusterPolicy: `processRequest` via the clone-source label (handler.go), SEMANTICS §2.2. GeneratingPolicy: `handleUpdate` by source-uid (dynamic_watcher.go), §3.6"},
	{"clone/source-deleted", "clone: the source is deleted",
		"ClusterPolicy: delete UR for the source (handler.go), SEMANTICS §2.2. GeneratingPolicy: `handleDelete` of a source (dynamic_watcher.go), §3.6"},
	{"clone/downstream-modified", "clone: the downstream is modified",
		"as for data: `handleNonTrigger` / `handleUpdate`"},
	{"clone/downstream-deleted", "clone: the downstream is deleted",
		"as for data: `handleNonTrigger` / `handleDelete`"},
	{"clone/policy-deleted", "clone: the policy is deleted",
		"ClusterPolicy 1.19: `cleanupPatterns` includes clones (PR #16329; K:pkg/policy/generate.go), SEMANTICS §2.4. GeneratingPolicy: `RemoveWatchersForPolicy` keeps objects with source-uid, §3.7"},
}

// cheatCase is one case of the table: an event's folder with a setting.
type cheatCase struct {
	row          migrationRow
	sync, orphan bool
	file, text   string
}

// cheatSheetScenarios reads the table's cases, in its order.
func cheatSheetScenarios(t *testing.T) []cheatCase {
	t.Helper()
	var out []cheatCase
	for _, row := range migrationRows {
		for _, sync := range []bool{true, false} {
			for _, orphan := range []bool{false, true} {
				file := filepath.Join(cheatSheetDir, filepath.FromSlash(row.dir), fmt.Sprintf("sync-%t-orphan-%t.yaml", sync, orphan))
				data, err := os.ReadFile(file)
				require.NoError(t, err)
				out = append(out, cheatCase{row: row, sync: sync, orphan: orphan, file: file, text: string(data)})
			}
		}
	}
	return out
}

// cheatSheetCase reads one case of the cheat sheet's ClusterPolicy folder.
func cheatSheetCase(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(cheatSheetDir, filepath.FromSlash(name)+".yaml"))
	require.NoError(t, err)
	return string(data)
}

// cheatSheetFiles lists every case of the cheat sheet's ClusterPolicy
// folder (slash paths relative to it).
func cheatSheetFiles(t *testing.T) []string {
	t.Helper()
	var out []string
	require.NoError(t, fs.WalkDir(os.DirFS(cheatSheetDir), ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && path.Ext(p) == ".yaml" {
			out = append(out, p)
		}
		return err
	}))
	require.NotEmpty(t, out)
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
	case clone && content(after) == "map[token:cm90YXRlZA==]": // the cases' new content of the source
		parts = append(parts, "source's new content")
	case clone:
		parts = append(parts, "changed content (the user's token)")
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
	// Every event of the data and clone folders is a row.
	rows := map[string]bool{}
	for _, r := range migrationRows {
		rows[r.dir] = true
	}
	for _, f := range cheatSheetFiles(t) {
		if dir := path.Dir(f); strings.HasPrefix(dir, "data/") || strings.HasPrefix(dir, "clone/") {
			assert.True(t, rows[dir], "%s is an event of the cheat sheet but not a row of the table (migrationRows)", dir)
		}
	}
	var b strings.Builder
	b.WriteString(beginTable + "\n\n")
	b.WriteString("| event | synchronize | orphan | ClusterPolicy | GeneratingPolicy (converted) | where the code does it |\n")
	b.WriteString("|---|---|---|---|---|---|\n")
	differ := 0
	cases := cheatSheetScenarios(t)
	for _, c := range cases {
		tests, diags := scenario.Parse(c.file, []byte(c.text))
		require.False(t, diags.HasErrors(), "%s: %v", c.file, diags)
		if os.Getenv(corpus.Env) != "" {
			// The case converted, for make oracle-record (which records the
			// case as written from its file).
			docs, diags := source.Parse(c.file, []byte(c.text))
			require.False(t, diags.HasErrors(), "%s: %v", c.file, diags)
			converted, _, err := migrate.ConvertTestDocument(docs[0])
			require.NoError(t, err, c.file)
			rel := filepath.ToSlash(strings.TrimPrefix(c.file, filepath.Join("..", "..")+string(filepath.Separator)))
			corpus.Write(t, fmt.Sprintf("migrate-%s/sync-%t-orphan-%t", c.row.dir, c.sync, c.orphan), "genplay migrate "+rel, converted)
		}
		cmp := migrate.Compare(tests[0], engine.Options{Families: families, Permissions: engine.PermissionsUnchecked})
		require.Equal(t, migrate.Full, cmp.Conversion.Status(), "%s converts fully: %v", c.file, cmp.Conversion.Findings)
		clone := strings.HasPrefix(c.row.dir, "clone/")
		legacy, cel := downstreamState(cmp.Legacy, clone), downstreamState(cmp.CEL, clone)
		require.NotEqual(t, "setup failed", legacy, c.file)
		require.NotEqual(t, "setup failed", cel, c.file)
		mark := ""
		if legacy != cel {
			mark = "**"
			differ++
		}
		fmt.Fprintf(&b, "| %s | %t | %t | %s%s%s | %s%s%s | %s |\n", c.row.name, c.sync, c.orphan, mark, legacy, mark, mark, cel, mark, c.row.ref)
	}
	fmt.Fprintf(&b, "\n%d of %d rows differ (in bold).\n\n%s", differ, len(cases), endTable)
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
