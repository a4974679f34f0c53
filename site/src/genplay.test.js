// Unit tests of genplay.js's choice of build (node --test, run by make
// test): which scenarios the loader sends to the full build before the core
// one sees them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { needsFull } from './genplay.js';

const scenario = (ops) => `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: t
spec:
  steps:
  - try:
${ops}`;

test('a CEL policy needs the full build for its CEL engine', () => {
  assert.equal(needsFull(scenario('    - apply:\n        resource:\n          apiVersion: policies.kyverno.io/v1\n          kind: GeneratingPolicy\n')), 'cel');
});

test('a script or command operation needs the full build for its shell', () => {
  assert.equal(needsFull(scenario('    - script:\n        content: kubectl get ns\n')), 'shell');
  assert.equal(needsFull(scenario('    - command:\n        entrypoint: kubectl\n        args: [get, ns]\n')), 'shell');
  assert.equal(needsFull(scenario('    -   script:\n        content: kubectl get ns\n')), 'shell');
});

test('a ClusterPolicy scenario without scripts stays in the core build', () => {
  assert.equal(needsFull(scenario('    - apply:\n        resource:\n          apiVersion: kyverno.io/v1\n          kind: ClusterPolicy\n')), '');
  // A container's command is not an operation.
  assert.equal(needsFull(scenario('    - apply:\n        resource:\n          apiVersion: v1\n          kind: Pod\n          spec:\n            containers:\n            - name: c\n              command: [sleep, "1"]\n')), '');
  assert.equal(needsFull(undefined), '');
});
