// CodeMirror 6 set-up: YAML editing with engine diagnostics as lint markers.
import { EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter, drawSelection, Decoration, ViewPlugin } from '@codemirror/view';
import { EditorState, RangeSetBuilder } from '@codemirror/state';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { yaml } from '@codemirror/lang-yaml';
import { HighlightStyle, syntaxHighlighting, indentOnInput, bracketMatching, foldGutter, foldKeymap } from '@codemirror/language';
import { lintGutter, setDiagnostics } from '@codemirror/lint';
import { tags } from '@lezer/highlight';
import { authoring, didYouMean } from './complete.js';

const highlight = HighlightStyle.define([
  { tag: [tags.propertyName, tags.definition(tags.propertyName)], color: 'var(--hl-key)' },
  { tag: [tags.string, tags.special(tags.string)], color: 'var(--hl-string)' },
  { tag: [tags.number, tags.bool, tags.null, tags.atom], color: 'var(--hl-atom)' },
  { tag: [tags.comment, tags.lineComment], color: 'var(--hl-comment)', fontStyle: 'italic' },
  { tag: [tags.meta, tags.punctuation, tags.separator], color: 'var(--muted)' },
]);

const theme = EditorView.theme({
  '&': { backgroundColor: 'var(--panel)', color: 'var(--fg)', height: '100%' },
  '.cm-content': { caretColor: 'var(--fg)', fontFamily: 'var(--mono)' },
  '.cm-gutters': { backgroundColor: 'var(--panel-2)', color: 'var(--muted)', border: 'none' },
  '.cm-activeLine': { backgroundColor: 'var(--active-line)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--active-line)' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground': { backgroundColor: 'var(--selection)' },
  '.cm-tooltip': { backgroundColor: 'var(--panel)', color: 'var(--fg)', border: '1px solid var(--border)' },
  // The focus ring is the page's; CodeMirror's own is a faint dotted line.
  '&.cm-focused': { outline: '2px solid var(--accent)', outlineOffset: '-2px' },
  // CEL inside expression fields (celHighlight).
  '.cm-cel-function': { color: 'var(--hl-key)', fontWeight: '600' },
  '.cm-cel-keyword': { color: 'var(--hl-atom)', fontWeight: '600' },
  '.cm-cel-number': { color: 'var(--hl-atom)' },
  '.cm-cel-string': { color: 'var(--hl-string)', fontStyle: 'italic' },
  '.cm-cel-operator': { color: 'var(--accent)' },
});

// CEL inside YAML: the values of the CEL family's expression fields
// (expression, valueExpression, messageExpression, and generate's
// template values are YAML, not CEL) are marked token by token, on top of
// the YAML highlighting. Plain, quoted and block (| >) scalars; a block
// scalar runs while its lines are indented deeper than its key.
const celKey = /^(\s*)(?:- )?(expression|valueExpression|messageExpression):\s*(.*)$/;
const celToken = /("(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?)|(\b\d+(?:\.\d+)?[uU]?\b)|\b(true|false|null|in)\b|([A-Za-z_][\w]*)(?=\s*\()|(&&|\|\||==|!=|<=|>=|[?:!<>+\-*/%])/g;
const celMarks = ['cm-cel-string', 'cm-cel-number', 'cm-cel-keyword', 'cm-cel-function', 'cm-cel-operator'].map((c) => Decoration.mark({ class: c }));

function celDecorations(view) {
  const b = new RangeSetBuilder();
  const doc = view.state.doc;
  for (const { from, to } of view.visibleRanges) {
    let n = doc.lineAt(from).number;
    const last = doc.lineAt(to).number;
    // Whether the first visible line is inside a block scalar: the nearest
    // expression key above with | or >, and no line between it and here
    // indented at or left of the key.
    let block = -1; // the key's indent while inside a block scalar
    for (let k = n - 1; k >= 1 && k >= n - 200; k--) {
      const m = celKey.exec(doc.line(k).text);
      if (!m || !/^[|>][-+]?\s*$/.test(m[3])) continue;
      block = m[1].length;
      for (let j = k + 1; j < n; j++) {
        const t = doc.line(j).text;
        if (t.trim() && t.search(/\S/) <= block) { block = -1; break; }
      }
      break;
    }
    for (; n <= last; n++) {
      const line = doc.line(n);
      const t = line.text;
      let start = -1;
      const m = celKey.exec(t);
      if (block >= 0 && t.trim() && t.search(/\S/) <= block) block = -1;
      if (block >= 0) start = 0;
      else if (m) {
        if (/^[|>][-+]?\s*$/.test(m[3])) { block = m[1].length; continue; }
        start = t.length - m[3].length;
        if (/^["']/.test(m[3])) start++;
      }
      if (start < 0) continue;
      const text = t.slice(start);
      celToken.lastIndex = 0;
      for (let x; (x = celToken.exec(text));) {
        const i = [1, 2, 3, 4, 5].find((g) => x[g] !== undefined);
        if (!i || !x[0].length) continue;
        const at = line.from + start + x.index;
        b.add(at, at + (i === 4 ? x[4].length : x[0].length), celMarks[i - 1]);
      }
    }
  }
  return b.finish();
}

const celHighlight = ViewPlugin.fromClass(class {
  constructor(view) { this.decorations = celDecorations(view); }
  update(u) { if (u.docChanged || u.viewportChanged) this.decorations = celDecorations(u.view); }
}, { decorations: (v) => v.decorations });

// Wrapped lines hang under their line's text instead of starting at column
// 0, so that YAML's indentation still reads right: each indented line gets
// a hanging indent of its leading spaces (and a list item's "- ").
const hangs = new Map();
const hang = (n) => {
  if (!hangs.has(n)) hangs.set(n, Decoration.line({ attributes: { style: `padding-left: calc(${n}ch + 6px); text-indent: -${n}ch` } }));
  return hangs.get(n);
};

function hangingIndents(view) {
  const b = new RangeSetBuilder();
  const doc = view.state.doc;
  for (const { from, to } of view.visibleRanges) {
    for (let n = doc.lineAt(from).number, last = doc.lineAt(to).number; n <= last; n++) {
      const line = doc.line(n);
      const indent = /^ *(?:- +)?/.exec(line.text)[0].length;
      if (indent) b.add(line.from, line.from, hang(indent));
    }
  }
  return b.finish();
}

const hangingIndent = ViewPlugin.fromClass(class {
  constructor(view) { this.decorations = hangingIndents(view); }
  update(u) { if (u.docChanged || u.viewportChanged) this.decorations = hangingIndents(u.view); }
}, { decorations: (v) => v.decorations });

/**
 * createEditor mounts a YAML editor.
 * @param {HTMLElement} parent
 * @param {{doc: string, label: string, onChange?: (text: string) => void, onRun?: () => void}} opts
 */
export function createEditor(parent, { doc, label, onChange, onRun }) {
  const runKey = onRun ? [{ key: 'Mod-Enter', run: () => { onRun(); return true; } }] : [];
  return new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        lineNumbers(), highlightActiveLineGutter(), foldGutter(), drawSelection(), history(),
        indentOnInput(), bracketMatching(), highlightActiveLine(), lintGutter(),
        keymap.of([...runKey, indentWithTab, ...defaultKeymap, ...historyKeymap, ...foldKeymap]),
        yaml(), syntaxHighlighting(highlight), celHighlight, theme, EditorView.lineWrapping, hangingIndent, authoring(),
        EditorState.tabSize.of(2),
        // tabindex: the content is editable, hence focusable; said so, the
        // scroller around it counts as keyboard-reachable (axe's scrollable-region-focusable).
        EditorView.contentAttributes.of({ 'aria-label': label, tabindex: '0' }),
        EditorView.updateListener.of((u) => { if (u.docChanged && onChange) onChange(u.state.doc.toString()); }),
      ],
    }),
  });
}

