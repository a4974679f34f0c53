// The playground: an editor for the scenario (a chainsaw Test), the cluster
// at the selected step, the timeline, and the outcome matrix. Every action
// appends a chainsaw operation to the scenario and runs it again; the engine
// is deterministic, so stepping back only shows an earlier step.
import './style.css';
import { install } from './genplay.js';
import { h, replace, $ } from './dom.js';
import { EditorView } from '@codemirror/view';
import { createEditor, getText, setText, showDiagnostics, gotoLine } from './editor.js';
import { appendStep, removeStep, stepNames, sourceResource, setGenerateFields, testName, manifest, ops, refOf, refString, toYAML, fromYAML } from './scenario.js';
import * as share from './share.js';
import { installConvert } from './convert.js';
import { setupExportTest } from './exporttest.js';
import { setupAbout } from './about.js';
import { docLink } from './reasondocs.js';
import { createLinks } from './links.js';
import { createWrap } from './wrap.js';
import { withClusters } from './reader.js';
import { withDiffs } from './diff.js';
import examples from '../examples/examples.json';
import defaultDeny from '../examples/default-deny-netpol.yaml';
import cloneSecret from '../examples/clone-registry-secret.yaml';
import cloneList from '../examples/clonelist.yaml';
import quota from '../examples/resourcequota-from-label.yaml';
import foreach from '../examples/foreach.yaml';
import generateExisting from '../examples/generate-existing.yaml';
import namespacedPolicy from '../examples/namespaced-policy.yaml';
import defaultDenyCEL from '../examples/default-deny-netpol-cel.yaml';
import cloneSecretCEL from '../examples/clone-registry-secret-cel.yaml';
import quotaCEL from '../examples/resourcequota-from-label-cel.yaml';
import foreachCEL from '../examples/foreach-cel.yaml';
import generateExistingCEL from '../examples/generate-existing-cel.yaml';
import namespacedGeneratingPolicy from '../examples/namespaced-generating-policy.yaml';

const texts = {
  'default-deny-netpol.yaml': defaultDeny,
  'clone-registry-secret.yaml': cloneSecret,
  'clonelist.yaml': cloneList,
  'resourcequota-from-label.yaml': quota,
  'foreach.yaml': foreach,
  'generate-existing.yaml': generateExisting,
  'namespaced-policy.yaml': namespacedPolicy,
  'default-deny-netpol-cel.yaml': defaultDenyCEL,
  'clone-registry-secret-cel.yaml': cloneSecretCEL,
  'resourcequota-from-label-cel.yaml': quotaCEL,
  'foreach-cel.yaml': foreachCEL,
  'generate-existing-cel.yaml': generateExistingCEL,
  'namespaced-generating-policy.yaml': namespacedGeneratingPolicy,
};

