// The playground: an editor for the scenario (a chainsaw Test), the cluster
// at the selected step, the timeline, and the outcome matrix. Every action
// appends a chainsaw operation to the scenario and runs it again; the engine
// is deterministic, so stepping back only shows an earlier step.
//
// This file owns the page's state and the run; each view is its own module
// (timeline.js, cluster.js, matrix.js, objectdialog.js, links.js) created
// with `page`, the one object through which they read the state and ask
// for a run or an action. persistence.js keeps the work across reloads.
import './style.css';
import { install } from './genplay.js';
import { h, replace, $ } from './dom.js';
import { createEditor, getText, setText, showDiagnostics, gotoLine } from './editor.js';
import { appendStep, removeStep, stepNames, setGenerateFields, testName, ops } from './scenario.js';
import { errorsIn, inputError, internalError, isCheck, stepFailed, failureOf } from './result.js';
import * as share from './share.js';
import * as stored from './persistence.js';
import { installConvert } from './convert.js';
import { setupExportTest } from './exporttest.js';
import { setupAbout } from './about.js';
import { createLinks } from './links.js';
import { createWrap } from './wrap.js';
import { readerOf } from './reader.js';
import { createTimeline } from './timeline.js';
import { createClusterView } from './cluster.js';
import { createMatrix } from './matrix.js';
import { createObjectDialog } from './objectdialog.js';
import { createVersions, latestKyverno } from './versions.js';
import examples from 'genplay:examples';

