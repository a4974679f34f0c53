// Line marks in the scenario editor: the lines of the selected step and of
// the objects related to the selected one, added to an editor made by
// editor.js without changing it (an extension appended at run time), and
// the cursor moves the user makes, reported so the timeline can follow.
import { StateEffect, StateField } from '@codemirror/state';
import { EditorView, Decoration } from '@codemirror/view';

const setMarks = StateEffect.define();

const marks = StateField.define({
  create: () => Decoration.none,
  update(value, tr) {
    let v = value.map(tr.changes);
    for (const e of tr.effects) if (e.is(setMarks)) v = e.value;
    return v;
  },
  provide: (f) => EditorView.decorations.from(f),
});

/**
 * installMarks adds the line marks to view; onCursor(pos) is called after
 * the user moves the cursor (a click or a key), never for the page's own
 * changes nor while typing.
 */
export function installMarks(view, onCursor) {
  view.dispatch({
    effects: StateEffect.appendConfig.of([marks, EditorView.updateListener.of((u) => {
      if (!u.selectionSet || u.docChanged || !u.transactions.some((tr) => tr.isUserEvent('select'))) return;
      const pos = u.state.selection.main.head;
      // The listener runs inside the editor's update: act after it.
      queueMicrotask(() => onCursor(pos));
    })]),
  });
}

/** mark replaces the marks with these ranges ([{from, to, class}]), each line of each range marked. */
export function mark(view, ranges) {
  const doc = view.state.doc;
  const list = [];
  const seen = new Set();
  for (const r of ranges) {
    const from = Math.max(0, Math.min(r.from, doc.length));
    const to = Math.max(from, Math.min(r.to, doc.length));
    const last = doc.lineAt(to > from ? to - 1 : to).number;
    for (let n = doc.lineAt(from).number; n <= last; n++) {
      const at = doc.line(n).from;
      if (seen.has(`${at} ${r.class}`)) continue;
      seen.add(`${at} ${r.class}`);
      list.push(Decoration.line({ class: r.class }).range(at));
    }
  }
  view.dispatch({ effects: setMarks.of(Decoration.set(list, true)) });
}

/**
 * reveal scrolls the editor so that pos's line is near its top, without
 * moving the cursor or the focus, and only the editor (CodeMirror's
 * scrollIntoView would scroll the page as well).
 */
export function reveal(view, pos) {
  const at = Math.max(0, Math.min(pos, view.state.doc.length));
  view.requestMeasure({
    read: () => view.lineBlockAt(at).top,
    write: (top) => { view.scrollDOM.scrollTop = Math.max(0, top - 24); },
  });
}

/** revealAny reveals the first of positions unless one of them is already in the editor's view. */
export function revealAny(view, positions) {
  if (!positions.length) return;
  view.requestMeasure({
    read: () => {
      const top = view.scrollDOM.scrollTop;
      const bottom = top + view.scrollDOM.clientHeight;
      return positions.some((p) => { const b = view.lineBlockAt(Math.min(p, view.state.doc.length)); return b.top >= top && b.bottom <= bottom; });
    },
    write: (seen) => { if (!seen) reveal(view, Math.min(...positions)); },
  });
}
