// The links between the playground's views (issue 15): a timeline step and
// the lines of the scenario it ran from, both ways, with tools to move or
// remove it; the selected object and what relates to it, marked in the
// cluster view, in the scenario and in a diagram of the current step.
// app.js owns the state and the rendering; it calls these hooks.
import './relations.css';
import { h, replace, $ } from './dom.js';
import { getText } from './editor.js';
import { operations, locate, stepAt, canMove, moveOperation, moveChainsawStep, removeOperation, removeChainsawStep } from './steps.js';
import { links, related, lines, diagram, drawEdges } from './relations.js';
import { installMarks, mark, reveal, revealAny } from './marks.js';

// roleLabels say, on an object, how it relates to the selected one.
const roleLabels = {
  trigger: 'its trigger', policy: 'its policy', source: 'its clone source',
  downstream: 'its downstream', copy: 'its copy',
};

/**
 * createLinks wires the views. app: {editor, state, steps(), selectStep(i),
 * selectObject(key), edit(text), ranText()}: edit applies a new scenario
 * text as an action (Undo keeps the old one) and runs it; ranText is the
 * text the shown result ran from.
 */
export function createLinks(app) {
  const { editor, state } = app;
  // Operations and their timeline steps, for the text that ran: read once
  // per text and result (a render asks for every step's tools).
  let memo = { text: null, steps: null, value: null };
  const located = () => {
    const text = getText(editor);
    if (state.broken || text !== app.ranText()) return { chainsaw: [], at: [] };
    const steps = app.steps();
    if (memo.text !== text || memo.steps !== steps) {
      const chainsaw = operations(text);
      memo = { text, steps, value: { chainsaw, at: locate(text, steps, chainsaw) } };
    }
    return memo.value;
  };

  installMarks(editor, (pos) => {
    const { chainsaw, at } = located();
    const i = stepAt(at, chainsaw, pos, state.step);
    if (i >= 0 && i !== state.step) app.selectStep(i);
  });

  const change = (f, what) => {
    let text;
    try { text = f(getText(editor)); } catch (e) { app.setStatus(`cannot ${what}: ${e.message}`, 'error'); return; }
    app.edit(text);
  };

  let shown = null; // the selection whose lines were last revealed

  const tool = (label, action, title, disabled, fn) => h('button', {
    type: 'button', class: 'step-tool', dataset: { action }, title, 'aria-label': title, disabled, onclick: fn,
  }, label);

  // The links of a cluster and what relates to the selection, once per
  // cluster, step and selection: the cluster view asks before it renders,
  // the relations after.
  let relMemo = { cluster: null, step: -1, selected: null, value: null };
  const relationsOf = (cluster) => {
    if (relMemo.cluster !== cluster || relMemo.step !== state.step || relMemo.selected !== state.selected) {
      const upTo = app.steps().slice(0, state.step + 1).flatMap((s) => s.events || []);
      const list = links(cluster, upTo);
      relMemo = { cluster, step: state.step, selected: state.selected, value: { list, rel: related(list, state.selected) } };
    }
    return relMemo.value;
  };

  return {
    /** relatedTo is the set of keys related to the selected object in the cluster. */
    relatedTo(cluster) { return new Set(relationsOf(cluster).rel.roles.keys()); },

    /** stepTools are the move and remove buttons of timeline step i (on the first timeline step of each operation). */
    stepTools(i) {
      const { chainsaw, at } = located();
      const op = at[i];
      if (!op || (i > 0 && at[i - 1] === op)) return '';
      const step = chainsaw[op.step];
      const alone = step.ops.length === 1;
      const what = alone ? `the step "${step.name}"` : `this ${op.type} from the step "${step.name}"`;
      const removable = alone ? chainsaw.length > 1 : op.count > 1 && !op.flow;
      const out = [h('span', { class: 'step-tools', role: 'group', 'aria-label': `Step ${i + 1}` },
        tool('↑', 'move-up', `Move ${what} up`, !canMove(chainsaw, op, -1), () => change((t) => moveOperation(t, op, -1), 'move it')),
        tool('↓', 'move-down', `Move ${what} down`, !canMove(chainsaw, op, 1), () => change((t) => moveOperation(t, op, 1), 'move it')),
        tool('✕', 'remove-step', `Remove ${what}`, !removable, () => change((t) => removeOperation(t, op), 'remove it')))];
      // A step of several operations: the whole step moves and goes too.
      if (!alone && at.findIndex((o) => o && o.step === op.step) === i) {
        out.push(h('div', { class: 'chainsaw-step-tools sub' }, `whole step "${step.name}": `,
          tool('↑', 'move-chainsaw-step-up', `Move the step "${step.name}" up`, !chainsaw[op.step - 1], () => change((t) => moveChainsawStep(t, op.step, -1), 'move the step')),
          tool('↓', 'move-chainsaw-step-down', `Move the step "${step.name}" down`, !chainsaw[op.step + 1], () => change((t) => moveChainsawStep(t, op.step, 1), 'move the step')),
          tool('✕', 'remove-chainsaw-step', `Remove the step "${step.name}"`, chainsaw.length < 2, () => change((t) => removeChainsawStep(t, op.step), 'remove the step'))));
      }
      return out;
    },

    /** revealStep scrolls the scenario to timeline step i's lines. */
    revealStep(i) {
      const op = located().at[i];
      if (op) reveal(editor, op.from);
    },

    /**
     * renderRelations marks the objects related to the selected one in the
     * cluster view, draws the diagram of this step and marks the scenario's
     * lines: the current step's, and those that wrote the related objects.
     */
    renderRelations(cluster, shown = null) {
      const { list, rel } = relationsOf(cluster);
      for (const b of document.querySelectorAll('#cluster button.object')) {
        const role = rel.roles.get(b.dataset.ref);
        b.classList.toggle('related', !!role);
        if (role) {
          b.dataset.relation = role;
          b.dataset.relationLabel = roleLabels[role];
        } else {
          delete b.dataset.relation;
          delete b.dataset.relationLabel;
        }
      }
      const box = $('#relations');
      if (box) {
        // The links of what the cluster view shows (shown: its keys), when
        // it folds namespaces nothing happened in; the others are counted.
        const seen = shown ? list.filter((x) => [x.downstream, x.trigger, x.source].some((n) => n && shown.has(n.key))) : list;
        const d = diagram(seen, state.selected, (key) => app.selectObject(key));
        replace(box, d, seen.length < list.length
          ? h('p', { class: 'sub rel-folded' }, `${list.length - seen.length} more link${list.length - seen.length === 1 ? '' : 's'} in the namespaces nothing happened in at this step (open them in the cluster view)`) : '');
        drawEdges(d);
      }
      const text = getText(editor);
      const ranges = lines(text, state.selected, rel, list).map((r) => ({ ...r, class: `cm-rel cm-rel-${r.role}` }));
      // A new selection shows its lines when none of them is in view.
      if (state.selected !== shown) revealAny(editor, ranges.map((r) => r.from));
      shown = state.selected;
      const op = located().at[state.step];
      if (op) ranges.push({ from: op.from, to: op.to, class: 'cm-step-line' });
      mark(editor, ranges);
    },

    /** redraw draws the diagram's edges again (the box was opened, the page resized). */
    redraw() { drawEdges($('#relations .rel-diagram')); },
  };
}