// Content-Security-Policy violations would break features silently; say so.
document.addEventListener('securitypolicyviolation', (e) => {
  console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || 'inline code'}`);
});

const STORAGE_KEY = 'genplay.scenario.v1';
const VIEW_KEY = 'genplay.view.v1'; // the selected step and the open matrix
const STOPPED_KEY = 'genplay.stopped.v1'; // the text of a run that was stopped: not run again on load
const LABEL = 'generate.kyverno.io/';
const started = performance.now();

const state = {
  result: null, // the last result that ran (input errors keep the one before)
  step: 0, // selected step index
  selected: null, // selected object key
  broken: false,
  timer: 0,
  runs: 0,
  seq: 0, // the latest run started; an older one's result is dropped
  pendingStep: null, // a step to select after the next run (reload, share link)
  undo: [], // texts before each action, for Undo
  hideChurn: false, // hide metadata churn in diffs
  ranText: null, // the text the shown result ran from
};

let engineReady = false;
let quiet = false; // set while the page, not the user, changes the editor

const genplay = install({
  wasmURL: new URL(__GENPLAY_WASM__, import.meta.url).href,
  fullWasmURL: new URL(__GENPLAY_WASM_CEL__, import.meta.url).href,
  wasmExecURL: new URL('../wasm_exec.js', import.meta.url).href,
  workerURL: new URL(__GENPLAY_WORKER__, import.meta.url).href,
});

// ---------------------------------------------------------------- helpers

const keyOf = (o) => refString(refOf(o));
const labelsOf = (o) => o?.metadata?.labels || {};
const isCELPolicy = (o) => /^policies\.kyverno\.io\//.test(o.apiVersion || '') && (o.kind === 'GeneratingPolicy' || o.kind === 'NamespacedGeneratingPolicy');
const isLegacyPolicy = (o) => /^kyverno\.io\//.test(o.apiVersion || '') && (o.kind === 'ClusterPolicy' || o.kind === 'Policy');
const isPolicy = (o) => isLegacyPolicy(o) || isCELPolicy(o);
// celEnabled reads a CEL policy's spec.evaluation.<field>.enabled.
const celEnabled = (o, field) => !!o?.spec?.evaluation?.[field]?.enabled;
const errorsIn = (r) => (r.diagnostics || []).filter((d) => d.severity !== 'warning');
// An input error keeps the last result: nothing ran, or a write was refused
// for what it says (result.invalid, see timeline.Result.Invalid).
const inputError = (r) => errorsIn(r).length > 0 && (r.invalid || !(r.steps || []).length);
const isCheck = (s) => s.operation === 'assert' || s.operation === 'error';
const stepFailed = (s) => !!s.error || (s.check && !s.check.passed);
const steps = () => state.result?.steps || [];
const currentStep = () => steps()[state.step];
const isLastStep = () => state.step === steps().length - 1;

function setStatus(text, kind = '') {
  const s = $('#status');
  s.textContent = text;
  s.dataset.kind = kind;
}

// engineRun is the one place the page calls the engine; genplay.run may
// return the result or a promise of it. A scenario with a CEL policy loads
// the full build first (genplay.js): the page says so while it downloads.
async function engineRun(text, options) {
  return withDiffs(withClusters(await genplay.run(text, options)));
}
globalThis.addEventListener('genplay:cel-loading', () => {
  document.body.dataset.celEngine = 'loading';
  setStatus('Loading the CEL engine (GeneratingPolicy support, about 3.5 MB)…', 'warn');
});
globalThis.addEventListener('genplay:cel-ready', () => {
  document.body.dataset.celEngine = 'ready';
  if ($('#status').textContent.startsWith('Loading the CEL engine')) setStatus('The CEL engine is ready.', 'ok'); // a run says more
});
globalThis.addEventListener('genplay:cel-failed', (e) => {
  document.body.dataset.celEngine = 'failed';
  setStatus(`The CEL engine did not load: ${e.detail.message}`, 'error');
});

function policyOf(cluster, labels) {
  const name = labels[`${LABEL}policy-name`];
  const ns = labels[`${LABEL}policy-namespace`] || '';
  if (!name) return null;
  return cluster.find((o) => isLegacyPolicy(o) && o.metadata?.name === name && (o.metadata?.namespace || '') === ns) || null;
}

// celPolicyOf finds the GeneratingPolicy, or the NamespacedGeneratingPolicy
// of the downstream's Namespace, its labels name (GENERATING-POLICY.md §3.5:
// the CEL family writes policy-name only, and no rule-name).
function celPolicyOf(cluster, labels, o) {
  const name = labels[`${LABEL}policy-name`];
  return cluster.find((p) => isCELPolicy(p) && p.metadata?.name === name &&
    (p.kind === 'GeneratingPolicy' || p.metadata?.namespace === o.metadata?.namespace)) || null;
}

// expressionOf names the generate entry (spec.generate[N]) that last wrote
// o, from the timeline's events up to the selected step.
function expressionOf(o) {
  const key = keyOf(o);
  for (let i = Math.min(state.step, steps().length - 1); i >= 0; i--) {
    const events = steps()[i].events || [];
    for (let j = events.length - 1; j >= 0; j--) {
      const e = events[j];
      if (e.actor === 'kyverno' && e.object && refString(e.object) === key && /^spec\.generate\[/.test(e.rule || '')) return e.rule;
    }
  }
  return '';
}

function ruleOf(policy, name) {
  return (policy?.spec?.rules || []).find((r) => r.name === name) || null;
}

// roles says what an object is to Kyverno in this cluster.
function roles(o, cluster, triggers) {
  const labels = labelsOf(o);
  const r = {
    policy: isPolicy(o),
    downstream: null,
    // Copies carry the source's labels, clone-source included: only an
    // object Kyverno did not generate is the source.
    // The CEL family labels no source: a copy names its source's UID.
    cloneSource: (`${LABEL}clone-source` in labels && !labels[`${LABEL}policy-name`]) ||
      (!!o.metadata?.uid && !labels[`${LABEL}policy-name`] && !!triggers.sources?.has(o.metadata.uid)),
    trigger: triggers.uids.has(o.metadata?.uid) || triggers.refs.has(keyOf(o)),
  };
  if (labels[`${LABEL}policy-name`] && !labels[`${LABEL}rule-name`]) {
    // The CEL family's labels (no rule-name): the policy by name, the
    // expression from the timeline.
    const policy = celPolicyOf(cluster, labels, o);
    r.downstream = {
      family: 'cel',
      policy: labels[`${LABEL}policy-name`],
      rule: expressionOf(o),
      policyGone: !policy,
      synchronize: policy ? celEnabled(policy, 'synchronize') : null,
      orphan: policy ? celEnabled(policy, 'orphanDownstreamOnPolicyDelete') : null,
    };
  } else if (labels[`${LABEL}policy-name`]) {
    const policy = policyOf(cluster, labels);
    const rule = ruleOf(policy, labels[`${LABEL}rule-name`]);
    r.downstream = {
      policy: labels[`${LABEL}policy-name`],
      rule: labels[`${LABEL}rule-name`] || '',
      policyGone: !policy,
      synchronize: rule ? !!rule.generate?.synchronize : null,
      orphan: rule ? !!rule.generate?.orphanDownstreamOnPolicyDelete : null,
    };
  }
  return r;
}

// ---------------------------------------------------------------- running

async function run(reason = 'edit') {
  clearTimeout(state.timer);
  if (!engineReady) return;
  const text = getText(editor);
  const seq = ++state.seq;
  if (await wrapper.beforeRun(text)) return; // a bare policy: wrapped into a scenario, which runs
  if (seq !== state.seq) return;
  const t0 = performance.now();
  const showStop = setTimeout(() => { $('#stop').hidden = false; }, 300);
  const result = await engineRun(text);
  clearTimeout(showStop);
  if (seq !== state.seq) return; // a newer run has started
  $('#stop').hidden = true;
  const ms = performance.now() - t0;
  state.runs++;
  try { if (result.stopped) localStorage.setItem(STOPPED_KEY, text); else localStorage.removeItem(STOPPED_KEY); } catch { /* storage disabled */ }
  showDiagnostics(editor, result.stopped ? [] : result.diagnostics);
  renderDiagnostics(result);
  const errors = errorsIn(result);
  const internal = errors.find((d) => d.message.startsWith('internal error'));
  if (result.stopped) {
    state.broken = true;
    $('#stale').textContent = 'The run was stopped; showing the last result that ran.';
    $('#stale').hidden = !state.result;
    setStatus(`${result.diagnostics[0].message}. Press Run to try again.`, 'error');
  } else if (internal) {
    // genplay's fault, not the input's: keep the last view and the text.
    state.broken = true;
    $('#stale').textContent = 'genplay failed on this run; showing the last result that ran.';
    $('#stale').hidden = !state.result;
    setStatus(genplay.crashed
      ? 'The engine crashed on this scenario and is restarting; your scenario is kept.'
      : 'genplay hit an internal error on this scenario (not a problem with your input); your scenario is kept.', 'error');
  } else if (inputError(result)) {
    state.broken = true;
    $('#stale').textContent = 'The scenario has errors; showing the last result that ran.';
    $('#stale').hidden = !state.result;
    setStatus(`${errors.length} problem${errors.length > 1 ? 's' : ''} in the scenario`, 'error');
  } else {
    // It ran: show it as it ran, failures included.
    state.broken = false;
    $('#stale').hidden = true;
    const list = result.steps || [];
    const n = list.length;
    const failed = list.findIndex(stepFailed);
    const keepStep = reason === 'edit' && state.result && state.step < n - 1;
    state.result = result;
    state.ranText = text;
    if (state.pendingStep !== null) {
      state.step = Math.min(Math.max(state.pendingStep, 0), Math.max(0, n - 1));
      state.pendingStep = null;
    } else if (failed >= 0 && !result.passed) {
      state.step = failed;
    } else {
      state.step = keepStep ? state.step : Math.max(0, n - 1);
    }
    const checks = list.filter(isCheck).length;
    const verdict = result.passed
      ? (checks ? `${checks} check${checks === 1 ? '' : 's'} passed` : 'ran without errors (no assertions)')
      : `step ${failed + 1} failed: ${failureOf(list[failed]) || 'see the timeline'}`;
    setStatus(`${result.test || 'scenario'}: ${n} step${n === 1 ? '' : 's'}, ${verdict} (${ms.toFixed(0)} ms)`, result.passed ? 'ok' : 'warn');
  }
  render();
  convert.refresh();
  saveView();
  if (reason === 'action') {
    revealStep(state.step);
    restoreFocus();
  }
  if ($('#matrix-box').open && !state.broken) renderMatrix();
  document.body.dataset.runs = String(state.runs);
  if (!document.body.dataset.firstResultMs && state.result) {
    const t = performance.now() - started;
    document.body.dataset.firstResultMs = t.toFixed(0);
    console.info(`genplay: first result rendered ${t.toFixed(0)} ms after navigation start`);
  }
}

// failureOf says in one line what failed in a step.
function failureOf(s) {
  if (!s) return '';
  if (s.check && !s.check.passed) return (s.check.failures || []).join('; ');
  return s.error || '';
}

function scheduleRun() {
  clearTimeout(state.timer);
  state.timer = setTimeout(() => run('edit'), 400);
}

let focusWanted = null; // what had the focus when an action started

function act(name, operation) {
  if (!engineReady) return false;
  const before = getText(editor);
  let text;
  try {
    text = appendStep(before, name, operation);
  } catch (e) {
    setStatus(`cannot add the step: ${e.message}`, 'error');
    return false;
  }
  setEditorText(text, before);
  run('action');
  return true;
}

// setEditorText changes the scenario as an action, remembering the text
// before for Undo, and shows the editor's end without moving the page.
function setEditorText(text, before) {
  const a = document.activeElement;
  focusWanted = a && a.closest?.('#details, #cluster, #timeline, .cluster-actions')
    ? { action: a.dataset.action || '', ref: a.dataset.ref || state.selected || '' } : null;
  state.undo.push(before);
  if (state.undo.length > 50) state.undo.shift();
  quiet = true;
  setText(editor, text);
  quiet = false;
  save(text);
  hideShare();
  editor.scrollDOM.scrollTop = editor.scrollDOM.scrollHeight;
  renderUndo();
}

// restoreFocus puts the focus back on the action or the object it acted on
// (the DOM was rebuilt), or on the newest step when neither is left.
function restoreFocus() {
  const want = focusWanted;
  focusWanted = null;
  if (!want) return;
  const sel = [
    want.action && `#details button[data-action="${CSS.escape(want.action)}"]:not([disabled])`,
    want.ref && `#cluster button.object[data-ref="${CSS.escape(want.ref)}"]`,
    want.action && `.cluster-actions button[data-action="${CSS.escape(want.action)}"]`,
    `#timeline li.step[data-index="${state.step}"] .step-button`,
  ].filter(Boolean);
  for (const q of sel) {
    const el = document.querySelector(q);
    if (el) { el.focus({ preventScroll: true }); return; }
  }
}

