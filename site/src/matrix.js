// The outcome matrix: the scenario run under the four combinations of
// synchronize × orphanDownstreamOnPolicyDelete (the engine's override
// option), a row per step with what Kyverno did under each, and a button
// that writes a column's settings into the scenario.
import { h, replace, $ } from './dom.js';
import { setGenerateFields } from './scenario.js';
import { refString, isPolicy, isCELPolicy, celEnabled } from './objects.js';
import { readerOf } from './reader.js';
import { errorsIn, inputError, isCheck, stepFailed, failureOf, churnOnly } from './result.js';

export const combos = [
  { synchronize: true, orphanDownstreamOnPolicyDelete: false },
  { synchronize: true, orphanDownstreamOnPolicyDelete: true },
  { synchronize: false, orphanDownstreamOnPolicyDelete: false },
  { synchronize: false, orphanDownstreamOnPolicyDelete: true },
];
const comboName = (c) => `sync ${c.synchronize ? 'on' : 'off'}, orphan ${c.orphanDownstreamOnPolicyDelete ? 'on' : 'off'}`;

/**
 * createMatrix renders the matrix into #matrix while #matrix-box is open.
 * page: {state, ready(), text(), engineRun(text, options), setStatus,
 * replaceText(text, before), run(reason), saveView(), hideShare()}.
 */
export function createMatrix(page) {
  let seq = 0;

  let last = null; // the four results of the text shown, for a redraw
  let showSame = false; // rows where every setting does the same are shown

  async function render() {
    if (!page.ready()) return;
    const text = page.text();
    const mine = ++seq;
    const results = [];
    for (const override of combos) results.push(await page.engineRun(text, { override }));
    if (mine !== seq) return;
    last = { results };
    draw();
  }

  // In a matrix of more than FOLD_ROWS rows, runs of at least FOLD_RUN
  // rows where the four settings do the same are folded into one row: what
  // differs is what the matrix is for.
  const FOLD_ROWS = 12;
  const FOLD_RUN = 3;

  function draw() {
    const { results } = last;
    const current = currentCombo(page.state.result);
    const readers = results.map(readerOf);
    // Rows: what the user did; checks only where some setting fails them.
    const longest = results.reduce((a, r) => ((r.steps || []).length > (a.steps || []).length ? r : a), results[0]);
    const rows = (longest.steps || []).map((s, i) => [s, i])
      .filter(([s, i]) => !isCheck(s) || results.some((r) => r.steps?.[i] && stepFailed(r.steps[i])));
    const cell = (r, i, reader) => {
      if (inputError(r)) return h('td', { class: 'failed' }, h('div', { class: 'error' }, `the scenario does not run: ${errorsIn(r)[0].message.split('\n')[0]}`));
      const s = r.steps?.[i];
      if (!s) {
        const at = (r.steps || []).findIndex(stepFailed);
        return h('td', { class: 'not-run' }, h('div', { class: 'sub' }, at >= 0 ? `did not run: step ${at + 1} failed` : 'did not run'));
      }
      const items = reactions(s, reader, i);
      const lines = items.length ? items.map((x) => reactionButton(x)) : [h('div', { class: 'sub' }, 'no reaction')];
      if (stepFailed(s)) lines.unshift(h('div', { class: 'error' }, `failed: ${failureOf(s)}`));
      return h('td', { class: stepFailed(s) ? 'failed' : '' }, lines);
    };
    const built = rows.map(([s, i]) => {
      const cells = results.map((r, k) => cell(r, i, readers[k]));
      const differs = new Set(cells.map((c) => c.textContent)).size > 1;
      if (differs) cells.forEach((c) => c.classList.add('differs'));
      cells.forEach((c, k) => { if (combos[k] === current) c.classList.add('current'); });
      return { differs, tr: h('tr', {}, h('th', { scope: 'row' }, `${i + 1}. ${s.summary}`), cells), label: `${i + 1}` };
    });
    const body = [];
    for (let k = 0; k < built.length;) {
      let end = k;
      while (end < built.length && !built[end].differs) end++;
      if (!showSame && built.length > FOLD_ROWS && end - k >= FOLD_RUN) {
        body.push(h('tr', { class: 'same-rows' }, h('th', { scope: 'row', colspan: String(combos.length + 1) },
          `${end - k} steps (${built[k].label}–${built[end - 1].label}) where all four settings do the same `,
          h('button', { type: 'button', class: 'linklike show-same', onclick: () => { showSame = true; draw(); } }, 'show them'))));
      } else {
        for (let j = k; j < end; j++) body.push(built[j].tr);
      }
      if (end < built.length) body.push(built[end].tr);
      k = end + 1;
    }
    replace($('#matrix'), h('table', { class: 'matrix' },
      h('caption', {}, 'What Kyverno does at each step of this scenario, under each setting (hover or click a reaction for its reason)'),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'step'),
        combos.map((c) => {
          const isCurrent = current === c;
          return h('th', { scope: 'col', class: isCurrent ? 'current' : '', dataset: { combo: comboName(c) } },
            comboName(c),
            isCurrent ? h('div', { class: 'sub' }, '(the scenario as written)')
              : h('button', { type: 'button', class: 'apply-combo', title: `Set synchronize and orphanDownstreamOnPolicyDelete in the scenario's policies to these values`, onclick: () => apply(c) }, 'Use these settings'));
        }))),
      h('tbody', {}, body)));
  }

  // apply writes a column's settings into the scenario's policies, in
  // place, and runs it.
  function apply(c) {
    const before = page.text();
    let text;
    try {
      text = setGenerateFields(before, { synchronize: c.synchronize, orphanDownstreamOnPolicyDelete: c.orphanDownstreamOnPolicyDelete });
    } catch (e) {
      page.setStatus(`cannot change the scenario: ${e.message}`, 'error');
      return;
    }
    page.replaceText(text, before);
    page.run('action');
  }

  $('#matrix-box').addEventListener('toggle', () => {
    page.saveView();
    page.hideShare();
    if ($('#matrix-box').open) render();
  });

  return {
    /** isOpen tells whether the matrix is shown. */
    isOpen: () => $('#matrix-box').open,
    /** open shows the matrix (a restored view); it renders after the next run. */
    open() { $('#matrix-box').open = true; },
    /** refresh runs the four combinations again when the matrix is open. */
    refresh() { if ($('#matrix-box').open) render(); },
  };
}

