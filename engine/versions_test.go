package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/hostile"
	"github.com/genplay/genplay/engine/timeline"
)

// CompareVersions runs the latest release first and stops at a run that
// cannot be compared, so that hostile input and input that cannot run
// cost one run, not one per release.
func TestCompareVersionsStopsAtARunThatCannotBeCompared(t *testing.T) {
	compare := func(data []byte) (ran []string, c *timeline.VersionComparison, stop *timeline.Result, release string) {
		c, stop, release = CompareVersionsWith(Options{}, func(o Options) *timeline.Result {
			ran = append(ran, o.KyvernoVersion)
			return Run("in.yaml", data, o)
		})
		return ran, c, stop, release
	}
	versions := KyvernoVersions()
	latest := versions[len(versions)-1]

	t.Run("a scenario that runs is run under every release, the latest first", func(t *testing.T) {
		ran, c, stop, _ := compare([]byte("apiVersion: chainsaw.kyverno.io/v1alpha1\nkind: Test\nmetadata: {name: ns}\nspec:\n  steps:\n  - try:\n    - apply: {resource: {apiVersion: v1, kind: Namespace, metadata: {name: team-a}}}\n"))
		require.Nil(t, stop)
		require.NotNil(t, c)
		assert.Equal(t, []string{"v1.19.1", "v1.19.0", "v1.18.2"}, ran)
		assert.Equal(t, versions, c.Versions)
	})

	t.Run("input that cannot run costs one run", func(t *testing.T) {
		ran, c, stop, release := compare([]byte("kind: Test\nspec: [\n"))
		assert.Nil(t, c)
		require.NotNil(t, stop)
		assert.True(t, Unrunnable(stop))
		assert.Equal(t, []string{latest}, ran)
		assert.Equal(t, latest, release)
	})

	t.Run("a run a limit stops costs one run", func(t *testing.T) {
		limited := 0
		for _, in := range hostile.Runaway() {
			if !LimitStopped(Run(in.Name, in.Data, Options{})) {
				continue
			}
			limited++
			ran, c, stop, release := compare(in.Data)
			assert.Nil(t, c, in.Name)
			require.NotNil(t, stop, in.Name)
			assert.True(t, LimitStopped(stop), in.Name)
			assert.Equal(t, []string{latest}, ran, in.Name)
			assert.Equal(t, latest, release, in.Name)
		}
		assert.Positive(t, limited, "some runaway input is stopped by a limit")
	})
}
