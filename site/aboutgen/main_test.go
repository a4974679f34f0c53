package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine"
)

// TestAboutIsCurrent fails when site/src/about.json is not what engine/doc.go
// and engine.KyvernoVersion say: run go run ./site/aboutgen (make site does).
func TestAboutIsCurrent(t *testing.T) {
	src, err := os.ReadFile("../../engine/doc.go")
	require.NoError(t, err)
	want, err := Generate(src)
	require.NoError(t, err)
	got, err := os.ReadFile("../src/about.json")
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got), "site/src/about.json is stale: run go run ./site/aboutgen")
}

func TestGenerateReadsTheDifferences(t *testing.T) {
	src, err := os.ReadFile("../../engine/doc.go")
	require.NoError(t, err)
	data, err := Generate(src)
	require.NoError(t, err)
	var a About
	require.NoError(t, json.Unmarshal(data, &a))
	assert.Equal(t, engine.KyvernoVersion, a.Kyverno)
	// As many items as doc.go's list has bullets under the heading.
	section := string(src)[strings.Index(string(src), "# "+Heading):]
	if end := strings.Index(section[2:], "\n// # "); end > 0 {
		section = section[:end+2]
	}
	assert.Equal(t, strings.Count(section, "\n//   - "), len(a.Differences))
	assert.True(t, strings.HasPrefix(a.Differences[0], "Time is logical."), a.Differences[0])
	for _, d := range a.Differences {
		assert.NotContains(t, d, "//", "comment markers are gone")
	}

	assert.Equal(t, engine.KyvernoVersions(), func() []string {
		var out []string
		for _, v := range a.Versions {
			out = append(out, v.Version)
		}
		return out
	}(), "every simulated release, oldest first")
	families := map[string]bool{}
	for _, ch := range a.Changes {
		families[ch.Family] = true
		assert.NotEmpty(t, ch.Title)
		assert.Contains(t, ch.URL, "https://github.com/kyverno/kyverno/")
	}
	assert.True(t, families["GeneratingPolicy"] && families["ClusterPolicy/Policy"], "the changes of both families: %v", families)

	_, err = Generate([]byte("// Package engine has no such heading.\npackage engine\n"))
	assert.Error(t, err)
}

// TestMakefileFollowsTheEngine: the Kyverno CLI the differential tests build
// is the version the engine follows.
func TestMakefileFollowsTheEngine(t *testing.T) {
	mk, err := os.ReadFile("../../Makefile")
	require.NoError(t, err)
	assert.Contains(t, string(mk), "KYVERNO_VERSION ?= "+engine.KyvernoVersion+"\n")
}