// Content-Security-Policy violations would break features silently; say so.
document.addEventListener('securitypolicyviolation', (e) => {
  console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || 'inline code'}`);
});

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
  pinned: false, // the user chose an earlier step: an edit that keeps the steps up to it stays there
  undo: [], // texts before each action, for Undo
  hideChurn: false, // hide metadata churn in diffs
  ranText: null, // the text the shown result ran from
  kyverno: latestKyverno, // the Kyverno release simulated (the picker)
  quietOpen: false, // the cluster view shows the namespaces nothing happened in
};

let engineReady = false;
let quiet = false; // set while the page, not the user, changes the editor
let viewsReady = false; // the views below exist (the editor is made first)

// defer: the boot below starts the build its first scenario needs.
const genplay = install({
  defer: true,
  wasmURL: new URL(__GENPLAY_WASM__, import.meta.url).href,
  fullWasmURL: new URL(__GENPLAY_WASM_CEL__, import.meta.url).href,
  toolsWasmURL: new URL(__GENPLAY_WASM_TOOLS__, import.meta.url).href,
  wasmExecURL: new URL('../wasm_exec.js', import.meta.url).href,
  workerURL: new URL(__GENPLAY_WORKER__, import.meta.url).href,
});

const steps = () => state.result?.steps || [];

function setStatus(text, kind = '') {
  const s = $('#status');
  s.textContent = text;
  s.title = text; // a phone shows two lines of it
  s.dataset.kind = kind;
}

// engineRun is the one place the page calls the engine; genplay.run may
// return the result or a promise of it. A scenario with a CEL policy loads
// the full build first (genplay.js): the page says so while it downloads.
// Every run simulates the release the picker names.
async function engineRun(text, options) {
  return genplay.run(text, { ...options, kyvernoVersion: state.kyverno });
}
// When the CEL engine downloaded (performance.now()), so that a run's time
// does not count the download.
const celLoad = { start: 0, end: 0 };
globalThis.addEventListener('genplay:cel-loading', (e) => {
  celLoad.start = performance.now();
  document.body.dataset.celEngine = 'loading';
  setStatus(e.detail?.why === 'shell'
    ? 'Loading the full engine (kubectl for script steps, about 3.5 MB)…'
    : 'Loading the CEL engine (GeneratingPolicy support, about 3.5 MB)…', 'warn');
});
globalThis.addEventListener('genplay:cel-ready', () => {
  celLoad.end = performance.now();
  document.body.dataset.celEngine = 'ready';
  const status = $('#status').textContent;
  if (status.startsWith('Loading the CEL engine')) setStatus('The CEL engine is ready.', 'ok'); // a run says more
  else if (status.startsWith('Loading the full engine')) setStatus('The full engine is ready.', 'ok');
});
globalThis.addEventListener('genplay:cel-failed', (e) => {
  document.body.dataset.celEngine = 'failed';
  setStatus(`The CEL engine did not load: ${e.detail.message}`, 'error');
});

// ---------------------------------------------------------------- the views

const defaultText = examples[0].text;
const editor = createEditor($('#editor'), {
  doc: stored.savedText() || defaultText,
  label: 'Scenario: a chainsaw Test in YAML',
  onChange: (text) => {
    if (viewsReady) matrix.textChanged();
    if (quiet) return;
    stored.saveText(text);
    hideShare();
    if (location.hash) history.replaceState(null, '', location.pathname + location.search);
    scheduleRun();
  },
  onRun: () => run('run'),
});

// page is what the views see of the playground.
const page = {
  state,
  editor,
  steps,
  currentStep: () => steps()[state.step],
  // reader reads the shown result (reader.js); cluster is every object
  // after the selected step.
  reader: () => readerOf(state.result),
  cluster: () => readerOf(state.result).cluster(state.step),
  isLastStep: () => state.step === steps().length - 1,
  ready: () => engineReady,
  text: () => getText(editor),
  engineRun,
  // compareVersions answers the scenario under every release (genplay.versions/v1).
  compareVersions: (text) => genplay.run(text, { compareVersions: true }),
  setStatus,
  run: (reason) => run(reason),
  act: (name, operation) => act(name, operation),
  replaceText: (text, before) => setEditorText(text, before),
  edit: (text) => { setEditorText(text, getText(editor)); run('action'); },
  render: () => render(),
  selectStep: (i, opts) => timeline.select(i, opts),
  selectObject: (key) => { state.selected = key; clusterView.render(); },
  editObject: (o, op) => objectDialog.edit(o, op),
  saveView: () => saveView(),
  hideShare: () => hideShare(),
  ranText: () => state.ranText,
};

// Convert to GeneratingPolicy (convert.js): adopting is an action, undone by Undo.
page.convert = installConvert({ genplay, scenario: page.text, adopt: page.edit, showLine: (line) => gotoLine(editor, line), kyverno: () => state.kyverno });
page.links = createLinks(page);
const timeline = createTimeline(page);
const clusterView = createClusterView(page);
const matrix = createMatrix(page);
const objectDialog = createObjectDialog(page);
const versions = createVersions(page);
viewsReady = true;
const wrapper = createWrap({
  genplay, getText: page.text, replaceText: setEditorText, run, setStatus,
  gotoLine: (line) => gotoLine(editor, line), isReady: page.ready,
});
$('#relations-box').addEventListener('toggle', () => page.links.redraw());
window.addEventListener('resize', () => page.links.redraw());

function render() {
  timeline.render();
  clusterView.render();
}

// ---------------------------------------------------------------- running

// run runs the scenario. reason: 'edit' (typing, debounced), 'run' (Run,
// Ctrl+Enter), 'action' (a click that appended a step), 'load' (a new
// scenario); only an edit keeps an earlier step the user chose.
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
  // The run's own time; a download of the CEL engine during it is said apart.
  const loaded = celLoad.end > t0 ? celLoad.end - Math.max(celLoad.start, t0) : 0;
  const ms = performance.now() - (loaded ? celLoad.end : t0);
  const took = `${ms.toFixed(0)} ms${loaded ? `, after ${(loaded / 1000).toFixed(1)} s loading the CEL engine` : ''}`;
  state.runs++;
  stored.setStopped(result.stopped ? text : null);
  showDiagnostics(editor, result.stopped ? [] : result.diagnostics);
  renderDiagnostics(result);
  const errors = errorsIn(result);
  if (result.stopped) {
    state.broken = true;
    $('#stale').textContent = 'The run was stopped; showing the last result that ran.';
    $('#stale').hidden = !state.result;
    setStatus(`${result.diagnostics[0].message}. Press Run to try again.`, 'error');
  } else if (internalError(result)) {
    // genplay's fault, not the input's: keep the last view and the text.
    state.broken = true;
    $('#stale').textContent = 'genplay failed on this run; showing the last result that ran.';
    $('#stale').hidden = !state.result;
    setStatus(genplay.crashed
      ? 'The engine crashed on this scenario and is restarting; your scenario is kept.'
      : 'genplay hit an internal error on this scenario (not a problem with your input); your scenario is kept.', 'error');
  } else if (inputError(result)) {
    state.broken = true;
    if (!state.result && reason === 'load') await showLastGood(text);
    if (seq !== state.seq) return;
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
    // An edit keeps an earlier step the user chose while the steps up to it
    // are the same; anything else (a paste, Run, an action) shows the end.
    const prev = steps();
    const keepStep = reason === 'edit' && state.pinned && state.step < n - 1 && prev.length > state.step &&
      prev.slice(0, state.step + 1).every((s, i) => s.stepName === list[i].stepName && s.summary === list[i].summary);
    if (!keepStep) state.pinned = false;
    state.result = result;
    state.ranText = text;
    stored.saveRan(text);
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
    setStatus(`${result.test || 'scenario'}: ${n} step${n === 1 ? '' : 's'}, ${verdict} (${took})`, result.passed ? 'ok' : 'warn');
  }
  render();
  page.convert.refresh();
  saveView();
  if (reason === 'action') {
    timeline.reveal(state.step);
    restoreFocus();
  }
  if (!state.broken) { matrix.refresh(); versions.refresh(); }
  document.body.dataset.runs = String(state.runs);
  if (!document.body.dataset.firstResultMs && state.result) {
    const t = performance.now() - started;
    document.body.dataset.firstResultMs = t.toFixed(0);
    console.info(`genplay: first result rendered ${t.toFixed(0)} ms after navigation start`);
  }
}

// showLastGood runs the text of the last result that ran before a reload,
// so that a scenario broken since still shows what it did (marked stale).
async function showLastGood(text) {
  const good = stored.ranText();
  if (!good || good === text) return;
  const r = await engineRun(good);
  if (inputError(r) || r.stopped || internalError(r)) return;
  state.result = r;
  state.ranText = good;
  const n = (r.steps || []).length;
  state.step = Math.min(Math.max(state.pendingStep ?? n - 1, 0), Math.max(0, n - 1));
  state.pendingStep = null;
}

function scheduleRun() {
  clearTimeout(state.timer);
  state.timer = setTimeout(() => run('edit'), 400);
}

// ---------------------------------------------------------------- actions

let focusWanted = null; // what had the focus when an action started

// act appends a chainsaw step with one operation and runs the scenario.
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
  stored.saveText(text);
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
  stored.saveText(text);
  hideShare();
  renderUndo();
  run('action');
}

function renderUndo() {
  $('#undo-step').disabled = !engineReady || stepNames(getText(editor)).length < 2;
}

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

// ---------------------------------------------------------------- views, share, import, export

// saveView keeps the selected step and the open matrix for a reload.
function saveView() {
  stored.saveView({ step: state.step, matrix: matrix.isOpen(), kyverno: versions.chosen() });
}

// applyView restores a view ({step, matrix, kyverno}) before the next run.
function applyView(v) {
  if (!v) return;
  if (Number.isInteger(v.step) && v.step >= 0) state.pendingStep = v.step;
  if (v.matrix) matrix.open();
  versions.pick(v.kyverno);
}

// load shows another scenario (an example, an import, a link); Undo brings
// back the text it replaced.
function load(text) {
  const before = getText(editor);
  quiet = true;
  setText(editor, text);
  quiet = false;
  stored.saveText(text);
  hideShare();
  if (before !== text && before.trim()) state.undo.push(before);
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
    const frag = await share.encodeLink(getText(editor), examples);
    const view = share.encodeView({ step: state.step, matrix: matrix.isOpen(), kyverno: versions.chosen() });
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

const texts = new Map(examples.map((e) => [e.file, e.text]));
for (const e of examples) $('#example').append(h('option', { value: e.file }, e.title));
$('#example').addEventListener('change', (ev) => {
  const text = texts.get(ev.target.value);
  if (text) load(text);
  ev.target.value = '';
});
$('#run').addEventListener('click', () => run('run'));
$('#stop').addEventListener('click', () => genplay.stop());
$('#share').addEventListener('click', shareLink);
$('#export').addEventListener('click', exportTest);
setupExportTest({ genplay, anchor: $('#export'), getText: page.text, fileName: testName, setStatus });
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
$('#background-scan').addEventListener('click', () => act('background scan: sleep past the 1h interval', ops.sleep('1h1m')));
$('#add-object').addEventListener('click', () => objectDialog.add());
$('#undo-step').addEventListener('click', undo);
document.addEventListener('keydown', (ev) => {
  if (ev.key === 'Enter' && (ev.ctrlKey || ev.metaKey) && !ev.defaultPrevented && !objectDialog.isOpen() && !$('#convert-dialog')?.open) { ev.preventDefault(); run('run'); }
});

// openLink reads a link's fragment (#s=..., #example=NAME...): the text it
// holds with its view applied, or null; a broken link says why.
async function openLink(fragment) {
  let link;
  try {
    link = await share.decodeLink(fragment, examples);
  } catch (e) {
    setStatus(`${e.message}; your saved work is unchanged.`, 'error');
    return null;
  }
  if (!link) return null;
  const view = share.decodeView(fragment);
  let { text } = link;
  if (Object.keys(view.fields).length) {
    // An embedded player's switch: the scenario as the reader set it.
    try { text = setGenerateFields(text, view.fields); } catch { /* a broken scenario opens as it is */ }
  }
  applyView(view);
  if (link.changed) linkNote = `The example ${link.example} has changed since this link was made: its added steps ran on the example as it is now.`;
  return text;
}
let linkNote = ''; // said once the link's scenario has run

// A link pasted into the address bar of an open playground.
window.addEventListener('hashchange', async () => {
  const text = await openLink(location.hash);
  if (text === null) return;
  state.selected = null;
  load(text);
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
  for (const b of document.querySelectorAll('#run, #compare-versions, #background-scan, #add-object, #details button')) b.disabled = !ready;
  renderUndo();
}

// Test hook: the browser tests read the editor's text through this.
globalThis.genplayPlayground = { text: () => getText(editor) };

(async () => {
  const shared = await openLink(location.hash);
  if (shared !== null) {
    // The link's scenario replaces the saved one on screen; Undo brings the saved one back.
    const saved = stored.savedText();
    if (saved && saved !== shared) state.undo.push(saved);
    quiet = true;
    setText(editor, shared);
    quiet = false;
  } else if (stored.savedText()) {
    applyView(stored.savedView());
  }
  // The build the first scenario needs: a CEL scenario loads the full build alone.
  genplay.start(getText(editor));
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
  if (getText(editor) === stored.stoppedText()) {
    setStatus('This scenario was stopped the last time it ran (it ran too long); it is not run again until you press Run.', 'warn');
    return;
  }
  await run('load');
  if (msg) setStatus(msg, 'error');
  else if (linkNote) setStatus(linkNote, 'warn');
})();
