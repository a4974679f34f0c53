// Reading the engine's result (timeline.Result as JSON, wasm/doc.go): its
// problems, its steps' outcomes and which changes are only metadata churn.
// Pure functions: the playground and the embed share them.

/** errorsIn lists the result's diagnostics that are not warnings. */
export const errorsIn = (r) => (r?.diagnostics || []).filter((d) => d.severity !== 'warning');

/**
 * inputError tells a result that keeps the last view: nothing ran, or a
 * write was refused for what it says (result.invalid, see
 * timeline.Result.Invalid).
 */
export const inputError = (r) => errorsIn(r).length > 0 && (r.invalid || !(r.steps || []).length);

/** internalError is the diagnostic of genplay's own failure (not the input's), or undefined. */
export const internalError = (r) => errorsIn(r).find((d) => d.message.startsWith('internal error'));

export const isCheck = (s) => s.operation === 'assert' || s.operation === 'error';
export const stepFailed = (s) => !!s.error || (s.check && !s.check.passed);

/** failureOf says in one line what failed in a step. */
export function failureOf(s) {
  if (!s) return '';
  if (s.check && !s.check.passed) return (s.check.failures || []).join('; ');
  return s.error || '';
}

/** churnLine matches a diff line that only shows metadata churn. */
export const churnLine = /^[-+ ]\s*(resourceVersion|generation|creationTimestamp|uid|lastTransitionTime|managedFields):/;

const churnKeys = new Set(['resourceVersion', 'generation', 'creationTimestamp', 'uid', 'lastTransitionTime', 'managedFields']);

// churnPatch tells a merge patch that changes only churn fields.
const churnPatch = (p) => Object.entries(p).every(([k, v]) =>
  churnKeys.has(k) || (v !== null && typeof v === 'object' && !Array.isArray(v) && churnPatch(v)));

/**
 * churnOnly tells a change that is nothing but metadata churn: an update
 * whose patch (timeline v2) touches only churn fields, or, for a write
 * undone within the step, whose diff shows only churn lines.
 */
export const churnOnly = (c) => {
  if (!c || c.change !== 'updated') return false;
  if (typeof c.diff === 'string' && c.diff) return !c.diff.split('\n').some((l) => /^[-+](?![-+])/.test(l) && !churnLine.test(l));
  return !!c.patch && churnPatch(c.patch);
};
