// Starting from what people have: a bare ClusterPolicy, Policy,
// GeneratingPolicy or NamespacedGeneratingPolicy, several of them, a
// multi-document manifest or a kyverno-test.yaml, pasted, dropped onto the
// editor or imported, is wrapped into a scenario by the tools build's
// "wrap" tool (engine/scaffold, wasm/doc.go): the policies, a trigger each
// rule's match selects and the asserts of what it should generate. The
// notes say what was derived and what could not be, at the scenario's
// lines. "New scenario" loads the tool's template. The text the user had
// is kept: Undo wrap (and the playground's undo stack) brings it back, and
// text the user went back to is offered a wrap, not wrapped again.
import { h, replace, $ } from './dom.js';

const scenarioAPI = /^apiVersion:\s*['"]?chainsaw\.kyverno\.io\/v1alpha1['"]?\s*(#.*)?$/m;
const testKind = /^kind:\s*['"]?Test['"]?\s*(#.*)?$/m;
const policyKind = /^\s*(-\s+)?kind:\s*['"]?(ClusterPolicy|Policy|GeneratingPolicy|NamespacedGeneratingPolicy)['"]?\s*(#.*)?$/m;
const cliTest = /^apiVersion:\s*['"]?cli\.kyverno\.io\//m;

// errorNote reads "file:line:col: message", one line of the tool's error.
function errorNote(line) {
  const m = /^(.+?):(\d+)(?::\d+)?: (.*)$/.exec(line);
  return m ? { error: true, file: m[1], line: Number(m[2]), message: m[3] } : { error: true, file: '', line: 0, message: line };
}

// wrappable: text that is not a chainsaw Test but holds policies (or is a
// Kyverno CLI test).
export function wrappable(text) {
  if (/^\s*\{/.test(text)) return wrappableJSON(text);
  return !(scenarioAPI.test(text) && testKind.test(text)) && (policyKind.test(text) || cliTest.test(text));
}

// wrappableJSON is wrappable for a JSON text (kubectl get -o json): one
// object, or a List of them.
function wrappableJSON(text) {
  let v;
  try { v = JSON.parse(text); } catch { return false; }
  const items = v?.kind === 'List' && Array.isArray(v.items) ? v.items : [v];
  const isTest = (o) => /^chainsaw\.kyverno\.io\//.test(o?.apiVersion || '') && o.kind === 'Test';
  const isPolicy = (o) => /^(kyverno\.io|policies\.kyverno\.io)\//.test(o?.apiVersion || '') &&
    ['ClusterPolicy', 'Policy', 'GeneratingPolicy', 'NamespacedGeneratingPolicy'].includes(o.kind);
  return !items.some(isTest) && items.some((o) => isPolicy(o) || /^cli\.kyverno\.io\//.test(o?.apiVersion || ''));
}

/**
 * createWrap wires the wrap into the playground.
 * @param {{genplay: object, getText: () => string, replaceText: (text: string, before: string) => void,
 *   run: (reason: string) => Promise<void>, setStatus: (text: string, kind?: string) => void,
 *   gotoLine: (line: number) => void, isReady: () => boolean}} app
 */
export function createWrap(app) {
  const box = $('#wrap-notes');
  const wrapped = new Set(); // originals already wrapped once: offered, not wrapped again
  let fileName = 'policy.yaml';

  const hide = () => { box.hidden = true; replace(box); };
  const button = (label, onclick, id) => h('button', { type: 'button', id, onclick }, label);

  function show(kind, title, notes, ...actions) {
    replace(box,
      h('p', { class: 'wrap-title' }, title),
      notes.length ? h('ul', { class: 'diagnostics wrap-list' }, notes.map((n) => {
        const severity = n.error ? 'error' : n.warning ? 'warning' : 'info';
        const where = n.scenarioLine
          ? h('button', { type: 'button', class: 'linklike', onclick: () => app.gotoLine(n.scenarioLine) }, `line ${n.scenarioLine}`)
          : n.file ? `${n.file}${n.line ? `:${n.line}` : ''}` : '';
        const label = severity === 'info' ? '' : `${severity}: `;
        return h('li', { class: `diag ${severity}` }, where, where ? (label ? ` ${label}` : ': ') : label, n.message);
      })) : '',
      h('div', { class: 'wrap-actions' }, ...actions, button('Dismiss', hide, 'wrap-dismiss')));
    box.dataset.kind = kind;
    box.hidden = false;
  }

  const restore = (original) => () => {
    app.replaceText(original, app.getText());
    hide();
    app.run('action');
  };

  // wrap asks the tool and replaces the text with the scenario; false when
  // it did not (an error, shown, or a newer edit).
  async function wrap(text) {
    app.setStatus('Wrapping the policies into a scenario (loading the full engine the first time)…');
    const a = await app.genplay.tool('wrap', text, { file: fileName });
    if (app.getText() !== text) return true; // the user typed on: the newer run decides
    if (a.error) {
      show('error', 'This text holds policies, but genplay cannot wrap it into a scenario:',
        a.error.split('\n').filter(Boolean).map(errorNote));
      return false;
    }
    const r = a.result;
    if (r.unchanged) return false;
    wrapped.add(text);
    app.replaceText(r.scenario, text);
    const warnings = (r.notes || []).filter((n) => n.warning).length;
    show(warnings ? 'warning' : 'ok',
      `Wrapped ${r.policies} polic${r.policies === 1 ? 'y' : 'ies'} from ${fileName} into a scenario with ${r.triggers} trigger${r.triggers === 1 ? '' : 's'}${warnings ? ` and ${warnings} warning${warnings === 1 ? '' : 's'} (below)` : ''}. Your text is kept: Undo wrap brings it back.`,
      r.notes || [], button('Undo wrap', restore(text), 'wrap-undo'));
    return true;
  }

  // beforeRun is called by the playground's run with the editor's text:
  // true when it wrapped the text (and started the run of the scenario).
  async function beforeRun(text) {
    if (!wrappable(text)) {
      if (box.dataset.kind === 'offer' || box.dataset.kind === 'error') hide();
      return false;
    }
    if (wrapped.has(text)) {
      show('offer', 'This text holds policies, not a scenario (a chainsaw Test).', [],
        button('Wrap into a scenario', async () => { wrapped.delete(text); if (await wrap(text)) app.run('load'); }, 'wrap-offer'));
      return false;
    }
    if (!(await wrap(text))) return false;
    app.run('load');
    return true;
  }

  async function newScenario() {
    if (!app.isReady()) return;
    const before = app.getText();
    const a = await app.genplay.tool('wrap', '', { template: true });
    if (a.error) { app.setStatus(`cannot start a new scenario: ${a.error}`, 'error'); return; }
    app.replaceText(a.result.scenario, before);
    show('ok', 'A new scenario from the template: a policy, a trigger and the check of what it generates. Undo brings back what you had.', [],
      button('Undo', restore(before), 'wrap-undo'));
    app.run('load');
  }

  // A file dropped on the editor replaces its text (kept for Undo) and is run,
  // so a bare policy is wrapped.
  async function drop(ev) {
    const file = ev.dataTransfer?.files?.[0];
    if (!file) return;
    ev.preventDefault();
    ev.stopPropagation();
    fileName = file.name || 'policy.yaml';
    const text = await file.text();
    wrapped.delete(text); // dropped on purpose: wrapped again
    app.replaceText(text, app.getText());
    app.run('load');
  }
  const editorEl = $('#editor');
  editorEl.addEventListener('dragover', (ev) => { if (ev.dataTransfer?.types?.includes('Files')) ev.preventDefault(); }, true);
  editorEl.addEventListener('drop', drop, true);
  $('#new-scenario').addEventListener('click', newScenario);
  $('#import-file').addEventListener('change', (ev) => { fileName = ev.target.files?.[0]?.name || 'policy.yaml'; });
  $('#import-text').addEventListener('input', () => { fileName = 'policy.yaml'; });
  // An import is on purpose too (the dialog's Load runs the text).
  $('#import-load').addEventListener('click', () => wrapped.delete($('#import-text').value), true);

  return { beforeRun, newScenario };
}
