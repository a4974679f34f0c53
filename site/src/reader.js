// The reader of genplay's timeline, format genplay.timeline/v2 (described
// once, in engine/timeline/doc.go): the cluster after any step and every
// change's versions, made from the result's "initial" objects and each
// step's changes, as the Go reader (engine/timeline: Cluster, Decode) does.
// The playground and the embed read results only through it; it has no
// dependencies, so the embed stays small.

export const FORMAT = 'genplay.timeline/v2';

const groupOf = (apiVersion = '') => {
  const i = apiVersion.lastIndexOf('/');
  return i < 0 ? '' : apiVersion.slice(0, i);
};

// keyOf names an object as the API server stores it: the versions of a kind
// share storage, so the version is not part of the key.
const keyOf = (ref) => [groupOf(ref.apiVersion), ref.kind || '', ref.namespace || '', ref.name || ''];
const keyString = (k) => k.join('\u0000');
const refOfObject = (o) => ({ apiVersion: o.apiVersion, kind: o.kind, namespace: o.metadata?.namespace, name: o.metadata?.name });

const compareKeys = (a, b) => {
  for (let i = 0; i < 4; i++) {
    if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return 0;
};

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * applyPatch returns target with a JSON merge patch (RFC 7386) applied,
 * changing neither: what the patch leaves alone is shared with target.
 */
export function applyPatch(target, patch) {
  if (!isObject(patch)) return patch;
  const out = isObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = applyPatch(out[k], v);
  }
  return out;
}

// How many sorted clusters a Reader keeps for steps asked again.
const KEEP = 4;

/**
 * Reader reads one result. Its versions are made once, on the first
 * question, in one pass over the changes: the same version is the same
 * object every time it is asked for, so a view can tell unchanged objects
 * by identity. Each object's history (the steps that changed it) answers
 * "what was it after step i" without replaying the steps.
 */
export class Reader {
  constructor(result) {
    this.result = result;
    this.steps = result?.steps || [];
    this.versions = null; // per step, per change: {before, after}
    this.history = null; // key string -> {key, at: [step index], objs: [object or null]}
    this.sorted = new Map(); // step index -> sorted objects (at most KEEP)
  }

  // replay walks every change once, keeping each one's versions and each
  // object's history.
  replay() {
    if (this.versions) return;
    const history = new Map();
    const record = (key, step, obj) => {
      const k = keyString(key);
      let h = history.get(k);
      if (!h) history.set(k, (h = { key, at: [], objs: [] }));
      h.at.push(step);
      h.objs.push(obj);
      return h;
    };
    const now = (h) => (h ? h.objs[h.objs.length - 1] : null);
    for (const o of this.result?.initial || []) record(keyOf(refOfObject(o)), -1, o);
    this.versions = this.steps.map((step, i) => (step.changes || []).map((c) => {
      const key = keyOf(c.object || {});
      const before = now(history.get(keyString(key)));
      let after = null;
      if (c.change !== 'deleted') after = c.after || (c.patch ? applyPatch(before, c.patch) : null);
      record(key, i, after);
      return { before, after };
    }));
    this.history = history;
  }

  /** before is the object change j of step i found (null: absent). */
  before(i, j) {
    this.replay();
    return this.versions[i]?.[j]?.before ?? null;
  }

  /** after is the version change j of step i made (null: deleted). */
  after(i, j) {
    this.replay();
    return this.versions[i]?.[j]?.after ?? null;
  }

  /** get is the object ref names (any version of its kind) after step i, or null. */
  get(i, ref) {
    this.replay();
    const h = this.history.get(keyString(keyOf(ref)));
    return h ? at(h, i) : null;
  }

  /**
   * cluster is every object after step i (i < 0: before the first step),
   * sorted by group, kind, namespace and name as the API server lists
   * them. The array is shared: do not change it.
   */
  cluster(i) {
    i = Math.min(i, this.steps.length - 1);
    if (this.sorted.has(i)) return this.sorted.get(i);
    this.replay();
    const live = [];
    for (const h of this.history.values()) {
      const o = at(h, i);
      if (o) live.push([h.key, o]);
    }
    const out = live.sort((a, b) => compareKeys(a[0], b[0])).map((e) => e[1]);
    if (this.sorted.size >= KEEP) this.sorted.delete(this.sorted.keys().next().value);
    this.sorted.set(i, out);
    return out;
  }

  /** final is the cluster after the last step. */
  final() {
    return this.cluster(this.steps.length - 1);
  }
}

// at is the object of a history after step i: its last entry at or before
// i (binary search), null when absent then.
function at(h, i) {
  let lo = 0;
  let hi = h.at.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (h.at[mid] <= i) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 ? h.objs[lo - 1] : null;
}

// One Reader per result: the views of one result share its versions.
const readers = new WeakMap();

/** readerOf returns the Reader of a result. */
export function readerOf(result) {
  if (!result || typeof result !== 'object') return new Reader(result);
  let r = readers.get(result);
  if (!r) {
    r = new Reader(result);
    readers.set(result, r);
  }
  return r;
}