// revealStep scrolls step i of the timeline into view, inside its pane when
// the pane scrolls and in the page below the sticky toolbar otherwise.
function revealStep(i) {
  const li = document.querySelector(`#timeline li.step[data-index="${i}"]`);
  if (!li) return;
  const pane = li.closest('.pane');
  const paneScrolls = pane && pane.scrollHeight > pane.clientHeight + 1;
  if (paneScrolls) {
    const r = li.getBoundingClientRect();
    const pr = pane.getBoundingClientRect();
    if (r.top < pr.top || r.top > pr.bottom - 40) pane.scrollTop += r.top - pr.top - 8;
  }
  // The page then shows the step below the toolbar; when the pane scrolls
  // on its own, the whole pane, so that its stepper is not left under the
  // toolbar.
  const top = $('header.bar').getBoundingClientRect().bottom;
  const r = (paneScrolls ? pane : li).getBoundingClientRect();
  if (r.top < top || r.top > innerHeight - 60) window.scrollBy({ top: r.top - top - 8 });
}

function undo() {
  const before = state.undo.pop();
  let text = before;
  if (text === undefined) {
    const names = stepNames(getText(editor));
    try { text = removeStep(getText(editor), names.length - 1); } catch (e) { setStatus(`cannot undo: ${e.message}`, 'error'); return; }
  }
  quiet = true;
  setText(editor, text);
  quiet = false;
  save(text);
  hideShare();
  renderUndo();
  run('action');
}

// editScenario applies a new scenario text as an action (Undo restores the
// old one) and runs it.
function editScenario(text) {
  setEditorText(text, getText(editor));
  run('action');
}

function renderUndo() {
  $('#undo-step').disabled = !engineReady || stepNames(getText(editor)).length < 2;
}

// ---------------------------------------------------------------- rendering

// renderDiagnostics lists the problems with a link to each line; a warning
// the timeline already shows as an event is not repeated here.
function renderDiagnostics(result) {
  const inTimeline = new Set((result.steps || []).flatMap((s) => (s.events || []).filter((e) => e.action === 'warned').map((e) => e.reason)));
  const seen = new Set();
  const diags = (result.diagnostics || []).filter((d) => {
    const k = `${d.severity}\n${d.line}\n${d.message}`;
    if (seen.has(k) || (d.severity === 'warning' && inTimeline.has(d.message))) return false;
    seen.add(k);
    return true;
  });
  replace($('#diagnostics'), diags.map((d) => {
    // An internal error carries a Go stack after its first line.
    const [first, ...rest] = d.message.split('\n');
    return h('li', { class: `diag ${d.severity}` },
      h('button', { type: 'button', class: 'linklike', onclick: () => gotoLine(editor, d.line) },
        `${d.file || 'scenario'}:${d.line}${d.column ? `:${d.column}` : ''}`),
      ` ${d.severity}: `, first,
      rest.join('').trim() ? h('details', { class: 'stack' }, h('summary', {}, 'details for a bug report'), h('pre', {}, rest.join('\n'))) : '');
  }));
}

function render() {
  renderTimeline();
  renderCluster();
  renderChanges();
  renderStepper();
}

function renderStepper() {
  const n = steps().length;
  const range = $('#step-range');
  range.max = String(Math.max(0, n - 1));
  range.value = String(state.step);
  range.setAttribute('aria-valuetext', n ? `step ${state.step + 1} of ${n}` : 'no steps');
  $('#step-first').disabled = $('#step-back').disabled = state.step <= 0;
  $('#step-last').disabled = $('#step-forward').disabled = state.step >= n - 1;
  const s = currentStep();
  $('#cluster-step').textContent = s ? `after step ${state.step + 1} of ${n}: ${s.summary}` : '';
}

function selectStep(i, { focus = false } = {}) {
  const n = steps().length;
  if (!n) return;
  state.step = Math.min(Math.max(i, 0), n - 1);
  render();
  saveView();
  hideShare();
  revealStep(state.step);
  if (focus) document.querySelector(`#timeline li.step[data-index="${state.step}"] .step-button`)?.focus({ preventScroll: true });
}

function eventLine(e) {
  return h('li', { class: `event actor-${e.actor} action-${e.action}`, dataset: { action: e.action, actor: e.actor } },
    h('span', { class: 'actor' }, e.actor), ' ',
    h('span', { class: `badge action ${e.action}` }, e.action), ' ',
    e.object ? h('span', { class: 'ref' }, refString(e.object)) : '',
    e.policy ? h('span', { class: 'sub' }, ` (${e.policy}${e.rule ? ` / ${e.rule}` : ''})`) : '',
    e.reason ? h('div', { class: 'reason' }, e.reason, ' ', docLink(e)) : '');
}

// expectation says what a failed step expected, in words.
function expectation(s) {
  const what = s.summary.replace(/^(assert|error) /, '');
  if (s.operation === 'assert') return `${what} exists and matches the assertion`;
  if (s.operation === 'error') return `no ${what} matches the error check`;
  if (s.check) return 'the operation\'s expect checks hold';
  return `${s.summary} succeeds`;
}

