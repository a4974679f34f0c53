//go:build !js

package site

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/site/examples"
)

var (
	cliOnce sync.Once
	cliPath string
	cliErr  error
)

// genplayCLI builds cmd/genplay once for the tests that run what the page
// exported through genplay test.
func genplayCLI(t *testing.T) string {
	t.Helper()
	cliOnce.Do(func() {
		dir, err := os.MkdirTemp("", "genplay-cli-")
		if err != nil {
			cliErr = err
			return
		}
		cliPath = filepath.Join(dir, "genplay")
		out, err := exec.Command("go", "build", "-o", cliPath, "github.com/genplay/genplay/cmd/genplay").CombinedOutput()
		if err != nil {
			cliErr = fmt.Errorf("go build ./cmd/genplay: %v\n%s", err, out)
		}
	})
	require.NoError(t, cliErr)
	return cliPath
}

// genplayTestFile runs genplay test on text and returns its output and exit code.
func genplayTestFile(t *testing.T, name, text string) (string, int) {
	t.Helper()
	file := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(file, []byte(text), 0o644))
	out, err := exec.Command(genplayCLI(t), "test", file).CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return string(out), code
}

// exportAsTest clicks Export as test and returns the file the dialog shows.
func (p *page) exportAsTest() string {
	p.t.Helper()
	p.do(chromedp.Click(chromedp.CSS("#export-checks")))
	p.waitFor(`['done', 'error'].includes(document.querySelector('#export-test-dialog')?.dataset.state)`, "the export")
	require.Equal(p.t, "done", eval[string](p, `document.querySelector('#export-test-dialog').dataset.state`),
		"the export failed: %s", eval[string](p, `document.querySelector('#export-test-error').textContent`))
	return eval[string](p, `document.querySelector('#export-test-text').value`)
}

// TestPlaygroundExportAsTest: a user deletes the downstream (Kyverno
// recreates it), exports the scenario as a test, and the file passes genplay
// test; with synchronize flipped in the file, it fails at the check that
// Kyverno recreated the downstream.
func TestPlaygroundExportAsTest(t *testing.T) {
	p := newBrowser(t).page(true)
	p.open("")
	p.loadExample(netpolExample)
	p.selectObject(netpol)
	p.act("delete")
	require.True(t, hasEvent(p.lastStepEvents(), "recreated", netpol))

	text := p.exportAsTest()
	p.shot("export-as-test")
	scenario := eval[string](p, `genplayPlayground.text()`)
	assert.True(t, strings.HasPrefix(text, scenario[:strings.Index(scenario, "apiVersion:")]), "the scenario's comments are kept")
	// The example asserts the policy's readiness right after applying it,
	// so the export adds no wait of its own (engine/export).
	assert.NotContains(t, text, "# genplay: wait until Kyverno reports ClusterPolicy default-deny ready")
	assert.Contains(t, text, "# genplay: Kyverno recreated NetworkPolicy team-a/default-deny")
	assert.Contains(t, eval[string](p, `document.querySelector('#export-test-summary').textContent`), "2 asserts and 0 absence checks")
	assert.Equal(t, "Exported as a test: 2 asserts, 0 absence checks.", eval[string](p, `document.querySelector('#status').textContent`))

	out, code := genplayTestFile(t, "exported.yaml", text)
	assert.Equal(t, 0, code, "the exported test passes genplay test:\n%s", out)
	assert.Contains(t, out, "PASS")

	require.Equal(t, 1, strings.Count(text, "synchronize: true"))
	out, code = genplayTestFile(t, "changed.yaml", strings.Replace(text, "synchronize: true", "synchronize: false", 1))
	assert.Equal(t, 1, code, "with synchronize off the exported test fails:\n%s", out)
	assert.Contains(t, out, "assert NetworkPolicy team-a/default-deny", "at the check that Kyverno recreated the downstream")

	t.Run("a scenario that fails says why and exports nothing", func(t *testing.T) {
		p.t = t
		p.do(chromedp.Click(chromedp.CSS("#export-test-close")))
		broken := strings.Replace(scenario, "type: Ready", "type: NotReady", 1) // the example's readiness assert fails
		require.NotEqual(t, scenario, broken)
		p.importScenario(broken)
		p.do(chromedp.Click(chromedp.CSS("#export-checks")))
		p.waitFor(`document.querySelector('#export-test-dialog')?.dataset.state === 'error'`, "the export's error")
		assert.Contains(t, eval[string](p, `document.querySelector('#export-test-error').textContent`), "Cannot export: the scenario fails")
		assert.Empty(t, eval[string](p, `document.querySelector('#export-test-text').value`))
		p.shot("export-as-test-error")
	})
}