// currentCombo reads the settings the scenario's policies end with (the
// first generate rule of the last step's cluster), or null without one.
function currentCombo(result) {
  const reader = readerOf(result);
  for (let i = reader.steps.length - 1; i >= 0; i--) {
    for (const o of reader.cluster(i)) {
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

// reactions are what Kyverno (and the cluster) did in step i, each with its
// reason; churn-only updates are left out.
function reactions(step, reader, i) {
  if (!step) return [];
  const changes = new Map((step.changes || []).map((c) => [refString(c.object), c]));
  return (step.events || []).filter((e) => e.actor !== 'user' && e.action !== 'note')
    .filter((e) => !(e.action === 'updated' && e.object && churnOnly(changes.get(refString(e.object)))))
    .map((e) => {
      const ref = e.object ? refString(e.object) : '';
      // A downstream Kyverno "keeps" while it is gone stays deleted.
      const action = e.action === 'kept' && ref && !reader.get(i, e.object) ? 'stays deleted:' : e.action;
      return { text: `${action} ${ref}`.trim(), reason: e.reason || '', action: e.action };
    });
}

function reactionButton(x) {
  const reason = h('div', { class: 'reason', hidden: true }, x.reason);
  return h('div', { class: 'reaction-line' },
    h('button', {
      type: 'button', class: `linklike reaction action-${x.action}`, title: x.reason, 'aria-expanded': 'false',
      onclick: (ev) => { reason.hidden = !reason.hidden; ev.currentTarget.setAttribute('aria-expanded', String(!reason.hidden)); },
    }, x.text), reason);
}
