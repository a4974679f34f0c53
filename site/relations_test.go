//go:build !js

package site

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// relation is what the cluster view marks an object as, relative to the
// selected one ("trigger", "downstream", "source", "copy", "policy"), or "".
func (p *page) relation(ref string) string {
	return eval[string](p, fmt.Sprintf(`(() => { const b = document.querySelector('#cluster button.object[data-ref=%s]');
		return b && b.classList.contains('related') ? b.dataset.relation : ''; })()`, js(ref)))
}

// litEdge tells whether the diagram has the edge from → to, lit as on the
// selected object's path, and drawn.
func (p *page) litEdge(from, to string) bool {
	return eval[bool](p, fmt.Sprintf(`!!document.querySelector('#relations .rel-edge.lit[data-from=%s][data-to=%s]') &&
		document.querySelectorAll('#relations svg path.edge.lit').length > 0`, js(from), js(to)))
}

// markedLines is the text of the scenario's lines marked with class cls.
func (p *page) markedLines(cls string) string {
	return eval[string](p, fmt.Sprintf(`[...document.querySelectorAll('#editor .cm-line.%s')].map(l => l.textContent).join('\n')`, cls))
}

func TestPlaygroundRelations(t *testing.T) {
	b := newBrowser(t)

	t.Run("ClusterPolicy: a trigger and its downstream", func(t *testing.T) {
		p := b.page(true)
		p.t = t
		p.open("")
		p.loadExample(netpolExample)
		p.selectObject("Namespace team-a")
		assert.Equal(t, "downstream", p.relation(netpol), "selecting the trigger marks what it generated")
		assert.Equal(t, "", p.relation(policy), "the policy is not the trigger's downstream")
		assert.Equal(t, "", p.relation("Namespace default"), "an unrelated namespace is not marked")
		assert.True(t, p.litEdge("Namespace team-a", netpol), "the diagram shows the trigger → downstream edge")
		assert.Contains(t, p.markedLines("cm-rel-selected"), "name: team-a", "the scenario marks where the trigger is written")
		assert.Contains(t, p.markedLines("cm-rel-downstream"), "namespace: team-a", "and the assert of its downstream")
		p.shot("relations-01-trigger-selected")

		p.selectObject(netpol)
		assert.Equal(t, "trigger", p.relation("Namespace team-a"))
		assert.Equal(t, "policy", p.relation(policy))
		assert.Contains(t, p.markedLines("cm-rel-rule"), "- name: default-deny", "the rule's lines are marked")
		assert.NotContains(t, p.markedLines("cm-rel-rule"), "kind: ClusterPolicy", "only the rule, not the whole policy")
		assert.Contains(t, p.markedLines("cm-rel-trigger"), "name: team-a", "the trigger's lines are marked")
		p.shot("relations-02-downstream-selected")

		// A node of the diagram selects its object.
		p.do(chromedp.Click(chromedp.CSS(`#relations .rel-node.col-trigger`)))
		p.waitFor(`document.querySelector('#details h3')?.textContent === 'Namespace team-a'`, "the trigger selected from the diagram")
	})

	for _, tt := range []struct{ name, file string }{
		{"ClusterPolicy clone: source and copies", "clone-registry-secret.yaml"},
		{"GeneratingPolicy clone: source and copies", "clone-registry-secret-cel.yaml"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := b.page(true)
			p.t = t
			p.open("")
			p.loadExample(tt.file)
			source, cp := "Secret platform/regcred", "Secret team-a/regcred"
			p.selectObject(cp)
			assert.Equal(t, "source", p.relation(source), "selecting a copy marks its clone source")
			assert.Equal(t, "trigger", p.relation("Namespace team-a"))
			assert.True(t, p.litEdge(source, cp), "the diagram shows source → copy")
			assert.True(t, p.litEdge("Namespace team-a", cp), "and trigger → copy")
			assert.Contains(t, p.markedLines("cm-rel-source"), "name: regcred", "the source's lines are marked")
			p.shot("relations-03-copy-selected-" + strings.TrimSuffix(tt.file, ".yaml"))
			p.selectObject(source)
			assert.Equal(t, "copy", p.relation(cp), "selecting the source marks its copies")
			assert.Equal(t, "", p.relation("Namespace team-a"))
		})
	}
}

// elementShot saves a screenshot of the element sel under test-output/.
func (p *page) elementShot(sel, name string) {
	p.t.Helper()
	png, err := chromedp.Run(p.ctx, chromedp.Screenshot(chromedp.CSS(sel)))
	require.NoError(p.t, err)
	require.NoError(p.t, os.MkdirAll(outputDir, 0o755))
	require.NoError(p.t, os.WriteFile(filepath.Join(outputDir, name+".png"), png, 0o644))
	p.t.Logf("screenshot: site/%s/%s.png", outputDir, name)
}

