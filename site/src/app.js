// The playground: an editor for the scenario (a chainsaw Test), the cluster
// at the selected step, the timeline, and the outcome matrix. Every action
// appends a chainsaw operation to the scenario and runs it again; the engine
// is deterministic, so stepping back only shows an earlier step.
import './style.css';
import { install } from './genplay.js';
import { h, replace, $ } from './dom.js';
import { EditorView } from '@codemirror/view';
import { createEditor, getText, setText, showDiagnostics, gotoLine } from './editor.js';
import { appendStep, testName, manifest, ops, refOf, refString, toYAML, fromYAML } from './scenario.js';
import * as share from './share.js';
import examples from '../examples/examples.json';
import defaultDeny from '../examples/default-deny-netpol.yaml';
import cloneSecret from '../examples/clone-registry-secret.yaml';
import cloneList from '../examples/clonelist.yaml';
import quota from '../examples/resourcequota-from-label.yaml';
import foreach from '../examples/foreach.yaml';
import generateExisting from '../examples/generate-existing.yaml';
import namespacedPolicy from '../examples/namespaced-policy.yaml';

const texts = {
  'default-deny-netpol.yaml': defaultDeny,
  'clone-registry-secret.yaml': cloneSecret,
  'clonelist.yaml': cloneList,
  'resourcequota-from-label.yaml': quota,
  'foreach.yaml': foreach,
  'generate-existing.yaml': generateExisting,
  'namespaced-policy.yaml': namespacedPolicy,
};

