//go:build !js

package site

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/source"
	"github.com/genplay/genplay/engine/timeline"
)

// TestThePagesReaderAgreesWithTheEngines reads the engine's golden
// timelines (format v2) with the playground's reader (src/reader.js,
// under Node) and with the engine's (engine/timeline): the cluster after
// every step must be the same objects in the same order. And the page's
// diff (src/diff.js) of the same two texts must be the engine's
// (source.Diff), for every change in them.
func TestThePagesReaderAgreesWithTheEngines(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("node is not installed; make test needs it")
		}
		t.Skip("node is not installed")
	}
	var files []string
	for _, g := range []string{"../engine/testdata/scenarios/*.golden.json", "../engine/testdata/golden/examples/*.json"} {
		m, err := filepath.Glob(g)
		require.NoError(t, err)
		files = append(files, m...)
	}
	require.NotEmpty(t, files)
	type diffCase struct {
		A     string `json:"a"`
		B     string `json:"b"`
		AName string `json:"aName"`
		BName string `json:"bName"`
		want  string
	}
	var results []*timeline.Result
	var raw []json.RawMessage
	var diffs []diffCase
	yaml := func(o resource.Object) string {
		if o == nil {
			return ""
		}
		b, err := source.Marshal(map[string]any(o))
		require.NoError(t, err)
		return string(b)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		res, err := timeline.Decode(data)
		require.NoError(t, err, f)
		results = append(results, res)
		raw = append(raw, data)
		c := timeline.NewCluster(res.Initial)
		for i := range res.Steps {
			st := &res.Steps[i]
			for j := range st.Changes {
				ch := &st.Changes[j]
				before := c.Get(ch.Object)
				if ch.Diff != "" || (before == nil && ch.After == nil) {
					continue
				}
				name := ch.Object.String()
				d := diffCase{A: yaml(before), B: yaml(ch.After), AName: name + " (before)", BName: name + " (after)"}
				d.want = source.Diff(d.AName, d.BName, []byte(d.A), []byte(d.B))
				diffs = append(diffs, d)
			}
			c.Apply(st)
		}
	}
	// Texts with several hunks and changes at the ends.
	for _, p := range [][2]string{
		{"a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\n", "a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nK\nl\n"},
		{"x\ny\n", "y\nz\n"},
		{"one\n", "one\ntwo\n"},
	} {
		d := diffCase{A: p[0], B: p[1], AName: "a", BName: "b"}
		d.want = source.Diff("a", "b", []byte(p[0]), []byte(p[1]))
		diffs = append(diffs, d)
	}
	req, err := json.Marshal(map[string]any{"results": raw, "diffs": diffs})
	require.NoError(t, err)
	cmd := exec.Command(node, filepath.Join("testdata", "reader.mjs"))
	cmd.Stdin = bytes.NewReader(req)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "node: %s (run npm ci in site/)", stderr.String())
	var got struct {
		Clusters [][][]map[string]any `json:"clusters"`
		Diffs    []string             `json:"diffs"`
	}
	require.NoError(t, json.Unmarshal(out, &got))
	require.Len(t, got.Clusters, len(results))
	for k, res := range results {
		require.Len(t, got.Clusters[k], len(res.Steps)+1, files[k])
		for i := -1; i < len(res.Steps); i++ {
			want, err := json.Marshal(res.ClusterAfter(i).Objects())
			require.NoError(t, err)
			have, err := json.Marshal(got.Clusters[k][i+1])
			require.NoError(t, err)
			if !assert.JSONEq(t, string(want), string(have), "%s: the cluster after step %d", files[k], i) {
				return
			}
		}
	}
	require.Len(t, got.Diffs, len(diffs))
	for i, d := range diffs {
		assert.Equal(t, d.want, got.Diffs[i], "diff %d (%s)", i, d.AName)
	}
	t.Logf("%d timelines, %d diffs", len(results), len(diffs))
}
