// The timeline pane: each step of the run with what the user did and how
// Kyverno reacted (with the reason), the stepper that selects a step, and
// the changes (diffs) of the selected step. Selecting a step re-renders
// every view at that step (page.render).
import { h, replace, $ } from './dom.js';
import { refString } from './objects.js';
import { isCheck, stepFailed, failureOf, churnLine, churnOnly } from './result.js';
import { docLink, reasonText } from './reasondocs.js';
import { changeDiff } from './diff.js';
import { changeLink } from './versions.js';

/**
 * createTimeline renders the timeline, the stepper and the changes.
 * page: {state, steps(), currentStep(), reader(), render(), saveView(),
 * hideShare(), links}: state.step is the selected step (state.pinned when
 * the user chose an earlier one), state.hideChurn the churn switch.
 */
export function createTimeline(page) {
  const { state } = page;

  function renderStepper() {
    const n = page.steps().length;
    const range = $('#step-range');
    range.max = String(Math.max(0, n - 1));
    range.value = String(state.step);
    range.setAttribute('aria-valuetext', n ? `step ${state.step + 1} of ${n}` : 'no steps');
    $('#step-first').disabled = $('#step-back').disabled = state.step <= 0;
    $('#step-last').disabled = $('#step-forward').disabled = state.step >= n - 1;
    const s = page.currentStep();
    $('#cluster-step').textContent = s ? `after step ${state.step + 1} of ${n}: ${s.summary}` : '';
  }

  /** select shows step i (clamped) in every view; focus moves the focus to its button. */
  function select(i, { focus = false } = {}) {
    const n = page.steps().length;
    if (!n) return;
    state.step = Math.min(Math.max(i, 0), n - 1);
    state.pinned = state.step < n - 1; // an earlier step, chosen: edits keep it while they can
    page.render();
    page.saveView();
    page.hideShare();
    reveal(state.step);
    if (focus) document.querySelector(`#timeline li.step[data-index="${state.step}"] .step-button`)?.focus({ preventScroll: true });
  }

  // reveal scrolls step i of the timeline into view, inside its pane when
  // the pane scrolls and in the page below the sticky toolbar otherwise.
  function reveal(i) {
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

  function eventLine(e) {
    return h('li', { class: `event actor-${e.actor} action-${e.action}`, dataset: { action: e.action, actor: e.actor } },
      h('span', { class: 'actor' }, e.actor), ' ',
      h('span', { class: `badge action ${e.action}` }, e.action), ' ',
      e.object ? h('span', { class: 'ref' }, refString(e.object)) : '',
      e.policy ? h('span', { class: 'sub' }, ` (${e.policy}${e.rule ? ` / ${e.rule}` : ''})`) : '',
      (e.versionChanges || []).length ? [' ', ...e.versionChanges.map(changeLink)] : '',
      e.reason ? h('div', { class: 'reason' }, reasonText(e.reason), ' ', docLink(e)) : '');
  }

  // The parts of a step's item that depend only on the step and its place,
  // kept per step object: a run after an action shares its steps with the
  // run before (genplay.js), so only the steps it added are built again.
  const built = new WeakMap(); // step -> {i, first, button, detail}
  function parts(s, i, first) {
    let p = built.get(s);
    if (!p || p.i !== i || p.first !== first) {
      const failed = stepFailed(s);
      const opClass = isCheck(s) ? (s.check?.passed ? 'check-passed' : 'check-failed') : (s.error ? 'op-failed' : '');
      p = {
        i, first, failed,
        button: h('button', { type: 'button', class: 'step-button', onclick: () => { select(i); page.links.revealStep(i); } },
          h('span', { class: 'step-no' }, `${i + 1}`), ' ',
          h('span', { class: `badge op op-${s.operation} ${opClass}` }, s.operation), ' ', s.summary,
          s.stepName && s.stepName !== s.summary && first ? h('div', { class: 'step-name' }, `step: ${s.stepName}`) : ''),
        detail: [
          failed ? failedStepDetail(s) : '',
          s.check && !failed ? h('p', { class: 'ok' }, 'check passed') : '',
          h('ol', { class: 'events' }, (s.events || []).map(eventLine))],
      };
      built.set(s, p);
    }
    return p;
  }

  function renderTimeline() {
    const steps = page.steps();
    const kyverno = state.result?.kyverno;
    $('#timeline-version').textContent = kyverno ? `simulating Kyverno ${kyverno}` : '';
    const list = steps.map((s, i) => {
      const p = parts(s, i, i === 0 || steps[i - 1].stepName !== s.stepName);
      const tools = page.links.stepTools(i);
      const selected = i === state.step;
      if (selected) p.button.setAttribute('aria-current', 'step');
      else p.button.removeAttribute('aria-current');
      return h('li', {
        class: `step${selected ? ' selected' : ''}${p.failed ? ' failed' : ''}${tools ? ' has-tools' : ''}`,
        dataset: { index: String(i), operation: s.operation },
      }, p.button, tools, p.detail);
    });
    replace($('#timeline'), list.length ? list : h('li', { class: 'empty' }, 'Run a scenario to see what Kyverno does.'));
  }

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
      if (churnLine.test(l)) continue;
      hunk.push(l);
    }
    flush();
    return out;
  }

  function renderChanges() {
    const changes = page.currentStep()?.changes || [];
    const reader = page.reader();
    replace($('#changes'), changes.length ? changes.map((c, j) => {
      const lines = state.hideChurn && churnOnly(c) ? [] : visibleDiff(changeDiff(reader, state.step, j));
      return h('section', { class: 'change', dataset: { ref: refString(c.object) } },
        h('h4', {}, h('span', { class: `badge change ${c.change}` }, c.change), ' ', refString(c.object)),
        state.hideChurn && churnOnly(c) ? h('p', { class: 'sub' }, 'only metadata changed (resourceVersion, generation…)') : h('pre', { class: 'diff', tabindex: '0', 'aria-label': `Diff of ${refString(c.object)}` },
          lines.map((line) => h('span', {
            class: line.startsWith('+') && !line.startsWith('+++') ? 'add' : line.startsWith('-') && !line.startsWith('---') ? 'del' : line.startsWith('@@') ? 'hunk' : (line.startsWith('---') || line.startsWith('+++')) ? 'file' : '',
          }, `${line}\n`))));
    }) : h('p', { class: 'sub' }, 'Nothing changed in this step.'));
  }

  $('#hide-churn').addEventListener('change', (ev) => { state.hideChurn = ev.target.checked; renderChanges(); });
  $('#step-first').addEventListener('click', () => select(0));
  $('#step-back').addEventListener('click', () => select(state.step - 1));
  $('#step-forward').addEventListener('click', () => select(state.step + 1));
  $('#step-last').addEventListener('click', () => select(page.steps().length - 1));
  $('#step-range').addEventListener('input', (ev) => select(Number(ev.target.value)));
  $('#timeline').addEventListener('keydown', (ev) => {
    if (!ev.target.closest?.('.step-button')) return;
    const move = { ArrowUp: -1, ArrowLeft: -1, ArrowDown: 1, ArrowRight: 1 }[ev.key];
    if (move) { ev.preventDefault(); select(state.step + move, { focus: true }); }
    if (ev.key === 'Home') { ev.preventDefault(); select(0, { focus: true }); }
    if (ev.key === 'End') { ev.preventDefault(); select(page.steps().length - 1, { focus: true }); }
  });

  return {
    /** render draws the timeline, the changes of the selected step and the stepper. */
    render() { renderTimeline(); renderChanges(); renderStepper(); },
    select,
    reveal,
  };
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
