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

// The last texts read: an action reads the new text once for the step it
// adds, the timeline's step lines and the relations' marks.
const readDocs = [];

/**
 * read is parse for readers that do not change the document: the same
 * text gives the same document (the last few are kept), so do not change
 * it; parse gives a document of one's own.
 */
export function read(text) {
  const hit = readDocs.find((d) => d.text === text);
  if (hit) {
    if (hit.error) throw hit.error;
    return hit.doc;
  }
  let doc = null;
  let error = null;
  try { doc = parse(text); } catch (e) { error = e; }
  readDocs.unshift({ text, doc, error });
  readDocs.length = Math.min(readDocs.length, 3);
  if (error) throw error;
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
 * appendStep adds `- name: NAME, try: [OPERATION]` to spec.steps, in the
 * style the steps are written in: a block item in the list's indentation,
 * or an item of a flow list ([...], JSON included) in its layout, as JSON
 * when the list's keys are quoted. OPERATION may hold YAML nodes
 * (sourceResource), which keep their comments and order in a block list.
 * It throws rather than lose anything: the result must hold every step the
 * text had, then the new one, and the rest of the document unchanged.
 */
export function appendStep(text, name, operation) {
  const doc = read(text);
  const step = { name, try: [operation] };
  const want = plain(doc);
  const seq = doc.getIn(['spec', 'steps'], true);
  let out;
  if (YAML.isSeq(seq) && seq.flow && seq.range) {
    out = appendFlow(text, seq, step);
  } else if (YAML.isSeq(seq) && seq.items.length && seq.range) {
    out = appendBlock(text, doc, seq, step);
  } else if (seq === undefined || seq === null || (YAML.isScalar(seq) && seq.value === null) || (YAML.isSeq(seq) && !seq.items.length)) {
    const own = parse(text); // changed: not the shared document
    own.setIn(['spec', 'steps'], own.createNode([step]));
    out = own.toString({ lineWidth: 0 });
  } else {
    throw new Error('spec.steps is not a list of steps');
  }
  const steps = want.spec?.steps;
  want.spec = { ...(want.spec || {}), steps: [...(Array.isArray(steps) ? steps : []), plain(new YAML.Document(step))] };
  if (!sameData(read(out).toJS(), want)) throw new Error('the step cannot be added without changing the rest of the scenario; add it in the text');
  return out;
}

// plain is a document's data before the edit (a document, or a step).
const plain = (doc) => {
  const v = doc.toJS();
  return v && typeof v === 'object' ? v : {};
};

// sameData compares two values as data (key order aside).
function sameData(a, b) {
  const canon = (v) => (Array.isArray(v) ? v.map(canon)
    : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canon(v[k])])) : v);
  return JSON.stringify(canon(a)) === JSON.stringify(canon(b));
}

function appendBlock(text, doc, steps, step) {
  const first = steps.items[0];
  const dash = column(text, text.lastIndexOf('-', first.range[0]));
  const spec = doc.get('spec', true);
  const key = spec.items.find((p) => YAML.isScalar(p.key) && p.key.value === 'steps')?.key;
  const indentSeq = key?.range ? dash > column(text, key.range[0]) : true;
  const out = new YAML.Document();
  out.contents = out.createNode([step]);
  const body = out.toString({ lineWidth: 0, indentSeq }).replace(/\n$/, '').split('\n')
    .map((l) => (l ? ' '.repeat(dash) + l : l)).join('\n');
  const at = itemEnd(text, steps.items[steps.items.length - 1]);
  const before = text.slice(0, at);
  return `${before}${before.endsWith('\n') || !before ? '' : '\n'}${body}\n${text.slice(at)}`;
}

// appendFlow adds the step to a flow list of steps: after its last item,
// on a line of its own when the items are, indented as they are; as JSON
// when the list's first item quotes its keys (a JSON document), else as a
// YAML flow mapping.
function appendFlow(text, steps, step) {
  const data = new YAML.Document(step).toJS();
  const first = steps.items[0];
  const json = quotesKeys(first) || (!first && quotesKeys(YAML.parseDocument(text).contents));
  const flowYAML = () => {
    const d = new YAML.Document(data);
    d.contents.flow = true;
    return d.toString({ lineWidth: 0, doubleQuotedMinMultiLineLength: Infinity }).replace(/\n$/, '');
  };
  if (!first) {
    const close = steps.range[1] - 1; // the ]
    return text.slice(0, close) + (json ? JSON.stringify(data) : flowYAML()) + text.slice(close);
  }
  const last = steps.items[steps.items.length - 1];
  const end = last.range[1];
  const itemCol = column(text, first.range[0]);
  const ownLine = text.slice(lineStart(text, first.range[0]), first.range[0]).trim() === '';
  if (!ownLine) return `${text.slice(0, end)}, ${json ? JSON.stringify(data) : flowYAML()}${text.slice(end)}`;
  const firstText = text.slice(first.range[0], first.range[1]);
  let body;
  if (json && firstText.includes('\n')) {
    const key = YAML.isMap(first) ? first.items[0]?.key : null;
    const unit = key?.range ? Math.max(1, column(text, key.range[0]) - itemCol) : 2;
    body = JSON.stringify(data, null, unit).split('\n').map((l, i) => (i ? ' '.repeat(itemCol) + l : l)).join('\n');
  } else {
    body = json ? JSON.stringify(data) : flowYAML();
  }
  return `${text.slice(0, end)},\n${' '.repeat(itemCol)}${body}${text.slice(end)}`;
}

