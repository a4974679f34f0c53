// Convert to GeneratingPolicy (issue 13): the full build's migrate tool
// (wasm/doc.go) converts the scenario's ClusterPolicies/Policies; a dialog
// shows the converted scenario in an editor, the findings at the lines of
// the scenario, and the scenario run as written and converted, side by
// side, step by step, with the steps where they diverge marked and why.
// The user can edit the conversion and compare again, and adopt it: the
// main editor then holds the converted scenario (undoable, as every
// action). The user's edits stay while the scenario they convert is the
// same.
import './convert.css';
import { h, replace } from './dom.js';
import { createEditor, getText, setText, showDiagnostics } from './editor.js';
import { refString } from './objects.js';

// convertible tells whether a scenario writes a kyverno.io ClusterPolicy or
// Policy with a generate rule (the tool says precisely what converts).
export function convertible(text) {
  return /apiVersion:\s*["']?kyverno\.io\//.test(text) && /kind:\s*["']?(Cluster)?Policy\b/.test(text) && /^\s*generate:/m.test(text);
}

const CAUSES = {
  family: ['family difference', "Kyverno's two families behave differently here (the conversion is faithful)"],
  conversion: ['conversion gap', 'the conversion is partial (see the findings); this may be the cause'],
};

/**
 * installConvert adds the toolbar button and the dialog.
 * @param {{genplay: object, scenario: () => string, adopt: (text: string) => void, showLine: (line: number) => void, kyverno?: () => (string|undefined)}} app (kyverno: the release the page simulates)
 * @returns {{refresh: () => void, open: () => void}}
 */
export function installConvert({ genplay, scenario, adopt, showLine, kyverno = () => undefined }) {
  const state = { source: null, converted: '', edited: null, busy: false, seq: 0 };
  let editor = null;

  const button = h('button', { id: 'convert', type: 'button', hidden: true, title: 'Convert the ClusterPolicies/Policies of this scenario to GeneratingPolicies, and compare the two runs step by step', onclick: () => open() }, 'Convert to GeneratingPolicy…');
  document.querySelector('header .tools')?.append(button);

  const status = h('p', { class: 'convert-status', role: 'status', 'aria-live': 'polite' });
  const findings = h('div', { class: 'convert-findings', 'aria-label': 'Findings of the conversion' });
  const runs = h('div', { class: 'convert-runs', role: 'region', tabindex: '0', 'aria-label': 'The two runs side by side' });
  const editorBox = h('div', { class: 'editor convert-editor' });
  const compareButton = h('button', { type: 'button', dataset: { action: 'convert-compare' }, title: 'Run the converted scenario as it is in the editor and compare again (Ctrl+Enter)', onclick: () => compare(true) }, 'Compare again');
  const resetButton = h('button', { type: 'button', dataset: { action: 'convert-reset' }, onclick: reset }, "Reset to the converter's");
  const adoptButton = h('button', { type: 'button', class: 'primary', dataset: { action: 'convert-adopt' }, title: 'Replace the scenario in the main editor with the converted one (Undo takes it back)', onclick: doAdopt }, 'Adopt the converted scenario');
  const dialog = h('dialog', { id: 'convert-dialog', class: 'convert-dialog', 'aria-labelledby': 'convert-title', dataset: { state: 'idle' } },
    h('div', { class: 'convert-head' },
      h('h2', { id: 'convert-title' }, 'Convert to GeneratingPolicy'),
      h('button', { type: 'button', class: 'linklike', dataset: { action: 'convert-close' }, onclick: () => dialog.close() }, 'Close')),
    status,
    h('div', { class: 'convert-body' },
      h('section', { class: 'convert-left', 'aria-labelledby': 'convert-editor-title' },
        h('h3', { id: 'convert-editor-title' }, 'Converted scenario ', h('span', { class: 'sub' }, 'edit it and compare again')),
        editorBox,
        h('div', { class: 'dialog-buttons convert-buttons' }, resetButton, compareButton, adoptButton),
        h('h3', {}, 'Findings ', h('span', { class: 'sub' }, 'at the lines of your scenario')),
        findings),
      h('section', { class: 'convert-right', 'aria-labelledby': 'convert-runs-title' },
        h('h3', { id: 'convert-runs-title' }, 'The two runs, step by step'),
        runs)));
  document.body.append(dialog);

  function setState(s, text, kind = '') {
    dialog.dataset.state = s;
    status.textContent = text;
    status.dataset.kind = kind;
    const ready = s === 'ready' || s === 'differs' || s === 'error';
    compareButton.disabled = !ready || state.busy || !state.converted;
    adoptButton.disabled = !ready || state.busy || !state.converted;
    resetButton.disabled = !ready || state.busy || !state.converted;
  }

  function refresh() { button.hidden = !convertible(scenario()); }

  async function open() {
    const text = scenario();
    if (!dialog.open) dialog.showModal();
    if (!editor) editor = createEditor(editorBox, { doc: '', label: 'Converted scenario: a chainsaw Test in YAML', onRun: () => compare(true), onChange: (t) => { if (!quiet) state.edited = t; } });
    if (text !== state.source) {
      // Another scenario: start from the converter's output.
      state.source = text;
      state.converted = '';
      state.edited = null;
      setEditor('');
      replace(runs);
      replace(findings);
    }
    await compare(state.edited !== null && state.edited !== state.converted);
  }

  let quiet = false;
  function setEditor(text) {
    quiet = true;
    setText(editor, text);
    quiet = false;
  }

  // compare asks the engine; withEdits runs the editor's text as the
  // converted side.
  async function compare(withEdits) {
    if (state.busy) return;
    state.busy = true;
    const seq = ++state.seq;
    const edited = withEdits ? getText(editor) : '';
    setState('loading', genplay.tools.includes('migrate')
      ? 'Converting and running both scenarios…'
      : 'Loading the CEL engine (GeneratingPolicy support and the converter, about 3.5 MB), then converting…', 'warn');
    let answer;
    try {
      // Both runs simulate the release the page simulates.
      answer = await genplay.tool('migrate', state.source, { kyvernoVersion: kyverno(), ...(edited ? { converted: edited } : {}) });
    } catch (e) {
      answer = { error: `internal error: ${e.message}` };
    } finally {
      state.busy = false;
    }
    if (seq !== state.seq) return;
    if (answer.error) {
      showError(answer.error, !!edited);
      return;
    }
    const r = answer.result;
    state.converted = r.scenario;
    editorBox.hidden = false;
    if (!edited) {
      setEditor(r.scenario);
      state.edited = null;
      const at = r.scenario.split('\n').findIndex((l) => /^\s*kind: (Namespaced)?GeneratingPolicy$/.test(l));
      if (at >= 0) scrollTo(at + 1);
    }
    showDiagnostics(editor, []);
    render(r, !!edited);
  }

  function scrollTo(line) {
    const doc = editor.state.doc;
    const l = doc.line(Math.min(Math.max(line, 1), doc.lines));
    editor.dispatch({ selection: { anchor: l.from }, scrollIntoView: true });
  }

  // showError keeps what the view showed and says why it cannot go on: an
  // error in the converted text is also marked at its line.
  function showError(message, inEdited) {
    const where = [...message.matchAll(/converted-test\.yaml:(\d+):(\d+): ([^\n]*)/g)];
    if (inEdited && where.length) {
      showDiagnostics(editor, where.map((m) => ({ line: Number(m[1]), column: Number(m[2]), severity: 'error', message: m[3] })));
    }
    const what = inEdited ? 'The converted scenario cannot run' : 'This scenario cannot be converted';
    const kept = state.converted && runs.querySelector('table') ? ' (the comparison below is the last one that ran)' : '';
    setState('error', `${what}: ${message.replace(/^the converted scenario: /, '')}${kept}`, 'error');
    if (!state.converted) {
      // Nothing converted: say what to do where the editor would be.
      editorBox.hidden = true;
      replace(runs, h('p', { class: 'convert-empty' }, inEdited ? 'No comparison: fix the converted scenario and compare again.'
        : 'Nothing to compare: close this dialog and fix the scenario (the main editor marks the line), then convert again. Your scenario is unchanged.'));
      replace(findings, h('p', { class: 'sub' }, 'No findings: nothing was converted.'));
    }
  }

  function reset() {
    if (!state.converted) return;
    setEditor(state.converted);
    state.edited = null;
    compare(false);
  }

  function doAdopt() {
    const text = getText(editor);
    if (!text.trim()) return;
    dialog.close();
    adopt(text);
  }

  function render(r, edited) {
    const differ = r.steps.filter(differs).length;
    const verdict = r.unaligned ? `the runs part ways: ${r.unaligned}`
      : differ ? `${differ} of ${r.steps.length} steps differ (marked ≠)` : `the two runs agree on all ${r.steps.length} steps`;
    setState(differ || r.unaligned ? 'differs' : 'ready',
      `${r.test}: conversion ${r.conversion}${edited ? ' (your edited conversion was run)' : ''}; ${verdict}.`, differ || r.unaligned ? 'warn' : 'ok');
    replace(findings, r.findings.length ? h('ul', { class: 'convert-finding-list' }, r.findings.map((f) =>
      h('li', { class: `finding ${f.kind}`, dataset: { kind: f.kind, line: String(f.line) } },
        h('span', { class: `badge ${f.kind === 'unconverted' ? 'off' : ''}` }, f.kind), ' ',
        h('button', { type: 'button', class: 'linklike', title: 'Show this line in the scenario (closes this dialog)', onclick: () => { dialog.close(); showLine(f.line); } }, `line ${f.line}`),
        h('span', { class: 'sub' }, `${f.rule ? `, rule ${f.rule}` : ''}${f.field ? `, ${f.field}` : ''}: `),
        f.message, f.recipe ? h('div', { class: 'recipe' }, `By hand: ${f.recipe}`) : '')))
      : h('p', { class: 'sub' }, 'Everything converted faithfully: no findings.'));
    replace(runs,
      h('table', { class: 'convert-table' },
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'step'), h('th', { scope: 'col' }, 'ClusterPolicy (as written)'), h('th', { scope: 'col' }, 'GeneratingPolicy (converted)'))),
        h('tbody', {}, r.steps.map(row))),
      r.unaligned ? h('p', { class: 'error' }, `The runs part ways at ${r.unaligned}; the steps after it are not compared.`) : '',
      r.familyLabels.length ? h('p', { class: 'sub' }, `Labels that differ by family by design (not compared): ${r.familyLabels.join(', ')}.`) : '');
  }

  const differs = (s) => s.diffs.length > 0 || (s.clusterPolicyError || '') !== (s.generatingPolicyError || '');

  function row(s) {
    const d = differs(s);
    const cause = CAUSES[s.cause] || CAUSES.family;
    return h('tr', { class: `convert-step${d ? ' differs' : ''}`, dataset: { index: String(s.index), differs: String(d), cause: d ? s.cause || '' : '' } },
      h('th', { scope: 'row' },
        h('div', {}, `${s.index + 1}. ${s.summary}`),
        s.stepName && s.stepName !== s.summary ? h('div', { class: 'sub' }, s.stepName) : '',
        d ? [h('div', { class: `diverge-mark cause-${s.cause}` }, `≠ ${cause[0]}`), h('div', { class: 'cause-text' }, cause[1])]
          : h('div', { class: 'same-mark sub' }, '= same')),
      side(s, s.clusterPolicySteps, 'clusterPolicy', s.clusterPolicyError),
      side(s, s.generatingPolicySteps, 'generatingPolicy', s.generatingPolicyError));
  }

  function side(s, steps, which, error) {
    const diffs = s.diffs;
    const ops = steps.map((x) => x.summary).join('; ');
    const events = steps.flatMap((x) => x.events.filter((e) => e.actor !== 'user' && e.action !== 'note'));
    const checks = steps.filter((x) => x.check);
    return h('td', { class: `side ${which}` },
      ops !== s.summary ? h('div', { class: 'sub op' }, ops) : '',
      error ? h('div', { class: 'error' }, `rejected: ${error}`) : '',
      steps.filter((x) => x.error && !error).map((x) => h('div', { class: 'error' }, x.error)),
      checks.map((x) => h('div', { class: x.check.passed ? 'ok' : 'error' }, x.check.passed ? 'check passed' : `check failed: ${(x.check.failures || []).join('; ')}`)),
      events.length ? h('ul', { class: 'events' }, events.map((e) => h('li', { class: `event action-${e.action}` },
        h('span', { class: `badge action ${e.action}` }, e.action), ' ',
        e.object ? h('span', { class: 'ref' }, refString(e.object)) : '',
        e.reason ? h('div', { class: 'sub reason' }, e.reason) : '')))
        : h('div', { class: 'sub' }, 'no reaction'),
      diffs.map((x) => {
        const here = which === 'clusterPolicy' ? x.clusterPolicyRun : x.generatingPolicyRun;
        return h('div', { class: `diff-object ${here ? 'present' : 'absent'}` }, `${x.object}: ${here ? 'present' : 'absent'} after this step`);
      }),
      which === 'generatingPolicy' && diffs.some((x) => x.clusterPolicyRun && x.generatingPolicyRun)
        ? h('details', { class: 'diff' }, h('summary', {}, 'diff'), h('pre', {}, diffs.map((x) => x.diff).join('\n'))) : '');
  }

  // Test hook: the browser tests read the converted editor's text.
  globalThis.genplayConvert = { text: () => (editor ? getText(editor) : '') };
  return { refresh, open };
}
