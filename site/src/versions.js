// Kyverno versions: the picker of the release every run simulates, and the
// comparison that runs the scenario under every release genplay simulates
// and shows the steps side by side, the ones that differ marked with the
// change between releases that explains them (engine.CompareVersions, the
// same as `genplay run --compare-versions`). The releases and their changes
// come from about.json (site/aboutgen, from engine/internal/upstream).
import { h, replace, $ } from './dom.js';
import { refString } from './objects.js';
import about from './about.json';

/** latestKyverno is the default release, the latest genplay simulates. */
export const latestKyverno = about.kyverno;

const known = new Set(about.versions.map((v) => v.version));
const changeOf = new Map(about.changes.map((c) => [c.id, c]));

/**
 * says is a change in the words a reason that depends on the release gives
 * it (upstream.Change.Says in the engine): "Kyverno v1.19.0 and earlier
 * ...; v1.19.1 and later ... (kyverno#16920)".
 */
function says(c) {
  const i = about.versions.findIndex((v) => v.version === c.since);
  return i > 0 ? `Kyverno ${about.versions[i - 1].version} and earlier ${c.before}; ${c.since} and later ${c.after} (${c.id})` : null;
}

/**
 * ownWords is a reason without the clauses that say the changes ids both
 * ways: the comparison names each change once, in its row and in the list
 * below the table, so that every cell does not repeat it.
 */
function ownWords(reason, ids) {
  let r = reason;
  for (const id of ids || []) {
    const c = changeOf.get(id);
    const clause = c && says(c);
    if (clause) r = r.replace(`: ${clause}`, '').replace(clause, '');
  }
  return r.trim();
}

/** changeLink is a link to a change between releases ("kyverno#16920"). */
export function changeLink(id) {
  const c = changeOf.get(id);
  return h('a', { class: 'version-change', href: c ? c.url : '#', target: '_blank', rel: 'noopener', title: c ? `${c.title} (since ${c.since})` : id }, id);
}

/**
 * createVersions wires the picker and the comparison.
 * page: {state, ready(), text(), compareVersions(text), run(reason), setStatus, saveView(), hideShare()}
 */
export function createVersions(page) {
  const { state } = page;
  const select = $('#kyverno-version');
  for (const v of [...about.versions].reverse()) {
    select.append(h('option', { value: v.version, title: v.summary }, v.version === latestKyverno ? `Kyverno ${v.version} (latest)` : `Kyverno ${v.version}`));
  }
  select.value = state.kyverno;
  select.addEventListener('change', () => {
    state.kyverno = select.value;
    page.hideShare();
    page.saveView();
    page.run('edit');
  });

  let open = false;
  let seq = 0;

  async function compare() {
    if (!page.ready()) return;
    open = true;
    $('#versions-pane').hidden = false;
    document.body.dataset.versions = 'running';
    const mine = ++seq;
    const c = await page.compareVersions(page.text());
    if (mine !== seq) return;
    if (c.format !== 'genplay.versions/v1') {
      // The input cannot run (the answer is a timeline with its errors).
      replace($('#versions'), h('p', { class: 'error' }, (c.diagnostics || []).map((d) => d.message).join('; ') || 'The scenario could not run.'));
      document.body.dataset.versions = 'error';
      return;
    }
    render(c);
    document.body.dataset.versions = 'ready';
    page.setStatus(`Kyverno ${c.versions.join(', ')}: ${c.differs} of ${c.steps.length} step${c.steps.length === 1 ? '' : 's'} differ`, c.differs ? 'warn' : 'ok');
  }

  function eventText(e) {
    return `${e.actor} ${e.action}${e.object ? ` ${refString(e.object)}` : ''}`;
  }

  function cell(run, differs) {
    if (!run.ran) return h('td', { class: 'not-run' }, 'not run: the run stopped earlier');
    const events = run.events.filter((e) => e.actor !== 'user');
    const items = events.map((e) => h('li', { class: `event action-${e.action}`, dataset: { action: e.action } },
      h('span', { class: `badge action ${e.action}` }, e.action), ' ', e.object ? refString(e.object) : '',
      (e.versionChanges || []).length ? [' ', ...e.versionChanges.map(changeLink)] : '',
      differs && e.reason ? h('div', { class: 'reason' }, ownWords(e.reason, e.versionChanges)) : ''));
    if (run.error) items.push(h('li', { class: 'error' }, `error: ${run.error}`));
    if (run.check) items.push(h('li', { class: run.check.passed ? 'ok' : 'error' }, run.check.passed ? 'check passed' : `check failed: ${run.check.failures.join('; ')}`));
    return h('td', { title: events.map(eventText).join('\n') }, items.length ? h('ul', {}, items) : h('span', { class: 'sub' }, 'Kyverno did nothing'));
  }

  function render(c) {
    const head = h('tr', {}, h('th', { scope: 'col' }, 'Step'), c.versions.map((v) => h('th', { scope: 'col' },
      `Kyverno ${v}`, ' ', h('span', { class: c.passed[v] ? 'ok' : 'error' }, c.passed[v] ? 'passed' : 'failed'))));
    const rows = c.steps.map((st) => {
      let why = '';
      if (st.differs) {
        why = st.explained?.length
          ? h('div', { class: 'why' }, 'differs: ', st.explained.map((id, i) => [i ? '; ' : '', changeLink(id), ` ${changeOf.get(id)?.title || ''}`]))
          : h('div', { class: 'why' }, st.followsFrom >= 0 ? `differs: follows from step ${st.followsFrom + 1}, where the clusters began to differ` : 'differs');
      }
      return h('tr', { class: st.differs ? 'differs' : '', dataset: { index: String(st.index), differs: String(st.differs) } },
        h('th', { scope: 'row' }, h('span', { class: 'step-no' }, `${st.index + 1}`), ' ', st.summary, why),
        st.runs.map((r) => cell(r, st.differs)));
    });
    const changes = c.changes.length ? h('ul', { class: 'version-changes' }, c.changes.map((ch) => h('li', {},
      changeLink(ch.id), ` (since ${ch.since}, ${ch.family}) ${ch.title}: releases before ${ch.since} ${ch.before}; ${ch.since} and later ${ch.after}.`))) : '';
    replace($('#versions'),
      h('p', { class: 'sub' }, c.differs ? `${c.differs} of ${c.steps.length} steps differ between releases.` : 'Every release does the same here.'),
      h('div', { class: 'versions-scroll' }, h('table', { class: 'versions-table' }, h('thead', {}, head), h('tbody', {}, rows))),
      changes);
  }

  $('#compare-versions').addEventListener('click', compare);
  $('#versions-close').addEventListener('click', () => { open = false; seq++; $('#versions-pane').hidden = true; delete document.body.dataset.versions; });

  return {
    /** chosen is the picked release when it is not the default, else null. */
    chosen: () => (state.kyverno === latestKyverno ? null : state.kyverno),
    /** pick sets the release (from a share link or a reload); unknown ones are ignored. */
    pick(v) {
      if (!v) return;
      const name = v.startsWith('v') ? v : `v${v}`;
      if (!known.has(name)) return;
      state.kyverno = name;
      select.value = name;
    },
    /** refresh runs the comparison again when it is shown. */
    refresh() { if (open) compare(); },
  };
}
