// Relations: what Kyverno's labels say links the objects of one cluster
// snapshot: a downstream to its policy, its rule, its trigger and, for a
// clone, its source. Both families are read: a ClusterPolicy/Policy rule
// writes policy-name, policy-namespace, rule-name, trigger-* and, on a
// clone, source-* (SEMANTICS.md, labels); a GeneratingPolicy writes
// policy-name, trigger-* (with trigger-name) and source-uid, and no rule
// name: its generate entry comes from the timeline's events
// (GENERATING-POLICY.md §3.5). From those links: what to highlight when an
// object is selected, the lines of the scenario that wrote the related
// objects and rules, and a small diagram of policy → rule → trigger →
// downstreams (and clone source → copies).
import YAML from 'yaml';
import { h } from './dom.js';
import { read } from './scenario.js';
import { LABEL, refString, keyOf, labelsOf, isCELPolicy, isLegacyPolicy } from './objects.js';

// node is one end of a link: the object when it is in the cluster, else
// what the labels or the timeline say it was.
const node = (obj, key, gone) => ({ key: obj ? keyOf(obj) : key, obj: obj || null, gone: !obj && gone });

/**
 * links reads the downstreams of a cluster snapshot: one link per object
 * that carries generate.kyverno.io/policy-name. events are the timeline's
 * events up to this snapshot, newest last: they name a CEL downstream's
 * generate entry and a trigger that is gone.
 * @returns {{downstream, policy, rule: string, trigger, source, family: 'cel'|'legacy'}[]}
 */
