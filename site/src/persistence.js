// What the playground keeps in the browser's localStorage between visits:
// the scenario's text, the text of the last result that ran (shown, marked
// stale, when the scenario no longer runs), the view (the selected step, the
// open matrix) and the text of a run that was stopped (not run again on
// load). Storage may be
// full or disabled: every read then finds nothing and every write is
// dropped, and the page works without it.
const KEYS = {
  text: 'genplay.scenario.v1',
  ran: 'genplay.ran.v1',
  view: 'genplay.view.v1',
  stopped: 'genplay.stopped.v1',
};

function read(key) {
  try { return localStorage.getItem(key); } catch { return null; }
}

function write(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch { /* storage full or disabled */ }
}

/** savedText is the scenario the user last had, or null. */
export const savedText = () => read(KEYS.text);
export const saveText = (text) => write(KEYS.text, text);

/** ranText is the text of the last result that ran, or null: a reload with a broken scenario shows it. */
export const ranText = () => read(KEYS.ran);
export const saveRan = (text) => write(KEYS.ran, text);

/** savedView is the last view ({step, matrix}), or null. */
export function savedView() {
  try {
    const v = JSON.parse(read(KEYS.view) || 'null');
    return v && typeof v === 'object' ? v : null;
  } catch {
    return null;
  }
}
export const saveView = (view) => write(KEYS.view, JSON.stringify(view));

/** stoppedText is the text of the last run that was stopped, or null. */
export const stoppedText = () => read(KEYS.stopped);
/** setStopped records the text of a run that was stopped, or forgets it (null). */
export const setStopped = (text) => write(KEYS.stopped, text);
