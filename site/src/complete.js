// Editing help from the schema genplay validates against: completion of
// field names and enum values, hover documentation with a link to Kyverno's
// docs, "did you mean" on unknown-field markers, and Enter after `key:`
// indenting the next line. The field tree is fieldref.json, generated from
// the engine's schemas (engine/fieldref); nothing here knows a field itself.
import { autocompletion } from '@codemirror/autocomplete';
import { EditorView, hoverTooltip, keymap } from '@codemirror/view';
import { Prec } from '@codemirror/state';
import ref from './fieldref.json';

const ITEM = 0; // a path element: an item of a list

// A YAML line as far as structure goes: its indent, whether it starts a
// list item ("- "), the column of its content, its key and what follows.
const lineRE = /^(\s*)((?:-\s+)*)(?:(["']?)([A-Za-z_$][\w.$/-]*)\3\s*:(?:\s+|$)(.*))?/;
function parseLine(text) {
  if (!text.trim() || /^\s*#/.test(text)) return null;
  if (/^(---|\.\.\.)\s*$/.test(text)) return { doc: true };
  const m = lineRE.exec(text);
  const indent = m[1].length;
  const col = indent + m[2].length;
  return { indent, item: m[2].length > 0, col, key: m[4], value: m[4] === undefined ? null : m[5].replace(/\s+#.*$/, '') };
}

/**
 * ancestors returns the keys (and ITEM for a list item) that contain the
 * node that line n starts at column col (after indent spaces and, when item,
 * a "- "), from the root, each with the line and column it is on. It reads
 * indentation only, so it works on YAML being typed.
 */
function ancestors(doc, n, { indent, col, item }) {
  const path = [];
  let want = item ? indent : col; // the column of the node, or of its list
  let inSeq = item; // looking for the key that holds a list at column want
  if (item) path.push({ key: ITEM, line: n });
  const holder = (l) => l.key !== undefined && (!l.value || /^[|>]/.test(l.value));
  for (let k = n - 1; k >= 1; k--) {
    const l = parseLine(doc.line(k).text);
    if (!l) continue;
    if (l.doc) break;
    if (inSeq && (l.indent > want || (l.item && l.indent === want))) continue; // inside, or a sibling item
    if (l.item) {
      if (!inSeq && l.col === want) { // the item's first key is a sibling
        path.unshift({ key: ITEM, line: k }); want = l.indent; inSeq = true; continue;
      }
      if (l.col <= want && holder(l)) { // "- key:" holding the node
        path.unshift({ key: ITEM, line: k }, { key: l.key, line: k, col: l.col });
        want = l.indent; inSeq = true; continue;
      }
      if (inSeq) break;
      continue;
    }
    if (l.indent < want || (inSeq && l.indent === want)) {
      if (!holder(l)) break; // not a key that holds a mapping or list: malformed here
      path.unshift({ key: l.key, line: k, col: l.col }); want = l.indent; inSeq = false;
    }
  }
  return path;
}

// kindBelow finds `kind:` among the children of the key at line n, col c
// (or at the top level of the document when n is 0).
function kindBelow(doc, n, c) {
  let childCol = -1;
  for (let k = n + 1; k <= doc.lines; k++) {
    const l = parseLine(doc.line(k).text);
    if (!l) continue;
    if (l.doc) break;
    if (n > 0 && l.indent <= c && !(l.item && l.col > c && childCol < 0)) break;
    if (childCol < 0) childCol = l.col;
    if (l.col === childCol && l.key === 'kind' && l.value) return l.value.replace(/^["']|["']$/g, '');
  }
  return null;
}

function topKind(doc, n) {
  let start = n;
  while (start > 1 && !parseLine(doc.line(start).text)?.doc) start--;
  if (parseLine(doc.line(start).text)?.doc) start++;
  for (let k = start; k <= doc.lines; k++) {
    const t = doc.line(k).text;
    if (/^(---|\.\.\.)\s*$/.test(t)) break;
    const m = /^kind\s*:\s*["']?(\w+)/.exec(t);
    if (m) return m[1];
  }
  return null;
}

/**
 * resolve walks the field reference along path (from ancestors). It
 * returns {node, url} or null: node is the field's description, url the
 * nearest documentation page.
 */
function resolve(doc, lineNo, path) {
  const family = ref.kinds[topKind(doc, lineNo)];
  if (!family) return null;
  let node = ref.roots[family];
  let url = node.url;
  for (const step of path) {
    if (node.object) { // a Kubernetes object: described by its kind
      const root = ref.roots[ref.kinds[kindBelow(doc, step.resourceLine, step.resourceCol)]];
      if (!root) return null;
      node = root; url = node.url || url;
    }
    if (step.key === ITEM) {
      if (node.t !== 'array' || !node.items) return null;
      node = node.items;
    } else {
      if (node.t !== 'object' || !node.props || !Object.hasOwn(node.props, step.key)) return null;
      node = node.props[step.key];
    }
    url = node.url || url;
  }
  return { node, url };
}

// withObjects records on each step after an object key where that key is,
// so resolve can read the object's kind.
function withObjects(path) {
  for (let i = 1; i < path.length; i++) {
    const prev = path[i - 1];
    if (prev.key !== ITEM) { path[i].resourceLine = prev.line; path[i].resourceCol = prev.col; }
  }
  return path;
}

function nodeAt(doc, lineNo, path) {
  const r = resolve(doc, lineNo, withObjects(path));
  if (r && r.node.object) {
    // The cursor is directly in the object: its root by its kind.
    const last = path[path.length - 1];
    const root = ref.roots[ref.kinds[kindBelow(doc, last.line, last.col)]];
    if (root) return { node: root, url: root.url || r.url };
  }
  return r;
}

// siblings are the keys already written in the mapping whose keys are at
// column col around line n.
function siblings(doc, n, col) {
  const out = new Set();
  for (const dir of [-1, 1]) {
    for (let k = n + dir; k >= 1 && k <= doc.lines; k += dir) {
      const l = parseLine(doc.line(k).text);
      if (!l) continue;
      if (l.doc) break;
      if (l.item && l.col === col) { // the start of this item, or of the next
        if (dir < 0 && l.key !== undefined) out.add(l.key);
        break;
      }
      if (l.indent < col) break;
      if (l.col === col && l.key !== undefined) out.add(l.key);
    }
  }
  return out;
}

const scalar = new Set(['string', 'boolean', 'integer', 'any']);

function info(name, node, url) {
  return () => {
    const el = document.createElement('div');
    el.className = 'cm-field-doc';
    const head = document.createElement('div');
    const b = document.createElement('code');
    b.textContent = name;
    head.append(b, ` ${node.t === 'free' ? 'object' : node.t}`);
    el.append(head);
    if (node.doc) { const p = document.createElement('p'); p.textContent = node.doc; el.append(p); }
    if (node.enum) { const p = document.createElement('p'); p.textContent = `One of: ${node.enum.join(', ')}`; el.append(p); }
    if (url) {
      const a = document.createElement('a');
      a.href = url; a.target = '_blank'; a.rel = 'noopener';
      a.textContent = url.includes('chainsaw') ? 'Chainsaw docs' : 'Kyverno docs';
      el.append(a);
    }
    return el;
  };
}

function complete(context) {
  const { state, pos } = context;
  const doc = state.doc;
  const line = doc.lineAt(pos);
  const before = line.text.slice(0, pos - line.from);
  // A value: `key: partial`
  const v = /^(\s*)((?:-\s+)*)(["']?)([A-Za-z_$][\w.$/-]*)\3\s*:\s+(\w*)$/.exec(before);
  if (v) {
    const col = v[1].length + v[2].length;
    const path = ancestors(doc, line.number, { indent: v[1].length, col, item: v[2].length > 0 });
    path.push({ key: v[4], line: line.number, col });
    const r = nodeAt(doc, line.number, path);
    if (!r) return null;
    const values = r.node.enum || (r.node.t === 'boolean' ? ['true', 'false'] : null);
    if (!values) return null;
    return { from: pos - v[5].length, options: values.map((e) => ({ label: e, type: 'enum', info: info(v[4], r.node, r.url) })), validFor: /^\w*$/ };
  }
  // A key: `  partial` or `  - partial`
  const k = /^(\s*)((?:-\s+)*)([A-Za-z_$][\w$-]*)?$/.exec(before);
  if (!k || (!k[3] && !context.explicit && !k[2])) return null;
  const col = k[1].length + k[2].length;
  const path = ancestors(doc, line.number, { indent: k[1].length, col, item: k[2].length > 0 });
  const r = path.length ? nodeAt(doc, line.number, path) : (() => {
    const family = ref.kinds[topKind(doc, line.number)];
    return family ? { node: ref.roots[family], url: ref.roots[family].url } : null;
  })();
  if (!r || r.node.t !== 'object' || !r.node.props) return null;
  const have = siblings(doc, line.number, col);
  const options = Object.entries(r.node.props)
    .filter(([name]) => !have.has(name) || name === k[3])
    .map(([name, n]) => ({
      label: name,
      type: 'property',
      detail: n.t === 'free' ? 'object' : n.t,
      info: info(name, n, n.url || r.url),
      apply: scalar.has(n.t) || n.enum ? `${name}: ` : `${name}:`,
      boost: n.doc ? 1 : 0,
    }));
  return { from: pos - (k[3] || '').length, options, validFor: /^[\w$-]*$/ };
}

// hover shows the doc of the field under the pointer.
function hover(view, pos) {
  const doc = view.state.doc;
  const line = doc.lineAt(pos);
  const l = parseLine(line.text);
  if (!l || l.key === undefined) return null;
  const start = line.from + line.text.indexOf(l.key, l.col);
  const end = start + l.key.length;
  if (pos < start || pos > end) return null;
  const path = ancestors(doc, line.number, l);
  path.push({ key: l.key, line: line.number, col: l.col });
  const r = resolve(doc, line.number, withObjects(path)); // the field itself, even an object's
  if (!r || (!r.node.doc && !r.url)) return null;
  return { pos: start, end, above: true, create: () => ({ dom: info(l.key, r.node, r.url)() }) };
}

// Enter after a key that opens a mapping or list (`clone:`, `- generate:`)
// indents the next line two spaces past the key; after `- key: value` it
// lines up with the item's key. Elsewhere CodeMirror's YAML indentation.
function enter(view) {
  const { state } = view;
  const sel = state.selection.main;
  if (!sel.empty) return false;
  const line = state.doc.lineAt(sel.head);
  const before = line.text.slice(0, sel.head - line.from);
  if (line.text.slice(sel.head - line.from).trim()) return false;
  const l = parseLine(before);
  if (!l || l.key === undefined || l.doc) return false;
  let indent;
  if (!l.value || /^[|>][-+]?\d*$/.test(l.value)) indent = l.col + 2;
  else if (l.item) indent = l.col;
  else return false;
  const insert = `\n${' '.repeat(indent)}`;
  view.dispatch(state.update({ changes: { from: sel.head, to: line.to, insert }, selection: { anchor: sel.head + insert.length }, scrollIntoView: true, userEvent: 'input' }));
  return true;
}

// nearest is the name closest to word by edit distance (insertions,
// deletions, substitutions, swaps of neighbours) when it is close: at most
// a third of the word's length.
export function nearest(word, names) {
  let best = null;
  let bestD = Math.max(1, Math.floor(word.length / 3)) + 1;
  for (const name of [...names].sort()) {
    const d = distance(word, name);
    if (d < bestD) { best = name; bestD = d; }
  }
  return best;
}

function distance(a, b) {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/**
 * didYouMean adds to an engine diagnostic about an unknown field the known
 * field nearest to it, from the field reference, with an action that
 * renames it. The diagnostic is CodeMirror's ({from, to, message}); the
 * unknown key is the first word at from.
 */
export function didYouMean(state, d) {
  const m = /unknown (?:field|operation) "([^"]+)"/.exec(d.message);
  if (!m) return d;
  const word = m[1].split('.').pop();
  const line = state.doc.lineAt(d.from);
  const l = parseLine(line.text);
  if (!l || l.key !== word) return d;
  // The engine's own suggestion (a field people write by mistake, such as
  // generate.orphaned), else the nearest of the names the engine allows (its
  // own list, else the schema's).
  const said = /; did you mean "([^"]+)"\?$/.exec(d.message);
  let names = null;
  const allowed = /\(allowed(?: in [^:]+)?: ([^)]*)\)/.exec(d.message);
  if (allowed) names = allowed[1].split(', ');
  else {
    const r = nodeAt(state.doc, line.number, ancestors(state.doc, line.number, l));
    if (r && r.node.props) names = Object.keys(r.node.props);
  }
  const guess = said ? said[1] : names && nearest(word, names);
  if (!guess || guess === word) return d;
  const from = line.from + line.text.indexOf(word, l.col);
  return {
    ...d,
    message: said ? d.message : `${d.message}: did you mean "${guess}"?`,
    actions: [{ name: `Rename to ${guess}`, apply: (view) => view.dispatch({ changes: { from, to: from + word.length, insert: guess } }) }],
  };
}

const docTheme = EditorView.baseTheme({
  '.cm-field-doc': { maxWidth: '28em', padding: '4px 8px', fontFamily: 'var(--sans, sans-serif)', lineHeight: '1.4' },
  '.cm-field-doc p': { margin: '4px 0' },
  '.cm-field-doc a': { color: 'var(--accent)' },
});

/** authoring is the editor extension: completion, hover docs, Enter. */
export function authoring() {
  return [
    docTheme,
    autocompletion({ override: [complete], activateOnTyping: true, icons: false }),
    hoverTooltip(hover, { hoverTime: 300 }),
    Prec.high(keymap.of([{ key: 'Enter', run: enter }])),
  ];
}
