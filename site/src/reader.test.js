// Unit tests of reader.js (the timeline's reader) and diff.js (node --test,
// run by make test). reader_test.go checks both against the engine's own
// reader and diff over the golden timelines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyPatch, readerOf } from './reader.js';
import { unifiedDiff, changeDiff } from './diff.js';
import { read, parse } from './scenario.js';

const ns = (name, rv, labels) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, resourceVersion: rv, ...(labels ? { labels } : {}) } });

// A Namespace created, labelled (a patch), a ConfigMap created through one
// version of its kind and deleted through another.
const result = {
  format: 'genplay.timeline/v2',
  initial: [ns('default', '1')],
  steps: [
    { index: 0, changes: [
      { object: { apiVersion: 'v1', kind: 'Namespace', name: 'a' }, change: 'created', after: ns('a', '6') },
      { object: { apiVersion: 'example.com/v1', kind: 'Thing', namespace: 'a', name: 't' }, change: 'created',
        after: { apiVersion: 'example.com/v1', kind: 'Thing', metadata: { name: 't', namespace: 'a' } } },
    ] },
    { index: 1, changes: [{ object: { apiVersion: 'v1', kind: 'Namespace', name: 'a' }, change: 'updated',
      patch: { metadata: { labels: { team: 'x' }, resourceVersion: '7' } } }] },
    { index: 2, changes: [{ object: { apiVersion: 'example.com/v2', kind: 'Thing', namespace: 'a', name: 't' }, change: 'deleted' }] },
  ],
};
const names = (objs) => objs.map((o) => `${o.kind} ${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name}`);

test('applyPatch applies a merge patch without changing its input', () => {
  const target = { a: { b: 1, c: 2 }, l: [1, 2] };
  const out = applyPatch(target, { a: { b: null, d: 3 }, l: [3], n: { x: null, y: 1 } });
  assert.deepEqual(out, { a: { c: 2, d: 3 }, l: [3], n: { y: 1 } });
  assert.deepEqual(target, { a: { b: 1, c: 2 }, l: [1, 2] });
});

test('the cluster after each step is initial with the changes applied, sorted as the API server lists', () => {
  const r = readerOf(result);
  assert.equal(readerOf(result), r, 'one reader per result');
  assert.deepEqual(names(r.cluster(-1)), ['Namespace default']);
  assert.deepEqual(names(r.cluster(0)), ['Namespace a', 'Namespace default', 'Thing a/t'], 'by group, kind, namespace, name');
  assert.equal(r.cluster(1)[0].metadata.labels.team, 'x', 'the patch applied');
  assert.deepEqual(names(r.final()), ['Namespace a', 'Namespace default'], 'deleted through another version of its kind');
  assert.equal(r.get(1, { apiVersion: 'v1', kind: 'Namespace', name: 'a' }), r.after(1, 0), 'a version is one object');
  assert.equal(r.before(1, 0), result.steps[0].changes[0].after);
  assert.equal(r.get(2, { apiVersion: 'example.com/v1', kind: 'Thing', namespace: 'a', name: 't' }), null);
});

test('a change without a diff of its own gets one from its two versions', () => {
  const d = changeDiff(readerOf(result), 1, 0);
  assert.match(d, /^--- Namespace a \(before\)\n\+\+\+ Namespace a \(after\)\n@@ /);
  assert.match(d, /\n\+ {2}labels:\n\+ {4}team: x\n/);
  assert.equal(unifiedDiff('a', 'b', 'same\n', 'same\n'), '');
  assert.equal(unifiedDiff('a', 'b', '', 'x\ny\n'), '--- a\n+++ b\n@@ -0,0 +1,2 @@\n+x\n+y\n');
});

test('read shares a document per text; parse gives one of its own', () => {
  const text = 'a: 1\n';
  assert.equal(read(text), read(text));
  assert.notEqual(parse(text), parse(text));
  assert.throws(() => read('a: [\n'));
  assert.throws(() => read('a: [\n'), 'an error is kept too');
});
