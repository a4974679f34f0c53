// Step management: which lines of the scenario each timeline step ran from,
// and edits that remove or move a step. A timeline step is one run of a
// chainsaw operation (an operation on several resources, or a script of
// several commands, is several timeline steps); operations are found in the
// YAML text and matched to the timeline in order, by chainsaw step and
// operation type, so nothing needs to come from the engine. Edits work on
// the text as scenario.js does: only the moved or removed lines change.
import YAML from 'yaml';
import { read, stepsOf, itemStart, itemEnd, removeStep } from './scenario.js';

// Operations that never make a timeline step (the simulation has converged
// after every step; the rest are diagnostics for a real cluster).
const silent = new Set(['wait', 'get', 'describe', 'events', 'podLogs', 'proxy']);
const opTypes = ['apply', 'create', 'update', 'patch', 'delete', 'assert', 'error', 'sleep', 'script', 'command', ...silent];


/**
 * operations lists the scenario's chainsaw steps and their operations:
 * [{index, name, from, to, ops: [{step, block, index, type, from, to, single,
 * summary}]}], with character ranges that cover whole lines, or [] when the
 * text does not parse or has no block sequence of steps.
 */
export function operations(text) {
  let steps;
  try { steps = stepsOf(read(text)); } catch { return []; }
  if (!steps) return [];
  return steps.items.map((item, i) => {
    const name = (YAML.isMap(item) && item.get('name')) || `step-${i + 1}`;
    const ops = [];
    for (const block of ['try', 'finally']) {
      const seq = YAML.isMap(item) ? item.get(block, true) : null;
      if (!YAML.isSeq(seq)) continue;
      seq.items.forEach((op, j) => {
        if (!YAML.isMap(op) || !op.range) return;
        const type = opTypes.find((t) => op.has(t)) || '';
        ops.push({
          step: i, block, index: j, type, flow: !!seq.flow, count: seq.items.length,
          from: itemStart(text, op), to: itemEnd(text, op),
          single: isSingle(op, type), summary: summaryOf(op, type),
        });
      });
    }
    return { index: i, name: String(name), from: itemStart(text, item), to: itemEnd(text, item), ops };
  });
}

// isSingle tells an operation that makes exactly one timeline step: one
// inline resource, one named delete, a sleep.
function isSingle(op, type) {
  const body = op.get(type, true);
  if (type === 'sleep') return true;
  if (!YAML.isMap(body)) return false;
  if (type === 'delete') return YAML.isMap(body.get('ref', true)) && !!body.getIn(['ref', 'name']);
  return YAML.isMap(body.get('resource', true));
}

// summaryOf is the timeline's summary of an inline resource's operation
// ("apply Namespace team-a"), or '' when it cannot be known from the text.
function summaryOf(op, type) {
  const res = op.getIn([type, 'resource'], true) || op.getIn([type, 'ref'], true);
  if (!YAML.isMap(res)) return '';
  const kind = res.get('kind');
  const name = res.getIn(['metadata', 'name']) ?? res.get('name');
  const ns = res.getIn(['metadata', 'namespace']) ?? res.get('namespace');
  if (typeof kind !== 'string' || typeof name !== 'string') return '';
  return `${type} ${kind} ${ns ? `${ns}/` : ''}${name}`;
}

/**
 * locate matches the timeline's steps (result.steps) to the operations of
 * the text: for each timeline step, its operation (from operations), or
 * null for a step the scenario did not write (chainsaw's namespace) or that
 * no longer matches the text.
 */
export function locate(text, timeline, chainsaw = operations(text)) {
  let at = -1; // the chainsaw step the timeline is in
  let op = -1; // the index in its ops of the last matched operation
  let used = 0; // timeline steps matched to that operation
  return (timeline || []).map((s) => {
    if (at < 0 || chainsaw[at].name !== s.stepName) {
      const next = chainsaw.findIndex((c, i) => i > at && c.name === s.stepName);
      if (next < 0) return null;
      at = next;
      op = -1;
      used = 0;
    }
    const ops = chainsaw[at].ops;
    const cur = ops[op];
    const k = ops.findIndex((o, i) => i > op && o.type === s.operation);
    // The same operation again (a file of several resources, a script of
    // several commands), unless the next one is plainly this step.
    const stay = cur && cur.type === s.operation && !cur.single && used > 0 &&
      !(k >= 0 && ops[k].summary && ops[k].summary === s.summary);
    if (!stay) {
      if (k < 0) return null;
      op = k;
      used = 0;
    }
    used++;
    return ops[op];
  });
}