// Content-Security-Policy violations would break features silently; say so.
document.addEventListener('securitypolicyviolation', (e) => {
  console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || 'inline code'}`);
});

const STORAGE_KEY = 'genplay.scenario.v1';
const STOPPED_KEY = 'genplay.stopped.v1'; // the text of a run that was stopped: not run again on load
const LABEL = 'generate.kyverno.io/';
const started = performance.now();

const state = {
  result: null, // last result without errors
  step: 0, // selected step index
  selected: null, // selected object key
  broken: false,
  timer: 0,
  runs: 0,
  seq: 0, // the latest run asked for
};

let engineReady = false;
let quiet = false; // set while the page, not the user, changes the editor

const genplay = install({
  wasmURL: new URL(__GENPLAY_WASM__, import.meta.url).href,
  wasmExecURL: new URL('../wasm_exec.js', import.meta.url).href,
  workerURL: new URL(__GENPLAY_WORKER__, import.meta.url).href,
});

// ---------------------------------------------------------------- helpers

const keyOf = (o) => refString(refOf(o));
const labelsOf = (o) => o?.metadata?.labels || {};
const isPolicy = (o) => /^kyverno\.io\//.test(o.apiVersion || '') && (o.kind === 'ClusterPolicy' || o.kind === 'Policy');
const errorsIn = (r) => (r.diagnostics || []).filter((d) => d.severity !== 'warning');
const steps = () => state.result?.steps || [];
const currentStep = () => steps()[state.step];
const isLastStep = () => state.step === steps().length - 1;

function setStatus(text, kind = '') {
  const s = $('#status');
  s.textContent = text;
  s.dataset.kind = kind;
}

function policyOf(cluster, labels) {
  const name = labels[`${LABEL}policy-name`];
  const ns = labels[`${LABEL}policy-namespace`] || '';
  if (!name) return null;
  return cluster.find((o) => isPolicy(o) && o.metadata?.name === name && (o.metadata?.namespace || '') === ns) || null;
}

function ruleOf(policy, name) {
  return (policy?.spec?.rules || []).find((r) => r.name === name) || null;
}

// roles says what an object is to Kyverno in this cluster.
function roles(o, cluster, triggerUIDs) {
  const labels = labelsOf(o);
  const r = { policy: isPolicy(o), downstream: null, cloneSource: `${LABEL}clone-source` in labels, trigger: triggerUIDs.has(o.metadata?.uid) };
  if (labels[`${LABEL}policy-name`]) {
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
  const text = getText(editor);
  if (!engineReady) return;
  const t0 = performance.now();
  const seq = ++state.seq;
  const showStop = setTimeout(() => { $('#stop').hidden = false; }, 300);
  const result = await genplay.run(text);
  clearTimeout(showStop);
  if (seq !== state.seq) return; // a later run superseded this one
  $('#stop').hidden = true;
  const ms = performance.now() - t0;
  state.runs++;
  try { if (result.stopped) localStorage.setItem(STOPPED_KEY, text); else localStorage.removeItem(STOPPED_KEY); } catch { /* storage disabled */ }
  showDiagnostics(editor, result.stopped ? [] : result.diagnostics);
  renderDiagnostics(result.diagnostics || []);
  const errors = errorsIn(result);
  const internal = errors.find((d) => d.message.startsWith('internal error'));
  if (result.stopped) {
    state.broken = true;
    $('#stale').textContent = 'The run was stopped; showing the last result that ran.';
    $('#stale').hidden = !state.result;
    setStatus(`${result.diagnostics[0].message}. Press Run to try again.`, 'error');
  } else if (internal) {
    // genplay's fault, not the input's: keep the last good view and the text.
    state.broken = true;
    $('#stale').textContent = 'genplay failed on this run; showing the last result that ran.';
    $('#stale').hidden = !state.result;
    setStatus(genplay.crashed
      ? 'The engine crashed on this scenario and is restarting; your scenario is kept.'
      : 'genplay hit an internal error on this scenario (not a problem with your input); your scenario is kept.', 'error');
  } else if (errors.length) {
    state.broken = true;
    $('#stale').textContent = 'The scenario has errors; showing the last result that ran.';
    $('#stale').hidden = !state.result;
    setStatus(`${errors.length} problem${errors.length > 1 ? 's' : ''} in the scenario`, 'error');
  } else {
    state.broken = false;
    $('#stale').hidden = true;
    const keepStep = reason === 'edit' && state.result && state.step < (result.steps || []).length - 1;
    state.result = result;
    state.step = keepStep ? state.step : Math.max(0, (result.steps || []).length - 1);
    const n = (result.steps || []).length;
    setStatus(`${result.test || 'scenario'}: ${n} step${n === 1 ? '' : 's'}, ${result.passed ? 'assertions pass' : 'an assertion or operation failed'} (${ms.toFixed(0)} ms)`, result.passed ? 'ok' : 'warn');
  }
  document.body.dataset.runs = String(state.runs);
  render();
  if ($('#matrix-box').open && !state.broken) renderMatrix();
  if (!document.body.dataset.firstResultMs && state.result) {
    const t = performance.now() - started;
    document.body.dataset.firstResultMs = t.toFixed(0);
    console.info(`genplay: first result rendered ${t.toFixed(0)} ms after navigation start`);
  }
}

function scheduleRun() {
  clearTimeout(state.timer);
  state.timer = setTimeout(() => run('edit'), 400);
}

function act(name, operation) {
  let text;
  try {
    text = appendStep(getText(editor), name, operation);
  } catch (e) {
    setStatus(`cannot add the step: ${e.message}`, 'error');
    return;
  }
  setText(editor, text);
  save(text);
  editor.dispatch({ effects: EditorView.scrollIntoView(text.length, { y: 'end' }) });
  run('action');
}

// ---------------------------------------------------------------- rendering

function renderDiagnostics(diags) {
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

function selectStep(i) {
  const n = steps().length;
  if (!n) return;
  state.step = Math.min(Math.max(i, 0), n - 1);
  render();
  document.querySelector(`#timeline li[data-index="${state.step}"]`)?.scrollIntoView({ block: 'nearest' });
}

function eventLine(e) {
  return h('li', { class: `event actor-${e.actor} action-${e.action}`, dataset: { action: e.action, actor: e.actor } },
    h('span', { class: 'actor' }, e.actor), ' ',
    h('span', { class: `badge action ${e.action}` }, e.action), ' ',
    e.object ? h('span', { class: 'ref' }, refString(e.object)) : '',
    e.policy ? h('span', { class: 'sub' }, ` (${e.policy}${e.rule ? ` / ${e.rule}` : ''})`) : '',
    e.reason ? h('div', { class: 'reason' }, e.reason) : '');
}