function failedStepDetail(s) {
  return h('dl', { class: 'expected-found' },
    h('dt', {}, 'expected'), h('dd', {}, expectation(s)),
    h('dt', {}, 'found'), h('dd', {}, failureOf(s)));
}

function renderTimeline() {
  const list = steps().map((s, i) => {
    const failed = stepFailed(s);
    const first = i === 0 || steps()[i - 1].stepName !== s.stepName;
    const tools = links.stepTools(i);
    const opClass = isCheck(s) ? (s.check?.passed ? 'check-passed' : 'check-failed') : (s.error ? 'op-failed' : '');
    return h('li', {
      class: `step${i === state.step ? ' selected' : ''}${failed ? ' failed' : ''}${tools ? ' has-tools' : ''}`,
      dataset: { index: String(i), operation: s.operation },
    },
    h('button', { type: 'button', class: 'step-button', 'aria-current': i === state.step ? 'step' : false, onclick: () => { selectStep(i); links.revealStep(i); } },
      h('span', { class: 'step-no' }, `${i + 1}`), ' ',
      h('span', { class: `badge op op-${s.operation} ${opClass}` }, s.operation), ' ', s.summary,
      s.stepName && s.stepName !== s.summary && first ? h('div', { class: 'step-name' }, `step: ${s.stepName}`) : ''),
    tools,
    failed ? failedStepDetail(s) : '',
    s.check && !failed ? h('p', { class: 'ok' }, 'check passed') : '',
    h('ol', { class: 'events' }, (s.events || []).map(eventLine)));
  });
  replace($('#timeline'), list.length ? list : h('li', { class: 'empty' }, 'Run a scenario to see what Kyverno does.'));
}

function badge(text, cls, title) {
  return h('span', { class: `badge ${cls}`, title }, text);
}

function objectButton(o, info, changed) {
  const key = keyOf(o);
  const marks = [];
  if (info.policy) marks.push(badge('policy', 'policy'));
  if (info.downstream) {
    const d = info.downstream;
    if (d.family === 'cel') {
      marks.push(badge(`generated by ${d.policy}${d.rule ? ` ${d.rule}` : ''} (CEL)`, 'generated',
        'GeneratingPolicy family: the generate.kyverno.io/policy-name label; the expression is the one the timeline names'));
    } else {
      marks.push(badge(`generated by ${d.policy}/${d.rule}`, 'generated', 'generate.kyverno.io/policy-name and rule-name labels'));
    }
    if (d.synchronize !== null) {
      marks.push(badge(`sync ${d.synchronize ? 'on' : 'off'}`, d.synchronize ? 'on' : 'off'));
      marks.push(badge(`orphan ${d.orphan ? 'on' : 'off'}`, d.orphan ? 'on' : 'off'));
    } else if (d.policyGone) {
      marks.push(badge('policy gone', 'off'));
    }
  }
  if (info.cloneSource) marks.push(badge('clone source', 'source'));
  if (info.trigger) marks.push(badge('trigger', 'trigger'));
  if (changed) marks.push(badge(changed, `change ${changed}`));
  return h('button', {
    type: 'button',
    class: `object${state.selected === key ? ' selected' : ''}${info.downstream ? ' generated' : ''}`,
    dataset: { ref: key, kind: o.kind },
    'aria-pressed': state.selected === key ? 'true' : 'false',
    onclick: () => { state.selected = state.selected === key ? null : key; renderCluster(); },
  }, h('span', { class: 'kind' }, o.kind), ' ', h('span', { class: 'name' }, o.metadata?.name || ''), ' ', marks);
}

// triggersOf are the triggers as far as the timeline knows them: those a
// downstream's labels name, and those an event up to this step names, so a
// trigger stays one when its downstream is gone.
function triggersOf(cluster) {
  const uids = new Set(cluster.map((o) => labelsOf(o)[`${LABEL}trigger-uid`]).filter(Boolean));
  const sources = new Set(cluster.map((o) => labelsOf(o)[`${LABEL}source-uid`]).filter(Boolean));
  const refs = new Set();
  for (const s of steps().slice(0, state.step + 1)) {
    for (const e of s.events || []) if (e.trigger) refs.add(refString(e.trigger));
  }
  return { uids, refs, sources };
}

function renderCluster() {
  const step = currentStep();
  const cluster = step?.cluster || [];
  const changes = new Map((step?.changes || []).map((c) => [refString(c.object), c.change]));
  const triggers = triggersOf(cluster);
  const isTrigger = (o) => triggers.uids.has(o.metadata?.uid) || triggers.refs.has(keyOf(o));
  const groups = new Map([['', []]]);
  for (const o of cluster) {
    if (o.kind === 'Namespace' && o.apiVersion === 'v1') {
      if (!groups.has(o.metadata.name)) groups.set(o.metadata.name, []);
    }
  }
  for (const o of cluster) {
    const ns = o.metadata?.namespace || '';
    if (!groups.has(ns)) groups.set(ns, []);
    if (!(o.kind === 'Namespace' && o.apiVersion === 'v1')) groups.get(ns).push(o);
  }
  const nsObject = (name) => cluster.find((o) => o.kind === 'Namespace' && o.apiVersion === 'v1' && o.metadata?.name === name);
  const out = [];
  const empty = []; // namespaces with nothing in them and nothing happening to them
  for (const [ns, objs] of groups) {
    const nsObj = ns ? nsObject(ns) : null;
    if (!ns && !objs.length) continue;
    if (ns && nsObj && !objs.length && !changes.has(keyOf(nsObj)) && !isTrigger(nsObj) && state.selected !== keyOf(nsObj)) {
      empty.push(nsObj);
      continue;
    }
    out.push(h('section', { class: 'ns-group', 'aria-label': ns ? `Namespace ${ns}` : 'Cluster-scoped objects', dataset: { namespace: ns } },
      h('h3', {}, ns ? (nsObj ? objectButton(nsObj, roles(nsObj, cluster, triggers), changes.get(keyOf(nsObj))) : `Namespace ${ns} (missing)`) : 'Cluster-scoped'),
      h('ul', { class: 'objects' }, objs.map((o) => h('li', {}, objectButton(o, roles(o, cluster, triggers), changes.get(keyOf(o))))))));
  }
  if (empty.length) {
    out.push(h('section', { class: 'ns-group quiet', 'aria-label': 'Empty namespaces' },
      h('h3', { class: 'sub' }, 'Empty namespaces'),
      h('div', { class: 'quiet-list' }, empty.map((o) => objectButton(o, roles(o, cluster, triggers))))));
  }
  const present = new Set(cluster.map(keyOf));
  const deleted = (step?.changes || []).filter((c) => c.change === 'deleted' && !present.has(refString(c.object)));
  if (deleted.length) {
    out.push(h('section', { class: 'ns-group deleted' }, h('h3', {}, 'Deleted in this step'),
      h('ul', { class: 'objects' }, deleted.map((c) => h('li', { class: 'gone', dataset: { ref: refString(c.object) } }, refString(c.object))))));
  }
  replace($('#cluster'), out.length ? out : h('p', { class: 'empty' }, step ? 'The cluster is empty.' : 'No result yet.'));
  renderDetails(cluster, triggers);
  links.renderRelations(cluster);
}

