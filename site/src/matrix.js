// The outcome matrix: the scenario run under the four combinations of
// synchronize × orphanDownstreamOnPolicyDelete (the engine's override
// option), a row per step with what Kyverno did under each, and a button
// that writes a column's settings into the scenario.
import { h, replace, $ } from './dom.js';
import { setGenerateFields } from './scenario.js';
import { refString, isPolicy, isCELPolicy, celEnabled, isKyvernoOwn } from './objects.js';
import { readerOf } from './reader.js';
import { reasonText } from './reasondocs.js';
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
  let shownFor = null; // the scenario text the table in #matrix is for
  let allRows = false; // show the steps where every setting does the same too

  // pending replaces a table of another text: a stale table is never shown.
  function pending(text) {
    if (shownFor === text) return;
    shownFor = null;
    replace($('#matrix'), h('p', { class: 'sub matrix-pending', role: 'status' },
      'Running this scenario under the four settings…'));
  }

  let last = null; // the four results of the text shown, for a redraw
  let showSame = false; // rows where every setting does the same are shown

  async function render() {
    if (!page.ready()) return;
    const text = page.text();
    const mine = ++seq;
    pending(text);
    $('#matrix').setAttribute('aria-busy', 'true');
    const results = [];
    for (const override of combos) results.push(await page.engineRun(text, { override }));
    if (mine !== seq) return;
    $('#matrix').removeAttribute('aria-busy');
    shownFor = text;
    last = { results };
    draw();
  }

  // The rows where the four settings do the same are hidden unless every
  // step is asked for (allRows); then, in a matrix of more than FOLD_ROWS
  // rows, runs of at least FOLD_RUN such rows are folded into one row: what
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
      return { differs, tr: h('tr', { class: differs ? 'differs' : 'same' }, h('th', { scope: 'row' }, `${i + 1}. ${s.summary}`), cells), label: `${i + 1}` };
    });
    const differing = built.filter((b) => b.differs).length;
    const body = [];
    for (let k = 0; k < built.length;) {
      let end = k;
      while (end < built.length && !built[end].differs) end++;
      if (!allRows) {
        // only the rows that differ
      } else if (!showSame && built.length > FOLD_ROWS && end - k >= FOLD_RUN) {
        body.push(h('tr', { class: 'same-rows' }, h('th', { scope: 'row', colspan: String(combos.length + 1) },
          `${end - k} steps (${built[k].label}–${built[end - 1].label}) where all four settings do the same `,
          h('button', { type: 'button', class: 'linklike show-same', onclick: () => { showSame = true; draw(); } }, 'show them'))));
      } else {
        for (let j = k; j < end; j++) body.push(built[j].tr);
      }
      if (end < built.length) body.push(built[end].tr);
      k = end + 1;
    }
    const toggle = h('label', { class: 'matrix-all' }, h('input', {
      type: 'checkbox', checked: allRows,
      onchange: (ev) => { allRows = ev.target.checked; draw(); $('#matrix .matrix-all input')?.focus(); },
    }), ` show every step (${rows.length}), not only the ${differing} where the settings differ`);
    const hint = differing ? '' : h('p', { class: 'matrix-hint' },
      rows.length ? `So far all four settings do the same at every step of this scenario. They differ in what happens afterwards: act on an object in the Cluster pane first (delete or edit a generated object, delete the policy or the trigger), then look again.`
        : 'This scenario has no step yet.');
    replace($('#matrix'), hint, rows.length ? toggle : '', h('table', { class: 'matrix', hidden: !differing && !allRows },
      h('caption', {}, `What Kyverno does at each step of this scenario, under each setting: ${differing} of ${rows.length} step${rows.length === 1 ? '' : 's'} differ (hover or click a reaction for its reason)`),
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
    /** textChanged takes down a table that is not for the scenario as it now reads. */
    textChanged() { if ($('#matrix-box').open) pending(page.text()); },
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
// reason; churn-only updates and Kyverno's own bookkeeping objects (its
// webhook configuration, policy reports) are left out.
function reactions(step, reader, i) {
  if (!step) return [];
  const changes = new Map((step.changes || []).map((c) => [refString(c.object), c]));
  return (step.events || []).filter((e) => e.actor !== 'user' && e.action !== 'note' && !isKyvernoOwn(e.object))
    .filter((e) => !(e.action === 'updated' && e.object && churnOnly(changes.get(refString(e.object)))))
    .map((e) => {
      const ref = e.object ? refString(e.object) : '';
      // What Kyverno leaves deleted (kept or ignored while it is gone) stays deleted.
      const gone = ref && !reader.get(i, e.object) && (e.action === 'ignored' || e.action === 'kept');
      return { text: `${gone ? 'stays deleted:' : e.action} ${ref}`.trim(), reason: e.reason || '', action: e.action };
    });
}

function reactionButton(x) {
  const reason = h('div', { class: 'reason', hidden: true }, reasonText(x.reason));
  return h('div', { class: 'reaction-line' },
    h('button', {
      type: 'button', class: `linklike reaction action-${x.action}`, title: x.reason, 'aria-expanded': 'false',
      onclick: (ev) => { reason.hidden = !reason.hidden; ev.currentTarget.setAttribute('aria-expanded', String(!reason.hidden)); },
    }, x.text), reason);
}
