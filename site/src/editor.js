// CodeMirror 6 set-up: YAML editing with engine diagnostics as lint markers.
import { EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter, drawSelection } from '@codemirror/view';
import { EditorState } from '@codemirror/state';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { yaml } from '@codemirror/lang-yaml';
import { HighlightStyle, syntaxHighlighting, indentOnInput, bracketMatching, foldGutter, foldKeymap } from '@codemirror/language';
import { lintGutter, setDiagnostics } from '@codemirror/lint';
import { tags } from '@lezer/highlight';

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
});

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
        yaml(), syntaxHighlighting(highlight), theme, EditorView.lineWrapping,
        EditorState.tabSize.of(2),
        EditorView.contentAttributes.of({ 'aria-label': label }),
        EditorView.updateListener.of((u) => { if (u.docChanged && onChange) onChange(u.state.doc.toString()); }),
      ],
    }),
  });
}

export function getText(view) { return view.state.doc.toString(); }

export function setText(view, text) {
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
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
    return { from, to, severity: d.severity === 'warning' ? 'warning' : 'error', message: d.message };
  });
  view.dispatch(setDiagnostics(view.state, list));
}

export function gotoLine(view, lineNo) {
  const doc = view.state.doc;
  const line = doc.line(Math.min(Math.max(lineNo || 1, 1), doc.lines));
  view.dispatch({ selection: { anchor: line.from }, scrollIntoView: true });
  view.focus();
}
