// Unit tests of share.js: links that carry a scenario (node --test, run by
// make test).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encode, decode, encodeLink, decodeLink, encodeView, decodeView, version } from './share.js';

const examples = [
  { file: 'default-deny-netpol.yaml', text: 'apiVersion: chainsaw.kyverno.io/v1alpha1\nkind: Test\nspec:\n  steps:\n  - name: a\n' },
  { file: 'clonelist.yaml', text: 'apiVersion: chainsaw.kyverno.io/v1alpha1\nkind: Test\nspec:\n  steps:\n  - name: b\n' },
];
const appended = '  - name: delete NetworkPolicy team-a/default-deny\n    try:\n    - delete:\n        ref:\n          apiVersion: networking.k8s.io/v1\n          kind: NetworkPolicy\n          namespace: team-a\n          name: default-deny\n';

test('an example as it is travels as its name', async () => {
  assert.equal(await encodeLink(examples[1].text, examples), 'example=clonelist');
  assert.deepEqual(await decodeLink('#example=clonelist&step=3', examples), { text: examples[1].text, example: 'clonelist.yaml' });
});

test('an example with steps appended carries only what was appended, and reads back the same', async () => {
  const text = examples[0].text + appended;
  const frag = await encodeLink(text, examples);
  assert.match(frag, /^example=default-deny-netpol&v=[0-9a-z]+&add=[A-Za-z0-9_-]+$/);
  assert.ok(frag.length < (await encode(text)).length, 'shorter than the whole text');
  const link = await decodeLink(`#${frag}&step=4&matrix=1`, examples);
  assert.equal(link.text, text);
  assert.equal(link.changed, false);
  assert.deepEqual(decodeView(`#${frag}&step=4&matrix=1`), { step: 4, matrix: true, fields: {}, kyverno: null });
});

test('a link made from an older example adds its steps to the example as it is now, and says so', async () => {
  const frag = await encodeLink(examples[0].text + appended, examples);
  const newer = [{ ...examples[0], text: examples[0].text.replace('name: a', 'name: a2') }];
  const link = await decodeLink(`#${frag}`, newer);
  assert.equal(link.text, newer[0].text + appended);
  assert.equal(link.changed, true);
});

test('any other scenario travels whole (s=), as before', async () => {
  const text = 'apiVersion: chainsaw.kyverno.io/v1alpha1\nkind: Test\n# mine\n';
  const frag = await encodeLink(text, examples);
  assert.match(frag, /^s=/);
  assert.equal((await decodeLink(`#${frag}`, examples)).text, text);
  assert.equal(await decode(`#${await encode(text)}${encodeView({ step: 2, matrix: false })}`), text);
});

test('unknown or damaged links say so, and a fragment without a scenario is none', async () => {
  await assert.rejects(decodeLink('#example=nope', examples), /does not have/);
  await assert.rejects(decodeLink('#example=clonelist&add=%%%', examples), /damaged/);
  await assert.rejects(decodeLink('#s=AAAA', examples), /damaged/);
  assert.equal(await decodeLink('#step=3', examples), null);
  assert.equal(await decodeLink('', examples), null);
});

test('version is a fingerprint of the text', () => {
  assert.equal(version('abc'), version('abc'));
  assert.notEqual(version('abc'), version('abd'));
});