// TestRelationsDiagramGallery loads every gallery example and checks that
// the diagram of its last step shows each object the cluster view says
// Kyverno generated, with an edge from its trigger and one from its rule.
func TestRelationsDiagramGallery(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("examples", "examples.json"))
	require.NoError(t, err)
	var gallery []struct{ File string }
	require.NoError(t, json.Unmarshal(raw, &gallery))
	require.NotEmpty(t, gallery)
	p := newBrowser(t).page(true)
	p.open("")
	for i, ex := range gallery {
		t.Run(ex.File, func(t *testing.T) {
			p.t = t
			p.darkMode(i%2 == 1)
			p.loadExample(ex.File)
			generated := eval[[]string](p, `[...document.querySelectorAll('#cluster button.object.generated')].map(b => b.dataset.ref).sort()`)
			require.NotEmpty(t, generated, "the example generates something")
			nodes := eval[[]string](p, `[...document.querySelectorAll('#relations .rel-node.col-downstream')].map(n => n.dataset.node).sort()`)
			assert.Equal(t, generated, nodes, "one diagram node per downstream")
			for _, ref := range generated {
				from := eval[[]string](p, fmt.Sprintf(`[...document.querySelectorAll('#relations .rel-edge.generate')].filter(e => e.dataset.to === %s).map(e => e.dataset.from)`, js(ref)))
				require.Len(t, from, 1, "one trigger edge into %s", ref)
				assert.True(t, eval[bool](p, fmt.Sprintf(`[...document.querySelectorAll('#relations .rel-edge.generate')].some(e => e.dataset.to === %s)`, js(from[0]))),
					"an edge from the rule into the trigger %s of %s", from[0], ref)
			}
			assert.Equal(t, eval[int](p, `document.querySelectorAll('#relations .rel-edge').length`),
				eval[int](p, `document.querySelectorAll('#relations svg path.edge').length`), "every edge is drawn")
			p.elementShot("#relations", "relations-gallery-"+strings.TrimSuffix(ex.File, ".yaml"))
		})
	}
}

// timelineSummaries lists the timeline's steps' summaries in order.
func (p *page) timelineSummaries() []string {
	return eval[[]string](p, `[...document.querySelectorAll('#timeline > li.step')].map(li => li.querySelector('.step-button').childNodes[4]?.textContent || '')`)
}

// clickStepTool clicks a tool (move-up, move-down, remove-step, ...) of the
// timeline step whose summary is summary, and waits for the run.
func (p *page) clickStepTool(summary, action string) {
	p.t.Helper()
	i := -1
	for k, s := range p.timelineSummaries() {
		if s == summary {
			i = k
		}
	}
	require.GreaterOrEqual(p.t, i, 0, "no step %q in %v", summary, p.timelineSummaries())
	sel := fmt.Sprintf(`#timeline li.step[data-index="%d"] button[data-action=%s]`, i, js(action))
	require.True(p.t, eval[bool](p, fmt.Sprintf(`!!document.querySelector(%s) && !document.querySelector(%s).disabled`, js(sel), js(sel))), "an enabled %s on %q", action, summary)
	p.afterRun(func() { p.do(chromedp.Click(chromedp.CSS(sel))) })
}

// clickLineNumber clicks the scenario's n-th line (1-based) as a user does.
func (p *page) clickLineNumber(n int) {
	p.t.Helper()
	eval[chromedp.Void](p, fmt.Sprintf(`(() => { const v = document.querySelector('#editor .cm-scroller');
		const line = %d; v.scrollTop = Math.max(0, (line - 5) * 19); })()`, n))
	p.waitFor(fmt.Sprintf(`[...document.querySelectorAll('#editor .cm-gutterElement')].some(g => g.textContent === '%d')`, n), "the line in view")
	// The line's element is the content line at the gutter's height.
	xy := eval[[]float64](p, fmt.Sprintf(`(() => { const g = [...document.querySelectorAll('#editor .cm-lineNumbers .cm-gutterElement')].find(g => g.textContent === '%d');
		const r = g.getBoundingClientRect(); const c = document.querySelector('#editor .cm-content').getBoundingClientRect();
		return [c.left + 40, r.top + r.height / 2]; })()`, n))
	p.do(chromedp.MouseClickXY(xy[0], xy[1]))
}

