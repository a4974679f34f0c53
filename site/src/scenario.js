// Scenario editing: the playground's actions are chainsaw operations appended
// to the Test as new steps, so the scenario stays a runnable chainsaw test.
// Every edit changes only the text it must: a new step is inserted after the
// last one, in the document's own indentation, and the rest of the text
// (its layout, key order and comments) is left as the user wrote it.
import YAML from 'yaml';
import { refOf } from './objects.js';

/** parse returns the YAML document of a scenario, or throws on a syntax error. */
export function parse(text) {
  const doc = YAML.parseDocument(text);
  if (doc.errors.length) throw new Error(doc.errors[0].message);
  return doc;
}

const lineStart = (text, pos) => text.lastIndexOf('\n', pos - 1) + 1;
const column = (text, pos) => pos - lineStart(text, pos);
// lineEnd is the position after the newline that ends pos's line.
const lineEnd = (text, pos) => {
  const nl = text.indexOf('\n', pos);
  return nl < 0 ? text.length : nl + 1;
};

/** stepsOf returns spec.steps as a block sequence node, or null. */
export function stepsOf(doc) {
  const steps = doc.getIn(['spec', 'steps'], true);
  return YAML.isSeq(steps) && !steps.flow && steps.items.length && steps.range ? steps : null;
}

// itemStart is where a sequence item's line starts (its "- "), and itemEnd
// where its last line ends.
export const itemStart = (text, item) => lineStart(text, item.range[0]);
export const itemEnd = (text, item) => {
  const end = item.range[2];
  return end > 0 && text[end - 1] === '\n' ? end : lineEnd(text, Math.max(end - 1, 0));
};

/**
 * appendStep adds `- name: NAME, try: [OPERATION]` to spec.steps. OPERATION
 * may hold YAML nodes (sourceResource), which keep their comments and order.
 */
export function appendStep(text, name, operation) {
  const doc = parse(text);
  const steps = stepsOf(doc);
  if (!steps) {
    doc.setIn(['spec', 'steps'], doc.createNode([{ name, try: [operation] }]));
    return doc.toString({ lineWidth: 0 });
  }
  const first = steps.items[0];
  const dash = column(text, text.lastIndexOf('-', first.range[0]));
  const spec = doc.get('spec', true);
  const key = spec.items.find((p) => YAML.isScalar(p.key) && p.key.value === 'steps')?.key;
  const indentSeq = key?.range ? dash > column(text, key.range[0]) : true;
  const out = new YAML.Document();
  out.contents = out.createNode([{ name, try: [operation] }]);
  const body = out.toString({ lineWidth: 0, indentSeq }).replace(/\n$/, '').split('\n')
    .map((l) => (l ? ' '.repeat(dash) + l : l)).join('\n');
  const at = itemEnd(text, steps.items[steps.items.length - 1]);
  const before = text.slice(0, at);
  return `${before}${before.endsWith('\n') || !before ? '' : '\n'}${body}\n${text.slice(at)}`;
}

/** stepNames lists the chainsaw steps' names as the engine reports them. */
export function stepNames(text) {
  try {
    const steps = stepsOf(parse(text));
    return steps ? steps.items.map((s, i) => (YAML.isMap(s) && s.get('name')) || `step-${i + 1}`) : [];
  } catch {
    return [];
  }
}

/** removeStep deletes the i-th chainsaw step's lines. */
export function removeStep(text, i) {
  const steps = stepsOf(parse(text));
  if (!steps || i < 0 || i >= steps.items.length) throw new Error('no such step');
  if (steps.items.length === 1) throw new Error('the scenario needs at least one step');
  const item = steps.items[i];
  return text.slice(0, itemStart(text, item)) + text.slice(itemEnd(text, item));
}

const WRITES = ['apply', 'create', 'update'];

// writes yields every resource node that a write operation of the scenario
// writes in full: {node} for `OP: {resource: ...}`.
function* writes(doc) {
  const steps = doc.getIn(['spec', 'steps'], true);
  if (!YAML.isSeq(steps)) return;
  for (const step of steps.items) {
    for (const block of ['try', 'finally']) {
      const ops = YAML.isMap(step) ? step.get(block, true) : null;
      if (!YAML.isSeq(ops)) continue;
      for (const op of ops.items) {
        for (const w of WRITES) {
          const res = YAML.isMap(op) ? op.getIn([w, 'resource'], true) : null;
          if (YAML.isMap(res)) yield res;
        }
      }
    }
  }
}

/**
 * sourceResource returns a copy of the YAML node the scenario last wrote
 * for ref ({kind, namespace, name}) in full (apply, create or update), or
 * null: what the user wrote, in their order and with their comments.
 */
export function sourceResource(text, ref) {
  let found = null;
  try {
    for (const res of writes(parse(text))) {
      if (res.get('kind') !== ref.kind || res.getIn(['metadata', 'name']) !== ref.name) continue;
      const ns = res.getIn(['metadata', 'namespace']);
      if (ns && ns !== (ref.namespace || '')) continue;
      found = res;
    }
  } catch {
    return null;
  }
  return found ? found.clone() : null;
}

const isCELPolicy = (res) => /^policies\.kyverno\.io\//.test(String(res.get('apiVersion'))) &&
  ['GeneratingPolicy', 'NamespacedGeneratingPolicy'].includes(res.get('kind'));

