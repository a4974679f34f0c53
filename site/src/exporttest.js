// "Export as test": the scenario as a chainsaw Test that checks what Kyverno
// did after each operation (the tools build's "export" tool, engine/export,
// the CLI's genplay export). The file is shown, to copy, and can be
// downloaded; it runs green in genplay test and, with chainsaw, verifies on
// a real cluster that Kyverno behaves as the simulation says.
import { h } from './dom.js';

// setupExportTest adds the button after anchor and its dialog.
// getText returns the scenario, fileName the name to download it as;
// setStatus(text, kind) reports the outcome in the page's status line.
export function setupExportTest({ genplay, anchor, getText, fileName, setStatus }) {
  const text = h('textarea', { id: 'export-test-text', rows: 18, spellcheck: 'false', readonly: true, 'aria-label': 'The exported chainsaw test' });
  const summary = h('p', { id: 'export-test-summary', class: 'sub' });
  const error = h('p', { id: 'export-test-error', class: 'error', role: 'alert' });
  const download = h('button', { id: 'export-test-download', type: 'button' }, 'Download');
  const copy = h('button', { id: 'export-test-copy', type: 'button' }, 'Copy');
  const close = h('button', { id: 'export-test-close', type: 'button' }, 'Close');
  const dialog = h('dialog', { id: 'export-test-dialog', 'aria-labelledby': 'export-test-title' },
    h('form', { method: 'dialog', class: 'dialog-form' },
      h('h2', { id: 'export-test-title' }, 'Export as test'),
      h('p', { class: 'sub' }, 'Your scenario with, after each operation, a chainsaw assert of every object Kyverno created, updated or kept, ',
        'an error check for what it deleted or must leave absent, and a wait for each policy to be ready. ',
        'It passes in genplay test; run it with chainsaw test on a cluster with Kyverno to check that Kyverno behaves as simulated.'),
      summary, error, text,
      h('div', { class: 'dialog-buttons' }, copy, download, close)));
  document.body.append(dialog);
  const button = h('button', { id: 'export-checks', type: 'button', title: 'Export the scenario as a chainsaw test that asserts what Kyverno did' }, 'Export as test');
  anchor.after(' ', button);

  let name = 'scenario-test.yaml';
  button.addEventListener('click', async () => {
    const scenario = getText();
    name = `${fileName(scenario)}-test.yaml`;
    text.value = '';
    error.textContent = '';
    summary.textContent = 'Exporting… (this loads the full engine the first time)';
    download.disabled = copy.disabled = true;
    dialog.dataset.state = 'busy';
    if (!dialog.open) dialog.showModal();
    const answer = await genplay.tool('export', scenario);
    if (answer.error) {
      summary.textContent = '';
      error.textContent = `Cannot export: ${answer.error}`;
      dialog.dataset.state = 'error';
      setStatus('The scenario could not be exported as a test; the dialog says why.', 'error');
      return;
    }
    const r = answer.result;
    text.value = r.text;
    summary.textContent = `${r.asserts} assert${r.asserts === 1 ? '' : 's'} and ${r.errors} absence check${r.errors === 1 ? '' : 's'} added, each after a “# genplay:” comment that says why.`;
    download.disabled = copy.disabled = false;
    dialog.dataset.state = 'done';
    setStatus(`Exported as a test: ${r.asserts} asserts, ${r.errors} absence checks.`, 'ok');
  });
  download.addEventListener('click', () => {
    const a = h('a', { download: name });
    a.href = URL.createObjectURL(new Blob([text.value], { type: 'text/yaml' }));
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  });
  copy.addEventListener('click', async () => {
    text.select();
    try { await navigator.clipboard.writeText(text.value); copy.textContent = 'Copied'; } catch { copy.textContent = 'Selected: press Ctrl+C'; }
    setTimeout(() => { copy.textContent = 'Copy'; }, 2000);
  });
  close.addEventListener('click', () => dialog.close());
  return { button, dialog };
}