func TestPlaygroundStepManagement(t *testing.T) {
	p := newBrowser(t).page(true)
	p.open("")
	p.loadExample(netpolExample)
	text := exampleText(t, netpolExample)
	lineOf := func(s string) int { return strings.Count(text[:strings.Index(text, s)], "\n") + 1 }

	t.Run("clicking a step marks and reveals its lines", func(t *testing.T) {
		p.t = t
		p.do(chromedp.Click(chromedp.CSS(`#timeline li.step[data-index="2"] .step-button`)))
		p.waitFor(`document.querySelector('#timeline li.step.selected')?.dataset.index === '2'`, "step 3 selected")
		marked := p.markedLines("cm-step-line")
		assert.Contains(t, marked, "- apply:")
		assert.Contains(t, marked, "name: team-a", "the step's lines are those of its operation")
		assert.NotContains(t, marked, "kind: ClusterPolicy", "and no other's")
		assert.True(t, eval[bool](p, `(() => { const l = document.querySelector('#editor .cm-line.cm-step-line'); const s = document.querySelector('#editor .cm-scroller').getBoundingClientRect();
			const r = l.getBoundingClientRect(); return r.top >= s.top && r.bottom <= s.bottom; })()`), "the step's first line is in view")
		p.shot("steps-01-step-lines")
	})

	t.Run("the cursor in a step's lines selects the step", func(t *testing.T) {
		p.t = t
		p.clickLineNumber(lineOf("kind: ClusterPolicy"))
		p.waitFor(`document.querySelector('#timeline li.step.selected')?.dataset.index === '0'`, "step 1 selected from its line")
		p.clickLineNumber(lineOf("namespace: team-a"))
		p.waitFor(`document.querySelector('#timeline li.step.selected')?.dataset.index === '3'`, "step 4 selected from its line")
		assert.Contains(t, eval[string](p, `document.querySelector('#cluster-step').textContent`), "after step 4")
	})

	t.Run("a step moves", func(t *testing.T) {
		p.t = t
		p.selectObject("Namespace team-a")
		p.act("add-another")
		require.Equal(t, "create Namespace team-a-2", p.timelineSummaries()[4])
		p.clickStepTool("create Namespace team-a-2", "move-up")
		assert.Equal(t, []string{"apply ClusterPolicy default-deny", "assert ClusterPolicy default-deny", "create Namespace team-a-2",
			"apply Namespace team-a", "assert NetworkPolicy team-a/default-deny"}, p.timelineSummaries())
		after := p.text()
		assert.Less(t, strings.Index(after, "create Namespace team-a-2"), strings.Index(after, "- name: create a namespace"), "the step moved in the scenario")
		p.shot("steps-02-moved")
	})

	t.Run("a removed step is gone from the scenario", func(t *testing.T) {
		p.t = t
		n := len(p.timelineSummaries())
		p.clickStepTool("create Namespace team-a-2", "remove-step")
		assert.NotContains(t, p.text(), "team-a-2", "the step is gone from the scenario")
		assert.Len(t, p.timelineSummaries(), n-1, "the run has one step less")
		assert.Equal(t, text, p.text(), "and the scenario is as it was before the step was added")
	})

	t.Run("an operation is removed from its step", func(t *testing.T) {
		p.t = t
		p.clickStepTool("assert NetworkPolicy team-a/default-deny", "remove-step")
		assert.NotContains(t, p.text(), "namespace: team-a", "the assert is gone")
		assert.Contains(t, p.text(), "- name: create a namespace", "its step stays")
		assert.Equal(t, []string{"apply ClusterPolicy default-deny", "assert ClusterPolicy default-deny", "apply Namespace team-a"}, p.timelineSummaries())
		p.shot("steps-03-operation-removed")
	})

	t.Run("a step of several operations moves and goes whole", func(t *testing.T) {
		p.t = t
		p.clickStepTool("apply ClusterPolicy default-deny", "move-chainsaw-step-down")
		assert.Equal(t, []string{"apply Namespace team-a", "apply ClusterPolicy default-deny", "assert ClusterPolicy default-deny"}, p.timelineSummaries())
		assert.False(t, p.hasObject(netpol), "created before the policy, team-a gets no NetworkPolicy")
		p.clickStepTool("apply ClusterPolicy default-deny", "remove-chainsaw-step")
		assert.Equal(t, []string{"apply Namespace team-a"}, p.timelineSummaries())
		assert.NotContains(t, p.text(), "create the policy")
		assert.True(t, eval[bool](p, `document.querySelector('#timeline li.step button[data-action="remove-step"]').disabled`), "the last step cannot be removed")
	})
}