/** stepAt is the timeline step whose lines hold pos, preferring current; -1 for none. */
export function stepAt(located, chainsaw, pos, current) {
  const holds = (r) => r && pos >= r.from && pos < r.to;
  const op = located[current];
  if (holds(op)) return current;
  const i = located.findIndex(holds);
  if (i >= 0) return i;
  // Between operations (the step's name, its try: line): its first step.
  const step = chainsaw.find(holds);
  if (!step) return -1;
  if (located[current]?.step === step.index) return current;
  return located.findIndex((o) => o && o.step === step.index);
}

const swap = (text, a, b) => {
  // a before b, adjacent items of one sequence; what lies between stays.
  const A = text.slice(a.from, a.to);
  let B = text.slice(b.from, b.to);
  if (!B.endsWith('\n')) B += '\n';
  return text.slice(0, a.from) + B + text.slice(a.to, b.from) + A + text.slice(b.to);
};

/** removeOperation deletes an operation's lines, or its whole chainsaw step when it is the step's only operation. */
export function removeOperation(text, op) {
  const chainsaw = operations(text);
  const step = chainsaw[op.step];
  const cur = step?.ops.find((o) => o.block === op.block && o.index === op.index && o.type === op.type);
  if (!cur) throw new Error('the step is no longer in the scenario');
  if (step.ops.length === 1) return removeChainsawStep(text, op.step);
  if (cur.flow) throw new Error(`the step's ${cur.block} is written as a flow sequence ([...]); edit it in the text`);
  if (cur.count === 1) throw new Error(`it is the only operation of the step's ${cur.block}; remove the whole step`);
  return text.slice(0, cur.from) + text.slice(cur.to);
}

/** removeChainsawStep deletes the i-th chainsaw step's lines (scenario.js's removeStep). */
export const removeChainsawStep = removeStep;

/** moveChainsawStep swaps the i-th chainsaw step with the one before (dir -1) or after (dir 1). */
export function moveChainsawStep(text, i, dir) {
  const chainsaw = operations(text);
  const j = i + dir;
  if (!chainsaw[i] || !chainsaw[j]) throw new Error(dir < 0 ? 'it is the first step' : 'it is the last step');
  const [a, b] = dir < 0 ? [chainsaw[j], chainsaw[i]] : [chainsaw[i], chainsaw[j]];
  return swap(text, a, b);
}

/**
 * moveOperation moves an operation one place up (dir -1) or down (dir 1)
 * inside its step's try or finally; an operation alone in its chainsaw
 * step moves the whole step.
 */
export function moveOperation(text, op, dir) {
  const chainsaw = operations(text);
  const step = chainsaw[op.step];
  if (!step) throw new Error('the step is no longer in the scenario');
  if (step.ops.length === 1) return moveChainsawStep(text, op.step, dir);
  const block = step.ops.filter((o) => o.block === op.block);
  const k = block.findIndex((o) => o.index === op.index);
  if (k < 0) throw new Error('the step is no longer in the scenario');
  if (block[k].flow) throw new Error(`the step's ${op.block} is written as a flow sequence ([...]); edit it in the text`);
  const other = block[k + dir];
  if (!other) throw new Error(`it is the ${dir < 0 ? 'first' : 'last'} operation of its step's ${op.block}`);
  return dir < 0 ? swap(text, other, block[k]) : swap(text, block[k], other);
}

/** canMove tells whether moveOperation(op, dir) has somewhere to go. */
export function canMove(chainsaw, op, dir) {
  const step = chainsaw[op.step];
  if (!step) return false;
  if (step.ops.length === 1) return !!chainsaw[op.step + dir];
  const block = step.ops.filter((o) => o.block === op.block);
  const k = block.findIndex((o) => o.index === op.index);
  return !block[k]?.flow && !!block[k + dir];
}