export function links(cluster, events = []) {
  const byUID = new Map(cluster.filter((o) => o.metadata?.uid).map((o) => [o.metadata.uid, o]));
  const last = new Map(); // downstream key -> its newest kyverno event with a policy
  for (const e of events) if (e.actor === 'kyverno' && e.object && e.policy) last.set(refString(e.object), e);
  const trig = new Map(); // downstream key -> its trigger's ref, from the newest event that names one
  for (const e of events) if (e.object && e.trigger) trig.set(refString(e.object), e.trigger);
  const out = [];
  for (const o of cluster) {
    const l = labelsOf(o);
    const name = l[`${LABEL}policy-name`];
    if (!name) continue;
    const key = keyOf(o);
    const cel = !(`${LABEL}rule-name` in l) && !(`${LABEL}policy-namespace` in l);
    const ev = last.get(key);
    let policy;
    if (cel) {
      const p = cluster.find((x) => isCELPolicy(x) && x.metadata?.name === name &&
        (x.kind === 'GeneratingPolicy' || x.metadata?.namespace === o.metadata?.namespace));
      // A gone policy: the event names its kind ("NamespacedGeneratingPolicy/ns/name").
      const guess = ev?.policy?.startsWith('NamespacedGeneratingPolicy/')
        ? `NamespacedGeneratingPolicy ${o.metadata?.namespace}/${name}` : `GeneratingPolicy ${name}`;
      policy = node(p, guess, true);
    } else {
      const ns = l[`${LABEL}policy-namespace`] || '';
      const p = cluster.find((x) => isLegacyPolicy(x) && x.metadata?.name === name && (x.metadata?.namespace || '') === ns);
      policy = node(p, ns ? `Policy ${ns}/${name}` : `ClusterPolicy ${name}`, true);
    }
    const rule = cel ? (/^spec\.generate\[/.test(ev?.rule || '') ? ev.rule : 'spec.generate') : (l[`${LABEL}rule-name`] || '');
    const tuid = l[`${LABEL}trigger-uid`];
    const t = tuid ? byUID.get(tuid) : null;
    let tkey = trig.get(key) ? refString(trig.get(key)) : '';
    if (!tkey && l[`${LABEL}trigger-name`]) {
      const tns = l[`${LABEL}trigger-namespace`];
      tkey = refString({ kind: l[`${LABEL}trigger-kind`], namespace: tns, name: l[`${LABEL}trigger-name`] });
    }
    const trigger = node(t, tkey || `${l[`${LABEL}trigger-kind`] || 'trigger'} (uid ${tuid || 'unknown'})`, true);
    const suid = l[`${LABEL}source-uid`];
    let source = null;
    if (suid) {
      const s = byUID.get(suid);
      const sns = l[`${LABEL}source-namespace`];
      source = node(s, `${l[`${LABEL}source-kind`] || o.kind} ${sns ? `${sns}/` : ''}(uid ${suid})`, true);
    }
    out.push({ downstream: node(o, key), policy, rule, ruleKey: `${policy.key}\n${rule}`, trigger, source, family: cel ? 'cel' : 'legacy' });
  }
  return out.sort((a, b) => cmp(a.policy.key, b.policy.key) || cmp(a.rule, b.rule) || cmp(a.trigger.key, b.trigger.key) || cmp(a.downstream.key, b.downstream.key));
}

const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * related says, for the selected object's key, how the other objects relate
 * to it: Map(key -> 'trigger'|'policy'|'source'|'downstream'|'copy'), and
 * the rules (ruleKey) that made the selected downstream.
 */
export function related(list, selected) {
  const roles = new Map();
  const rules = new Set();
  const add = (n, role) => { if (n && n.key !== selected && !roles.has(n.key)) roles.set(n.key, role); };
  for (const x of list) {
    if (x.downstream.key === selected) {
      add(x.trigger, 'trigger');
      add(x.policy, 'policy');
      add(x.source, 'source');
      rules.add(x.ruleKey);
    }
    if (x.trigger.key === selected) add(x.downstream, 'downstream');
    if (x.policy.key === selected) add(x.downstream, 'downstream');
    if (x.source?.key === selected) add(x.downstream, 'copy');
  }
  return { roles, rules };
}

// ---------------------------------------------------------------- lines in the scenario

// mentions yields every object node an operation of the scenario names:
// the resource of a write, an assert or an error, and a delete's ref.
function* mentions(doc) {
  const steps = doc.getIn(['spec', 'steps'], true);
  if (!YAML.isSeq(steps)) return;
  for (const step of steps.items) {
    for (const block of ['try', 'catch', 'finally']) {
      const ops = YAML.isMap(step) ? step.get(block, true) : null;
      if (!YAML.isSeq(ops)) continue;
      for (const op of ops.items) {
        if (!YAML.isMap(op)) continue;
        for (const [type, field] of [['apply', 'resource'], ['create', 'resource'], ['update', 'resource'], ['patch', 'resource'],
          ['assert', 'resource'], ['error', 'resource'], ['delete', 'ref']]) {
          const res = op.getIn([type, field], true);
          if (YAML.isMap(res)) yield res;
        }
      }
    }
  }
}

const sameRef = (res, key) => {
  const kind = res.get('kind');
  const name = res.getIn(['metadata', 'name']) ?? res.get('name');
  const ns = res.getIn(['metadata', 'namespace']) ?? res.get('namespace');
  if (typeof kind !== 'string' || typeof name !== 'string') return false;
  // A namespaced object written without its namespace is in the test's.
  return key === refString({ kind, namespace: ns, name }) || (!ns && key.startsWith(`${kind} `) && key.endsWith(`/${name}`));
};

/**
 * lines lists the character ranges of the scenario that name the objects
 * of roles (every write, check or delete of each) and the rules in rules, each with
 * its role: [{from, to, role}]; the selected object's own writes have role
 * 'selected'.
 */
export function lines(text, selected, { roles, rules }, list) {
  let doc;
  try { doc = read(text); } catch { return []; }
  const out = [];
  const want = new Map(roles);
  if (selected) want.set(selected, 'selected');
  const ruleOf = new Map(); // policy key -> rule names wanted
  for (const x of list) {
    if (!rules.has(x.ruleKey)) continue;
    if (!ruleOf.has(x.policy.key)) ruleOf.set(x.policy.key, new Set());
    ruleOf.get(x.policy.key).add(x.rule);
  }
  for (const res of mentions(doc)) {
    if (!res.range) continue;
    for (const [key, role] of want) {
      if (!sameRef(res, key)) continue;
      // A policy with the rule that made the downstream: the rule's lines.
      const rulesHere = role === 'policy' ? [...(ruleOf.get(key) || [])].map((r) => ruleNode(res, r)).filter((r) => r?.range) : [];
      if (!rulesHere.length) out.push({ from: res.range[0], to: res.range[1], role });
      for (const rule of ruleOf.get(key) || []) {
        const r = ruleNode(res, rule);
        if (r?.range) out.push({ from: r.range[0], to: r.range[1], role: 'rule' });
      }
    }
  }
  return out;
}

// ruleNode is spec.rules[name=rule] of a ClusterPolicy or Policy, or
// spec.generate[N] of a GeneratingPolicy (rule "spec.generate[N]").
function ruleNode(res, rule) {
  const m = /^spec\.generate\[(\d+)\]$/.exec(rule);
  if (m) return res.getIn(['spec', 'generate', Number(m[1])], true) || null;
  const seq = res.getIn(['spec', 'rules'], true);
  if (!YAML.isSeq(seq)) return null;
  return seq.items.find((r) => YAML.isMap(r) && r.get('name') === rule) || null;
}

// ---------------------------------------------------------------- the diagram

const short = (key) => {
  const i = key.indexOf(' ');
  return i < 0 ? { kind: '', name: key } : { kind: key.slice(0, i), name: key.slice(i + 1) };
};

// breakable lets a narrow column wrap a name where a reader would: between
// the words of a kind (Generating|Policy), after . / : and -.
const breakable = (text) => text.split(/(?<=[a-z](?=[A-Z])|[./:-](?=.))/).flatMap((part, i) => (i ? [h('wbr'), part] : [part]));

/**
 * diagram draws the links of one snapshot as columns: policy → rule →
 * trigger → downstream (← clone source). Every node is a button; onSelect
 * (key) selects an object that is in the cluster. The selected object and
 * what relates to it are marked, and so are the edges between them.
 */
export function diagram(list, selected, onSelect) {
  if (!list.length) return h('p', { class: 'sub' }, 'Nothing in this step was generated by Kyverno.');
  const { roles } = related(list, selected);
  const hasSource = list.some((x) => x.source);
  const cols = ['policy', 'rule', 'trigger', 'downstream', ...(hasSource ? ['clone source'] : [])];
  const cells = [];
  const edges = [];
  // A column's node spans the rows of the consecutive links that share it
  // and all the nodes to its left.
  const spans = (col, id) => {
    let start = 0;
    for (let i = 1; i <= list.length; i++) {
      if (i < list.length && id(list[i]) === id(list[start])) continue;
      cells.push({ col, row: start, span: i - start, x: list[start] });
      start = i;
    }
  };
  spans(0, (x) => x.policy.key);
  spans(1, (x) => x.ruleKey);
  spans(2, (x) => `${x.ruleKey}\n${x.trigger.key}`);
  spans(3, (x) => x.downstream.key);
  if (hasSource) list.forEach((x, i) => { if (x.source) cells.push({ col: 4, row: i, span: 1, x }); });
  const nodeOf = (c) => [c.x.policy, { key: c.x.ruleKey, obj: c.x.policy.obj, rule: c.x.rule, gone: c.x.policy.gone }, c.x.trigger, c.x.downstream, c.x.source][c.col];
  const on = (n) => n.key === selected || roles.has(n.key);
  const els = cells.map((c) => {
    const n = nodeOf(c);
    const id = `rel-${c.col}-${c.row}`;
    c.id = id;
    const label = n.rule !== undefined ? { kind: c.x.family === 'cel' ? 'expression' : 'rule', name: n.rule || '(none)' } : short(n.key);
    const target = n.rule !== undefined ? c.x.policy.key : n.key;
    const mark = n.rule !== undefined
      ? (related(list, selected).rules.has(n.key) ? 'related rel-rule' : '')
      : (n.key === selected ? 'selected' : roles.has(n.key) ? `related rel-${roles.get(n.key)}` : '');
    return h('div', { class: 'rel-cell', style: `grid-column: ${c.col + 1}; grid-row: ${c.row + 2} / span ${c.span}` },
      h('button', {
        type: 'button', id, class: `rel-node col-${cols[c.col].replace(' ', '-')} ${mark}${n.gone && !n.obj ? ' gone' : ''}`,
        dataset: { ref: target, node: n.key },
        disabled: !n.obj,
        title: n.obj ? `Select ${target}` : `${n.key}: not in the cluster at this step`,
        onclick: () => onSelect(target),
      }, label.kind ? h('span', { class: 'kind' }, breakable(label.kind)) : '', h('span', { class: 'name' }, breakable(label.name))));
  });
  const idAt = (col, row) => cells.find((c) => c.col === col && row >= c.row && row < c.row + c.span)?.id;
  const seen = new Set();
  list.forEach((x, i) => {
    const pairs = [[0, 1, x.policy, null], [1, 2, null, x.trigger], [2, 3, x.trigger, x.downstream]];
    for (const [a, b] of pairs) {
      const from = idAt(a, i);
      const to = idAt(b, i);
      if (!from || !to || seen.has(`${from}>${to}`)) continue;
      seen.add(`${from}>${to}`);
      // Lit when the edge is on the selected object's path.
      const lit = a === 2 ? (on(x.trigger) && on(x.downstream)) && (x.trigger.key === selected || x.downstream.key === selected)
        : (x.downstream.key === selected || x.policy.key === selected && a === 0);
      edges.push({ from, to, kind: 'generate', lit, fromKey: [x.policy.key, x.ruleKey, x.trigger.key][a], toKey: [x.ruleKey, x.trigger.key, x.downstream.key][a] });
    }
    if (x.source) {
      const lit = x.source.key === selected || x.downstream.key === selected;
      edges.push({ from: idAt(4, i), to: idAt(3, i), kind: 'clone', lit, fromKey: x.source.key, toKey: x.downstream.key });
    }
  });
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('class', 'rel-edges');
  svg.setAttribute('aria-hidden', 'true');
  const grid = h('div', { class: 'rel-grid', style: `grid-template-columns: repeat(${cols.length}, minmax(min-content, 1fr))` },
    cols.map((c, i) => h('div', { class: 'rel-head sub', style: `grid-column: ${i + 1}; grid-row: 1` }, c)),
    els);
  const box = h('div', { class: 'rel-diagram', role: 'group', 'aria-label': 'Relations at this step' }, svg, grid);
  box.edges = edges;
  // The edges as data, for a screen reader and for tests.
  box.append(h('ul', { class: 'visually-hidden rel-list' }, edges.map((e) => h('li', {
    class: `rel-edge ${e.kind}${e.lit ? ' lit' : ''}`, dataset: { from: e.fromKey, to: e.toKey },
  }, `${e.fromKey.replace('\n', ' / ')} ${e.kind === 'clone' ? 'is copied to' : '→'} ${e.toKey.replace('\n', ' / ')}`))));
  return box;
}

/** drawEdges draws a diagram's edges once it is laid out (it must be visible). */
export function drawEdges(box) {
  const svg = box?.querySelector('svg.rel-edges');
  if (!svg || !box.edges || !box.offsetParent) return;
  const base = box.getBoundingClientRect();
  svg.setAttribute('width', String(box.scrollWidth));
  svg.setAttribute('height', String(box.scrollHeight));
  svg.replaceChildren();
  const ns = 'http://www.w3.org/2000/svg';
  const defs = document.createElementNS(ns, 'defs');
  defs.innerHTML = '<marker id="rel-arrow" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M0,0 L8,4 L0,8 z" fill="context-stroke"/></marker>';
  svg.append(defs);
  // Every box is measured before any path is written: one layout, not
  // one per edge.
  const rects = new Map();
  const rect = (id) => {
    if (!rects.has(id)) rects.set(id, box.querySelector(`#${id}`)?.getBoundingClientRect() || null);
    return rects.get(id);
  };
  const paths = [];
  for (const e of box.edges) {
    const a = rect(e.from);
    const b = rect(e.to);
    if (!a || !b) continue;
    // generate edges run left to right; a clone edge from the source (right) to its copy.
    const x1 = (e.kind === 'clone' ? a.left : a.right) - base.left;
    const x2 = (e.kind === 'clone' ? b.right : b.left) - base.left;
    const y1 = a.top + a.height / 2 - base.top;
    const y2 = b.top + b.height / 2 - base.top;
    const mid = (x1 + x2) / 2;
    const p = document.createElementNS(ns, 'path');
    p.setAttribute('d', `M${x1},${y1} C${mid},${y1} ${mid},${y2} ${x2},${y2}`);
    p.setAttribute('class', `edge ${e.kind}${e.lit ? ' lit' : ''}`);
    p.setAttribute('marker-end', 'url(#rel-arrow)');
    paths.push(p);
  }
  svg.append(...paths);
}
