// Unit tests of steps.js: timeline steps matched to the scenario's lines,
// and moving or removing them (node --test, run by make test).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import YAML from 'yaml';
import { operations, locate, stepAt, canMove, moveOperation, moveChainsawStep, removeOperation, removeChainsawStep } from './steps.js';

const text = `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: t
spec:
  steps:
  - name: setup
    try:
    - apply:
        resource:
          apiVersion: v1
          kind: Namespace
          metadata:
            name: a
    - apply:
        file: several.yaml
    - assert:
        resource:
          apiVersion: v1
          kind: ConfigMap
          metadata:
            name: c
            namespace: a
  - name: wait
    try:
    - sleep:
        duration: 1h
  - name: clean up
    try:
    - delete:
        ref:
          apiVersion: v1
          kind: Namespace
          name: a
`;

// The timeline the engine gives for it: the file applies two resources.
const timeline = [
  { stepName: 'setup', operation: 'apply', summary: 'apply Namespace a' },
  { stepName: 'setup', operation: 'apply', summary: 'apply ConfigMap a/x' },
  { stepName: 'setup', operation: 'apply', summary: 'apply ConfigMap a/y' },
  { stepName: 'setup', operation: 'assert', summary: 'assert ConfigMap a/c' },
  { stepName: 'wait', operation: 'sleep', summary: 'sleep 1h' },
  { stepName: 'clean up', operation: 'delete', summary: 'delete Namespace a' },
];

const lineOf = (pos) => text.slice(0, pos).split('\n').length;
const names = (t) => YAML.parse(t).spec.steps.map((s) => s.name);

test('operations lists each chainsaw step\'s operations with whole-line ranges and summaries', () => {
  const chainsaw = operations(text);
  assert.deepEqual(chainsaw.map((s) => s.name), ['setup', 'wait', 'clean up']);
  assert.deepEqual(chainsaw[0].ops.map((o) => [o.type, o.single, o.summary]), [
    ['apply', true, 'apply Namespace a'], ['apply', false, ''], ['assert', true, 'assert ConfigMap a/c']]);
  const del = chainsaw[2].ops[0];
  assert.equal(del.summary, 'delete Namespace a');
  assert.equal(text.slice(del.from, del.to), text.slice(text.indexOf('    - delete:')));
  assert.equal(lineOf(chainsaw[1].from), 24);
  assert.deepEqual(operations('spec: [\n'), []);
  assert.deepEqual(operations('{"spec": {"steps": [{"name": "a"}]}}'), [], 'a flow list of steps has no line tools');
});

test('locate matches every timeline step to its operation, several to a file', () => {
  const at = locate(text, timeline);
  assert.deepEqual(at.map((o) => o && `${o.step}.${o.index}`), ['0.0', '0.1', '0.1', '0.2', '1.0', '2.0']);
  assert.deepEqual(locate(text, [{ stepName: 'chainsaw namespace', operation: 'create', summary: '' }]), [null]);
});

test('stepAt finds the timeline step of a position, the current one first', () => {
  const chainsaw = operations(text);
  const at = locate(text, timeline);
  const inFile = text.indexOf('file: several.yaml');
  assert.equal(stepAt(at, chainsaw, inFile, 0), 1);
  assert.equal(stepAt(at, chainsaw, inFile, 2), 2, 'the current step when it holds the position');
  assert.equal(stepAt(at, chainsaw, text.indexOf('- name: wait'), 0), 4, 'a step\'s name line selects its first operation');
  assert.equal(stepAt(at, chainsaw, 0, 0), -1);
});

test('an operation moves inside its block, and an operation alone moves its whole step', () => {
  const chainsaw = operations(text);
  const [ns, file, check] = chainsaw[0].ops;
  assert.equal(canMove(chainsaw, ns, -1), false);
  assert.equal(canMove(chainsaw, check, 1), false);
  const moved = moveOperation(text, check, -1);
  assert.deepEqual(YAML.parse(moved).spec.steps[0].try.map((o) => Object.keys(o)[0]), ['apply', 'assert', 'apply']);
  assert.equal(moveOperation(moved, operations(moved)[0].ops[1], 1), text, 'moving it back gives the text back');
  assert.ok(canMove(chainsaw, chainsaw[1].ops[0], -1));
  assert.deepEqual(names(moveOperation(text, chainsaw[1].ops[0], -1)), ['wait', 'setup', 'clean up']);
  assert.deepEqual(names(moveChainsawStep(text, 2, -1)), ['setup', 'clean up', 'wait']);
  assert.throws(() => moveChainsawStep(text, 0, -1), /first step/);
  assert.throws(() => moveOperation(text, file, 5), /no longer|last operation/);
});

test('removing an operation removes its lines; the only operation takes its step', () => {
  const chainsaw = operations(text);
  const out = removeOperation(text, chainsaw[0].ops[1]);
  assert.doesNotMatch(out, /several\.yaml/);
  assert.equal(YAML.parse(out).spec.steps[0].try.length, 2);
  assert.deepEqual(names(removeOperation(text, chainsaw[1].ops[0])), ['setup', 'clean up']);
  assert.deepEqual(names(removeChainsawStep(text, 0)), ['wait', 'clean up']);
  const one = 'spec:\n  steps:\n  - name: a\n    try:\n    - sleep: {duration: 1s}\n';
  assert.throws(() => removeOperation(one, operations(one)[0].ops[0]), /at least one step/);
  const flow = 'spec:\n  steps:\n  - name: a\n    try: [{sleep: {duration: 1s}}, {sleep: {duration: 2s}}]\n  - name: b\n';
  assert.throws(() => removeOperation(flow, operations(flow)[0].ops[0]), /flow sequence/);
});
