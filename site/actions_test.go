//go:build !js

package site

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
	k8syaml "sigs.k8s.io/yaml"

	"github.com/genplay/genplay/site/examples"
)

// restyle writes an example as a user may have it: "json" as kubectl get
// -o json prints (four-space indent), "flow" with its steps as a YAML flow
// sequence ([...]), "yaml" as written.
func restyle(t *testing.T, text, style string) string {
	t.Helper()
	switch style {
	case "json":
		j, err := k8syaml.YAMLToJSON([]byte(text))
		require.NoError(t, err)
		var v any
		require.NoError(t, json.Unmarshal(j, &v))
		out, err := json.MarshalIndent(v, "", "    ")
		require.NoError(t, err)
		return string(out) + "\n"
	case "flow":
		var doc yaml.Node
		require.NoError(t, yaml.Unmarshal([]byte(text), &doc))
		root := doc.Content[0]
		for i := 0; i+1 < len(root.Content); i += 2 {
			if root.Content[i].Value != "spec" {
				continue
			}
			spec := root.Content[i+1]
			for j := 0; j+1 < len(spec.Content); j += 2 {
				if spec.Content[j].Value == "steps" {
					spec.Content[j+1].Style = yaml.FlowStyle
				}
			}
		}
		out, err := yaml.Marshal(&doc)
		require.NoError(t, err)
		return string(out)
	}
	return text
}

// chainsawSteps are a scenario's steps as data.
func chainsawSteps(t *testing.T, text string) []any {
	t.Helper()
	var v struct {
		Spec struct {
			Steps []any `json:"steps"`
		} `json:"spec"`
	}
	require.NoError(t, k8syaml.Unmarshal([]byte(text), &v), "the scenario parses:\n%s", text)
	return v.Spec.Steps
}

// walked is what one action did (walkActions).
type walked struct {
	Ref, Action, Label string
	Ran                bool
	Text, Status, Kind string
	Events             []string
	Undone             string
	UndoRan            bool
}

// walkActions clicks, in the page, every action the details pane offers on
// every object of the cluster at the last step (the dialogs' Edit and
// Convert aside) and the background scan; after each it records the text,
// the status and the last step's events, and presses Undo.
const walkActions = `(async () => {
	const runs = () => Number(document.body.dataset.runs || 0);
	const settle = async (n) => {
		const until = performance.now() + 20000;
		while (runs() <= n && performance.now() < until) await new Promise((r) => setTimeout(r, 5));
		return runs() > n;
	};
	const status = () => document.querySelector('#status');
	const events = () => [...document.querySelectorAll('#timeline > li.step:last-child .event')]
		.map((e) => e.dataset.actor + ' ' + e.dataset.action + ' ' + (e.querySelector('.ref')?.textContent || ''));
	const select = (ref) => {
		const b = document.querySelector('#cluster button.object[data-ref="' + CSS.escape(ref) + '"]');
		if (b && b.getAttribute('aria-pressed') !== 'true') b.click();
		return !!b;
	};
	const out = [];
	const act = async (ref, button) => {
		const n = runs();
		const r = { Ref: ref, Action: button.dataset.action, Label: button.textContent };
		button.click();
		r.Ran = await settle(n);
		r.Text = genplayPlayground.text();
		r.Status = status().textContent;
		r.Kind = status().dataset.kind;
		r.Events = events();
		const m = runs();
		document.querySelector('#undo-step').click();
		r.UndoRan = await settle(m);
		r.Undone = genplayPlayground.text();
		out.push(r);
	};
	const refs = [...document.querySelectorAll('#cluster button.object')].map((b) => b.dataset.ref);
	for (const ref of refs) {
		if (!select(ref)) continue;
		const offered = [...document.querySelectorAll('#details button[data-action]')]
			.filter((b) => !['edit', 'convert', 'goto-last'].includes(b.dataset.action)).map((b) => b.textContent);
		for (const label of offered) {
			if (!select(ref)) break;
			const b = [...document.querySelectorAll('#details button[data-action]')].find((x) => x.textContent === label);
			if (b) await act(ref, b);
		}
	}
	await act('', document.querySelector('#background-scan'));
	return out;
})()`

// TestEveryActionOnEveryExample (issue 26, items 1 and 7): every action the
// cluster view offers on every object of every example, on the example as
// written, as JSON and with flow-style steps. Each appends one step and
// keeps every step the text had (a JSON scenario once lost all of them),
// Undo gives the text back, and on every example as written no action
// makes Kyverno fail (a CEL example's own button once did).
func TestEveryActionOnEveryExample(t *testing.T) {
	list, err := examples.All()
	require.NoError(t, err)
	p := newBrowser(t).page(true)
	p.open("")
	total := 0
	for _, ex := range list {
		for _, style := range []string{"yaml", "json", "flow"} {
			t.Run(ex.File+" as "+style, func(t *testing.T) {
				p.t = t
				text := restyle(t, string(ex.Text), style)
				before := chainsawSteps(t, text)
				p.afterRun(func() { p.paste(text) })
				require.Equal(t, text, p.text())
				require.NotEqual(t, "error", eval[string](p, `document.querySelector('#status').dataset.kind`), p.status())
				ctx, cancel := context.WithTimeout(p.ctx, 5*time.Minute)
				defer cancel()
				got, err := chromedp.Run(ctx, chromedp.Evaluate[[]walked](walkActions, chromedp.EvalAwaitPromise))
				require.NoError(t, err)
				require.NotEmpty(t, got)
				total += len(got)
				for _, w := range got {
					what := fmt.Sprintf("%s: %q on %s", style, w.Label, w.Ref)
					if !assert.True(t, w.Ran, "%s ran the scenario", what) {
						continue
					}
					after := chainsawSteps(t, w.Text)
					if assert.Len(t, after, len(before)+1, "%s appends one step", what) {
						assert.Equal(t, before, after[:len(before)], "%s keeps every step", what)
					}
					assert.True(t, w.UndoRan, "%s: Undo ran", what)
					assert.Equal(t, text, w.Undone, "%s: Undo gives the text back", what)
					if style == "yaml" {
						assert.NotEqual(t, "error", w.Kind, "%s: %s", what, w.Status)
						assert.NotEmpty(t, w.Events, "%s: the step says what happened", what)
						for _, e := range w.Events {
							if ref, failed := strings.CutPrefix(e, "kyverno failed "); failed && inDeletedNamespace(ref, w.Events) {
								// A CEL policy's watch tries to recreate a downstream its
								// namespace took away, as Kyverno's does: the create fails.
								t.Logf("%s: %s (its namespace was deleted)", what, e)
								continue
							}
							assert.False(t, strings.HasPrefix(e, "kyverno failed"), "%s: %s (events %v)", what, e, w.Events)
						}
					}
				}
			})
		}
	}
	t.Logf("%d actions on %d examples in 3 styles", total, len(list))
}

// inDeletedNamespace tells whether ref ("Kind namespace/name") is in a
// namespace the user deleted in the same step.
func inDeletedNamespace(ref string, events []string) bool {
	_, obj, ok := strings.Cut(ref, " ")
	ns, _, namespaced := strings.Cut(obj, "/")
	if !ok || !namespaced {
		return false
	}
	for _, e := range events {
		if e == "user deleted Namespace "+ns {
			return true
		}
	}
	return false
}