function renderDetails(cluster, triggers) {
  const o = cluster.find((x) => keyOf(x) === state.selected);
  if (!o) { replace($('#details')); return; }
  const info = roles(o, cluster, triggers);
  const labels = Object.entries(labelsOf(o)).sort(([a], [b]) => a.localeCompare(b));
  replace($('#details'),
    h('h3', {}, keyOf(o)),
    h('div', { class: 'actions', role: 'toolbar', 'aria-label': `Actions on ${keyOf(o)}` }, actionsFor(o, info, cluster)),
    info.downstream ? h('p', { class: 'provenance' }, info.downstream.family === 'cel'
      ? `Generated by the GeneratingPolicy family (CEL): policy ${info.downstream.policy}, ${info.downstream.rule || 'a generate expression'}${info.downstream.policyGone ? ' (the policy is gone)' : ''}.`
      : `Generated by a ClusterPolicy/Policy generate rule: policy ${info.downstream.policy}, rule ${info.downstream.rule}${info.downstream.policyGone ? ' (the policy is gone)' : ''}.`) : '',
    labels.length ? h('dl', { class: 'labels', 'aria-label': 'Labels' }, labels.map(([k, v]) => [
      h('dt', { class: k.startsWith(LABEL) ? 'kyverno' : '' }, k), h('dd', {}, v === '' ? '""' : v)])) : h('p', { class: 'sub' }, 'No labels.'),
    h('pre', { class: 'yaml', tabindex: '0', 'aria-label': 'Object YAML' }, toYAML(o)));
}

function actionButton(label, action, fn, title) {
  return h('button', { type: 'button', dataset: { action }, title, onclick: fn, disabled: !engineReady }, label);
}

// written is the object as the scenario wrote it (a YAML node that keeps
// the user's order and comments), or as the cluster has it when the
// scenario never wrote it in full. edit changes it: edit(node) for a node
// (YAML's setIn/deleteIn), edit(plain) otherwise.
function written(o, edit) {
  const node = sourceResource(getText(editor), refOf(o));
  if (node) { edit(node, true); return node; }
  const m = manifest(o);
  edit(m, false);
  return m;
}

const setIn = (v, isNode, path, value) => {
  if (isNode) { v.setIn(path, value); return; }
  let cur = v;
  for (const k of path.slice(0, -1)) cur = cur[k] ??= {};
  cur[path[path.length - 1]] = value;
};

function actionsFor(o, info, cluster) {
  if (!isLastStep()) {
    return [h('span', { class: 'sub' }, 'You are looking at an earlier step. '),
      actionButton('Go to the last step to act', 'goto-last', () => selectStep(steps().length - 1))];
  }
  const ref = keyOf(o);
  const out = [];
  if (info.policy && isCELPolicy(o)) {
    // spec.evaluation.<field>.enabled, set in place in the user's text.
    const toggle = (field, label, action) => {
      const on = celEnabled(o, field);
      return actionButton(`Turn ${label} ${on ? 'off' : 'on'}`, action, () => act(`set evaluation.${field}.enabled ${!on} on ${ref}`,
        ops.update(written(o, (v, isNode) => setIn(v, isNode, ['spec', 'evaluation', field, 'enabled'], !on)))));
    };
    out.push(toggle('synchronize', 'synchronize', 'toggle-synchronize'));
    out.push(toggle('orphanDownstreamOnPolicyDelete', 'orphaning', 'toggle-orphan'));
    out.push(toggle('generateExisting', 'generateExisting', 'toggle-generate-existing'));
    out.push(actionButton('Edit policy…', 'edit', () => editObject(o, 'update')));
    out.push(actionButton('Delete policy', 'delete', () => act(`delete ${ref}`, ops.delete(o))));
    return out;
  }
  if (info.policy) {
    const rules = (o.spec?.rules || []);
    const sync = rules.some((r) => r.generate?.synchronize);
    const orphan = rules.some((r) => r.generate?.orphanDownstreamOnPolicyDelete);
    const setAll = (field, value) => written(o, (v, isNode) => {
      rules.forEach((r, i) => { if (r.generate) setIn(v, isNode, ['spec', 'rules', i, 'generate', field], value); });
    });
    out.push(actionButton(`Turn synchronize ${sync ? 'off' : 'on'}`, 'toggle-synchronize',
      () => act(`set synchronize ${!sync} on ${ref}`, ops.update(setAll('synchronize', !sync)))));
    out.push(actionButton(`Turn orphaning ${orphan ? 'off' : 'on'}`, 'toggle-orphan',
      () => act(`set orphanDownstreamOnPolicyDelete ${!orphan} on ${ref}`, ops.update(setAll('orphanDownstreamOnPolicyDelete', !orphan)))));
    if (rules.length > 1) {
      for (const r of rules) {
        out.push(actionButton(`Delete rule ${r.name}`, 'delete-rule', () => {
          const m = written(o, (v, isNode) => {
            if (isNode) {
              const seq = v.getIn(['spec', 'rules']);
              seq.items = seq.items.filter((x) => x.get?.('name') !== r.name);
            } else {
              v.spec.rules = v.spec.rules.filter((x) => x.name !== r.name);
            }
          });
          act(`delete rule ${r.name} of ${ref}`, ops.update(m));
        }));
      }
    }
    if (rules.some((r) => r.generate)) out.push(actionButton('Convert to GeneratingPolicy…', 'convert', () => convert.open()));
    out.push(actionButton('Edit policy…', 'edit', () => editObject(o, 'update')));
    out.push(actionButton('Delete policy', 'delete', () => act(`delete ${ref}`, ops.delete(o))));
    return out;
  }
  out.push(actionButton('Edit…', 'edit', () => editObject(o, 'update')));
  if (info.trigger || !info.downstream) {
    for (const k of Object.keys(labelsOf(o)).filter((k) => !k.startsWith(LABEL) && !k.startsWith('kubernetes.io/')).sort()) {
      out.push(actionButton(`Remove label ${k}`, 'remove-label', () => {
        const m = written(o, (v, isNode) => { if (isNode) v.deleteIn(['metadata', 'labels', k]); else delete v.metadata.labels?.[k]; });
        act(`remove label ${k} from ${ref}`, ops.update(m));
      }));
    }
  }
  if (info.trigger) {
    out.push(actionButton('Add another like this', 'add-another', () => {
      const name = freeName(cluster, o);
      const m = written(o, (v, isNode) => {
        setIn(v, isNode, ['metadata', 'name'], name);
        const labels = isNode ? v.getIn(['metadata', 'labels'])?.toJSON?.() || {} : v.metadata.labels || {};
        for (const k of Object.keys(labels)) {
          if (k.startsWith(LABEL) || k === 'kubernetes.io/metadata.name') {
            if (isNode) v.deleteIn(['metadata', 'labels', k]); else delete v.metadata.labels[k];
          }
        }
      });
      act(`create ${refString({ ...refOf(o), name })}`, ops.create(m));
    }));
  }
  const what = info.downstream ? 'downstream' : info.cloneSource ? 'clone source' : info.trigger ? 'trigger' : 'object';
  out.push(actionButton(`Delete ${what}`, 'delete', () => act(`delete ${ref}`, ops.delete(o))));
  return out;
}