/**
 * setGenerateFields sets fields ({synchronize: false, ...}) on every generate
 * rule of every policy the scenario writes, in place: a value that is
 * written is replaced on its line, a missing one is added as the first line
 * of its generate block. On a GeneratingPolicy or NamespacedGeneratingPolicy
 * the same names are its spec.evaluation.<field>.enabled.
 */
export function setGenerateFields(text, fields) {
  const entries = Object.entries(fields);
  // One field at a time: two fields may need the same missing map.
  if (entries.length > 1) return entries.reduce((t, [k, v]) => setGenerateFields(t, { [k]: v }), text);
  const doc = parse(text);
  const edits = []; // [from, to, insert]
  for (const res of writes(doc)) {
    if (isCELPolicy(res)) {
      // A GeneratingPolicy's spec.evaluation.<field>.enabled, written where
      // it is, or added (with the maps it needs) as the first line of the
      // innermost block map the policy has on that path.
      for (const [field, value] of Object.entries(fields)) {
        const path = ['spec', 'evaluation', field, 'enabled'];
        const at = res.getIn(path, true);
        if (YAML.isScalar(at) && at.range) {
          if (at.value !== value) edits.push([at.range[0], at.range[1], String(value)]);
          continue;
        }
        if (at !== undefined) continue; // not a scalar: leave it to validation
        let node = res;
        let i = 0;
        for (; i < path.length - 1; i++) {
          const next = node.get(path[i], true);
          if (!YAML.isMap(next)) break;
          node = next;
        }
        if (i < path.length - 1 && node.get(path[i], true) !== undefined) continue; // a scalar in the way
        if (!YAML.isMap(node) || node.flow || !node.items.length) continue;
        const pos = node.items[0].key.range[0];
        const col = column(text, pos);
        const rest = path.slice(i);
        let insert = '';
        rest.forEach((k, j) => {
          insert += `${j ? ' '.repeat(col + 2 * j) : ''}${k}:${j === rest.length - 1 ? ` ${value}` : ''}\n`;
        });
        edits.push([pos, pos, insert + ' '.repeat(col)]);
      }
      continue;
    }
    if (!/^kyverno\.io\//.test(String(res.get('apiVersion'))) || !['ClusterPolicy', 'Policy'].includes(res.get('kind'))) continue;
    const rules = res.getIn(['spec', 'rules'], true);
    if (!YAML.isSeq(rules)) continue;
    for (const rule of rules.items) {
      const gen = YAML.isMap(rule) ? rule.get('generate', true) : null;
      if (!YAML.isMap(gen) || gen.flow || !gen.items.length) continue;
      for (const [field, value] of Object.entries(fields)) {
        const pair = gen.items.find((p) => YAML.isScalar(p.key) && p.key.value === field);
        if (pair && YAML.isScalar(pair.value) && pair.value.range) {
          if (pair.value.value !== value) edits.push([pair.value.range[0], pair.value.range[1], String(value)]);
        } else if (!pair) {
          const at = gen.items[0].key.range[0];
          edits.push([at, at, `${field}: ${value}\n${' '.repeat(column(text, at))}`]);
        }
      }
    }
  }
  edits.sort((a, b) => b[0] - a[0]);
  let out = text;
  for (const [from, to, insert] of edits) out = out.slice(0, from) + insert + out.slice(to);
  return out;
}

/** testName reads metadata.name, for file names. */
export function testName(text) {
  try {
    const name = parse(text).getIn(['metadata', 'name']);
    return typeof name === 'string' && /^[a-z0-9.-]+$/i.test(name) ? name : 'scenario';
  } catch {
    return 'scenario';
  }
}


const serverFields = ['uid', 'resourceVersion', 'creationTimestamp', 'generation', 'managedFields', 'selfLink', 'deletionTimestamp'];

// derivedLabels are labels the API server sets itself.
const derivedLabels = ['kubernetes.io/metadata.name'];

/**
 * manifest is the object as a user would write it: no server-set fields,
 * no derived labels, no status, apiVersion, kind and metadata first.
 */
export function manifest(o) {
  const m = structuredClone(o);
  for (const f of serverFields) delete m.metadata?.[f];
  for (const l of derivedLabels) delete m.metadata?.labels?.[l];
  if (m.metadata?.labels && !Object.keys(m.metadata.labels).length) delete m.metadata.labels;
  delete m.status;
  const { apiVersion, kind, metadata, ...rest } = m;
  const { name, namespace, ...meta } = metadata || {};
  return { apiVersion, kind, metadata: { name, ...(namespace ? { namespace } : {}), ...meta }, ...rest };
}

export const ops = {
  delete: (o) => ({ delete: { ref: refOf(o) } }),
  update: (m) => ({ update: { resource: m } }),
  create: (m) => ({ create: { resource: m } }),
  apply: (m) => ({ apply: { resource: m } }),
  sleep: (duration) => ({ sleep: { duration } }),
};

export const toYAML = (v) => YAML.stringify(v, { lineWidth: 0 });

/** fromYAML parses one object, throwing a readable error. */
export function fromYAML(text) {
  const doc = parse(text);
  const v = doc.toJS();
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error('expected one object (a mapping)');
  if (!v.apiVersion || !v.kind || !v.metadata?.name) throw new Error('the object needs apiVersion, kind and metadata.name');
  return v;
}

/** nodeToJS turns a node from sourceResource into plain data. */
export const nodeToJS = (node) => node.toJS();