function renderTimeline() {
  const list = steps().map((s, i) => h('li', {
    class: `step${i === state.step ? ' selected' : ''}${s.error ? ' failed' : ''}`,
    dataset: { index: String(i), operation: s.operation },
  },
  h('button', { type: 'button', class: 'step-button', 'aria-current': i === state.step ? 'step' : false, onclick: () => selectStep(i) },
    h('span', { class: 'step-no' }, `${i + 1}`), ' ',
    h('span', { class: `badge op ${s.operation}` }, s.operation), ' ', s.summary,
    s.stepName && s.stepName !== s.summary && (i === 0 || steps()[i - 1].stepName !== s.stepName) ? h('div', { class: 'step-name' }, `step: ${s.stepName}`) : ''),
  s.error ? h('p', { class: 'error' }, s.error) : '',
  (s.warnings || []).map((w) => h('p', { class: 'warning' }, `warning: ${w}`)),
  s.check ? h('p', { class: s.check.passed ? 'ok' : 'error' }, s.check.passed ? 'check passed' : 'check failed',
    (s.check.failures || []).map((f) => h('span', { class: 'failure' }, ` · ${f}`))) : '',
  h('ol', { class: 'events' }, (s.events || []).map(eventLine))));
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
    marks.push(badge(`generated by ${d.policy}/${d.rule}`, 'generated', 'generate.kyverno.io/policy-name and rule-name labels'));
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

function renderCluster() {
  const step = currentStep();
  const cluster = step?.cluster || [];
  const changes = new Map((step?.changes || []).map((c) => [refString(c.object), c.change]));
  const triggerUIDs = new Set(cluster.map((o) => labelsOf(o)[`${LABEL}trigger-uid`]).filter(Boolean));
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
    if (ns && nsObj && !objs.length && !changes.has(keyOf(nsObj)) && !triggerUIDs.has(nsObj.metadata?.uid) && state.selected !== keyOf(nsObj)) {
      empty.push(nsObj);
      continue;
    }
    out.push(h('section', { class: 'ns-group', 'aria-label': ns ? `Namespace ${ns}` : 'Cluster-scoped objects', dataset: { namespace: ns } },
      h('h3', {}, ns ? (nsObj ? objectButton(nsObj, roles(nsObj, cluster, triggerUIDs), changes.get(keyOf(nsObj))) : `Namespace ${ns} (missing)`) : 'Cluster-scoped'),
      h('ul', { class: 'objects' }, objs.map((o) => h('li', {}, objectButton(o, roles(o, cluster, triggerUIDs), changes.get(keyOf(o))))))));
  }
  if (empty.length) {
    out.push(h('section', { class: 'ns-group quiet', 'aria-label': 'Empty namespaces' },
      h('h3', { class: 'sub' }, 'Empty namespaces'),
      h('div', { class: 'quiet-list' }, empty.map((o) => objectButton(o, roles(o, cluster, triggerUIDs))))));
  }
  const present = new Set(cluster.map(keyOf));
  const deleted = (step?.changes || []).filter((c) => c.change === 'deleted' && !present.has(refString(c.object)));
  if (deleted.length) {
    out.push(h('section', { class: 'ns-group deleted' }, h('h3', {}, 'Deleted in this step'),
      h('ul', { class: 'objects' }, deleted.map((c) => h('li', { class: 'gone', dataset: { ref: refString(c.object) } }, refString(c.object))))));
  }
  replace($('#cluster'), out.length ? out : h('p', { class: 'empty' }, step ? 'The cluster is empty.' : 'No result yet.'));
  renderDetails(cluster, triggerUIDs);
}

function renderDetails(cluster, triggerUIDs) {
  const o = cluster.find((x) => keyOf(x) === state.selected);
  if (!o) { replace($('#details')); return; }
  const info = roles(o, cluster, triggerUIDs);
  const labels = Object.entries(labelsOf(o)).sort(([a], [b]) => a.localeCompare(b));
  replace($('#details'),
    h('h3', {}, keyOf(o)),
    h('div', { class: 'actions', role: 'toolbar', 'aria-label': `Actions on ${keyOf(o)}` }, actionsFor(o, info, cluster)),
    labels.length ? h('dl', { class: 'labels', 'aria-label': 'Labels' }, labels.map(([k, v]) => [
      h('dt', { class: k.startsWith(LABEL) ? 'kyverno' : '' }, k), h('dd', {}, v === '' ? '""' : v)])) : h('p', { class: 'sub' }, 'No labels.'),
    h('pre', { class: 'yaml', tabindex: '0', 'aria-label': 'Object YAML' }, toYAML(o)));
}

function actionButton(label, action, fn, title) {
  return h('button', { type: 'button', dataset: { action }, title, onclick: fn }, label);
}