function freeName(cluster, o) {
  const base = o.metadata.name.replace(/-\d+$/, '');
  const taken = new Set(cluster.filter((x) => x.kind === o.kind && (x.metadata?.namespace || '') === (o.metadata?.namespace || '')).map((x) => x.metadata.name));
  for (let i = 2; ; i++) if (!taken.has(`${base}-${i}`)) return `${base}-${i}`;
}

// churnLine matches a diff line that only shows metadata churn.
const churnLine = /^[-+ ]\s*(resourceVersion|generation|creationTimestamp|uid|lastTransitionTime|managedFields):/;

// visibleDiff drops churn lines (and hunks left with no change) when the
// churn switch is on.
function visibleDiff(diff) {
  const lines = (diff || '').replace(/\n$/, '').split('\n');
  if (!state.hideChurn) return lines;
  const out = [];
  let hunk = [];
  const flush = () => { if (hunk.some((l) => /^[-+]/.test(l))) out.push(...hunk); hunk = []; };
  for (const l of lines) {
    if (l.startsWith('@@')) { flush(); hunk = [l]; continue; }
    if (l.startsWith('---') || l.startsWith('+++')) { flush(); out.push(l); continue; }
    if (/^[-+]/.test(l) && churnLine.test(l)) continue;
    if (churnLine.test(l)) continue;
    hunk.push(l);
  }
  flush();
  return out;
}

// churnOnly tells a change that is nothing but metadata churn.
const churnOnly = (c) => c && c.change === 'updated' && !(c.diff || '').split('\n').some((l) => /^[-+](?![-+])/.test(l) && !churnLine.test(l));

function renderChanges() {
  const step = currentStep();
  const changes = step?.changes || [];
  replace($('#changes'), changes.length ? changes.map((c) => {
    const lines = visibleDiff(c.diff);
    return h('section', { class: 'change', dataset: { ref: refString(c.object) } },
      h('h4', {}, h('span', { class: `badge change ${c.change}` }, c.change), ' ', refString(c.object)),
      state.hideChurn && churnOnly(c) ? h('p', { class: 'sub' }, 'only metadata changed (resourceVersion, generation…)') : h('pre', { class: 'diff', tabindex: '0', 'aria-label': `Diff of ${refString(c.object)}` },
        lines.map((line) => h('span', {
          class: line.startsWith('+') && !line.startsWith('+++') ? 'add' : line.startsWith('-') && !line.startsWith('---') ? 'del' : line.startsWith('@@') ? 'hunk' : (line.startsWith('---') || line.startsWith('+++')) ? 'file' : '',
        }, `${line}\n`))));
  }) : h('p', { class: 'sub' }, 'Nothing changed in this step.'));
}

// ---------------------------------------------------------------- outcome matrix

const combos = [
  { synchronize: true, orphanDownstreamOnPolicyDelete: false },
  { synchronize: true, orphanDownstreamOnPolicyDelete: true },
  { synchronize: false, orphanDownstreamOnPolicyDelete: false },
  { synchronize: false, orphanDownstreamOnPolicyDelete: true },
];
const comboName = (c) => `sync ${c.synchronize ? 'on' : 'off'}, orphan ${c.orphanDownstreamOnPolicyDelete ? 'on' : 'off'}`;

// currentCombo reads the settings the scenario's policies end with (the
// first generate rule of the last step's cluster), or null without one.
function currentCombo(result) {
  const list = result?.steps || [];
  for (let i = list.length - 1; i >= 0; i--) {
    for (const o of list[i].cluster || []) {
      if (!isPolicy(o)) continue;
      if (isCELPolicy(o)) {
        return combos.find((c) => c.synchronize === celEnabled(o, 'synchronize') &&
          c.orphanDownstreamOnPolicyDelete === celEnabled(o, 'orphanDownstreamOnPolicyDelete'));
      }
      const g = (o.spec?.rules || []).find((r) => r.generate)?.generate;
      if (g) return combos.find((c) => c.synchronize === !!g.synchronize && c.orphanDownstreamOnPolicyDelete === !!g.orphanDownstreamOnPolicyDelete);
    }
  }
  return null;
}

// reactions are what Kyverno (and the cluster) did in a step, each with its
// reason; churn-only updates are left out.
function reactions(step) {
  if (!step) return [];
  const present = new Set((step.cluster || []).map(keyOf));
  const changes = new Map((step.changes || []).map((c) => [refString(c.object), c]));
  return (step.events || []).filter((e) => e.actor !== 'user' && e.action !== 'note')
    .filter((e) => !(e.action === 'updated' && e.object && churnOnly(changes.get(refString(e.object)))))
    .map((e) => {
      const ref = e.object ? refString(e.object) : '';
      // A downstream Kyverno "keeps" while it is gone stays deleted.
      const action = e.action === 'kept' && ref && !present.has(ref) ? 'stays deleted:' : e.action;
      return { text: `${action} ${ref}`.trim(), reason: e.reason || '', action: e.action };
    });
}

let matrixSeq = 0;

async function renderMatrix() {
  if (!engineReady) return;
  const text = getText(editor);
  const seq = ++matrixSeq;
  const results = [];
  for (const override of combos) results.push(await engineRun(text, { override }));
  if (seq !== matrixSeq) return;
  const current = currentCombo(state.result);
  // Rows: what the user did; checks only where some setting fails them.
  const longest = results.reduce((a, r) => ((r.steps || []).length > (a.steps || []).length ? r : a), results[0]);
  const rows = (longest.steps || []).map((s, i) => [s, i])
    .filter(([s, i]) => !isCheck(s) || results.some((r) => r.steps?.[i] && stepFailed(r.steps[i])));
  const cell = (r, i) => {
    if (inputError(r)) return h('td', { class: 'failed' }, h('div', { class: 'error' }, `the scenario does not run: ${errorsIn(r)[0].message.split('\n')[0]}`));
    const s = r.steps?.[i];
    if (!s) {
      const at = (r.steps || []).findIndex(stepFailed);
      return h('td', { class: 'not-run' }, h('div', { class: 'sub' }, at >= 0 ? `did not run: step ${at + 1} failed` : 'did not run'));
    }
    const items = reactions(s);
    const lines = items.length ? items.map((x) => reactionButton(x)) : [h('div', { class: 'sub' }, 'no reaction')];
    if (stepFailed(s)) lines.unshift(h('div', { class: 'error' }, `failed: ${failureOf(s)}`));
    return h('td', { class: stepFailed(s) ? 'failed' : '' }, lines);
  };
  replace($('#matrix'), h('table', { class: 'matrix' },
    h('caption', {}, 'What Kyverno does at each step of this scenario, under each setting (hover or click a reaction for its reason)'),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'step'),
      combos.map((c) => {
        const isCurrent = current === c;
        return h('th', { scope: 'col', class: isCurrent ? 'current' : '', dataset: { combo: comboName(c) } },
          comboName(c),
          isCurrent ? h('div', { class: 'sub' }, '(the scenario as written)')
            : h('button', { type: 'button', class: 'apply-combo', title: `Set synchronize and orphanDownstreamOnPolicyDelete in the scenario's policies to these values`, onclick: () => applyCombo(c) }, 'Use these settings'));
      }))),
    h('tbody', {}, rows.map(([s, i]) => {
      const cells = results.map((r) => cell(r, i));
      const differs = new Set(cells.map((c) => c.textContent)).size > 1;
      if (differs) cells.forEach((c) => c.classList.add('differs'));
      cells.forEach((c, k) => { if (combos[k] === current) c.classList.add('current'); });
      return h('tr', {}, h('th', { scope: 'row' }, `${i + 1}. ${s.summary}`), cells);
    }))));
}