// TestPlaygroundAbout: the About panel shows the Kyverno version genplay
// follows and the differences engine/doc.go lists.
func TestPlaygroundAbout(t *testing.T) {
	var about struct {
		Kyverno     string   `json:"kyverno"`
		Differences []string `json:"differences"`
	}
	data, err := os.ReadFile("src/about.json")
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &about))
	require.Equal(t, engine.KyvernoVersion, about.Kyverno)

	p := newBrowser(t).page(true)
	p.open("")
	p.do(chromedp.Click(chromedp.CSS("#about")))
	p.waitFor(`document.querySelector('#about-dialog').open`, "the About panel")
	assert.Contains(t, eval[string](p, `document.querySelector('#about-version').textContent`), "the default is the latest, "+engine.KyvernoVersion,
		"the panel names the release simulated by default")
	items := eval[[]string](p, `[...document.querySelectorAll('#about-differences li')].map((li) => li.textContent)`)
	assert.Equal(t, about.Differences, items)
	require.NotEmpty(t, items)
	assert.True(t, strings.HasPrefix(items[0], "Time is logical."), items[0])
	p.shot("about")
	p.do(chromedp.Click(chromedp.CSS("#about-close")))
	p.waitFor(`!document.querySelector('#about-dialog').open`, "the About panel to close")
}

// TestPlaygroundReasonLinks: a reason in the timeline links to the Kyverno
// docs section it comes from, for both families.
func TestPlaygroundReasonLinks(t *testing.T) {
	p := newBrowser(t).page(true)
	p.open("")
	links := func() map[string]string {
		return eval[map[string]string](p, `Object.fromEntries([...document.querySelectorAll('#timeline .event')]
			.filter((e) => e.querySelector('.doc-link'))
			.map((e) => [e.dataset.action + ' ' + (e.querySelector('.ref')?.textContent || ''), e.querySelector('.doc-link').href]))`)
	}
	p.loadExample(netpolExample)
	p.selectObject(netpol)
	p.act("delete")
	got := links()
	assert.Equal(t, "https://kyverno.io/docs/policy-types/cluster-policy/generate/", got["created "+netpol], "%v", got)
	assert.Equal(t, "https://kyverno.io/docs/policy-types/cluster-policy/generate/#data-source", got["recreated "+netpol], "%v", got)
	p.shot("reason-links")

	p.loadExample("generate-existing-cel.yaml")
	p.waitFor(`document.querySelector('#timeline .doc-link')`, "a reason's link")
	found := false
	for _, href := range links() {
		if href == "https://kyverno.io/docs/policy-types/generating-policy/#generating-for-existing-resources" {
			found = true
		}
	}
	assert.True(t, found, "a generateExisting reason links to the GeneratingPolicy docs: %v", links())

	t.Run("every link of the gallery goes to a section kyverno.io has", func(t *testing.T) {
		p.t = t
		// The sections of the two pages, as their headings are written in
		// kyverno/website (src/content/docs/docs/policy-types/).
		const cpol, gpol = "https://kyverno.io/docs/policy-types/cluster-policy/generate/", "https://kyverno.io/docs/policy-types/generating-policy/"
		known := map[string]bool{cpol: true, gpol: true}
		for _, a := range []string{"data-source", "clone-source", "cloning-multiple-resources", "foreach", "linking-trigger-with-downstream",
			"generate-for-existing-resources", "how-it-works"} {
			known[cpol+"#"+a] = true
		}
		for _, a := range []string{"synchronization", "synchronization-with-a-clone-source", "generating-for-existing-resources",
			"policy-scope", "generator-library"} {
			known[gpol+"#"+a] = true
		}
		list, err := examples.All()
		require.NoError(t, err)
		seen := map[string]bool{}
		for _, ex := range list {
			p.loadExample(ex.File)
			for event, href := range links() {
				assert.True(t, known[href], "%s: %s links to %s", ex.File, event, href)
				seen[href] = true
			}
		}
		assert.GreaterOrEqual(t, len(seen), 5, "the gallery's reasons link to several sections: %v", seen)
		t.Logf("sections linked from the gallery: %v", seen)
	})
}