// quotesKeys tells a mapping whose first key is "quoted", as JSON's are.
const quotesKeys = (node) => YAML.isMap(node) && node.items[0]?.key?.type === 'QUOTE_DOUBLE';

// stepList is spec.steps as a sequence node (block or flow), or null.
function stepList(doc) {
  const steps = doc.getIn(['spec', 'steps'], true);
  return YAML.isSeq(steps) && steps.range ? steps : null;
}

/** stepNames lists the chainsaw steps' names as the engine reports them. */
export function stepNames(text) {
  try {
    const steps = stepList(read(text));
    return steps ? steps.items.map((s, i) => (YAML.isMap(s) && s.get('name')) || `step-${i + 1}`) : [];
  } catch {
    return [];
  }
}

/**
 * removeStep deletes the i-th chainsaw step: its lines in a block list; in
 * a flow list ([...], JSON) the item and the comma before it (after it, for
 * the first).
 */
export function removeStep(text, i) {
  const steps = stepList(read(text));
  if (!steps || i < 0 || i >= steps.items.length) throw new Error('no such step');
  if (steps.items.length === 1) throw new Error('the scenario needs at least one step');
  const item = steps.items[i];
  if (!steps.flow) return text.slice(0, itemStart(text, item)) + text.slice(itemEnd(text, item));
  if (i > 0) return text.slice(0, steps.items[i - 1].range[1]) + text.slice(item.range[1]);
  return text.slice(0, item.range[0]) + text.slice(steps.items[1].range[0]);
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
    for (const res of writes(read(text))) {
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
 * written is replaced where it is, a missing one is added as the first
 * entry of its generate mapping (block or flow, JSON included). On a
 * GeneratingPolicy or NamespacedGeneratingPolicy the same names are its
 * spec.evaluation.<field>.enabled, added with the mappings it needs.
 */
export function setGenerateFields(text, fields) {
  const entries = Object.entries(fields);
  // One field at a time: two fields may need the same missing map.
  if (entries.length > 1) return entries.reduce((t, [k, v]) => setGenerateFields(t, { [k]: v }), text);
  const doc = parse(text);
  const edits = []; // [from, to, insert]
  const set = (node, path, value) => {
    const at = node.getIn(path, true);
    if (YAML.isScalar(at) && at.range) {
      if (at.value !== value) edits.push([at.range[0], at.range[1], String(value)]);
      return;
    }
    if (at !== undefined) return; // not a scalar: leave it to validation
    // The innermost mapping on the path that exists.
    let map = node;
    let i = 0;
    for (; i < path.length - 1; i++) {
      const next = map.get(path[i], true);
      if (!YAML.isMap(next)) break;
      map = next;
    }
    if (i < path.length - 1 && map.get(path[i], true) !== undefined) return; // a scalar in the way
    const edit = insertKey(text, map, path.slice(i), value);
    if (edit) edits.push(edit);
  };
  for (const res of writes(doc)) {
    if (isCELPolicy(res)) {
      for (const [field, value] of entries) set(res, ['spec', 'evaluation', field, 'enabled'], value);
      continue;
    }
    if (!/^kyverno\.io\//.test(String(res.get('apiVersion'))) || !['ClusterPolicy', 'Policy'].includes(res.get('kind'))) continue;
    const rules = res.getIn(['spec', 'rules'], true);
    if (!YAML.isSeq(rules)) continue;
    for (const rule of rules.items) {
      const gen = YAML.isMap(rule) ? rule.get('generate', true) : null;
      if (!YAML.isMap(gen) || !gen.range) continue;
      for (const [field, value] of entries) set(gen, [field], value);
    }
  }
  edits.sort((a, b) => b[0] - a[0]);
  let out = text;
  for (const [from, to, insert] of edits) out = out.slice(0, from) + insert + out.slice(to);
  return out;
}

// insertKey is the edit [from, to, insert] that adds path (keys, the last
// one set to value) as the first entry of map: a line of its own in a block
// mapping, `key: {...}, ` after the { of a flow one, with "quoted" keys
// where the mapping quotes its own. null when map has no place for it.
function insertKey(text, map, path, value) {
  if (!YAML.isMap(map) || !map.range) return null;
  if (map.flow) {
    const q = quotesKeys(map) ? JSON.stringify : (k) => k;
    const nested = path.slice(1).reduceRight((v, k) => `{${q(k)}: ${v}}`, String(value));
    const open = text.indexOf('{', map.range[0]);
    if (open < 0 || open >= map.range[1]) return null;
    return [open + 1, open + 1, `${q(path[0])}: ${nested}${map.items.length ? ', ' : ''}`];
  }
  if (!map.items.length) return null;
  const pos = map.items[0].key.range[0];
  const col = column(text, pos);
  let insert = '';
  path.forEach((k, j) => {
    insert += `${j ? ' '.repeat(col + 2 * j) : ''}${k}:${j === path.length - 1 ? ` ${value}` : ''}\n`;
  });
  return [pos, pos, insert + ' '.repeat(col)];
}

/** testName reads metadata.name, for file names. */
export function testName(text) {
  try {
    const name = read(text).getIn(['metadata', 'name']);
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