function reactionButton(x) {
  const reason = h('div', { class: 'reason', hidden: true }, x.reason);
  return h('div', { class: 'reaction-line' },
    h('button', {
      type: 'button', class: `linklike reaction action-${x.action}`, title: x.reason, 'aria-expanded': 'false',
      onclick: (ev) => { reason.hidden = !reason.hidden; ev.currentTarget.setAttribute('aria-expanded', String(!reason.hidden)); },
    }, x.text), reason);
}

// applyCombo writes a column's settings into the scenario's policies, in
// place, and runs it.
function applyCombo(c) {
  const before = getText(editor);
  let text;
  try {
    text = setGenerateFields(before, { synchronize: c.synchronize, orphanDownstreamOnPolicyDelete: c.orphanDownstreamOnPolicyDelete });
  } catch (e) {
    setStatus(`cannot change the scenario: ${e.message}`, 'error');
    return;
  }
  setEditorText(text, before);
  run('action');
}

// ---------------------------------------------------------------- dialogs

let objectEditor = null;
let objectSave = null; // (object) => {name, operation}

function openObjectDialog(title, help, yamlText, onSave) {
  $('#object-dialog-title').textContent = title;
  $('#object-dialog-help').textContent = help;
  $('#object-dialog-error').textContent = '';
  if (!objectEditor) objectEditor = createEditor($('#object-editor'), { doc: '', label: 'Object YAML', onRun: saveObjectDialog });
  setText(objectEditor, yamlText);
  objectSave = onSave;
  $('#object-dialog').showModal();
  objectEditor.focus();
}

function editObject(o, op) {
  const node = sourceResource(getText(editor), refOf(o));
  openObjectDialog(`Edit ${keyOf(o)}`, `Saving appends an "${op}" step with this object and runs the scenario (Ctrl+Enter saves).`,
    node ? toYAML(node) : toYAML(manifest(o)), (m) => ({ name: `${op} ${refString(refOf(m))}`, operation: ops[op](m) }));
}

function addObject() {
  const template = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-b' } };
  openObjectDialog('Add an object', 'Saving appends a "create" step with this object and runs the scenario (Ctrl+Enter saves).',
    toYAML(template), (m) => ({ name: `create ${refString(refOf(m))}`, operation: ops.create(m) }));
}

// saveObjectDialog validates the object by running the scenario with the
// new step first: an object the API server or Kyverno refuses stays in the
// dialog with their message, and nothing is appended.
let dialogBusy = false;
async function saveObjectDialog() {
  if (dialogBusy || !objectSave || !engineReady) return true;
  const err = $('#object-dialog-error');
  let step;
  try {
    step = objectSave(fromYAML(getText(objectEditor)));
  } catch (e) {
    err.textContent = e.message;
    return true;
  }
  const before = getText(editor);
  let text;
  try { text = appendStep(before, step.name, step.operation); } catch (e) { err.textContent = `cannot add the step: ${e.message}`; return true; }
  dialogBusy = true;
  err.textContent = '';
  let result;
  try { result = await engineRun(text); } finally { dialogBusy = false; }
  const last = (result.steps || [])[(result.steps || []).length - 1];
  const refused = last && last.stepName === step.name && last.error;
  if (refused || result.invalid) {
    const d = errorsIn(result).find((x) => x.line > before.split('\n').length) || errorsIn(result)[0];
    err.textContent = refused ? last.error : d?.message || 'the object is not valid';
    return true;
  }
  $('#object-dialog').close();
  setEditorText(text, before);
  run('action');
  return true;
}

// ---------------------------------------------------------------- persistence, share, import, export

function save(text) {
  try { localStorage.setItem(STORAGE_KEY, text); } catch { /* storage full or disabled */ }
}

// saveView keeps the selected step and the open matrix for a reload.
function saveView() {
  try { localStorage.setItem(VIEW_KEY, JSON.stringify({ step: state.step, matrix: $('#matrix-box').open })); } catch { /* ignore */ }
}

function savedView() {
  try {
    const v = JSON.parse(localStorage.getItem(VIEW_KEY) || 'null');
    return v && typeof v === 'object' ? v : null;
  } catch {
    return null;
  }
}

// applyView restores a view ({step, matrix}) before the next run.
function applyView(v) {
  if (!v) return;
  if (Number.isInteger(v.step) && v.step >= 0) state.pendingStep = v.step;
  if (v.matrix) $('#matrix-box').open = true;
}

function load(text) {
  quiet = true;
  setText(editor, text);
  quiet = false;
  save(text);
  hideShare();
  state.undo = [];
  editor.dispatch({ selection: { anchor: 0 } });
  editor.scrollDOM.scrollTop = 0;
  state.selected = null;
  renderUndo();
  run('load');
}

function hideShare() {
  $('#share-box').hidden = true;
  $('#share-url').value = '';
}

async function shareLink() {
  try {
    const frag = await share.encode(getText(editor));
    const view = share.encodeView({ step: state.step, matrix: $('#matrix-box').open });
    const url = `${location.origin}${location.pathname}#${frag}${view}`;
    $('#share-box').hidden = false;
    $('#share-url').value = url;
    $('#share-url').select();
    try { await navigator.clipboard.writeText(url); setStatus('Share link copied to the clipboard.', 'ok'); } catch { setStatus('Share link ready below.', 'ok'); }
  } catch (e) {
    setStatus(e.message, 'error');
  }
}

