// The object dialog: edit an object of the cluster, or add a new one, in a
// small editor; saving appends an update (or create) step. The object is
// checked by running the scenario with the new step first: what the API
// server or Kyverno refuses stays in the dialog with their message, and
// nothing is appended.
import { $ } from './dom.js';
import { createEditor, getText, setText } from './editor.js';
import { appendStep, sourceResource, manifest, ops, toYAML, fromYAML } from './scenario.js';
import { refOf, refString, keyOf } from './objects.js';
import { errorsIn } from './result.js';

/**
 * createObjectDialog wires #object-dialog. page: {ready(), text(),
 * engineRun(text), replaceText(text, before), run(reason)}.
 */
export function createObjectDialog(page) {
  let editor = null;
  let onSave = null; // (object) => {name, operation}
  let busy = false;

  function open(title, help, yamlText, save) {
    $('#object-dialog-title').textContent = title;
    $('#object-dialog-help').textContent = help;
    $('#object-dialog-error').textContent = '';
    if (!editor) editor = createEditor($('#object-editor'), { doc: '', label: 'Object YAML', onRun: submit });
    setText(editor, yamlText);
    onSave = save;
    $('#object-dialog').showModal();
    editor.focus();
  }

  async function submit() {
    if (busy || !onSave || !page.ready()) return true;
    const err = $('#object-dialog-error');
    let step;
    try {
      step = onSave(fromYAML(getText(editor)));
    } catch (e) {
      err.textContent = e.message;
      return true;
    }
    const before = page.text();
    let text;
    try { text = appendStep(before, step.name, step.operation); } catch (e) { err.textContent = `cannot add the step: ${e.message}`; return true; }
    busy = true;
    err.textContent = '';
    let result;
    try { result = await page.engineRun(text); } finally { busy = false; }
    const last = (result.steps || [])[(result.steps || []).length - 1];
    const refused = last && last.stepName === step.name && last.error;
    if (refused || result.invalid) {
      const d = errorsIn(result).find((x) => x.line > before.split('\n').length) || errorsIn(result)[0];
      err.textContent = refused ? last.error : d?.message || 'the object is not valid';
      return true;
    }
    $('#object-dialog').close();
    page.replaceText(text, before);
    page.run('action');
    return true;
  }

  $('#object-dialog-cancel').addEventListener('click', () => $('#object-dialog').close());
  $('#object-dialog-save').addEventListener('click', submit);

  return {
    /** isOpen tells whether the dialog is shown (Ctrl+Enter then saves it, not the scenario). */
    isOpen: () => $('#object-dialog').open,
    /** edit opens o as the scenario last wrote it; saving appends an `op` ("update") step. */
    edit(o, op) {
      const node = sourceResource(page.text(), refOf(o));
      open(`Edit ${keyOf(o)}`, `Saving appends an "${op}" step with this object and runs the scenario (Ctrl+Enter saves).`,
        node ? toYAML(node) : toYAML(manifest(o)), (m) => ({ name: `${op} ${refString(refOf(m))}`, operation: ops[op](m) }));
    },
    /** add opens a new object (a Namespace to start from); saving appends a create step. */
    add() {
      const template = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-b' } };
      open('Add an object', 'Saving appends a "create" step with this object and runs the scenario (Ctrl+Enter saves).',
        toYAML(template), (m) => ({ name: `create ${refString(refOf(m))}`, operation: ops.create(m) }));
    },
  };
}