export function getText(view) { return view.state.doc.toString(); }

/**
 * setText makes the editor hold text, changing only what differs (an
 * action appends a step: the editor inserts it, instead of replacing and
 * highlighting the whole document).
 */
export function setText(view, text) {
  const old = view.state.doc.toString();
  if (old === text) return;
  let from = 0;
  const max = Math.min(old.length, text.length);
  while (from < max && old.charCodeAt(from) === text.charCodeAt(from)) from++;
  let end = 0;
  while (end < max - from && old.charCodeAt(old.length - 1 - end) === text.charCodeAt(text.length - 1 - end)) end++;
  view.dispatch({ changes: { from, to: old.length - end, insert: text.slice(from, text.length - end) } });
}

/** showDiagnostics puts engine diagnostics ({line, column, severity, message}) on the editor. */
export function showDiagnostics(view, diagnostics) {
  const doc = view.state.doc;
  const list = (diagnostics || []).map((d) => {
    const line = doc.line(Math.min(Math.max(d.line || 1, 1), doc.lines));
    const from = Math.min(line.from + Math.max((d.column || 1) - 1, 0), line.to);
    let to = from < line.to ? line.to : from;
    // A CEL error (cel-go's "<input>:L:C") points inside an expression: mark
    // the token at its column, not the rest of the line.
    if (/<input>:\d+:\d+/.test(d.message || '') && from < line.to) {
      to = from + /^(?:[\w.]+|.)/.exec(line.text.slice(from - line.from))[0].length;
    }
    return didYouMean(view.state, { from, to, severity: d.severity === 'warning' ? 'warning' : 'error', message: d.message });
  });
  view.dispatch(setDiagnostics(view.state, list));
}

export function gotoLine(view, lineNo) {
  const doc = view.state.doc;
  const line = doc.line(Math.min(Math.max(lineNo || 1, 1), doc.lines));
  view.dispatch({ selection: { anchor: line.from }, scrollIntoView: true });
  view.focus();
}
