// Diffs of a change, for the playground: the timeline (format v2) carries
// each version of an object once, and a diff only where it is the sole
// record (a write undone within a step); the page renders the others from
// the two versions, as YAML the way it shows objects (toYAML), with the
// unified format and the three lines of context of the engine's diffs
// (engine/source.Diff).
import { toYAML } from './scenario.js';

const CONTEXT = 3;
// Beyond this many cells the line matcher gives up and shows the changed
// middle as removed and added again, as the engine's does.
const MAX_CELLS = 4 << 20;

const linesOf = (text) => (text === '' ? [] : text.replace(/\n$/, '').split('\n'));

/**
 * unifiedDiff returns the unified diff of two texts, line by line, or ''
 * when they are equal.
 */
export function unifiedDiff(aName, bName, a, b) {
  if (a === b) return '';
  const x = linesOf(a);
  const y = linesOf(b);
  let pre = 0;
  while (pre < x.length && pre < y.length && x[pre] === y[pre]) pre++;
  let suf = 0;
  while (suf < x.length - pre && suf < y.length - pre && x[x.length - 1 - suf] === y[y.length - 1 - suf]) suf++;
  const n = x.length - pre - suf;
  const m = y.length - pre - suf;
  // ops: [kind, line of a, line of b], 0-based, for every line.
  const ops = [];
  for (let i = 0; i < pre; i++) ops.push([' ', i, i]);
  if (n * m <= MAX_CELLS && n > 0 && m > 0) {
    const w = m + 1;
    const lcs = new Uint32Array((n + 1) * w);
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        lcs[i * w + j] = x[pre + i] === y[pre + j] ? lcs[(i + 1) * w + j + 1] + 1 : Math.max(lcs[(i + 1) * w + j], lcs[i * w + j + 1]);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && x[pre + i] === y[pre + j]) { ops.push([' ', pre + i, pre + j]); i++; j++; }
      else if (j < m && (i === n || lcs[i * w + j + 1] > lcs[(i + 1) * w + j])) { ops.push(['+', pre + i, pre + j]); j++; }
      else { ops.push(['-', pre + i, pre + j]); i++; }
    }
  } else {
    for (let i = 0; i < n; i++) ops.push(['-', pre + i, pre]);
    for (let j = 0; j < m; j++) ops.push(['+', pre + n, pre + j]);
  }
  for (let k = 0; k < suf; k++) ops.push([' ', pre + n + k, pre + m + k]);

  const out = [`--- ${aName}`, `+++ ${bName}`];
  for (let i = 0; i < ops.length; i++) {
    if (ops[i][0] === ' ') continue;
    const start = Math.max(0, i - CONTEXT);
    let end = i;
    while (end < ops.length) {
      if (ops[end][0] !== ' ') { end++; continue; }
      let k = end;
      while (k < ops.length && ops[k][0] === ' ') k++;
      if (k === ops.length || k - end > 2 * CONTEXT) { end = Math.min(end + CONTEXT, ops.length); break; }
      end = k;
    }
    const hunk = ops.slice(start, end);
    const aLen = hunk.filter((o) => o[0] !== '+').length;
    const bLen = hunk.filter((o) => o[0] !== '-').length;
    const range = (first, len) => (len === 1 ? `${first}` : `${len === 0 ? first - 1 : first},${len}`);
    out.push(`@@ -${range(hunk[0][1] + 1, aLen)} +${range(hunk[0][2] + 1, bLen)} @@`);
    for (const [kind, ai, bi] of hunk) out.push(kind + (kind === '+' ? y[bi] : x[ai]));
    i = end - 1;
  }
  return `${out.join('\n')}\n`;
}

/**
 * changeDiff is the diff of change j of step i of the reader's result: its
 * own diff when it has one, else the two versions' YAML.
 */
export function changeDiff(reader, i, j) {
  const c = reader.steps[i]?.changes?.[j];
  if (!c) return '';
  const own = Object.getOwnPropertyDescriptor(c, 'diff');
  if (own && 'value' in own && own.value) return own.value; // the answer's own: a write undone within the step
  const ref = c.object || {};
  const name = ref.namespace ? `${ref.kind} ${ref.namespace}/${ref.name}` : `${ref.kind} ${ref.name}`;
  const yaml = (o) => (o ? toYAML(o) : '');
  return unifiedDiff(`${name} (before)`, `${name} (after)`, yaml(reader.before(i, j)), yaml(reader.after(i, j)));
}