function actionsFor(o, info, cluster) {
  if (!isLastStep()) {
    return [h('span', { class: 'sub' }, 'You are looking at an earlier step. '),
      actionButton('Go to the last step to act', 'goto-last', () => selectStep(steps().length - 1))];
  }
  const ref = keyOf(o);
  const out = [];
  if (info.policy) {
    const rules = (o.spec?.rules || []).filter((r) => r.generate);
    const sync = rules.some((r) => r.generate.synchronize);
    const orphan = rules.some((r) => r.generate.orphanDownstreamOnPolicyDelete);
    const setAll = (field, value) => {
      const m = manifest(o);
      for (const r of m.spec?.rules || []) if (r.generate) r.generate[field] = value;
      return m;
    };
    out.push(actionButton(`Turn synchronize ${sync ? 'off' : 'on'}`, 'toggle-synchronize',
      () => act(`set synchronize ${!sync} on ${ref}`, ops.update(setAll('synchronize', !sync)))));
    out.push(actionButton(`Turn orphaning ${orphan ? 'off' : 'on'}`, 'toggle-orphan',
      () => act(`set orphanDownstreamOnPolicyDelete ${!orphan} on ${ref}`, ops.update(setAll('orphanDownstreamOnPolicyDelete', !orphan)))));
    if ((o.spec?.rules || []).length > 1) {
      for (const r of o.spec.rules) {
        out.push(actionButton(`Delete rule ${r.name}`, 'delete-rule', () => {
          const m = manifest(o);
          m.spec.rules = m.spec.rules.filter((x) => x.name !== r.name);
          act(`delete rule ${r.name} of ${ref}`, ops.update(m));
        }));
      }
    }
    out.push(actionButton('Edit policy…', 'edit', () => editObject(o, 'update')));
    out.push(actionButton('Delete policy', 'delete', () => act(`delete ${ref}`, ops.delete(o))));
    return out;
  }
  out.push(actionButton('Edit…', 'edit', () => editObject(o, 'update')));
  if (info.trigger || !info.downstream) {
    for (const k of Object.keys(labelsOf(o)).filter((k) => !k.startsWith(LABEL) && !k.startsWith('kubernetes.io/')).sort()) {
      out.push(actionButton(`Remove label ${k}`, 'remove-label', () => {
        const m = manifest(o);
        delete m.metadata.labels[k];
        act(`remove label ${k} from ${ref}`, ops.update(m));
      }));
    }
  }
  if (info.trigger) {
    out.push(actionButton('Add another like this', 'add-another', () => {
      const m = manifest(o);
      m.metadata.name = freeName(cluster, o);
      for (const k of Object.keys(m.metadata.labels || {})) if (k.startsWith(LABEL)) delete m.metadata.labels[k];
      act(`create ${refString(refOf(m))}`, ops.create(m));
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

function renderChanges() {
  const step = currentStep();
  const changes = step?.changes || [];
  replace($('#changes'), changes.length ? changes.map((c) => h('section', { class: 'change', dataset: { ref: refString(c.object) } },
    h('h4', {}, h('span', { class: `badge change ${c.change}` }, c.change), ' ', refString(c.object)),
    h('pre', { class: 'diff', tabindex: '0', 'aria-label': `Diff of ${refString(c.object)}` },
      (c.diff || '').split('\n').map((line) => h('span', {
        class: line.startsWith('+') && !line.startsWith('+++') ? 'add' : line.startsWith('-') && !line.startsWith('---') ? 'del' : line.startsWith('@@') ? 'hunk' : '',
      }, `${line}\n`))))) : h('p', { class: 'sub' }, 'Nothing changed in this step.'));
}

// ---------------------------------------------------------------- outcome matrix

const combos = [
  { synchronize: true, orphanDownstreamOnPolicyDelete: false },
  { synchronize: true, orphanDownstreamOnPolicyDelete: true },
  { synchronize: false, orphanDownstreamOnPolicyDelete: false },
  { synchronize: false, orphanDownstreamOnPolicyDelete: true },
];

function reactions(step) {
  const evs = (step?.events || []).filter((e) => e.actor !== 'user' && e.action !== 'note');
  return evs.length ? evs.map((e) => `${e.action} ${e.object ? refString(e.object) : ''}`.trim()) : ['no reaction'];
}

async function renderMatrix() {
  const text = getText(editor);
  if (!engineReady) return;
  const results = await Promise.all(combos.map((override) => genplay.run(text, { override })));
  const bad = results.find((r) => errorsIn(r).length);
  if (bad) { replace($('#matrix'), h('p', { class: 'error' }, errorsIn(bad)[0].message)); return; }
  // The cheat sheet lists what the user did, not the checks.
  const rows = (results[0].steps || []).map((s, i) => [s, i]).filter(([s]) => s.operation !== 'assert' && s.operation !== 'error');
  replace($('#matrix'), h('table', { class: 'matrix' },
    h('caption', {}, 'What Kyverno does at each step of this scenario, under each setting'),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'step'),
      combos.map((c) => h('th', { scope: 'col' }, `sync ${c.synchronize ? 'on' : 'off'}, orphan ${c.orphanDownstreamOnPolicyDelete ? 'on' : 'off'}`)))),
    h('tbody', {}, rows.map(([s, i]) => h('tr', {},
      h('th', { scope: 'row' }, `${i + 1}. ${s.summary}`),
      (() => {
        const cells = results.map((r) => reactions(r.steps?.[i]));
        const differs = new Set(cells.map((c) => c.join('\n'))).size > 1;
        return cells.map((c) => h('td', { class: differs ? 'differs' : '' }, c.map((line) => h('div', {}, line))));
      })())))));
}

// ---------------------------------------------------------------- dialogs

let objectEditor = null;
let objectSave = null;

function openObjectDialog(title, help, yamlText, onSave) {
  $('#object-dialog-title').textContent = title;
  $('#object-dialog-help').textContent = help;
  $('#object-dialog-error').textContent = '';
  if (!objectEditor) objectEditor = createEditor($('#object-editor'), { doc: '', label: 'Object YAML' });
  setText(objectEditor, yamlText);
  objectSave = onSave;
  $('#object-dialog').showModal();
  objectEditor.focus();
}

function editObject(o, op) {
  openObjectDialog(`Edit ${keyOf(o)}`, `Saving appends an "${op}" step with this object and runs the scenario.`,
    toYAML(manifest(o)), (m) => act(`${op} ${refString(refOf(m))}`, ops[op](m)));
}

function addObject() {
  const template = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-b' } };
  openObjectDialog('Add an object', 'Saving appends a "create" step with this object and runs the scenario.',
    toYAML(template), (m) => act(`create ${refString(refOf(m))}`, ops.create(m)));
}

// ---------------------------------------------------------------- persistence, share, import, export

function save(text) {
  try { localStorage.setItem(STORAGE_KEY, text); } catch { /* storage full or disabled */ }
}

function load(text) {
  setText(editor, text);
  editor.dispatch({ selection: { anchor: 0 }, effects: EditorView.scrollIntoView(0, { y: 'start' }) });
  state.selected = null;
  run('load');
}

async function shareLink() {
  try {
    const frag = await share.encode(getText(editor));
    const url = `${location.origin}${location.pathname}#${frag}`;
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
    if (location.hash) history.replaceState(null, '', location.pathname + location.search);
    scheduleRun();
  },
  onRun: () => run('edit'),
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
$('#object-dialog-save').addEventListener('click', () => {
  let m;
  try { m = fromYAML(getText(objectEditor)); } catch (e) { $('#object-dialog-error').textContent = e.message; return; }
  $('#object-dialog').close();
  objectSave?.(m);
});
$('#background-scan').addEventListener('click', () => act('background scan: sleep past the 1h interval', ops.sleep('1h1m')));
$('#add-object').addEventListener('click', addObject);
$('#step-first').addEventListener('click', () => selectStep(0));
$('#step-back').addEventListener('click', () => selectStep(state.step - 1));
$('#step-forward').addEventListener('click', () => selectStep(state.step + 1));
$('#step-last').addEventListener('click', () => selectStep(steps().length - 1));
$('#step-range').addEventListener('input', (ev) => selectStep(Number(ev.target.value)));
$('#matrix-box').addEventListener('toggle', () => { if ($('#matrix-box').open) renderMatrix(); });
document.addEventListener('keydown', (ev) => {
  if (ev.key === 'Enter' && (ev.ctrlKey || ev.metaKey) && !ev.defaultPrevented) { ev.preventDefault(); run('edit'); }
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
    run('load');
  } catch (e) {
    setStatus(`${e.message}; your saved work is unchanged.`, 'error');
  }
});

// A crash of the engine below the wasm boundary (a Go fatal error, a trap):
// keep the text and the last good view, bring up a fresh engine, and let the
// user decide when to run again (running at once could crash it again).
globalThis.addEventListener('genplay:crash', async () => {
  engineReady = false;
  document.body.dataset.engine = 'crashed';
  try {
    await genplay.restart();
  } catch (e) {
    setStatus(`The engine crashed and could not restart (${e.message}); reload the page: your scenario is saved.`, 'error');
    return;
  }
  engineReady = true;
  document.body.dataset.engine = 'ready';
  document.body.dataset.restarts = String(Number(document.body.dataset.restarts || 0) + 1);
  setStatus('The engine crashed on this scenario and was restarted; your scenario is kept. Press Run to try again.', 'error');
});

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
    quiet = true;
    setText(editor, shared);
    quiet = false;
  }
  try {
    await genplay.ready;
  } catch (e) {
    setStatus(`The engine did not load: ${e.message}`, 'error');
    return;
  }
  engineReady = true;
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
