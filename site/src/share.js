// Share links: the scenario, deflate-raw compressed and base64url encoded, in
// the URL fragment (#s=...), so no server ever sees it; the view travels
// after it (&step=N: the selected step, &matrix=1: the matrix is open,
// &kyverno=v1.19.0: the Kyverno release simulated, when not the default),
// and an embedded player's switch (&synchronize=false) that the playground
// writes into the scenario's policies.

export const MAX_FRAGMENT = 64 * 1024; // characters of encoded data we accept
export const MAX_TEXT = 1024 * 1024; // bytes a link may inflate to

const b64url = (bytes) => {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};

const unb64url = (s) => {
  const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
};

async function pipe(bytes, stream, limit) {
  const reader = new Blob([bytes]).stream().pipeThrough(stream).getReader();
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) { await reader.cancel(); throw new Error('the shared scenario is too large'); }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let off = 0;
  for (const c of chunks) { out.set(c, off); off += c.length; }
  return out;
}

/** encode returns the fragment (without '#') for a scenario text. */
export async function encode(text) {
  const data = await pipe(new TextEncoder().encode(text), new CompressionStream('deflate-raw'), Infinity);
  const frag = `s=${b64url(data)}`;
  if (frag.length > MAX_FRAGMENT) throw new Error('the scenario is too large for a link; export it instead');
  return frag;
}

/** decode returns the scenario in a fragment, null when there is none, or throws. */
export async function decode(fragment) {
  const m = /^#?s=([A-Za-z0-9_-]*)(?:&[A-Za-z]+=[0-9a-z.]*)*$/.exec(fragment || '');
  if (!m) return null;
  if (m[1].length > MAX_FRAGMENT) throw new Error('the share link is too long');
  let bytes;
  try { bytes = unb64url(m[1]); } catch { throw new Error('the share link is damaged'); }
  try {
    const out = await pipe(bytes, new DecompressionStream('deflate-raw'), MAX_TEXT);
    return new TextDecoder('utf-8', { fatal: true }).decode(out);
  } catch (e) {
    throw new Error(e.message.includes('too large') ? e.message : 'the share link is damaged');
  }
}

/** encodeView returns the fragment's view part ("&step=3&matrix=1&kyverno=v1.19.0"). */
export function encodeView({ step, matrix, kyverno }) {
  return `${Number.isInteger(step) ? `&step=${step}` : ''}${matrix ? '&matrix=1' : ''}${kyverno ? `&kyverno=${kyverno}` : ''}`;
}

/** decodeView reads the view part of a fragment: {step, matrix, fields, kyverno}. */
export function decodeView(fragment) {
  const params = new URLSearchParams((fragment || '').replace(/^#/, ''));
  const step = /^[0-9]{1,6}$/.test(params.get('step') || '') ? Number(params.get('step')) : null;
  const fields = {};
  for (const f of ['synchronize', 'orphanDownstreamOnPolicyDelete']) {
    if (params.get(f) === 'true' || params.get(f) === 'false') fields[f] = params.get(f) === 'true';
  }
  const kyverno = /^v?[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}$/.test(params.get('kyverno') || '') ? params.get('kyverno') : null;
  return { step, matrix: params.get('matrix') === '1', fields, kyverno };
}

// ---------------------------------------------------------------- links to examples

// A scenario that is an example of the gallery as it is, or with steps
// appended (what the playground's actions do), travels as the example's
// name and the appended text alone: #example=NAME, or
// #example=NAME&v=VERSION&add=... (deflated like s=); VERSION tells the
// example's text the link was made from.

const stem = (file) => file.replace(/\.ya?ml$/, '');

/** version is a short fingerprint of an example's text (FNV-1a, 32 bits). */
export function version(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(36);
}

/**
 * encodeLink returns the fragment (without '#') for a scenario: the
 * example's name when text is an example with nothing or with steps
 * appended, else s=... as encode does. examples: [{file, text}].
 */
export async function encodeLink(text, examples) {
  const ex = (examples || []).filter((e) => text.startsWith(e.text)).sort((a, b) => b.text.length - a.text.length)[0];
  if (!ex) return encode(text);
  const name = `example=${stem(ex.file)}`;
  const rest = text.slice(ex.text.length);
  if (!rest) return name;
  const data = await pipe(new TextEncoder().encode(rest), new CompressionStream('deflate-raw'), Infinity);
  const frag = `${name}&v=${version(ex.text)}&add=${b64url(data)}`;
  if (frag.length > MAX_FRAGMENT) throw new Error('the scenario is too large for a link; export it instead');
  return frag;
}

/**
 * decodeLink returns what a fragment holds: {text, example?, changed?}
 * (changed: the example's text is not the one the link was made from, and
 * the appended steps follow the example as it is now), null when the
 * fragment holds no scenario, or throws for a damaged or unknown one.
 */
export async function decodeLink(fragment, examples) {
  const params = new URLSearchParams((fragment || '').replace(/^#/, ''));
  const name = params.get('example');
  if (name === null) {
    const text = await decode(fragment);
    return text === null ? null : { text };
  }
  const ex = (examples || []).find((e) => stem(e.file) === name);
  if (!ex) throw new Error(`the link names the example "${name}", which this playground does not have`);
  const add = params.get('add');
  if (!add) return { text: ex.text, example: ex.file };
  if (add.length > MAX_FRAGMENT || !/^[A-Za-z0-9_-]*$/.test(add)) throw new Error('the share link is damaged');
  let rest;
  try {
    const out = await pipe(unb64url(add), new DecompressionStream('deflate-raw'), MAX_TEXT);
    rest = new TextDecoder('utf-8', { fatal: true }).decode(out);
  } catch (e) {
    throw new Error(e.message.includes('too large') ? e.message : 'the share link is damaged');
  }
  return { text: ex.text + rest, example: ex.file, changed: params.get('v') !== version(ex.text) };
}