function exportTest() {
  const text = getText(editor);
  const a = h('a', { download: `${testName(text)}.yaml` });
  a.href = URL.createObjectURL(new Blob([text], { type: 'text/yaml' }));
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

// ---------------------------------------------------------------- start

const saved = (() => { try { return localStorage.getItem(STORAGE_KEY); } catch { return null; } })();
const editor = createEditor($('#editor'), {
  doc: saved || defaultDeny,
  label: 'Scenario: a chainsaw Test in YAML',
  onChange: (text) => {
    if (quiet) return;
    save(text);
    hideShare();
    if (location.hash) history.replaceState(null, '', location.pathname + location.search);
    scheduleRun();
  },
  onRun: () => run('edit'),
});
// Convert to GeneratingPolicy (convert.js): adopting is an action, undone by Undo.
const convert = installConvert({ genplay, scenario: () => getText(editor), adopt: (text) => { setEditorText(text, getText(editor)); run('action'); },
  showLine: (line) => gotoLine(editor, line) });
const links = createLinks({
  editor, state, steps, selectStep, setStatus, edit: editScenario, ranText: () => state.ranText,
  selectObject: (key) => { state.selected = key; renderCluster(); },
});
$('#relations-box').addEventListener('toggle', () => links.redraw());
window.addEventListener('resize', () => links.redraw());

const wrapper = createWrap({
  genplay, getText: () => getText(editor), replaceText: setEditorText, run, setStatus,
  gotoLine: (line) => gotoLine(editor, line), isReady: () => engineReady,
});

for (const e of examples) $('#example').append(h('option', { value: e.file }, e.title));
$('#example').addEventListener('change', (ev) => {
  const text = texts[ev.target.value];
  if (text) load(text);
  ev.target.value = '';
});
$('#run').addEventListener('click', () => run('edit'));
$('#stop').addEventListener('click', () => genplay.stop());
$('#share').addEventListener('click', shareLink);
$('#export').addEventListener('click', exportTest);
setupExportTest({ genplay, anchor: $('#export'), getText: () => getText(editor), fileName: testName, setStatus });
setupAbout({ anchor: $('#import') });
$('#import').addEventListener('click', () => { $('#import-text').value = ''; $('#import-dialog').showModal(); });
$('#import-cancel').addEventListener('click', () => $('#import-dialog').close());
$('#import-file').addEventListener('change', async (ev) => {
  const f = ev.target.files?.[0];
  if (f) $('#import-text').value = await f.text();
});
$('#import-load').addEventListener('click', () => {
  const text = $('#import-text').value;
  $('#import-dialog').close();
  if (text.trim()) load(text);
});
$('#object-dialog-cancel').addEventListener('click', () => $('#object-dialog').close());
$('#object-dialog-save').addEventListener('click', saveObjectDialog);
$('#background-scan').addEventListener('click', () => act('background scan: sleep past the 1h interval', ops.sleep('1h1m')));
$('#add-object').addEventListener('click', addObject);
$('#undo-step').addEventListener('click', undo);
$('#hide-churn').addEventListener('change', (ev) => { state.hideChurn = ev.target.checked; renderChanges(); });
$('#step-first').addEventListener('click', () => selectStep(0));
$('#step-back').addEventListener('click', () => selectStep(state.step - 1));
$('#step-forward').addEventListener('click', () => selectStep(state.step + 1));
$('#step-last').addEventListener('click', () => selectStep(steps().length - 1));
$('#step-range').addEventListener('input', (ev) => selectStep(Number(ev.target.value)));
$('#timeline').addEventListener('keydown', (ev) => {
  if (!ev.target.closest?.('.step-button')) return;
  const move = { ArrowUp: -1, ArrowLeft: -1, ArrowDown: 1, ArrowRight: 1 }[ev.key];
  if (move) { ev.preventDefault(); selectStep(state.step + move, { focus: true }); }
  if (ev.key === 'Home') { ev.preventDefault(); selectStep(0, { focus: true }); }
  if (ev.key === 'End') { ev.preventDefault(); selectStep(steps().length - 1, { focus: true }); }
});
$('#matrix-box').addEventListener('toggle', () => {
  saveView();
  hideShare();
  if ($('#matrix-box').open) renderMatrix();
});
document.addEventListener('keydown', (ev) => {
  if (ev.key === 'Enter' && (ev.ctrlKey || ev.metaKey) && !ev.defaultPrevented && !$('#object-dialog').open && !$('#convert-dialog')?.open) { ev.preventDefault(); run('edit'); }
});

// A share link pasted into the address bar of an open playground.
window.addEventListener('hashchange', async () => {
  try {
    const text = await share.decode(location.hash);
    if (text === null) return;
    quiet = true;
    setText(editor, text);
    quiet = false;
    state.selected = null;
    applyView(share.decodeView(location.hash));
    run('load');
  } catch (e) {
    setStatus(`${e.message}; your saved work is unchanged.`, 'error');
  }
});

// A crash of the engine below the wasm boundary (a Go fatal error, a trap):
// keep the text and the last good view, bring up a fresh engine, and let the
// user decide when to run again (running at once could crash it again).
globalThis.addEventListener('genplay:crash', async () => {
  setEngineReady(false);
  document.body.dataset.engine = 'crashed';
  try {
    await genplay.restart();
  } catch (e) {
    setStatus(`The engine crashed and could not restart (${e.message}); reload the page: your scenario is saved.`, 'error');
    return;
  }
  setEngineReady(true);
  document.body.dataset.engine = 'ready';
  document.body.dataset.restarts = String(Number(document.body.dataset.restarts || 0) + 1);
  setStatus('The engine crashed on this scenario and was restarted; your scenario is kept. Press Run to try again.', 'error');
});

// setEngineReady enables the actions only while the engine can run them.
function setEngineReady(ready) {
  engineReady = ready;
  for (const b of document.querySelectorAll('#run, #background-scan, #add-object, #details button')) b.disabled = !ready;
  renderUndo();
}

// Test hook: the browser tests read the editor's text through this.
globalThis.genplayPlayground = { text: () => getText(editor) };

(async () => {
  let shared = null;
  try {
    shared = await share.decode(location.hash);
  } catch (e) {
    setStatus(`${e.message}; your saved work is unchanged.`, 'error');
  }
  if (shared !== null) {
    const view = share.decodeView(location.hash);
    if (Object.keys(view.fields).length) {
      // An embedded player's switch: the scenario as the reader set it.
      try { shared = setGenerateFields(shared, view.fields); } catch { /* a broken scenario opens as it is */ }
    }
    quiet = true;
    setText(editor, shared);
    quiet = false;
    applyView(view);
  } else if (saved) {
    applyView(savedView());
  }
  // A CEL scenario on load: fetch the full build alongside the core one.
  if (/policies\.kyverno\.io\//.test(getText(editor))) genplay.loadCEL().catch(() => { /* the run says why */ });
  try {
    await genplay.ready;
  } catch (e) {
    setStatus(`The engine did not load: ${e.message}`, 'error');
    return;
  }
  setEngineReady(true);
  document.body.dataset.ready = 'true';
  document.body.dataset.engine = 'ready';
  const msg = $('#status').dataset.kind === 'error' ? $('#status').textContent : '';
  if (getText(editor) === (() => { try { return localStorage.getItem(STOPPED_KEY); } catch { return null; } })()) {
    setStatus('This scenario was stopped the last time it ran (it ran too long); it is not run again until you press Run.', 'warn');
    return;
  }
  await run('load');
  if (msg) setStatus(msg, 'error');
})();
